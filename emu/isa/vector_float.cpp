// Vector floating point [Principles of Operation, chapter 24, "Vector Floating-Point
// Instructions"]: the z13's long format, the z14's short and extended formats
// (vector-enhancements facility 1, extended values filling a register, single-element
// only) with VFMIN, VFMAX, VFNMA and VFNMS, and the z15's word conversions
// (vector-enhancements facility 2). Each element is the scalar BFP operation of bfp.h
// (the same results, NaN rules, rounding modes and flags); what differs is the
// response to an IEEE exception whose mask is on: a vector-processing exception whose
// VXC names the element and the exception, and the whole instruction suppressed (the
// register and the FPC flags unchanged) [chapter 24, "IEEE Exceptions"]. Elements of
// the first operand beyond a single-element operation's element 0 become zero.
// Compiled with -frounding-math, as float.cpp.
#include "emu/isa/bfp.h"
#include "emu/isa/vector.h"

namespace emu::isa {
namespace {

using bfp::f128;

// The floating-point format field (FPF): 2 short, 3 long, 4 extended.
enum : unsigned { kShort = 2, kLong = 3, kExtended = 4 };

// Element access by type: float the words, double the doublewords, __float128 the
// whole register.
template <class T> constexpr unsigned kEs = sizeof(T) == 4 ? 2 : 3;
template <class T> T get(const VectorRegister& v, unsigned k) {
  if constexpr (sizeof(T) == 16) return bfp::from_bits<T>(whole(v));
  else return bfp::from_bits<T>(typename bfp::Traits<T>::Bits(element(v, kEs<T>, k)));
}
template <class T> void put(VectorRegister& v, unsigned k, T x) {
  if constexpr (sizeof(T) == 16) v = from_whole(bfp::bits_of(x));
  else set_element(v, kEs<T>, k, bfp::bits_of(x));
}
template <class T> void put_true(VectorRegister& v, unsigned k) {
  if constexpr (sizeof(T) == 16) v = from_whole(~u128(0));
  else set_element(v, kEs<T>, k, ~0ull);
}

// The single-element control (bit 0 of its M field, value 8): element 0 only. An
// extended value is the single element of its register.
inline bool single(unsigned m) { return m & 8; }
template <class T> unsigned count(unsigned m) { return single(m) || sizeof(T) == 16 ? 1 : 16 / unsigned(sizeof(T)); }
inline void reserved_zero(unsigned field, unsigned bits) {
  if (field & bits) program_check(Pic::Specification);
}

inline bool has(const Cpu& c, Facility f) { return facility_installed(f, c.arch()); }

// Calls f with a value of the element type the FPF names; the short and extended
// formats came with vector-enhancements facility 1 (a specification exception before).
template <class F> void by_format(Cpu& c, unsigned fpf, F f, bool short_ok = true, bool extended_ok = true) {
  const bool enhanced = has(c, Facility::VectorEnhancements1);
  if (fpf == kLong) f(double{});
  else if (fpf == kShort && short_ok && enhanced) f(float{});
  else if (fpf == kExtended && extended_ok && enhanced) f(f128{});
  else program_check(Pic::Specification);
}

// The VXC of a trapped IEEE exception: element index, then the exception's code, the
// most important first. trapped is never zero.
uint8_t vxc(unsigned element, uint8_t trapped) {
  const uint8_t code = trapped & bfp::kInvalid ? 1 : trapped & bfp::kDivide ? 2 : trapped & bfp::kOverflow ? 3
                     : trapped & bfp::kUnderflow ? 4 : 5;
  return uint8_t(element << 4 | code);
}

// Runs one(k, out) for elements 0..n-1, each as the scalar operation with the IEEE
// masks off but underflow's (so the bfp.h functions raise flags and never trap, except
// that a tiny result, exact or not, comes back with a pending underflow trap, which
// one() returns when it has a rounded result: a tiny result is an underflow exception
// when its mask is on, as for the scalar instructions), and returns the result. An
// exception whose mask is on stops it: a vector-processing exception for that element
// (numbered from the source: `step` source elements per element), nothing stored, no
// flag set. Otherwise the flags of all elements are set together.
template <class One> VectorRegister elementwise(Cpu& c, unsigned n, One one, unsigned step = 1) {
  const uint32_t fpc = c.fpc;
  const uint8_t masks = uint8_t(fpc >> 24);
  const uint32_t quiet = (fpc & 0x0000FFFFu) | (fpc & uint32_t(bfp::kUnderflow) << 24);
  VectorRegister out{0, 0};
  uint8_t flags = 0;
  for (unsigned k = 0; k < n; ++k) {
    c.fpc = quiet;  // the flags off; the DXC and the rounding mode kept
    uint8_t raised = 0;
    if constexpr (std::is_void_v<decltype(one(k, out))>) one(k, out);
    else raised = one(k, out) & bfp::kUnderflow;
    raised |= uint8_t(c.fpc >> 16);
    c.fpc = fpc;
    if (const uint8_t trapped = raised & masks) vector_exception(vxc(k * step, trapped));
    flags |= raised;
  }
  c.fpc = fpc | uint32_t(flags) << 16;
  return out;
}

// --- arithmetic --------------------------------------------------------------------------
// VRR-c: V1 = V2 op V3; M4 the format, M5 the single-element control.
template <class Op> void arithmetic(Cpu& c, const Insn& i, Op op) {
  reserved_zero(m5(i), 7);
  by_format(c, i.m4, [&](auto t) {
    using T = decltype(t);
    const VectorRegister a = c.vr[i.r2], b = c.vr[i.r3];
    c.vr[i.r1] = elementwise(c, count<T>(m5(i)), [&](unsigned k, VectorRegister& out) {
      const auto r = bfp::arith(c, get<T>(a, k), get<T>(b, k), op);
      put(out, k, r.value);
      return r.trap;
    });
  });
}

// VRR-e: V1 = V2 * V3 +- V4, negated for VFNMA and VFNMS (a NaN result keeps its sign).
// M6 the format, M5 the single-element control. NaN precedence: V3, V2, V4, as for
// the scalar MULTIPLY AND ADD (bfp::multiply_add).
// The negative forms negate the rounded result [Principles of Operation, chapter 24,
// "VECTOR FP NEGATIVE MULTIPLY AND ADD" and "... AND SUBTRACT": the result of VFMA or
// VFMS with its sign inverted], so VFNMA is -VFMA bit for bit in every rounding mode:
// toward +infinity (2) rounds the sum up before the sign changes. QEMU 7.2 inverts the
// sign before rounding (softfloat's float_muladd_negate_result then rounded -(x) up);
// QEMU's softfloat commit "fpu: Process float_muladd_negate_result after rounding"
// (2025, for the directed modes) does as here. The scalar BFP has no negative form.
void multiply_add(Cpu& c, const Insn& i, bool subtract, bool negate) {
  reserved_zero(m5(i), 7);
  by_format(c, m6(i), [&](auto t) {
    using T = decltype(t);
    const VectorRegister a = c.vr[i.r2], b = c.vr[i.r3], d = c.vr[v4(i)];
    c.vr[i.r1] = elementwise(c, count<T>(m5(i)), [&](unsigned k, VectorRegister& out) {
      const auto r = bfp::multiply_add(c, get<T>(b, k), get<T>(a, k), get<T>(d, k), subtract);
      put(out, k, negate && !bfp::is_nan(r.value) ? -r.value : r.value);
      return r.trap;
    });
  });
}

// VRR-a with M3 the format, M4 the single-element (8) and inexact-suppression (4)
// controls, M5 the rounding method (as the scalar M3 modifiers: 2 and above 7 are
// specification exceptions).
bfp::Rounding rounding_method(Cpu& c, const Insn& i) {
  reserved_zero(i.m4, 3);
  return bfp::modifier_rounding(c, m5(i));
}

// --- comparisons -------------------------------------------------------------------------
enum class Relation { Equal, High, HighOrEqual };
bool holds(Relation r, uint8_t cc) {
  switch (r) {
    case Relation::Equal: return cc == 0;
    case Relation::High: return cc == 2;
    default: return cc == 0 || cc == 2;
  }
}

// VFCE, VFCH, VFCHE: all ones where the relation holds. M5 bit 1 (SQ, from vector-
// enhancements 1) makes the comparison signaling (any NaN invalid); M6 bit 3 (CS)
// sets the CC: 0 every element true, 1 some, 3 none.
void compare_elements(Cpu& c, const Insn& i, Relation rel) {
  const bool signaling = m5(i) & 4, sets_cc = m6(i) & 1;
  reserved_zero(m5(i), 3);
  reserved_zero(m6(i), 0xE);
  if (signaling && !has(c, Facility::VectorEnhancements1)) program_check(Pic::Specification);
  by_format(c, i.m4, [&](auto t) {
    using T = decltype(t);
    const VectorRegister a = c.vr[i.r2], b = c.vr[i.r3];
    const unsigned n = count<T>(m5(i));
    unsigned matches = 0;
    const VectorRegister r = elementwise(c, n, [&](unsigned k, VectorRegister& out) {
      if (holds(rel, bfp::compare(c, get<T>(a, k), get<T>(b, k), signaling))) put_true<T>(out, k), ++matches;
    });
    c.vr[i.r1] = r;
    if (sets_cc) c.cc = matches == n ? 0 : matches ? 1 : 3;
  });
}

// WFC, WFK: element 0 of V1 and V2, the CC as the scalar COMPARE (AND SIGNAL).
void compare_scalar(Cpu& c, const Insn& i, bool signaling) {
  reserved_zero(i.m4, 0xF);
  by_format(c, i.m3, [&](auto t) {
    using T = decltype(t);
    uint8_t cc = 0;
    elementwise(c, 1, [&](unsigned, VectorRegister&) {
      cc = bfp::compare(c, get<T>(c.vr[i.r1], 0), get<T>(c.vr[i.r2], 0), signaling);
    });
    c.cc = cc;
  });
}

// --- conversions ---------------------------------------------------------------------------
// The formats of the conversions between BFP and fixed point (M3): long with
// doublewords, and short with words from vector enhancements 2 on; `run` gets a value
// of the BFP type and one of the integer type.
template <bool kSigned, class Run> void by_conversion_format(Cpu& c, const Insn& i, Run run) {
  if (i.m3 == kLong) run(double{}, std::conditional_t<kSigned, int64_t, uint64_t>{});
  else if (i.m3 == kShort && has(c, Facility::VectorEnhancements2)) run(float{}, std::conditional_t<kSigned, int32_t, uint32_t>{});
  else program_check(Pic::Specification);
}

// VCDG, VCDLG (VCEFB, VCELFB): signed or unsigned integers to long (short) values.
template <bool kSigned> void from_fixed(Cpu& c, const Insn& i) {
  const bfp::Rounding rm = rounding_method(c, i);
  const bool quiet = bfp::suppress_inexact(i.m4);
  auto run = [&](auto t, auto integer) {
    using T = decltype(t);
    using I = decltype(integer);
    const VectorRegister v = c.vr[i.r2];
    c.vr[i.r1] = elementwise(c, count<T>(i.m4), [&](unsigned k, VectorRegister& out) {
      const auto r = bfp::from_fixed<T>(c, I(element(v, kEs<T>, k)), rm, quiet);
      put(out, k, r.value);
      return r.trap;
    });
  };
  by_conversion_format<kSigned>(c, i, run);
}

// VCGD, VCLGD (VCFEB, VCLFEB): to signed or unsigned integers; a NaN or a value out
// of range is invalid and gives the nearest integer in its direction (bfp::to_fixed).
template <bool kSigned> void to_fixed(Cpu& c, const Insn& i) {
  const bfp::Rounding rm = rounding_method(c, i);
  const bool quiet = bfp::suppress_inexact(i.m4);
  auto run = [&](auto t, auto integer) {
    using T = decltype(t);
    using I = decltype(integer);
    const VectorRegister v = c.vr[i.r2];
    c.vr[i.r1] = elementwise(c, count<T>(i.m4), [&](unsigned k, VectorRegister& out) {
      set_element(out, kEs<T>, k, uint64_t(bfp::to_fixed<I>(c, get<T>(v, k), rm, quiet).value));
    });
  };
  by_conversion_format<kSigned>(c, i, run);
}

// A value lengthened: exact; a signaling NaN is invalid and comes out quiet.
template <class To, class From> To lengthened(Cpu& c, From v) {
  if (!bfp::is_nan(v)) return To(v);
  if (bfp::is_snan(v)) bfp::suppressing(c, bfp::kInvalid);
  return bfp::convert_nan<To>(v);
}

// --- min and max -----------------------------------------------------------------------
// M6 of VFMIN and VFMAX: how NaNs and equal zeros are treated, and (plus 8) whether
// the magnitudes are compared [chapter 24, "VECTOR FP MINIMUM" and "VECTOR FP
// MAXIMUM"]: IEEE minNum/maxNum, Java Math.min/max, the C macro (a < b ? a : b),
// C++ std::min/max, and C fmin/fmax. The choices for NaNs and zeros are QEMU's.
enum MinMax : unsigned { kIeee = 0, kJava = 1, kCMacro = 2, kCpp = 3, kFmin = 4 };

// a before b in the order the operation chooses by: -1, 0 or 1; numbers only, with a
// negative zero below a positive one (magnitudes: only when they are equal).
template <class T> int order(T a, T b, bool magnitudes) {
  const T x = bfp::magnitude(a), y = bfp::magnitude(b);
  int cmp = x < y ? -1 : x > y ? 1 : 0;
  if (!magnitudes || cmp == 0) {
    if (bfp::sign_of(a) != bfp::sign_of(b)) cmp = bfp::sign_of(a) ? -1 : 1;
    else if (bfp::sign_of(a)) cmp = -cmp;
  }
  return cmp;
}
template <class T> T pick(T a, T b, bool is_min, bool magnitudes) {
  const int cmp = order(a, b, magnitudes);
  return (is_min ? cmp <= 0 : cmp >= 0) ? a : b;
}

template <class T> T min_max(Cpu& c, T a, T b, unsigned mode, bool is_min) {
  const bool magnitudes = mode & 8;
  const unsigned type = mode & 7;
  const bool nan_a = bfp::is_nan(a), nan_b = bfp::is_nan(b);
  if (type == kIeee) {
    // minNum/maxNum: a quiet NaN beside a number gives the number; otherwise NaNs
    // propagate as in arithmetic. The result is an operand as it was.
    if (nan_a || nan_b) {
      if (!bfp::is_snan(a) && !bfp::is_snan(b) && !(nan_a && nan_b)) return nan_a ? b : a;
      return bfp::nan_result(c, {a, b}).value;
    }
    return pick(a, b, is_min, magnitudes);
  }
  // The other types compare (and deliver) the magnitudes when asked.
  if (magnitudes) a = bfp::magnitude_bits(a), b = bfp::magnitude_bits(b);
  if (nan_a || nan_b) {
    if (bfp::is_snan(a) || bfp::is_snan(b)) bfp::suppressing(c, bfp::kInvalid);
    switch (type) {
      case kJava:
        if (bfp::is_snan(a)) return bfp::quieted(a);
        if (bfp::is_snan(b)) return bfp::quieted(b);
        return nan_a ? a : b;
      case kFmin: return nan_b ? a : b;
      case kCMacro: bfp::suppressing(c, bfp::kInvalid); return b;
      default: bfp::suppressing(c, bfp::kInvalid); return a;  // C++
    }
  }
  if (a == 0 && b == 0) {
    switch (type) {
      case kJava: case kFmin: return is_min == bfp::sign_of(a) ? a : b;
      case kCMacro: return b;
      default: return a;  // C++
    }
  }
  return pick(a, b, is_min, false);
}

void min_max(Cpu& c, const Insn& i, bool is_min) {
  const unsigned mode = m6(i);
  if ((mode & 7) > 4 || mode > 12) program_check(Pic::Specification);
  reserved_zero(m5(i), 7);
  by_format(c, i.m4, [&](auto t) {
    using T = decltype(t);
    const VectorRegister a = c.vr[i.r2], b = c.vr[i.r3];
    c.vr[i.r1] = elementwise(c, count<T>(m5(i)), [&](unsigned k, VectorRegister& out) {
      put(out, k, min_max(c, get<T>(a, k), get<T>(b, k), mode, is_min));
    });
  });
}

}  // namespace

// --- handlers --------------------------------------------------------------------------------
void vfa(Cpu& c, const Insn& i) { arithmetic(c, i, bfp::Add{}); }
void vfs(Cpu& c, const Insn& i) { arithmetic(c, i, bfp::Subtract{}); }
void vfm(Cpu& c, const Insn& i) { arithmetic(c, i, bfp::Multiply{}); }
void vfd(Cpu& c, const Insn& i) { arithmetic(c, i, bfp::Divide{}); }

void vfsq(Cpu& c, const Insn& i) {
  reserved_zero(i.m4, 7);
  by_format(c, i.m3, [&](auto t) {
    using T = decltype(t);
    const VectorRegister a = c.vr[i.r2];
    c.vr[i.r1] = elementwise(c, count<T>(i.m4), [&](unsigned k, VectorRegister& out) {
      const auto r = bfp::square_root(c, get<T>(a, k));
      put(out, k, r.value);
      return r.trap;
    });
  });
}

void vfma(Cpu& c, const Insn& i) { multiply_add(c, i, false, false); }
void vfms(Cpu& c, const Insn& i) { multiply_add(c, i, true, false); }
void vfnma(Cpu& c, const Insn& i) { multiply_add(c, i, false, true); }
void vfnms(Cpu& c, const Insn& i) { multiply_add(c, i, true, true); }

void vfce(Cpu& c, const Insn& i) { compare_elements(c, i, Relation::Equal); }
void vfch(Cpu& c, const Insn& i) { compare_elements(c, i, Relation::High); }
void vfche(Cpu& c, const Insn& i) { compare_elements(c, i, Relation::HighOrEqual); }
void wfc(Cpu& c, const Insn& i) { compare_scalar(c, i, false); }
void wfk(Cpu& c, const Insn& i) { compare_scalar(c, i, true); }

// VECTOR LOAD FP INTEGER.
void vfi(Cpu& c, const Insn& i) {
  const bfp::Rounding rm = rounding_method(c, i);
  const bool quiet = bfp::suppress_inexact(i.m4);
  by_format(c, i.m3, [&](auto t) {
    using T = decltype(t);
    const VectorRegister a = c.vr[i.r2];
    c.vr[i.r1] = elementwise(c, count<T>(i.m4), [&](unsigned k, VectorRegister& out) {
      const auto r = bfp::load_integer(c, get<T>(a, k), rm, quiet);
      put(out, k, r.value);
      return r.trap;
    });
  });
}

void vcdg(Cpu& c, const Insn& i) { from_fixed<true>(c, i); }
void vcdlg(Cpu& c, const Insn& i) { from_fixed<false>(c, i); }
void vcgd(Cpu& c, const Insn& i) { to_fixed<true>(c, i); }
void vclgd(Cpu& c, const Insn& i) { to_fixed<false>(c, i); }

// VECTOR FP LOAD LENGTHENED: the even-numbered words (short to long), or doubleword 0
// (long to extended, vector-enhancements 1).
void vfll(Cpu& c, const Insn& i) {
  reserved_zero(i.m4, 7);
  const VectorRegister v = c.vr[i.r2];
  if (i.m3 == kShort) {
    c.vr[i.r1] = elementwise(
        c, count<double>(i.m4),
        [&](unsigned k, VectorRegister& out) { put(out, k, lengthened<double>(c, get<float>(v, 2 * k))); }, 2);
  } else if (i.m3 == kLong && has(c, Facility::VectorEnhancements1)) {
    c.vr[i.r1] = elementwise(c, 1, [&](unsigned, VectorRegister& out) {
      put(out, 0, lengthened<f128>(c, get<double>(v, 0)));
    });
  } else {
    program_check(Pic::Specification);
  }
}

// VECTOR FP LOAD ROUNDED: long to short into the even-numbered words, or extended to
// long into doubleword 0 (vector-enhancements 1; doubleword 1 becomes zero).
void vflr(Cpu& c, const Insn& i) {
  const bfp::Rounding rm = rounding_method(c, i);
  const bool quiet = bfp::suppress_inexact(i.m4);
  const VectorRegister v = c.vr[i.r2];
  if (i.m3 == kLong) {
    c.vr[i.r1] = elementwise(c, count<double>(i.m4), [&](unsigned k, VectorRegister& out) {
      const auto r = bfp::round_to<float>(c, get<double>(v, k), rm, quiet);
      put(out, 2 * k, r.value);
      return r.trap;
    });
  } else if (i.m3 == kExtended && has(c, Facility::VectorEnhancements1)) {
    c.vr[i.r1] = elementwise(c, 1, [&](unsigned, VectorRegister& out) {
      const auto r = bfp::round_to<double>(c, get<f128>(v, 0), rm, quiet);
      put(out, 0, r.value);
      return r.trap;
    });
  } else {
    program_check(Pic::Specification);
  }
}

// VECTOR FP PERFORM SIGN OPERATION: M5 0 complement, 1 negative, 2 positive; no
// exceptions. A single-element operation changes doubleword 0 only, as QEMU does (for
// the short format the word beside element 0 comes from V2; extended: both doublewords).
void vfpso(Cpu& c, const Insn& i) {
  const unsigned op = m5(i);
  reserved_zero(i.m4, 7);
  if (op > 2) program_check(Pic::Specification);
  by_format(c, i.m3, [&](auto t) {
    using T = decltype(t);
    constexpr unsigned bits = sizeof(T) == 4 ? 32 : 64;
    const uint64_t sign = 1ull << (bits - 1);
    auto apply = [&](uint64_t x) { return op == 0 ? x ^ sign : op == 1 ? x | sign : x & ~sign; };
    const VectorRegister v = c.vr[i.r2];
    VectorRegister& out = c.vr[i.r1];
    if (sizeof(T) == 16 || single(i.m4)) {
      out.hi = op == 0 ? v.hi ^ (1ull << 63) : op == 1 ? v.hi | (1ull << 63) : v.hi & ~(1ull << 63);
      if (sizeof(T) == 16) out.lo = v.lo;
      return;
    }
    VectorRegister r = v;
    for (unsigned k = 0; k < count<T>(0); ++k) set_element(r, kEs<T>, k, apply(element(v, kEs<T>, k)));
    out = r;
  });
}

// VECTOR FP TEST DATA CLASS IMMEDIATE: all ones where I3 selects the element's class
// (the bits of TEST DATA CLASS); CC 0 every element selected, 1 some, 3 none.
void vftci(Cpu& c, const Insn& i) {
  reserved_zero(m5(i), 7);
  by_format(c, i.m4, [&](auto t) {
    using T = decltype(t);
    const VectorRegister v = c.vr[i.r2];
    const unsigned n = count<T>(m5(i));
    VectorRegister out{0, 0};
    unsigned matches = 0;
    for (unsigned k = 0; k < n; ++k)
      if (i.imm & bfp::data_class_bit(get<T>(v, k))) put_true<T>(out, k), ++matches;
    c.vr[i.r1] = out;
    c.cc = matches == n ? 0 : matches ? 1 : 3;
  });
}

void vfmin(Cpu& c, const Insn& i) { min_max(c, i, true); }
void vfmax(Cpu& c, const Insn& i) { min_max(c, i, false); }

}  // namespace emu::isa
