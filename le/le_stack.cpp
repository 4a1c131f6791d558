// LE's stack (issue 25, item 3, and RPTSTG's STACK statistics): the control program's
// side of LE's prologue. The prologue itself is guest code (le/guest/le_stack.h: the
// inline check cmake/le_prologue.py inserts into LE-conforming programs, and
// le_dsa_check.S): the fill of each frame with STORAGE's dsa_alloc byte, the clearing of
// the initial segment (CLEAR) and the bookkeeping of the lowest frame are executed and
// cost what they execute; nothing here charges for them.
//
// Here: the anchor page's settings, written at its first reference (the enclave's first
// prologue: LE's initialization before main gets control); the stack's segments
// (TPF_SVC_LE_STACK, a service line with its cycles like LE_GETMAIN); the report.
//
// Where the stack lies: the top of the ECB's stack area (TPF_EVM_STACK_TOP down, mapped
// by the control program for every ECB, system.stack_size bytes), the initial segment
// STACK's init bytes below its top, each increment segment directly below the one
// before. Contiguous, as our prologue needs: a function's incoming stack arguments lie
// in its caller's frame, addressed from its own frame by a displacement (LE's segments
// need not be contiguous: its prologue copies them; ours are not copied). The segments'
// bytes count in the process's LE region (system.le.region), page-rounded as the
// heap's are. With FREE, an increment segment's whole pages go back (unmapped, and
// demand-zero again) when the stack has returned out of it.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "emu/cpu.h"
#include "emu/profiler.h"
#include "le/guest/le_stack.h"
#include "le/le_subsystem.h"
#include "os/guest/include/tpf_evm.h"
#include "os/guest/include/tpf_svc.h"
#include "os/run_config.h"

namespace le {
namespace {


void put64(os::Process& p, uint64_t offset, uint64_t v) {
  uint8_t be[8];
  emu::Cpu::store_be<uint64_t>(be, v);
  p.space->write_bytes(TPF_EVM_LE_ANCHOR + offset, be, 8);
}

uint64_t get64(const os::Process& p, uint64_t offset) {
  uint8_t be[8] = {};
  if (!p.space->read_bytes(TPF_EVM_LE_ANCHOR + offset, be, 8)) return 0;
  return emu::Cpu::load_be<uint64_t>(be);
}

}  // namespace

// The anchor page is demand-zero, mapped here at its first reference. Any program gets
// it (an LE-conforming program that is not on LE storage: a zero page, whose trip of 0
// is never taken, and no charge, as for any demand-zero page). A program on LE storage
// gets its settings (system.le options) and its initial segment, charged as a service:
// LE's enclave initialization. The trip is the largest address, so that the first check
// (main's) calls the routine, which does the rest of the start in guest code.
emu::PageFaultHandler::Action LeStorage::page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) {
  using Action = emu::PageFaultHandler::Action;
  if (address < TPF_EVM_LE_ANCHOR || address >= TPF_EVM_LE_ANCHOR_END) return Action::Fail;
  // Mapped once per process: a later fault on it is a page paged out (the paging
  // subsystem's, asked after us), never a new anchor.
  if (anchored_.count(e.process->id)) return Action::Fail;
  if (!anchor(*e.process, e.program)) return Action::Fail;
  if (config_.on_le(e.program)) cpu.charge(emu::Cause::Service, system_->config().system.service_cost);
  return Action::Retry;
}

// The process's first enclave's stack: its anchor page, and for a program on LE storage
// its settings and initial segment (counted in the region). At the anchor's first
// reference (a prologue check), or when the enclave starts (LE_START), whichever is
// first, so that every enclave's initial stack counts whether or not its code checks.
bool LeStorage::anchor(os::Process& p, const std::string& program) {
  if (!anchored_.insert(p.id).second) return true;
  if (!p.space->map(TPF_EVM_LE_ANCHOR, TPF_EVM_LE_ANCHOR_END - TPF_EVM_LE_ANCHOR, emu::kProtReadWrite)) return false;
  if (!config_.on_le(program)) return true;
  const Options& o = config_.options_for(program);
  Region& r = regions_[p.id];
  r.program = program;
  Region::Stack& s = r.stack;
  s.on = true;
  s.top = TPF_EVM_STACK_TOP;  // the enclave's main ECB (thread 0)
  s.area = TPF_EVM_STACK_TOP - emu::page_up(system_->config().system.stack_size);
  s.init = o.stack.init_size;
  s.incr = o.stack.incr_size;
  // An initial segment larger than the ECB's stack area: none (the floor at the top), so
  // that the first check asks for a segment and LE_STACK ends the ECB, naming the options.
  s.floor = s.init <= s.top - s.area ? s.top - s.init : s.top;
  if (s.floor < s.top) {
    ++s.allocated;
    r.above.held += emu::page_up(s.init);
    r.above.held_max = std::max(r.above.held_max, r.above.held);
  }
  const Fill& fill = o.storage.dsa_alloc;
  put64(p, LE_A_TRIP, ~uint64_t(0));
  put64(p, LE_A_LOWEST, s.top);
  put64(p, LE_A_TOP, s.top);
  put64(p, LE_A_AREA, s.area);
  put64(p, LE_A_FILL, fill.kind == Fill::Byte ? fill.byte : LE_FILL_NONE);
  put64(p, LE_A_FLAGS, (fill.kind == Fill::Clear ? LE_FLAG_CLEAR : 0) |
                           (o.stack.disposition == Disposition::Free ? LE_FLAG_FREE : 0));
  stack_anchor(p, s);
  return true;
}

void LeStorage::stack_anchor(os::Process& p, Region::Stack& s) const {
  put64(p, LE_A_FLOOR, s.floor);
  put64(p, LE_A_EXT_TOP, s.increments.empty() ? 0 : s.floor + s.increments.back());
}

// r2 = LE_STACK_EXTEND, r3 = the new frame's lowest address: a segment of STACK's
// increment (more if the frame needs it, 8-byte multiples as LE's sizes are) below the
// floor. r2 = LE_STACK_FREE: the lowest increment segment goes back. What the guest
// passes is checked: a bad request ends the ECB with a dump that says why.
void LeStorage::stack_service(emu::Cpu& cpu, os::Ecb& e) {
  auto it = regions_.find(e.process->id);
  if (it == regions_.end() || !it->second.stack.on) {
    system_->abend(cpu, e, "LE_STACK: this process's program is not on LE storage (system.le.programs)\n");
    return;
  }
  Region& r = it->second;
  Region::Stack& s = r.stack;
  const uint64_t op = cpu.gr[2], frame = cpu.gr[3];
  if (r.enclaves.size() > 1) {  // a LINKed enclave's stack (le_link) is its initial segment only (ours)
    const Enclave& in = r.enclaves.back();
    const Options& lo = config_.on_le(in.program) ? config_.options_for(in.program) : config_.options;
    system_->abend(cpu, e, fmt::format("LE_STACK: {} (a LINKed enclave) needs stack below {:#x}: its stack is its "
                                       "initial segment, {} bytes ({}), which it has outgrown\n",
                                       in.program, frame, lo.stack.init_size, canonical(lo, "STACK")));
    return;
  }
  if (op == LE_STACK_FREE) {
    if (s.increments.empty()) return;
    const uint64_t size = s.increments.back();
    s.increments.pop_back();
    // The segment's whole pages: unmapped, then demand-zero again (their frames go back).
    const uint64_t lo = emu::page_up(s.floor), hi = emu::page_down(s.floor + size);
    if (hi > lo) {
      e.process->space->unmap(lo, hi - lo);
      e.process->space->reserve(lo, hi - lo, emu::kProtReadWrite, /*first_reference_faults=*/true);
    }
    s.floor += size;
    r.above.held -= emu::page_up(size);
    ++s.freed;
    stack_anchor(*e.process, s);
    return;
  }
  const Options& o = config_.options_for(r.program);
  const uint64_t size = std::max(s.incr, (s.floor - std::min(frame, s.floor) + 7) & ~uint64_t(7));
  if (op == LE_STACK_EXTEND && (frame < s.area + LE_SAVE_BYTES || s.floor - s.area < size)) {
    system_->abend(cpu, e, fmt::format("LE_STACK: {} needs {} bytes of stack below {:#x} ({}): the ECB's stack area "
                                       "(system.stack_size = {}) has no room for it\n",
                                       r.program, size, s.floor, canonical(o, "STACK"),
                                       system_->config().system.stack_size));
    return;
  }
  if (op != LE_STACK_EXTEND || frame >= s.floor) {
    system_->abend(cpu, e, fmt::format("LE_STACK: r2 = {}, r3 = {:#x}: not a request for a segment below the stack's "
                                       "floor {:#x}\n", op, frame, s.floor));
    return;
  }
  if (r.above.held + emu::page_up(size) > config_.region) {
    system_->abend(cpu, e, fmt::format("LE_STACK: {} needs a stack segment of {} bytes: its LE region "
                                       "(system.le.region = {}) is full\n", r.program, size, config_.region));
    return;
  }
  s.floor -= size;
  s.increments.push_back(size);
  ++s.allocated;
  r.above.held += emu::page_up(size);
  r.above.held_max = std::max(r.above.held_max, r.above.held);
  stack_anchor(*e.process, s);
}

bool LeStorage::read_stack(os::Process& p, const Region& r, StackReport& out) const {
  const Region::Stack& s = r.stack;
  if (!s.on) return false;
  const Options& o = config_.options_for(r.program);
  out.present = true;
  out.init_size = o.stack.init_size;
  out.incr_size = o.stack.incr_size;
  out.disposition = o.stack.disposition == Disposition::Free ? "FREE" : "KEEP";
  const uint64_t lowest = get64(p, LE_A_LOWEST);
  out.largest_used = lowest && lowest <= s.top ? s.top - lowest : 0;
  out.max_used_all = out.largest_used;  // one thread
  out.segments_allocated = s.allocated;
  out.segments_freed = s.freed;
  out.prologue_calls = get64(p, LE_A_CALLS);
  return true;
}

// A LINKed enclave's stack, at its end: the anchor is still the one le_link set for it
// (le/guest/le_tpf.c): its top, lowest frame and checks; one segment, never extended.
// LE allocates a LINKed enclave's initial stack segment as the enclave starts, so it
// counts one segment allocated even when no LE-conforming code ran in it (used 0).
StackReport LeStorage::read_linked_stack(os::Process& p, const Options& o) const {
  StackReport out;
  const uint64_t calls = get64(p, LE_A_CALLS), top = get64(p, LE_A_TOP), lowest = get64(p, LE_A_LOWEST);
  out.present = true;
  out.init_size = o.stack.init_size;
  out.incr_size = o.stack.incr_size;
  out.disposition = o.stack.disposition == Disposition::Free ? "FREE" : "KEEP";
  out.largest_used = calls && lowest && lowest <= top ? top - lowest : 0;
  out.max_used_all = out.largest_used;
  out.segments_allocated = 1;
  out.prologue_calls = calls;
  return out;
}

// LE's lines and order (seed 003, "Now using stack(8k,4k) heap(4k,4k)").
void write_stack_report(std::ostream& out, const StackReport& s) {
  if (!s.present) return;
  auto line = [&](const char* label, uint64_t v) { out << fmt::format("  {:<46}{:>16}\n", label, v); };
  out << "STACK statistics:\n";
  line("Initial size:", s.init_size);
  line("Increment size:", s.incr_size);
  line("Maximum used by all concurrent threads:", s.max_used_all);
  line("Largest used by any thread:", s.largest_used);
  line("Number of segments allocated:", s.segments_allocated);
  line("Number of segments freed:", s.segments_freed);
}

nlohmann::ordered_json stack_json(const StackReport& s) {
  if (!s.present) return nullptr;
  return {{"initial_size", s.init_size},         {"increment_size", s.incr_size},
          {"disposition", s.disposition},        {"max_used_all_threads", s.max_used_all},
          {"largest_used_any_thread", s.largest_used}, {"segments_allocated", s.segments_allocated},
          {"segments_freed", s.segments_freed},  {"prologue_calls", s.prologue_calls}};
}

}  // namespace le
