#include "report/report_json.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <ostream>
#include <stdexcept>

#include "config/number_text.h"

namespace report_json {

namespace {

// A number whose text the report chose (fixed, significant) travels as binary data
// with this subtype: JSON has no way to carry "three digits after the point", and
// binary is a value no report puts in a file otherwise.
constexpr std::uint8_t kNumberText = 0x4e;  // 'N'

Json number_text(double value, const std::string& text) {
  if (!std::isfinite(value)) return nullptr;
  return Json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kNumberText);
}

std::string string_text(const std::string& s) {
  return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string double_text(double v) { return std::isfinite(v) ? fmt::format("{}", v) : "null"; }

std::string scalar_text(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: return string_text(v.get_ref<const std::string&>());
    case Json::value_t::number_integer: return fmt::format("{}", v.get<std::int64_t>());
    case Json::value_t::number_unsigned: return fmt::format("{}", v.get<std::uint64_t>());
    case Json::value_t::number_float: return double_text(v.get<double>());
    case Json::value_t::binary: {
      const auto& bytes = v.get_binary();
      if (bytes.has_subtype() && bytes.subtype() == kNumberText) return std::string(bytes.begin(), bytes.end());
      break;
    }
    default: break;
  }
  throw std::logic_error("report_json: a value a report cannot hold");
}

bool is_one_per_line(const Layout& layout, const std::string& key) {
  return std::find(layout.one_per_line.begin(), layout.one_per_line.end(), key) != layout.one_per_line.end();
}

// `indent`: the indent of the line `v` starts on. Spread, `v` has an element (or
// member) a line two spaces further in and its closer on a line of its own; inline,
// it stays on that line, though a member of it the layout names is still spread.
std::string value_text(const Json& v, const Layout& layout, bool spread, size_t indent) {
  if (!v.is_structured()) return scalar_text(v);
  const size_t inner = spread ? indent + 2 : indent;
  std::string out = v.is_object() ? "{" : "[";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (spread) out += (first ? "\n" : ",\n") + std::string(inner, ' ');
    else if (!first) out += ", ";
    first = false;
    const bool spread_member = v.is_object() && is_one_per_line(layout, it.key());
    if (v.is_object()) out += string_text(it.key()) + ": ";
    out += value_text(it.value(), layout, spread_member, inner);
  }
  if (spread) out += "\n" + std::string(indent, ' ');
  return out + (v.is_object() ? "}" : "]");
}

}  // namespace

Json fixed(double value, int digits) { return number_text(value, cfg::fixed(value, digits, "null")); }

Json significant(double value, int digits) { return number_text(value, fmt::format("{:.{}g}", value, digits)); }

std::string inline_text(const Json& value) { return value_text(value, {}, false, 0); }

std::string text(const Json& report, const Layout& layout) {
  return value_text(report, layout, report.is_object() && !report.empty(), 0) + "\n";
}

void write(std::ostream& out, const Json& report, const Layout& layout) { out << text(report, layout); }

}  // namespace report_json
