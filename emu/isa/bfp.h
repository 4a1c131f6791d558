// Binary floating point (IEEE 754) as the z/Architecture defines it, for the handlers
// in float.cpp and vector_float.cpp (both compiled with -frounding-math).
//
// The arithmetic itself is the host's: its basic operations (+ - * / sqrt, fma and
// the conversions) are correctly rounded in the four IEEE rounding modes and raise
// the IEEE flags, which is what the architecture asks for, and a result depends only
// on the operands and the mode, so runs stay deterministic. The host is x86-64, whose
// SSE unit does double and float and whose MXCSR holds the rounding mode and the
// flags for them, for glibc's fma and for GCC's __float128 routines alike; only
// those routines (libgcc's soft-fp) raise overflow, underflow and inexact in the x87
// status word instead, whose flags sit in the same bits. Each operation sets MXCSR's
// rounding mode with its flags clear (and flush-to-zero and denormals-are-zero off)
// and clears the x87 flags, runs, reads both sets of flags and restores MXCSR
// (on_host): what the <cfenv> functions do, without saving and loading the whole
// x87 environment, which costs several times as much. In round to nearest even the
// basic operations, multiply-and-add and the commonest conversions first try a
// shortcut that needs no MXCSR at all (nearest_even_alone and its kin): the host's
// result and its exactly computed error tell the exceptions wherever the result is
// neither tiny nor huge; anything else goes the MXCSR way. The operands and result pass through volatile objects so
// the compiler can neither fold the operation nor move it across those MXCSR accesses
// (float.cpp is also compiled with -frounding-math).
//
// What the host does differently is done here: NaN propagation (z keeps a signaling
// NaN before a quiet one, then the first operand's) and the default NaN (positive on
// z); round to prepare for shorter precision (round to odd: round toward zero, then
// set the last bit when inexact); round to nearest with ties away from zero (offered
// by the conversions and LOAD FP INTEGER only); underflow of an exact tiny result when
// its trap is enabled; tininess, which the architecture detects before rounding and
// the host after (they differ when a result rounds up to the smallest normal); the
// scaled results of trapping overflow and underflow and the
// "incremented" bit of the DXC, both from the exact result held in __float128 rounded
// to odd (113 bits, enough for a correct second rounding to 24 or 53 bits).
#pragma once
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "emu/isa/common.h"

#if !defined(__x86_64__) || !defined(__SIZEOF_FLOAT128__)
#error "the BFP model needs an x86-64 host (MXCSR) and the compiler's __float128"
#endif
#include <xmmintrin.h>

extern "C" __float128 fmaf128(__float128, __float128, __float128);  // glibc's libm (2.26 and later)

namespace emu::isa::bfp {

using f128 = __float128;
using u128 = unsigned __int128;

inline f128 power_of_two(int e) {
  u128 b = u128(16383 + e) << 112;
  f128 v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// IEEE exceptions as the FPC's mask, flag and DXC bytes place them.
enum : uint8_t {
  kInvalid = 0x80,
  kDivide = 0x40,
  kOverflow = 0x20,
  kUnderflow = 0x10,
  kInexact = 0x08,
  kIncremented = 0x04,  // DXC only: the rounded result is larger in magnitude
};

inline uint8_t masks(const Cpu& c) { return uint8_t(c.fpc >> 24); }
inline void set_flags(Cpu& c, uint8_t f) { c.fpc |= uint32_t(f) << 16; }

enum class Rounding : uint8_t { NearestEven, TowardZero, Up, Down, TiesAway, Odd };

// The BFP rounding mode of the FPC (bits 29-31; 4-6 never get there, SFPC rejects them).
inline Rounding fpc_rounding(const Cpu& c) {
  switch (c.fpc & 7) {
    case 0: return Rounding::NearestEven;
    case 1: return Rounding::TowardZero;
    case 2: return Rounding::Up;
    case 3: return Rounding::Down;
    default: return Rounding::Odd;
  }
}

// The rounding modifier (M3) of the conversions and LOAD FP INTEGER.
inline Rounding modifier_rounding(const Cpu& c, unsigned m) {
  switch (m) {
    case 0: return fpc_rounding(c);
    case 1: return Rounding::TiesAway;
    case 3: return Rounding::Odd;
    case 4: return Rounding::NearestEven;
    case 5: return Rounding::TowardZero;
    case 6: return Rounding::Up;
    case 7: return Rounding::Down;
    default: program_check(Pic::Specification);
  }
}

// M4 bit 1 (inexact-exception control): the inexact exception is not reported.
inline bool suppress_inexact(unsigned m4) { return m4 & 4; }

// --- formats: short (float), long (double), extended (__float128) ----------------------
template <class T> struct Traits;
template <> struct Traits<float> {
  using Bits = uint32_t;
  static constexpr int kFraction = 23;
  static constexpr int kScale = 192;  // exponent adjustment of trapped overflow/underflow
  static constexpr int kMinExponent = -126;  // of the smallest normal
  static constexpr Bits kDefaultNaN = 0x7FC00000u;
  static float min() { return 0x1p-126f; }
};
template <> struct Traits<double> {
  using Bits = uint64_t;
  static constexpr int kFraction = 52;
  static constexpr int kScale = 1536;
  static constexpr int kMinExponent = -1022;
  static constexpr Bits kDefaultNaN = 0x7FF8000000000000ull;
  static double min() { return 0x1p-1022; }
};
template <> struct Traits<f128> {
  using Bits = u128;
  static constexpr int kFraction = 112;
  static constexpr int kScale = 24576;
  static constexpr int kMinExponent = -16382;
  static constexpr Bits kDefaultNaN = u128(0x7FFF800000000000ull) << 64;
  static f128 min() { return power_of_two(-16382); }
};
template <class T> constexpr typename Traits<T>::Bits kQuiet = typename Traits<T>::Bits(1) << (Traits<T>::kFraction - 1);
template <class T> constexpr int kWidth = int(sizeof(T) * 8);

template <class T> typename Traits<T>::Bits bits_of(T v) {
  typename Traits<T>::Bits b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
template <class T> T from_bits(typename Traits<T>::Bits b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}
template <class T> bool is_nan(T v) { return __builtin_isnan(v); }
template <class T> bool is_inf(T v) { return __builtin_isinf(v); }
template <class T> bool sign_of(T v) { return bits_of(v) >> (kWidth<T> - 1); }
template <class T> bool is_snan(T v) { return is_nan(v) && !(bits_of(v) & kQuiet<T>); }
template <class T> T quieted(T v) { return from_bits<T>(bits_of(v) | kQuiet<T>); }
template <class T> T default_nan() { return from_bits<T>(Traits<T>::kDefaultNaN); }
template <class T> T magnitude_bits(T v) {  // the sign cleared, NaNs included
  return from_bits<T>(bits_of(v) & ~(typename Traits<T>::Bits(1) << (kWidth<T> - 1)));
}

// The bit of a value's class in the 12-bit mask of TEST DATA CLASS (0x800 +zero,
// then -zero, +normal, -normal, +subnormal, -subnormal, +infinity, -infinity, +quiet
// NaN, -quiet NaN, +signaling NaN, 0x001 -signaling NaN).
template <class T> unsigned data_class_bit(T v) {
  unsigned cls = v == 0 ? 0 : is_nan(v) ? (is_snan(v) ? 10 : 8) : is_inf(v) ? 6 : !(magnitude_bits(v) < Traits<T>::min()) ? 2 : 4;
  return 0x800u >> (cls + sign_of(v));
}

// A NaN converted to another format: sign and the leading fraction bits carry over.
template <class To, class From> To convert_nan(From v) {
  using ToBits = typename Traits<To>::Bits;
  const u128 b = bits_of(v);
  const u128 fraction = (b & ((u128(1) << Traits<From>::kFraction) - 1)) << (112 - Traits<From>::kFraction);
  ToBits out = ToBits(fraction >> (112 - Traits<To>::kFraction)) | Traits<To>::kDefaultNaN;
  if (sign_of(v)) out |= ToBits(1) << (kWidth<To> - 1);
  return from_bits<To>(out);
}

// v * 2^e, in steps that each stay inside the extended exponent range.
inline f128 times_power_of_two(f128 v, int e) {
  for (; e > 12000; e -= 12000) v *= power_of_two(12000);
  for (; e < -12000; e += 12000) v *= power_of_two(-12000);
  return v * power_of_two(e);
}
template <class T> T magnitude(T v) { return v < 0 ? -v : v; }

// --- running an operation on the host -------------------------------------------------
template <class T> T launder(T v) {
  volatile T x = v;
  return x;
}

// MXCSR: flags in bits 0-5 (invalid, denormal operand, divide, overflow, underflow,
// precision; the x87 status word has them in the same bits), rounding control in bits
// 13-14, denormals-are-zero bit 6, flush-to-zero bit 15.
constexpr unsigned kMxcsrFlags = 0x3F, kMxcsrRounding = 0x6000, kMxcsrDaz = 0x40, kMxcsrFtz = 0x8000;
inline uint8_t from_host(unsigned mxcsr) {
  return uint8_t((mxcsr & 0x01 ? kInvalid : 0) | (mxcsr & 0x04 ? kDivide : 0) | (mxcsr & 0x08 ? kOverflow : 0) |
                 (mxcsr & 0x10 ? kUnderflow : 0) | (mxcsr & 0x20 ? kInexact : 0));
}

inline unsigned host_mode(Rounding r) {
  switch (r) {
    case Rounding::Down: return 1u << 13;
    case Rounding::Up: return 2u << 13;
    case Rounding::TowardZero: case Rounding::Odd: return 3u << 13;
    default: return 0;  // to nearest; ties away is done by the callers from toward zero
  }
}

// Sets the last bit of a floating-point value (round to odd after truncating).
template <class T> T with_odd_bit(T v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof v);
  b[0] |= 1;  // little-endian host: byte 0 holds the last fraction bits
  std::memcpy(&v, b, sizeof v);
  return v;
}
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "with_odd_bit assumes a little-endian host");

// Runs f() (a floating-point result) under rounding `r`, adds the IEEE exceptions it
// raised to `exc`, and restores the host's rounding mode. kSoftFp: f() may run
// libgcc's __float128 routines (an extended operand or result), so the x87 flags
// count too; without them (float and double only) reading those would cost a quarter
// of the operation.
template <bool kSoftFp, class F> auto on_host(Rounding r, uint8_t& exc, F f) {
  // LDMXCSR costs far more than STMXCSR, so it is left out where it changes nothing:
  // on the way in when the host already has the mode wanted and no flags (after the
  // previous operation, usually), on the way out when nothing was raised and the mode
  // was not changed. The host's own sticky flags are not kept (it reads none).
  constexpr unsigned kModes = kMxcsrRounding | kMxcsrDaz | kMxcsrFtz;
  const unsigned entry = _mm_getcsr();
  const unsigned wanted = (entry & ~(kMxcsrFlags | kModes)) | host_mode(r);
  if (entry != wanted) _mm_setcsr(wanted);
  uint16_t x87_status = 0;
  if constexpr (kSoftFp) {
    __asm__ volatile("fnstsw %0" : "=am"(x87_status));
    if (x87_status & kMxcsrFlags) __asm__ volatile("fnclex");  // rarely: FNCLEX is slow
  }
  auto v = launder(f());
  if constexpr (kSoftFp) __asm__ volatile("fnstsw %0" : "=am"(x87_status));
  const unsigned after = _mm_getcsr();
  const unsigned raised = from_host(after | x87_status);
  const unsigned restored = entry & ~kMxcsrFlags;
  if (after != restored) _mm_setcsr(restored);
  exc |= raised;
  if (r == Rounding::Odd && (raised & kInexact)) v = with_odd_bit(v);
  return v;
}

// f() evaluated in __float128, rounded to odd: the exact result, as far as a later
// rounding to 24 or 53 bits can tell. For extended operands it can only be the result
// truncated (toward zero): right for telling incremented and tininess, while the
// scaled result of a trapped extended overflow or underflow is that truncated value
// rounded again (the one approximation here; QEMU 7.2 delivers no result at all).
template <class T, class F> f128 exact_odd(F f) {
  uint8_t ignored = 0;
  return on_host<true>(sizeof(T) == 16 ? Rounding::TowardZero : Rounding::Odd, ignored, f);
}

// Round to nearest with ties away from zero, for a conversion `f` of the exact
// value `x` (f runs toward zero). The midpoint of two neighbours of the target formats
// is exact in __float128.
template <class T, class S, class F> T ties_away(uint8_t& exc, S x, F f) {
  const T t = on_host<sizeof(S) == 16>(Rounding::TowardZero, exc, f);
  if (!(exc & kInexact)) return t;
  if constexpr (sizeof(T) == 16) {
    return t;  // unreachable: every source converted to extended is exact
  } else {
    const T inf = std::numeric_limits<T>::infinity();
    const T up = std::nextafter(t, f128(x) < 0 ? -inf : inf);
    const f128 mid = is_inf(up) ? f128(t) + (f128(t) - f128(std::nextafter(t, T(0)))) / 2
                                : (f128(t) + f128(up)) / 2;
    if (magnitude(f128(x)) < magnitude(mid)) return t;
    if (is_inf(up)) exc |= kOverflow;
    return up;
  }
}

// --- the FPC's response ------------------------------------------------------------------
template <class T> struct Result {
  T value;
  uint8_t trap = 0;  // DXC of a completing trap: raise it once the value is stored
};
template <class T> void raise_pending(Cpu& c, const Result<T>& r) {
  if (r.trap) data_exception(r.trap);
}

// Invalid operation or division by zero: with the mask on, the operation is
// suppressed (nothing is stored); otherwise the flag is set.
inline void suppressing(Cpu& c, uint8_t exc) {
  if (exc & masks(c)) data_exception(exc);
  set_flags(c, exc);
}

// The trapped overflow or underflow: the exact result scaled by 2^-scale or 2^scale
// into the format's range, rounded, with the DXC telling inexact and incremented.
template <class T> Result<T> scaled(Rounding rm, f128 exact, int scale, uint8_t kind) {
  uint8_t exc = 0;
  const f128 v = times_power_of_two(exact, scale);
  const T r = on_host<true>(rm, exc, [&] { return T(launder(v)); });
  uint8_t dxc = kind;
  if (exc & kInexact) dxc |= kInexact | (magnitude(f128(r)) > magnitude(v) ? kIncremented : 0);
  return {r, dxc};
}

// What follows a rounded operation whose host result is `r` with exceptions `exc`;
// exact() gives the exact result (rounded to odd), needed only when a trap is enabled.
// quiet_inexact (M4's inexact control) hides the inexact exception, not an underflow.
template <class T, class Exact>
Result<T> conclude(Cpu& c, Rounding rm, uint8_t exc, T r, Exact exact, bool quiet_inexact = false) {
  if (exc & (kInvalid | kDivide)) {
    suppressing(c, exc & (kInvalid | kDivide));
    return {r};
  }
  const uint8_t m = masks(c);
  // Tiny before rounding: the host's flag (tiny after rounding), a subnormal result,
  // or an inexact result rounded up to the smallest normal from below it.
  const T smallest = Traits<T>::min();
  const bool tiny = (exc & kUnderflow) || (r != 0 && magnitude(r) < smallest) ||
                    (magnitude(r) == smallest && (exc & kInexact) && magnitude(exact()) < f128(smallest));
  if (tiny && (exc & kInexact)) exc |= kUnderflow;
  if (quiet_inexact) exc &= uint8_t(~kInexact);
  if ((exc & kOverflow) && (m & kOverflow)) return scaled<T>(rm, exact(), -Traits<T>::kScale, kOverflow);
  if (tiny && (m & kUnderflow)) return scaled<T>(rm, exact(), Traits<T>::kScale, kUnderflow);
  set_flags(c, exc & (kOverflow | kUnderflow));
  if (exc & kInexact) {
    if (m & kInexact) return {r, uint8_t(kInexact | (magnitude(f128(r)) > magnitude(exact()) ? kIncremented : 0))};
    set_flags(c, kInexact);
  }
  return {r};
}

// conclude() for a result the shortcuts answered: neither tiny nor overflowed, and at
// most inexact (exc is 0 or kInexact), which is all that is left to look at.
template <class T, class Exact>
Result<T> conclude_normal(Cpu& c, Rounding rm, uint8_t exc, T r, Exact exact, bool quiet_inexact = false) {
  if (!exc || quiet_inexact) return {r};
  if (masks(c) & kInexact) return conclude(c, rm, exc, r, exact, quiet_inexact);
  set_flags(c, kInexact);
  return {r};
}

// The result of an operation with a NaN operand: a signaling NaN (quieted) before a
// quiet one, then operand order; a signaling NaN is an invalid operation.
template <class T> Result<T> nan_result(Cpu& c, std::initializer_list<T> operands) {
  for (T v : operands)
    if (is_snan(v)) {
      suppressing(c, kInvalid);
      return {quieted(v)};
    }
  for (T v : operands)
    if (is_nan(v)) return {v};
  return {default_nan<T>()};
}

// --- operations ------------------------------------------------------------------------------
// a * b + c with one rounding: the host's FMA instruction where it has one (every
// x86-64-v3 machine), glibc's fma (a call, and a software one on older machines)
// otherwise; the same correctly rounded result and flags either way. The instruction
// is written out because the build targets baseline x86-64.
inline const bool kHostFma = (__builtin_cpu_init(), __builtin_cpu_supports("fma"));
template <class T> T fused(T a, T b, T c) {
  if (kHostFma) [[likely]] {
    if constexpr (sizeof(T) == 8) __asm__("vfmadd231sd %2, %1, %0" : "+x"(c) : "x"(a), "x"(b));
    else __asm__("vfmadd231ss %2, %1, %0" : "+x"(c) : "x"(a), "x"(b));
    return c;
  }
  return std::fma(a, b, c);
}

// The four basic operations, each on T (the host result) and on __float128 (the exact one).
struct Add {
  template <class X> X operator()(X x, X y) const { return x + y; }
};
struct Subtract {
  template <class X> X operator()(X x, X y) const { return x - y; }
};
struct Multiply {
  template <class X> X operator()(X x, X y) const { return x * y; }
};
struct Divide {
  template <class X> X operator()(X x, X y) const { return x / y; }
};

// 2^(emin + 2p): above it the residual of a product or quotient (a*b - r, a - r*b) and
// the error terms of ErrFma are representable, so the host computes them exactly.
template <class T> T residual_floor() {
  return T(power_of_two(Traits<T>::kMinExponent + 2 * (Traits<T>::kFraction + 1)));
}

// The operation in round to nearest even (the host's own mode) without touching MXCSR,
// when the result tells its exceptions by itself: finite, and zero or above the
// normal range's bottom by more than the error terms need (so no overflow, no
// underflow, no invalid), and inexact exactly when the error, which the host computes
// exactly there, is not zero: TwoSum for a sum (Knuth, TAOCP 4.2.2), the FMA
// residual for a product or a quotient. Anything else returns false and goes the slow
// way, which computes the same result and its flags under MXCSR.
template <class T, class Op> bool nearest_even_alone(Op, T a, T b, T& r, uint8_t& exc) {
  const T floor = residual_floor<T>();
  T err;
  if constexpr (std::is_same_v<Op, Add> || std::is_same_v<Op, Subtract>) {
    const T y = std::is_same_v<Op, Add> ? b : -b;
    r = a + y;
    if (r != 0 && !(magnitude(r) > Traits<T>::min())) return false;  // tiny, infinite or NaN
    if (is_inf(r)) return false;
    const T yv = r - a, av = r - yv;
    err = (a - av) + (y - yv);
  } else if constexpr (std::is_same_v<Op, Multiply>) {
    r = a * b;
    if (r == 0) {
      if (a != 0 && b != 0) return false;  // an underflow to zero
    } else if (!(magnitude(r) >= floor) || is_inf(r)) {
      return false;
    }
    err = r == 0 ? T(0) : fused(a, b, -r);
  } else {
    static_assert(std::is_same_v<Op, Divide>);
    if (b == 0 || is_inf(a) || is_inf(b)) return false;
    r = a / b;
    if (r == 0) {
      if (a != 0) return false;  // an underflow to zero
    } else if (!(magnitude(r) >= floor) || !(magnitude(a) >= floor) || is_inf(r)) {
      return false;
    }
    err = r == 0 ? T(0) : fused(-r, b, a);
  }
  exc = err != 0 ? kInexact : 0;
  return true;
}

template <class T, class Op> Result<T> arith(Cpu& c, T a, T b, Op op) {
  if (is_nan(a) || is_nan(b)) return nan_result(c, {a, b});
  const Rounding rm = fpc_rounding(c);
  uint8_t exc = 0;
  T r;
  auto exact = [&] { return exact_odd<T>([&] { return op(launder(f128(a)), f128(b)); }); };
  if constexpr (sizeof(T) < 16)
    if (rm == Rounding::NearestEven && nearest_even_alone(op, a, b, r, exc))
      return conclude_normal(c, rm, exc, r, exact);
  r = on_host<sizeof(T) == 16>(rm, exc, [&] { return op(launder(a), launder(b)); });
  if (exc & kInvalid) r = default_nan<T>();
  return conclude(c, rm, exc, r, exact);
}

// a * x + y in round to nearest even without MXCSR, as nearest_even_alone does for
// the basic operations: the exact error of the FMA is the sum of two values computed
// exactly (ErrFma: Boldo and Muller, "Exact and approximated error of the FMA", IEEE
// Trans. Computers 60(2), 2011), so the result is inexact exactly when that sum is
// not zero. It holds where nothing overflows or underflows: finite operands, the
// product and the result at least 2^(emin + 2p) (else the slow way).
template <class T> bool fma_nearest_even_alone(T a, T x, T y, T& r, uint8_t& exc) {
  const T floor = residual_floor<T>();
  if (is_inf(a) || is_inf(x) || is_inf(y)) return false;
  r = fused(a, x, y);
  const T u1 = a * x;
  if (!(magnitude(r) >= floor) || !(magnitude(u1) >= floor) || is_inf(r) || is_inf(u1)) return false;
  const T u2 = fused(a, x, -u1);  // a*x = u1 + u2 exactly
  auto two_sum = [](T p, T q, T& err) {
    const T s = p + q, qv = s - p, pv = s - qv;
    err = (p - pv) + (q - qv);
    return s;
  };
  T z, beta2;
  const T alpha1 = two_sum(y, u2, z);
  const T beta1 = two_sum(u1, alpha1, beta2);
  const T gamma = (beta1 - r) + beta2;
  exc = gamma + z != 0 ? kInexact : 0;  // a*x + y - r = gamma + z, exactly
  return true;
}

// x * y + addend, or - addend, with one rounding (MADBR and its kin: R3 * R2 +- R1;
// VFMA: V3 * V2 +- V4). NaN precedence [Principles of Operation, "Results: MULTIPLY
// AND ADD"]: a signaling NaN before a quiet one, and among either kind x, then y, then
// the addend (the third, second and first operands); an infinity times zero is invalid
// and gives the default NaN even when the addend is a NaN. (QEMU 7.2 takes the second
// operand's NaN first, signaling or not, and the addend's NaN for infinity times zero;
// QEMU 9.2 follows the table.)
template <class T> Result<T> multiply_add(Cpu& c, T x, T y, T addend_operand, bool subtract) {
  const bool inf_times_zero = (is_inf(x) && y == 0) || (x == 0 && is_inf(y));
  if (inf_times_zero) {
    suppressing(c, kInvalid);
    return {default_nan<T>()};
  }
  if (is_nan(x) || is_nan(y) || is_nan(addend_operand)) return nan_result(c, {x, y, addend_operand});
  const T addend = subtract ? -addend_operand : addend_operand;
  const Rounding rm = fpc_rounding(c);
  uint8_t exc = 0;
  T r;
  if constexpr (sizeof(T) == 16) {
    // Extended (VFMA of vector-enhancements 1): glibc's fmaf128, correctly rounded in
    // the host's mode; the result toward zero stands for the exact one (exact_odd).
    auto fused128 = [&] { return fmaf128(launder(x), launder(y), launder(addend)); };
    r = on_host<true>(rm, exc, fused128);
    if (exc & kInvalid) r = default_nan<T>();
    return conclude(c, rm, exc, r, [&] { return exact_odd<T>(fused128); });
  } else {
    auto exact = [&] {
      const f128 product = f128(x) * f128(y);  // exact: 2 x 53 bits fit in 113
      return exact_odd<T>([&] { return launder(product) + f128(addend); });
    };
    if (rm == Rounding::NearestEven && fma_nearest_even_alone(x, y, addend, r, exc))
      return conclude_normal(c, rm, exc, r, exact);
    r = on_host<false>(rm, exc, [&] { return std::fma(launder(x), launder(y), launder(addend)); });
    if (exc & kInvalid) r = default_nan<T>();
    return conclude(c, rm, exc, r, exact);
  }
}

// The square root of a positive finite extended value, rounded once in the host's
// mode: the integer square root of its significand (scaled to 231 or 232 bits, so the
// root has 116) with the remainder as a sticky bit, converted to __float128 (one
// rounding: 116 bits are enough for it to be right in every mode), then scaled by a
// power of two (exact: a root is never tiny or huge).
inline f128 extended_square_root(f128 a) {
  const u128 b = bits_of(a);
  const int biased = int(b >> 112) & 0x7FFF;
  u128 m = b & ((u128(1) << 112) - 1);
  int e = (biased ? biased : 1) - 16383 - 112;
  if (biased) m |= u128(1) << 112;
  if (e & 1) m <<= 1, --e;
  const int bits = 128 - int(m >> 64 ? __builtin_clzll(uint64_t(m >> 64)) : 64 + __builtin_clzll(uint64_t(m)));
  const int shift = (232 - bits) & ~1;  // the scaled significand N = m << shift has 231 or 232 bits
  const u128 hi = shift >= 128 ? m << (shift - 128) : m >> (128 - shift), lo = shift >= 128 ? 0 : m << shift;
  u128 root = 0, rem = 0;
  for (int pair = 115; pair >= 0; --pair) {  // two bits of N at a time, from the top
    const int at = 2 * pair;
    const unsigned two = unsigned((at >= 128 ? hi >> (at - 128) : lo >> at) & 3);
    rem = rem << 2 | two;
    const u128 trial = root << 2 | 1;
    root <<= 1;
    if (rem >= trial) rem -= trial, root |= 1;
  }
  return times_power_of_two(f128(launder(root | (rem != 0))), (e - shift) / 2);
}

template <class T> T host_square_root(T a) {
  if constexpr (sizeof(T) == 16) {
    if (is_nan(a) || a == 0 || (is_inf(a) && a > 0)) return a;
    if (a < 0) return launder(launder(a) - a) / 0;  // invalid: 0/0 raises it on the host
    return extended_square_root(a);
  } else {
    return std::sqrt(launder(a));
  }
}

template <class T> Result<T> square_root(Cpu& c, T a) {
  if (is_nan(a)) return nan_result(c, {a});
  const Rounding rm = fpc_rounding(c);
  uint8_t exc = 0;
  T r = on_host<sizeof(T) == 16>(rm, exc, [&] { return host_square_root(a); });
  if (exc & kInvalid) r = default_nan<T>();
  // Never overflows or underflows; whether it was incremented: the exact root is
  // above r when r*r (exact in __float128 for short and long) is below the operand,
  // and for extended the result toward zero tells.
  return conclude(c, rm, exc, r, [&] {
    if constexpr (sizeof(T) == 16) {
      uint8_t ignored = 0;
      return on_host<true>(Rounding::TowardZero, ignored, [&] { return host_square_root(a); });
    } else {
      const f128 root = r, square = root * root, nudge = root * power_of_two(-110);
      return square < f128(a) ? root + nudge : root - nudge;
    }
  });
}

// A long value rounded to short (LEDBR) in round to nearest even without MXCSR: a
// result above the smallest normal (or an exact zero) neither overflowed nor
// underflowed, and is inexact when it is not the operand. Else the slow way.
template <class To, class From> bool round_nearest_even_alone(From v, To& r, uint8_t& exc) {
  r = To(v);
  if (is_inf(r) || !(magnitude(r) > Traits<To>::min() || (r == 0 && v == 0))) return false;
  exc = From(r) != v ? kInexact : 0;
  return true;
}

// An integer converted in round to nearest even without MXCSR: it never overflows or
// underflows a short or long result, which is inexact when it does not convert back
// to the integer (inside I's range: [-2^63, 2^63) or [0, 2^64) for 64 bits).
template <class T, class I> T from_fixed_nearest_even(I x, uint8_t& exc) {
  const T r = T(x);
  const T top = T(power_of_two(int(sizeof(I) * 8) - std::is_signed_v<I>));
  const T bottom = std::is_signed_v<I> ? -top : T(0);
  exc = !(r >= bottom && r < top) || I(r) != x ? kInexact : 0;
  return r;
}

// Long to short (LEDBR) with a rounding modifier.
template <class To, class From> Result<To> round_to(Cpu& c, From v, Rounding rm, bool quiet_inexact) {
  if (is_nan(v)) {
    if (is_snan(v)) suppressing(c, kInvalid);
    return {convert_nan<To>(v)};
  }
  uint8_t exc = 0;
  if constexpr (sizeof(To) < sizeof(From) && sizeof(From) <= 8) {
    To near;
    if (rm == Rounding::NearestEven && round_nearest_even_alone(v, near, exc))
      return conclude_normal(c, rm, exc, near, [&] { return f128(v); }, quiet_inexact);
  }
  auto convert = [&] { return To(launder(v)); };
  const To r = rm == Rounding::TiesAway ? ties_away<To>(exc, v, convert)
                                        : on_host<sizeof(From) == 16 || sizeof(To) == 16>(rm, exc, convert);
  return conclude(c, rm, exc, r, [&] { return f128(v); }, quiet_inexact);
}

// From a fixed-point integer.
template <class T, class I> Result<T> from_fixed(Cpu& c, I x, Rounding rm, bool quiet_inexact) {
  uint8_t exc = 0;
  if constexpr (sizeof(T) < 16) {
    if (rm == Rounding::NearestEven) {
      const T near = from_fixed_nearest_even<T>(x, exc);
      return conclude_normal(c, rm, exc, near, [&] { return f128(x); }, quiet_inexact);
    }
  }
  auto convert = [&] { return T(launder(x)); };
  const T r = rm == Rounding::TiesAway ? ties_away<T>(exc, x, convert) : on_host<sizeof(T) == 16>(rm, exc, convert);
  return conclude(c, rm, exc, r, [&] { return f128(x); }, quiet_inexact);
}

// rint: x rounded to an integer in the host's current mode, inexact when it was not
// one. Adding and taking away 2^p (p: the fraction width) leaves no fraction bits.
template <class T> T round_to_integer(T x) {
  const T big = T(power_of_two(Traits<T>::kFraction));
  if (!(magnitude(x) < big)) return x;  // already integral (or infinite)
  const T r = x < 0 ? launder(launder(x) - big) + big : launder(launder(x) + big) - big;
  if (r == 0) return sign_of(x) ? -T(0) : T(0);  // a zero result keeps the operand's sign
  return r;
}

// The integer value nearest x in mode rm (LOAD FP INTEGER and the conversions to fixed).
template <class T> T integral(T x, Rounding rm, uint8_t& exc) {
  if (is_inf(x)) return x;
  if (rm == Rounding::TiesAway || rm == Rounding::Odd) {
    uint8_t ignored = 0;
    const T t = on_host<sizeof(T) == 16>(Rounding::TowardZero, ignored, [&] { return round_to_integer(x); });
    const T rest = magnitude(x - t);  // exact
    if (rest == 0) return t;
    exc |= kInexact;
    const T one = x < 0 ? T(-1) : T(1);
    if (rm == Rounding::TiesAway) return rest >= T(0.5) ? t + one : t;
    const T half = launder(t / 2);
    const bool even =
        on_host<sizeof(T) == 16>(Rounding::TowardZero, ignored, [&] { return round_to_integer(half); }) == half;
    return even ? t + one : t;
  }
  return on_host<sizeof(T) == 16>(rm, exc, [&] { return round_to_integer(launder(x)); });
}

template <class T> Result<T> load_integer(Cpu& c, T x, Rounding rm, bool quiet_inexact) {
  if (is_nan(x)) return nan_result(c, {x});
  uint8_t exc = 0;
  const T r = integral(x, rm, exc);
  return conclude(c, rm, exc, r, [&] { return f128(x); }, quiet_inexact);
}

template <class I> struct Fixed {
  I value;
  uint8_t cc;
  uint8_t trap = 0;
};

// To a fixed-point integer: a NaN or a value out of range is an invalid operation
// (CC 3) whose result is the integer nearest in direction (a NaN: the most negative,
// or zero when unsigned), and inexact as well.
template <class I, class T> Fixed<I> to_fixed(Cpu& c, T x, Rounding rm, bool quiet_inexact) {
  constexpr I kMin = std::numeric_limits<I>::min(), kMax = std::numeric_limits<I>::max();
  const uint8_t cc = x == 0 ? 0 : x < 0 ? 1 : 2;
  uint8_t exc = 0;
  const T r = is_nan(x) ? x : integral(x, rm, exc);
  if (is_nan(r) || f128(r) < f128(kMin) || f128(r) > f128(kMax)) {
    suppressing(c, kInvalid);
    if (!quiet_inexact) set_flags(c, kInexact);
    return {is_nan(x) || x < 0 ? kMin : kMax, 3};
  }
  const I v = I(r);
  if (quiet_inexact || !(exc & kInexact)) return {v, cc};
  if (masks(c) & kInexact)
    return {v, cc, uint8_t(kInexact | (magnitude(f128(r)) > magnitude(f128(x)) ? kIncremented : 0))};
  set_flags(c, kInexact);
  return {v, cc};
}

// CC of a result: 0 zero, 1 negative, 2 positive, 3 NaN.
template <class T> uint8_t cc_of(T v) {
  if (is_nan(v)) return 3;
  return v == 0 ? 0 : sign_of(v) ? 1 : 2;
}

// COMPARE (quiet: only a signaling NaN is invalid) and COMPARE AND SIGNAL (any NaN).
template <class T> uint8_t compare(Cpu& c, T a, T b, bool signaling) {
  if (is_nan(a) || is_nan(b)) {
    if (signaling || is_snan(a) || is_snan(b)) suppressing(c, kInvalid);
    return 3;
  }
  return a == b ? 0 : a < b ? 1 : 2;
}

}  // namespace emu::isa::bfp
