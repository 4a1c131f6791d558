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
  return jit::CpuLayout{int32_t(offsetof(Cpu, cycles)), int32_t(offsetof(Cpu, psw_addr)),
                        int32_t(offsetof(Cpu, leave_block_)), int32_t(offsetof(Cpu, gr))};
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
  uint64_t retried_at = ~0ull, retried_n = 0;
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
          const uint32_t r = b->code(this, page_address, &state);
          b = state.block;  // the block that ran last
          n = state.n;      // and the blocks before it, which ran to their end
          clock = state.clock;
          const unsigned k = r & ~jit::Block::kThrew;
          // The instructions after k did not run: the entry counted them (pending).
          for (unsigned j = k + 1; j < b->length(); ++j) --page->slot[b->slots[j]].count;
          n += k + 1;
          in = &page->slot[b->slots[k]];
          a = page_address + 2 * b->slots[k];
          cur = in;
          if (r & jit::Block::kThrew) std::rethrow_exception(jit::take_exception());
          clock += b->cycles_to[k];
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
          in = &page->slot[(to & kPageMask) >> 1];
          a = to;
          block_start = true;
        }
      }
      if (stop_requested_ | slice_over_) break;
    }
    break;
  } catch (const ProgramInterrupt& pi) {
    bool again = pi.address == retried_at && n == retried_n;
    const uint64_t next_addr = psw_addr;
    psw_addr = a;
    const auto action = pi.code == Pic::PageTranslation && page_fault_ && !again
                            ? page_fault_->page_fault(*this, pi.address)
                            : PageFaultHandler::Action::Fail;
    if (action == PageFaultHandler::Action::Retry) {
      retried_at = pi.address, retried_n = n;
      if (cur) --cur->count, --n;
      ++page_faults;
      continue;
    }
    if (action == PageFaultHandler::Action::Wait) {
      if (cur) --cur->count, --n;
      ++page_faults;
      instructions += n;
      stop_requested_ = true;
      return RunResult{StopReason::Requested, {}};
    }
    psw_addr = next_addr;
    instructions += n;
    if (pi.code == Pic::Data || pi.code == Pic::VectorProcessing) fpc = (fpc & ~0xFF00u) | uint32_t(pi.dxc) << 8;
    RunResult r{StopReason::ProgramCheck, {}};
    r.check.interrupt = pi;
    r.check.insn_address = a;
    unsigned len = 0;
    try {
      fetch_bytes(a, r.check.insn_bytes, len);
    } catch (const ProgramInterrupt&) {
    }
    r.check.insn_length = len;
    if (cur) r.check.mnemonic = mnemonic(cur->id);
    else if (len && lookup_opcode(r.check.insn_bytes) != kNoInsn)
      r.check.mnemonic = mnemonic(lookup_opcode(r.check.insn_bytes));
    return r;
  }
  instructions += n;
  return RunResult{stop_requested_ ? StopReason::Requested : StopReason::Limit, {}};
}

}  // namespace emu
