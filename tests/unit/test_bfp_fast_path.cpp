// The round-to-nearest-even shortcut of the basic BFP operations (bfp.h,
// nearest_even_alone) against the way every other operation goes (on_host, under
// MXCSR): wherever the shortcut answers, its result and its exceptions must be the
// slow way's, bit for bit. Operands are drawn over the whole exponent range and
// packed near the edges the shortcut decides on (the normal range's bottom, the
// residual floor 2^(emin+2p), overflow), with zeros, infinities and subnormals.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include "emu/isa/bfp.h"

using namespace emu::isa::bfp;

namespace {

template <class T> T draw(std::mt19937_64& g) {
  using Bits = typename Traits<T>::Bits;
  constexpr int kBias = -Traits<T>::kMinExponent + 1, kFraction = Traits<T>::kFraction;
  const Bits fraction = Bits(g()) & ((Bits(1) << kFraction) - 1);
  const int edges[] = {0, 1, 2, kBias + Traits<T>::kMinExponent + 2 * (kFraction + 1), kBias / 2, kBias, 2 * kBias - 1,
                       2 * kBias};
  int biased;
  switch (g() % 4) {
    case 0: biased = int(g() % (2 * kBias + 1)); break;        // anywhere
    case 1: biased = edges[g() % 8] + int(g() % 5) - 2; break;  // near an edge
    case 2: biased = kBias + int(g() % 9) - 4; break;           // near 1: inexact and exact sums
    default: biased = kBias + int(g() % 61) - 30; break;
  }
  biased = std::clamp(biased, 0, 2 * kBias);  // 2*kBias: infinity (or a NaN, never drawn)
  const Bits f = biased == 2 * kBias ? 0 : g() % 8 == 0 ? Bits(g() % 16) << (kFraction - 4) : fraction;
  const Bits sign = Bits(g() & 1) << (sizeof(T) * 8 - 1);
  return from_bits<T>(sign | Bits(biased) << kFraction | f);
}

// Whether the shortcut answered as MXCSR did, bit for bit and flag for flag; if not,
// the failure names the operation and operands (describe() prints them).
template <class T, class Describe>
bool same_answer(T fast, uint8_t fast_exc, T slow, uint8_t slow_exc, Describe describe) {
  if (bits_of(fast) == bits_of(slow) && fast_exc == slow_exc) return true;
  std::ostringstream out;
  describe(out);
  FAIL_CHECK(out.str() << ": shortcut " << double(fast) << " exc " << int(fast_exc) << ", MXCSR " << double(slow)
                       << " exc " << int(slow_exc));
  return false;
}

template <class T, class Op> void agree(Op op, const char* what) {
  std::mt19937_64 g(20261126);
  size_t answered = 0, inexact = 0;
  for (int k = 0; k < 400000; ++k) {
    const T a = draw<T>(g), b = g() % 16 == 0 ? a : draw<T>(g);
    T fast;
    uint8_t fast_exc = 0;
    if (!nearest_even_alone(op, a, b, fast, fast_exc)) continue;
    ++answered;
    uint8_t slow_exc = 0;
    const T slow = on_host<false>(Rounding::NearestEven, slow_exc, [&] { return op(launder(a), launder(b)); });
    if (!same_answer(fast, fast_exc, slow, slow_exc,
                     [&](std::ostream& o) { o << what << " of " << double(a) << " and " << double(b); }))
      return;
    inexact += fast_exc != 0;
  }
  // The shortcut is the common way, and tells exact from inexact.
  CHECK(answered > 200000);
  CHECK(inexact > 10000);
  CHECK(answered - inexact > 5000);
}

template <class T> void fma_agrees(const char* what) {
  std::mt19937_64 g(20261127);
  size_t answered = 0, inexact = 0;
  for (int k = 0; k < 400000; ++k) {
    const T a = draw<T>(g), x = draw<T>(g);
    // Addends that cancel the product (exactly, nearly) as well as any.
    const T y = g() % 4 == 0 ? -(a * x) : g() % 4 == 0 ? -(a * x) * T(1 + 1e-7) : draw<T>(g);
    T fast;
    uint8_t fast_exc = 0;
    if (!fma_nearest_even_alone(a, x, y, fast, fast_exc)) continue;
    ++answered;
    uint8_t slow_exc = 0;
    const T slow =
        on_host<false>(Rounding::NearestEven, slow_exc, [&] { return std::fma(launder(a), launder(x), launder(y)); });
    if (!same_answer(fast, fast_exc, slow, slow_exc, [&](std::ostream& o) {
          o << what << " of " << double(a) << " * " << double(x) << " + " << double(y);
        }))
      return;
    inexact += fast_exc != 0;
  }
  CHECK(answered > 100000);
  CHECK(inexact > 10000);
  CHECK(answered - inexact > 1000);
}

}  // namespace

TEST_CASE("BFP: the round-to-nearest shortcut of multiply and add agrees with MXCSR's flags", "[float]") {
  fma_agrees<double>("MADBR");
  fma_agrees<float>("MAEBR");
}

TEST_CASE("BFP: the round-to-nearest shortcut of LEDBR and of the conversions from fixed agrees with MXCSR's flags",
          "[float]") {
  std::mt19937_64 g(20261128);
  size_t answered = 0;
  for (int k = 0; k < 400000; ++k) {
    const double v = g() % 8 == 0 ? double(draw<float>(g)) : draw<double>(g);
    float fast;
    uint8_t fast_exc = 0, slow_exc = 0;
    if (!round_nearest_even_alone(v, fast, fast_exc)) continue;
    ++answered;
    const float slow = on_host<false>(Rounding::NearestEven, slow_exc, [&] { return float(launder(v)); });
    INFO("LEDBR of " << v);
    REQUIRE(bits_of(fast) == bits_of(slow));
    REQUIRE(int(fast_exc) == int(slow_exc));
  }
  CHECK(answered > 100000);
  auto ints = [&](auto sample, const char* what) {
    using I = decltype(sample);
    for (int k = 0; k < 200000; ++k) {
      const int shift = int(g() % (sizeof(I) * 8));
      I x = I(g() >> shift);
      if (g() % 8 == 0) x = std::numeric_limits<I>::max() - I(g() % 4);
      if (g() % 8 == 0) x = std::numeric_limits<I>::min() + I(g() % 4);
      if (std::is_signed_v<I> && g() % 2) x = I(-std::make_unsigned_t<I>(x));  // (modular: INT64_MIN stays)
      auto check = [&](auto target) {
        using T = decltype(target);
        uint8_t fast_exc = 0, slow_exc = 0;
        const T fast = from_fixed_nearest_even<T>(x, fast_exc);
        const T slow = on_host<false>(Rounding::NearestEven, slow_exc, [&] { return T(launder(x)); });
        INFO(what << " of " << int64_t(x) << " (" << uint64_t(x) << ")");
        REQUIRE(bits_of(fast) == bits_of(slow));
        REQUIRE(int(fast_exc) == int(slow_exc));
      };
      check(0.0);
      check(0.0f);
    }
  };
  ints(int64_t(0), "CDGBR/CEGBR");
  ints(uint64_t(0), "CDLGBR/CELGBR");
  ints(int32_t(0), "CDFBR/CEFBR");
  ints(uint32_t(0), "CDLFBR/CELFBR");
}

TEST_CASE("BFP: the round-to-nearest shortcut of add, subtract, multiply, divide agrees with MXCSR's flags",
          "[float]") {
  agree<double>(Add{}, "ADBR");
  agree<double>(Subtract{}, "SDBR");
  agree<double>(Multiply{}, "MDBR");
  agree<double>(Divide{}, "DDBR");
  agree<float>(Add{}, "AEBR");
  agree<float>(Subtract{}, "SEBR");
  agree<float>(Multiply{}, "MEEBR");
  agree<float>(Divide{}, "DEBR");
}
