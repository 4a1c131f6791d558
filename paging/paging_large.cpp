// Pageable 1 MB pages: large segments out whole to SCM and back, or demoted.
#include "paging/paging.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"

namespace paging {

// A large segment taken: to a 1 MB slot on SCM (one MSB) if there is room, else demoted
// to 4 KB pages (paged as any other from now on; it frees nothing itself). A write only
// if `may_write` (page-out requests below their bound).
Paging::LargeSteal Paging::steal_large(ProcessPages& pp, uint64_t va, uint64_t now, bool may_write) {
  emu::AddressSpace& space = *pp.process->space;
  Page& sg = pp.large.at(va);
  bool changed = false;
  space.segment_referenced(va, changed, false);
  if (sg.slot.device < 0 || changed) {
    Slot slot = new_large_slot();
    if (slot.device >= 0 && !may_write) {
      free_large_slot(slot);
      ++stats_.write_bound;
      return LargeSteal::Kept;
    }
    if (sg.slot.device >= 0) free_large_slot(sg.slot);
    sg.slot = slot;
    if (sg.slot.device < 0) {  // no contiguous SCM for it: 4 KB pages from now on, as old as it
      space.demote(va);
      const uint64_t pid = pp.process->id;
      aging_.leave(sg.aging, pid, va, uint8_t(Kind::Large));
      const uint32_t uic = aging_.uic(sg.aging);
      for (uint64_t a = va; a < va + kSegment; a += kPage) {
        Page& small = pp.pages[a];
        aging_.set(small.aging, pid, a, uint8_t(Kind::Small), uic), small.prot = sg.prot;
      }
      pp.large.erase(va);
      ++stats_.demoted;
      return LargeSteal::Demoted;
    }
    sg.buffer = std::make_shared<std::vector<uint8_t>>(kSegment);
    space.read_bytes(va, sg.buffer->data(), kSegment);
    sg.state = State::Writing;
    writing_frames_ += kPagesPerSegment;
    auto t = std::make_shared<devices::Transfer>();
    t->request.blocks.push_back({flashsim::Op::Write, sg.slot.address, uint32_t(kSegment), sg.buffer->data()});
    const uint64_t pid = pp.process->id;
    ++stats_.write_ios, ++stats_.large_out;
    started(0, kPagesPerSegment);
    ++writes_in_flight_;
    system_->start_io(subchannel(sg.slot), now, t, [this, pid, va](const emu::IoInterruption& i) {
      completed(0, i.time - i.started, kPagesPerSegment);
      --writes_in_flight_;
      frames_freed(i.time);
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
      writing_frames_ -= kPagesPerSegment;
      sg.buffer.reset();
    });
  } else {
    sg.state = State::Out;
    ++stats_.freed_clean;
  }
  aging_.leave(sg.aging, pp.process->id, va, uint8_t(Kind::Large));
  ++stats_.stolen;
  space.unmap(va, kSegment);
  return LargeSteal::Taken;
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
  if (sg.state == State::Writing) writing_frames_ -= kPagesPerSegment;
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
    if (space.translate(a, t) == emu::Translate::Ok) t.frame->set_changed(false);
  }
  sg.state = State::Resident;
  aging_.set(sg.aging, pp.process->id, va, uint8_t(Kind::Large), 0);
  sg.buffer.reset();
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
    system_->park(cpu, e, waiting_list(sg));
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
  system_->park(cpu, e, waiting_list(sg));
  system_->start_io(subchannel(sg.slot), cpu.cycles, t, [this, pid, va, buffer](const emu::IoInterruption& i) {
    const uint64_t took = i.time - i.started;
    completed(0, took, kPagesPerSegment);
    stats_.pages_in[0] += kPagesPerSegment;
    stats_.page_in_cycles += took;
    stats_.page_in_max_cycles = std::max(stats_.page_in_max_cycles, took);
    auto p = processes_.find(pid);
    if (p == processes_.end()) return;
    p->second.pages_in += kPagesPerSegment;
    auto g = p->second.large.find(va);
    if (g == p->second.large.end()) return;
    const auto waiters = std::move(g->second.waiters);
    if (g->second.state == State::Reading && g->second.buffer == buffer)
      put_back_large(p->second, va, g->second, buffer->data());
    if (waiters)
      for (os::Ecb* w : *waiters) system_->make_ready(*w, i.time);
  });
  return Action::Wait;
}

}  // namespace paging
