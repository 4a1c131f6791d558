#include "emu/isa/bfp.h"
#include "emu/isa/common.h"

namespace emu::isa {
namespace {

constexpr uint64_t kSign = 1ull << 63;
constexpr uint64_t kHigh = 0xFFFFFFFF00000000ull;

// A short (32-bit) value occupies bits 0-31 of an FPR; bits 32-63 are left unchanged.
inline void set_short(Cpu& c, unsigned r, uint32_t v) { c.fpr(r) = (c.fpr(r) & ~kHigh) | uint64_t(v) << 32; }
inline uint32_t get_short(const Cpu& c, unsigned r) { return uint32_t(c.fpr(r) >> 32); }

// Extended (128-bit) values live in the register pairs (0,2) (1,3) (4,6) (5,7) (8,10)
// (9,11) (12,14) (13,15); a pair is named by its lower register: 0 1 4 5 8 9 12 13.
inline void check_pair(unsigned r) {
  if (r & 2) program_check(Pic::Specification);
}

}  // namespace

// --- between general and floating-point registers --------------------------------------
void ldgr(Cpu& c, const Insn& i) { c.fpr(i.r1) = c.gr[i.r2]; }
void lgdr(Cpu& c, const Insn& i) { c.gr[i.r1] = c.fpr(i.r2); }

// --- load zero ---------------------------------------------------------------------------
void lzer(Cpu& c, const Insn& i) { set_short(c, i.r1, 0); }
void lzdr(Cpu& c, const Insn& i) { c.fpr(i.r1) = 0; }
void lzxr(Cpu& c, const Insn& i) {
  check_pair(i.r1);
  c.fpr(i.r1) = c.fpr(i.r1 + 2) = 0;
}

// --- register to register: bit patterns move unchanged (NaNs are not signalled) --------
void ler(Cpu& c, const Insn& i) { set_short(c, i.r1, get_short(c, i.r2)); }
void ldr(Cpu& c, const Insn& i) { c.fpr(i.r1) = c.fpr(i.r2); }
void lxr(Cpu& c, const Insn& i) {
  check_pair(i.r1);
  check_pair(i.r2);
  uint64_t hi = c.fpr(i.r2), lo = c.fpr(i.r2 + 2);
  c.fpr(i.r1) = hi;
  c.fpr(i.r1 + 2) = lo;
}

// --- storage -------------------------------------------------------------------------------
// No alignment is required for floating-point storage operands.
void le(Cpu& c, const Insn& i) { set_short(c, i.r1, mem2<uint32_t>(c, i)); }
void ld(Cpu& c, const Insn& i) { c.fpr(i.r1) = mem2<uint64_t>(c, i); }
// LOAD LENGTHENED (HFP, short to long): the short operand in the left half, zeros
// in the right; no normalization, nothing signalled, so it is a plain load of a float
// into a whole FPR (GCC uses it so).
void lde(Cpu& c, const Insn& i) { c.fpr(i.r1) = uint64_t(mem2<uint32_t>(c, i)) << 32; }
void lder(Cpu& c, const Insn& i) { c.fpr(i.r1) = c.fpr(i.r2) & 0xFFFFFFFF00000000ull; }
void ste(Cpu& c, const Insn& i) { c.write<uint32_t>(c.ea2(i), get_short(c, i.r1)); }
void std_(Cpu& c, const Insn& i) { c.write<uint64_t>(c.ea2(i), c.fpr(i.r1)); }

// --- sign operations (long format, CC unchanged) ------------------------------------------
// COPY SIGN: R1 = magnitude of R2 with the sign of R3 (RRF: R3 is in bits 16-19).
void cpsdr(Cpu& c, const Insn& i) { c.fpr(i.r1) = (c.fpr(i.r2) & ~kSign) | (c.fpr(i.r3) & kSign); }
void lcdfr(Cpu& c, const Insn& i) { c.fpr(i.r1) = c.fpr(i.r2) ^ kSign; }
void lpdfr(Cpu& c, const Insn& i) { c.fpr(i.r1) = c.fpr(i.r2) & ~kSign; }
void lndfr(Cpu& c, const Insn& i) { c.fpr(i.r1) = c.fpr(i.r2) | kSign; }

// === binary floating point (IEEE): the arithmetic is in bfp.h ===============================
namespace {

using bfp::Result;

using bfp::f128;
using bfp::u128;

// Short (float) operands are bits 0-31 of an FPR, long (double) ones the whole FPR,
// extended (__float128) ones a register pair, the high half in the lower register.
template <class T> T reg(const Cpu& c, unsigned r) {
  if constexpr (sizeof(T) == 4) {
    return bfp::from_bits<float>(get_short(c, r));
  } else if constexpr (sizeof(T) == 8) {
    return bfp::from_bits<double>(c.fpr(r));
  } else {
    check_pair(r);
    return bfp::from_bits<f128>(u128(c.fpr(r)) << 64 | c.fpr(r + 2));
  }
}
template <class T> void put(Cpu& c, unsigned r, T v) {
  if constexpr (sizeof(T) == 4) {
    set_short(c, r, bfp::bits_of(v));
  } else if constexpr (sizeof(T) == 8) {
    c.fpr(r) = bfp::bits_of(v);
  } else {
    check_pair(r);
    c.fpr(r) = uint64_t(bfp::bits_of(v) >> 64), c.fpr(r + 2) = uint64_t(bfp::bits_of(v));
  }
}
// The storage operand of an RXE/RXF instruction.
template <class T> T mem(Cpu& c, const Insn& i) {
  return bfp::from_bits<T>(mem2<typename bfp::Traits<T>::Bits>(c, i));
}

// Extended operands must name a valid pair before anything is changed.
template <class T> void check_pair_if_extended(unsigned r) {
  if constexpr (sizeof(T) == 16) check_pair(r);
}

// Stores a result, sets the CC if the instruction does, then raises a completing trap.
template <class T> void deliver(Cpu& c, unsigned r1, const Result<T>& r, bool sets_cc) {
  put(c, r1, r.value);
  if (sets_cc) c.cc = bfp::cc_of(r.value);
  bfp::raise_pending(c, r);
}

constexpr bfp::Add kAdd;
constexpr bfp::Subtract kSubtract;
constexpr bfp::Multiply kMultiply;
constexpr bfp::Divide kDivide;

template <class T, class Op> void arith(Cpu& c, unsigned r1, T b, Op op, bool sets_cc) {
  deliver(c, r1, bfp::arith(c, reg<T>(c, r1), b, op), sets_cc);
}

// R1 = R3 * R2 +- R1 (R2 may be storage); NaN precedence R3, R2, R1 (bfp::multiply_add).
template <class T> void multiply_add(Cpu& c, const Insn& i, T op2, bool subtract) {
  deliver(c, i.r1, bfp::multiply_add(c, reg<T>(c, i.r3), op2, reg<T>(c, i.r1), subtract), false);
}

// LOAD AND TEST: a signaling NaN is invalid and comes out quiet.
template <class T> void load_and_test(Cpu& c, const Insn& i) {
  T v = reg<T>(c, i.r2);
  check_pair_if_extended<T>(i.r1);
  if (bfp::is_snan(v)) {
    bfp::suppressing(c, bfp::kInvalid);
    v = bfp::quieted(v);
  }
  put(c, i.r1, v);
  c.cc = bfp::cc_of(v);
}

// LOAD COMPLEMENT / NEGATIVE / POSITIVE: the sign bit only, NaNs included, no exceptions.
enum class Sign { Flip, Set, Clear };
template <class T> void load_sign(Cpu& c, const Insn& i, Sign s) {
  constexpr auto kBit = typename bfp::Traits<T>::Bits(1) << (sizeof(T) * 8 - 1);
  auto b = bfp::bits_of(reg<T>(c, i.r2));
  check_pair_if_extended<T>(i.r1);
  b = s == Sign::Flip ? b ^ kBit : s == Sign::Set ? b | kBit : b & ~kBit;
  put(c, i.r1, bfp::from_bits<T>(b));
  c.cc = bfp::cc_of(bfp::from_bits<T>(b));
}

template <class T> void compare(Cpu& c, unsigned r1, T b, bool signaling) {
  c.cc = bfp::compare(c, reg<T>(c, r1), b, signaling);
}

// LOAD LENGTHENED: exact; a signaling NaN is invalid.
template <class To, class From> void lengthen(Cpu& c, unsigned r1, From v) {
  check_pair_if_extended<To>(r1);
  if (bfp::is_nan(v)) {
    if (bfp::is_snan(v)) bfp::suppressing(c, bfp::kInvalid);
    put(c, r1, bfp::convert_nan<To>(v));
    return;
  }
  put(c, r1, To(v));
}

// TEST DATA CLASS: CC 1 when the operand's class is selected by bits 52-63 of the
// second-operand address (one bit per class and sign, +zero first).
template <class T> void test_data_class(Cpu& c, const Insn& i) {
  const T v = reg<T>(c, i.r1);
  const bool normal = !(v == 0) && !bfp::is_inf(v) && !bfp::is_nan(v) && bfp::magnitude(v) >= bfp::Traits<T>::min();
  unsigned cls = v == 0 ? 0 : normal ? 2 : bfp::is_inf(v) ? 6 : bfp::is_nan(v) ? (bfp::is_snan(v) ? 10 : 8) : 4;
  cls += bfp::sign_of(v);
  c.cc = (c.ea2(i) >> (11 - cls)) & 1;
}

template <class T, class I> void from_fixed(Cpu& c, const Insn& i, I x) {
  check_pair_if_extended<T>(i.r1);
  deliver(c, i.r1, bfp::from_fixed<T>(c, x, bfp::modifier_rounding(c, i.m3), bfp::suppress_inexact(i.m4)), false);
}

// CONVERT TO FIXED into bits 32-63 (32-bit results) or the whole register.
template <class I, class T> void to_fixed(Cpu& c, const Insn& i) {
  const auto r = bfp::to_fixed<I>(c, reg<T>(c, i.r2), bfp::modifier_rounding(c, i.m3), bfp::suppress_inexact(i.m4));
  if constexpr (sizeof(I) == 4) c.set_r32(i.r1, uint32_t(r.value));
  else c.gr[i.r1] = uint64_t(r.value);
  c.cc = r.cc;
  if (r.trap) data_exception(r.trap);
}

template <class T> void load_integer(Cpu& c, const Insn& i) {
  check_pair_if_extended<T>(i.r1);
  deliver(c, i.r1, bfp::load_integer(c, reg<T>(c, i.r2), bfp::modifier_rounding(c, i.m3), bfp::suppress_inexact(i.m4)),
          false);
}

// --- the FPC ---------------------------------------------------------------------------------
// Bits that must be zero: 6-7 of the mask and flag bytes, 24 and 28; BFP rounding
// modes 4-6 do not exist.
constexpr uint32_t kFpcReserved = 0x03030088u;
uint32_t valid_fpc(uint32_t v) {
  if ((v & kFpcReserved) || ((v & 7) >= 4 && (v & 7) <= 6)) program_check(Pic::Specification);
  return v;
}

}  // namespace

// --- arithmetic ------------------------------------------------------------------------------
void aebr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<float>(c, i.r2), kAdd, true); }
void adbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<double>(c, i.r2), kAdd, true); }
void aeb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<float>(c, i), kAdd, true); }
void adb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<double>(c, i), kAdd, true); }
void sebr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<float>(c, i.r2), kSubtract, true); }
void sdbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<double>(c, i.r2), kSubtract, true); }
void seb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<float>(c, i), kSubtract, true); }
void sdb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<double>(c, i), kSubtract, true); }
void meebr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<float>(c, i.r2), kMultiply, false); }
void mdbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<double>(c, i.r2), kMultiply, false); }
void meeb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<float>(c, i), kMultiply, false); }
void mdb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<double>(c, i), kMultiply, false); }
void debr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<float>(c, i.r2), kDivide, false); }
void axbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<f128>(c, i.r2), kAdd, true); }
void sxbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<f128>(c, i.r2), kSubtract, true); }
void mxbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<f128>(c, i.r2), kMultiply, false); }
void dxbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<f128>(c, i.r2), kDivide, false); }
void ddbr(Cpu& c, const Insn& i) { arith(c, i.r1, reg<double>(c, i.r2), kDivide, false); }
void deb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<float>(c, i), kDivide, false); }
void ddb(Cpu& c, const Insn& i) { arith(c, i.r1, mem<double>(c, i), kDivide, false); }

// MULTIPLY (short to long): exact, so only NaN operands need care.
// (MXDBR: long to extended, the same way.)
template <class Wide, class T> void multiply_lengthened(Cpu& c, unsigned r1, T b) {
  const T a = reg<T>(c, r1);
  check_pair_if_extended<Wide>(r1);
  if (bfp::is_nan(a) || bfp::is_nan(b)) {
    put(c, r1, bfp::convert_nan<Wide>(bfp::nan_result(c, {a, b}).value));
    return;
  }
  put(c, r1, Wide(a) * Wide(b));
}
void mdebr(Cpu& c, const Insn& i) { multiply_lengthened<double>(c, i.r1, reg<float>(c, i.r2)); }
void mdeb(Cpu& c, const Insn& i) { multiply_lengthened<double>(c, i.r1, mem<float>(c, i)); }
void mxdbr(Cpu& c, const Insn& i) { multiply_lengthened<f128>(c, i.r1, reg<double>(c, i.r2)); }
void mxdb(Cpu& c, const Insn& i) { multiply_lengthened<f128>(c, i.r1, mem<double>(c, i)); }

void maebr(Cpu& c, const Insn& i) { multiply_add(c, i, reg<float>(c, i.r2), false); }
void madbr(Cpu& c, const Insn& i) { multiply_add(c, i, reg<double>(c, i.r2), false); }
void maeb(Cpu& c, const Insn& i) { multiply_add(c, i, mem<float>(c, i), false); }
void madb(Cpu& c, const Insn& i) { multiply_add(c, i, mem<double>(c, i), false); }
void msebr(Cpu& c, const Insn& i) { multiply_add(c, i, reg<float>(c, i.r2), true); }
void msdbr(Cpu& c, const Insn& i) { multiply_add(c, i, reg<double>(c, i.r2), true); }
void mseb(Cpu& c, const Insn& i) { multiply_add(c, i, mem<float>(c, i), true); }
void msdb(Cpu& c, const Insn& i) { multiply_add(c, i, mem<double>(c, i), true); }

void sqebr(Cpu& c, const Insn& i) { deliver(c, i.r1, bfp::square_root(c, reg<float>(c, i.r2)), false); }
void sqdbr(Cpu& c, const Insn& i) { deliver(c, i.r1, bfp::square_root(c, reg<double>(c, i.r2)), false); }
void sqeb(Cpu& c, const Insn& i) { deliver(c, i.r1, bfp::square_root(c, mem<float>(c, i)), false); }
void sqdb(Cpu& c, const Insn& i) { deliver(c, i.r1, bfp::square_root(c, mem<double>(c, i)), false); }
void sqxbr(Cpu& c, const Insn& i) {
  const f128 v = reg<f128>(c, i.r2);
  check_pair(i.r1);
  deliver(c, i.r1, bfp::square_root(c, v), false);
}

// --- compare ---------------------------------------------------------------------------------
void cebr(Cpu& c, const Insn& i) { compare(c, i.r1, reg<float>(c, i.r2), false); }
void cdbr(Cpu& c, const Insn& i) { compare(c, i.r1, reg<double>(c, i.r2), false); }
void ceb(Cpu& c, const Insn& i) { compare(c, i.r1, mem<float>(c, i), false); }
void cdb(Cpu& c, const Insn& i) { compare(c, i.r1, mem<double>(c, i), false); }
void kebr(Cpu& c, const Insn& i) { compare(c, i.r1, reg<float>(c, i.r2), true); }
void kdbr(Cpu& c, const Insn& i) { compare(c, i.r1, reg<double>(c, i.r2), true); }
void keb(Cpu& c, const Insn& i) { compare(c, i.r1, mem<float>(c, i), true); }
void kdb(Cpu& c, const Insn& i) { compare(c, i.r1, mem<double>(c, i), true); }
void tceb(Cpu& c, const Insn& i) { test_data_class<float>(c, i); }
void tcdb(Cpu& c, const Insn& i) { test_data_class<double>(c, i); }
void tcxb(Cpu& c, const Insn& i) { test_data_class<f128>(c, i); }
void cxbr(Cpu& c, const Insn& i) { compare(c, i.r1, reg<f128>(c, i.r2), false); }
void kxbr(Cpu& c, const Insn& i) { compare(c, i.r1, reg<f128>(c, i.r2), true); }

// --- load and test, sign operations ----------------------------------------------------------
void ltebr(Cpu& c, const Insn& i) { load_and_test<float>(c, i); }
void ltdbr(Cpu& c, const Insn& i) { load_and_test<double>(c, i); }
void lcebr(Cpu& c, const Insn& i) { load_sign<float>(c, i, Sign::Flip); }
void lcdbr(Cpu& c, const Insn& i) { load_sign<double>(c, i, Sign::Flip); }
void lnebr(Cpu& c, const Insn& i) { load_sign<float>(c, i, Sign::Set); }
void lndbr(Cpu& c, const Insn& i) { load_sign<double>(c, i, Sign::Set); }
void lpebr(Cpu& c, const Insn& i) { load_sign<float>(c, i, Sign::Clear); }
void lpdbr(Cpu& c, const Insn& i) { load_sign<double>(c, i, Sign::Clear); }
void ltxbr(Cpu& c, const Insn& i) { load_and_test<f128>(c, i); }
void lcxbr(Cpu& c, const Insn& i) { load_sign<f128>(c, i, Sign::Flip); }
void lnxbr(Cpu& c, const Insn& i) { load_sign<f128>(c, i, Sign::Set); }
void lpxbr(Cpu& c, const Insn& i) { load_sign<f128>(c, i, Sign::Clear); }

// --- lengthen, round, load FP integer --------------------------------------------------------
void ldebr(Cpu& c, const Insn& i) { lengthen<double>(c, i.r1, reg<float>(c, i.r2)); }
void ldeb(Cpu& c, const Insn& i) { lengthen<double>(c, i.r1, mem<float>(c, i)); }
void lxdbr(Cpu& c, const Insn& i) { lengthen<f128>(c, i.r1, reg<double>(c, i.r2)); }
void lxdb(Cpu& c, const Insn& i) { lengthen<f128>(c, i.r1, mem<double>(c, i)); }
void lxebr(Cpu& c, const Insn& i) { lengthen<f128>(c, i.r1, reg<float>(c, i.r2)); }
void lxeb(Cpu& c, const Insn& i) { lengthen<f128>(c, i.r1, mem<float>(c, i)); }
template <class To, class From> static void round_to(Cpu& c, const Insn& i) {
  const From v = reg<From>(c, i.r2);
  check_pair_if_extended<From>(i.r1);  // from extended: R1 names a pair, the result goes left
  deliver(c, i.r1, bfp::round_to<To>(c, v, bfp::modifier_rounding(c, i.m3), bfp::suppress_inexact(i.m4)), false);
}
void ledbr(Cpu& c, const Insn& i) { round_to<float, double>(c, i); }
void ldxbr(Cpu& c, const Insn& i) { round_to<double, f128>(c, i); }
void lexbr(Cpu& c, const Insn& i) { round_to<float, f128>(c, i); }
void fiebr(Cpu& c, const Insn& i) { load_integer<float>(c, i); }
void fidbr(Cpu& c, const Insn& i) { load_integer<double>(c, i); }
void fixbr(Cpu& c, const Insn& i) { load_integer<f128>(c, i); }

// --- conversions with fixed point ------------------------------------------------------------
void cefbr(Cpu& c, const Insn& i) { from_fixed<float>(c, i, int32_t(c.r32(i.r2))); }
void cdfbr(Cpu& c, const Insn& i) { from_fixed<double>(c, i, int32_t(c.r32(i.r2))); }
void cegbr(Cpu& c, const Insn& i) { from_fixed<float>(c, i, int64_t(c.gr[i.r2])); }
void cdgbr(Cpu& c, const Insn& i) { from_fixed<double>(c, i, int64_t(c.gr[i.r2])); }
void celfbr(Cpu& c, const Insn& i) { from_fixed<float>(c, i, c.r32(i.r2)); }
void cdlfbr(Cpu& c, const Insn& i) { from_fixed<double>(c, i, c.r32(i.r2)); }
void celgbr(Cpu& c, const Insn& i) { from_fixed<float>(c, i, c.gr[i.r2]); }
void cdlgbr(Cpu& c, const Insn& i) { from_fixed<double>(c, i, c.gr[i.r2]); }
void cxfbr(Cpu& c, const Insn& i) { from_fixed<f128>(c, i, int32_t(c.r32(i.r2))); }
void cxgbr(Cpu& c, const Insn& i) { from_fixed<f128>(c, i, int64_t(c.gr[i.r2])); }
void cxlfbr(Cpu& c, const Insn& i) { from_fixed<f128>(c, i, c.r32(i.r2)); }
void cxlgbr(Cpu& c, const Insn& i) { from_fixed<f128>(c, i, c.gr[i.r2]); }
void cfebr(Cpu& c, const Insn& i) { to_fixed<int32_t, float>(c, i); }
void cfdbr(Cpu& c, const Insn& i) { to_fixed<int32_t, double>(c, i); }
void cgebr(Cpu& c, const Insn& i) { to_fixed<int64_t, float>(c, i); }
void cgdbr(Cpu& c, const Insn& i) { to_fixed<int64_t, double>(c, i); }
void clfebr(Cpu& c, const Insn& i) { to_fixed<uint32_t, float>(c, i); }
void clfdbr(Cpu& c, const Insn& i) { to_fixed<uint32_t, double>(c, i); }
void clgebr(Cpu& c, const Insn& i) { to_fixed<uint64_t, float>(c, i); }
void clgdbr(Cpu& c, const Insn& i) { to_fixed<uint64_t, double>(c, i); }
void cfxbr(Cpu& c, const Insn& i) { to_fixed<int32_t, f128>(c, i); }
void cgxbr(Cpu& c, const Insn& i) { to_fixed<int64_t, f128>(c, i); }
void clfxbr(Cpu& c, const Insn& i) { to_fixed<uint32_t, f128>(c, i); }
void clgxbr(Cpu& c, const Insn& i) { to_fixed<uint64_t, f128>(c, i); }

// --- the floating-point-control register -----------------------------------------------------
void sfpc(Cpu& c, const Insn& i) { c.fpc = valid_fpc(c.r32(i.r1)); }
void efpc(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.fpc); }
// SET FPC AND SIGNAL: as SFPC, but the flags already set stay set, and a flag whose
// new mask is on is a simulated IEEE exception: a data exception whose DXC names the
// most important such flag (and inexact beside overflow or underflow when its flag and
// mask are on too, as QEMU does) and ends in 3.
void sfasr(Cpu& c, const Insn& i) {
  const uint32_t old_flags = c.fpc & 0x00FF0000u;
  c.fpc = valid_fpc(c.r32(i.r1)) | old_flags;
  const uint8_t pending = uint8_t(old_flags >> 16) & bfp::masks(c);
  if (!pending) return;
  uint8_t dxc = pending & bfp::kInexact;
  if (pending & bfp::kInvalid) dxc = bfp::kInvalid;
  else if (pending & bfp::kDivide) dxc = bfp::kDivide;
  else if (pending & bfp::kOverflow) dxc |= bfp::kOverflow;
  else if (pending & bfp::kUnderflow) dxc |= bfp::kUnderflow;
  data_exception(uint8_t(dxc | 3));
}
void lfpc(Cpu& c, const Insn& i) { c.fpc = valid_fpc(mem2<uint32_t>(c, i)); }
void stfpc(Cpu& c, const Insn& i) { c.write<uint32_t>(c.ea2(i), c.fpc); }
// SET BFP ROUNDING MODE: from bits 62-63 of the second-operand address (bit 29 of the
// FPC becomes zero); SRNMB takes bits 61-63, where 4-6 are no mode.
void srnm(Cpu& c, const Insn& i) { c.fpc = (c.fpc & ~7u) | uint32_t(c.ea2(i) & 3); }
void srnmb(Cpu& c, const Insn& i) {
  const uint32_t mode = uint32_t(c.ea2(i) & 7);
  if (c.ea2(i) & 0xF8) program_check(Pic::Specification);
  c.fpc = valid_fpc((c.fpc & ~7u) | mode);
}

}  // namespace emu::isa
