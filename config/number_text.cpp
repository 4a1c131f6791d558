#include "config/number_text.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace cfg {

namespace {
// Commas every three digits of the whole part of `plain` (digits, an optional sign and
// an optional fraction).
std::string group_whole_part(const std::string& plain) {
  const size_t first = !plain.empty() && plain[0] == '-' ? 1 : 0;
  const size_t end = std::min(plain.find('.'), plain.size());
  // Built left to right (not by insert(), which GCC 12's -Wrestrict misreads at -O2).
  std::string out = plain.substr(0, first);
  for (size_t at = first; at < end; ++at) {
    if (at > first && (end - at) % 3 == 0) out += ',';
    out += plain[at];
  }
  return out + plain.substr(end);
}
}  // namespace

std::string grouped(uint64_t v) { return group_whole_part(std::to_string(v)); }

std::string fixed(double v, int digits, std::string_view not_finite) {
  if (!std::isfinite(v)) return std::string(not_finite);
  std::string out = fmt::format("{:.{}f}", v, digits);
  if (out.rfind("-0", 0) == 0 && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);  // no "-0.000"
  return out;
}

std::string grouped_fixed(double v, int digits, std::string_view not_finite) {
  if (!std::isfinite(v)) return std::string(not_finite);
  return group_whole_part(fixed(v, digits, not_finite));
}

}  // namespace cfg
