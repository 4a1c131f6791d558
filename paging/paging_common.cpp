// Common pages (system.paging.pageable_common): the shared area's pages, the system
// storage every ECB maps (z/OS's pageable CSA). They count in real storage like any
// page and are stolen least recently used first; a changed one is written to the COMMON
// page data set (SYS1.COMMON.PAGE, on the PLPA's volume after the PLPA, as the seed's
// SYS1.COMMON.PAGCOM shares 02E6 with SYS1.PLPA.PAGCOM), never to SCM or a local data
// set; a fault reads it back into every address space at once, as one page-in makes a
// common page valid in every address space.
//
// As a PLPA page's, a common page's frame keeps it while it is out (the system space
// owns the frame and keeps it mapped, so host-side services still reach it): a page-in
// takes no frame, only its place in real storage's budget, and the bytes read are
// compared with the frame's. A page the host changed while it was out has a stale copy:
// the copy is dropped instead.
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "paging/paging.h"

namespace paging {

// At IPL: the shared area's pages leave the fixed frames for real storage's budget,
// unchanged (what the system put there at IPL needs no write to be stolen).
void Paging::ipl_common() {
  emu::Storage& storage = system_->machine().storage();
  const flashsim::DasdVolume& volume = *devices_->plpa_volume();
  common_base_ = stats_.plpa_pages;  // the PLPA data set's slots come first on the volume
  if (common_base_ + config_.common_slots > volume.config().capacity_blocks())
    throw std::runtime_error(fmt::format(
        "system.paging.common_slots: {} slots of SYS1.COMMON.PAGE after the PLPA's {} do not fit the PLPA volume "
        "{:04X} ({} slots of machine.dasd.cylinders)",
        config_.common_slots, common_base_, volume.config().device_number, volume.config().capacity_blocks()));
  for (const os::CommonPage& p : system_->shared_area_pages()) {
    ProgramPage& pg = programs_[p.address];
    pg.common = true;
    pg.frame = p.frame;
    storage.frame(p.frame).set_changed(false);
    ++stats_.common_pages;
  }
  fixed_frames_ -= std::min(fixed_frames_, stats_.common_pages);
  system_->log(fmt::format("PAGING: COMMON: {} pages of common storage pageable, SYS1.COMMON.PAGE ({:04X}) {} slots",
                           stats_.common_pages, volume.config().device_number, config_.common_slots));
}

// A common page taken from every address space: a changed one into `batch` (written by
// write_common), unless the COMMON data set is full; an unchanged one needs no write.
bool Paging::steal_common(uint64_t va, ProgramPage& pg, std::vector<uint64_t>& batch) {
  emu::Frame& f = system_->machine().storage().frame(pg.frame);
  if (f.changed()) {
    if (pg.dasd.device >= 0) free_slot(pg.dasd), pg.dasd = {};  // stale
    if (!has_room(size_t(common_device_), batch.size() + 1)) {
      ++stats_.common_kept;
      return false;
    }
    pg.buffer = std::make_shared<std::vector<uint8_t>>(f.data.get(), f.data.get() + kPage);
    f.set_changed(false);  // as its copy will be
    pg.state = State::Writing;
    ++writing_frames_;
    batch.push_back(va);
  } else {
    pg.state = State::Out;
  }
  system_->withdraw_common_page(va);
  ++programs_out_;
  ++stats_.stolen, ++stats_.common_stolen;
  return true;
}

// The pages of `batch` to the COMMON data set in requests of system.paging.group pages;
// their frames count as taken until the writes complete.
void Paging::write_common(const std::vector<uint64_t>& batch, uint64_t now) {
  for (size_t at = 0, n = 0; at < batch.size(); at += n) {
    n = std::min<size_t>(config_.group, batch.size() - at);
    auto t = std::make_shared<devices::Transfer>();
    std::vector<std::pair<uint64_t, std::shared_ptr<std::vector<uint8_t>>>> who;
    for (size_t k = at; k < at + n; ++k) {
      ProgramPage& pg = programs_.at(batch[k]);
      pg.dasd = new_slot(common_device_);
      t->request.blocks.push_back({flashsim::Op::Write, pg.dasd.address, uint32_t(kPage), pg.buffer->data()});
      who.emplace_back(batch[k], pg.buffer);
    }
    ++stats_.write_ios, ++stats_.common_write_ios;
    stats_.written += n, stats_.dasd_pages += n, stats_.common_written += n;
    started(common_device_, n);
    ++writes_in_flight_;
    system_->start_io(devices_->plpa_subchannel(), now, t, [this, who, n](const emu::IoInterruption& i) {
      completed(common_device_, i.time - i.started, n);
      --writes_in_flight_;
      for (const auto& [va, buffer] : who) {
        ProgramPage& pg = programs_.at(va);
        if (pg.state != State::Writing || pg.buffer != buffer) continue;  // taken back meanwhile
        if (i.status) {
          system_->log(fmt::format("{:>12} PAGING: page-out of the common page {:#x} failed: {}", i.time, va,
                                   i.detail));
          take_back_common(va, pg);
          continue;
        }
        --writing_frames_;
        pg.buffer.reset();
        pg.state = State::Out;
      }
      frames_freed(i.time);
    });
  }
}

// A page on its way out (a fault, a failed write) mapped again at once: its frame still
// holds it, and its copy does not count.
void Paging::take_back_common(uint64_t va, ProgramPage& pg) {
  --writing_frames_;
  pg.buffer.reset();
  if (pg.dasd.device >= 0) free_slot(pg.dasd), pg.dasd = {};
  system_->machine().storage().frame(pg.frame).set_changed(true);  // no copy holds it
  bring_back_common(va, pg);
}

void Paging::bring_back_common(uint64_t va, ProgramPage& pg) {
  system_->restore_common_page(va);
  emu::Storage& storage = system_->machine().storage();
  storage.reference(storage.frame(pg.frame));
  pg.state = State::Resident;
  aging_.set(pg.aging, 0, va, uint8_t(Kind::Program), 0);
  --programs_out_;
}

emu::PageFaultHandler::Action Paging::common_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t va, ProgramPage& pg) {
  using Action = emu::PageFaultHandler::Action;
  cpu.charge(emu::Cause::Service, system_->config().system.service_cost);  // the fault's handling
  if (pg.state == State::Writing) {
    ++stats_.reclaims, ++stats_.common_reclaims;
    take_back_common(va, pg);
    return Action::Retry;
  }
  if (pg.state == State::Out && pg.dasd.device < 0) {  // unchanged since IPL: nothing to read
    ++stats_.common_unchanged;
    bring_back_common(va, pg);
    return Action::Retry;
  }
  ++stats_.fault_waits;
  if (pg.state != State::Reading) {
    ++stats_.page_ins;
    read_program_page(va, cpu.cycles);
  }
  system_->park(cpu, e, pg.waiters, "the page-in of a common page");
  return Action::Wait;
}

// A host-side service touched, in a process's space, a common page that is out: back
// at once, from its copy if it has one.
bool Paging::restore_common(uint64_t va, ProgramPage& pg) {
  ++stats_.host_restores;
  if (pg.state == State::Writing) {
    take_back_common(va, pg);
  } else if (pg.dasd.device < 0) {
    bring_back_common(va, pg);
  } else {
    std::vector<uint8_t> data(kPage);
    device(pg.dasd).peek(pg.dasd.address, uint32_t(kPage), data.data());
    bring_back_program(va, pg, data.data());  // a read in flight finds it resident and only wakes its waiters
  }
  return true;
}

}  // namespace paging
