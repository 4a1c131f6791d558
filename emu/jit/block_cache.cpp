// Blocks, their pages' tables, the bounded code cache, and the code generator (asmjit,
// x86-64 only: elsewhere CodeCache::available() is false and every I-stream interprets).
#include "emu/jit/block_cache.h"

#include <chrono>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <utility>

#include "emu/cpu.h"
#include "emu/isa/table.h"

#if defined(TPFEMU_HAVE_JIT)
#include <asmjit/x86.h>
#endif

namespace emu {
namespace jit {

void PageBlocksDeleter::operator()(PageBlocks* p) const { delete p; }

namespace {

// The exception a handler threw inside a block: held here until the run loop rethrows
// it, so that no exception ever unwinds through generated code (which has no unwind
// tables). The host runs one I-stream at a time on one thread.
thread_local std::exception_ptr t_thrown;

// Every instruction of a block is called through this: the handler of the table line,
// with its decoded Insn, exactly as the interpreter calls it.
extern "C" uint32_t call_handler(Cpu* cpu, const Insn* in) {
  try {
    in->fn(*cpu, *in);
    return 0;
  } catch (...) {
    t_thrown = std::current_exception();
    return 1;
  }
}

// Whether a block ends after the instruction `id`: branches (they start the next block
// at their target), and what can hand the I-stream elsewhere or change its addressing
// (SVC, EXECUTE's target, SET ADDRESSING MODE, LOAD PSW). Only a matter of block shape:
// every instruction in a block is followed by the interpreter's own checks (a branch
// taken, a stop, a code change), so an instruction not listed here is exact too.
bool ends_block(uint16_t id) {
  const std::string_view m = mnemonic(id);
  if (m.empty()) return true;
  // Privileged and semiprivileged instructions change the PSW's masks, the prefix, the
  // control registers or other I-streams (system mode): a block boundary after each.
  if (instruction_table()[id].privilege != Privilege::None) return true;
  if (m.front() == 'B') return true;                                         // BC, BRC, BRASL, BCT, BXH ...
  if (m.front() == 'C' && (m.back() == 'J' || m.back() == 'B')) return true;  // compare and branch
  for (std::string_view s : {"SVC", "EX", "EXRL", "SAM24", "SAM31", "SAM64", "LPSW", "LPSWE", "PR", "TRAP2", "TRAP4"})
    if (m == s) return true;
  return false;
}

}  // namespace

std::exception_ptr take_exception() { return std::exchange(t_thrown, nullptr); }

void PageBlocks::fold_counts() {
  for (Block* b : at) {
    if (!b || !b->pending) continue;
    for (uint16_t s : b->slots) page->slot[s].count += b->pending;
    b->pending = 0;
  }
}

PageBlocks::~PageBlocks() {
  for (Block* b : at)
    if (b) cache->drop(b);
}

// ---------------------------------------------------------------------------------
// The code generator.

#if defined(TPFEMU_HAVE_JIT)

struct CodeCache::Backend {
  asmjit::JitRuntime runtime;
};

bool CodeCache::available() { return true; }

namespace {

// The instructions emitted as host code instead of a call of their handler: the
// hottest of the bench's profiles that touch only general registers, set no condition
// code and cannot raise an exception. Each is its table entry's handler (named beside
// it, emu/isa/) written in x86-64; engines.same runs both on every guest program.
enum class Native : uint8_t { None, LR, LGR, LGFR, LLGFR, LHI, LGHI, LLILF, LLIHF, LA, LARL, SLLG, SRLG };

Native native_form(uint16_t id) {
  static const std::pair<std::string_view, Native> kForms[] = {
      {"LR", Native::LR},       {"LGR", Native::LGR},     {"LGFR", Native::LGFR}, {"LLGFR", Native::LLGFR},
      {"LHI", Native::LHI},     {"LGHI", Native::LGHI},   {"LGFI", Native::LGHI}, {"LLILF", Native::LLILF},
      {"LLIHF", Native::LLIHF}, {"LA", Native::LA},       {"LAY", Native::LA},    {"LARL", Native::LARL},
      {"SLLG", Native::SLLG},   {"SRLG", Native::SRLG}};
  const std::string_view m = mnemonic(id);
  for (const auto& [name, form] : kForms)
    if (m == name) return form;
  return Native::None;
}

// Emits `form` for `in`; gr(r) is general register r's slot in the Cpu.
template <class Gr>
void emit_native(asmjit::x86::Assembler& as, Native form, const Insn& in, Gr gr) {
  using namespace asmjit;
  const x86::Gp rax = x86::rax, rcx = x86::rcx;
  switch (form) {
    case Native::LR:  // lr: c.set_r32(r1, c.r32(r2)) (bits 32-63 are the low word on the host)
      as.mov(x86::eax, gr(in.r2, 4)), as.mov(gr(in.r1, 4), x86::eax);
      break;
    case Native::LGR: as.mov(rax, gr(in.r2, 8)), as.mov(gr(in.r1, 8), rax); break;  // lgr
    case Native::LGFR: as.movsxd(rax, gr(in.r2, 4)), as.mov(gr(in.r1, 8), rax); break;  // lgfr
    case Native::LLGFR: as.mov(x86::eax, gr(in.r2, 4)), as.mov(gr(in.r1, 8), rax); break;  // llgfr
    case Native::LHI: as.mov(gr(in.r1, 4), imm(uint32_t(in.imm))); break;  // lhi: set_r32(r1, imm)
    case Native::LGHI: as.mov(rax, imm(uint64_t(in.imm))), as.mov(gr(in.r1, 8), rax); break;  // lghi, lgfi
    case Native::LLILF: as.mov(x86::eax, imm(uint32_t(in.imm))), as.mov(gr(in.r1, 8), rax); break;  // llilf
    case Native::LLIHF:  // llihf
      as.mov(rax, imm(uint64_t(uint32_t(in.imm)) << 32)), as.mov(gr(in.r1, 8), rax);
      break;
    case Native::LA:  // la: gr[r1] = gr[x2] + gr[b2] + d2 (gr[16] is the zero register)
      as.mov(rax, gr(in.x2, 8)), as.add(rax, gr(in.b2, 8));
      if (in.d2) as.add(rax, imm(in.d2));
      as.mov(gr(in.r1, 8), rax);
      break;
    case Native::LARL: as.mov(rax, imm(in.target)), as.mov(gr(in.r1, 8), rax); break;  // larl
    case Native::SLLG:  // sllg, srlg: gr[r1] = gr[r3] shifted by ea2 & 63 (x86 masks the count so)
    case Native::SRLG:
      as.mov(rcx, gr(in.x2, 8)), as.add(rcx, gr(in.b2, 8));
      if (in.d2) as.add(rcx, imm(in.d2));
      as.mov(rax, gr(in.r3, 8));
      if (form == Native::SLLG) as.shl(rax, x86::cl);
      else as.shr(rax, x86::cl);
      as.mov(gr(in.r1, 8), rax);
      break;
    case Native::None: break;
  }
}

// One block's host code: a function of the Cpu that keeps the I-stream's clock in r12
// and, for each instruction, does what the interpreter's loop does around the handler
// (the clock advanced by the base cycles, the PSW address at the next instruction,
// the handler called), then leaves unless everything is as it would be for the next
// instruction of the block: no exception, no cycles charged beyond the base, no stop
// or code change (leave_block_), no branch taken. Whatever else happened, the run
// loop finishes that instruction as the interpreter would (Cpu::run_compiled).
size_t emit_block(asmjit::JitRuntime& rt, const DecodedPage& page, Block& b, const CpuLayout& at, Block::Code& fn) {
  using namespace asmjit;
  CodeHolder code;
  code.init(rt.environment());
  x86::Assembler as(&code);
  const x86::Gp cpu = x86::rbx, clock = x86::r12;
  Label done = as.newLabel();
  std::vector<Label> leave(b.length()), threw(b.length());
  for (unsigned k = 0; k < b.length(); ++k) leave[k] = as.newLabel(), threw[k] = as.newLabel();

  // Five pushes and the return address: the stack stays 16-byte aligned for calls.
  // Every block saves the same registers, so a block chained to returns for the first.
  const x86::Gp state = x86::r14;
  as.push(x86::rbx);
  as.push(x86::r12);
  as.push(x86::r13);
  as.push(x86::r14);
  as.push(x86::r15);
  as.mov(cpu, x86::rdi);
  as.mov(x86::r13, x86::rsi);  // the page's virtual address: the block is the frame's, wherever mapped
  as.mov(state, x86::rdx);     // RunState
  as.mov(clock, x86::qword_ptr(cpu, at.cycles));
  Label body = as.newLabel(), chain_exit = as.newLabel();
  as.bind(body);  // a chained block enters here, with rbx, r12, r13 and r14 set
  as.mov(x86::rax, imm(uint64_t(&b.pending)));
  as.inc(x86::qword_ptr(x86::rax));  // every instruction of the block counts once (fold_counts)
  auto gr = [&](unsigned r, unsigned size) { return x86::Mem(cpu, at.gr + int32_t(8 * r), size); };
  for (unsigned k = 0; k < b.length(); ++k) {
    const Insn& in = page.slot[b.slots[k]];
    const bool last = k + 1 == b.length();
    if (in.cycles) as.add(clock, imm(in.cycles));
    if (const Native form = native_form(in.id); form != Native::None) {
      // Nothing reads the clock or the PSW address until the next handler or the exit,
      // which store them: only the register changes here, and nothing can go otherwise.
      emit_native(as, form, in, gr);
      if (!last) continue;
      as.mov(x86::qword_ptr(cpu, at.cycles), clock);
      as.lea(x86::rax, x86::ptr(x86::r13, int32_t(2 * b.slots[k] + in.len)));
      as.mov(x86::qword_ptr(cpu, at.psw_addr), x86::rax);
      break;
    }
    as.mov(x86::qword_ptr(cpu, at.cycles), clock);
    // psw_addr = the next instruction's address (page address in r13 + its offset)
    as.lea(x86::rax, x86::ptr(x86::r13, int32_t(2 * b.slots[k] + in.len)));
    as.mov(x86::qword_ptr(cpu, at.psw_addr), x86::rax);
    as.mov(x86::rdi, cpu);
    as.mov(x86::rsi, imm(uint64_t(&in)));
    as.mov(x86::rax, imm(uint64_t(&call_handler)));
    as.call(x86::rax);
    as.test(x86::eax, x86::eax);
    as.jnz(threw[k]);
    if (last) {
      // The run loop's tests after an instruction, before going on into another block.
      as.cmp(x86::qword_ptr(cpu, at.cycles), clock);
      as.jne(chain_exit);
      as.cmp(x86::byte_ptr(cpu, at.leave_block), 0);
      as.jne(chain_exit);
      break;
    }
    as.cmp(x86::qword_ptr(cpu, at.cycles), clock);
    as.jne(leave[k]);
    as.cmp(x86::byte_ptr(cpu, at.leave_block), 0);
    as.jne(leave[k]);
    as.lea(x86::rax, x86::ptr(x86::r13, int32_t(2 * b.slots[k] + in.len)));
    as.cmp(x86::qword_ptr(cpu, at.psw_addr), x86::rax);
    as.jne(leave[k]);
  }
  // Chaining: the next instruction (the branch target, or the one after) is in this
  // page, a block starts there, and that block passes the run loop's entry test with
  // this block counted: n + length <= limit, clock + base cycles < stop cycle (which
  // also says that the run loop would not have stopped after this instruction).
  {
    const x86::Gp to = x86::rax, next = x86::rcx, n = x86::rdx, t = x86::rsi;
    as.mov(to, x86::qword_ptr(cpu, at.psw_addr));
    as.mov(t, to);
    as.xor_(t, x86::r13);
    as.test(t, imm(int32_t(~0xFFE)));  // another page, or odd
    as.jnz(chain_exit);
    as.and_(x86::eax, 0xFFE);           // 2 * slot
    as.mov(t, imm(uint64_t(&b.owner->at[0])));
    as.mov(next, x86::qword_ptr(t, to, 2));  // at[slot]: 8 bytes each
    as.test(next, next);
    as.jz(chain_exit);
    as.mov(n, x86::qword_ptr(state, int32_t(offsetof(RunState, n))));
    as.add(n, imm(b.length()));
    as.mov(t, n);
    as.add(t, x86::qword_ptr(next, int32_t(offsetof(ChainEntry, length))));
    as.cmp(t, x86::qword_ptr(state, int32_t(offsetof(RunState, limit))));
    as.ja(chain_exit);
    as.mov(t, clock);
    as.add(t, x86::qword_ptr(next, int32_t(offsetof(ChainEntry, base_cycles))));
    as.cmp(t, x86::qword_ptr(state, int32_t(offsetof(RunState, stop_cycle))));
    as.jae(chain_exit);
    as.mov(x86::qword_ptr(state, int32_t(offsetof(RunState, n))), n);
    as.mov(x86::qword_ptr(state, int32_t(offsetof(RunState, block))), next);
    as.mov(x86::qword_ptr(state, int32_t(offsetof(RunState, clock))), clock);
    as.jmp(x86::qword_ptr(next, int32_t(offsetof(ChainEntry, body))));
  }
  as.bind(chain_exit);
  as.mov(x86::eax, b.length() - 1);
  as.bind(done);
  as.pop(x86::r15);
  as.pop(x86::r14);
  as.pop(x86::r13);
  as.pop(x86::r12);
  as.pop(x86::rbx);
  as.ret();
  for (unsigned k = 0; k < b.length(); ++k) {
    as.bind(leave[k]);
    as.mov(x86::eax, k);
    as.jmp(done);
    as.bind(threw[k]);
    as.mov(x86::eax, k | Block::kThrew);
    as.jmp(done);
  }
  const size_t bytes = code.codeSize();
  if (rt.add(&fn, &code) != kErrorOk) return 0;
  b.entry.body = reinterpret_cast<const uint8_t*>(fn) + code.labelOffset(body);
  return bytes;
}

}  // namespace

#else  // no compiler in this build: every I-stream interprets

struct CodeCache::Backend {};
bool CodeCache::available() { return false; }

#endif

CodeCache::CodeCache(uint64_t limit_bytes, unsigned block_length, const CpuLayout& layout)
    : backend_(std::make_unique<Backend>()), limit_(limit_bytes), block_length_(block_length), layout_(layout) {}

CodeCache::~CodeCache() {
  // Every page that held a block holds this cache too: none is left by now.
  while (oldest_) drop(oldest_);
}

Block* CodeCache::arrive(DecodedPage& page, unsigned slot) {
  if (!page.compiled) page.compiled.reset(new PageBlocks(page, shared_from_this()));
  PageBlocks& pb = *page.compiled;
  if (pb.cache.get() != this) return nullptr;  // another machine's page: not ours to change
  uint8_t& arrivals = pb.arrivals[slot];
  if (arrivals == PageBlocks::kNotCompilable || ++arrivals < 2) return nullptr;
  Block* b = compile(pb, slot);
  if (!b) arrivals = PageBlocks::kNotCompilable;
  return b;
}

Block* CodeCache::compile(PageBlocks& pb, unsigned slot) {
#if defined(TPFEMU_HAVE_JIT)
  const auto t0 = std::chrono::steady_clock::now();  // host time, for --stats only
  auto b = std::make_unique<Block>();
  uint64_t cycles = 0;
  for (unsigned s = slot; s < kSlots && b->length() < block_length_;) {
    const Insn& in = pb.page->slot[s];
    // Not decoded yet (the interpreter decodes it when it gets there, as it faults or
    // not), or running into the next page (its fetch there is the interpreter's).
    if (!in.fn || 2 * s + in.len > kPageSize) break;
    b->slots.push_back(uint16_t(s));
    cycles += in.cycles;
    b->cycles_to.push_back(cycles);
    if (ends_block(in.id)) break;
    s += in.len / 2;
  }
  if (b->slots.empty()) return nullptr;
  b->entry.base_cycles = cycles;
  b->entry.length = b->slots.size();
  b->owner = &pb;
  Block::Code fn = nullptr;
  const size_t bytes = emit_block(backend_->runtime, *pb.page, *b, layout_, fn);
  if (!bytes) return nullptr;
  b->code = fn;
  b->code_bytes = bytes;
  make_room(bytes);
  Block* raw = b.release();
  raw->older = newest_;
  (newest_ ? newest_->newer : oldest_) = raw;
  newest_ = raw;
  pb.at[slot] = raw;
  stats_.blocks_compiled++;
  stats_.instructions_compiled += raw->length();
  stats_.code_bytes += bytes;
  stats_.peak_code_bytes = std::max(stats_.peak_code_bytes, stats_.code_bytes);
  stats_.compile_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return raw;
#else
  (void)pb, (void)slot;
  return nullptr;
#endif
}

void CodeCache::make_room(size_t bytes) {
  while (oldest_ && stats_.code_bytes + bytes > limit_) {
    oldest_->owner->arrivals[oldest_->slots.front()] = 0;  // compiled again when it runs again
    drop(oldest_);
    stats_.blocks_evicted++;
  }
}

void CodeCache::drop(Block* b) {
  PageBlocks& pb = *b->owner;
  for (uint16_t s : b->slots) pb.page->slot[s].count += b->pending;
  pb.at[b->slots.front()] = nullptr;
  (b->older ? b->older->newer : oldest_) = b->newer;
  (b->newer ? b->newer->older : newest_) = b->older;
  stats_.code_bytes -= b->code_bytes;
#if defined(TPFEMU_HAVE_JIT)
  backend_->runtime.release(b->code);
#endif
  delete b;
}

}  // namespace jit
}  // namespace emu
