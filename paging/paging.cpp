#include "paging/paging.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <fmt/format.h>
#include <tuple>

#include "emu/machine.h"
#include "os/ecb.h"
#include "os/guest/include/tpf_svc.h"
#include "os/run_config.h"

namespace paging {
namespace {
const std::array<uint8_t, emu::kPageSize> kZeroPage{};  // what a page never stored into holds
}  // namespace

void Paging::install(os::System& system) {
  system_ = &system;
  devices_ = system.find_subsystem<devices::DeviceSubsystem>();
  if (!devices_) throw std::logic_error("paging: the run has no device subsystem to page to (app/subsystems.cpp)");
  system.add_operator_commands(
      "ASM",
      "D ASM                        the page data sets and SCM: how full (IEE200I)\n"
      "D ASM,SCM                    SCM for paging: size, used, in error, in 4 KB slots (IEE207I)\n",
      [this](const os::OperatorCommand& c, uint64_t now, uint64_t ns, bool) {
        std::string t;
        for (char ch : c.text)
          if (ch != ' ') t += char(std::toupper(static_cast<unsigned char>(ch)));
        const std::vector<std::string> lines = t == "DASM" ? display_asm(ns) : display_asm_scm(ns);
        return system_->operator_answer(now, c.text, lines);
      });
  system.add_operator_commands(
      "DUMP", "DUMP COMM=(title),JOBNAME=(QREG,...)  an SVC dump of those programs' processes (svcdump.txt)\n",
      [this](const os::OperatorCommand& c, uint64_t now, uint64_t, bool) {
        DumpCommand d;
        try {
          d = parse_dump_command(c.text);
        } catch (const cfg::ConfigError& e) {
          return system_->operator_answer(now, c.text, {std::string("ERROR: ") + e.what()});
        }
        return system_->operator_answer(now, c.text, {request_dump(d.title, "OPERATOR", d.jobs, now)});
      });
  system.add_svc({TPF_SVC_SDUMP, "SDUMP", os::SvcCost::Service, [this](emu::Cpu& c, os::Ecb& e) { sdump(c, e); }});
  system.add_report({.name = "svcdump.txt", .write = [this](std::ostream& out) { write_dumps_text(out); },
                     .wanted = [this] { return !dumps_.empty(); }});
  system.add_report({.name = "svcdump.json", .write = [this](std::ostream& out) { out << dumps_json(); },
                     .wanted = [this] { return !dumps_.empty(); }});
  install_sadmp(system);
  if (config_.real_storage == 0) {
    // No real storage modelled: every page stays resident, but first references still
    // fault (first_reference); the report says how many.
    system.add_report({.name = "paging.txt", .write = [this](std::ostream& out) { write_first_references_text(out); },
                       .wanted = [this] { return stats_.first_references > 0; }});
    system.add_report({.name = "paging.json", .write = [this](std::ostream& out) { write_first_references_json(out); },
                       .wanted = [this] { return stats_.first_references > 0; }});
    return;
  }
  add_timeline_columns(system);
  system.machine().storage().set_reference_log(true);  // aging reads it (age)
  budget_frames_ = config_.real_storage / kPage;
  fixed_frames_ = system.machine().storage().allocated_4k() +
                  system.machine().storage().allocated_1m() * kPagesPerSegment;  // the image and the system's own
  size_t devices = 1 + devices_->dasd().size();
  if (config_.pageable_programs) plpa_device_ = int(devices++);  // the PLPA data set after the page volumes
  if (config_.pageable_common) common_device_ = int(devices++);  // the COMMON data set after it
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
  if (config_.pageable_programs) ipl_programs();
  if (config_.pageable_common) ipl_common();
  system.every(interval, [this](uint64_t now) { check(now); });
  aging_interval_ = std::max<uint64_t>(1, uint64_t(double(config_.uic_interval_ns) * system.machine().config().clock_ghz));
  system.add_report({.name = "paging.txt", .write = [this](std::ostream& out) { write_text(out); }});
  system.add_report({.name = "paging.json", .write = [this](std::ostream& out) { write_json(out); }});
  install_rmf(system);
}

// Frames of the budget not in use by pageable pages. A page being written out keeps its
// frame until the write completes, as in z/OS, so stealing cannot run ahead of what
// auxiliary storage takes; so do the pages an SVC dump captured until they are written.
uint64_t Paging::available_frames() const {
  const emu::Storage& st = system_->machine().storage();
  const uint64_t all = st.allocated_4k() + st.allocated_1m() * kPagesPerSegment;
  // PLPA pages keep their frames (set apart) while out: those are not taken.
  const uint64_t pageable = all > fixed_frames_ ? all - fixed_frames_ : 0;
  const uint64_t taken = (pageable > programs_out_ ? pageable - programs_out_ : 0) + writing_frames_ + dump_frames_;
  return budget_frames_ > taken ? budget_frames_ - taken : 0;
}

// Available frames and those of pages being written, which come free as the writes
// complete: what stealing aims at, so that a pass does not steal again for frames
// already on their way.
uint64_t Paging::coming_frames() const { return available_frames() + writing_frames_; }

// The available frame queue: below its low threshold, steal up to the ok one.
void Paging::check(uint64_t now) {
  if (sadmp_) return;  // the system is down: a stand-alone dump runs
  sample();
  const bool tick = now >= next_aging_;
  if (tick) next_aging_ = now + aging_interval_;
  const uint64_t coming = coming_frames();
  if (available_frames() < config_.afq_low && coming < config_.afq_ok) steal(config_.afq_ok - coming, now, tick);
  else if (tick) age(true);
}

// A GETSTOR that real storage cannot take: steal now; if that is not enough but the
// page-outs (and dump writes) on their way will make room, the ECB waits for them. A
// request they cannot satisfy (more than real storage allows) goes ahead: waiting
// would not help it. Every page-out's completion wakes all the waiters (frames_freed),
// so a GETSTOR may park many times: it counts once, from its first park to its frames.
bool Paging::frames_wanted(emu::Cpu& cpu, os::Ecb& e, uint64_t frames) {
  const auto go_ahead = [&] {
    if (auto w = frame_wait_began_.find(e.id); w != frame_wait_began_.end()) {
      stats_.frame_wait_cycles += cpu.cycles > w->second ? cpu.cycles - w->second : 0;
      frame_wait_began_.erase(w);
    }
    return false;
  };
  if (!config_.real_storage || available_frames() >= frames) return go_ahead();
  if (const uint64_t coming = coming_frames(); coming < frames + config_.afq_ok)
    steal(frames + config_.afq_ok - coming, cpu.cycles, false);
  if (available_frames() >= frames || coming_frames() + dump_frames_ < frames) return go_ahead();
  if (frame_wait_began_.emplace(e.id, cpu.cycles).second) ++stats_.frame_waits;
  ++stats_.frame_wait_parks;
  system_->park(cpu, e, frame_waiters_, "frames for its GETSTOR (page-outs on their way)");
  return true;
}

// Fixed pages stay resident and in their frames (which count in real storage, as every
// frame of a process does): aging never visits them, so they are never stolen, and a
// fixed 1 MB page is never demoted. Whole segments: the heap fixes 1 MB at a time.
void Paging::pages_fixed(os::Process& p, uint64_t va, uint64_t len) {
  if (!config_.real_storage) return;
  ProcessPages& pp = adopt(p);
  for (uint64_t a = va & ~(kSegment - 1); a < va + len; a += kSegment) {
    if (!pp.fixed.insert(a).second) continue;
    stats_.fixed_pages += kPagesPerSegment;
    // The walk passes them over from now on: the next pass looks at each once.
    for (uint64_t page = a; page < a + kSegment; page += kPage) to_visit_.push_back({p.id, page});
    to_visit_.push_back({p.id, a + 1});
  }
}

// Frames came free: the ECBs waiting for them ask again.
void Paging::frames_freed(uint64_t now) {
  os::WaitList waiters;
  waiters.swap(frame_waiters_);
  for (os::Ecb* w : waiters) system_->make_ready(*w, now);
}

Paging::ProcessPages& Paging::adopt(os::Process& p) {
  ProcessPages& pp = processes_[p.id];
  if (!pp.process) {
    pp.process = &p;
    p.space->set_track_changes(true);
    // Until now a load's translation could grant stores that set no change bit: every
    // page counts as changed once (the pass purges the micro-TLBs after).
    p.space->for_each_own_page([](uint64_t, emu::Frame& f) { f.set_changed(true); });
    p.space->set_page_log(true);  // aging looks at the pages whose mapping changes (age)
    const uint64_t id = p.id;
    p.space->set_host_fault_handler([this, id](uint64_t va) {
      auto it = processes_.find(id);
      return it != processes_.end() && restore(it->second, emu::page_down(va));
    });
  }
  return pp;
}

// Every resident pageable page's unreferenced interval count goes back to 0 if DAT
// referenced it since the last look (the bit is reset), or up by one if `tick` (once a
// system.paging.uic_interval: the count measures time, not how often storage was
// short). The pages that count are those the walk of every space's own pages visits
// (issue 44: 4 million of them at full size, every millisecond); the pass visits only
// those whose reference bit went on (Storage's reference log) or whose mapping changed
// (each space's page log) and the ones paging itself changed: the others' counts follow
// from the ticks (AgingIndex), as the walk would have left them.
void Paging::age(bool tick) {
  aging_.start_pass(tick);
  // The walk visits the processes that have ECBs now: one that had none at the last pass
  // is walked whole (its pages' counts go on from where they stopped), one that has none
  // now is not walked (its pages keep their counts, out of the steal order).
  std::set<uint64_t> live;
  system_->for_each_process([&](os::Process& p) {
    ProcessPages& pp = adopt(p);
    live.insert(p.id);
    if (!live_.count(p.id)) log_all(pp);
    p.space->take_page_log(log_);
    for (uint64_t v : log_) page_logged(pp, v);
  });
  for (uint64_t pid : live_)
    if (!live.count(pid))
      if (auto p = processes_.find(pid); p != processes_.end()) {
        for (auto [va, pg] : p->second.pages) aging_.leave(pg.aging, pid, va, uint8_t(Kind::Small));
        for (auto& [va, sg] : p->second.large) aging_.leave(sg.aging, pid, va, uint8_t(Kind::Large));
      }
  live_.swap(live);
  system_->machine().storage().take_reference_log(log_);
  const auto owner = [&](uint64_t frame, bool large) {
    const PageRef* o = owner_of(frame, false);
    if (o && o->pid && (o->va & 1) == large) to_visit_.push_back({o->pid - 1, o->va});
  };
  for (uint64_t frame : log_) owner(frame, false), owner(frame & ~uint64_t(kPagesPerSegment - 1), true);
  std::sort(to_visit_.begin(), to_visit_.end());
  to_visit_.erase(std::unique(to_visit_.begin(), to_visit_.end()), to_visit_.end());
  for (const PageRef& r : to_visit_) {
    auto p = processes_.find(r.pid);
    if (p == processes_.end() || !live_.count(r.pid)) continue;
    if (r.va & 1) visit_large(p->second, r.va - 1);
    else visit_small(p->second, r.va);
  }
  to_visit_.clear();
  // The PLPA pages: one frame each, shared by every process (process id 0 for the order);
  // few, so every pass looks at each.
  emu::Storage& storage = system_->machine().storage();
  for (auto& [va, pg] : programs_) {
    if (pg.state != State::Resident) {
      aging_.leave(pg.aging, 0, va, uint8_t(Kind::Program));
      continue;
    }
    emu::Frame& f = storage.frame(pg.frame);
    const bool referenced = f.referenced();
    if (referenced) f.clear_referenced();
    aging_.visit(pg.aging, 0, va, uint8_t(Kind::Program), referenced);
  }
  aging_.end_visits();
  system_->machine().purge_micro_tlbs();  // the next reference sets the bit again
}

// Every page of the process's space is visited at this pass.
void Paging::log_all(ProcessPages& pp) {
  std::vector<uint64_t> own;
  pp.process->space->for_each_own_page([&](uint64_t va, emu::Frame&) { own.push_back(va); });
  pp.process->space->for_each_large_segment([&](uint64_t va) { own.push_back(va + 1); });
  for (uint64_t v : own) page_logged(pp, v);
}

// `v`: a 4 KB page's address, or a large segment's + 1. It is visited at this pass, and
// the frame it has now is noted as its own.
void Paging::page_logged(ProcessPages& pp, uint64_t v) {
  const uint64_t pid = pp.process->id;
  to_visit_.push_back({pid, v});
  const uint64_t frame = pp.process->space->own_frame(v & ~uint64_t(1), v & 1);
  if (!frame) return;
  *owner_of(frame, true) = {pid + 1, v};
}

Paging::PageRef* Paging::owner_of(uint64_t frame, bool make) {
  const uint64_t chunk = frame / kOwnerChunk;
  if (chunk >= owners_.size()) {
    if (!make) return nullptr;
    owners_.resize(chunk + 1);
  }
  if (!owners_[chunk]) {
    if (!make) return nullptr;
    owners_[chunk] = std::make_unique<std::array<PageRef, kOwnerChunk>>();
  }
  return &(*owners_[chunk])[frame % kOwnerChunk];
}

// The walk's step at a 4 KB page (for_each_own_page_key's, which resolves its frame).
void Paging::visit_small(ProcessPages& pp, uint64_t va) {
  emu::AddressSpace& space = *pp.process->space;
  const uint64_t pid = pp.process->id;
  uint8_t* key = space.own_page_key(va);
  if (!key || pp.is_fixed(va)) {  // not a page the walk visits
    if (Page* at = pp.pages.find(va)) aging_.leave(at->aging, pid, va, uint8_t(Kind::Small));
    return;
  }
  Page& pg = pp.pages[va];
  if (pg.state != State::Resident) return aging_.leave(pg.aging, pid, va, uint8_t(Kind::Small));
  if (!pg.prot) pg.prot = space.prot_of(va);
  const bool referenced = *key & emu::kKeyReferenced;
  if (referenced) *key = uint8_t(*key & ~emu::kKeyReferenced);
  aging_.visit(pg.aging, pid, va, uint8_t(Kind::Small), referenced);
}

// The walk's step at a large segment (for_each_large_segment's).
void Paging::visit_large(ProcessPages& pp, uint64_t va) {
  emu::AddressSpace& space = *pp.process->space;
  const uint64_t pid = pp.process->id;
  if (pp.is_fixed(va) || !space.own_frame(va, true)) {
    if (auto at = pp.large.find(va); at != pp.large.end()) aging_.leave(at->second.aging, pid, va, uint8_t(Kind::Large));
    return;
  }
  Page& sg = pp.large[va];
  if (sg.state != State::Resident) return aging_.leave(sg.aging, pid, va, uint8_t(Kind::Large));
  if (!sg.prot) sg.prot = space.prot_of(va);
  bool changed = false;
  aging_.visit(sg.aging, pid, va, uint8_t(Kind::Large), space.segment_referenced(va, changed, true));
}

// One pass: the pages' counts are brought up to date, then the `frames` pages
// unreferenced longest are stolen (ties: process, then address), read in that order
// from aging_ as far as the pass needs.
void Paging::steal(uint64_t frames, uint64_t now, bool tick) {
  // The order is read while the pass takes pages; a pass within it would change it.
  if (stealing_) throw std::logic_error("paging: a steal pass began within a steal pass");
  stealing_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{stealing_};
  ++stats_.scans;
  age(tick);
  // VIO pages are written in requests of their own (to page data sets only).
  std::vector<std::pair<ProcessPages*, uint64_t>> batch, vio_batch;
  uint64_t vio_room = 0;  // free slots on the page volumes
  for (size_t d = 1; d <= devices_->dasd().size(); ++d) vio_room += capacity(d) - std::min(capacity(d), used_[d]);
  uint64_t taken = 0;
  // Page-out requests in flight are bounded: past the bound only pages that need no
  // write (unchanged, with a valid copy) are taken.
  const auto requests = [&] {
    return writes_in_flight_ + (batch.size() + config_.group - 1) / config_.group +
           (vio_batch.size() + config_.group - 1) / config_.group;
  };
  // A 4 KB page: unmapped, and written (in `batch`) unless it needs no write.
  const auto take_small = [&](ProcessPages& pp, uint64_t va) {
    Page& pg = pp.pages.at(va);
    if (pg.state != State::Resident) return;
    emu::AddressSpace& space = *pp.process->space;
    emu::Translation t;
    if (space.translate(va, t) != emu::Translate::Ok) return;
    const bool zero = !t.frame->changed() && pg.slot.device < 0;  // never stored into since it was mapped
    const bool write = !zero && (t.frame->changed() || pg.slot.device < 0);
    const bool vio = write && is_vio(pp, va);
    if (vio && vio_batch.size() >= vio_room) {  // VIO pages go to page data sets only: no room, so it stays
      if (!pg.vio_kept) pg.vio_kept = true, ++stats_.vio_kept;
      return;
    }
    auto& into = vio ? vio_batch : batch;
    if (write && into.size() % config_.group == 0 && requests() + 1 > config_.max_writes) {
      ++stats_.write_bound;
      return;
    }
    ++taken;
    ++stats_.stolen;
    aging_.leave(pg.aging, pp.process->id, va, uint8_t(Kind::Small));
    if (write) {
      if (pg.slot.device >= 0) free_slot(pg.slot), pg.slot = {};
      pg.buffer = std::make_shared<std::vector<uint8_t>>(t.frame->data.get(), t.frame->data.get() + kPage);
      pg.state = State::Writing;
      ++writing_frames_;
      into.emplace_back(&pp, va);
    } else if (zero) {
      pg.state = State::Zero;
      ++stats_.freed_zero;
    } else {
      pg.state = State::Out;
      ++stats_.freed_clean;
    }
    space.unmap(va, kPage);
  };
  std::vector<uint64_t> common_batch;  // common pages to write to the COMMON data set
  AgingKey c{};  // the candidate being read
  for (bool first = true; taken < frames; first = false) {
    const AgingKey* next = aging_.next(first ? nullptr : &c);
    if (!next) break;
    c = *next;
    if (c.kind == uint8_t(Kind::Program)) {
      taken += steal_program(c.va, common_batch);
      continue;
    }
    ProcessPages& pp = processes_.at(c.pid);
    if (c.kind == uint8_t(Kind::Small)) {
      take_small(pp, c.va);
      continue;
    }
    // A pageable 1 MB page: out whole to SCM, or demoted to 4 KB pages, which are then
    // candidates in its place (as old as it), not passed over for younger ones.
    switch (steal_large(pp, c.va, now, requests() + 1 <= config_.max_writes)) {
      case LargeSteal::Taken: taken += kPagesPerSegment; break;
      case LargeSteal::Demoted:
        for (uint64_t a = c.va; a < c.va + kSegment && taken < frames; a += kPage) take_small(pp, a);
        break;
      case LargeSteal::Kept: break;
    }
  }
  write_out(vio_batch, now, true);  // first: the page volumes' room was counted for them
  write_out(batch, now, false);
  write_common(common_batch, now);
}
// The pages of `batch` in requests of system.paging.group pages, each to one device.
void Paging::write_out(std::vector<std::pair<ProcessPages*, uint64_t>>& batch, uint64_t now, bool vio) {
  for (size_t at = 0, n = 0; at < batch.size(); at += n) {
    n = std::min<size_t>(config_.group, batch.size() - at);
    const int dev = vio ? choose_vio_device(n) : choose_device(n);  // a VIO request may take fewer (the room left)
    if (vio) stats_.vio_written += n, stats_.vio_spilled += accepts_vio(size_t(dev)) ? 0 : n;
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
    ++writes_in_flight_;
    system_->start_io(subchannel(first), now, t, [this, t, who, dev, group](const emu::IoInterruption& i) {
      completed(dev, i.time - i.started, who.size());
      --writes_in_flight_;
      frames_freed(i.time);
      for (const auto& [pid, va] : who) {
        auto p = processes_.find(pid);
        if (p == processes_.end()) continue;  // the process ended meanwhile
        Page* g = p->second.pages.find(va);
        // Taken back meanwhile, or taken back and now in a later request (whose slot and
        // completion are its own).
        if (!g || g->state != State::Writing || g->group != group) continue;
        Page& pg = *g;
        if (i.status) {  // not written: the page goes back to storage, nothing is lost
          system_->log(fmt::format("{:>12} PAGING: page-out of {:#x} failed: {}", i.time, va, i.detail));
          const auto keep = pg.buffer;
          put_back(p->second, va, pg, keep->data());
          free_slot(pg.slot), pg.slot = {};
          continue;
        }
        pg.state = State::Out;
        --writing_frames_;
        pg.buffer.reset();
      }
    });
  }
}

// Where a group of `n` pages goes: SCM only if PAGESCM allows and it has room (4 KB slots
// come up from 0, below the 1 MB ones), the next page volume in turn otherwise (or SCM
// anyway if there is no volume: a write beyond its room fails and the pages stay).
int Paging::choose_device(size_t n) {
  const flashsim::ScmDevice* d = devices_->scm();
  const uint64_t room = d ? std::min(config_.scm_limit, d->online_bytes()) / kPage : 0;
  const uint64_t below_large = large_top_set_ ? large_top_ / kPage : room;  // 1 MB slots come down from the top
  const uint64_t free_4k = free_blocks_[0].size() + (below_large > next_block_[0] ? below_large - next_block_[0] : 0);
  const bool scm_room = d && used_[0] + n <= room && free_4k >= n;  // used_[0]: 4 KB and 1 MB slots
  const size_t volumes = devices_->dasd().size();
  if (!volumes) return 0;
  // The next volume in turn that has room (the next in turn if none has: its write fails
  // and the pages stay).
  const auto dasd = [&] {
    const int first = int(1 + next_volume_++ % volumes);
    for (size_t k = 0; k < volumes; ++k) {
      const int d = int(1 + (size_t(first) - 1 + k) % volumes);
      if (has_room(size_t(d), n)) return d;
    }
    return first;
  };
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

uint64_t Paging::vio_volumes() const { return std::min<uint64_t>(config_.vio_volumes, devices_->dasd().size()); }

// A VIO page is one of the process's GETSTOR_VIO blocks.
bool Paging::is_vio(const ProcessPages& pp, uint64_t va) const {
  const auto& blocks = pp.process->vio_blocks;
  auto it = blocks.upper_bound(va);
  if (it == blocks.begin()) return false;
  --it;
  return va < it->first + it->second;
}

// Where a group of VIO pages goes: never SCM; the volumes that accept VIO in turn, the
// next with room; when all of those are full, the others in turn (the spillover). `n`
// becomes at most the room the volume has left. The caller took no more VIO pages than
// the volumes have room for.
int Paging::choose_vio_device(size_t& n) {
  const uint64_t volumes = devices_->dasd().size(), vio = vio_volumes(), others = volumes - vio;
  int d = -1;
  for (uint64_t k = 0; k < vio && d < 0; ++k)
    if (const int v = int(1 + next_vio_++ % vio); has_room(size_t(v), 1)) d = v;
  for (uint64_t k = 0; k < others && d < 0; ++k)
    if (const int v = int(1 + vio + next_nonvio_++ % others); has_room(size_t(v), 1)) d = v;
  if (d < 0) throw std::logic_error("paging: VIO pages taken beyond the page data sets' room");
  n = std::min<uint64_t>(n, capacity(size_t(d)) - used_[size_t(d)]);
  return d;
}

Paging::Slot Paging::new_slot(int device) {
  Slot s;
  s.device = device;
  auto& free = free_blocks_[size_t(device)];
  uint64_t block;
  if (!free.empty()) block = free.back(), free.pop_back();
  else block = next_block_[size_t(device)]++;
  s.address = (base_block(device) + block) * kPage;
  ++used_[size_t(device)];
  stats_.slots_high = std::max(stats_.slots_high, ++slots_used_);
  return s;
}

void Paging::free_slot(const Slot& s) {
  if (s.device < 0) return;
  free_blocks_[size_t(s.device)].push_back(s.address / kPage - base_block(s.device));
  --slots_used_;
  --used_[size_t(s.device)];
}

unsigned Paging::subchannel(const Slot& s) const {
  if (s.device == plpa_device_ || s.device == common_device_) return devices_->plpa_subchannel();
  return s.device == 0 ? devices_->scm_subchannel() : devices_->dasd_subchannel(size_t(s.device - 1));
}

flashsim::Device& Paging::device(const Slot& s) const {
  if (s.device == 0) return *devices_->scm();
  if (s.device == plpa_device_ || s.device == common_device_) return *devices_->plpa_volume();
  return *devices_->dasd()[size_t(s.device - 1)];
}

// Maps the page again with `data` as its contents: unchanged (its copy on auxiliary
// storage, if any, is valid), just referenced.
void Paging::put_back(ProcessPages& pp, uint64_t va, Page& pg, const uint8_t* data) {
  emu::AddressSpace& space = *pp.process->space;
  if (pg.state == State::Writing) --writing_frames_;
  // Unchanged if a copy matches it: its slot (out, being read) or nothing at all (a zero
  // page). Taken back while being written, the write does not count (the caller frees
  // the slot): only storage holds it, so it is changed.
  const bool copy = pg.state == State::Zero || (pg.state != State::Writing && pg.slot.device >= 0);
  if (!space.map(va, kPage, pg.prot)) {
    system_->log(fmt::format("PAGING: no frame for page {:#x} of process {}", va, pp.process->id));
    return;
  }
  emu::Translation t;
  space.translate(va, t);
  system_->machine().storage().write_page(*t.frame, data);
  t.frame->set_changed(!copy), system_->machine().storage().reference(*t.frame);
  leave_group(pp.process->id, va, pg);
  pg.state = State::Resident;
  aging_.set(pg.aging, pp.process->id, va, uint8_t(Kind::Small), 0);
  pg.buffer.reset();
}

bool Paging::restore(ProcessPages& pp, uint64_t va) {
  if (!programs_.empty() && programs_.count(va)) return restore_program(va);
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
  Page* g = pp.pages.find(va);
  if (!g || g->state == State::Resident) return false;
  Page& pg = *g;
  ++stats_.host_restores;
  if (pg.state == State::Writing) {
    const auto keep = pg.buffer;
    put_back(pp, va, pg, keep->data());
    free_slot(pg.slot), pg.slot = {};
  } else if (pg.state == State::Zero) {
    put_back(pp, va, pg, kZeroPage.data());
  } else {  // Out, or Reading (its slot is valid until the read lands)
    std::vector<uint8_t> data(kPage);
    device(pg.slot).peek(pg.slot.address, uint32_t(kPage), data.data());
    put_back(pp, va, pg, data.data());
  }
  return pp.process->space->is_mapped(va);
}

emu::PageFaultHandler::Action Paging::page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) {
  using Action = emu::PageFaultHandler::Action;
  if (!programs_.empty())
    if (auto g = programs_.find(emu::page_down(address)); g != programs_.end() && g->second.state != State::Resident)
      return program_fault(cpu, e, g->first, g->second);
  auto p = processes_.find(e.process->id);
  if (p == processes_.end()) return first_reference(cpu, e, address);
  ProcessPages& pp = p->second;
  if (auto l = pp.large.find(address & ~(kSegment - 1)); l != pp.large.end() && l->second.state != State::Resident)
    return large_fault(cpu, e, pp, l->first, l->second);
  const uint64_t va = emu::page_down(address);
  Page* g = pp.pages.find(va);
  if (!g) return first_reference(cpu, e, address);
  if (g->state == State::Resident) return Action::Fail;
  Page& pg = *g;
  cpu.charge(emu::Cause::Service, system_->config().system.service_cost);  // the fault's handling
  if (pg.state == State::Zero) {  // a fresh zero page, no I/O
    put_back(pp, va, pg, kZeroPage.data());
    return Action::Retry;
  }
  if (pg.state == State::Writing) {  // still on its way out: taken back, no I/O
    ++stats_.reclaims;
    const auto keep = pg.buffer;
    put_back(pp, va, pg, keep->data());
    free_slot(pg.slot), pg.slot = {};
    return Action::Retry;
  }
  ++stats_.fault_waits;
  if (pg.state == State::Reading) {  // another thread's page-in is on its way
    system_->park(cpu, e, waiting_list(pg));
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
    stats_.pages_in[dev == 0 ? 0 : 1] += landing.size();
    stats_.page_in_cycles += took;
    stats_.page_in_max_cycles = std::max(stats_.page_in_max_cycles, took);
    auto p = processes_.find(pid);
    if (p == processes_.end()) return;
    p->second.pages_in += landing.size();
    for (const auto& [r, buffer] : landing) {
      Page* g = p->second.pages.find(r);
      if (!g) continue;
      Page& q = *g;
      if (q.state == State::Reading && q.buffer == buffer) put_back(p->second, r, q, buffer->data());  // else a host access did
      if (const auto waiters = std::move(q.waiters))
        for (os::Ecb* w : *waiters) system_->make_ready(*w, i.time);
    }
  });
  system_->park(cpu, e, waiting_list(pg));
  return Action::Wait;
}
// A first reference takes the demand-zero fault's path (its handling, system.service_cost)
// and a frame, cleared (system.paging.first_reference_cost). It is a page fault, and takes
// its frame as a page-in does: at once, a steal started if the budget is short, never a
// wait for page-outs. (Making it wait as a GETSTOR does starved it on SCM, issue 47: the
// pageable 1 MB pages' page-ins, which never wait, took every frame the page-outs freed,
// so a first reference waited 39 ms on average at f = 256; docs/e3-paging.md.)
emu::PageFaultHandler::Action Paging::first_reference(emu::Cpu& cpu, os::Ecb& e, uint64_t address) {
  using Action = emu::PageFaultHandler::Action;
  emu::AddressSpace& space = *e.process->space;
  if (!space.is_first_reference(address)) return Action::Fail;
  if (config_.real_storage && available_frames() < 1)
    if (const uint64_t coming = coming_frames(); coming < 1 + config_.afq_ok)
      steal(1 + config_.afq_ok - coming, cpu.cycles, false);
  if (!space.map_first_reference(address)) return Action::Fail;  // storage has no frame left
  const uint64_t cycles = system_->config().system.service_cost + config_.first_reference_cost;
  cpu.charge(emu::Cause::Service, cycles);
  ++stats_.first_references;
  stats_.first_reference_cycles += cycles;
  return Action::Retry;
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
  for (auto [va, pg] : it->second.pages) {
    aging_.leave(pg.aging, p.id, va, uint8_t(Kind::Small));
    free_slot(pg.slot), leave_group(p.id, va, pg);
    if (pg.state == State::Writing) --writing_frames_;
  }
  for (auto& [va, sg] : it->second.large) {
    aging_.leave(sg.aging, p.id, va, uint8_t(Kind::Large));
    free_large_slot(sg.slot);
    if (sg.state == State::Writing) writing_frames_ -= kPagesPerSegment;
  }
  processes_.erase(it);
  live_.erase(p.id);
}
}  // namespace paging
