// How every text report writes its numbers (one style): whole numbers with their
// thousands grouped ("1,234,567"), decimals with a fixed number of digits after the
// point and the whole part grouped. No locale, so the same figure gives the same
// bytes everywhere. The JSON twins write plain numbers.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace cfg {

std::string grouped(uint64_t v);  // 1234567 -> "1,234,567"
// `v` with `digits` after the point ("-0.000" written as "0.000"); `not_finite` if it is not.
std::string fixed(double v, int digits, std::string_view not_finite);
// fixed() with the whole part grouped: 1234567.5 with 3 digits -> "1,234,567.500".
std::string grouped_fixed(double v, int digits, std::string_view not_finite = "n/a");

}  // namespace cfg
