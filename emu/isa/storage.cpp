#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "emu/isa/common.h"

namespace emu::isa {
namespace {

// --- cycle charges beyond the table's base cycles (see storage.def) ------------------
// SS operations move about 32 bytes per cycle once started; the base covers the first 32.
inline void charge_ss(Cpu& c, uint64_t n) { c.charge(Cause::Instruction, (n - 1) / 32); }
// TR/TRT look every byte up in the table: one cycle per 8 bytes after the first 8.
inline void charge_tr(Cpu& c, uint64_t n) { c.charge(Cause::Instruction, (n - 1) / 8); }
// MVCL, MVCLE, CLCL, CLCLE: one cycle per 32 bytes stored or compared.
inline void charge_long(Cpu& c, uint64_t n) { c.charge(Cause::Instruction, n / 32); }
// CLST, MVST, SRST: one cycle per 8 bytes examined.
inline void charge_string(Cpu& c, uint64_t n) { c.charge(Cause::Instruction, n / 8); }

// May a left-to-right, one-byte-at-a-time operation from src into dst (n bytes, both
// contiguous host ranges) be done as a block? Yes unless dst starts inside src after
// its first byte: then earlier results feed later source bytes.
inline bool block_safe(const uint8_t* dst, const uint8_t* src, unsigned n) {
  uintptr_t d = uintptr_t(dst), s = uintptr_t(src);
  return d <= s || d >= s + n;
}

// Even register of an even-odd pair, else a specification exception.
inline void check_even(unsigned r) {
  if (r & 1) program_check(Pic::Specification);
}

// Bits 32-55 of general register 0 must be zero for the string instructions; bits
// 56-63 are the ending (CLST, MVST) or search (SRST) character.
inline uint8_t string_char(Cpu& c) {
  if (c.gr[0] & 0xFFFFFF00ull) program_check(Pic::Specification);
  return uint8_t(c.gr[0]);
}

}  // namespace

// --- move -----------------------------------------------------------------------------
// MOVE (character): bytes move left to right one at a time, so an overlap with the
// destination one byte ahead propagates the first byte (the classic fill idiom).
void mvc(Cpu& c, const Insn& i) {
  unsigned n = unsigned(i.l1) + 1;
  charge_ss(c, n);
  HostBytes src = host_bytes(c, c.ea2(i), n, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n, true);
  if (src.contiguous() && dst.contiguous()) {
    if (dst.p0 == src.p0 + 1) {
      std::memset(dst.p0, src.p0[0], n);
      return;
    }
    if (block_safe(dst.p0, src.p0, n)) {
      std::memmove(dst.p0, src.p0, n);
      return;
    }
  }
  for (unsigned k = 0; k < n; ++k) dst[k] = src[k];
}

// MOVE RIGHT TO LEFT (miscellaneous-instruction-extensions 3, z15): bits 56-63 of
// general register 0 hold the length minus one; the bytes move one at a time from the
// rightmost, so that a destination to the right of an overlapping source is a memmove
// (glibc's memmove uses it), and one to the left propagates backwards.
void mvcrl(Cpu& c, const Insn& i) {
  unsigned n = unsigned(c.gr[0] & 0xFF) + 1;
  charge_ss(c, n);
  HostBytes src = host_bytes(c, c.ea2(i), n, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n, true);
  for (unsigned k = n; k-- > 0;) dst[k] = src[k];
}

// MOVE NUMERICS / MOVE ZONES: the right (left) four bits of each byte, one byte at a time.
template <uint8_t Mask> static void move_bits(Cpu& c, const Insn& i) {
  unsigned n = unsigned(i.l1) + 1;
  charge_ss(c, n);
  HostBytes src = host_bytes(c, c.ea2(i), n, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n, true);
  for (unsigned k = 0; k < n; ++k) dst[k] = uint8_t((dst[k] & ~Mask) | (src[k] & Mask));
}
void mvn(Cpu& c, const Insn& i) { move_bits<0x0F>(c, i); }
void mvz(Cpu& c, const Insn& i) { move_bits<0xF0>(c, i); }

// --- compare --------------------------------------------------------------------------
// COMPARE LOGICAL (character): unsigned bytes, left to right. CC 0 equal, 1 first
// operand low, 2 high.
void clc(Cpu& c, const Insn& i) {
  unsigned n = unsigned(i.l1) + 1;
  charge_ss(c, n);
  HostBytes a = host_bytes(c, c.ea1(i), n, false);
  HostBytes b = host_bytes(c, c.ea2(i), n, false);
  if (a.contiguous() && b.contiguous()) {
    int r = std::memcmp(a.p0, b.p0, n);
    c.cc = r == 0 ? 0 : r < 0 ? 1 : 2;
    return;
  }
  for (unsigned k = 0; k < n; ++k) {
    if (a[k] != b[k]) {
      c.cc = a[k] < b[k] ? 1 : 2;
      return;
    }
  }
  c.cc = 0;
}

// --- AND / OR / EXCLUSIVE OR (character) ----------------------------------------------
// Left to right, one byte at a time; CC 0 all result bits zero, 1 not. Blocks of 8
// bytes when no earlier result byte can be a later source byte. XC of a field with
// itself is the compiler's way of zeroing storage: a memset.
template <class Op> static void logical_ss(Cpu& c, const Insn& i, Op op) {
  unsigned n = unsigned(i.l1) + 1;
  charge_ss(c, n);
  HostBytes src = host_bytes(c, c.ea2(i), n, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n, true);
  uint64_t any = 0;
  if (src.contiguous() && dst.contiguous() && block_safe(dst.p0, src.p0, n)) {
    uint8_t* d = dst.p0;
    const uint8_t* s = src.p0;
    unsigned k = 0;
    for (; k + 8 <= n; k += 8) {  // each block reads both operands before it stores
      uint64_t x, y;
      std::memcpy(&x, d + k, 8);
      std::memcpy(&y, s + k, 8);
      x = op(x, y);
      any |= x;
      std::memcpy(d + k, &x, 8);
    }
    for (; k < n; ++k) {
      d[k] = uint8_t(op(uint64_t(d[k]), uint64_t(s[k])));
      any |= d[k];
    }
  } else {
    for (unsigned k = 0; k < n; ++k) {
      dst[k] = uint8_t(op(uint64_t(dst[k]), uint64_t(src[k])));
      any |= dst[k];
    }
  }
  c.cc = any != 0;
}
void nc(Cpu& c, const Insn& i) { logical_ss(c, i, [](uint64_t x, uint64_t y) { return x & y; }); }
void oc(Cpu& c, const Insn& i) { logical_ss(c, i, [](uint64_t x, uint64_t y) { return x | y; }); }
void xc(Cpu& c, const Insn& i) {
  uint64_t d = c.ea1(i), s = c.ea2(i);
  if (d == s) {  // the zeroing idiom
    unsigned n = unsigned(i.l1) + 1;
    charge_ss(c, n);
    HostBytes dst = host_bytes(c, d, n, true);
    std::memset(dst.p0, 0, dst.n0);
    if (dst.p1) std::memset(dst.p1, 0, n - dst.n0);
    c.cc = 0;
    return;
  }
  logical_ss(c, i, [](uint64_t x, uint64_t y) { return x ^ y; });
}

// --- translate ------------------------------------------------------------------------
// TRANSLATE: each first-operand byte is replaced by the table byte it indexes (the
// table is the second operand, up to 256 bytes). One byte at a time, so a table that
// overlaps the first operand sees the bytes already translated. Only the table bytes
// used are accessed.
void tr(Cpu& c, const Insn& i) {
  unsigned n = unsigned(i.l1) + 1;
  charge_tr(c, n);
  uint64_t table = c.ea2(i);
  HostBytes arg = host_bytes(c, c.ea1(i), n, true);
  for (unsigned k = 0; k < n; ++k) arg[k] = c.read<uint8_t>(table + arg[k]);
}

// TRANSLATE AND TEST: finds the first first-operand byte whose table byte is not zero.
// Then general register 1 gets its address (64-bit mode: all 64 bits), bits 56-63 of
// general register 2 the table byte, and the CC is 1 (2 when it was the last byte).
// CC 0 and registers unchanged when every table byte used is zero.
void trt(Cpu& c, const Insn& i) {
  unsigned n = unsigned(i.l1) + 1;
  uint64_t a = c.ea1(i), table = c.ea2(i);
  HostBytes arg = host_bytes(c, a, n, false);
  for (unsigned k = 0; k < n; ++k) {
    uint8_t f = c.read<uint8_t>(table + arg[k]);
    if (f) {
      charge_tr(c, k + 1);
      c.gr[1] = a + k;
      c.gr[2] = (c.gr[2] & ~0xFFull) | f;
      c.cc = k + 1 == n ? 2 : 1;
      return;
    }
  }
  charge_tr(c, n);
  c.cc = 0;
}

// --- long moves and compares ------------------------------------------------------------
// Operand address in the even register R, length in the odd register R+1 under `mask`
// (MVCL/CLCL: bits 40-63, the rest of R+1 is left as it was; MVCLE/CLCLE: all 64 bits
// in the 64-bit addressing mode). The registers are updated after every page piece,
// so an access exception leaves them describing the part already done, the way an
// interrupted execution of these interruptible instructions does.
namespace {

struct LongOperand {
  Cpu& c;
  unsigned r;
  uint64_t mask;
  uint64_t addr, len;
  LongOperand(Cpu& cpu, unsigned reg, uint64_t m)
      : c(cpu), r(reg), mask(m), addr(cpu.gr[reg]), len(cpu.gr[reg + 1] & m) {}
  void advance(uint64_t n) {
    addr += n;
    len -= n;
  }
  void commit() const {
    c.gr[r] = addr;
    c.gr[r + 1] = (c.gr[r + 1] & ~mask) | len;
  }
};

// Moves min(L1, L2) bytes, then pads the rest of operand 1. CC from the lengths.
void move_long(Cpu& c, LongOperand& d, LongOperand& s, uint8_t pad) {
  c.cc = d.len == s.len ? 0 : d.len < s.len ? 1 : 2;
  uint64_t total = d.len;
  while (d.len) {
    uint64_t n = std::min(d.len, page_rest(d.addr));
    if (s.len) {
      n = std::min({n, s.len, page_rest(s.addr)});
      const uint8_t* sp = c.span(s.addr, n, false);
      uint8_t* dp = c.span(d.addr, n, true);
      std::memmove(dp, sp, n);
      s.advance(n);
    } else {
      std::memset(c.span(d.addr, n, true), pad, n);
    }
    d.advance(n);
    d.commit();
    s.commit();
  }
  charge_long(c, total);
}

// Compares operand 1 with operand 2, the shorter one extended with the padding byte.
// At the first unequal byte the addresses point at it (an exhausted operand stays at
// its end) and the lengths count what is left; CC 0 equal, 1 first low, 2 first high.
void compare_long(Cpu& c, LongOperand& a, LongOperand& b, uint8_t pad) {
  uint64_t done = 0;
  c.cc = 0;
  while (a.len || b.len) {
    uint64_t n;
    unsigned k = 0;
    if (a.len && b.len) {
      n = std::min({a.len, b.len, page_rest(a.addr), page_rest(b.addr)});
      const uint8_t* pa = c.span(a.addr, n, false);
      const uint8_t* pb = c.span(b.addr, n, false);
      while (k < n && pa[k] == pb[k]) ++k;
      if (k < n) c.cc = pa[k] < pb[k] ? 1 : 2;
      a.advance(k);
      b.advance(k);
    } else {
      LongOperand& o = a.len ? a : b;
      n = std::min(o.len, page_rest(o.addr));
      const uint8_t* p = c.span(o.addr, n, false);
      while (k < n && p[k] == pad) ++k;
      if (k < n) {
        bool first_low = &o == &a ? p[k] < pad : pad < p[k];
        c.cc = first_low ? 1 : 2;
      }
      o.advance(k);
    }
    done += k;
    a.commit();
    b.commit();
    if (c.cc) break;
  }
  charge_long(c, done);
}

// MOVE LONG: a destructive overlap (operand 1 starts inside the part of operand 2
// that is moved, after its first byte) moves nothing and sets CC 3.
bool destructive_overlap(uint64_t dst, uint64_t src, uint64_t moved) {
  uint64_t dist = dst - src;  // modulo 2^64: also right when operand 2 wraps
  return moved && dist != 0 && dist < moved;
}

}  // namespace

void mvcl(Cpu& c, const Insn& i) {
  check_even(i.r1);
  check_even(i.r2);
  LongOperand d(c, i.r1, 0xFFFFFF), s(c, i.r2, 0xFFFFFF);
  if (destructive_overlap(d.addr, s.addr, std::min(d.len, s.len))) {
    c.cc = 3;
    return;
  }
  move_long(c, d, s, uint8_t(c.gr[i.r2 + 1] >> 24));
}
void clcl(Cpu& c, const Insn& i) {
  check_even(i.r1);
  check_even(i.r2);
  uint8_t pad = uint8_t(c.gr[i.r2 + 1] >> 24);
  LongOperand a(c, i.r1, 0xFFFFFF), b(c, i.r2, 0xFFFFFF);
  compare_long(c, a, b, pad);
}
// MOVE LONG EXTENDED / COMPARE LOGICAL LONG EXTENDED: R1 and R3 pairs, the padding
// byte is bits 56-63 of the second-operand address. Done in one execution, so CC 3
// (CPU-determined amount processed) never occurs. Overlap is not checked: the PoO
// leaves destructively overlapping MVCLE results unpredictable.
void mvcle(Cpu& c, const Insn& i) {
  check_even(i.r1);
  check_even(i.r3);
  uint8_t pad = uint8_t(c.ea2(i));
  LongOperand d(c, i.r1, ~0ull), s(c, i.r3, ~0ull);
  move_long(c, d, s, pad);
}
void clcle(Cpu& c, const Insn& i) {
  check_even(i.r1);
  check_even(i.r3);
  uint8_t pad = uint8_t(c.ea2(i));
  LongOperand a(c, i.r1, ~0ull), b(c, i.r3, ~0ull);
  compare_long(c, a, b, pad);
}

// --- string instructions (completed in one execution: CC 3 never occurs) ---------------
// COMPARE LOGICAL STRING: both strings end with the character in GR0. Equal up to and
// including the ending character in both: CC 0, R1 and R2 unchanged. Otherwise the
// first difference decides, where an ending character counts as lower than any other
// byte: CC 1 or 2, and R1/R2 get the addresses of the bytes that decided.
void clst(Cpu& c, const Insn& i) {
  uint8_t end = string_char(c);
  uint64_t a1 = c.gr[i.r1], a2 = c.gr[i.r2], done = 0;
  for (;;) {
    uint64_t n = std::min(page_rest(a1), page_rest(a2));
    const uint8_t* p1 = c.span(a1, n, false);
    const uint8_t* p2 = c.span(a2, n, false);
    for (uint64_t k = 0; k < n; ++k) {
      uint8_t b1 = p1[k], b2 = p2[k];
      if (b1 == b2 && b1 != end) continue;
      charge_string(c, done + k + 1);
      if (b1 == end && b2 == end) {
        c.cc = 0;
        return;
      }
      c.cc = b1 == end ? 1 : b2 == end ? 2 : b1 < b2 ? 1 : 2;
      c.gr[i.r1] = a1 + k;
      c.gr[i.r2] = a2 + k;
      return;
    }
    a1 += n, a2 += n, done += n;
  }
}

// MOVE STRING: copies operand 2 up to and including the ending character in GR0;
// R1 gets the address of the ending character in operand 1, R2 is unchanged; CC 1.
void mvst(Cpu& c, const Insn& i) {
  uint8_t end = string_char(c);
  uint64_t d = c.gr[i.r1], s = c.gr[i.r2], done = 0;
  for (;;) {
    uint64_t n = std::min(page_rest(d), page_rest(s));
    const uint8_t* sp = c.span(s, n, false);
    const void* hit = std::memchr(sp, end, n);
    uint64_t m = hit ? uint64_t(static_cast<const uint8_t*>(hit) - sp) + 1 : n;
    std::memmove(c.span(d, m, true), sp, m);
    done += m;
    if (hit) {
      charge_string(c, done);
      c.gr[i.r1] = d + m - 1;
      c.cc = 1;
      return;
    }
    d += n, s += n;
  }
}

// SEARCH STRING: looks for the character in GR0 from the address in R2 up to, not
// including, the end address in R1. Found: R1 = its address, CC 1. Not found: CC 2,
// registers unchanged.
void srst(Cpu& c, const Insn& i) {
  uint8_t ch = string_char(c);
  uint64_t end = c.gr[i.r1], a = c.gr[i.r2], done = 0;
  while (a != end) {
    uint64_t n = std::min(page_rest(a), end - a);
    const uint8_t* p = c.span(a, n, false);
    if (const void* hit = std::memchr(p, ch, n)) {
      uint64_t k = uint64_t(static_cast<const uint8_t*>(hit) - p);
      charge_string(c, done + k + 1);
      c.gr[i.r1] = a + k;
      c.cc = 1;
      return;
    }
    a += n, done += n;
  }
  charge_string(c, done);
  c.cc = 2;
}

// --- compare and swap -------------------------------------------------------------------
// The operand must be aligned to its size (specification exception otherwise). It is an
// update-type reference: store access is required even when the comparison fails.
// Equal: the replacement is stored, CC 0. Unequal: the first operand gets the storage
// value, CC 1.
namespace {
template <class T> uint8_t* interlocked_operand(Cpu& c, uint64_t a) {
  if (a & (sizeof(T) - 1)) program_check(Pic::Specification);
  return c.span(a, sizeof(T), true);
}
}  // namespace

void cs(Cpu& c, const Insn& i) {
  uint8_t* p = interlocked_operand<uint32_t>(c, c.ea2(i));
  uint32_t cur = Cpu::load_be<uint32_t>(p);
  if (cur == c.r32(i.r1)) {
    Cpu::store_be<uint32_t>(p, c.r32(i.r3));
    c.cc = 0;
  } else {
    c.set_r32(i.r1, cur);
    c.cc = 1;
  }
}
void csg(Cpu& c, const Insn& i) {
  uint8_t* p = interlocked_operand<uint64_t>(c, c.ea2(i));
  uint64_t cur = Cpu::load_be<uint64_t>(p);
  if (cur == c.gr[i.r1]) {
    Cpu::store_be<uint64_t>(p, c.gr[i.r3]);
    c.cc = 0;
  } else {
    c.gr[i.r1] = cur;
    c.cc = 1;
  }
}
// COMPARE DOUBLE AND SWAP: R1 and R3 name even-odd pairs; CDS/CDSY use bits 32-63 of
// each register (a doubleword), CDSG the whole registers (a quadword).
void cds(Cpu& c, const Insn& i) {
  check_even(i.r1);
  check_even(i.r3);
  uint8_t* p = interlocked_operand<uint64_t>(c, c.ea2(i));
  uint64_t cur = Cpu::load_be<uint64_t>(p);
  uint64_t old = uint64_t(c.r32(i.r1)) << 32 | c.r32(i.r1 + 1);
  if (cur == old) {
    Cpu::store_be<uint64_t>(p, uint64_t(c.r32(i.r3)) << 32 | c.r32(i.r3 + 1));
    c.cc = 0;
  } else {
    c.set_r32(i.r1, uint32_t(cur >> 32));
    c.set_r32(i.r1 + 1, uint32_t(cur));
    c.cc = 1;
  }
}
void cdsg(Cpu& c, const Insn& i) {
  check_even(i.r1);
  check_even(i.r3);
  uint64_t a = c.ea2(i);
  if (a & 15) program_check(Pic::Specification);
  uint8_t* p = c.span(a, 16, true);
  uint64_t hi = Cpu::load_be<uint64_t>(p), lo = Cpu::load_be<uint64_t>(p + 8);
  if (hi == c.gr[i.r1] && lo == c.gr[i.r1 + 1]) {
    Cpu::store_be<uint64_t>(p, c.gr[i.r3]);
    Cpu::store_be<uint64_t>(p + 8, c.gr[i.r3 + 1]);
    c.cc = 0;
  } else {
    c.gr[i.r1] = hi;
    c.gr[i.r1 + 1] = lo;
    c.cc = 1;
  }
}

// --- interlocked access (z196): load and add / add logical / and / or / xor -------------
// The old storage value goes to R1 (bits 32-63 for the word forms), the result of it
// combined with R3 replaces the storage operand, interlocked. Aligned operands only.
// CC as the corresponding ADD, ADD LOGICAL, AND, OR, EXCLUSIVE OR. A signed overflow
// of LAA/LAAG completes the operation and then takes a fixed-point overflow
// interruption when the program mask allows it.
namespace {
template <class T> void set_r1(Cpu& c, unsigned r, T v) {
  if constexpr (sizeof(T) == 4) c.set_r32(r, v);
  else c.gr[r] = v;
}
// Returns {old, new}.
template <class T, class Op> std::pair<T, T> load_and(Cpu& c, const Insn& i, Op op) {
  T v3 = T(c.gr[i.r3]);
  uint8_t* p = interlocked_operand<T>(c, c.ea2(i));
  T old = Cpu::load_be<T>(p);
  T r = op(old, v3);
  Cpu::store_be<T>(p, r);
  set_r1<T>(c, i.r1, old);
  return {old, r};
}
template <class T> void load_and_add(Cpu& c, const Insn& i) {
  using S = std::make_signed_t<T>;
  T v3 = T(c.gr[i.r3]);
  auto [old, r] = load_and<T>(c, i, [](T x, T y) { return T(x + y); });
  S ignored;
  bool overflow = __builtin_add_overflow(S(old), S(v3), &ignored);
  c.cc = overflow ? 3 : cc_signed(S(r));
  if (overflow) fixed_point_overflow(c);
}
template <class T> void load_and_add_logical(Cpu& c, const Insn& i) {
  auto [old, r] = load_and<T>(c, i, [](T x, T y) { return T(x + y); });
  c.cc = uint8_t((r != 0) | (r < old) << 1);  // carry out when the sum wrapped
}
template <class T, class Op> void load_and_bits(Cpu& c, const Insn& i, Op op) {
  c.cc = load_and<T>(c, i, op).second != 0;
}
}  // namespace

void laa(Cpu& c, const Insn& i) { load_and_add<uint32_t>(c, i); }
void laag(Cpu& c, const Insn& i) { load_and_add<uint64_t>(c, i); }
void laal(Cpu& c, const Insn& i) { load_and_add_logical<uint32_t>(c, i); }
void laalg(Cpu& c, const Insn& i) { load_and_add_logical<uint64_t>(c, i); }
void lan(Cpu& c, const Insn& i) { load_and_bits<uint32_t>(c, i, [](uint32_t x, uint32_t y) { return x & y; }); }
void lang(Cpu& c, const Insn& i) { load_and_bits<uint64_t>(c, i, [](uint64_t x, uint64_t y) { return x & y; }); }
void lao(Cpu& c, const Insn& i) { load_and_bits<uint32_t>(c, i, [](uint32_t x, uint32_t y) { return x | y; }); }
void laog(Cpu& c, const Insn& i) { load_and_bits<uint64_t>(c, i, [](uint64_t x, uint64_t y) { return x | y; }); }
void lax(Cpu& c, const Insn& i) { load_and_bits<uint32_t>(c, i, [](uint32_t x, uint32_t y) { return x ^ y; }); }
void laxg(Cpu& c, const Insn& i) { load_and_bits<uint64_t>(c, i, [](uint64_t x, uint64_t y) { return x ^ y; }); }


// --- move inverse, translate and test reverse, translate extended, checksum ---------------
// MOVE INVERSE: the second operand, whose address names its rightmost byte, into the
// first in reverse order.
void mvcin(Cpu& c, const Insn& i) {
  const unsigned n = unsigned(i.l1) + 1;
  charge_ss(c, n);
  HostBytes src = host_bytes(c, c.ea2(i) - (n - 1), n, false);
  uint8_t buf[256];
  for (unsigned k = 0; k < n; ++k) buf[k] = src[n - 1 - k];
  HostBytes dst = host_bytes(c, c.ea1(i), n, true);
  for (unsigned k = 0; k < n; ++k) dst[k] = buf[k];
}

// TRANSLATE AND TEST REVERSE: TRT from the rightmost byte leftwards. CC 1 for a nonzero
// function byte before the leftmost byte, 2 at the leftmost, 0 for none.
void trtr(Cpu& c, const Insn& i) {
  const unsigned n = unsigned(i.l1) + 1;
  const uint64_t a = c.ea1(i) - (n - 1), table = c.ea2(i);  // ea1 names the rightmost byte
  HostBytes arg = host_bytes(c, a, n, false);
  for (unsigned k = 0; k < n; ++k) {
    const unsigned at = n - 1 - k;
    const uint8_t f = c.read<uint8_t>(table + arg[at]);
    if (f) {
      charge_tr(c, k + 1);
      c.gr[1] = a + at;
      c.gr[2] = (c.gr[2] & ~0xFFull) | f;
      c.cc = at == 0 ? 2 : 1;
      return;
    }
  }
  charge_tr(c, n);
  c.cc = 0;
}

// TRANSLATE EXTENDED: the first operand (address and length in the pair R1) byte by
// byte through the 256-byte table at R2, until the test byte (bits 56-63 of GR0): CC 1
// with R1 at it, 0 at the end. Up to a page per execution; CC 3 when more is left.
void tre(Cpu& c, const Insn& i) {
  check_even(i.r1);
  const uint64_t table = c.gr[i.r2];
  const uint8_t test = uint8_t(c.gr[0]);
  uint64_t a = c.gr[i.r1], len = c.gr[i.r1 + 1];
  const uint64_t n = std::min(len, page_rest(a));
  uint8_t* p = n ? c.span(a, n, true) : nullptr;
  uint64_t k = 0;
  for (; k < n && p[k] != test; ++k) p[k] = c.read<uint8_t>(table + p[k]);
  charge_tr(c, k + 1);
  c.gr[i.r1] = a + k, c.gr[i.r1 + 1] = len - k;
  c.cc = k < n ? 1 : len == k ? 0 : 3;
}

// CHECKSUM: the second operand (address and length in the pair R2) as 32-bit words,
// a short last word padded with zeros, added into bits 32-63 of R1 with the carries
// out of bit 32 added back in. Up to 4 KB per execution; CC 3 when more is left.
void cksm(Cpu& c, const Insn& i) {
  check_even(i.r2);
  uint64_t a = c.gr[i.r2], len = c.gr[i.r2 + 1];
  const uint64_t n = std::min<uint64_t>(len, kPageSize);
  uint64_t sum = c.r32(i.r1);
  uint64_t k = 0;
  for (; k < n; k += 4) {
    uint8_t word[4] = {};
    const uint64_t take = std::min<uint64_t>(4, len - k);
    for (uint64_t b = 0; b < take; ++b) word[b] = c.read<uint8_t>(a + k + b);
    sum += Cpu::load_be<uint32_t>(word);
    sum = (sum & 0xFFFFFFFFull) + (sum >> 32);
  }
  k = std::min(k, len);
  charge_string(c, k);
  c.set_r32(i.r1, uint32_t(sum));
  c.gr[i.r2] = a + k, c.gr[i.r2 + 1] = len - k;
  c.cc = len == k ? 0 : 3;
}

// COMPARE AND SWAP AND STORE: GR0 bits 56-63 the function (0: 4 bytes, 1: 8, 2: 16),
// bits 48-55 the store characteristic (the store value is 2^sc bytes, 0-4: the
// facility-2 forms are in); GR1 the
// parameter list (16-byte aligned): the replacement value at 0, the store value at 16.
// Equal to R3 (a pair for 16 bytes): replacement to operand 1, the store value to
// operand 2, CC 0; unequal: operand 1 into R3, CC 1.
void csst(Cpu& c, const Insn& i) {
  const unsigned fc = unsigned(c.gr[0] & 0xFF), sc = unsigned(c.gr[0] >> 8 & 0xFF);
  if (fc > 2 || sc > 4 || (fc == 2 && (i.r3 & 1))) program_check(Pic::Specification);
  const unsigned size = 4u << fc, store_size = 1u << sc;
  const uint64_t a1 = c.ea1(i), a2 = c.ea2(i), list = c.gr[1];
  if ((a1 & (size - 1)) || (a2 & (store_size - 1)) || (list & 15)) program_check(Pic::Specification);
  uint8_t* p1 = c.span(a1, size, true);
  uint8_t* p2 = c.span(a2, store_size, true);
  const uint8_t* replacement = c.span(list, 16, false);  // 16-byte aligned: one page each
  const uint8_t* store_value = c.span(list + 16, 16, false);
  uint8_t compare[16];
  if (fc == 0) Cpu::store_be<uint32_t>(compare, c.r32(i.r3));
  if (fc == 1) Cpu::store_be<uint64_t>(compare, c.gr[i.r3]);
  if (fc == 2) Cpu::store_be<uint64_t>(compare, c.gr[i.r3]), Cpu::store_be<uint64_t>(compare + 8, c.gr[i.r3 + 1]);
  if (std::memcmp(p1, compare, size) == 0) {
    std::memcpy(p1, replacement, size);
    std::memcpy(p2, store_value, store_size);
    c.cc = 0;
    return;
  }
  if (fc == 0) c.set_r32(i.r3, Cpu::load_be<uint32_t>(p1));
  if (fc == 1) c.gr[i.r3] = Cpu::load_be<uint64_t>(p1);
  if (fc == 2) c.gr[i.r3] = Cpu::load_be<uint64_t>(p1), c.gr[i.r3 + 1] = Cpu::load_be<uint64_t>(p1 + 8);
  c.cc = 1;
}

}  // namespace emu::isa
