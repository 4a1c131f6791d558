// Loops that wait without effect (machine.skip_spin_loops): a short run of instructions
// that read and write nothing but the general registers and the condition code, ending
// in a branch back to its first instruction. Once one pass of such a loop leaves the
// registers and the CC as it found them, every later pass is the same pass: the same
// instructions, counts and cycles, until something outside the I-stream happens (an
// event, an interruption, another I-stream's turn), and none can happen before the run's
// stop cycle. So the I-stream does the passes up to that point in one step, adding
// exactly what they would have added (Cpu::skip_spin, emu/spin_loop.cpp). An operating
// system waiting in `j .` or `nop; j` for a timer or a watchdog (kvm-unit-tests' diag288
// spins 15 s of TOD time, 78,000,000,000 instructions) then costs what its waiting
// costs the model, not the host.
#pragma once
#include <cstdint>

#include "emu/cycle_cause.h"

namespace emu {

struct DecodedPage;

// The most instructions in a loop that is skipped.
constexpr unsigned kMaxSpinLoop = 16;

// The instructions in the loop from slot `head` to the branch in slot `branch` of
// `page` (head <= branch), if it is one that can be skipped: every instruction decoded
// and register-only (spin_loop.cpp lists them), none but the last able to branch. 0
// if it is not such a loop.
unsigned spin_loop_length(const DecodedPage& page, unsigned head, unsigned branch);

// Whether the relative branch in slot `branch` goes back to a skippable loop's head in
// its page (the block compiler does not chain such a branch, so that the run loop sees
// each pass: emu/jit/block_cache.cpp).
bool closes_spin_loop(const DecodedPage& page, unsigned branch);

// What an I-stream saw when it last came back to the head of a loop that can be
// skipped: compared at the next arrival (Cpu::skip_spin).
struct SpinWatch {
  const DecodedPage* page = nullptr;
  uint64_t head = ~0ull, branch = ~0ull;  // the loop's first instruction and its branch
  unsigned length = 0;                    // instructions in one pass
  uint64_t n = 0, clock = 0;              // the run's count and the clock at the arrival
  uint64_t gr[16] = {};
  uint8_t cc = 0;
  CyclesByCause causes{};                 // Cpu::cycles_by_cause_ then
  uint64_t extra[kMaxSpinLoop] = {};      // each instruction's Insn::extra then
};

// Loops found not to be skippable, by their branch: not looked at again (a cache
// that only saves host time; cleared when code changes).
struct NotSpinLoops {
  static constexpr unsigned kEntries = 64;
  struct Entry {
    const DecodedPage* page = nullptr;
    uint64_t branch = ~0ull;
  } at[kEntries];
  Entry& of(uint64_t branch) { return at[(branch >> 1) % kEntries]; }
  bool holds(const DecodedPage* page, uint64_t branch) {
    const Entry& e = of(branch);
    return e.page == page && e.branch == branch;
  }
  void add(const DecodedPage* page, uint64_t branch) { of(branch) = Entry{page, branch}; }
  void clear() { *this = NotSpinLoops{}; }
};

}  // namespace emu
