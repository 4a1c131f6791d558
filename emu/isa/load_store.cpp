#include "emu/isa/common.h"

namespace emu::isa {

// --- register to register ---------------------------------------------------------
void lr(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.r32(i.r2)); }
void lgr(Cpu& c, const Insn& i) { c.gr[i.r1] = c.gr[i.r2]; }
void lgfr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(int32_t(c.gr[i.r2]))); }
void lhr(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(int32_t(int16_t(c.gr[i.r2])))); }
void lghr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(int16_t(c.gr[i.r2]))); }
void lbr(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(int32_t(int8_t(c.gr[i.r2])))); }
void lgbr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(int8_t(c.gr[i.r2]))); }
void llcr(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint8_t(c.gr[i.r2])); }
void llgcr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint8_t(c.gr[i.r2]); }
void llhr(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint16_t(c.gr[i.r2])); }
void llghr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint16_t(c.gr[i.r2]); }
void llgfr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint32_t(c.gr[i.r2]); }
void llgtr(Cpu& c, const Insn& i) { c.gr[i.r1] = c.gr[i.r2] & 0x7FFFFFFF; }

// --- from storage ------------------------------------------------------------------
void l(Cpu& c, const Insn& i) { c.set_r32(i.r1, mem2<uint32_t>(c, i)); }
void lg(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint64_t>(c, i); }
void lgf(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(mem2<int32_t>(c, i))); }
void lh(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(int32_t(mem2<int16_t>(c, i)))); }
void lgh(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(mem2<int16_t>(c, i))); }
void lb(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(int32_t(mem2<int8_t>(c, i)))); }
void lgb(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(mem2<int8_t>(c, i))); }
void llc(Cpu& c, const Insn& i) { c.set_r32(i.r1, mem2<uint8_t>(c, i)); }
void llgc(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint8_t>(c, i); }
void llh(Cpu& c, const Insn& i) { c.set_r32(i.r1, mem2<uint16_t>(c, i)); }
void llgh(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint16_t>(c, i); }
void llgf(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint32_t>(c, i); }
void llgt(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint32_t>(c, i) & 0x7FFFFFFF; }
// LOAD AND ZERO RIGHTMOST BYTE (z13): the loaded value with its last byte zeroed,
// which rounds an address down to a 256-byte boundary in one instruction.
void lzrf(Cpu& c, const Insn& i) { c.set_r32(i.r1, mem2<uint32_t>(c, i) & ~0xFFu); }
void lzrg(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint64_t>(c, i) & ~0xFFull; }
void llzrgf(Cpu& c, const Insn& i) { c.gr[i.r1] = mem2<uint32_t>(c, i) & ~0xFFu; }

// --- immediates -----------------------------------------------------------------------
void lhi(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(i.imm)); }
void lghi(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(i.imm); }
void lgfi(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(i.imm); }
void llilf(Cpu& c, const Insn& i) { c.gr[i.r1] = uint32_t(i.imm); }
void llihf(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(uint32_t(i.imm)) << 32; }
void llill(Cpu& c, const Insn& i) { c.gr[i.r1] = uint16_t(i.imm); }
void llilh(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(uint16_t(i.imm)) << 16; }
void llihl(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(uint16_t(i.imm)) << 32; }
void llihh(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(uint16_t(i.imm)) << 48; }

// INSERT IMMEDIATE: replace one 16- or 32-bit field, keep the rest.
template <unsigned Shift, unsigned Bits> void insert_imm(Cpu& c, const Insn& i) {
  constexpr uint64_t mask = ((Bits == 64 ? 0 : (1ull << Bits)) - 1) << Shift;
  c.gr[i.r1] = (c.gr[i.r1] & ~mask) | ((uint64_t(i.imm) << Shift) & mask);
}
void iilf(Cpu& c, const Insn& i) { insert_imm<0, 32>(c, i); }
void iihf(Cpu& c, const Insn& i) { insert_imm<32, 32>(c, i); }
void iill(Cpu& c, const Insn& i) { insert_imm<0, 16>(c, i); }
void iilh(Cpu& c, const Insn& i) { insert_imm<16, 16>(c, i); }
void iihl(Cpu& c, const Insn& i) { insert_imm<32, 16>(c, i); }
void iihh(Cpu& c, const Insn& i) { insert_imm<48, 16>(c, i); }

// --- stores --------------------------------------------------------------------------
void st(Cpu& c, const Insn& i) { c.write<uint32_t>(c.ea2(i), c.r32(i.r1)); }
void stg(Cpu& c, const Insn& i) { c.write<uint64_t>(c.ea2(i), c.gr[i.r1]); }
void sth(Cpu& c, const Insn& i) { c.write<uint16_t>(c.ea2(i), uint16_t(c.gr[i.r1])); }
void stc(Cpu& c, const Insn& i) { c.write<uint8_t>(c.ea2(i), uint8_t(c.gr[i.r1])); }

// STORE CHARACTERS UNDER MASK: the bytes of a 32-bit half selected by M3, stored
// contiguously. `shift` picks the low (0) or high (32) half.
static void store_under_mask(Cpu& c, const Insn& i, unsigned shift) {
  uint64_t a = c.ea2(i);
  uint32_t v = uint32_t(c.gr[i.r1] >> shift);
  for (int k = 0; k < 4; ++k)
    if (i.m3 & (8 >> k)) c.write<uint8_t>(a++, uint8_t(v >> (24 - 8 * k)));
}
void stcm(Cpu& c, const Insn& i) { store_under_mask(c, i, 0); }
void stcmh(Cpu& c, const Insn& i) { store_under_mask(c, i, 32); }

void ic(Cpu& c, const Insn& i) {
  c.gr[i.r1] = (c.gr[i.r1] & ~0xFFull) | mem2<uint8_t>(c, i);
}

// INSERT CHARACTERS UNDER MASK: CC 0 all inserted bits zero (or mask 0), 1 leftmost
// inserted bit one, 2 leftmost zero and not all zero.
static void insert_under_mask(Cpu& c, const Insn& i, unsigned shift) {
  uint64_t a = c.ea2(i);
  uint32_t v = uint32_t(c.gr[i.r1] >> shift);
  uint32_t inserted = 0, bits = 0;
  bool first = true, leftmost_one = false;
  for (int k = 0; k < 4; ++k) {
    if (!(i.m3 & (8 >> k))) continue;
    uint8_t byte = c.read<uint8_t>(a++);
    unsigned pos = 24 - 8 * k;
    v = (v & ~(0xFFu << pos)) | (uint32_t(byte) << pos);
    if (first) leftmost_one = byte & 0x80, first = false;
    inserted |= byte;
    bits = 1;
  }
  c.cc = !bits || !inserted ? 0 : leftmost_one ? 1 : 2;
  if (shift) c.set_h32(i.r1, v);
  else c.set_r32(i.r1, v);
}
void icm(Cpu& c, const Insn& i) { insert_under_mask(c, i, 0); }
void icmh(Cpu& c, const Insn& i) { insert_under_mask(c, i, 32); }

// --- multiple ---------------------------------------------------------------------------
// LOAD/STORE MULTIPLE: registers R1 through R3, wrapping from 15 to 0.
template <class T, class Get> static void store_multiple(Cpu& c, const Insn& i, Get get) {
  uint64_t a = c.ea2(i);
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    c.write<T>(a, get(r));
    a += sizeof(T);
    if (r == i.r3) break;
  }
}
template <class T, class Put> static void load_multiple(Cpu& c, const Insn& i, Put put) {
  uint64_t a = c.ea2(i);
  // Read everything first: a fault part-way must leave the registers unchanged.
  T vals[16];
  unsigned n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    vals[n++] = c.read<T>(a);
    a += sizeof(T);
    if (r == i.r3) break;
  }
  n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    put(r, vals[n++]);
    if (r == i.r3) break;
  }
}
void lm(Cpu& c, const Insn& i) { load_multiple<uint32_t>(c, i, [&](unsigned r, uint32_t v) { c.set_r32(r, v); }); }
void lmg(Cpu& c, const Insn& i) { load_multiple<uint64_t>(c, i, [&](unsigned r, uint64_t v) { c.gr[r] = v; }); }
void lmh(Cpu& c, const Insn& i) { load_multiple<uint32_t>(c, i, [&](unsigned r, uint32_t v) { c.set_h32(r, v); }); }
void stm(Cpu& c, const Insn& i) { store_multiple<uint32_t>(c, i, [&](unsigned r) { return c.r32(r); }); }
void stmg(Cpu& c, const Insn& i) { store_multiple<uint64_t>(c, i, [&](unsigned r) { return c.gr[r]; }); }
void stmh(Cpu& c, const Insn& i) { store_multiple<uint32_t>(c, i, [&](unsigned r) { return c.h32(r); }); }

// --- addresses ----------------------------------------------------------------------------
void la(Cpu& c, const Insn& i) { c.gr[i.r1] = c.ea2(i); }
void larl(Cpu& c, const Insn& i) { c.gr[i.r1] = i.target; }

void lrl(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.read<uint32_t>(aligned_target<uint32_t>(i))); }
void lgrl(Cpu& c, const Insn& i) { c.gr[i.r1] = c.read<uint64_t>(aligned_target<uint64_t>(i)); }
void lgfrl(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(c.read<int32_t>(aligned_target<int32_t>(i)))); }
void llgfrl(Cpu& c, const Insn& i) { c.gr[i.r1] = c.read<uint32_t>(aligned_target<uint32_t>(i)); }
void lhrl(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(int32_t(c.read<int16_t>(aligned_target<int16_t>(i))))); }
void lghrl(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(int64_t(c.read<int16_t>(aligned_target<int16_t>(i)))); }
void llhrl(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.read<uint16_t>(aligned_target<uint16_t>(i))); }
void llghrl(Cpu& c, const Insn& i) { c.gr[i.r1] = c.read<uint16_t>(aligned_target<uint16_t>(i)); }
void strl(Cpu& c, const Insn& i) { c.write<uint32_t>(aligned_target<uint32_t>(i), c.r32(i.r1)); }
void stgrl(Cpu& c, const Insn& i) { c.write<uint64_t>(aligned_target<uint64_t>(i), c.gr[i.r1]); }
void sthrl(Cpu& c, const Insn& i) { c.write<uint16_t>(aligned_target<uint16_t>(i), uint16_t(c.gr[i.r1])); }

// --- load and test --------------------------------------------------------------------------
void ltr(Cpu& c, const Insn& i) {
  int32_t v = int32_t(c.gr[i.r2]);
  c.set_r32(i.r1, uint32_t(v));
  c.cc = cc_signed(v);
}
void ltgr(Cpu& c, const Insn& i) {
  int64_t v = int64_t(c.gr[i.r2]);
  c.gr[i.r1] = uint64_t(v);
  c.cc = cc_signed(v);
}
void ltgfr(Cpu& c, const Insn& i) {
  int64_t v = int32_t(c.gr[i.r2]);
  c.gr[i.r1] = uint64_t(v);
  c.cc = cc_signed(v);
}
void lt(Cpu& c, const Insn& i) {
  int32_t v = mem2<int32_t>(c, i);
  c.set_r32(i.r1, uint32_t(v));
  c.cc = cc_signed(v);
}
void ltg(Cpu& c, const Insn& i) {
  int64_t v = mem2<int64_t>(c, i);
  c.gr[i.r1] = uint64_t(v);
  c.cc = cc_signed(v);
}
void ltgf(Cpu& c, const Insn& i) {
  int64_t v = mem2<int32_t>(c, i);
  c.gr[i.r1] = uint64_t(v);
  c.cc = cc_signed(v);
}

// --- byte reversed ----------------------------------------------------------------------------
void lrvr(Cpu& c, const Insn& i) { c.set_r32(i.r1, __builtin_bswap32(c.r32(i.r2))); }
void lrvgr(Cpu& c, const Insn& i) { c.gr[i.r1] = __builtin_bswap64(c.gr[i.r2]); }
void lrv(Cpu& c, const Insn& i) { c.set_r32(i.r1, __builtin_bswap32(mem2<uint32_t>(c, i))); }
void lrvg(Cpu& c, const Insn& i) { c.gr[i.r1] = __builtin_bswap64(mem2<uint64_t>(c, i)); }
void lrvh(Cpu& c, const Insn& i) {
  c.gr[i.r1] = (c.gr[i.r1] & ~0xFFFFull) | __builtin_bswap16(mem2<uint16_t>(c, i));
}
void strv(Cpu& c, const Insn& i) { c.write<uint32_t>(c.ea2(i), __builtin_bswap32(c.r32(i.r1))); }
void strvg(Cpu& c, const Insn& i) { c.write<uint64_t>(c.ea2(i), __builtin_bswap64(c.gr[i.r1])); }
void strvh(Cpu& c, const Insn& i) { c.write<uint16_t>(c.ea2(i), __builtin_bswap16(uint16_t(c.gr[i.r1]))); }

// --- on condition (load/store-on-condition facility, z196) ---------------------------------
// RRF-c carries the mask in M3; RSY-b in the R3/M3 field. No access happens when the
// condition is false.
void locr(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.set_r32(i.r1, c.r32(i.r2)); }
void locgr(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.gr[i.r1] = c.gr[i.r2]; }
void loc(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.set_r32(i.r1, mem2<uint32_t>(c, i)); }
void locg(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.gr[i.r1] = mem2<uint64_t>(c, i); }
void stoc(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.write<uint32_t>(c.ea2(i), c.r32(i.r1)); }
void stocg(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.write<uint64_t>(c.ea2(i), c.gr[i.r1]); }

// Load/store-on-condition facility 2 (z13): the immediate forms (RIE-g, I2
// sign-extended) and the high-word forms, which use bits 0-31 of the registers.
void lochi(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.set_r32(i.r1, uint32_t(i.imm)); }
void locghi(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.gr[i.r1] = uint64_t(i.imm); }
void lochhi(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.set_h32(i.r1, uint32_t(i.imm)); }
void locfhr(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.set_h32(i.r1, c.h32(i.r2)); }
void locfh(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.set_h32(i.r1, mem2<uint32_t>(c, i)); }
void stocfh(Cpu& c, const Insn& i) { if (cc_matches(c, i.m3)) c.write<uint32_t>(c.ea2(i), c.h32(i.r1)); }

// SELECT (miscellaneous-instruction-extensions 3, z15): R2 when M4 selects the CC,
// else R3 (RRF-a: R3 in bits 16-19, M4 in 20-23).
void selr(Cpu& c, const Insn& i) { c.set_r32(i.r1, cc_matches(c, i.m4) ? c.r32(i.r2) : c.r32(i.r3)); }
void selgr(Cpu& c, const Insn& i) { c.gr[i.r1] = cc_matches(c, i.m4) ? c.gr[i.r2] : c.gr[i.r3]; }
void selfhr(Cpu& c, const Insn& i) { c.set_h32(i.r1, cc_matches(c, i.m4) ? c.h32(i.r2) : c.h32(i.r3)); }

// --- move immediate -------------------------------------------------------------------------
void mvi(Cpu& c, const Insn& i) { c.write<uint8_t>(c.ea1(i), uint8_t(i.imm)); }
void mvhhi(Cpu& c, const Insn& i) { c.write<uint16_t>(c.ea1(i), uint16_t(i.imm)); }
void mvhi(Cpu& c, const Insn& i) { c.write<uint32_t>(c.ea1(i), uint32_t(int32_t(i.imm))); }
void mvghi(Cpu& c, const Insn& i) { c.write<uint64_t>(c.ea1(i), uint64_t(i.imm)); }

}  // namespace emu::isa
