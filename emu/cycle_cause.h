// Why an I-stream's clock moved: every cycle charged to an I-stream is charged with
// one cause (Cpu::charge), so a run can show where its cycles went (a CPI stack, as
// zsim and Sniper report) and the causes always sum to the clock.
//
// emu/ charges instruction, storage, coherence, tlb and idle itself. The others are
// charged by the layer above (the control program), which is why they are named for
// what a control program does, in generic words: emu/ knows nothing of ECBs. Page wait
// is idle time too, told apart by the layer above (Cpu::set_idle_cause).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace emu {

enum class Cause : uint8_t {
  Instruction,  // base cycles of each instruction, with its per-byte and serialization extras
  Storage,      // cache levels and memory beyond an L1 hit (the storage hierarchy)
  Coherence,    // line transfers from another I-stream, cross-invalidations, waiting for a busy line
  Tlb,          // DAT table walks on TLB misses
  Svc,          // entering and leaving the supervisor on SVC
  Service,      // work the supervisor does in the host for a service (static page copies included)
  Dispatch,     // loading a unit of work onto the I-stream
  Create,       // creating a unit of work (its block and address space)
  Exit,         // ending a unit of work
  PageWait,     // nothing to run while the I-stream's units of work wait for page-ins
  Idle,         // nothing to run: the clock waits for the next event
};

inline constexpr size_t kCauseCount = size_t(Cause::Idle) + 1;

// Cycles per cause, indexed by Cause.
using CyclesByCause = std::array<uint64_t, kCauseCount>;

// The name reports use (summary.json keys, summary.txt rows): one place.
constexpr const char* cause_name(Cause c) {
  constexpr const char* kNames[kCauseCount] = {"instruction", "storage", "coherence", "tlb",  "svc",
                                               "service",     "dispatch", "create",   "exit", "page_wait",
                                               "idle"};
  return kNames[size_t(c)];
}

// Causes in which the I-stream ran nothing (the rest are its busy cycles).
constexpr bool is_idle(Cause c) { return c == Cause::PageWait || c == Cause::Idle; }

// Every cause in report order (the enum's order).
constexpr std::array<Cause, kCauseCount> all_causes() {
  std::array<Cause, kCauseCount> a{};
  for (size_t k = 0; k < kCauseCount; ++k) a[k] = Cause(k);
  return a;
}

}  // namespace emu
