// Packed and zoned decimal data without decimal arithmetic: PACK, UNPACK, MOVE WITH
// OFFSET, their ASCII and Unicode forms (PKA, PKU, UNPKA, UNPKU), and CONVERT TO
// BINARY / TO DECIMAL. Hand-written code formats numbers with these.
#include "emu/isa/common.h"

namespace emu::isa {
namespace {

// A packed-decimal sign nibble: A C E F plus, B D minus, 0-9 no sign.
enum class Sign { Plus, Minus, Invalid };
Sign sign_of(uint8_t nibble) {
  if (nibble < 10) return Sign::Invalid;
  return nibble == 0xB || nibble == 0xD ? Sign::Minus : Sign::Plus;
}

// The right (low) nibbles of `src` become the digits of a 16-byte packed number with a
// plus sign: at most 31, right-aligned, zeros on the left. `step` is the character
// size (1 ASCII, 2 Unicode); the digit is in the low nibble of the character's last byte.
void pack_characters(Cpu& c, const Insn& i, unsigned len, unsigned step) {
  HostBytes src = host_bytes(c, c.ea2(i), len, false);
  uint8_t out[16] = {};
  out[15] = 0x0C;
  unsigned digit = 30;  // digit positions 0-30 from the left; 31 is the sign
  for (int k = int(len) - 1; k >= int(step) - 1 && digit < 31; k -= int(step), --digit) {
    const uint8_t d = src[unsigned(k)] & 0xF;
    out[digit / 2] |= digit & 1 ? d : uint8_t(d << 4);
  }
  HostBytes dst = host_bytes(c, c.ea1(i), 16, true);
  for (unsigned k = 0; k < 16; ++k) dst[k] = out[k];
}

// The 31 digits of a 16-byte packed number as characters ('0' | digit), right-aligned
// in `len` bytes of `step`-byte characters; CC from the sign (0 plus, 1 minus, 3 none).
void unpack_characters(Cpu& c, const Insn& i, unsigned len, unsigned step) {
  HostBytes src = host_bytes(c, c.ea2(i), 16, false);
  uint8_t packed[16];
  for (unsigned k = 0; k < 16; ++k) packed[k] = src[k];
  HostBytes dst = host_bytes(c, c.ea1(i), len, true);
  unsigned digit = 30;
  for (int k = int(len) - int(step); k >= 0; k -= int(step), --digit) {
    // 32 characters hold one more than the 31 digits: the leftmost is a zero.
    const uint8_t d = digit > 30 ? 0 : digit & 1 ? packed[digit / 2] & 0xF : packed[digit / 2] >> 4;
    if (step == 2) dst[unsigned(k)] = 0;
    dst[unsigned(k) + step - 1] = uint8_t(0x30 | d);
  }
  const Sign s = sign_of(packed[15] & 0xF);
  c.cc = s == Sign::Plus ? 0 : s == Sign::Minus ? 1 : 3;
}

// The value of an n-byte packed-decimal operand; an invalid digit or sign is a data
// exception (DXC 0: decimal operand data) and nothing changes.
constexpr uint8_t kDecimalOperandData = 0x00;
__int128 packed_value(Cpu& c, uint64_t a, unsigned n) {
  HostBytes src = host_bytes(c, a, n, false);
  __int128 v = 0;
  for (unsigned k = 0; k < n; ++k) {
    const uint8_t hi = src[k] >> 4, lo = src[k] & 0xF;
    if (hi > 9 || (k + 1 < n && lo > 9)) data_exception(kDecimalOperandData);
    v = v * 10 + hi;
    if (k + 1 < n) v = v * 10 + lo;
  }
  const Sign s = sign_of(src[n - 1] & 0xF);
  if (s == Sign::Invalid) data_exception(kDecimalOperandData);
  return s == Sign::Minus ? -v : v;
}

// `v` as an n-byte packed-decimal number with sign C (plus) or D (minus).
void store_packed(Cpu& c, uint64_t a, unsigned n, __int128 v) {
  uint8_t out[16] = {};
  unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  out[n - 1] = v < 0 ? 0x0D : 0x0C;
  for (int digit = int(2 * n - 2); digit >= 0 && m; --digit, m /= 10) {
    const uint8_t d = uint8_t(m % 10);
    out[digit / 2] |= digit & 1 ? d : uint8_t(d << 4);
  }
  HostBytes dst = host_bytes(c, a, n, true);
  for (unsigned k = 0; k < n; ++k) dst[k] = out[k];
}

}  // namespace

// PACK: the zoned second operand's digits into the packed first operand, right to left;
// the rightmost byte has its nibbles swapped (zone to sign). One byte at a time, so an
// overlap sees the bytes already stored.
void pack(Cpu& c, const Insn& i) {
  const unsigned n1 = i.r1 + 1u, n2 = i.r3 + 1u;
  HostBytes src = host_bytes(c, c.ea2(i), n2, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n1, true);
  int k1 = int(n1) - 1, k2 = int(n2) - 1;
  const uint8_t last = src[unsigned(k2--)];
  dst[unsigned(k1--)] = uint8_t(last << 4 | last >> 4);
  for (; k1 >= 0; --k1) {
    const uint8_t lo = k2 >= 0 ? src[unsigned(k2--)] & 0xF : 0;
    const uint8_t hi = k2 >= 0 ? src[unsigned(k2--)] & 0xF : 0;
    dst[unsigned(k1)] = uint8_t(hi << 4 | lo);
  }
}

// UNPACK: each digit of the packed second operand into a zoned byte (zone F) of the
// first, right to left; the rightmost byte has its nibbles swapped.
void unpk(Cpu& c, const Insn& i) {
  const unsigned n1 = i.r1 + 1u, n2 = i.r3 + 1u;
  HostBytes src = host_bytes(c, c.ea2(i), n2, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n1, true);
  int k1 = int(n1) - 1, k2 = int(n2) - 1;
  const uint8_t last = src[unsigned(k2--)];
  dst[unsigned(k1--)] = uint8_t(last << 4 | last >> 4);
  while (k1 >= 0) {
    const uint8_t b = k2 >= 0 ? src[unsigned(k2--)] : 0;
    dst[unsigned(k1--)] = uint8_t(0xF0 | (b & 0xF));
    if (k1 >= 0) dst[unsigned(k1--)] = uint8_t(0xF0 | b >> 4);
  }
}

// MOVE WITH OFFSET: the second operand, shifted left by four bits, to the left of the
// first operand's rightmost nibble (kept); truncated or padded with zeros on the left.
void mvo(Cpu& c, const Insn& i) {
  const unsigned n1 = i.r1 + 1u, n2 = i.r3 + 1u;
  HostBytes src = host_bytes(c, c.ea2(i), n2, false);
  HostBytes dst = host_bytes(c, c.ea1(i), n1, true);
  int k1 = int(n1) - 1, k2 = int(n2) - 1;
  uint8_t carry = dst[unsigned(k1)] & 0xF;
  for (; k1 >= 0; --k1) {
    const uint8_t b = k2 >= 0 ? src[unsigned(k2--)] : 0;
    dst[unsigned(k1)] = uint8_t(b << 4 | carry);
    carry = b >> 4;
  }
}

// PACK ASCII / PACK UNICODE: the length byte is L2 (second operand, at most 32 bytes,
// 64 and even for Unicode); the first operand is 16 bytes.
void pka(Cpu& c, const Insn& i) {
  const unsigned len = i.l1 + 1u;
  if (len > 32) program_check(Pic::Specification);
  pack_characters(c, i, len, 1);
}
void pku(Cpu& c, const Insn& i) {
  const unsigned len = i.l1 + 1u;
  if (len > 64 || len % 2) program_check(Pic::Specification);
  pack_characters(c, i, len, 2);
}
// UNPACK ASCII / UNPACK UNICODE: the length byte is L1 (first operand, at most 32
// bytes, 64 and even for Unicode); the second operand is 16 bytes.
void unpka(Cpu& c, const Insn& i) {
  const unsigned len = i.l1 + 1u;
  if (len > 32) program_check(Pic::Specification);
  unpack_characters(c, i, len, 1);
}
void unpku(Cpu& c, const Insn& i) {
  const unsigned len = i.l1 + 1u;
  if (len > 64 || len % 2) program_check(Pic::Specification);
  unpack_characters(c, i, len, 2);
}

// CONVERT TO DECIMAL: bits 32-63 (CVD, CVDY) or 0-63 (CVDG) of R1, signed, as packed
// decimal of 8 or 16 bytes.
void cvd(Cpu& c, const Insn& i) { store_packed(c, c.ea2(i), 8, int32_t(c.r32(i.r1))); }
void cvdg(Cpu& c, const Insn& i) { store_packed(c, c.ea2(i), 16, int64_t(c.gr[i.r1])); }

// CONVERT TO BINARY: 8 (CVB, CVBY) or 16 (CVBG) bytes of packed decimal into bits 32-63
// or 0-63 of R1. A value out of range is a fixed-point-divide exception: CVB stores the
// low 32 bits first (completed), CVBG stores nothing (suppressed).
void cvb(Cpu& c, const Insn& i) {
  const __int128 v = packed_value(c, c.ea2(i), 8);
  c.set_r32(i.r1, uint32_t(v));
  if (v < INT32_MIN || v > INT32_MAX) program_check(Pic::FixedPointDivide);
}
void cvbg(Cpu& c, const Insn& i) {
  const __int128 v = packed_value(c, c.ea2(i), 16);
  if (v < INT64_MIN || v > INT64_MAX) program_check(Pic::FixedPointDivide);
  c.gr[i.r1] = uint64_t(v);
}

}  // namespace emu::isa
