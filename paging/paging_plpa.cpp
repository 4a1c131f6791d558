// PLPA-like pages (system.paging.pageable_programs): the program image's read-only
// pages, the programs' code and constants that every process maps. As the seed's rule
// says of the PLPA: at IPL each is placed both on Flash and on disk; from then on they
// count in real storage like any page and are stolen least recently used first, never
// written (their copies stay valid, and nothing stores into them), and a fault reads one
// back from SCM, or from the PLPA data set if SCM has no copy or its read fails.
//
// A page's frame is set apart for it by its address (os/evm.cpp), so it holds the page
// while the page is out: a page-in takes no frame, only its place in the budget back.
// The bytes read are compared with the frame's instead of copied over them (they must be
// the same: one that is not is counted and logged as lost); the frame's decoded
// instructions and their profile counts stay with it.
//
// A page comes back into every address space at once: z/OS's common area has one page
// table for all of them, so one page-in makes a PLPA page valid everywhere.
#include <cstring>
#include <fmt/format.h>

#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "paging/paging.h"

namespace paging {

// At IPL (install: the image is loaded, no ECB has run): every read-only page of the
// image on the PLPA data set, formatted to hold them, and on SCM while PAGESCM allows and
// it has room; the copies are written host side, without simulated time or I/O counted
// (NIP's own writes, before anything is measured). The pages leave the fixed frames for
// real storage's budget.
void Paging::ipl_programs() {
  emu::Storage& storage = system_->machine().storage();
  const flashsim::ScmDevice* scm = devices_->scm();
  const uint64_t scm_room = scm ? std::min(config_.scm_limit, scm->online_bytes()) / kPage : 0;
  for (const os::CommonPage& p : system_->program_pages()) {
    ProgramPage& pg = programs_[p.address];
    pg.frame = p.frame;
    emu::Frame& f = storage.frame(p.frame);
    pg.dasd = new_slot(plpa_device_);
    devices_->plpa_volume()->poke(pg.dasd.address, uint32_t(kPage), f.data.get());
    if (used_[0] < scm_room) {
      pg.scm = new_slot(0);
      devices_->scm()->poke(pg.scm.address, uint32_t(kPage), f.data.get());
      ++stats_.plpa_scm_copies;
    }
    f.set_changed(false);  // as its copies: a host-side write from now on makes them stale
    ++stats_.plpa_pages;
  }
  fixed_frames_ -= std::min(fixed_frames_, stats_.plpa_pages);
  system_->system_space().set_host_fault_handler([this](uint64_t va) { return restore_program(emu::page_down(va)); });
  system_->log(fmt::format("PAGING: PLPA: {} pages of the program image on SYS1.PLPA.PAGE ({:04X}), {} on SCM",
                           stats_.plpa_pages, devices_->plpa_volume()->config().device_number,
                           stats_.plpa_scm_copies));
}

// A PLPA page taken from every address space, without a write; 1 if taken.
bool Paging::steal_program(uint64_t va, std::vector<uint64_t>& common_batch) {
  ProgramPage& pg = programs_.at(va);
  if (pg.state != State::Resident) return false;
  if (pg.common) return steal_common(va, pg, common_batch);
  if (system_->machine().storage().frame(pg.frame).changed()) {  // its copies no longer hold it: it stays
    ++stats_.plpa_changed;
    return false;
  }
  system_->withdraw_common_page(va);
  pg.state = State::Out;
  ++programs_out_;
  ++stats_.stolen, ++stats_.plpa_stolen;
  return true;
}

emu::PageFaultHandler::Action Paging::program_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t va, ProgramPage& pg) {
  if (pg.common) return common_fault(cpu, e, va, pg);
  cpu.charge(emu::Cause::Service, system_->config().system.service_cost);  // the fault's handling
  ++stats_.fault_waits;
  if (pg.state != State::Reading) {
    ++stats_.page_ins;
    read_program_page(va, cpu.cycles);
  }
  system_->park(cpu, e, pg.waiters, "the page-in of a program page");
  return emu::PageFaultHandler::Action::Wait;
}

// The read of a PLPA page from its faster copy: SCM if it has one, else the PLPA data
// set. A read from SCM that fails (both cards of its pair failed) drops the SCM copy and
// reads the page from the data set; its waiters go on waiting.
void Paging::read_program_page(uint64_t va, uint64_t now) {
  ProgramPage& pg = programs_.at(va);
  const Slot from = pg.scm.device >= 0 ? pg.scm : pg.dasd;
  pg.state = State::Reading;
  pg.buffer = std::make_shared<std::vector<uint8_t>>(kPage);
  const auto buffer = pg.buffer;
  auto t = std::make_shared<devices::Transfer>();
  t->request.blocks.push_back({flashsim::Op::Read, from.address, uint32_t(kPage), buffer->data()});
  started(from.device, 1);
  system_->start_io(subchannel(from), now, t, [this, va, from, buffer](const emu::IoInterruption& i) {
    const uint64_t took = i.time - i.started;
    completed(from.device, took, 1);
    stats_.page_in_cycles += took;
    stats_.page_in_max_cycles = std::max(stats_.page_in_max_cycles, took);
    ProgramPage& pg = programs_.at(va);
    const bool mine = pg.state == State::Reading && pg.buffer == buffer;  // else a host access brought it back
    if (mine && i.status && from.device == 0) {
      system_->log(fmt::format("{:>12} PAGING: program page {:#x}: read from SCM failed ({}); from the PLPA data set",
                               i.time, va, i.detail));
      ++stats_.plpa_scm_failed;
      free_slot(pg.scm), pg.scm = {};
      read_program_page(va, i.time);
      return;
    }
    if (mine) {
      if (i.status) {  // the frame still holds the page: nothing is lost, but say so
        system_->log(fmt::format("{:>12} PAGING: program page {:#x}: read from the PLPA data set failed ({})", i.time,
                                 va, i.detail));
        std::memcpy(buffer->data(), system_->machine().storage().frame(pg.frame).data.get(), kPage);
      } else {
        ++stats_.pages_in[from.device == 0 ? 0 : 1];
        ++(pg.common ? stats_.common_in : from.device == 0 ? stats_.plpa_in_scm : stats_.plpa_in_dasd);
      }
      bring_back_program(va, pg, buffer->data());
    }
    os::WaitList waiters;
    waiters.swap(pg.waiters);
    for (os::Ecb* w : waiters) system_->make_ready(*w, i.time);
  });
}

// The page mapped again in every address space; `data` is what its copy held.
void Paging::bring_back_program(uint64_t va, ProgramPage& pg, const uint8_t* data) {
  emu::Frame& f = system_->machine().storage().frame(pg.frame);
  if (pg.common && f.changed()) {  // a host-side service wrote it while it was out: the copy is stale
    free_slot(pg.dasd), pg.dasd = {};
  } else if (std::memcmp(f.data.get(), data, kPage) != 0) {
    ++(pg.common ? stats_.common_wrong : stats_.plpa_wrong);
    system_->log(fmt::format("PAGING: {} page {:#x} came back wrong from its copy", pg.common ? "common" : "program",
                             va));
  }
  system_->restore_common_page(va);
  system_->machine().storage().reference(f);
  pg.state = State::Resident;
  aging_.set(pg.aging, 0, va, uint8_t(Kind::Program), 0);
  pg.buffer.reset();
  --programs_out_;
}

// A host-side service touched a PLPA page that is out: back at once from its faster copy.
bool Paging::restore_program(uint64_t va) {
  auto it = programs_.find(va);
  if (it == programs_.end() || it->second.state == State::Resident) return false;
  ProgramPage& pg = it->second;
  if (pg.common) return restore_common(va, pg);
  ++stats_.host_restores;
  std::vector<uint8_t> data(kPage);
  const Slot& from = pg.scm.device >= 0 ? pg.scm : pg.dasd;
  device(from).peek(from.address, uint32_t(kPage), data.data());
  bring_back_program(va, pg, data.data());  // a read in flight finds it resident and only wakes its waiters
  return true;
}

}  // namespace paging
