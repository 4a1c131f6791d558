#include "emu/isa/common.h"

namespace emu::isa {
namespace {

constexpr uint64_t kSign = 1ull << 63;
constexpr uint64_t kHigh = 0xFFFFFFFF00000000ull;

// A short (32-bit) value occupies bits 0-31 of an FPR; bits 32-63 are left unchanged.
inline void set_short(Cpu& c, unsigned r, uint32_t v) { c.fpr[r] = (c.fpr[r] & ~kHigh) | uint64_t(v) << 32; }
inline uint32_t get_short(const Cpu& c, unsigned r) { return uint32_t(c.fpr[r] >> 32); }

// Extended (128-bit) values live in the register pairs (0,2) (1,3) (4,6) (5,7) (8,10)
// (9,11) (12,14) (13,15); a pair is named by its lower register: 0 1 4 5 8 9 12 13.
inline void check_pair(unsigned r) {
  if (r & 2) program_check(Pic::Specification);
}

}  // namespace

// --- between general and floating-point registers --------------------------------------
void ldgr(Cpu& c, const Insn& i) { c.fpr[i.r1] = c.gr[i.r2]; }
void lgdr(Cpu& c, const Insn& i) { c.gr[i.r1] = c.fpr[i.r2]; }

// --- load zero ---------------------------------------------------------------------------
void lzer(Cpu& c, const Insn& i) { set_short(c, i.r1, 0); }
void lzdr(Cpu& c, const Insn& i) { c.fpr[i.r1] = 0; }
void lzxr(Cpu& c, const Insn& i) {
  check_pair(i.r1);
  c.fpr[i.r1] = c.fpr[i.r1 + 2] = 0;
}

// --- register to register: bit patterns move unchanged (NaNs are not signalled) --------
void ler(Cpu& c, const Insn& i) { set_short(c, i.r1, get_short(c, i.r2)); }
void ldr(Cpu& c, const Insn& i) { c.fpr[i.r1] = c.fpr[i.r2]; }
void lxr(Cpu& c, const Insn& i) {
  check_pair(i.r1);
  check_pair(i.r2);
  uint64_t hi = c.fpr[i.r2], lo = c.fpr[i.r2 + 2];
  c.fpr[i.r1] = hi;
  c.fpr[i.r1 + 2] = lo;
}

// --- storage -------------------------------------------------------------------------------
// No alignment is required for floating-point storage operands.
void le(Cpu& c, const Insn& i) { set_short(c, i.r1, mem2<uint32_t>(c, i)); }
void ld(Cpu& c, const Insn& i) { c.fpr[i.r1] = mem2<uint64_t>(c, i); }
void ste(Cpu& c, const Insn& i) { c.write<uint32_t>(c.ea2(i), get_short(c, i.r1)); }
void std_(Cpu& c, const Insn& i) { c.write<uint64_t>(c.ea2(i), c.fpr[i.r1]); }

// --- sign operations (long format, CC unchanged) ------------------------------------------
// COPY SIGN: R1 = magnitude of R2 with the sign of R3 (RRF: R3 is in bits 16-19).
void cpsdr(Cpu& c, const Insn& i) { c.fpr[i.r1] = (c.fpr[i.r2] & ~kSign) | (c.fpr[i.r3] & kSign); }
void lcdfr(Cpu& c, const Insn& i) { c.fpr[i.r1] = c.fpr[i.r2] ^ kSign; }
void lpdfr(Cpu& c, const Insn& i) { c.fpr[i.r1] = c.fpr[i.r2] & ~kSign; }
void lndfr(Cpu& c, const Insn& i) { c.fpr[i.r1] = c.fpr[i.r2] | kSign; }

}  // namespace emu::isa
