// Blocks, their pages' tables, the bounded code cache, and the code generator (asmjit,
// x86-64 only: elsewhere CodeCache::available() is false and every I-stream interprets).
#include "emu/jit/block_cache.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <utility>

#include "emu/cpu.h"
#include "emu/isa/table.h"
#include "emu/spin_loop.h"
#include "emu/jit/cosim.h"

#if defined(TPFEMU_HAVE_JIT)
#include <asmjit/x86.h>
#include <fmt/format.h>
#include <sys/mman.h>

#include <cerrno>
#include <stdexcept>
#endif

namespace emu {
namespace jit {

int g_miscompile_for_tests = 0;

std::map<const Block*, uint64_t>& cosim_entries() {
  static auto* entries = new std::map<const Block*, uint64_t>;  // never destroyed: caches drop blocks until exit
  return *entries;
}

void PageBlocksDeleter::operator()(PageBlocks* p) const { delete p; }

namespace {

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

// libgcc's registration of an .eh_frame section (CIEs and FDEs ending in a zero word).
extern "C" void __register_frame(void* begin);
extern "C" void __deregister_frame(void* begin);

namespace {

// The frame every block's code has (emit_block): five pushes below the return address,
// so the caller's stack pointer (the CFA) is rsp + 48 everywhere calls are made.
// DWARF numbers x86-64's registers rbx 3, r12-r15 12-15, the return address 16.
constexpr uint8_t kSaved[][2] = {{3, 2}, {12, 3}, {13, 4}, {14, 5}, {15, 6}};  // register, CFA - 8n

// One CIE and one FDE (the .eh_frame format of the System V x86-64 ABI, "DWARF-based
// unwinding") saying that frame for every address of [base, base + size): a handler's
// C++ exception unwinds through the blocks to the run loop, as through any C++ frame.
// (The prologue and epilogue of a block differ from it; no call and no exception is
// there, so only a debugger stopped in them would see a wrong caller.)
std::vector<uint64_t> unwind_entry(const uint8_t* base, size_t size) {
  std::vector<uint8_t> e;
  auto u32 = [&](uint32_t v) { for (int k = 0; k < 4; ++k) e.push_back(uint8_t(v >> 8 * k)); };
  auto u64 = [&](uint64_t v) { for (int k = 0; k < 8; ++k) e.push_back(uint8_t(v >> 8 * k)); };
  auto finish = [&](size_t start) {  // pads with DW_CFA_nop and sets the length word
    while ((e.size() - start) % 8 != 4) e.push_back(0);
    const uint32_t length = uint32_t(e.size() - start - 4);
    std::memcpy(&e[start], &length, 4);
  };
  const size_t cie = e.size();
  u32(0), u32(0);                                      // length, CIE id
  for (int b : {1, int('z'), int('R'), 0, 1, 0x78, 16, 1, 0x00}) e.push_back(uint8_t(b));  // version 1, "zR",
  // code alignment 1, data alignment -8, return address r16, pointers absolute (DW_EH_PE_absptr)
  for (int b : {0x0c, 7, 8, 0x90, 1}) e.push_back(uint8_t(b));  // CFA = rsp + 8; return address at CFA - 8
  finish(cie);
  const size_t fde = e.size();
  u32(0), u32(uint32_t(fde + 4 - cie));  // length, the distance back to the CIE
  u64(uint64_t(base)), u64(size);
  e.push_back(0);                         // no augmentation data
  e.push_back(0x0e), e.push_back(48);     // DW_CFA_def_cfa_offset 48
  for (const auto& [reg, slot] : kSaved) e.push_back(uint8_t(0x80 | reg)), e.push_back(slot);  // DW_CFA_offset
  finish(fde);
  u32(0);  // the end of the section
  std::vector<uint64_t> aligned((e.size() + 7) / 8);
  std::memcpy(aligned.data(), e.data(), e.size());
  return aligned;
}

}  // namespace

// Executable memory for one cache's blocks: one mapping, filled as a ring in the
// cache's age order (CodeCache::place), with one unwind entry for all of it.
struct CodeCache::Backend {
  explicit Backend(size_t bytes) : size((bytes + kPageSize - 1) & ~(kPageSize - 1)) {
    const int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
    void* p = mmap(nullptr, size, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error(fmt::format("machine.engine: compile: the host refused {} bytes of executable memory "
                                           "for the code cache (mmap: {}); machine.engine: interpret runs without it",
                                           size, std::strerror(errno)));
    base = static_cast<uint8_t*>(p);
    unwind = unwind_entry(base, size);
    __register_frame(unwind.data());
  }
  ~Backend() {
    __deregister_frame(unwind.data());
    munmap(base, size);
  }
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  size_t size;
  uint8_t* base = nullptr;
  size_t head = 0;  // where the next block's code goes
  std::vector<uint64_t> unwind;
};

// The arena holds the cache's byte limit, and at least the largest block (an inline
// load or store with its out-of-line call, the kept registers stored and loaded around
// it, stays under 400 bytes an instruction; plus its entry and exits) with room to
// spare. (A block that does not fit is not compiled: its instructions are interpreted.)
static size_t arena_bytes(uint64_t limit, unsigned block_length) {
  return size_t(std::max<uint64_t>(limit, 4096 + 512 * uint64_t(block_length)));
}

bool CodeCache::available() { return true; }

namespace {

// The guest general registers a block keeps in host registers, spilled around the calls
// of handlers (which read and write Cpu::gr) and at the block's exits. A block is
// emitted twice: a first pass with none kept notes how each register is used (every
// operand of an inline instruction asks for its register through read, put or
// modify); the registers used at least twice are then kept in the second, up to
// kHostRegisters of them, the most used first. A register is not kept when the block
// uses a field of it not at its low end (NIHF, NILH: no host register names those bits)
// or counts down its low word in place (BRCT). Kept registers are loaded where the
// block's body starts and after every call; the ones written since are stored before a
// call and before the block leaves, chains or takes a slow path.
class GuestRegs {
 public:
  static constexpr unsigned kHostRegisters = 5;
  // The caller-saved r8-r11 (reloaded after every call anyway) and r15 (saved by every
  // block's frame); the emitters' scratch registers are rax, rcx, rdx, rsi and rdi (rdi
  // free wherever a register is put: put's merge of a low word uses it).
  static constexpr uint32_t kHostIds[kHostRegisters] = {8, 9, 10, 11, 15};

  // Which host register keeps each guest register (-1: none, its slot in the Cpu).
  struct Plan {
    int8_t host[16] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    bool empty() const { return std::all_of(host, host + 16, [](int8_t h) { return h < 0; }); }
  };
  // How a pass used each register: how often, and whether in a way a host register cannot.
  struct Use {
    unsigned count[16] = {};
    bool unkept[16] = {};
  };
  static Plan plan_for(const Use& use) {
    unsigned order[16];
    for (unsigned r = 0; r < 16; ++r) order[r] = r;
    std::stable_sort(order, order + 16, [&](unsigned a, unsigned b) { return use.count[a] > use.count[b]; });
    Plan plan;
    unsigned next = 0;
    for (unsigned r : order)
      if (next < kHostRegisters && use.count[r] >= 2 && !use.unkept[r]) plan.host[r] = int8_t(kHostIds[next++]);
    return plan;
  }

  GuestRegs(asmjit::x86::Assembler& as, const CpuLayout& at, const Plan& plan) : as_(as), at_(at), plan_(plan) {}
  const Use& use() const { return use_; }

  // Operand `bytes` wide of register r (16: the zero register) from its low end, or (a
  // field) `offset` bytes above it.
  asmjit::Operand read(unsigned r, unsigned bytes, unsigned offset = 0) { return use(r, bytes, offset, Read); }
  asmjit::Operand modify(unsigned r, unsigned bytes) { return use(r, bytes, 0, Modify); }
  // Register r's `bytes` (from its low end, or a field `offset` bytes above) = `value`
  // (a host register as wide, or an immediate). A kept register's low word is merged in
  // (SET_R32 keeps the high word; an x86 write of the 32-bit register would clear it).
  // The merge changes the host flags: a CC taken from them is taken before.
  void put(unsigned r, unsigned bytes, const asmjit::Operand& value, unsigned offset = 0) {
    using namespace asmjit;
    const Operand to = use(r, bytes, offset, Write);
    if (!to.isReg() || bytes != 4) {
      as_.emit(x86::Inst::kIdMov, to, value);
      return;
    }
    const x86::Gp kept = x86::gpq(to.as<x86::Gp>().id());
    as_.emit(x86::Inst::kIdMov, x86::edi, value);  // zero-extended into rdi
    as_.shr(kept, 32);
    as_.shl(kept, 32);
    as_.or_(kept, x86::rdi);
  }

  void load_kept() {  // the body's start, and after a call: every kept register from the Cpu
    for (unsigned r = 0; r < 16; ++r)
      if (plan_.host[r] >= 0) as_.mov(asmjit::x86::gpq(uint32_t(plan_.host[r])), slot(r, 8, 0));
    dirty_ = 0;
  }
  void store_dirty() {  // before a call or an exit: the kept registers written since
    for (unsigned r = 0; r < 16; ++r)
      if (dirty_ >> r & 1) as_.mov(slot(r, 8, 0), asmjit::x86::gpq(uint32_t(plan_.host[r])));
    dirty_ = 0;
  }
  uint32_t dirty() const { return dirty_; }
  void set_dirty(uint32_t d) { dirty_ = d; }

 private:
  asmjit::x86::Mem slot(unsigned r, unsigned bytes, unsigned offset) const {
    return asmjit::x86::Mem(asmjit::x86::rbx, at_.gr + int32_t(8 * r + offset), bytes);
  }
  enum Access { Read, Write, Modify };
  asmjit::Operand use(unsigned r, unsigned bytes, unsigned offset, Access access) {
    using namespace asmjit;
    const bool written = access != Read;
    if (r < 16) {
      use_.count[r]++;
      if (offset || (access == Modify && bytes == 4)) use_.unkept[r] = true;
    }
    if (r >= 16 || plan_.host[r] < 0) return slot(r, bytes, offset);
    const uint32_t id = uint32_t(plan_.host[r]);
    if (written) dirty_ |= 1u << r;
    switch (bytes) {
      case 8: return x86::gpq(id);
      case 4: return x86::gpd(id);
      case 2: return x86::gpw(id);
      default: return x86::gpb(id);
    }
  }

  asmjit::x86::Assembler& as_;
  const CpuLayout& at_;
  const Plan plan_;
  Use use_;
  uint32_t dirty_ = 0;
};

// The instructions emitted as host code instead of a call of their handler: the
// hottest of the bench's profiles that touch only general registers (LDGR and LGDR a
// floating-point register too), set no condition code and cannot raise an exception. Each is its table entry's handler (named beside
// it, emu/isa/) written in x86-64; engines.same runs both on every guest program.
enum class Native : uint8_t { None, LR, LGR, LGFR, LLGFR, LHI, LGHI, LLILF, LLIHF, LA, LARL, SLLG, SRLG,
                              MSR, MSGR, MSGFR, MHI, MGHI, IILF, SLL, SRL, SLLK, SRLK, LDGR, LGDR };

Native native_form(uint16_t id) {
  static const std::pair<std::string_view, Native> kForms[] = {
      {"LR", Native::LR},       {"LGR", Native::LGR},     {"LGFR", Native::LGFR}, {"LLGFR", Native::LLGFR},
      {"LHI", Native::LHI},     {"LGHI", Native::LGHI},   {"LGFI", Native::LGHI}, {"LLILF", Native::LLILF},
      {"LLIHF", Native::LLIHF}, {"LA", Native::LA},       {"LAY", Native::LA},    {"LARL", Native::LARL},
      {"SLLG", Native::SLLG},   {"SRLG", Native::SRLG},   {"MSR", Native::MSR},   {"MSGR", Native::MSGR},
      {"MSGFR", Native::MSGFR}, {"MHI", Native::MHI},     {"MSFI", Native::MHI},  {"MGHI", Native::MGHI},
      {"MSGFI", Native::MGHI},  {"IILF", Native::IILF},   {"SLL", Native::SLL},   {"SRL", Native::SRL},
      {"SLLK", Native::SLLK},   {"SRLK", Native::SRLK},   {"LDGR", Native::LDGR}, {"LGDR", Native::LGDR}};
  const std::string_view m = mnemonic(id);
  for (const auto& [name, form] : kForms)
    if (m == name) return form;
  return Native::None;
}

// Cpu::ea2 into `to`: gr[x2] + gr[b2] + d2 modulo 2^64, register 16 (none) zero.
void emit_ea2(asmjit::x86::Assembler& as, const asmjit::x86::Gp& to, const Insn& in, GuestRegs& gr) {
  using namespace asmjit;
  if (in.x2 != kZeroReg && in.b2 != kZeroReg)
    as.emit(x86::Inst::kIdMov, to, gr.read(in.x2, 8)), as.emit(x86::Inst::kIdAdd, to, gr.read(in.b2, 8));
  else if (in.x2 != kZeroReg || in.b2 != kZeroReg)
    as.emit(x86::Inst::kIdMov, to, gr.read(in.x2 != kZeroReg ? in.x2 : in.b2, 8));
  else as.xor_(to.r32(), to.r32());
  if (in.d2) as.add(to, imm(in.d2));  // sign-extended imm32, as int64_t(d2)
}

// Emits `form` for `in`; gr names the general registers (GuestRegs); fpr is floating-
// point register 0's doubleword in the Cpu.
void emit_native(asmjit::x86::Assembler& as, Native form, const Insn& in, GuestRegs& gr, const CpuLayout& at) {
  using namespace asmjit;
  const x86::Gp rax = x86::rax, rcx = x86::rcx;
  switch (form) {
    case Native::LR:  // lr: c.set_r32(r1, c.r32(r2)) (bits 32-63 are the low word on the host)
      as.emit(x86::Inst::kIdMov, x86::eax, gr.read(in.r2, 4)), gr.put(in.r1, 4, x86::eax);
      break;
    case Native::LGR: as.emit(x86::Inst::kIdMov, rax, gr.read(in.r2, 8)), gr.put(in.r1, 8, rax); break;  // lgr
    case Native::LGFR: as.emit(x86::Inst::kIdMovsxd, rax, gr.read(in.r2, 4)), gr.put(in.r1, 8, rax); break;  // lgfr
    case Native::LLGFR: as.emit(x86::Inst::kIdMov, x86::eax, gr.read(in.r2, 4)), gr.put(in.r1, 8, rax); break;  // llgfr
    case Native::LHI: gr.put(in.r1, 4, imm(uint32_t(in.imm))); break;  // lhi: set_r32(r1, imm)
    case Native::LGHI:  // lghi, lgfi
      as.mov(rax, imm(uint64_t(in.imm) + (g_miscompile_for_tests == kMiscompileLghi))), gr.put(in.r1, 8, rax);
      break;
    case Native::LLILF: as.mov(x86::eax, imm(uint32_t(in.imm))), gr.put(in.r1, 8, rax); break;  // llilf
    case Native::LLIHF:  // llihf
      as.mov(rax, imm(uint64_t(uint32_t(in.imm)) << 32)), gr.put(in.r1, 8, rax);
      break;
    case Native::LA:  // la: gr[r1] = ea2
      emit_ea2(as, rax, in, gr);
      gr.put(in.r1, 8, rax);
      break;
    case Native::LARL: as.mov(rax, imm(in.target)), gr.put(in.r1, 8, rax); break;  // larl
    case Native::SLLG:  // sllg, srlg: gr[r1] = gr[r3] shifted by ea2 & 63 (x86 masks the count so)
    case Native::SRLG:
      emit_ea2(as, rcx, in, gr);
      as.emit(x86::Inst::kIdMov, rax, gr.read(in.r3, 8));
      if (form == Native::SLLG) as.shl(rax, x86::cl);
      else as.shr(rax, x86::cl);
      gr.put(in.r1, 8, rax);
      break;
    // sll, srl, sllk, srlk: the low word of R1 (R3) zero-extended, shifted by ea2 & 63 as a
    // 64-bit value (a count of 32 or more leaves 0), into R1's low word.
    case Native::SLL:
    case Native::SRL:
    case Native::SLLK:
    case Native::SRLK: {
      emit_ea2(as, rcx, in, gr);
      const bool distinct = form == Native::SLLK || form == Native::SRLK;
      as.emit(x86::Inst::kIdMov, x86::eax, gr.read(distinct ? in.r3 : in.r1, 4));
      if (form == Native::SLL || form == Native::SLLK) as.shl(rax, x86::cl);
      else as.shr(rax, x86::cl);
      gr.put(in.r1, 4, x86::eax);
      break;
    }
    case Native::IILF: gr.put(in.r1, 4, imm(uint32_t(in.imm))); break;  // iilf: insert_imm<0, 32>
    case Native::LDGR:  // ldgr: fpr(r1) = gr[r2]
      as.emit(x86::Inst::kIdMov, rax, gr.read(in.r2, 8));
      as.mov(x86::qword_ptr(x86::rbx, at.fpr + int32_t(16 * in.r1)), rax);
      break;
    case Native::LGDR:  // lgdr: gr[r1] = fpr(r2)
      as.mov(rax, x86::qword_ptr(x86::rbx, at.fpr + int32_t(16 * in.r2)));
      gr.put(in.r1, 8, rax);
      break;
    // The single-width multiplies (msr, msgr, msgfr, mhi, msfi, mghi, msgfi): the product's
    // low bits, the same signed or unsigned, no CC and no overflow condition.
    case Native::MSR: as.emit(x86::Inst::kIdMov, x86::eax, gr.read(in.r1, 4)), as.emit(x86::Inst::kIdImul, x86::eax, gr.read(in.r2, 4)), gr.put(in.r1, 4, x86::eax); break;
    case Native::MSGR: as.emit(x86::Inst::kIdMov, rax, gr.read(in.r1, 8)), as.emit(x86::Inst::kIdImul, rax, gr.read(in.r2, 8)), gr.put(in.r1, 8, rax); break;
    case Native::MSGFR:
      as.emit(x86::Inst::kIdMovsxd, rcx, gr.read(in.r2, 4)), as.emit(x86::Inst::kIdMov, rax, gr.read(in.r1, 8)), as.imul(rax, rcx), gr.put(in.r1, 8, rax);
      break;
    case Native::MHI: as.emit(x86::Inst::kIdImul, x86::eax, gr.read(in.r1, 4), imm(int32_t(in.imm))), gr.put(in.r1, 4, x86::eax); break;
    case Native::MGHI: as.emit(x86::Inst::kIdImul, rax, gr.read(in.r1, 8), imm(int32_t(in.imm))), gr.put(in.r1, 8, rax); break;
    case Native::None: break;
  }
}

// The ALU instructions emitted inline, each with the condition code its handler sets
// (emu/isa/fixed_point.cpp, logical.cpp, load_store.cpp), stored into Cpu::cc as the
// handler stores it. A signed add or subtract that overflows goes to the handler
// (CC 3, and the fixed-point-overflow interruption if the program mask enables it)
// before anything changed.
enum class AluOp : uint8_t { None, Add, Sub, Compare, CompareLogical, And, Or, Xor, LoadTest,
                             Risbg, Risbgn, Rnsbg, Rosbg, Rxsbg, Tmll, AddLogical, SubLogical, Srag };
struct Alu {
  AluOp op = AluOp::None;
  uint8_t bits = 64;       // operand width
  bool immediate = false;  // the second operand is Insn::imm (else R2)
  uint8_t field = 0;       // the first operand's byte offset in R1 on the host (NIHF: 4, NILH: 2)
  bool unsigned_imm = false;  // the immediate zero-extended to 64 bits (ALGFI, SLGFI)
  uint8_t r2_word = 0;        // R2's low word, sign- (kSigned) or zero-extended (kUnsigned) (AGFR, ALGFR)
};
constexpr uint8_t kSigned = 1, kUnsigned = 2;

Alu alu_form(uint16_t id) {
  using enum AluOp;
  static const std::pair<std::string_view, Alu> kForms[] = {
      {"AR", {Add, 32}},        {"AGR", {Add, 64}},         {"AHI", {Add, 32, true}},  {"AGHI", {Add, 64, true}},
      {"AFI", {Add, 32, true}}, {"AGFI", {Add, 64, true}},  {"SR", {Sub, 32}},         {"SGR", {Sub, 64}},
      {"CR", {Compare, 32}},    {"CGR", {Compare, 64}},     {"CHI", {Compare, 32, true}},
      {"CGHI", {Compare, 64, true}},                        {"CFI", {Compare, 32, true}},
      {"CGFI", {Compare, 64, true}},                        {"CLR", {CompareLogical, 32}},
      {"CLGR", {CompareLogical, 64}},                       {"NR", {And, 32}},         {"NGR", {And, 64}},
      {"OR", {Or, 32}},         {"OGR", {Or, 64}},          {"XR", {Xor, 32}},         {"XGR", {Xor, 64}},
      {"LTR", {LoadTest, 32}},  {"LTGR", {LoadTest, 64}},   {"RISBG", {Risbg}},        {"RISBGN", {Risbgn}},
      {"RNSBG", {Rnsbg}},       {"ROSBG", {Rosbg}},         {"RXSBG", {Rxsbg}},        {"TMLL", {Tmll, 16, true}},
      {"ALR", {AddLogical, 32}}, {"ALGR", {AddLogical, 64}}, {"SLR", {SubLogical, 32}}, {"SLGR", {SubLogical, 64}},
      {"ALFI", {AddLogical, 32, true}},                     {"SLFI", {SubLogical, 32, true}},
      {"ALGFI", {AddLogical, 64, true, 0, true}},           {"SLGFI", {SubLogical, 64, true, 0, true}},
      // op_field: one 32- or 16-bit field of R1, the CC of that field alone
      {"NILF", {And, 32, true}},  {"NIHF", {And, 32, true, 4}}, {"OILF", {Or, 32, true}}, {"OIHF", {Or, 32, true, 4}},
      {"XILF", {Xor, 32, true}},  {"XIHF", {Xor, 32, true, 4}}, {"NILL", {And, 16, true}}, {"NILH", {And, 16, true, 2}},
      {"NIHL", {And, 16, true, 4}}, {"NIHH", {And, 16, true, 6}}, {"OILL", {Or, 16, true}}, {"OILH", {Or, 16, true, 2}},
      {"OIHL", {Or, 16, true, 4}}, {"OIHH", {Or, 16, true, 6}},
      // R2's low word extended: agfr, sgfr, cgfr (signed), algfr, slgfr, clgfr (unsigned)
      {"AGFR", {Add, 64, false, 0, false, kSigned}},      {"SGFR", {Sub, 64, false, 0, false, kSigned}},
      {"CGFR", {Compare, 64, false, 0, false, kSigned}},  {"ALGFR", {AddLogical, 64, false, 0, false, kUnsigned}},
      {"SLGFR", {SubLogical, 64, false, 0, false, kUnsigned}}, {"CLGFR", {CompareLogical, 64, false, 0, false, kUnsigned}},
      {"SRAG", {Srag}}};
  const std::string_view m = mnemonic(id);
  for (const auto& [name, form] : kForms)
    if (m == name) return form;
  return {};
}

// The relative branches a block ends with, emitted inline: the PSW address set as their
// handlers set it (emu/isa/branch.cpp), then the block's exit or chain. None charges
// cycles beyond its base, reads storage or can raise an exception.
enum class BranchOp : uint8_t { None, OnCondition, OnCount, AndSave, CompareRegisters, CompareImmediate,
                                OnConditionRegister, AndSaveRegister };
struct Branch {
  BranchOp op = BranchOp::None;
  uint8_t bits = 64;     // operand width (on count, compare and branch)
  bool logical = false;  // an unsigned comparison (CLRJ, CLIJ ...)
};

Branch branch_form(uint16_t id) {
  using enum BranchOp;
  static const std::pair<std::string_view, Branch> kForms[] = {
      {"BRC", {OnCondition}},          {"BRCL", {OnCondition}},          {"BRCT", {OnCount, 32}},
      {"BRCTG", {OnCount, 64}},        {"BRAS", {AndSave}},              {"BRASL", {AndSave}},
      {"CRJ", {CompareRegisters, 32}}, {"CGRJ", {CompareRegisters, 64}}, {"CLRJ", {CompareRegisters, 32, true}},
      {"CLGRJ", {CompareRegisters, 64, true}},                           {"CIJ", {CompareImmediate, 32}},
      {"CGIJ", {CompareImmediate, 64}},                                  {"CLIJ", {CompareImmediate, 32, true}},
      {"CLGIJ", {CompareImmediate, 64, true}},                           {"BCR", {OnConditionRegister}},
      {"BASR", {AndSaveRegister}}};
  const std::string_view m = mnemonic(id);
  for (const auto& [name, form] : kForms)
    if (m == name) return form;
  return {};
}

// Emits `in` (a Branch `form`), the last instruction of a block: the PSW address becomes
// the target, and the code jumps to `taken_out`, or it stays at `next` (the instruction
// after it, already in the PSW) and the code falls through. Registers it writes are
// written before either way parts. Uses rax, rcx, rdx.
void emit_branch(asmjit::x86::Assembler& as, const Branch& form, const Insn& in, const CpuLayout& at, GuestRegs& gr,
                 asmjit::Label taken_out) {
  using namespace asmjit;
  const x86::Mem psw_addr = x86::qword_ptr(x86::rbx, at.psw_addr);
  Label taken = as.newLabel(), not_taken = as.newLabel();
  switch (form.op) {
    case BranchOp::OnCondition:  // brc: cc_matches(c, m1): mask bit 8 >> cc
    case BranchOp::OnConditionRegister: {  // bcr with R2 not 0: the same test, to gr[r2]
      const unsigned mask = in.r1 & 15;
      if (mask == 0) return;
      if (mask == 15) break;
      // The CCs that take it, as bits 0-3: one (or all but one) is a comparison with
      // it; 0 and 1, or 2 and 3, an order; the other pairs a bit test.
      unsigned ccs = 0;
      for (unsigned c = 0; c < 4; ++c) ccs |= (mask >> (3 - c) & 1) << c;
      const x86::Mem cc = x86::byte_ptr(x86::rbx, at.cc);
      const int count = std::popcount(ccs);
      if (count == 1 || count == 3) {
        const unsigned c = unsigned(std::countr_zero(count == 1 ? ccs : ~ccs & 15));
        as.cmp(cc, imm(c));
        count == 1 ? as.jne(not_taken) : as.je(not_taken);
      } else if (ccs == 0b0011 || ccs == 0b1100) {
        as.cmp(cc, imm(ccs == 0b0011 ? 1 : 2));
        ccs == 0b0011 ? as.ja(not_taken) : as.jb(not_taken);
      } else {
        as.movzx(x86::ecx, cc);
        as.mov(x86::edx, imm(ccs));
        as.bt(x86::edx, x86::ecx);
        as.jnc(not_taken);
      }
      break;
    }
    case BranchOp::OnCount:  // brct, brctg: R1 (bits 32-63 for BRCT) minus one, taken unless zero
      as.emit(x86::Inst::kIdSub, gr.modify(in.r1, form.bits / 8), imm(1));
      as.jz(not_taken);
      break;
    case BranchOp::AndSave:  // bras: R1 the next instruction's address
      as.mov(x86::rax, psw_addr);
      gr.put(in.r1, 8, x86::rax);
      break;
    case BranchOp::AndSaveRegister:  // basr: the target read before R1 (which may be R2) is set
      if (in.r2) as.emit(x86::Inst::kIdMov, x86::rcx, gr.read(in.r2, 8));
      as.mov(x86::rax, psw_addr);
      gr.put(in.r1, 8, x86::rax);
      if (!in.r2) return;  // R2 = 0: the link alone
      as.mov(psw_addr, x86::rcx);
      as.jmp(taken_out);
      return;
    case BranchOp::CompareRegisters:  // crj ...: relation_selected(r1, r2, m3), the CC unchanged
    case BranchOp::CompareImmediate: {  // cij ...: the immediate sign-extended, or (CL) unsigned 8-bit
      const unsigned bytes = form.bits / 8;
      const x86::Gp a = bytes == 8 ? x86::Gp(x86::rax) : x86::Gp(x86::eax);
      as.emit(x86::Inst::kIdMov, a, gr.read(in.r1, bytes));
      if (form.op == BranchOp::CompareRegisters) as.emit(x86::Inst::kIdCmp, a, gr.read(in.r2, bytes));
      else as.cmp(a, imm(form.logical ? int32_t(uint8_t(in.imm)) : int32_t(in.imm)));
      // M3: 8 equal, 4 first operand low, 2 high [Principles of Operation, "COMPARE AND BRANCH"].
      if (in.m3 & 8) as.je(taken);
      if (in.m3 & 4) form.logical ? as.jb(taken) : as.jl(taken);
      if (in.m3 & 2) form.logical ? as.ja(taken) : as.jg(taken);
      as.jmp(not_taken);
      break;
    }
    case BranchOp::None: return;
  }
  as.bind(taken);
  if (form.op == BranchOp::OnConditionRegister) as.emit(x86::Inst::kIdMov, x86::rax, gr.read(in.r2, 8));
  else as.mov(x86::rax, imm(in.target));
  as.mov(psw_addr, x86::rax);
  as.jmp(taken_out);
  as.bind(not_taken);
}

// Bits start..end of a 64-bit register, PoO numbering (bit 0 leftmost), wrapping when
// start > end: selected_bits in emu/isa/logical.cpp.
uint64_t selected_bits(unsigned start, unsigned end) {
  const uint64_t from_start = ~0ull >> start, to_end = ~0ull << (63 - end);
  return start <= end ? from_start & to_end : from_start | to_end;
}

// CC from the host flags of a signed result or comparison: 0 equal (zero), 1 low
// (negative), 2 high (positive): cc_signed / cc_compare in emu/isa/common.h. `below`
// and `above` are the unsigned conditions instead (CLR, CLGR).
void emit_cc_of_flags(asmjit::x86::Assembler& as, const CpuLayout& at, bool logical) {
  using namespace asmjit;
  if (logical) as.setb(x86::cl), as.seta(x86::dl);
  else as.setl(x86::cl), as.setg(x86::dl);
  as.lea(x86::edx, x86::ptr(x86::rcx, x86::rdx, 1));  // dl * 2 + cl in the low byte, whatever above
  as.mov(x86::byte_ptr(x86::rbx, at.cc), x86::dl);
}

// The CC of ADD LOGICAL and SUBTRACT LOGICAL from the host flags of the add or subtract
// just done: add_logical's (result != 0) | carry << 1, sub_logical's (result != 0) |
// (no borrow) << 1; x86's CF is the carry of an add and the borrow of a sub. Uses dl
// and sil (edx and esi whole); leaves the other registers as they were.
void emit_logical_cc(asmjit::x86::Assembler& as, const CpuLayout& at, bool add) {
  using namespace asmjit;
  if (add) as.setc(x86::dl);
  else as.setnc(x86::dl);
  as.setnz(x86::sil);
  as.lea(x86::edx, x86::ptr(x86::rsi, x86::rdx, 1));  // dl * 2 + sil in the low byte
  as.mov(x86::byte_ptr(x86::rbx, at.cc), x86::dl);
}

// Emits `in` (an Alu `form`); `slow` is the handler's call (an overflow the program mask
// makes an interruption). Without `cc_live` the CC it sets is not stored (cc_live_after).
// Uses rax, rcx, rdx, rsi (and rdi, in GuestRegs::put).
void emit_alu(asmjit::x86::Assembler& as, const Alu& form, const Insn& in, const CpuLayout& at,
              asmjit::Label slow, GuestRegs& gr, bool cc_live) {
  using namespace asmjit;
  const unsigned bytes = form.bits / 8;
  const x86::Gp acc = bytes == 8 ? x86::Gp(x86::rax) : bytes == 4 ? x86::Gp(x86::eax) : x86::Gp(x86::ax);
  const auto operand2 = [&](InstId op) {  // acc op= the second operand
    if (form.unsigned_imm) as.mov(x86::ecx, imm(uint32_t(in.imm))), as.emit(op, acc, x86::rcx);  // zero-extended
    else if (form.immediate && bytes == 2) as.emit(op, acc, imm(int16_t(in.imm)));
    else if (form.immediate) as.emit(op, acc, imm(int32_t(in.imm)));  // imm32, sign-extended as the decoder did
    else if (form.r2_word == kSigned) as.emit(x86::Inst::kIdMovsxd, x86::rcx, gr.read(in.r2, 4)), as.emit(op, acc, x86::rcx);
    else if (form.r2_word == kUnsigned) as.emit(x86::Inst::kIdMov, x86::ecx, gr.read(in.r2, 4)), as.emit(op, acc, x86::rcx);
    else as.emit(op, acc, gr.read(in.r2, bytes));
  };
  const auto r1_in = [&] { return gr.read(in.r1, bytes, form.field); };
  const auto r1_out = [&](const x86::Gp& v) { gr.put(in.r1, bytes, v, form.field); };
  const x86::Mem cc = x86::byte_ptr(x86::rbx, at.cc);
  switch (form.op) {
    case AluOp::Add:
    case AluOp::Sub: {  // add_reg / sub_reg: CC by the result's sign, or 3 on overflow
      Label overflow = as.newLabel(), stored = as.newLabel();
      as.emit(x86::Inst::kIdMov, acc, r1_in());
      if (form.op == AluOp::Add) operand2(x86::Inst::kIdAdd);
      else operand2(x86::Inst::kIdSub);
      as.jo(overflow);
      if (cc_live) emit_cc_of_flags(as, at, false);  // OF is 0 here: "less" is the sign
      r1_out(acc);
      as.jmp(stored);
      // set_signed: the truncated result and CC 3; the interruption, when the program
      // mask enables it (fixed_point_overflow), is the handler's, before anything changed.
      as.bind(overflow);
      as.test(x86::byte_ptr(x86::rbx, at.prog_mask), 8);
      as.jnz(slow);
      r1_out(acc);
      if (cc_live) as.mov(cc, 3);
      as.bind(stored);
      break;
    }
    case AluOp::Compare:
    case AluOp::CompareLogical:  // cc_compare, signed or unsigned
      if (!cc_live) break;  // nothing else
      as.emit(x86::Inst::kIdMov, acc, r1_in());
      operand2(x86::Inst::kIdCmp);
      emit_cc_of_flags(as, at, form.op == AluOp::CompareLogical);
      break;
    case AluOp::And:
    case AluOp::Or:
    case AluOp::Xor:  // op32 / op64 / op_field: CC 0 zero, 1 not zero
      as.emit(x86::Inst::kIdMov, acc, r1_in());
      if (form.op == AluOp::And) operand2(x86::Inst::kIdAnd);
      else if (form.op == AluOp::Or) operand2(x86::Inst::kIdOr);
      else operand2(x86::Inst::kIdXor);
      if (cc_live) as.setnz(cc);
      r1_out(acc);
      break;
    case AluOp::AddLogical:
    case AluOp::SubLogical:  // add_logical / sub_logical (emit_logical_cc)
      as.emit(x86::Inst::kIdMov, acc, r1_in());
      if (form.op == AluOp::AddLogical) operand2(x86::Inst::kIdAdd);
      else operand2(x86::Inst::kIdSub);
      if (cc_live) emit_logical_cc(as, at, form.op == AluOp::AddLogical);
      r1_out(acc);
      break;
    case AluOp::LoadTest:  // ltr / ltgr: R1 = R2, CC by its sign
      as.emit(x86::Inst::kIdMov, acc, gr.read(in.r2, bytes));
      gr.put(in.r1, bytes, acc);
      if (cc_live) as.test(acc, acc), emit_cc_of_flags(as, at, false);
      break;
    case AluOp::Risbg:
    case AluOp::Risbgn: {  // rotate_insert over all 64 bits; RISBG: CC by the result's sign
      const uint64_t sel = selected_bits(in.i3 & 63, in.i4 & 63);
      const uint64_t keep = (in.i4 & 0x80) ? 0 : ~sel;
      as.emit(x86::Inst::kIdMov, x86::rax, gr.read(in.r2, 8));
      if (in.i5 & 63) as.rol(x86::rax, imm(in.i5 & 63));
      as.mov(x86::rsi, imm(sel));
      as.and_(x86::rax, x86::rsi);
      if (keep) as.mov(x86::rsi, imm(keep)), as.emit(x86::Inst::kIdAnd, x86::rsi, gr.read(in.r1, 8)), as.or_(x86::rax, x86::rsi);
      gr.put(in.r1, 8, x86::rax);
      if (form.op == AluOp::Risbg && cc_live) as.test(x86::rax, x86::rax), emit_cc_of_flags(as, at, false);
      break;
    }
    case AluOp::Rnsbg:
    case AluOp::Rosbg:
    case AluOp::Rxsbg: {  // rotate_then: CC 0 if the selected bits of the result are zero
      const uint64_t sel = selected_bits(in.i3 & 63, in.i4 & 63);
      if (!(in.i3 & 0x80)) {
        // R1 changes only in the selected bits, to (R1 op rotated) there: R1 ^ (rotated &
        // sel), R1 | (rotated & sel), R1 & (rotated | ~sel). The CC is of the new R1's
        // selected bits, which are the result's.
        const uint64_t m = form.op == AluOp::Rnsbg ? ~sel : sel;
        as.emit(x86::Inst::kIdMov, x86::rax, gr.read(in.r2, 8));
        if (in.i5 & 63) as.rol(x86::rax, imm(in.i5 & 63));
        const auto with_m = [&](InstId op) {  // an imm32 is sign-extended
          if (int64_t(m) == int64_t(int32_t(m))) as.emit(op, x86::rax, imm(int32_t(m)));
          else as.mov(x86::rsi, imm(m)), as.emit(op, x86::rax, x86::rsi);
        };
        if (form.op == AluOp::Rnsbg) with_m(x86::Inst::kIdOr), as.emit(x86::Inst::kIdAnd, x86::rax, gr.read(in.r1, 8));
        else if (form.op == AluOp::Rosbg) with_m(x86::Inst::kIdAnd), as.emit(x86::Inst::kIdOr, x86::rax, gr.read(in.r1, 8));
        else with_m(x86::Inst::kIdAnd), as.emit(x86::Inst::kIdXor, x86::rax, gr.read(in.r1, 8));
        gr.put(in.r1, 8, x86::rax);
        if (cc_live) {
          if (int64_t(sel) == int64_t(int32_t(sel))) as.test(x86::rax, imm(int32_t(sel)));
          else as.mov(x86::rsi, imm(sel)), as.test(x86::rax, x86::rsi);
          as.setnz(cc);
        }
        break;
      }
      as.emit(x86::Inst::kIdMov, x86::rax, gr.read(in.r2, 8));
      if (in.i5 & 63) as.rol(x86::rax, imm(in.i5 & 63));
      as.emit(x86::Inst::kIdMov, x86::rdx, gr.read(in.r1, 8));
      if (form.op == AluOp::Rnsbg) as.and_(x86::rax, x86::rdx);
      else if (form.op == AluOp::Rosbg) as.or_(x86::rax, x86::rdx);
      else as.xor_(x86::rax, x86::rdx);
      as.mov(x86::rsi, imm(sel));
      as.and_(x86::rax, x86::rsi);  // the result's selected bits
      if (cc_live) as.setnz(cc);  // the T bit: a test, R1 unchanged
      break;
    }
    case AluOp::Tmll: {  // tm_half<0>: 0 none of the mask's bits, 3 all, else by the leftmost
      const uint16_t mask = uint16_t(in.imm);
      if (!cc_live) break;  // nothing else
      if (!mask) {
        as.mov(cc, 0);
        break;
      }
      const uint16_t leftmost = uint16_t(0x8000u >> __builtin_clz(uint32_t(mask) << 16));
      Label done = as.newLabel();
      as.emit(x86::Inst::kIdMovzx, x86::eax, gr.read(in.r1, 2));
      as.xor_(x86::ecx, x86::ecx);
      as.and_(x86::eax, imm(mask));
      as.jz(done);
      as.mov(x86::ecx, 3);
      as.cmp(x86::eax, imm(mask));
      as.je(done);
      as.xor_(x86::ecx, x86::ecx);
      as.test(x86::eax, imm(leftmost));
      as.setnz(x86::cl);
      as.inc(x86::ecx);
      as.bind(done);
      as.mov(cc, x86::cl);
      break;
    }
    case AluOp::Srag:  // srag: gr[r1] = gr[r3] >> (ea2 & 63) arithmetically, CC by its sign
      emit_ea2(as, x86::rcx, in, gr);
      as.emit(x86::Inst::kIdMov, x86::rax, gr.read(in.r3, 8));
      as.sar(x86::rax, x86::cl);
      if (cc_live) as.test(x86::rax, x86::rax), emit_cc_of_flags(as, at, false);
      gr.put(in.r1, 8, x86::rax);
      break;
    case AluOp::None: break;
  }
}

// The loads and stores emitted inline: the operand's width, whether it is a store,
// and how a loaded value goes into R1. Each is its handler (emu/isa/load_store.cpp)
// on the interpreter's fast path; everything else about them stays in the handler.
enum class Into : uint8_t { Low32, Full64, LowByte };  // set_r32, gr[r1] =, IC's byte
struct Access {
  uint8_t width = 0;  // bytes; 0: not emitted inline
  bool store = false, sign = false;
  Into into = Into::Full64;
  bool test = false;  // LOAD AND TEST: CC by the loaded value's sign (cc_signed)
  // R1 with the loaded value (as `into` extends it) instead of the load into R1: Add,
  // Sub, Compare (add_reg, sub_reg, cc_compare of emu/isa/fixed_point.cpp), AddLogical,
  // SubLogical, CompareLogical (add_logical, sub_logical, cc_compare unsigned, common.h),
  // And, Or, Xor (op32 / op64 of emu/isa/logical.cpp).
  AluOp op = AluOp::None;
  // SI/SIY compare logical immediate (CLI, CLIY): the storage operand at B1 + D1, its
  // byte compared unsigned with I2 (cli, fixed_point.cpp); R1 untouched. With `store`,
  // the SIL moves (MVHHI, MVHI, MVGHI, load_store.cpp): I2 sign-extended to the width,
  // stored at B1 + D1.
  bool immediate = false;
  // The floating-point register R1 instead of the general one (LD, LDY, STD, STDY:
  // ld / std_ in float.cpp; the leftmost doubleword of vector register R1).
  bool fpr = false;
  // Registers R1 through R3 (wrapping from 15 to 0), one operand of `width` each, at
  // consecutive addresses (LM, LMY, LMG, STM, STMY, STMG: load_multiple and
  // store_multiple in load_store.cpp). Inline only when every one of them would be a
  // plain hit of Cpu::read or Cpu::write: the whole run in one page and, with the cache
  // model, in the one line last touched.
  bool multiple = false;
};

Access access_form(uint16_t id) {
  constexpr Access kLoad4{4, false, false, Into::Low32}, kLoadH{2, false, true, Into::Low32},
      kIc{1, false, false, Into::LowByte};
  static const std::pair<std::string_view, Access> kForms[] = {
      {"L", kLoad4},                                  {"LY", kLoad4},
      {"LG", {8, false, false, Into::Full64}},        {"LGF", {4, false, true, Into::Full64}},
      {"LLGF", {4, false, false, Into::Full64}},      {"LH", kLoadH},
      {"LHY", kLoadH},                                {"LGH", {2, false, true, Into::Full64}},
      {"LLH", {2, false, false, Into::Low32}},        {"LLGH", {2, false, false, Into::Full64}},
      {"LB", {1, false, true, Into::Low32}},          {"LGB", {1, false, true, Into::Full64}},
      {"LLC", {1, false, false, Into::Low32}},        {"LLGC", {1, false, false, Into::Full64}},
      {"IC", kIc},                                    {"ICY", kIc},
      {"ST", {4, true}},  {"STY", {4, true}},         {"STG", {8, true}},
      {"STH", {2, true}}, {"STHY", {2, true}},        {"STC", {1, true}},  {"STCY", {1, true}},
      {"LT", {4, false, false, Into::Low32, true}},   {"LTG", {8, false, false, Into::Full64, true}},
      {"LTGF", {4, false, true, Into::Full64, true}},
      {"A", {4, false, false, Into::Low32, false, AluOp::Add}},
      {"AY", {4, false, false, Into::Low32, false, AluOp::Add}},
      {"AG", {8, false, false, Into::Full64, false, AluOp::Add}},
      {"AGF", {4, false, true, Into::Full64, false, AluOp::Add}},
      {"S", {4, false, false, Into::Low32, false, AluOp::Sub}},
      {"SY", {4, false, false, Into::Low32, false, AluOp::Sub}},
      {"SG", {8, false, false, Into::Full64, false, AluOp::Sub}},
      {"C", {4, false, false, Into::Low32, false, AluOp::Compare}},
      {"CY", {4, false, false, Into::Low32, false, AluOp::Compare}},
      {"CG", {8, false, false, Into::Full64, false, AluOp::Compare}},
      {"CGF", {4, false, true, Into::Full64, false, AluOp::Compare}},
      {"AL", {4, false, false, Into::Low32, false, AluOp::AddLogical}},
      {"ALY", {4, false, false, Into::Low32, false, AluOp::AddLogical}},
      {"ALG", {8, false, false, Into::Full64, false, AluOp::AddLogical}},
      {"ALGF", {4, false, false, Into::Full64, false, AluOp::AddLogical}},
      {"SL", {4, false, false, Into::Low32, false, AluOp::SubLogical}},
      {"SLY", {4, false, false, Into::Low32, false, AluOp::SubLogical}},
      {"SLG", {8, false, false, Into::Full64, false, AluOp::SubLogical}},
      {"SLGF", {4, false, false, Into::Full64, false, AluOp::SubLogical}},
      {"CL", {4, false, false, Into::Low32, false, AluOp::CompareLogical}},
      {"CLY", {4, false, false, Into::Low32, false, AluOp::CompareLogical}},
      {"CLG", {8, false, false, Into::Full64, false, AluOp::CompareLogical}},
      {"CLGF", {4, false, false, Into::Full64, false, AluOp::CompareLogical}},
      {"N", {4, false, false, Into::Low32, false, AluOp::And}},
      {"NY", {4, false, false, Into::Low32, false, AluOp::And}},
      {"NG", {8, false, false, Into::Full64, false, AluOp::And}},
      {"O", {4, false, false, Into::Low32, false, AluOp::Or}},
      {"OY", {4, false, false, Into::Low32, false, AluOp::Or}},
      {"OG", {8, false, false, Into::Full64, false, AluOp::Or}},
      {"X", {4, false, false, Into::Low32, false, AluOp::Xor}},
      {"XY", {4, false, false, Into::Low32, false, AluOp::Xor}},
      {"XG", {8, false, false, Into::Full64, false, AluOp::Xor}},
      {"CLI", {1, false, false, Into::Low32, false, AluOp::CompareLogical, true}},
      {"CLIY", {1, false, false, Into::Low32, false, AluOp::CompareLogical, true}},
      {"MVHHI", {2, true, false, Into::Low32, false, AluOp::None, true}},
      {"MVHI", {4, true, false, Into::Low32, false, AluOp::None, true}},
      {"MVGHI", {8, true, false, Into::Low32, false, AluOp::None, true}},
      {"LD", {8, false, false, Into::Full64, false, AluOp::None, false, true}},
      {"LDY", {8, false, false, Into::Full64, false, AluOp::None, false, true}},
      {"STD", {8, true, false, Into::Full64, false, AluOp::None, false, true}},
      {"STDY", {8, true, false, Into::Full64, false, AluOp::None, false, true}},
      {"LM", {4, false, false, Into::Low32, false, AluOp::None, false, false, true}},
      {"LMY", {4, false, false, Into::Low32, false, AluOp::None, false, false, true}},
      {"LMG", {8, false, false, Into::Full64, false, AluOp::None, false, false, true}},
      {"STM", {4, true, false, Into::Low32, false, AluOp::None, false, false, true}},
      {"STMY", {4, true, false, Into::Low32, false, AluOp::None, false, false, true}},
      {"STMG", {8, true, false, Into::Full64, false, AluOp::None, false, false, true}}};
  const std::string_view m = mnemonic(id);
  for (const auto& [name, form] : kForms)
    if (m == name) return form;
  return {};
}

// Emits `in` (an Access `form`) as the interpreter's fast path runs it: Cpu::read<T>
// and Cpu::write<T> (emu/cpu.h), whose test of a "plain hit" this mirrors exactly:
//   the micro-TLB entry of the page holds it for this kind of access (rtag; wtag for
//   a store: a frame with decoded instructions, a deferred write right and a page
//   without the write right have none, so stores into code go to the handler),
//   the operand lies in the page ((a & 0xFFF) <= 4096 - width),
//   and no cache model runs (caches_ null), or Cpu::touch would return at once: the
//   operand in one line, that line the last one stored into (or loaded from, for a
//   load) by this I-stream.
// LOAD AND TEST sets the CC from the loaded value as its handler does.
// Anything else jumps to `slow` before any state changed, where the handler runs
// the whole instruction (fill_tlb, the cache model, exceptions, code invalidation).
// Then the big-endian access (Principles of Operation, "Storage Addressing"), byte
// swapped on the little-endian host. Uses rax, rcx, rdx, rsi, rdi.
void emit_access(asmjit::x86::Assembler& as, const Access& form, const Insn& in, const CpuLayout& at,
                 asmjit::Label slow, GuestRegs& gr) {
  using namespace asmjit;
  const x86::Gp cpu = x86::rbx, ea = x86::rax, vpage = x86::rdx, entry = x86::rcx, offset = x86::rdx;
  const unsigned w = form.width;
  // The bytes the instruction reaches: one operand, or (LM, STM ...) one per register.
  const unsigned registers = form.multiple ? ((in.r3 - in.r1) & 15) + 1 : 1;
  const unsigned total = w * registers;
  // Cpu::ea2: gr[x2] + gr[b2] + d2, modulo 2^64 (register 16 is zero); an SI form's
  // Cpu::ea1: gr[b1] + d1.
  const uint8_t x = form.immediate ? kZeroReg : in.x2, b = form.immediate ? in.b1 : in.b2;
  const int32_t d = form.immediate ? in.d1 : in.d2;
  if (x != kZeroReg && b != kZeroReg) as.emit(x86::Inst::kIdMov, ea, gr.read(x, 8)), as.emit(x86::Inst::kIdAdd, ea, gr.read(b, 8));
  else if (x != kZeroReg || b != kZeroReg) as.emit(x86::Inst::kIdMov, ea, gr.read(x != kZeroReg ? x : b, 8));
  else as.xor_(x86::eax, x86::eax);
  if (d) as.add(ea, imm(d));  // sign-extended imm32, as int64_t(d)
  as.mov(vpage, ea);
  as.shr(vpage, 12);
  as.mov(x86::ecx, x86::edx);
  as.and_(x86::ecx, imm(at.tlb_entries - 1));
  as.shl(x86::ecx, 5);  // kTlbEntryBytes
  static_assert(kTlbEntryBytes == 1 << 5);
  as.cmp(vpage, x86::qword_ptr(cpu, entry, 0, at.tlb + (form.store ? 8 : 0)));  // rtag / wtag
  as.jne(slow);
  as.mov(x86::edx, x86::eax);
  as.and_(x86::edx, imm(kPageMask));
  if (total > 1) as.cmp(x86::edx, imm(kPageSize - total)), as.ja(slow);  // one byte is always in the page
  Label hit = as.newLabel();
  as.cmp(x86::qword_ptr(cpu, at.caches), 0);
  as.je(hit);
  {
    const x86::Gp line = x86::rsi, last = x86::rdi;
    as.mov(line, x86::qword_ptr(cpu, entry, 0, at.tlb + 24));  // abs: the page's absolute address
    as.add(line, offset);
    if (total > 1) as.lea(last, x86::ptr(line, int32_t(total - 1))), as.shr(last, kLineShift);
    as.shr(line, kLineShift);
    if (total > 1) as.cmp(line, last), as.jne(slow);
    as.cmp(line, x86::qword_ptr(cpu, at.last_wline));
    as.je(hit);
    if (!form.store) as.cmp(line, x86::qword_ptr(cpu, at.last_rline)), as.je(hit);
    as.jmp(slow);
  }
  as.bind(hit);
  as.mov(entry, x86::qword_ptr(cpu, entry, 0, at.tlb + 16));  // host: the page's bytes
  const x86::Mem op = x86::ptr(entry, offset, 0, form.store && g_miscompile_for_tests == kMiscompileStore, w);
  const x86::Mem fpr = x86::qword_ptr(cpu, at.fpr + 16 * int32_t(in.r1));
  if (form.multiple) {  // R1 through R3 in order; a load has nothing left that can fault
    for (unsigned j = 0; j < registers; ++j) {
      const unsigned r = (in.r1 + j) & 15;
      const x86::Mem word = x86::ptr(entry, offset, 0, int32_t(w * j), w);
      const x86::Gp v = w == 8 ? x86::Gp(x86::rax) : x86::Gp(x86::eax);
      if (form.store) as.emit(x86::Inst::kIdMov, v, gr.read(r, w)), as.bswap(v), as.mov(word, v);
      else as.mov(v, word), as.bswap(v), gr.put(r, w, v);
    }
    return;
  }
  if (form.store && form.immediate) {  // mvhhi, mvhi, mvghi: the immediate's big-endian bytes
    const uint64_t v = uint64_t(in.imm);
    switch (w) {
      case 8: as.mov(x86::rax, imm(__builtin_bswap64(v))), as.mov(op, x86::rax); break;
      case 4: as.mov(op, imm(int32_t(__builtin_bswap32(uint32_t(v))))); break;
      default: as.mov(op, imm(int16_t(__builtin_bswap16(uint16_t(v))))); break;
    }
    return;
  }
  if (form.fpr) {  // ld, std_: eight bytes
    if (form.store) as.mov(x86::rax, fpr), as.bswap(x86::rax), as.mov(op, x86::rax);
    else as.mov(x86::rax, op), as.bswap(x86::rax), as.mov(fpr, x86::rax);
    return;
  }
  if (form.store) {
    switch (w) {
      case 8: as.emit(x86::Inst::kIdMov, x86::rax, gr.read(in.r1, 8)), as.bswap(x86::rax), as.mov(op, x86::rax); break;
      case 4: as.emit(x86::Inst::kIdMov, x86::eax, gr.read(in.r1, 4)), as.bswap(x86::eax), as.mov(op, x86::eax); break;
      case 2: as.emit(x86::Inst::kIdMovzx, x86::eax, gr.read(in.r1, 2)), as.rol(x86::ax, 8), as.mov(op, x86::ax); break;
      default: as.emit(x86::Inst::kIdMov, x86::al, gr.read(in.r1, 1)), as.mov(op, x86::al); break;
    }
    return;
  }
  switch (w) {
    case 8: as.mov(x86::rax, op), as.bswap(x86::rax); break;
    case 4:
      as.mov(x86::eax, op), as.bswap(x86::eax);
      if (form.sign) as.movsxd(x86::rax, x86::eax);
      break;
    case 2:
      as.movzx(x86::eax, op), as.rol(x86::ax, 8);
      if (form.sign) as.movsx(x86::rax, x86::ax);
      break;
    default: form.sign ? as.movsx(x86::rax, op) : as.movzx(x86::eax, op); break;
  }
  if (form.immediate) {  // cli: the byte against I2, unsigned
    as.cmp(x86::eax, imm(uint8_t(in.imm)));
    emit_cc_of_flags(as, at, true);
    return;
  }
  if (form.op != AluOp::None) {  // R1 op the value; a signed overflow is the handler's
    const bool wide = form.into == Into::Full64;
    const x86::Gp value = wide ? x86::Gp(x86::rax) : x86::Gp(x86::eax);
    // In rdi: put's merge of a low word takes it from there, and the CC's code uses rcx
    // and rdx.
    const x86::Gp r1 = wide ? x86::Gp(x86::rdi) : x86::Gp(x86::edi);
    const x86::Mem cc = x86::byte_ptr(x86::rbx, at.cc);
    as.emit(x86::Inst::kIdMov, r1, gr.read(in.r1, wide ? 8 : 4));
    switch (form.op) {
      case AluOp::Compare:
      case AluOp::CompareLogical:
        as.cmp(r1, value);
        emit_cc_of_flags(as, at, form.op == AluOp::CompareLogical);
        return;
      case AluOp::And:
      case AluOp::Or:
      case AluOp::Xor:  // logical_cc: 0 zero, 1 not zero
        if (form.op == AluOp::And) as.and_(r1, value);
        else if (form.op == AluOp::Or) as.or_(r1, value);
        else as.xor_(r1, value);
        as.setnz(cc);
        gr.put(in.r1, wide ? 8 : 4, r1);
        return;
      case AluOp::AddLogical:
      case AluOp::SubLogical:
        if (form.op == AluOp::AddLogical) as.add(r1, value);
        else as.sub(r1, value);
        emit_logical_cc(as, at, form.op == AluOp::AddLogical);
        gr.put(in.r1, wide ? 8 : 4, r1);
        return;
      default:  // Add, Sub: a signed overflow (CC 3, maybe an interruption) is the handler's
        if (form.op == AluOp::Add) as.add(r1, value);
        else as.sub(r1, value);
        as.jo(slow);
        emit_cc_of_flags(as, at, false);
        gr.put(in.r1, wide ? 8 : 4, r1);
        return;
    }
  }
  switch (form.into) {
    case Into::Low32: gr.put(in.r1, 4, x86::eax); break;
    case Into::Full64: gr.put(in.r1, 8, x86::rax); break;
    case Into::LowByte: gr.put(in.r1, 1, x86::al); break;
  }
  if (form.test) {  // lt, ltg, ltgf: the value as R1 takes it, signed
    if (form.into == Into::Low32) as.test(x86::eax, x86::eax);
    else as.test(x86::rax, x86::rax);
    emit_cc_of_flags(as, at, false);
  }
}

// Whether the CC each instruction of `b` leaves can be seen: not when a later inline ALU
// instruction sets the CC (without reading it) with only native instructions between,
// which neither read the CC nor can stop the block; everything else (a call, an inline
// load or store that may fault, the branch, the block's end) may see it.
std::vector<bool> cc_live_after(const DecodedPage& page, const Block& b) {
  std::vector<bool> live(b.length(), true);
  for (unsigned k = b.length() - 1; k > 0; --k) {
    const Insn& in = page.slot[b.slots[k]];
    const AluOp op = alu_form(in.id).op;
    if (native_form(in.id) != Native::None || op == AluOp::Risbgn) live[k - 1] = live[k];
    else live[k - 1] = op == AluOp::None;
  }
  return live;
}

// One block's host code: a function of the Cpu that keeps the I-stream's clock in r12
// and, for each instruction, does what the interpreter's loop does around the handler
// (the clock advanced by the base cycles, the PSW address at the next instruction,
// the handler called), then leaves unless everything is as it would be for the next
// instruction of the block: no exception, no cycles charged beyond the base, no stop
// or code change (leave_block_), no branch taken. Whatever else happened, the run
// loop finishes that instruction as the interpreter would (Cpu::run_compiled).
// Returns the offset of the body (where a chained block enters). `plan` says which guest
// registers the code keeps in host registers; `use` receives how it used them.
size_t emit_block(asmjit::CodeHolder& code, const DecodedPage& page, const Block& b, const CpuLayout& at,
                  const GuestRegs::Plan& plan, GuestRegs::Use* use) {
  using namespace asmjit;
  x86::Assembler as(&code);
  GuestRegs gr(as, at, plan);
  const x86::Gp cpu = x86::rbx, clock = x86::r12;
  Label done = as.newLabel();
  std::vector<Label> leave(b.length());
  for (unsigned k = 0; k < b.length(); ++k) leave[k] = as.newLabel();

  // Five pushes and the return address: the stack stays 16-byte aligned for calls.
  // Every block saves the same registers, so a block chained to returns for the first;
  // the arena's unwind entry (kSaved) describes this frame.
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
  gr.load_kept();
  // A block that branches back to its own start goes on here: the kept registers hold
  // what the Cpu holds (the written ones were stored before the branch).
  Label again = as.newLabel();
  as.bind(again);
  as.mov(x86::rax, imm(uint64_t(&b.pending)));
  as.inc(x86::qword_ptr(x86::rax));  // every instruction of the block counts once (fold_counts)
  // What the interpreter's loop does around a handler: the clock and the PSW address
  // (at the next instruction: the page address in r13 + its offset) stored, the call;
  // if the handler throws, the run loop finds the instruction in RunState::insn.
  // The base cycles of the instructions since the clock was last brought up to date:
  // added once, where something reads the clock (a handler, a slow path, the exit or
  // the chain), instead of once an instruction.
  uint32_t owed = 0;
  const auto settle_clock = [&] {
    if (owed) as.add(clock, imm(owed));
    owed = 0;
  };
  const auto store_clock_and_psw = [&](unsigned k, const Insn& in) {
    settle_clock();
    as.mov(x86::qword_ptr(cpu, at.cycles), clock);
    as.lea(x86::rax, x86::ptr(x86::r13, int32_t(2 * b.slots[k] + in.len)));
    as.mov(x86::qword_ptr(cpu, at.psw_addr), x86::rax);
  };
  // The handler reads and writes the registers in the Cpu: the kept ones written are
  // stored first, and all kept ones loaded again after.
  const auto call_handler = [&](unsigned k, const Insn& in) {
    store_clock_and_psw(k, in);
    gr.store_dirty();
    as.mov(x86::dword_ptr(state, int32_t(offsetof(RunState, insn))), k);
    as.mov(x86::rdi, cpu);
    as.mov(x86::rsi, imm(uint64_t(&in)));
    as.mov(x86::rax, imm(uint64_t(in.fn)));
    as.call(x86::rax);
    gr.load_kept();
  };
  // The run loop's tests after an instruction: the block goes on (or, after its last,
  // on into another block) only with no cycles beyond the base, no leave_block_ and
  // (inside the block) no branch taken.
  // (After the last instruction's handler the chain reads the PSW address itself; a slow
  // path's resumes where the block goes on to the next instruction: `check_next`.)
  const auto test_after_call = [&](unsigned k, const Insn& in, bool last, bool check_next) {
    const Label out = last ? chain_exit : leave[k];
    as.cmp(x86::qword_ptr(cpu, at.cycles), clock);
    as.jne(out);
    as.cmp(x86::byte_ptr(cpu, at.leave_block), 0);
    as.jne(out);
    if (!check_next) return;
    as.lea(x86::rax, x86::ptr(x86::r13, int32_t(2 * b.slots[k] + in.len)));
    as.cmp(x86::qword_ptr(cpu, at.psw_addr), x86::rax);
    as.jne(out);
  };
  // Inline loads and stores whose fast-path test failed: the handler, out of line. The
  // kept registers written before the instruction (`dirty`) are stored there first;
  // after the handler every kept register is loaded again, so the code it resumes holds
  // the Cpu's values, whichever of them that code would store. The clock owes `owed`
  // cycles there (this instruction's included) and `owed_at_resume` where it resumes.
  struct SlowPath {
    unsigned k;
    Label slow, resume;
    uint32_t dirty;
    uint32_t owed = 0, owed_at_resume = 0;
  };
  std::vector<SlowPath> slow_paths;
  const std::vector<bool> cc_live = cc_live_after(page, b);
  // How the block ends: after a handler (the PSW address is the Cpu's), or at a known
  // address: the next instruction, or a relative branch's target (`taken`).
  bool ends_in_handler = false;
  Label taken = as.newLabel();
  const Insn* branch = nullptr;
  uint32_t dirty_when_taken = 0;
  for (unsigned k = 0; k < b.length(); ++k) {
    const Insn& in = page.slot[b.slots[k]];
    const bool last = k + 1 == b.length();
    owed += in.cycles;
    // Native and inline instructions: nothing reads the clock or the PSW address until
    // the next handler or the exit, which store them; only registers (and, for a store
    // hit, the operand's bytes) change, and nothing can go otherwise.
    if (const Native form = native_form(in.id); form != Native::None) {
      emit_native(as, form, in, gr, at);
      if (!last) continue;
      store_clock_and_psw(k, in);
      break;
    }
    if (const Alu form = alu_form(in.id); form.op != AluOp::None) {
      SlowPath path{k, as.newLabel(), as.newLabel(), gr.dirty(), owed};
      emit_alu(as, form, in, at, path.slow, gr, cc_live[k]);
      if (last) store_clock_and_psw(k, in);
      as.bind(path.resume);
      path.owed_at_resume = owed;
      if (form.op == AluOp::Add || form.op == AluOp::Sub) slow_paths.push_back(path);
      if (!last) continue;
      break;
    }
    if (const Access form = access_form(in.id); form.width) {
      SlowPath path{k, as.newLabel(), as.newLabel(), gr.dirty(), owed};
      emit_access(as, form, in, at, path.slow, gr);
      if (last) store_clock_and_psw(k, in);
      as.bind(path.resume);
      path.owed_at_resume = owed;
      slow_paths.push_back(path);
      if (!last) continue;
      break;
    }
    // BCR 14,0 and 15,0 serialize (cycles charged by the handler): not inline.
    if (const Branch form = branch_form(in.id);
        last && form.op != BranchOp::None && !(form.op == BranchOp::OnConditionRegister && in.r2 == 0)) {
      store_clock_and_psw(k, in);
      emit_branch(as, form, in, at, gr, taken);
      branch = &in;
      dirty_when_taken = gr.dirty();
      break;
    }
    call_handler(k, in);
    test_after_call(k, in, last, !last);
    ends_in_handler = last;
  }
  // The kept registers written go back to the Cpu before the block leaves or chains. (A
  // call's test after it leaves with nothing written since the call.) Every way the
  // last instruction is emitted stored the clock, so it owes nothing here.
  gr.store_dirty();
  assert(owed == 0);
  // Chaining: the next instruction (the branch target, or the one after) is in this
  // page, a block starts there, and that block passes the run loop's entry test with
  // this block counted: n + length <= limit, clock + base cycles < stop cycle (which
  // also says that the run loop would not have stopped after this instruction).
  // Where the next address is known here (the instruction after the last, a relative
  // branch's target), its slot is too: the block there is read from the page's table
  // at a fixed place, with no look at the PSW address.
  const x86::Gp to = x86::rax, next = x86::rcx, n = x86::rdx, t = x86::rsi;
  Label chain_tail = as.newLabel();
  const auto chain_to_slot = [&](uint64_t slot) {
    if (!b.chains || slot >= kSlots) {
      as.jmp(chain_exit);
      return;
    }
    if (slot == b.slots[0]) {
      // Back to its own start (a loop of one block): the block at that slot is this one
      // (it cannot have gone: whatever retires code makes the block leave before this),
      // so its length and base cycles are known here, and RunState::block stays.
      as.mov(n, x86::qword_ptr(state, int32_t(offsetof(RunState, n))));
      as.add(n, imm(b.length()));
      as.lea(t, x86::ptr(n, int32_t(b.length())));
      as.cmp(t, x86::qword_ptr(state, int32_t(offsetof(RunState, limit))));
      as.ja(chain_exit);
      as.mov(t, imm(b.entry.base_cycles));
      as.add(t, clock);
      as.cmp(t, x86::qword_ptr(state, int32_t(offsetof(RunState, stop_cycle))));
      as.jae(chain_exit);
      as.mov(x86::qword_ptr(state, int32_t(offsetof(RunState, n))), n);
      as.mov(x86::qword_ptr(state, int32_t(offsetof(RunState, clock))), clock);
      as.jmp(again);
      return;
    }
    as.mov(next, imm(uint64_t(&b.owner->at[slot])));
    as.mov(next, x86::qword_ptr(next));
    as.test(next, next);
    as.jnz(chain_tail);
    as.jmp(chain_exit);
  };
  const auto chain_by_psw = [&] {
    if (!b.chains) {
      as.jmp(chain_exit);
      return;
    }
    as.mov(to, x86::qword_ptr(cpu, at.psw_addr));
    as.mov(t, to);
    as.xor_(t, x86::r13);
    as.test(t, imm(int32_t(~0xFFE)));  // another page, or odd
    as.jnz(chain_exit);
    as.and_(x86::eax, 0xFFE);           // 2 * slot
    as.mov(t, imm(uint64_t(&b.owner->at[0])));
    as.mov(next, x86::qword_ptr(t, to, 2));  // at[slot]: 8 bytes each
    as.test(next, next);
    as.jnz(chain_tail);
    as.jmp(chain_exit);
  };
  const Insn& last_in = page.slot[b.slots.back()];
  if (ends_in_handler) chain_by_psw();
  else chain_to_slot(b.slots.back() + last_in.len / 2u);
  if (branch) {
    as.bind(taken);
    gr.set_dirty(dirty_when_taken);
    gr.store_dirty();
    const Branch form = branch_form(branch->id);
    if (form.op == BranchOp::OnConditionRegister || form.op == BranchOp::AndSaveRegister) {
      chain_by_psw();
    } else if (branch->target & 1) {
      as.jmp(chain_exit);
    } else {
      // The target was formed from the address the page was decoded at: the chain
      // goes on in this page only where the block runs from that address.
      as.mov(to, imm(branch->target & ~kPageMask));
      as.cmp(to, x86::r13);
      as.jne(chain_exit);
      chain_to_slot((branch->target & kPageMask) / 2);
    }
  }
  as.bind(chain_tail);  // the next block in rcx
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
  }
  for (const SlowPath& path : slow_paths) {
    const Insn& in = page.slot[b.slots[path.k]];
    as.bind(path.slow);
    gr.set_dirty(path.dirty);
    owed = path.owed;
    call_handler(path.k, in);
    test_after_call(path.k, in, path.k + 1 == b.length(), true);
    if (path.owed_at_resume) as.sub(clock, imm(path.owed_at_resume));
    as.jmp(path.resume);
  }
  if (use) *use = gr.use();
  return size_t(code.labelOffsetFromBase(body));
}

}  // namespace

#else  // no compiler in this build: every I-stream interprets

struct CodeCache::Backend {
  explicit Backend(size_t) {}
};
static size_t arena_bytes(uint64_t, unsigned) { return 0; }
bool CodeCache::available() { return false; }

#endif

CodeCache::CodeCache(uint64_t limit_bytes, unsigned block_length, const CpuLayout& layout)
    : backend_(std::make_unique<Backend>(arena_bytes(limit_bytes, block_length))),
      limit_(limit_bytes),
      block_length_(block_length),
      layout_(layout) {}

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
  b->chains = !closes_spin_loop(*pb.page, b->slots.back());
  b->entry.base_cycles = cycles;
  b->entry.length = b->slots.size();
  b->owner = &pb;
  // Twice when registers are worth keeping: a first pass keeping none shows which.
  asmjit::CodeHolder code;
  code.init(asmjit::Environment::host());
  GuestRegs::Use use;
  size_t body = emit_block(code, *pb.page, *b, layout_, GuestRegs::Plan{}, &use);
  if (const GuestRegs::Plan plan = GuestRegs::plan_for(use); !plan.empty()) {
    code.reset();
    code.init(asmjit::Environment::host());
    body = emit_block(code, *pb.page, *b, layout_, plan, nullptr);
  }
  if (code.flatten() || code.resolveUnresolvedLinks()) return nullptr;
  const size_t bytes = code.codeSize();
  make_room(bytes);
  uint8_t* const at = place(bytes);
  if (!at || code.relocateToBase(uint64_t(at)) || code.copyFlattenedData(at, bytes)) return nullptr;
  b->code = reinterpret_cast<Block::Code>(at);
  b->entry.body = at + body;
  b->code_bytes = bytes;
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
  while (oldest_ && stats_.code_bytes + bytes > limit_) evict_oldest();
}

void CodeCache::evict_oldest() {
  oldest_->owner->arrivals[oldest_->slots.front()] = 0;  // compiled again when it runs again
  drop(oldest_);
  stats_.blocks_evicted++;
}

#if defined(TPFEMU_HAVE_JIT)
// Where `bytes` of new code go. Blocks are placed in age order around the arena, so
// the oldest block's code is the ring's tail and the newest's end its head: the new
// code goes at the head, or at the arena's start, once the oldest blocks made room
// there. (A block dropped out of order, its page gone, leaves a gap until the tail
// passes it.)
uint8_t* CodeCache::place(size_t bytes) {
  Backend& m = *backend_;
  if (bytes > m.size) return nullptr;
  for (;;) {
    size_t at = m.head;
    if (!oldest_) at = 0;
    else if (const size_t tail = size_t(reinterpret_cast<uint8_t*>(oldest_->code) - m.base); tail < m.head) {
      if (m.size - m.head < bytes) at = tail >= bytes ? 0 : m.size;  // wrap, or no room yet
    } else if (tail - m.head < bytes) {
      at = m.size;  // no room yet
    }
    if (at != m.size) {
      m.head = (at + bytes + 15) & ~size_t(15);  // blocks start 16-byte aligned
      return m.base + at;
    }
    evict_oldest();
  }
}
#else
uint8_t* CodeCache::place(size_t) { return nullptr; }
#endif

void CodeCache::drop(Block* b) {
  cosim_entries().erase(b);
  PageBlocks& pb = *b->owner;
  for (uint16_t s : b->slots) pb.page->slot[s].count += b->pending;
  pb.at[b->slots.front()] = nullptr;
  (b->older ? b->older->newer : oldest_) = b->newer;
  (b->newer ? b->newer->older : newest_) = b->older;
  stats_.code_bytes -= b->code_bytes;
  delete b;
}

}  // namespace jit
}  // namespace emu
