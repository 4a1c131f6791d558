#include "paging/paging.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <tuple>

#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"

namespace paging {
namespace {
constexpr uint64_t kPage = emu::kPageSize;
constexpr uint64_t kSegment = emu::kSegmentSize;
constexpr uint64_t kPagesPerSegment = emu::kPagesPerSegment;
}  // namespace

void Paging::install(os::System& system) {
  system_ = &system;
  system.add_operator_commands(
      "ASM",
      "D ASM                        the page data sets and SCM: how full (IEE200I)\n"
      "D ASM,SCM                    SCM for paging: size, used, in error, in 4 KB slots (IEE207I)\n",
      [this](const os::OperatorCommand& c, uint64_t now, uint64_t ns, bool) {
        std::string t;
        for (char ch : c.text)
          if (ch != ' ') t += char(std::toupper(static_cast<unsigned char>(ch)));
        const std::vector<std::string> lines = t == "DASM" ? display_asm(ns) : display_asm_scm(ns);
        std::string answer;
        system_->log(fmt::format("{:>12} operator: {}", now, c.text));
        for (const std::string& l : lines) {
          system_->log(fmt::format("{:>12}   {}", now, l));
          answer += l + "\n";
        }
        return answer;
      });
  if (config_.real_storage == 0) return;
  budget_frames_ = config_.real_storage / kPage;
  fixed_frames_ = system.machine().storage().allocated_4k() +
                  system.machine().storage().allocated_1m() * kPagesPerSegment;  // the image and the system's own
  const size_t devices = 1 + devices_->dasd().size();
  next_block_.assign(devices, 0);
  free_blocks_.assign(devices, {});
  used_.assign(devices, 0);
  activity_.assign(devices, {});
  // The IPL's message on SCM for paging.
  const flashsim::ScmDevice* scm = devices_->scm();
  if (scm && config_.scm_limit > 0)
    system.log(fmt::format("IAR031I USE OF STORAGE-CLASS MEMORY FOR PAGING IS ENABLED - PAGESCM={}, ONLINE={:08}M",
                           config_.pagescm, scm->online_bytes() >> 20));
  else
    system.log(fmt::format("IAR032I USE OF STORAGE-CLASS MEMORY FOR PAGING IS NOT ENABLED - PAGESCM={}",
                           scm ? config_.pagescm : "NONE"));
  const uint64_t interval = std::max<uint64_t>(1, uint64_t(double(config_.check_interval_ns) *
                                                            system.machine().config().clock_ghz));
  system.every(interval, [this](uint64_t now) { check(now); });
  system.add_report({.name = "paging.txt", .write = [this](std::ostream& out) { write_text(out); }});
  system.add_report({.name = "paging.json", .write = [this](std::ostream& out) { write_json(out); }});
}

// The available frame queue: below its low threshold, steal up to the ok one.
void Paging::check(uint64_t now) {
  sample();
  const emu::Storage& st = system_->machine().storage();
  const uint64_t all = st.allocated_4k() + st.allocated_1m() * kPagesPerSegment;
  const uint64_t in_use = all > fixed_frames_ ? all - fixed_frames_ : 0;
  const uint64_t available = budget_frames_ > in_use ? budget_frames_ - in_use : 0;
  if (available < config_.afq_low) steal(config_.afq_ok - available, now);
}

Paging::ProcessPages& Paging::adopt(os::Process& p) {
  ProcessPages& pp = processes_[p.id];
  if (!pp.process) {
    pp.process = &p;
    p.space->set_track_changes(true);
    const uint64_t id = p.id;
    p.space->set_host_fault_handler([this, id](uint64_t va) {
      auto it = processes_.find(id);
      return it != processes_.end() && restore(it->second, va & ~emu::kPageMask);
    });
  }
  return pp;
}

// One pass: every resident pageable page's unreferenced-interval count goes up, or back
// to 0 if DAT referenced it since the last pass (the bit is reset); then the `frames`
// pages unreferenced longest are stolen (ties: process, then address, for determinism).
void Paging::steal(uint64_t frames, uint64_t now) {
  ++stats_.scans;
  struct Candidate {
    uint32_t uic;
    uint64_t pid, va;
    bool large;
  };
  std::vector<Candidate> candidates;
  system_->for_each_process([&](os::Process& p) {
    ProcessPages& pp = adopt(p);
    p.space->for_each_own_page([&](uint64_t va, emu::Frame& f) {
      Page& pg = pp.pages[va];
      if (pg.state != State::Resident) return;
      if (!pg.prot) pg.prot = p.space->prot_of(va);
      if (f.referenced) pg.uic = 0, f.referenced = false;
      else ++pg.uic;
      candidates.push_back({pg.uic, p.id, va, false});
    });
    p.space->for_each_large_segment([&](uint64_t va) {
      Page& sg = pp.large[va];
      if (sg.state != State::Resident) return;
      if (!sg.prot) sg.prot = p.space->prot_of(va);
      bool changed = false;
      if (p.space->segment_referenced(va, changed, true)) sg.uic = 0;
      else ++sg.uic;
      candidates.push_back({sg.uic, p.id, va, true});
    });
  });
  system_->machine().purge_micro_tlbs();  // the next reference sets the bit again
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(b.uic, a.pid, a.va) < std::tie(a.uic, b.pid, b.va);
  });
  std::vector<std::pair<ProcessPages*, uint64_t>> batch;
  uint64_t taken = 0;
  for (const Candidate& c : candidates) {
    if (taken >= frames) break;
    ProcessPages& pp = processes_.at(c.pid);
    if (c.large) {  // a pageable 1 MB page: out whole to SCM, or demoted to 4 KB pages
      if (steal_large(pp, c.va, now)) taken += kPagesPerSegment;
      continue;
    }
    ++taken;
    Page& pg = pp.pages.at(c.va);
    emu::AddressSpace& space = *pp.process->space;
    emu::Translation t;
    if (space.translate(c.va, t) != emu::Translate::Ok) continue;
    ++stats_.stolen;
    if (t.frame->changed || pg.slot.device < 0) {
      if (pg.slot.device >= 0) free_slot(pg.slot), pg.slot = {};
      pg.buffer = std::make_shared<std::vector<uint8_t>>(t.frame->data.get(), t.frame->data.get() + kPage);
      pg.state = State::Writing;
      batch.emplace_back(&pp, c.va);
    } else {
      pg.state = State::Out;
      ++stats_.freed_clean;
    }
    space.unmap(c.va, kPage);
  }
  write_out(batch, now);
}

// A large segment taken: to a 1 MB slot on SCM (one MSB) if there is room, else demoted
// to 4 KB pages (which later passes page as any other; it frees nothing now). True if
// its frame was freed.
bool Paging::steal_large(ProcessPages& pp, uint64_t va, uint64_t now) {
  emu::AddressSpace& space = *pp.process->space;
  Page& sg = pp.large.at(va);
  bool changed = false;
  space.segment_referenced(va, changed, false);
  if (sg.slot.device < 0 || changed) {
    if (sg.slot.device >= 0) free_large_slot(sg.slot), sg.slot = {};
    sg.slot = new_large_slot();
    if (sg.slot.device < 0) {  // no contiguous SCM for it: 4 KB pages from now on
      space.demote(va);
      pp.large.erase(va);
      ++stats_.demoted;
      return false;
    }
    sg.buffer = std::make_shared<std::vector<uint8_t>>(kSegment);
    space.read_bytes(va, sg.buffer->data(), kSegment);
    sg.state = State::Writing;
    auto t = std::make_shared<devices::Transfer>();
    t->request.blocks.push_back({flashsim::Op::Write, sg.slot.address, uint32_t(kSegment), sg.buffer->data()});
    const uint64_t pid = pp.process->id;
    ++stats_.write_ios, ++stats_.large_out;
    started(0, kPagesPerSegment);
    system_->start_io(subchannel(sg.slot), now, t, [this, pid, va](const emu::IoInterruption& i) {
      completed(0, i.time - i.started, kPagesPerSegment);
      auto p = processes_.find(pid);
      if (p == processes_.end()) return;
      auto g = p->second.large.find(va);
      if (g == p->second.large.end() || g->second.state != State::Writing) return;  // taken back
      Page& sg = g->second;
      if (i.status) {
        system_->log(fmt::format("{:>12} PAGING: page-out of the 1 MB page {:#x} failed: {}", i.time, va, i.detail));
        const auto keep = sg.buffer;
        put_back_large(p->second, va, sg, keep->data());
        return;
      }
      sg.state = State::Out;
      sg.buffer.reset();
    });
  } else {
    sg.state = State::Out;
    ++stats_.freed_clean;
  }
  ++stats_.stolen;
  space.unmap(va, kSegment);
  return true;
}

// 1 MB slots come down from the top of the SCM paging may use, 4 KB ones up from 0.
Paging::Slot Paging::new_large_slot() {
  const flashsim::ScmDevice* d = devices_->scm();
  if (!d || config_.scm_limit == 0) return {};
  if (!large_top_set_) {
    large_top_ = std::min(config_.scm_limit, d->online_bytes()) & ~(kSegment - 1);
    large_top_set_ = true;
  }
  Slot s;
  s.device = 0;
  if (!free_large_.empty()) {
    s.address = free_large_.back();
    free_large_.pop_back();
  } else if (large_top_ >= kSegment && large_top_ - kSegment >= next_block_[0] * kPage) {
    large_top_ -= kSegment;
    s.address = large_top_;
  } else {
    return {};
  }
  used_[0] += kPagesPerSegment;
  return s;
}

void Paging::free_large_slot(const Slot& s) {
  if (s.device < 0) return;
  free_large_.push_back(s.address);
  used_[0] -= kPagesPerSegment;
}

// Maps the 1 MB page again with `data` (one 1 MB frame, or 4 KB frames if none is left:
// then it is demoted and paged as 4 KB pages from now on).
void Paging::put_back_large(ProcessPages& pp, uint64_t va, Page& sg, const uint8_t* data) {
  emu::AddressSpace& space = *pp.process->space;
  const bool large = space.map_large(va, kSegment, sg.prot) == 1;
  space.write_bytes(va, data, kSegment);
  if (!large) {  // now 4 KB pages, all changed: the 1 MB slot is of no use; the entry stays
    free_large_slot(sg.slot), sg.slot = {};  // (Resident) for a read in flight to wake its waiters
    sg.state = State::Resident;
    sg.buffer.reset();
    ++stats_.demoted;
    return;
  }
  for (uint64_t a = va; a < va + kSegment; a += kPage) {  // unchanged since its copy on SCM
    emu::Translation t;
    if (space.translate(a, t) == emu::Translate::Ok) t.frame->changed = false;
  }
  sg.state = State::Resident;
  sg.uic = 0;
  sg.buffer.reset();
}

// The pages of `batch` in requests of system.paging.group pages, each to one device.
void Paging::write_out(std::vector<std::pair<ProcessPages*, uint64_t>>& batch, uint64_t now) {
  for (size_t at = 0; at < batch.size(); at += config_.group) {
    const size_t n = std::min<size_t>(config_.group, batch.size() - at);
    const int dev = choose_device(n);
    const uint64_t group = next_group_++;
    auto t = std::make_shared<devices::Transfer>();
    std::vector<std::pair<uint64_t, uint64_t>> who;  // (process id, page)
    Slot first;
    for (size_t k = at; k < at + n; ++k) {
      auto& [pp, va] = batch[k];
      Page& pg = pp->pages.at(va);
      pg.slot = new_slot(dev);
      if (k == at) first = pg.slot;
      leave_group(pp->process->id, va, pg);
      pg.group = group;
      groups_[group].emplace_back(pp->process->id, va);
      t->request.blocks.push_back({flashsim::Op::Write, pg.slot.address, uint32_t(kPage), pg.buffer->data()});
      who.emplace_back(pp->process->id, va);
    }
    ++stats_.write_ios;
    stats_.written += n;
    (dev == 0 ? stats_.scm_pages : stats_.dasd_pages) += n;
    started(dev, n);
    system_->start_io(subchannel(first), now, t, [this, t, who, dev](const emu::IoInterruption& i) {
      completed(dev, i.time - i.started, who.size());
      for (const auto& [pid, va] : who) {
        auto p = processes_.find(pid);
        if (p == processes_.end()) continue;  // the process ended meanwhile
        auto g = p->second.pages.find(va);
        if (g == p->second.pages.end() || g->second.state != State::Writing) continue;  // taken back
        Page& pg = g->second;
        if (i.status) {  // not written: the page goes back to storage, nothing is lost
          system_->log(fmt::format("{:>12} PAGING: page-out of {:#x} failed: {}", i.time, va, i.detail));
          const auto keep = pg.buffer;
          put_back(p->second, va, pg, keep->data());
          free_slot(pg.slot), pg.slot = {};
          continue;
        }
        pg.state = State::Out;
        pg.buffer.reset();
      }
    });
  }
}

// Where a group of `n` pages goes: SCM while PAGESCM allows and it has room (it is the
// faster), else the next page volume in turn (or SCM anyway if there is no volume).
int Paging::choose_device(size_t n) {
  const flashsim::ScmDevice* d = devices_->scm();
  const uint64_t room = d ? std::min(config_.scm_limit, d->online_bytes()) / kPage : 0;
  const uint64_t below_large = large_top_set_ ? large_top_ / kPage : room;  // 1 MB slots come down from the top
  const uint64_t free_4k = free_blocks_[0].size() + (below_large > next_block_[0] ? below_large - next_block_[0] : 0);
  const bool scm_room = d && used_[0] + n <= room && free_4k >= n;  // used_[0]: 4 KB and 1 MB slots
  const size_t volumes = devices_->dasd().size();
  if (!volumes) return 0;
  const auto dasd = [&] { return int(1 + next_volume_++ % volumes); };
  if (!scm_room) return dasd();
  if (!config_.self_tuning) return 0;  // SCM while it has room
  // Self-tuning: the kind measured faster a page (page-outs and page-ins alike), each
  // measured first (SCM, then DASD); every 32nd request goes to the other kind, so that
  // its measurement stays current.
  if (measured_[0] == 0) return 0;
  if (measured_[1] == 0) return dasd();
  const bool scm = measured_[0] <= measured_[1];
  const bool probe = ++placed_ % 32 == 0;
  return scm != probe ? 0 : dasd();
}

Paging::Slot Paging::new_slot(int device) {
  Slot s;
  s.device = device;
  auto& free = free_blocks_[size_t(device)];
  uint64_t block;
  if (!free.empty()) block = free.back(), free.pop_back();
  else block = next_block_[size_t(device)]++;
  s.address = block * kPage;
  if (device == 0) ++scm_slots_used_;
  ++used_[size_t(device)];
  stats_.slots_high = std::max(stats_.slots_high, ++slots_used_);
  return s;
}

void Paging::free_slot(const Slot& s) {
  if (s.device < 0) return;
  free_blocks_[size_t(s.device)].push_back(s.address / kPage);
  --slots_used_;
  --used_[size_t(s.device)];
  if (s.device == 0) --scm_slots_used_;
}

unsigned Paging::subchannel(const Slot& s) const {
  return s.device == 0 ? devices_->scm_subchannel() : devices_->dasd_subchannel(size_t(s.device - 1));
}

flashsim::Device& Paging::device(const Slot& s) const {
  if (s.device == 0) return *devices_->scm();
  return *devices_->dasd()[size_t(s.device - 1)];
}

// Maps the page again with `data` as its contents: unchanged (its copy on auxiliary
// storage, if any, is valid), just referenced.
void Paging::put_back(ProcessPages& pp, uint64_t va, Page& pg, const uint8_t* data) {
  emu::AddressSpace& space = *pp.process->space;
  if (!space.map(va, kPage, pg.prot)) {
    system_->log(fmt::format("PAGING: no frame for page {:#x} of process {}", va, pp.process->id));
    return;
  }
  emu::Translation t;
  space.translate(va, t);
  std::memcpy(t.frame->data.get(), data, kPage);
  t.frame->changed = false, t.frame->referenced = true;
  leave_group(pp.process->id, va, pg);
  pg.state = State::Resident;
  pg.uic = 0;
  pg.buffer.reset();
}

bool Paging::restore(ProcessPages& pp, uint64_t va) {
  if (auto l = pp.large.find(va & ~(kSegment - 1)); l != pp.large.end() && l->second.state != State::Resident) {
    Page& sg = l->second;
    ++stats_.host_restores;
    if (sg.state == State::Writing) {
      const auto keep = sg.buffer;
      put_back_large(pp, l->first, sg, keep->data());
    } else {
      std::vector<uint8_t> data(kSegment);
      device(sg.slot).peek(sg.slot.address, uint32_t(kSegment), data.data());
      put_back_large(pp, l->first, sg, data.data());
    }
    return pp.process->space->is_mapped(va);
  }
  auto g = pp.pages.find(va);
  if (g == pp.pages.end() || g->second.state == State::Resident) return false;
  Page& pg = g->second;
  ++stats_.host_restores;
  if (pg.state == State::Writing) {
    const auto keep = pg.buffer;
    put_back(pp, va, pg, keep->data());
    free_slot(pg.slot), pg.slot = {};
  } else {  // Out, or Reading (its slot is valid until the read lands)
    std::vector<uint8_t> data(kPage);
    device(pg.slot).peek(pg.slot.address, uint32_t(kPage), data.data());
    put_back(pp, va, pg, data.data());
  }
  return pp.process->space->is_mapped(va);
}

emu::PageFaultHandler::Action Paging::page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) {
  using Action = emu::PageFaultHandler::Action;
  auto p = processes_.find(e.process->id);
  if (p == processes_.end()) return Action::Fail;
  ProcessPages& pp = p->second;
  if (auto l = pp.large.find(address & ~(kSegment - 1)); l != pp.large.end() && l->second.state != State::Resident)
    return large_fault(cpu, e, pp, l->first, l->second);
  const uint64_t va = address & ~emu::kPageMask;
  auto g = pp.pages.find(va);
  if (g == pp.pages.end() || g->second.state == State::Resident) return Action::Fail;
  Page& pg = g->second;
  cpu.charge(emu::Cause::Service, system_->config().system.service_cost);  // the fault's handling
  if (pg.state == State::Writing) {  // still on its way out: taken back, no I/O
    ++stats_.reclaims;
    const auto keep = pg.buffer;
    put_back(pp, va, pg, keep->data());
    free_slot(pg.slot), pg.slot = {};
    return Action::Retry;
  }
  ++stats_.fault_waits;
  if (pg.state == State::Reading) {  // another thread's page-in is on its way
    system_->park(cpu, e, pg.waiters);
    return Action::Wait;
  }
  ++stats_.page_ins;
  // The page, and (on SCM, speculatively) the rest of its process's pages that were
  // written with it and are still out: one request.
  std::vector<uint64_t> reads = {va};
  if (config_.speculative && pg.slot.device == 0 && pg.group)
    for (const auto& [pid, other] : groups_.at(pg.group))
      if (pid == pp.process->id && other != va && pp.pages.at(other).state == State::Out) reads.push_back(other);
  stats_.speculative += reads.size() - 1;
  auto t = std::make_shared<devices::Transfer>();
  std::vector<std::pair<uint64_t, std::shared_ptr<std::vector<uint8_t>>>> landing;
  for (uint64_t r : reads) {
    Page& q = pp.pages.at(r);
    q.state = State::Reading;
    q.buffer = std::make_shared<std::vector<uint8_t>>(kPage);
    t->request.blocks.push_back({flashsim::Op::Read, q.slot.address, uint32_t(kPage), q.buffer->data()});
    landing.emplace_back(r, q.buffer);
  }
  const uint64_t pid = pp.process->id;
  const int dev = pg.slot.device;
  started(dev, reads.size());
  system_->start_io(subchannel(pg.slot), cpu.cycles, t, [this, pid, landing, dev](const emu::IoInterruption& i) {
    const uint64_t took = i.time - i.started;
    completed(dev, took, landing.size());
    stats_.page_in_cycles += took;
    stats_.page_in_max_cycles = std::max(stats_.page_in_max_cycles, took);
    auto p = processes_.find(pid);
    if (p == processes_.end()) return;
    for (const auto& [r, buffer] : landing) {
      auto g = p->second.pages.find(r);
      if (g == p->second.pages.end()) continue;
      Page& q = g->second;
      if (q.state == State::Reading && q.buffer == buffer) put_back(p->second, r, q, buffer->data());  // else a host access did
      os::WaitList waiters;
      waiters.swap(q.waiters);
      for (os::Ecb* w : waiters) system_->make_ready(*w, i.time);
    }
  });
  system_->park(cpu, e, pg.waiters);
  return Action::Wait;
}

emu::PageFaultHandler::Action Paging::large_fault(emu::Cpu& cpu, os::Ecb& e, ProcessPages& pp, uint64_t va,
                                                  Page& sg) {
  using Action = emu::PageFaultHandler::Action;
  cpu.charge(emu::Cause::Service, system_->config().system.service_cost);
  if (sg.state == State::Writing) {
    ++stats_.reclaims;
    const auto keep = sg.buffer;
    put_back_large(pp, va, sg, keep->data());
    return Action::Retry;
  }
  ++stats_.fault_waits;
  if (sg.state == State::Reading) {
    system_->park(cpu, e, sg.waiters);
    return Action::Wait;
  }
  ++stats_.page_ins, ++stats_.large_in;
  sg.state = State::Reading;
  sg.buffer = std::make_shared<std::vector<uint8_t>>(kSegment);
  auto t = std::make_shared<devices::Transfer>();
  t->request.blocks.push_back({flashsim::Op::Read, sg.slot.address, uint32_t(kSegment), sg.buffer->data()});
  const uint64_t pid = pp.process->id;
  const auto buffer = sg.buffer;
  started(0, kPagesPerSegment);
  system_->park(cpu, e, sg.waiters);
  system_->start_io(subchannel(sg.slot), cpu.cycles, t, [this, pid, va, buffer](const emu::IoInterruption& i) {
    const uint64_t took = i.time - i.started;
    completed(0, took, kPagesPerSegment);
    stats_.page_in_cycles += took;
    stats_.page_in_max_cycles = std::max(stats_.page_in_max_cycles, took);
    auto p = processes_.find(pid);
    if (p == processes_.end()) return;
    auto g = p->second.large.find(va);
    if (g == p->second.large.end()) return;
    os::WaitList waiters;
    waiters.swap(g->second.waiters);
    if (g->second.state == State::Reading && g->second.buffer == buffer)
      put_back_large(p->second, va, g->second, buffer->data());
    for (os::Ecb* w : waiters) system_->make_ready(*w, i.time);
  });
  return Action::Wait;
}

void Paging::leave_group(uint64_t pid, uint64_t va, Page& pg) {
  if (!pg.group) return;
  auto it = groups_.find(pg.group);
  if (it != groups_.end()) {
    auto& v = it->second;
    v.erase(std::remove(v.begin(), v.end(), std::make_pair(pid, va)), v.end());
    if (v.empty()) groups_.erase(it);
  }
  pg.group = 0;
}

void Paging::process_ending(os::Process& p) {
  auto it = processes_.find(p.id);
  if (it == processes_.end()) return;
  for (auto& [va, pg] : it->second.pages) free_slot(pg.slot), leave_group(p.id, va, pg);
  for (auto& [va, sg] : it->second.large) free_large_slot(sg.slot);
  processes_.erase(it);
}

os::OperatorGrammars Paging::operator_grammars() const {
  const auto squeeze = [](std::string_view text) {
    std::string t;
    for (char ch : text)
      if (ch != ' ' && ch != '\t') t += char(std::toupper(static_cast<unsigned char>(ch)));
    return t;
  };
  return {{.owner = "ASM",
           .syntax = "D ASM[,SCM]",
           .mine = [squeeze](std::string_view text) { return squeeze(text).rfind("DASM", 0) == 0; },
           .check = [squeeze](std::string_view text) {
             const std::string t = squeeze(text);
             if (t != "DASM" && t != "DASM,SCM")
               throw emu::ConfigError(fmt::format("\"{}\": D ASM takes ,SCM or nothing", text));
           }}};
}

uint64_t Paging::capacity(size_t device) const {
  if (device == 0) {
    const flashsim::ScmDevice* d = devices_->scm();
    return d ? std::min(config_.scm_limit, d->online_bytes()) / kPage : 0;
  }
  return devices_->dasd()[device - 1]->config().capacity_blocks();
}

// IEE200I: a line per local page data set and one for SCM, as the seed shows them
// (no PLPA or common data sets: nothing here pages the common areas).
std::vector<std::string> Paging::display_asm(uint64_t ns) {
  std::vector<std::string> out = {fmt::format("IEE200I {} DISPLAY ASM {}", devices::time_of_day(ns), ++message_number_)};
  if (budget_frames_ == 0) {
    out.push_back("NO PAGING: system.paging.real_storage IS 0");
    return out;
  }
  out.push_back("TYPE     FULL STAT   DEV  DATASET NAME");
  const auto pct = [&](size_t d) {
    const uint64_t c = capacity(d);
    return c ? unsigned((used_.empty() ? 0 : used_[d]) * 100 / c) : 100u;
  };
  for (size_t v = 0; v < devices_->dasd().size(); ++v) {
    const unsigned p = pct(v + 1);
    out.push_back(fmt::format("LOCAL   {:>3}% {:>4}  {:04X}  SYS1.LOCAL.PAGE{:02}", p, p >= 100 ? "FULL" : "OK",
                              devices_->dasd()[v]->config().device_number, v + 1));
  }
  if (devices_->scm() && config_.scm_limit > 0) {
    const unsigned p = pct(0);
    out.push_back(fmt::format("SCM     {:>3}% {:>4}   N/A   N/A", p, p >= 100 ? "FULL" : "OK"));
  }
  return out;
}

// IEE207I: SCM for paging in 4 KB slots.
std::vector<std::string> Paging::display_asm_scm(uint64_t ns) {
  std::vector<std::string> out = {fmt::format("IEE207I {} DISPLAY ASM {}", devices::time_of_day(ns), ++message_number_)};
  if (!devices_->scm() || config_.scm_limit == 0 || budget_frames_ == 0) {
    out.push_back("SCM IS NOT USED FOR PAGING");
    return out;
  }
  const uint64_t size = capacity(0), used = used_.empty() ? 0 : used_[0];
  const auto commas = [](uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
  };
  out.push_back("STATUS      FULL     SIZE             USED         IN-ERROR");
  out.push_back(fmt::format("IN-USE      {:>3}%    {:<16} {:<12} {:>4}", size ? used * 100 / size : 0, commas(size),
                            commas(used), 0));
  return out;
}

void Paging::started(int device, size_t pages) {
  Activity& a = activity_[size_t(device)];
  ++a.ios, a.pages += pages, ++a.in_flight;
}

void Paging::completed(int device, uint64_t cycles, size_t pages) {
  Activity& a = activity_[size_t(device)];
  a.io_cycles += cycles;
  if (a.in_flight) --a.in_flight;
  // The measured time a page, per kind of device: what self-tuning placement compares.
  double& m = measured_[device == 0 ? 0 : 1];
  const double sample = double(cycles) / double(std::max<size_t>(pages, 1));
  m = m == 0 ? sample : 0.9 * m + 0.1 * sample;
}

void Paging::sample() {
  ++samples_;
  for (size_t d = 0; d < activity_.size(); ++d) {
    Activity& a = activity_[d];
    a.used_min = std::min(a.used_min, used_[d]);
    a.used_max = std::max(a.used_max, used_[d]);
    a.used_sum += used_[d];
    a.busy_samples += a.in_flight > 0;
  }
}

namespace {
// RMF's way with big counts: 33554K, 17.19M.
std::string rmf_count(uint64_t v) {
  if (v >= 10000000) return fmt::format("{:.2f}M", double(v) / 1e6);
  if (v >= 1000000) return fmt::format("{}K", v / 1000);
  return std::to_string(v);
}
}  // namespace

// RMF Monitor I's PAGE DATA SET ACTIVITY, as the seed shows it: a line per local page
// data set and one for SCM; slots in 4 KB pages, sampled every check interval; % IN USE
// the samples with paging I/O in flight; PAGE TRANS TIME seconds a page.
void Paging::write_rmf(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  out << "                                P A G E   D A T A   S E T   A C T I V I T Y\n";
  out << fmt::format("NUMBER OF SAMPLES = {:>9}    CYCLE {:.6f} SECONDS    PAGE DATA SET AND SCM USAGE\n",
                     rmf_count(samples_), double(config_.check_interval_ns) / 1e9);
  out << "PAGE                                                                 %    PAGE                  V\n";
  out << "SPACE   VOLUME  DEV  DEVICE    SLOTS  ---- SLOTS USED --- BAD       IN   TRANS  NUMBER  PAGES  I\n";
  out << "TYPE    SERIAL  NUM  TYPE      ALLOC    MIN    MAX   AVG   SLOTS     USE  TIME   IO REQ  XFER'D O  "
         "DATA SET NAME\n";
  const auto row = [&](size_t d, const std::string& type, const std::string& serial, const std::string& num,
                       const std::string& dev, const std::string& vio, const std::string& name) {
    const Activity& a = activity_[d];
    const uint64_t avg = samples_ ? a.used_sum / samples_ : 0;
    const double in_use = samples_ ? 100.0 * double(a.busy_samples) / double(samples_) : 0.0;
    const double trans = a.pages ? double(a.io_cycles) / ghz / 1e9 / double(a.pages) : 0.0;
    out << fmt::format("{:<7} {:<7} {:<4} {:<6} {:>9} {:>6} {:>6} {:>6} {:>6} {:>7.2f} {:>6.3f} {:>7} {:>7} {:<1}  {}\n",
                       type, serial, num, dev, rmf_count(capacity(d)), rmf_count(samples_ ? a.used_min : 0),
                       rmf_count(a.used_max), rmf_count(avg), 0, in_use, trans, rmf_count(a.ios),
                       rmf_count(a.pages), vio, name);
  };
  for (size_t v = 0; v < devices_->dasd().size(); ++v) {
    const unsigned num = devices_->dasd()[v]->config().device_number;
    row(v + 1, "LOCAL", fmt::format("PAGE{:02}", v + 1), fmt::format("{:04X}", num), "33909", "Y",
        fmt::format("SYS1.LOCAL.PAGE{:02}", v + 1));
  }
  if (devices_->scm() && config_.scm_limit > 0) row(0, "SCM", "N/A", "N/A", "N/A", " ", "N/A");
}

std::string Paging::data_sets_json() const {
  const double ghz = system_->machine().config().clock_ghz;
  std::string s;
  for (size_t d = 0; d < activity_.size(); ++d) {
    if (d == 0 && !(devices_->scm() && config_.scm_limit > 0)) continue;
    const Activity& a = activity_[d];
    s += fmt::format("{}\n    {{\"type\": \"{}\", \"device\": \"{}\", \"slots\": {}, \"slots_used_min\": {}, "
                     "\"slots_used_max\": {}, \"slots_used_avg\": {}, \"in_use_percent\": {:.2f}, "
                     "\"page_transfer_seconds\": {:.6f}, \"io_requests\": {}, \"pages\": {}}}",
                     s.empty() ? "" : ",", d == 0 ? "SCM" : "LOCAL",
                     d == 0 ? "N/A" : fmt::format("{:04X}", devices_->dasd()[d - 1]->config().device_number),
                     capacity(d), samples_ ? a.used_min : 0, a.used_max, samples_ ? a.used_sum / samples_ : 0,
                     samples_ ? 100.0 * double(a.busy_samples) / double(samples_) : 0.0,
                     a.pages ? double(a.io_cycles) / ghz / 1e9 / double(a.pages) : 0.0, a.ios, a.pages);
  }
  return s.empty() ? s : s + "\n  ";
}

void Paging::write_text(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  auto line = [&](const std::string& what, uint64_t v) { out << fmt::format("  {:<52}{:>14}\n", what, v); };
  out << fmt::format("PAGING  real storage for pageable pages {} frames ({} MB); available frames: steal below {}, "
                     "up to {}\n",
                     budget_frames_, budget_frames_ * kPage >> 20, config_.afq_low, config_.afq_ok);
  line("steal passes", stats_.scans);
  line("pages stolen", stats_.stolen);
  line("  written to auxiliary storage", stats_.written);
  line("    to SCM", stats_.scm_pages);
  line("    to page data sets (DASD)", stats_.dasd_pages);
  line("  freed (copy on auxiliary storage still valid)", stats_.freed_clean);
  line("  1 MB pages written to SCM", stats_.large_out);
  line("  1 MB pages demoted to 4 KB pages", stats_.demoted);
  line("page-out requests", stats_.write_ios);
  line("page faults that waited for a page-in", stats_.fault_waits);
  line("pages read in on a fault", stats_.page_ins);
  line("pages read in with them (speculative, SCM)", stats_.speculative);
  line("1 MB pages read in", stats_.large_in);
  line("pages taken back while being written (reclaims)", stats_.reclaims);
  line("pages put back for a host-side service", stats_.host_restores);
  line("slots in use, most at once", stats_.slots_high);
  out << fmt::format("  {:<52}{:>14.1f}\n", "page-in time, mean (us)",
                     stats_.page_ins ? double(stats_.page_in_cycles) / double(stats_.page_ins) / ghz / 1e3 : 0.0);
  out << fmt::format("  {:<52}{:>14.1f}\n", "page-in time, longest (us)", double(stats_.page_in_max_cycles) / ghz / 1e3);
  out << "\n";
  write_rmf(out);
}

void Paging::write_json(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  out << fmt::format(
      "{{\n  \"real_storage_frames\": {}, \"afq_low\": {}, \"afq_ok\": {},\n  \"scans\": {}, \"stolen\": {}, "
      "\"written\": {}, \"scm_pages\": {}, \"dasd_pages\": {}, \"freed_clean\": {}, \"write_ios\": {},\n"
      "  \"large_out\": {}, \"large_in\": {}, \"demoted\": {},\n"
      "  \"fault_waits\": {}, \"page_ins\": {}, \"speculative\": {}, \"reclaims\": {}, \"host_restores\": {}, \"slots_high\": {},\n"
      "  \"page_in_mean_us\": {:.3f}, \"page_in_max_us\": {:.3f},\n  \"samples\": {}, \"data_sets\": [{}]\n}}\n",
      budget_frames_, config_.afq_low, config_.afq_ok, stats_.scans, stats_.stolen, stats_.written,
      stats_.scm_pages, stats_.dasd_pages, stats_.freed_clean, stats_.write_ios, stats_.large_out,
      stats_.large_in, stats_.demoted, stats_.fault_waits,
      stats_.page_ins, stats_.speculative, stats_.reclaims, stats_.host_restores, stats_.slots_high,
      stats_.page_ins ? double(stats_.page_in_cycles) / double(stats_.page_ins) / ghz / 1e3 : 0.0,
      double(stats_.page_in_max_cycles) / ghz / 1e3, samples_, data_sets_json());
}

}  // namespace paging
