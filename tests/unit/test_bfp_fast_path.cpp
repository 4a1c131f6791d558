// The round-to-nearest-even shortcut of the basic BFP operations (bfp.h,
// nearest_even_alone) against the way every other operation goes (on_host, under
// MXCSR): wherever the shortcut answers, its result and its exceptions must be the
// slow way's, bit for bit. Operands are drawn over the whole exponent range and
// packed near the edges the shortcut decides on (the normal range's bottom, the
// residual floor 2^(emin+2p), overflow), with zeros, infinities and subnormals.
#include <catch2/catch.hpp>

#include <random>

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
    if (bits_of(fast) != bits_of(slow) || fast_exc != slow_exc) {
      INFO(what << " of " << double(a) << " and " << double(b) << ": shortcut " << double(fast) << " exc "
                << int(fast_exc) << ", MXCSR " << double(slow) << " exc " << int(slow_exc));
      CHECK(false);
      return;
    }
    inexact += fast_exc != 0;
  }
  // The shortcut is the common way, and tells exact from inexact.
  CHECK(answered > 200000);
  CHECK(inexact > 10000);
  CHECK(answered - inexact > 5000);
}

}  // namespace

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
