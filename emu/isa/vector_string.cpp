// Vector string instructions [Principles of Operation, chapter 23, "Vector String
// Instructions"], and the vector loads and stores of the vector-packed-decimal facility
// (z14) and of vector-enhancements facility 2 (z15) [chapter 21].
//
// The string instructions work on elements of a byte, halfword or word (a larger
// element size is a specification exception) and report positions as byte indices:
// 16 means "none". Their flags (M5, or M6 of VSTRC) are: IN (8) invert the comparison
// result, RT (4) return a mask of the elements instead of an index, ZS (2) also
// search the second operand for a zero element, CS (1) set the condition code.
#include <algorithm>

#include "emu/isa/vector.h"

namespace emu::isa {
namespace {

constexpr unsigned kInvert = 8, kResultType = 4, kZeroSearch = 2, kSetCc = 1;
constexpr unsigned kNone = 16;  // byte index meaning "not found"

unsigned string_element_size(unsigned m) { return element_size(m, 2); }

// A register's elements of one size, unpacked once for the searches.
struct Elements {
  unsigned es = 0, n = 0;
  uint32_t e[16] = {};
};
Elements elements_of(const VectorRegister& v, unsigned es) {
  uint8_t b[16];
  to_bytes(v, b);
  Elements x;
  x.es = es, x.n = element_count(es);
  const unsigned size = 1u << es;
  for (unsigned k = 0; k < x.n; ++k)
    for (unsigned j = 0; j < size; ++j) x.e[k] = x.e[k] << 8 | b[k * size + j];
  return x;
}
unsigned byte_index(const Elements& x, unsigned k) { return k << x.es; }

// Byte index of the first zero element, or kNone.
unsigned first_zero(const Elements& x) {
  for (unsigned k = 0; k < x.n; ++k)
    if (x.e[k] == 0) return byte_index(x, k);
  return kNone;
}
// The zero search of the ZS flag: kNone when the flag is off.
unsigned zero_search(const Elements& x, unsigned flags) { return (flags & kZeroSearch) ? first_zero(x) : kNone; }

// The index result: the byte index in byte 7 (the rightmost byte of doubleword 0),
// every other byte zero.
VectorRegister index_result(unsigned byte) { return {byte, 0}; }

// The condition code of VFAE, VFEE and VSTRC: 0 a zero element came first (or no
// match before it), 1 a match and no zero element, 2 a match before a zero element,
// 3 neither.
uint8_t search_cc(unsigned match, unsigned zero) {
  if (match == kNone && zero == kNone) return 3;
  if (zero == kNone) return 1;
  return match < zero ? 2 : 0;
}

// Flag bits an instruction does not define must be zero [each instruction's "Program
// Exceptions"].
void check_flags(unsigned flags, unsigned defined) {
  if (flags & ~defined) program_check(Pic::Specification);
}

// The result of a find or range compare: with RT the mask of the matching elements,
// else the byte index of the first match or zero element, whichever comes first.
void store_search(Cpu& c, const Insn& i, unsigned flags, const VectorRegister& mask, unsigned match,
                  unsigned zero) {
  c.vr[i.r1] = (flags & kResultType) ? mask : index_result(std::min(match, zero));
  if (flags & kSetCc) c.cc = search_cc(match, zero);
}

bool equals_any(uint32_t e, const Elements& set) {
  for (unsigned j = 0; j < set.n; ++j)
    if (set.e[j] == e) return true;
  return false;
}

// VECTOR STRING RANGE COMPARE: the control element of each range bound holds, in its
// leftmost bits, which relations of the element to the bound satisfy it: equal (bit 0),
// low (bit 1, the element below the bound), high (bit 2).
bool satisfies(uint32_t e, uint32_t bound, uint32_t control, unsigned es) {
  const unsigned top = element_bits(es) - 1;
  const bool equal = control >> top & 1, low = control >> (top - 1) & 1, high = control >> (top - 2) & 1;
  return e < bound ? low : e > bound ? high : equal;
}
// Ranges are pairs of elements of V3 (bounds) and V4 (their controls); an element is in
// range when it satisfies both bounds of some pair.
bool in_any_range(uint32_t e, const Elements& bounds, const Elements& controls) {
  for (unsigned j = 0; j + 1 < bounds.n; j += 2)
    if (satisfies(e, bounds.e[j], controls.e[j], bounds.es) &&
        satisfies(e, bounds.e[j + 1], controls.e[j + 1], bounds.es))
      return true;
  return false;
}

// The result of VSTRS: where the match starts and the CC.
struct SubstringMatch {
  unsigned element;
  uint8_t cc;  // 0 no match, 1 no match and a zero element, 2 full match, 3 partial match
};
// VECTOR STRING SEARCH: the first position of the second operand where the substring
// (the first `length` elements of the third operand) starts, or where a prefix of it
// runs up to the end of the register (a partial match, CC 3). With ZS the substring
// ends at its first zero element, and a match that starts after the searched string's
// first zero does not count: no match, CC 1, and so there is no partial match either
// ["VECTOR STRING SEARCH": "there can not be a partial match"]. No match: index 16.
SubstringMatch find_substring(const Elements& str, const Elements& sub, unsigned length, bool zs) {
  if (zs) {
    length = std::min(length, sub.n);
    for (unsigned k = 0; k < length; ++k)
      if (sub.e[k] == 0) length = k;
  }
  if (length == 0) return {0, 2};  // the empty substring matches at once
  unsigned end = str.n;  // the searched string's first zero element, with ZS
  if (zs)
    for (unsigned k = 0; k < str.n && end == str.n; ++k)
      if (str.e[k] == 0) end = k;
  for (unsigned k = 0; k < str.n; ++k) {
    const unsigned stop = std::min(str.n, k + length);
    unsigned j = k;
    while (j < stop && str.e[j] == sub.e[j - k]) ++j;
    if (j < stop) continue;
    if (k > end) return {str.n, 1};
    return {k, uint8_t(stop - k == length ? 2 : 3)};
  }
  return {str.n, uint8_t(end < str.n ? 1 : 0)};
}

// --- loads and stores -------------------------------------------------------------------
// Byte permutations of the reversing loads and stores, applied to the 16 bytes in
// storage order; each is its own inverse, so loads and stores share them.
void reverse_bytes_of_elements(uint8_t b[16], unsigned size) {
  for (unsigned k = 0; k < 16; k += size) std::reverse(b + k, b + k + size);
}
void reverse_element_order(uint8_t b[16], unsigned size) {
  std::reverse(b, b + 16);
  reverse_bytes_of_elements(b, size);
}
template <class Permute> VectorRegister permuted(const VectorRegister& v, unsigned size, Permute permute) {
  uint8_t b[16];
  to_bytes(v, b);
  permute(b, size);
  return from_bytes(b);
}

// Element sizes of the reversing instructions: halfword to doubleword, and the
// quadword for the byte-reversed whole register (VLBR, VSTBR).
unsigned reversed_element_size(unsigned m, unsigned max) {
  if (m < 1 || m > max) program_check(Pic::Specification);
  return m;
}

uint64_t byte_reversed(uint64_t v, unsigned es) {
  switch (es) {
    case 1: return __builtin_bswap16(uint16_t(v));
    case 2: return __builtin_bswap32(uint32_t(v));
    default: return __builtin_bswap64(v);
  }
}
uint64_t read_element(Cpu& c, uint64_t a, unsigned es) {
  switch (es) {
    case 1: return c.read<uint16_t>(a);
    case 2: return c.read<uint32_t>(a);
    default: return c.read<uint64_t>(a);
  }
}
void write_element(Cpu& c, uint64_t a, unsigned es, uint64_t v) {
  switch (es) {
    case 1: c.write<uint16_t>(a, uint16_t(v)); break;
    case 2: c.write<uint32_t>(a, uint32_t(v)); break;
    default: c.write<uint64_t>(a, v); break;
  }
}
uint64_t read_reversed_element(Cpu& c, const Insn& i, unsigned es) {
  return byte_reversed(read_element(c, c.ea2(i), es), es);
}

// Element M3 of the byte-reversed element loads and stores (a specification exception
// past the last element).
unsigned element_number(unsigned m, unsigned es) {
  if (m >= element_count(es)) program_check(Pic::Specification);
  return m;
}

// Bytes of the load/store rightmost with length: the highest byte index, at most 15.
unsigned rightmost_length(uint64_t highest) { return unsigned(std::min<uint64_t>(highest, 15)) + 1; }
void load_rightmost(Cpu& c, const Insn& i, unsigned n) {
  c.vr[i.r1] = from_whole(whole(load_bytes(c, c.ea2(i), n)) >> (8 * (16 - n)));
}
void store_rightmost(Cpu& c, const Insn& i, unsigned n) {
  store_bytes(c, c.ea2(i), from_whole(whole(c.vr[i.r1]) << (8 * (16 - n))), n);
}

}  // namespace

// --- string searches ----------------------------------------------------------------------
// VECTOR FIND ANY ELEMENT EQUAL: each element of V2 against every element of V3.
void vfae(Cpu& c, const Insn& i) {
  const unsigned es = string_element_size(i.m4), flags = m5(i);
  const Elements a = elements_of(c.vr[i.r2], es), set = elements_of(c.vr[i.r3], es);
  VectorRegister mask{};
  unsigned match = kNone;
  for (unsigned k = 0; k < a.n; ++k) {
    if (equals_any(a.e[k], set) == bool(flags & kInvert)) continue;
    set_element(mask, es, k, ~0ull);
    match = std::min(match, byte_index(a, k));
  }
  store_search(c, i, flags, mask, match, zero_search(a, flags));
}

// VECTOR FIND ELEMENT EQUAL: element k of V2 against element k of V3.
void vfee(Cpu& c, const Insn& i) {
  const unsigned es = string_element_size(i.m4), flags = m5(i);
  check_flags(flags, kZeroSearch | kSetCc);
  const Elements a = elements_of(c.vr[i.r2], es), b = elements_of(c.vr[i.r3], es);
  unsigned match = kNone;
  for (unsigned k = 0; k < a.n && match == kNone; ++k)
    if (a.e[k] == b.e[k]) match = byte_index(a, k);
  store_search(c, i, flags, {}, match, zero_search(a, flags));
}

// VECTOR FIND ELEMENT NOT EQUAL: the first unequal pair; the CC tells which operand's
// element is the lower (1: V2's, 2: V3's), as a string compare needs; 0 when a zero
// element of V2 comes first, 3 all equal and no zero.
void vfene(Cpu& c, const Insn& i) {
  const unsigned es = string_element_size(i.m4), flags = m5(i);
  check_flags(flags, kZeroSearch | kSetCc);
  const Elements a = elements_of(c.vr[i.r2], es), b = elements_of(c.vr[i.r3], es);
  unsigned k = 0;
  while (k < a.n && a.e[k] == b.e[k]) ++k;
  const unsigned unequal = k < a.n ? byte_index(a, k) : kNone, zero = zero_search(a, flags);
  c.vr[i.r1] = index_result(std::min(unequal, zero));
  if (!(flags & kSetCc)) return;
  if (unequal == kNone && zero == kNone) c.cc = 3;
  else if (zero < unequal) c.cc = 0;
  else c.cc = a.e[k] < b.e[k] ? 1 : 2;
}

// VECTOR ISOLATE STRING: V2 up to its first zero element; that element and all after
// it become zero. CC 0 a zero element was found, 3 none.
void vistr(Cpu& c, const Insn& i) {
  const unsigned es = string_element_size(i.m3), flags = m5(i);
  check_flags(flags, kSetCc);
  const Elements a = elements_of(c.vr[i.r2], es);
  const unsigned zero = first_zero(a);
  const u128 kept = zero == kNone ? ~u128(0) : zero == 0 ? u128(0) : ~u128(0) << (8 * (16 - zero));
  c.vr[i.r1] = from_whole(whole(c.vr[i.r2]) & kept);
  if (flags & kSetCc) c.cc = zero == kNone ? 3 : 0;
}

// VECTOR STRING RANGE COMPARE: each element of V2 against the ranges of V3/V4.
void vstrc(Cpu& c, const Insn& i) {
  const unsigned es = string_element_size(m5(i)), flags = m6(i);
  const Elements a = elements_of(c.vr[i.r2], es), bounds = elements_of(c.vr[i.r3], es),
                 controls = elements_of(c.vr[v4(i)], es);
  VectorRegister mask{};
  unsigned match = kNone;
  for (unsigned k = 0; k < a.n; ++k) {
    if (in_any_range(a.e[k], bounds, controls) == bool(flags & kInvert)) continue;
    set_element(mask, es, k, ~0ull);
    match = std::min(match, byte_index(a, k));
  }
  store_search(c, i, flags, mask, match, zero_search(a, flags));
}

// VECTOR STRING SEARCH (vector-enhancements 2): V2 searched for the substring in V3,
// whose length in bytes is byte 7 of V4. M6 bit 2 is the zero search. The CC is
// always set.
void vstrs(Cpu& c, const Insn& i) {
  const unsigned es = string_element_size(m5(i));
  check_flags(m6(i), kZeroSearch);
  const Elements str = elements_of(c.vr[i.r2], es), sub = elements_of(c.vr[i.r3], es);
  const unsigned length = unsigned(element(c.vr[v4(i)], 0, 7)) >> es;
  const SubstringMatch m = find_substring(str, sub, length, m6(i) & kZeroSearch);
  c.vr[i.r1] = index_result(byte_index(str, m.element));
  c.cc = m.cc;
}

// --- load/store rightmost with length (vector-packed-decimal facility) ----------------
// The bytes sit at the right of the register, for the packed-decimal instructions;
// the others of a load are zero. I3 (VSI) or bits 32-63 of R3 (VRS-d) are the highest
// byte index.
void vlrl(Cpu& c, const Insn& i) { load_rightmost(c, i, rightmost_length(uint64_t(i.imm) & 0xFF)); }
void vlrlr(Cpu& c, const Insn& i) { load_rightmost(c, i, rightmost_length(c.r32(i.r3))); }
void vstrl(Cpu& c, const Insn& i) { store_rightmost(c, i, rightmost_length(uint64_t(i.imm) & 0xFF)); }
void vstrlr(Cpu& c, const Insn& i) { store_rightmost(c, i, rightmost_length(c.r32(i.r3))); }

// --- byte- and element-reversed loads and stores (vector-enhancements 2) -------------
// These move little-endian data: VLBR/VSTBR reverse the bytes of each element (M3 1-4,
// 4 the whole register), VLER/VSTER the order of the elements (M3 1-3).
void vlbr(Cpu& c, const Insn& i) {
  const unsigned size = 1u << reversed_element_size(i.m3, 4);
  c.vr[i.r1] = permuted(load_vector(c, c.ea2(i)), size, reverse_bytes_of_elements);
}
void vler(Cpu& c, const Insn& i) {
  const unsigned size = 1u << reversed_element_size(i.m3, 3);
  c.vr[i.r1] = permuted(load_vector(c, c.ea2(i)), size, reverse_element_order);
}
void vstbr(Cpu& c, const Insn& i) {
  const unsigned size = 1u << reversed_element_size(i.m3, 4);
  store_vector(c, c.ea2(i), permuted(c.vr[i.r1], size, reverse_bytes_of_elements));
}
void vster(Cpu& c, const Insn& i) {
  const unsigned size = 1u << reversed_element_size(i.m3, 3);
  store_vector(c, c.ea2(i), permuted(c.vr[i.r1], size, reverse_element_order));
}

// VECTOR LOAD BYTE REVERSED ELEMENT AND REPLICATE.
void vlbrrep(Cpu& c, const Insn& i) {
  const unsigned es = reversed_element_size(i.m3, 3);
  const uint64_t v = read_reversed_element(c, i, es);
  VectorRegister r;
  for (unsigned k = 0; k < element_count(es); ++k) set_element(r, es, k, v);
  c.vr[i.r1] = r;
}

// VECTOR LOAD BYTE REVERSED ELEMENT AND ZERO: as VLLEZ, the element in the rightmost
// element of doubleword 0, or with M3 = 6 a word in the leftmost word.
void vllebrz(Cpu& c, const Insn& i) {
  const bool left_word = i.m3 == 6;
  const unsigned es = left_word ? 2 : reversed_element_size(i.m3, 3);
  const uint64_t v = read_reversed_element(c, i, es);
  VectorRegister r;
  set_element(r, es, left_word ? 0 : (8u >> es) - 1, v);
  c.vr[i.r1] = r;
}

// VECTOR LOAD/STORE BYTE REVERSED ELEMENT: element M3 of the size the opcode names.
template <unsigned Es> void load_reversed_element(Cpu& c, const Insn& i) {
  const unsigned k = element_number(i.m3, Es);
  set_element(c.vr[i.r1], Es, k, read_reversed_element(c, i, Es));
}
template <unsigned Es> void store_reversed_element(Cpu& c, const Insn& i) {
  const unsigned k = element_number(i.m3, Es);
  write_element(c, c.ea2(i), Es, byte_reversed(element(c.vr[i.r1], Es, k), Es));
}
void vlebrh(Cpu& c, const Insn& i) { load_reversed_element<1>(c, i); }
void vlebrf(Cpu& c, const Insn& i) { load_reversed_element<2>(c, i); }
void vlebrg(Cpu& c, const Insn& i) { load_reversed_element<3>(c, i); }
void vstebrh(Cpu& c, const Insn& i) { store_reversed_element<1>(c, i); }
void vstebrf(Cpu& c, const Insn& i) { store_reversed_element<2>(c, i); }
void vstebrg(Cpu& c, const Insn& i) { store_reversed_element<3>(c, i); }

}  // namespace emu::isa
