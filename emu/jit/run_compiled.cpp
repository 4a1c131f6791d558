// The run loop of machine.engine: compile. It is the interpreter's loop (Cpu::interpret,
// emu/cpu.cpp) step for step, with one addition: where a block can start (the run's
// first instruction, a branch target, the instruction after a block) it enters the
// block compiled there, if the block cannot reach the instruction limit or the stop
// cycle (the slice's end or the next ZTRAP sample point) before its last instruction.
// After a block, the last instruction it executed is finished here exactly as the
// interpreter finishes every instruction (extra cycles, stop and sample checks, the
// branch), so a block is the interpreter's loop with its per-instruction bookkeeping
// proved unnecessary in advance. docs/speed.md, "Block compiler", has the argument.
#include <algorithm>
#include <cstddef>

#include "emu/cpu.h"
#include "emu/isa/table.h"

namespace emu {

jit::CpuLayout Cpu::compiled_layout() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(sizeof(TlbEntry) == jit::kTlbEntryBytes && offsetof(TlbEntry, rtag) == 0 &&
                offsetof(TlbEntry, wtag) == 8 && offsetof(TlbEntry, host) == 16 && offsetof(TlbEntry, abs) == 24);
  static_assert(sizeof(cc) == 1 && sizeof(prog_mask) == 1 && sizeof(caches_) == 8);
  jit::CpuLayout l;
  l.cycles = int32_t(offsetof(Cpu, cycles));
  l.psw_addr = int32_t(offsetof(Cpu, psw_addr));
  l.leave_block = int32_t(offsetof(Cpu, leave_block_));
  l.gr = int32_t(offsetof(Cpu, gr));
  l.tlb = int32_t(offsetof(Cpu, tlb_));
  l.caches = int32_t(offsetof(Cpu, caches_));
  l.last_rline = int32_t(offsetof(Cpu, last_rline_));
  l.last_wline = int32_t(offsetof(Cpu, last_wline_));
  l.tlb_entries = uint32_t(kTlbSize);
  l.cc = int32_t(offsetof(Cpu, cc));
  l.prog_mask = int32_t(offsetof(Cpu, prog_mask));
  static_assert(sizeof(VectorRegister) == 16 && offsetof(VectorRegister, hi) == 0);
  l.fpr = int32_t(offsetof(Cpu, vr));
  return l;
#pragma GCC diagnostic pop
}

RunResult Cpu::run_compiled(uint64_t limit, uint64_t cycle_end) {
  stop_requested_ = slice_over_ = false;
  if (next_sample_ <= cycles) [[unlikely]]
    next_sample_ += ((cycles - next_sample_) / sample_interval_ + 1) * sample_interval_;
  jit::CodeCache& blocks = *code_cache_;
  uint64_t n = 0;
  uint64_t a = psw_addr;
  Insn* cur = nullptr;
  // The retry state, and n at an interrupt: n itself stays a local that no handler can
  // reach, so that it lives in a host register.
  RunProgress progress;
  for (;;) try {
    while (n < limit && cycles < cycle_end) {
      const uint64_t stop_cycle = std::min(cycle_end, next_sample_);
      a = psw_addr;
      cur = nullptr;
      if (((a >> 12) != code_vpage_) | (a & 1)) [[unlikely]]
        enter_code_page(a);
      DecodedPage* const page = code_;
      const uint64_t page_address = a & ~kPageMask;
      Insn* in = &page->slot[(a & kPageMask) >> 1];
      leave_block_ = false;
      spin_watch_.page = nullptr;  // a pass of a loop is seen whole inside the loop below
      uint64_t clock = cycles;
      bool block_start = true;  // `in` may start a block
      for (;;) {
        unsigned len;
        uint64_t next;
        jit::Block* b = block_start ? blocks.block_at(*page, unsigned(in - page->slot)) : nullptr;
        if (b && !(n + b->length() <= limit && clock + b->entry.base_cycles < stop_cycle)) b = nullptr;
        if (b) {
          // Entered only if no instruction but the last can reach the limit or the stop
          // cycle with its base cycles; cycles beyond the base make the block leave. A
          // block goes on into the next one in the page under the same test (chaining).
          jit::RunState state{n, limit, stop_cycle, b, clock};
          // Where the chain left: the block that ran last, its instruction k (the one
          // the interpreter finishes next), the blocks before it counted in state.n.
          const auto left_at = [&](unsigned k) {
            b = state.block;
            n = state.n + k + 1;
            // The instructions after k did not run: the entry counted them (pending).
            for (unsigned j = k + 1; j < b->length(); ++j) --page->slot[b->slots[j]].count;
            in = &page->slot[b->slots[k]];
            a = page_address + 2 * b->slots[k];
            cur = in;
          };
          unsigned k;
          if (cosim_) [[unlikely]]
            cosim_enter(*page, page_address, *b, state);
          try {
            k = b->code(this, page_address, &state);
          } catch (...) {
            // A handler's exception, unwound through the block: the interpreter's catch
            // below takes it with the state it would have had.
            left_at(state.insn);
            if (cosim_) [[unlikely]]
              cosim_leave(*page, n, a, 0, std::current_exception());
            throw;
          }
          left_at(k);
          clock = state.clock;
          clock += b->cycles_to[k];
          if (cosim_) [[unlikely]]
            cosim_leave(*page, n, a, clock, nullptr);
          len = in->len;
          next = a + len;
        } else {
          if (!in->fn) [[unlikely]] {
            cur = nullptr;
            decode_into(*in, a);
          }
          cur = in;
          len = in->len;
          next = a + len;
          psw_addr = next;
          ++in->count;
          ++n;
          clock += in->cycles;
          cycles = clock;
          in->fn(*this, *in);
        }
        // From here on, as the interpreter after each instruction.
        if (cycles != clock) [[unlikely]]
          clock = charged_more(*in, clock);
        if (leave_block_ | (n >= limit) | (clock >= stop_cycle)) [[unlikely]] {
          while (cycles >= next_sample_) {
            page->add_sample(unsigned(in - page->slot)), next_sample_ += sample_interval_;
            if (sample_sink_) sample_sink_->sample(istream_, a);
          }
          break;
        }
        const uint64_t to = psw_addr;
        if (to == next) [[likely]] {
          if ((next & kPageMask) < len) break;
          in += len >> 1;
          a = next;
          block_start = b != nullptr;  // the instruction after a block that ran starts one
        } else {
          if (((to >> 12) != code_vpage_) | (to & 1)) break;
          if (spin_skip_ & (to <= a)) [[unlikely]]
            skip_spin(*page, to, a, n, limit, stop_cycle, clock);
          in = &page->slot[(to & kPageMask) >> 1];
          a = to;
          block_start = true;
        }
      }
      if (stop_requested_ | slice_over_) break;
    }
    break;
  } catch (const ProgramInterrupt& pi) {
    progress.n = n;
    const std::optional<RunResult> r = take_interrupt(pi, a, cur, progress);
    n = progress.n;
    if (r) return *r;
  }
  instructions += n;
  return RunResult{stop_requested_ ? StopReason::Requested : StopReason::Limit, {}};
}

}  // namespace emu
