// Vector integer instructions [Principles of Operation, chapter 22, "Vector Integer
// Instructions"], and the select, permute, merge, pack and unpack ones of chapter 21
// ("Vector Overview and Support Instructions"). Elements are unsigned
// element() values; the signed instructions sign-extend them (signed_of). Arithmetic
// wraps modulo the element size: none of these instructions sets an overflow.
#include "emu/isa/vector.h"

namespace emu::isa {

namespace {

using i128 = __int128;

int64_t signed_of(uint64_t v, unsigned es) {
  const unsigned unused = 64 - element_bits(es);
  return int64_t(v << unused) >> unused;
}

// A register from f(k), one element at a time.
template <class F> VectorRegister build(unsigned es, F f) {
  VectorRegister r;
  for (unsigned k = 0; k < element_count(es); ++k) set_element(r, es, k, f(k));
  return r;
}
// Element k of the result from element k of each operand.
template <class F> VectorRegister each(const VectorRegister& a, const VectorRegister& b, unsigned es, F f) {
  return build(es, [&](unsigned k) { return f(element(a, es, k), element(b, es, k)); });
}
template <class F> VectorRegister each(const VectorRegister& a, unsigned es, F f) {
  return build(es, [&](unsigned k) { return f(element(a, es, k)); });
}
template <class F> VectorRegister each_signed(const VectorRegister& a, const VectorRegister& b, unsigned es, F f) {
  return build(es, [&](unsigned k) { return uint64_t(f(signed_element(a, es, k), signed_element(b, es, k))); });
}

// The registers the V2, V3 and V4 fields name.
const VectorRegister& v2(const Cpu& c, const Insn& i) { return c.vr[i.r2]; }
const VectorRegister& v3(const Cpu& c, const Insn& i) { return c.vr[i.r3]; }
const VectorRegister& v4reg(const Cpu& c, const Insn& i) { return c.vr[v4(i)]; }

}  // namespace

// --- add and subtract [chapter 22: VECTOR ADD ... VECTOR SUBTRACT WITH BORROW
// COMPUTE BORROW INDICATION]: element sizes byte through quadword (ES 4). ------------

void va(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4, 4);
  if (es == 4) { c.vr[i.r1] = from_whole(whole(v2(c, i)) + whole(v3(c, i))); return; }
  c.vr[i.r1] = each(v2(c, i), v3(c, i), es, [](uint64_t a, uint64_t b) { return a + b; });
}

void vs(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4, 4);
  if (es == 4) { c.vr[i.r1] = from_whole(whole(v2(c, i)) - whole(v3(c, i))); return; }
  c.vr[i.r1] = each(v2(c, i), v3(c, i), es, [](uint64_t a, uint64_t b) { return a - b; });
}

// COMPUTE CARRY: 1 where the unsigned sum carries out of the element.
void vacc(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4, 4);
  if (es == 4) {
    const u128 a = whole(v2(c, i));
    c.vr[i.r1] = from_whole(a + whole(v3(c, i)) < a);
    return;
  }
  c.vr[i.r1] = each(v2(c, i), v3(c, i), es,
                    [es](uint64_t a, uint64_t b) { return uint64_t(((a + b) & element_mask(es)) < a); });
}

// COMPUTE BORROW INDICATION: 1 where the unsigned difference does not borrow.
void vscbi(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4, 4);
  if (es == 4) { c.vr[i.r1] = from_whole(whole(v2(c, i)) >= whole(v3(c, i))); return; }
  c.vr[i.r1] = each(v2(c, i), v3(c, i), es, [](uint64_t a, uint64_t b) { return uint64_t(a >= b); });
}

// The quadword-only forms (VRR-d, ES in M5 must be 4): the carry in is bit 127 of V4.
// Subtraction is addition of the complement of V3 [chapter 22, VECTOR SUBTRACT WITH
// BORROW INDICATION], so a carry of 1 means no borrow.
namespace {
void require_quadword(const Insn& i) {
  if (m5(i) != 4) program_check(Pic::Specification);
}
void add_with_carry(Cpu& c, const Insn& i, bool complement_v3, bool carry_out) {
  require_quadword(i);
  const u128 a = whole(v2(c, i)), b = complement_v3 ? ~whole(v3(c, i)) : whole(v3(c, i));
  const unsigned carry_in = v4reg(c, i).lo & 1;
  const u128 sum = a + b + carry_in;
  const bool carry = sum < a || (carry_in && sum == a);
  c.vr[i.r1] = carry_out ? from_whole(carry) : from_whole(sum);
}
}  // namespace
void vac(Cpu& c, const Insn& i) { add_with_carry(c, i, false, false); }
void vaccc(Cpu& c, const Insn& i) { add_with_carry(c, i, false, true); }
void vsbi(Cpu& c, const Insn& i) { add_with_carry(c, i, true, false); }
void vsbcbi(Cpu& c, const Insn& i) { add_with_carry(c, i, true, true); }

// --- average: (a + b + 1) / 2 with one bit more than the element, rounded up. -------

void vavg(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4);
  c.vr[i.r1] = each_signed(v2(c, i), v3(c, i), es, [](int64_t a, int64_t b) {
    return int64_t((i128(a) + b + 1) >> 1);
  });
}
void vavgl(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4);
  c.vr[i.r1] = each(v2(c, i), v3(c, i), es, [](uint64_t a, uint64_t b) {
    return uint64_t((u128(a) + b + 1) >> 1);
  });
}

// VECTOR CHECKSUM: the words of V2 and word 1 of V3 added with end-around carry,
// into word 1; the other words are zero.
void vcksm(Cpu& c, const Insn& i) {
  uint32_t sum = uint32_t(element(v3(c, i), 2, 1));
  for (unsigned k = 0; k < 4; ++k) {
    const uint64_t wide = uint64_t(sum) + element(v2(c, i), 2, k);
    sum = uint32_t(wide + (wide >> 32));
  }
  VectorRegister r;
  set_element(r, 2, 1, sum);
  c.vr[i.r1] = r;
}

// --- compares ----------------------------------------------------------------------

// VECTOR ELEMENT COMPARE (LOGICAL): only the rightmost element of doubleword 0 of V1
// and V2; CC 0 equal, 1 first low, 2 first high.
void vec(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3), k = element_count(es) / 2 - 1;
  c.cc = cc_compare(signed_element(c.vr[i.r1], es, k), signed_element(v2(c, i), es, k));
}
void vecl(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3), k = element_count(es) / 2 - 1;
  c.cc = cc_compare(element(c.vr[i.r1], es, k), element(v2(c, i), es, k));
}

namespace {
// VECTOR COMPARE EQUAL / HIGH (LOGICAL): all ones where true. With the CS bit (M5 bit
// 3), CC 0 when every element is true, 1 when some are, 3 when none is.
template <class P> void compare_elements(Cpu& c, const Insn& i, P true_of) {
  const unsigned es = element_size(i.m4);
  unsigned hits = 0;
  c.vr[i.r1] = build(es, [&](unsigned k) -> uint64_t {
    const bool t = true_of(es, k);
    hits += t;
    return t ? ~0ull : 0;
  });
  if (m5(i) & 1) c.cc = hits == element_count(es) ? 0 : hits ? 1 : 3;
}
}  // namespace
void vceq(Cpu& c, const Insn& i) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  compare_elements(c, i, [&](unsigned es, unsigned k) { return element(a, es, k) == element(b, es, k); });
}
void vch(Cpu& c, const Insn& i) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  compare_elements(c, i, [&](unsigned es, unsigned k) { return signed_element(a, es, k) > signed_element(b, es, k); });
}
void vchl(Cpu& c, const Insn& i) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  compare_elements(c, i, [&](unsigned es, unsigned k) { return element(a, es, k) > element(b, es, k); });
}

// VECTOR TEST UNDER MASK: the bits of V1 that V2 selects; CC 0 all zero (or no bit
// selected), 1 mixed, 3 all one.
void vtm(Cpu& c, const Insn& i) {
  const u128 mask = whole(v2(c, i)), selected = whole(c.vr[i.r1]) & mask;
  c.cc = selected == 0 ? 0 : selected == mask ? 3 : 1;
}

// --- counts ------------------------------------------------------------------------

void vclz(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3), bits = element_bits(es);
  c.vr[i.r1] = each(v2(c, i), es, [bits](uint64_t v) -> uint64_t {
    return v ? unsigned(__builtin_clzll(v)) - (64 - bits) : bits;
  });
}
void vctz(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3), bits = element_bits(es);
  c.vr[i.r1] = each(v2(c, i), es, [bits](uint64_t v) -> uint64_t { return v ? unsigned(__builtin_ctzll(v)) : bits; });
}
// VECTOR POPULATION COUNT: bytes only, unless vector-enhancements facility 1 is
// installed, which adds halfwords, words and doublewords.
void vpopct(Cpu& c, const Insn& i) {
  const bool sizes = facility_installed(Facility::VectorEnhancements1, c.arch());
  const unsigned es = element_size(i.m3, sizes ? 3 : 0);
  c.vr[i.r1] = each(v2(c, i), es, [](uint64_t v) -> uint64_t { return unsigned(__builtin_popcountll(v)); });
}

// --- Galois-field multiply sum [chapter 22, VECTOR GALOIS FIELD MULTIPLY SUM (AND
// ACCUMULATE)]: carry-less products of the even and the odd element, exclusive-ORed
// into an element of twice the size (a quadword for doublewords). -------------------

namespace {
u128 carryless_product(uint64_t a, uint64_t b) {
  u128 r = 0;
  for (unsigned bit = 0; bit < 64; ++bit)
    if (b >> bit & 1) r ^= u128(a) << bit;
  return r;
}
VectorRegister galois_multiply_sum(const VectorRegister& a, const VectorRegister& b, unsigned es) {
  if (es == 3)
    return from_whole(carryless_product(a.hi, b.hi) ^ carryless_product(a.lo, b.lo));
  return build(es + 1, [&](unsigned k) {
    return uint64_t(carryless_product(element(a, es, 2 * k), element(b, es, 2 * k)) ^
                    carryless_product(element(a, es, 2 * k + 1), element(b, es, 2 * k + 1)));
  });
}
}  // namespace
void vgfm(Cpu& c, const Insn& i) {
  c.vr[i.r1] = galois_multiply_sum(v2(c, i), v3(c, i), element_size(i.m4));
}
void vgfma(Cpu& c, const Insn& i) {
  const u128 sum = whole(galois_multiply_sum(v2(c, i), v3(c, i), element_size(m5(i))));
  c.vr[i.r1] = from_whole(sum ^ whole(v4reg(c, i)));
}

// --- complement, positive, maximum, minimum ------------------------------------------

void vlc(Cpu& c, const Insn& i) {
  c.vr[i.r1] = each(v2(c, i), element_size(i.m3), [](uint64_t v) { return 0 - v; });
}
// The maximum negative number stays itself, as for LOAD POSITIVE.
void vlp(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3);
  c.vr[i.r1] = each(v2(c, i), es, [es](uint64_t v) { return signed_of(v, es) < 0 ? 0 - v : v; });
}

void vmx(Cpu& c, const Insn& i) {
  c.vr[i.r1] = each_signed(v2(c, i), v3(c, i), element_size(i.m4), [](int64_t a, int64_t b) { return std::max(a, b); });
}
void vmn(Cpu& c, const Insn& i) {
  c.vr[i.r1] = each_signed(v2(c, i), v3(c, i), element_size(i.m4), [](int64_t a, int64_t b) { return std::min(a, b); });
}
void vmxl(Cpu& c, const Insn& i) {
  c.vr[i.r1] = each(v2(c, i), v3(c, i), element_size(i.m4), [](uint64_t a, uint64_t b) { return std::max(a, b); });
}
void vmnl(Cpu& c, const Insn& i) {
  c.vr[i.r1] = each(v2(c, i), v3(c, i), element_size(i.m4), [](uint64_t a, uint64_t b) { return std::min(a, b); });
}

// --- multiply [chapter 22, VECTOR MULTIPLY ... VECTOR MULTIPLY AND ADD]: byte,
// halfword and word elements, so every product fits in 64 bits. ---------------------

namespace {
int64_t signed_product(uint64_t a, uint64_t b, unsigned es) { return signed_of(a, es) * signed_of(b, es); }

// The low or high half of a * b (+ c), of one element's size.
void multiply_half(Cpu& c, const Insn& i, unsigned es, bool is_signed, bool high, const VectorRegister* addend) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  const unsigned bits = element_bits(es);
  c.vr[i.r1] = build(es, [&](unsigned k) -> uint64_t {
    const uint64_t x = element(a, es, k), y = element(b, es, k), z = addend ? element(*addend, es, k) : 0;
    if (is_signed) {
      const int64_t full = signed_product(x, y, es) + (addend ? signed_of(z, es) : 0);
      return uint64_t(high ? full >> bits : full);
    }
    const uint64_t full = x * y + z;
    return high ? full >> bits : full;
  });
}

// The even (0, 2, ...) or odd (1, 3, ...) elements multiplied into elements of twice
// the size, plus those of V4 for the multiply-and-add forms.
void multiply_wide(Cpu& c, const Insn& i, unsigned es, bool is_signed, unsigned odd, const VectorRegister* addend) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  c.vr[i.r1] = build(es + 1, [&](unsigned k) -> uint64_t {
    const uint64_t x = element(a, es, 2 * k + odd), y = element(b, es, 2 * k + odd);
    const uint64_t z = addend ? element(*addend, es + 1, k) : 0;
    return (is_signed ? uint64_t(signed_product(x, y, es)) : x * y) + z;
  });
}
}  // namespace
void vml(Cpu& c, const Insn& i) { multiply_half(c, i, element_size(i.m4, 2), false, false, nullptr); }
void vmh(Cpu& c, const Insn& i) { multiply_half(c, i, element_size(i.m4, 2), true, true, nullptr); }
void vmlh(Cpu& c, const Insn& i) { multiply_half(c, i, element_size(i.m4, 2), false, true, nullptr); }
void vme(Cpu& c, const Insn& i) { multiply_wide(c, i, element_size(i.m4, 2), true, 0, nullptr); }
void vmle(Cpu& c, const Insn& i) { multiply_wide(c, i, element_size(i.m4, 2), false, 0, nullptr); }
void vmo(Cpu& c, const Insn& i) { multiply_wide(c, i, element_size(i.m4, 2), true, 1, nullptr); }
void vmlo(Cpu& c, const Insn& i) { multiply_wide(c, i, element_size(i.m4, 2), false, 1, nullptr); }

// The multiply-and-add forms are VRR-d: element size in M5, addend in V4 (copied,
// as V1 may be V4).
void vmal(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_half(c, i, element_size(m5(i), 2), false, false, &z);
}
void vmah(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_half(c, i, element_size(m5(i), 2), true, true, &z);
}
void vmalh(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_half(c, i, element_size(m5(i), 2), false, true, &z);
}
void vmae(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_wide(c, i, element_size(m5(i), 2), true, 0, &z);
}
void vmale(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_wide(c, i, element_size(m5(i), 2), false, 0, &z);
}
void vmao(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_wide(c, i, element_size(m5(i), 2), true, 1, &z);
}
void vmalo(Cpu& c, const Insn& i) {
  const VectorRegister z = v4reg(c, i);
  multiply_wide(c, i, element_size(m5(i), 2), false, 1, &z);
}

// VECTOR MULTIPLY SUM LOGICAL (vector-enhancements facility 1): doublewords only (M5
// 3); the two 128-bit products, each doubled when its M6 bit (8 even, 4 odd) says so,
// plus V4, modulo 2**128.
void vmsl(Cpu& c, const Insn& i) {
  if (m5(i) != 3) program_check(Pic::Specification);
  const VectorRegister a = v2(c, i), b = v3(c, i);
  const u128 even = u128(a.hi) * b.hi << ((m6(i) >> 3) & 1);
  const u128 odd = u128(a.lo) * b.lo << ((m6(i) >> 2) & 1);
  c.vr[i.r1] = from_whole(even + odd + whole(v4reg(c, i)));
}

// --- logical [chapter 22, VECTOR AND ... VECTOR OR WITH COMPLEMENT]: bitwise on the
// whole register. --------------------------------------------------------------------

namespace {
template <class F> void bitwise(Cpu& c, const Insn& i, F f) {
  c.vr[i.r1] = from_whole(f(whole(v2(c, i)), whole(v3(c, i))));
}
}  // namespace
void vn(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return a & b; }); }
void vnc(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return a & ~b; }); }
void vo(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return a | b; }); }
void vx(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return a ^ b; }); }
void vno(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return ~(a | b); }); }
void vnn(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return ~(a & b); }); }
void vnx(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return ~(a ^ b); }); }
void voc(Cpu& c, const Insn& i) { bitwise(c, i, [](u128 a, u128 b) { return a | ~b; }); }

// VECTOR SELECT: bits of V2 where V4 has ones, of V3 where it has zeros.
void vsel(Cpu& c, const Insn& i) {
  const u128 mask = whole(v4reg(c, i));
  c.vr[i.r1] = from_whole((whole(v2(c, i)) & mask) | (whole(v3(c, i)) & ~mask));
}

// --- permutes and merges [chapter 21] -----------------------------------------------

// VECTOR PERMUTE: byte k is byte (bits 3-7 of byte k of V4) of V2 followed by V3.
void vperm(Cpu& c, const Insn& i) {
  uint8_t source[32], index[16];
  to_bytes(v2(c, i), source), to_bytes(v3(c, i), source + 16), to_bytes(v4reg(c, i), index);
  uint8_t out[16];
  for (unsigned k = 0; k < 16; ++k) out[k] = source[index[k] & 31];
  c.vr[i.r1] = from_bytes(out);
}

// VECTOR PERMUTE DOUBLEWORD IMMEDIATE: M4 bit 1 picks V2's doubleword, bit 3 V3's.
void vpdi(Cpu& c, const Insn& i) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  c.vr[i.r1] = {i.m4 & 4 ? a.lo : a.hi, i.m4 & 1 ? b.lo : b.hi};
}

// VECTOR BIT PERMUTE (vector-enhancements facility 1): bit k of the 16-bit result is
// the bit of V2 that byte k of V3 numbers (zero for numbers past 127); the result is
// bits 48-63 of V1, the rest zero.
void vbperm(Cpu& c, const Insn& i) {
  const u128 source = whole(v2(c, i));
  uint64_t bits = 0;
  for (unsigned k = 0; k < 16; ++k) {
    const unsigned n = unsigned(element(v3(c, i), 0, k));
    const bool bit = n < 128 && (source >> (127 - n) & 1);
    bits |= uint64_t(bit) << (15 - k);
  }
  c.vr[i.r1] = {bits, 0};
}

namespace {
// VECTOR MERGE HIGH / LOW: the elements of the left (high) or right (low) half of
// V2 and V3, alternately.
void merge(Cpu& c, const Insn& i, bool low) {
  const unsigned es = element_size(i.m4), first = low ? element_count(es) / 2 : 0;
  const VectorRegister a = v2(c, i), b = v3(c, i);
  c.vr[i.r1] = build(es, [&](unsigned k) { return element(k & 1 ? b : a, es, first + k / 2); });
}
}  // namespace
void vmrh(Cpu& c, const Insn& i) { merge(c, i, false); }
void vmrl(Cpu& c, const Insn& i) { merge(c, i, true); }

// --- pack and unpack [chapter 21]: M4 names the size of pack's source elements
// (halfword to doubleword), M3 that of unpack's (byte to word). ----------------------

namespace {
unsigned pack_size(unsigned m) {
  if (m < 1 || m > 3) program_check(Pic::Specification);
  return m;
}
// Element k of V2 followed by V3, of size `es`.
uint64_t pack_source(const VectorRegister& a, const VectorRegister& b, unsigned es, unsigned k) {
  const unsigned n = element_count(es);
  return k < n ? element(a, es, k) : element(b, es, k - n);
}
// The saturating packs: with the CS bit (M5 bit 3), CC 0 when no element saturated,
// 1 when some did, 3 when all did.
template <class Saturate> void pack_saturating(Cpu& c, const Insn& i, Saturate saturate) {
  const unsigned es = pack_size(i.m4);
  const VectorRegister a = v2(c, i), b = v3(c, i);
  unsigned saturated = 0;
  c.vr[i.r1] = build(es - 1, [&](unsigned k) {
    bool sat = false;
    const uint64_t v = saturate(pack_source(a, b, es, k), es, sat);
    saturated += sat;
    return v;
  });
  if (m5(i) & 1) c.cc = saturated == element_count(es - 1) ? 3 : saturated ? 1 : 0;
}
}  // namespace
void vpk(Cpu& c, const Insn& i) {
  const unsigned es = pack_size(i.m4);
  const VectorRegister a = v2(c, i), b = v3(c, i);
  c.vr[i.r1] = build(es - 1, [&](unsigned k) { return pack_source(a, b, es, k); });
}
void vpks(Cpu& c, const Insn& i) {
  pack_saturating(c, i, [](uint64_t v, unsigned es, bool& sat) -> uint64_t {
    const int64_t x = signed_of(v, es), half = int64_t(1) << (element_bits(es - 1) - 1);
    sat = x >= half || x < -half;
    return uint64_t(std::clamp(x, -half, half - 1));
  });
}
void vpkls(Cpu& c, const Insn& i) {
  pack_saturating(c, i, [](uint64_t v, unsigned es, bool& sat) -> uint64_t {
    const uint64_t top = element_mask(es - 1);
    sat = v > top;
    return std::min(v, top);
  });
}

namespace {
// The elements of the left (high) or right (low) half of V2, sign-extended or
// zero-extended to twice their size.
void unpack(Cpu& c, const Insn& i, bool low, bool is_signed) {
  const unsigned es = element_size(i.m3, 2), first = low ? element_count(es) / 2 : 0;
  const VectorRegister a = v2(c, i);
  c.vr[i.r1] = build(es + 1, [&](unsigned k) {
    return is_signed ? uint64_t(signed_element(a, es, first + k)) : element(a, es, first + k);
  });
}
}  // namespace
void vuph(Cpu& c, const Insn& i) { unpack(c, i, false, true); }
void vupl(Cpu& c, const Insn& i) { unpack(c, i, true, true); }
void vuplh(Cpu& c, const Insn& i) { unpack(c, i, false, false); }
void vupll(Cpu& c, const Insn& i) { unpack(c, i, true, false); }

// VECTOR SIGN EXTEND TO DOUBLEWORD: the rightmost element (byte, halfword, word) of
// each doubleword.
void vseg(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3, 2), per_doubleword = element_count(es) / 2;
  const VectorRegister a = v2(c, i);
  c.vr[i.r1] = build(3, [&](unsigned k) { return uint64_t(signed_element(a, es, per_doubleword * (k + 1) - 1)); });
}

// --- element shifts [chapter 22, VECTOR ELEMENT ROTATE / SHIFT]: the count is
// modulo the element size; from the second-operand address (VRS-a, V3 the source)
// or from the element of V3 (VRR-c, V2 the source). ---------------------------------

namespace {
uint64_t rotate_left(uint64_t v, unsigned n, unsigned es) {
  const unsigned bits = element_bits(es);
  n %= bits;
  return n ? ((v << n) | (v >> (bits - n))) & element_mask(es) : v;
}
uint64_t shift_left(uint64_t v, unsigned n, unsigned es) { return v << (n % element_bits(es)); }
uint64_t shift_right_logical(uint64_t v, unsigned n, unsigned es) { return v >> (n % element_bits(es)); }
uint64_t shift_right_arithmetic(uint64_t v, unsigned n, unsigned es) {
  return uint64_t(signed_of(v, es) >> (n % element_bits(es)));
}

using ElementShift = uint64_t (*)(uint64_t, unsigned, unsigned);
void shift_by_address(Cpu& c, const Insn& i, ElementShift f) {
  const unsigned es = element_size(i.m4), n = unsigned(c.ea2(i) & 63);
  c.vr[i.r1] = each(v3(c, i), es, [&](uint64_t v) { return f(v, n, es); });
}
void shift_by_elements(Cpu& c, const Insn& i, ElementShift f) {
  const unsigned es = element_size(i.m4);
  c.vr[i.r1] = each(v2(c, i), v3(c, i), es, [&](uint64_t v, uint64_t n) { return f(v, unsigned(n & 63), es); });
}
}  // namespace
void verll(Cpu& c, const Insn& i) { shift_by_address(c, i, rotate_left); }
void vesl(Cpu& c, const Insn& i) { shift_by_address(c, i, shift_left); }
void vesra(Cpu& c, const Insn& i) { shift_by_address(c, i, shift_right_arithmetic); }
void vesrl(Cpu& c, const Insn& i) { shift_by_address(c, i, shift_right_logical); }
void verllv(Cpu& c, const Insn& i) { shift_by_elements(c, i, rotate_left); }
void veslv(Cpu& c, const Insn& i) { shift_by_elements(c, i, shift_left); }
void vesrav(Cpu& c, const Insn& i) { shift_by_elements(c, i, shift_right_arithmetic); }
void vesrlv(Cpu& c, const Insn& i) { shift_by_elements(c, i, shift_right_logical); }

// VECTOR ELEMENT ROTATE AND INSERT UNDER MASK: each element of V2 rotated left by I4
// replaces the bits of V1 that V3's element selects.
void verim(Cpu& c, const Insn& i) {
  const unsigned es = element_size(m5(i)), n = unsigned(i.imm);
  const VectorRegister a = v2(c, i), mask = v3(c, i), old = c.vr[i.r1];
  c.vr[i.r1] = build(es, [&](unsigned k) {
    const uint64_t m = element(mask, es, k);
    return (rotate_left(element(a, es, k), n, es) & m) | (element(old, es, k) & ~m);
  });
}

// --- whole-register shifts [chapter 22, VECTOR SHIFT LEFT ... VECTOR SHIFT RIGHT
// LOGICAL BY BYTE]. The bit shifts take a count of 0-7 from bits 5-7 of each byte of
// V3, for that byte of V2, the bits shifted in coming from the neighbouring byte:
// vector-enhancements facility 2 defines this; before it, the counts had to be equal
// (unpredictable otherwise), which the same rule covers. The byte shifts take 0-15
// bytes from bits 1-4 of byte 7 of V3. ---------------------------------------------

namespace {
// Byte k of the result from bytes k-1, k and k+1 of V2 (`before` and `after` stand
// beyond the ends) and its count.
template <class F> void shift_bytes(Cpu& c, const Insn& i, uint8_t before, F f) {
  uint8_t src[18], count[16], out[16];
  src[0] = before, src[17] = 0;
  to_bytes(v2(c, i), src + 1), to_bytes(v3(c, i), count);
  for (unsigned k = 0; k < 16; ++k) out[k] = f(src[k], src[k + 1], src[k + 2], count[k] & 7);
  c.vr[i.r1] = from_bytes(out);
}
unsigned byte_count(const Cpu& c, const Insn& i) { return (byte_of(v3(c, i), 7) >> 3) & 15; }
}  // namespace
void vsl(Cpu& c, const Insn& i) {
  shift_bytes(c, i, 0, [](unsigned, unsigned self, unsigned next, unsigned n) {
    return uint8_t(((self << 8 | next) << n) >> 8);
  });
}
void vsrl(Cpu& c, const Insn& i) {
  shift_bytes(c, i, 0, [](unsigned prev, unsigned self, unsigned, unsigned n) { return uint8_t((prev << 8 | self) >> n); });
}
void vsra(Cpu& c, const Insn& i) {
  const uint8_t sign = (v2(c, i).hi >> 63) ? 0xFF : 0;
  shift_bytes(c, i, sign, [](unsigned prev, unsigned self, unsigned, unsigned n) { return uint8_t((prev << 8 | self) >> n); });
}
void vslb(Cpu& c, const Insn& i) { c.vr[i.r1] = from_whole(whole(v2(c, i)) << (8 * byte_count(c, i))); }
void vsrlb(Cpu& c, const Insn& i) { c.vr[i.r1] = from_whole(whole(v2(c, i)) >> (8 * byte_count(c, i))); }
void vsrab(Cpu& c, const Insn& i) {
  c.vr[i.r1] = from_whole(u128(i128(whole(v2(c, i))) >> (8 * byte_count(c, i))));
}

// VECTOR SHIFT LEFT DOUBLE BY BYTE: bytes I4 to I4 + 15 of V2 followed by V3.
// VECTOR SHIFT LEFT / RIGHT DOUBLE BY BIT (vector-enhancements facility 2): bits I4
// to I4 + 127 of the pair, or its rightmost 128 bits shifted right I4 bits. A count
// past 15 bytes or 7 bits is a specification exception.
namespace {
unsigned double_shift_count(const Insn& i, unsigned max) {
  if (i.imm > max) program_check(Pic::Specification);
  return unsigned(i.imm);
}
}  // namespace
void vsldb(Cpu& c, const Insn& i) {
  const unsigned n = double_shift_count(i, 15);
  uint8_t source[32];
  to_bytes(v2(c, i), source), to_bytes(v3(c, i), source + 16);
  c.vr[i.r1] = from_bytes(source + n);
}
void vsld(Cpu& c, const Insn& i) {
  const unsigned n = double_shift_count(i, 7);
  const u128 a = whole(v2(c, i)), b = whole(v3(c, i));
  c.vr[i.r1] = from_whole(n ? (a << n) | (b >> (128 - n)) : a);
}
void vsrd(Cpu& c, const Insn& i) {
  const unsigned n = double_shift_count(i, 7);
  const u128 a = whole(v2(c, i)), b = whole(v3(c, i));
  c.vr[i.r1] = from_whole(n ? (b >> n) | (a << (128 - n)) : b);
}

// --- sums across [chapter 22, VECTOR SUM ACROSS WORD / DOUBLEWORD / QUADWORD]: the
// elements of V2 within each result element, plus the rightmost element of V3 within
// it, modulo the result size. ----------------------------------------------------------

namespace {
void sum_across(Cpu& c, const Insn& i, unsigned es, unsigned result_es) {
  const VectorRegister a = v2(c, i), b = v3(c, i);
  const unsigned per = element_count(es) / element_count(result_es);
  if (result_es == 4) {
    u128 sum = element(b, es, per - 1);
    for (unsigned k = 0; k < per; ++k) sum += element(a, es, k);
    c.vr[i.r1] = from_whole(sum);
    return;
  }
  c.vr[i.r1] = build(result_es, [&](unsigned r) {
    uint64_t sum = element(b, es, per * (r + 1) - 1);
    for (unsigned k = per * r; k < per * (r + 1); ++k) sum += element(a, es, k);
    return sum;
  });
}
unsigned sum_size(unsigned m, unsigned lowest, unsigned highest) {
  if (m < lowest || m > highest) program_check(Pic::Specification);
  return m;
}
}  // namespace
void vsum(Cpu& c, const Insn& i) { sum_across(c, i, sum_size(i.m4, 0, 1), 2); }
void vsumg(Cpu& c, const Insn& i) { sum_across(c, i, sum_size(i.m4, 1, 2), 3); }
void vsumq(Cpu& c, const Insn& i) { sum_across(c, i, sum_size(i.m4, 2, 3), 4); }

}  // namespace emu::isa
