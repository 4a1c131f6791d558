#include "config/config.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>  // YAML::DeepRecursion
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>

#include "config/bounded_parse.h"
#include "config/input_file.h"

namespace cfg {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Leading decimal digits of `s` as an unsigned number. Returns the digit count (0 if
// none); sets `overflow` if they do not fit.
size_t leading_uint(std::string_view s, uint64_t& value, bool& overflow) {
  size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  overflow = false;
  value = 0;
  if (n == 0) return 0;
  auto r = std::from_chars(s.data(), s.data() + n, value);
  overflow = r.ec == std::errc::result_out_of_range;
  return n;
}

ConfigError too_large(std::string_view text, std::string_view what) {
  return ConfigError(fmt::format("\"{}\" is too large for {}", text, what));
}

std::string join(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t dot = path.find('.', start);
    parts.emplace_back(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string parent_of(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(path.substr(0, dot));
}

std::string join_path(std::string_view prefix, std::string_view name) {
  return prefix.empty() ? std::string(name) : std::string(prefix) + "." + std::string(name);
}

// Optimal string alignment distance (Levenshtein plus adjacent transpositions),
// ignoring case.
size_t edit_distance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// The candidate closest to `word`, if it is close enough to be a likely typo; the
// first declared wins a tie.
std::string suggest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::numeric_limits<size_t>::max();
  for (const auto& c : candidates) {
    // The distance is at least the difference in length: a word that much longer (a
    // 10 MB key) cannot be near, and its quadratic distance is never computed.
    const size_t gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    if (gap > std::max<size_t>(1, std::max(word.size(), c.size()) / 3)) continue;
    size_t d = edit_distance(word, c);
    size_t len = std::max(word.size(), c.size());
    if (d <= std::max<size_t>(1, len / 3) && 2 * d < len && d < best_d) best = c, best_d = d;
  }
  return best;
}

std::string place_of(std::string_view name, const YAML::Mark& mark) {
  if (mark.line < 0) return std::string(name);
  return fmt::format("{}:{}", name, mark.line + 1);
}

// A message quotes what it is about, but within bounds: a 10 MB key or value, or a
// quote left open to the end of the file, is cut, with its size said.
constexpr size_t kMaxKeyShown = 200, kMaxMessage = 2000;

std::string clipped(std::string_view text, size_t most) {
  if (text.size() <= most) return std::string(text);
  return fmt::format("{}... ({} bytes in all)", text.substr(0, most), text.size());
}

std::string at(std::string_view place, std::string_view path, std::string_view msg) {
  std::string out;
  if (!place.empty()) out += std::string(place) + ": ";
  if (!path.empty()) out += clipped(path, kMaxKeyShown) + ": ";
  out += clipped(msg, kMaxMessage);
  return out;
}

std::string_view kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "map";
    case YAML::NodeType::Sequence: return "sequence";
    case YAML::NodeType::Scalar: return "scalar";
    case YAML::NodeType::Null: return "null";
    default: return "undefined node";
  }
}

std::string_view noun(ValueType t) {
  switch (t) {
    case ValueType::Integer: return "a whole number";
    case ValueType::Size: return "a size";
    case ValueType::Frequency: return "a frequency";
    case ValueType::Cycles: return "a number of cycles";
    case ValueType::Bool: return "true or false";
    case ValueType::String: return "a string";
    case ValueType::Enum: return "one of the choices";
    case ValueType::Duration: return "a duration";
    case ValueType::Path: return "a path";
  }
  return "a value";
}

// A control character other than tab and line ends (a NUL from "\0" in a quoted YAML
// value, or from --set): no value means one, and a message cannot show it.
bool is_control(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f; }

std::string control_name(unsigned char c) {
  return c == 0 ? std::string("a NUL byte") : fmt::format("control character 0x{:02X}", c);
}

void check_no_control(std::string_view text) {
  for (size_t k = 0; k < text.size(); ++k)
    if (is_control(text[k]))
      throw ConfigError(fmt::format("{} at character {} of the value: a value cannot hold control characters",
                                    control_name(text[k]), k + 1));
}

// Parse text as type `t`, without the range check.
ConfigValue parse_as(ValueType t, const std::vector<std::string>& choices, std::string_view text) {
  check_no_control(text);
  switch (t) {
    case ValueType::Integer: return parse_integer(text);
    case ValueType::Size: return parse_size(text);
    case ValueType::Frequency: return parse_frequency_hz(text);
    case ValueType::Cycles: return parse_cycles(text);
    case ValueType::Bool: return parse_bool(text);
    case ValueType::String:
    case ValueType::Path: return std::string(text);
    case ValueType::Duration: return parse_duration_ns(text);
    case ValueType::Enum: {
      for (const auto& c : choices)
        if (c == text) return std::string(text);
      std::string hint = suggest(text, choices);
      throw ConfigError(fmt::format("\"{}\" is not one of: {}{}", text, join(choices),
                                    hint.empty() ? "" : fmt::format(" (did you mean {}?)", hint)));
    }
  }
  throw std::logic_error("config: unknown value type");
}

bool valid_component(std::string_view c) {
  if (c.empty()) return false;
  for (char ch : c)
    if (!((ch >= 'a' && ch <= 'z') || is_digit(ch) || ch == '_')) return false;
  return true;
}

std::string yaml_scalar(ValueType t, std::string_view s) {
  if (t != ValueType::String && t != ValueType::Path) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";  // a block scalar's lines: in double quotes a bare newline would fold
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\x{:02x}", unsigned(static_cast<unsigned char>(c)));
    else {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out + "\"";
}

// A list field's value: its type, then its range (if any).
ConfigValue parse_field(const KeyDecl& k, std::string_view text) {
  ConfigValue v = parse_as(k.type, k.choices, text);
  const bool lo = !k.min.empty(), hi = !k.max.empty();
  if ((lo && v < parse_as(k.type, k.choices, k.min)) || (hi && parse_as(k.type, k.choices, k.max) < v)) {
    if (lo && hi) throw ConfigError(fmt::format("{} is out of range {}..{}", text, k.min, k.max));
    if (lo) throw ConfigError(fmt::format("{} is below the minimum {}", text, k.min));
    throw ConfigError(fmt::format("{} is above the maximum {}", text, k.max));
  }
  return v;
}

std::string field_info(const KeyDecl& k) {
  std::string info(type_name(k.type));
  if (!k.unit.empty() && k.unit != info) info += " (" + k.unit + ")";
  if (!k.min.empty() && !k.max.empty()) info += ", " + k.min + ".." + k.max;
  else if (!k.min.empty()) info += ", at least " + k.min;
  else if (!k.max.empty()) info += ", at most " + k.max;
  if (!k.choices.empty()) info += ", one of: " + join(k.choices);
  info += k.default_value.empty() ? ", required" : ", default " + k.default_value;
  return info;
}

}  // namespace

// ---- Units ---------------------------------------------------------------------

std::string_view type_name(ValueType t) {
  switch (t) {
    case ValueType::Integer: return "integer";
    case ValueType::Size: return "size";
    case ValueType::Frequency: return "frequency";
    case ValueType::Cycles: return "cycles";
    case ValueType::Bool: return "bool";
    case ValueType::String: return "string";
    case ValueType::Enum: return "enum";
    case ValueType::Duration: return "duration";
    case ValueType::Path: return "path";
  }
  return "?";
}

uint64_t parse_size(std::string_view text) {
  auto bad = [&] {
    return ConfigError(fmt::format("\"{}\" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)", text));
  };
  uint64_t n;
  bool overflow;
  size_t digits = leading_uint(text, n, overflow);
  if (digits == 0) throw bad();
  std::string_view rest = text.substr(digits);
  unsigned shift = 0;
  if (!rest.empty()) {
    switch (rest.front()) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      case 't': case 'T': shift = 40; break;
      default: break;
    }
    if (shift) rest.remove_prefix(1);
    if (!(rest.empty() || rest == "B" || (shift && rest == "iB"))) throw bad();
  }
  if (overflow || n > (std::numeric_limits<uint64_t>::max() >> shift)) throw too_large(text, "a size");
  return n << shift;
}

namespace {

struct DecimalUnit {
  std::string_view name;
  unsigned exp;  // the base unit per this unit, as a power of ten
};

// A decimal number and its unit ("5.2GHz", "0.5ms") in whole base units (Hz, ns).
// Fraction digits beyond the base unit's resolution must be zeros. `bad` names the
// accepted forms; `resolution` ("1 Hz") and `what` ("a frequency") the errors.
uint64_t parse_decimal_with_unit(std::string_view text, std::initializer_list<DecimalUnit> units,
                                 const std::function<ConfigError()>& bad, std::string_view resolution,
                                 std::string_view what) {
  uint64_t whole;
  bool overflow;
  size_t digits = leading_uint(text, whole, overflow);
  if (digits == 0) throw bad();
  std::string_view rest = text.substr(digits);
  std::string_view frac;
  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    size_t f = 0;
    while (f < rest.size() && is_digit(rest[f])) ++f;
    if (f == 0) throw bad();
    frac = rest.substr(0, f);
    rest.remove_prefix(f);
  }
  const DecimalUnit* unit = nullptr;
  for (const DecimalUnit& u : units)
    if (rest == u.name) unit = &u;
  if (!unit) throw bad();
  const unsigned exp = unit->exp;
  uint64_t scale = 1;
  for (unsigned i = 0; i < exp; ++i) scale *= 10;
  for (size_t i = exp; i < frac.size(); ++i)
    if (frac[i] != '0') throw ConfigError(fmt::format("\"{}\" is finer than {}", text, resolution));
  uint64_t part = 0;
  for (size_t i = 0; i < exp; ++i) part = part * 10 + (i < frac.size() ? uint64_t(frac[i] - '0') : 0);
  if (overflow || whole > (std::numeric_limits<uint64_t>::max() - part) / scale) throw too_large(text, what);
  return whole * scale + part;
}

}  // namespace

uint64_t parse_frequency_hz(std::string_view text) {
  return parse_decimal_with_unit(
      text, {{"GHz", 9}, {"MHz", 6}, {"kHz", 3}, {"Hz", 0}},
      [&] { return ConfigError(fmt::format("\"{}\" is not a frequency (use e.g. 5.2GHz or 800MHz)", text)); },
      "1 Hz", "a frequency");
}

uint64_t parse_duration_ns(std::string_view text) {
  if (text == "0") return 0;  // zero needs no unit
  return parse_decimal_with_unit(
      text, {{"s", 9}, {"ms", 6}, {"us", 3}, {"ns", 0}},
      [&] {
        return ConfigError(fmt::format("\"{}\" is not a duration (use e.g. 2s, 1ms, 0.5ms, 500us or 40ns)", text));
      },
      "1 ns", "a duration");
}

uint64_t parse_cycles(std::string_view text) {
  uint64_t n;
  bool overflow;
  size_t digits = leading_uint(text, n, overflow);
  if (digits == 0 || digits != text.size())
    throw ConfigError(fmt::format("\"{}\" is not a whole number of cycles (use e.g. 40)", text));
  if (overflow) throw too_large(text, "a number of cycles");
  return n;
}

int64_t parse_integer(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  std::string_view body = negative ? text.substr(1) : text;
  uint64_t n;
  bool overflow;
  size_t digits = leading_uint(body, n, overflow);
  if (digits == 0 || digits != body.size())
    throw ConfigError(fmt::format("\"{}\" is not a whole number (use e.g. 8)", text));
  const uint64_t limit = negative ? uint64_t(std::numeric_limits<int64_t>::max()) + 1
                                  : uint64_t(std::numeric_limits<int64_t>::max());
  if (overflow || n > limit) throw too_large(text, "a whole number");
  return negative ? int64_t(0 - n) : int64_t(n);
}

bool parse_bool(std::string_view text) {
  if (iequals(text, "true")) return true;
  if (iequals(text, "false")) return false;
  throw ConfigError(fmt::format("\"{}\" is not true or false", text));
}

std::string format_size(uint64_t bytes) {
  static constexpr std::pair<unsigned, char> units[] = {{40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}};
  if (bytes != 0)
    for (auto [shift, letter] : units)
      if (bytes % (uint64_t(1) << shift) == 0) return fmt::format("{}{}", bytes >> shift, letter);
  return std::to_string(bytes);
}

std::string format_frequency(uint64_t hz) {
  static constexpr std::pair<uint64_t, const char*> units[] = {
      {1000000000, "GHz"}, {1000000, "MHz"}, {1000, "kHz"}, {1, "Hz"}};
  for (auto [scale, name] : units) {
    if (hz < scale && scale != 1) continue;
    std::string out = std::to_string(hz / scale);
    if (uint64_t rem = hz % scale) {
      std::string frac = std::to_string(rem);
      frac.insert(0, std::to_string(scale).size() - 1 - frac.size(), '0');
      while (frac.back() == '0') frac.pop_back();
      out += "." + frac;
    }
    return out + name;
  }
  return "0Hz";
}

std::string format_duration(uint64_t ns) {
  static constexpr std::pair<uint64_t, const char*> units[] = {
      {1000000000, "s"}, {1000000, "ms"}, {1000, "us"}, {1, "ns"}};
  if (ns == 0) return "0";
  for (auto [scale, name] : units) {
    if (ns < scale) continue;
    std::string out = std::to_string(ns / scale);
    if (uint64_t rem = ns % scale) {
      std::string frac = std::to_string(rem);
      frac.insert(0, std::to_string(scale).size() - 1 - frac.size(), '0');
      while (frac.back() == '0') frac.pop_back();
      out += "." + frac;
    }
    return out + name;
  }
  return "0";
}

// ---- Schema --------------------------------------------------------------------

Schema& Schema::add(KeyDecl decl) {
  auto fail = [&](std::string_view why) {
    throw std::logic_error(fmt::format("config schema: {}: {}", decl.path, why));
  };
  std::vector<std::string> parts = split_path(decl.path);
  for (const auto& p : parts)
    if (!valid_component(p)) fail("each part of a path is lower-case letters, digits and _");
  if (parts.size() < 2) fail("a key lives in a section (section.key)");
  if (index_.count(decl.path)) fail("declared twice");
  if (children_.count(decl.path)) fail("already a section");
  // No ancestor may be a key; a section closed by later keys may not be reopened.
  std::string prefix;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    prefix = join_path(prefix, parts[i]);
    if (index_.count(prefix)) fail(fmt::format("{} is a key, not a section", prefix));
    if (children_.count(prefix) && !keys_.empty() && keys_.back().path.rfind(prefix + ".", 0) != 0)
      fail(fmt::format("the keys of section {} must be declared together", prefix));
  }
  if (decl.description.empty()) fail("no description");
  if (decl.default_value.empty()) fail("no default");
  if (decl.type == ValueType::Enum && decl.choices.empty()) fail("an enum needs choices");
  const bool ordered = decl.type == ValueType::Integer || decl.type == ValueType::Size ||
                       decl.type == ValueType::Frequency || decl.type == ValueType::Cycles ||
                       decl.type == ValueType::Duration;
  if (!ordered && (!decl.min.empty() || !decl.max.empty())) fail("only numbers have a range");

  Bound lo, hi;
  try {
    if (!decl.min.empty()) lo = {true, parse_as(decl.type, decl.choices, decl.min)};
    if (!decl.max.empty()) hi = {true, parse_as(decl.type, decl.choices, decl.max)};
  } catch (const ConfigError& e) {
    fail(fmt::format("bad range: {}", e.what()));
  }
  if (lo.set && hi.set && hi.value < lo.value) fail("min is above max");

  const size_t i = keys_.size();
  keys_.push_back(std::move(decl));
  min_.push_back(std::move(lo));
  max_.push_back(std::move(hi));
  try {
    defaults_.push_back(parse(i, keys_[i].default_value));
  } catch (const ConfigError& e) {
    std::string path = keys_[i].path;
    keys_.pop_back(), min_.pop_back(), max_.pop_back();
    throw std::logic_error(fmt::format("config schema: {}: bad default: {}", path, e.what()));
  }
  index_.emplace(keys_[i].path, i);
  prefix.clear();
  for (const auto& p : parts) {
    auto& kids = children_[prefix];
    if (std::find(kids.begin(), kids.end(), p) == kids.end()) kids.push_back(p);
    prefix = join_path(prefix, p);
  }
  return *this;
}

Schema& Schema::describe(std::string_view section, std::string description) {
  if (!is_section(section))
    throw std::logic_error(fmt::format("config schema: {}: not a section", section));
  section_text_[std::string(section)] = std::move(description);
  return *this;
}

Schema& Schema::check(std::string name, ConfigCheck fn) {
  checks_.emplace_back(std::move(name), std::move(fn));
  return *this;
}

Schema& Schema::add_list(ListDecl decl) {
  auto fail = [&](std::string_view why) {
    throw std::logic_error(fmt::format("config schema: list {}: {}", decl.name, why));
  };
  if (!valid_component(decl.name)) fail("a list's name is lower-case letters, digits and _");
  if (children_.count(decl.name) || index_.count(decl.name) || list_index(decl.name) != npos)
    fail("the name is already taken");
  if (decl.description.empty()) fail("no description");
  if (decl.fields.empty()) fail("no fields");
  std::vector<std::string> names;
  for (const auto& f : decl.fields) {
    if (!valid_component(f.path)) fail(fmt::format("field {}: lower-case letters, digits and _", f.path));
    if (std::find(names.begin(), names.end(), f.path) != names.end()) fail(fmt::format("field {}: twice", f.path));
    names.push_back(f.path);
    if (f.description.empty()) fail(fmt::format("field {}: no description", f.path));
    if (f.type == ValueType::Enum && f.choices.empty()) fail(fmt::format("field {}: an enum needs choices", f.path));
    try {
      if (!f.min.empty()) parse_as(f.type, f.choices, f.min);
      if (!f.max.empty()) parse_as(f.type, f.choices, f.max);
      if (!f.default_value.empty()) parse_field(f, f.default_value);
    } catch (const ConfigError& e) {
      fail(fmt::format("field {}: {}", f.path, e.what()));
    }
  }
  lists_.push_back(std::move(decl));
  return *this;
}

size_t Schema::list_index(std::string_view name) const {
  for (size_t i = 0; i < lists_.size(); ++i)
    if (lists_[i].name == name) return i;
  return npos;
}

size_t Schema::index(std::string_view path) const {
  auto it = index_.find(path);
  return it == index_.end() ? npos : it->second;
}

const KeyDecl* Schema::find(std::string_view path) const {
  size_t i = index(path);
  return i == npos ? nullptr : &keys_[i];
}

bool Schema::is_section(std::string_view path) const {
  return !path.empty() && children_.find(path) != children_.end();
}

const std::vector<std::string>& Schema::children(std::string_view section) const {
  static const std::vector<std::string> none;
  auto it = children_.find(section);
  return it == children_.end() ? none : it->second;
}

std::string_view Schema::section_description(std::string_view section) const {
  auto it = section_text_.find(section);
  return it == section_text_.end() ? std::string_view() : std::string_view(it->second);
}

std::string Schema::range_text(size_t i) const {
  const KeyDecl& k = keys_[i];
  if (min_[i].set && max_[i].set) return k.min + ".." + k.max;
  if (min_[i].set) return "at least " + k.min;
  if (max_[i].set) return "at most " + k.max;
  return {};
}

ConfigValue Schema::parse(size_t i, std::string_view text) const {
  const KeyDecl& k = keys_[i];
  ConfigValue v = parse_as(k.type, k.choices, text);
  if ((min_[i].set && v < min_[i].value) || (max_[i].set && max_[i].value < v)) {
    if (min_[i].set && max_[i].set)
      throw ConfigError(fmt::format("{} is out of range {}..{}", text, k.min, k.max));
    if (min_[i].set) throw ConfigError(fmt::format("{} is below the minimum {}", text, k.min));
    throw ConfigError(fmt::format("{} is above the maximum {}", text, k.max));
  }
  return v;
}

void Schema::write_listing(std::ostream& out) const {
  std::string open;  // the section whose description was printed last
  for (size_t i = 0; i < keys_.size(); ++i) {
    const KeyDecl& k = keys_[i];
    // Describe each enclosing section the first time we enter it.
    std::vector<std::string> parts = split_path(k.path);
    std::string prefix;
    for (size_t j = 0; j + 1 < parts.size(); ++j) {
      prefix = join_path(prefix, parts[j]);
      bool entered = open != prefix && open.rfind(prefix + ".", 0) != 0;
      if (entered && !section_description(prefix).empty())
        out << "\n[" << prefix << "] " << section_description(prefix) << "\n";
    }
    open = parent_of(k.path);
    out << "\n" << k.path << " = " << k.default_value << "\n";
    std::string info(type_name(k.type));
    if (!k.unit.empty() && k.unit != info) info += ", " + k.unit;
    if (std::string r = range_text(i); !r.empty()) info += ", " + r;
    if (!k.choices.empty()) info += ", one of: " + join(k.choices);
    out << "    " << k.description << "\n";
    out << "    " << info << "\n";
    if (!k.source.empty()) out << "    source: " << k.source << "\n";
  }
  for (const auto& l : lists_) {
    out << "\n" << l.name << ": a list\n    " << l.description << "\n    each entry:\n";
    for (const auto& f : l.fields) {
      out << "      " << f.path << ": " << field_info(f) << "\n        " << f.description << "\n";
      if (!f.source.empty()) out << "        source: " << f.source << "\n";
    }
  }
}

void Schema::write_example(std::ostream& out, std::string_view header) const {
  std::istringstream lines{std::string(header)};
  for (std::string line; std::getline(lines, line);) out << (line.empty() ? "#" : "# " + line) << "\n";
  std::vector<std::string> open;
  for (size_t i = 0; i < keys_.size(); ++i) {
    const KeyDecl& k = keys_[i];
    std::vector<std::string> parts = split_path(k.path);
    std::vector<std::string> section(parts.begin(), parts.end() - 1);
    size_t common = 0;
    while (common < open.size() && common < section.size() && open[common] == section[common]) ++common;
    for (size_t j = common; j < section.size(); ++j) {
      std::string indent(2 * j, ' ');
      std::string path;
      for (size_t p = 0; p <= j; ++p) path = join_path(path, section[p]);
      if (j == common) out << "\n";  // a blank line before a new section, not inside its header
      if (auto d = section_description(path); !d.empty()) out << indent << "# " << d << "\n";
      out << indent << section[j] << ":\n";
    }
    if (common == section.size() && i != 0) out << "\n";
    open = section;
    std::string indent(2 * section.size(), ' ');
    std::string info(type_name(k.type));
    if (!k.unit.empty() && k.unit != info) info += " (" + k.unit + ")";
    if (std::string r = range_text(i); !r.empty()) info += ", " + r;
    if (!k.choices.empty()) info += ", one of: " + join(k.choices);
    out << indent << "# " << k.description << "\n";
    out << indent << "# " << info << "\n";
    if (!k.source.empty()) out << indent << "# Source: " << k.source << "\n";
    out << indent << parts.back() << ": " << yaml_scalar(k.type, k.default_value) << "\n";
  }
  for (const auto& l : lists_) {
    out << "\n# " << l.description << "\n# Each entry:\n";
    for (const auto& f : l.fields) {
      out << "#   " << f.path << ": " << field_info(f) << "\n#     " << f.description << "\n";
      if (!f.source.empty()) out << "#     Source: " << f.source << "\n";
    }
    if (!l.example.empty()) {
      out << "# For example:\n";
      std::istringstream lines{l.example};
      for (std::string line; std::getline(lines, line);) out << "#   " << line << "\n";
    }
    out << l.name << ": []\n";
  }
}

// ---- Config --------------------------------------------------------------------

namespace {
// "value   # where": the comments of a record start in one column where they can, after
// at least two spaces.
constexpr size_t kRecordCommentColumn = 48;

void record_line(std::ostream& out, const std::string& body, std::string_view where) {
  out << body << std::string(std::max(kRecordCommentColumn, body.size() + 2) - body.size(), ' ') << "# "
      << (where.empty() ? "default" : where) << "\n";
}
}  // namespace

void Config::write_effective(std::ostream& out, const ShownValue& shown) const {
  std::vector<std::string> open;  // the sections of the last key written
  for (size_t i = 0; i < schema_->keys().size(); ++i) {
    const KeyDecl& k = schema_->keys()[i];
    const Entry& e = entries_[i];
    std::vector<std::string> parts = split_path(k.path);
    std::vector<std::string> section(parts.begin(), parts.end() - 1);
    size_t common = 0;
    while (common < open.size() && common < section.size() && open[common] == section[common]) ++common;
    for (size_t j = common; j < section.size(); ++j) out << std::string(2 * j, ' ') << section[j] << ":\n";
    open = section;
    std::string value = e.text, where = e.origin;
    if (std::string s = shown ? shown(k.path) : std::string(); !s.empty() && s != e.text) {
      value = s;
      where = fmt::format("{}, written {}", where.empty() ? "default" : where, e.text);
    }
    record_line(out, std::string(2 * section.size(), ' ') + parts.back() + ": " + yaml_scalar(k.type, value), where);
  }
  for (size_t l = 0; l < schema_->lists().size(); ++l) {
    const ListDecl& decl = schema_->lists()[l];
    if (lists_[l].empty()) {
      record_line(out, decl.name + ": []", "");
      continue;
    }
    out << decl.name << ":\n";
    for (const ListEntry& entry : lists_[l])
      for (size_t f = 0; f < decl.fields.size(); ++f) {
        const KeyDecl& field = decl.fields[f];
        auto place = entry.places.find(field.path);
        record_line(out, std::string(f == 0 ? "  - " : "    ") + field.path + ": " +
                             yaml_scalar(field.type, entry.text(field.path)),
                    place == entry.places.end() ? "" : place->second);
      }
  }
}

Config::Config(const Schema& schema) : schema_(&schema) {
  entries_.reserve(schema.keys().size());
  for (size_t i = 0; i < schema.keys().size(); ++i)
    entries_.push_back({schema.default_value(i), schema.keys()[i].default_value, std::string(), std::string()});
  lists_.resize(schema.lists().size());
}

const std::vector<ListEntry>& Config::list(std::string_view name) const {
  size_t i = schema_->list_index(name);
  if (i == Schema::npos) throw std::logic_error(fmt::format("config: no list {}", name));
  return lists_[i];
}

namespace {
const ConfigValue& field_value(const ListEntry& e, std::string_view field) {
  auto it = e.values.find(field);
  if (it == e.values.end()) throw std::logic_error(fmt::format("config: {} has no field {}", e.list, field));
  return it->second;
}
template <class T> const T& field_as(const ListEntry& e, std::string_view field, const char* what) {
  const ConfigValue& v = field_value(e, field);
  if (!std::holds_alternative<T>(v)) throw std::logic_error(fmt::format("config: {}.{} is not {}", e.list, field, what));
  return std::get<T>(v);
}
}  // namespace

uint64_t ListEntry::get_uint(std::string_view f) const { return field_as<uint64_t>(*this, f, "unsigned"); }
int64_t ListEntry::get_int(std::string_view f) const { return field_as<int64_t>(*this, f, "an integer"); }
bool ListEntry::get_bool(std::string_view f) const { return field_as<bool>(*this, f, "a bool"); }
const std::string& ListEntry::get_string(std::string_view f) const {
  return field_as<std::string>(*this, f, "a string");
}
const std::string& ListEntry::text(std::string_view f) const {
  auto it = texts.find(f);
  if (it == texts.end()) throw std::logic_error(fmt::format("config: {} has no field {}", list, f));
  return it->second;
}
std::string ListEntry::name() const { return fmt::format("{} entry {}", list, index + 1); }
ConfigError ListEntry::error(std::string_view field, std::string_view message) const {
  auto it = places.find(field);
  const std::string& where = it != places.end() ? it->second : place;
  return ConfigError(at(where, field.empty() ? name() : name() + ": " + std::string(field), message));
}

void Config::unknown_key(std::string_view path, std::string_view place) const {
  std::vector<std::string> parts = split_path(path);
  std::string prefix;
  size_t j = 0;
  for (; j < parts.size(); ++j) {
    std::string next = join_path(prefix, parts[j]);
    if (!schema_->is_section(next)) {
      if (schema_->index(next) != Schema::npos)
        throw ConfigError(at(place, path, fmt::format("{} is a key, not a section", next)));
      break;
    }
    prefix = next;
  }
  if (j == parts.size())  // every part names a section: the caller meant a key
    throw ConfigError(at(place, path, fmt::format("is a section, not a key (keys below it: {})",
                                                 join(schema_->children(path)))));
  std::vector<std::string> known = schema_->children(prefix);
  if (j == 0)
    for (const auto& l : schema_->lists()) known.push_back(l.name);
  std::string hint = suggest(parts[j], known);
  std::string what = j == 0 ? "unknown section" : "unknown key";
  if (j + 1 < parts.size() && j != 0) what += " " + parts[j];
  if (j == 0 && parts.size() > 1) what += " " + parts[0];
  if (!hint.empty()) {
    std::string corrected = hint;
    if (j + 1 < parts.size() && j != 0) corrected = join_path(prefix, hint);
    throw ConfigError(at(place, path, fmt::format("{} (did you mean {}?)", what, corrected)));
  }
  throw ConfigError(at(place, path, fmt::format("{} (known {}: {})", what,
                                               j == 0 ? "sections" : "here", join(known))));
}

namespace {

struct Walker {
  Config& config;
  const Schema& schema;
  std::string_view name;
  std::string folder;  // the document's folder, for relative Path values
  std::map<size_t, std::string> set_at;  // key index -> place, within this document

  std::string place(const YAML::Node& n) const { return place_of(name, n.Mark()); }

  void walk(const YAML::Node& node, const std::string& prefix) {
    if (node.IsNull()) return;  // `machine:` with nothing under it
    if (!node.IsMap()) {
      if (prefix.empty())
        throw ConfigError(at(place(node), "", fmt::format("the top level must be a map of sections ({}:), got a {}",
                                                          join(schema.children(""), ":, "), kind_of(node))));
      throw ConfigError(at(place(node), prefix, fmt::format("expected a map of keys ({}), got a {}",
                                                            join(schema.children(prefix)), kind_of(node))));
    }
    std::map<std::string, int, std::less<>> seen;  // key -> 1-based line
    for (auto it = node.begin(); it != node.end(); ++it) {
      // Copies: it-> returns a proxy, and a reference into it would dangle.
      const YAML::Node key = it->first;
      const YAML::Node value = it->second;
      const std::string where = place(key);
      if (!key.IsScalar())
        throw ConfigError(at(where, prefix, fmt::format("a key must be a plain name, got a {}", kind_of(key))));
      const std::string& name_text = key.Scalar();
      const std::string full = join_path(prefix, name_text);
      if (auto s = seen.find(name_text); s != seen.end())
        throw ConfigError(at(where, full, fmt::format("duplicate key (first at line {})", s->second)));
      seen.emplace(name_text, key.Mark().line + 1);

      if (size_t l = prefix.empty() ? schema.list_index(name_text) : Schema::npos; l != Schema::npos) {
        walk_list(value, l, where);
      } else if (size_t i = schema.index(full); i != Schema::npos) {
        const KeyDecl& k = schema.keys()[i];
        if (value.IsNull())
          throw ConfigError(at(where, full, fmt::format("no value given (the default is {})", k.default_value)));
        if (!value.IsScalar())
          throw ConfigError(at(where, full, fmt::format("expected {}, got a {}", noun(k.type), kind_of(value))));
        if (auto s = set_at.find(i); s != set_at.end())
          throw ConfigError(at(where, full, fmt::format("set twice (first at {})", s->second)));
        set_at.emplace(i, where);
        config.set(full, value.Scalar(), where, folder);
      } else if (schema.is_section(full)) {
        walk(value, full);
      } else {
        config.set(full, "", where);  // neither key nor section: reports the unknown key
      }
    }
  }

  void walk_list(const YAML::Node& node, size_t l, const std::string& where) {
    const ListDecl& decl = schema.lists()[l];
    std::vector<std::string> names;
    for (const auto& f : decl.fields) names.push_back(f.path);
    if (node.IsNull()) return;  // `operator:` with nothing under it
    if (!node.IsSequence())
      throw ConfigError(at(where, decl.name, fmt::format("expected a list of entries (- {}: ...), got a {}",
                                                          join(names, ": ..., "), kind_of(node))));
    for (size_t k = 0; k < node.size(); ++k) {
      const YAML::Node item = node[k];
      ListEntry e;
      e.list = decl.name;
      e.index = config.list(decl.name).size();
      e.place = place(item);
      if (!item.IsMap())
        throw ConfigError(at(e.place, e.name(), fmt::format("expected a map of {}, got a {}", join(names),
                                                            kind_of(item))));
      for (auto it = item.begin(); it != item.end(); ++it) {
        const YAML::Node key = it->first;
        const YAML::Node value = it->second;
        const std::string kplace = place(key);
        if (!key.IsScalar())
          throw ConfigError(at(kplace, e.name(), fmt::format("a field must be a plain name, got a {}", kind_of(key))));
        const std::string& fname = key.Scalar();
        const KeyDecl* f = nullptr;
        for (const auto& d : decl.fields)
          if (d.path == fname) f = &d;
        const std::string who = e.name() + ": " + fname;
        if (!f) {
          std::string hint = suggest(fname, names);
          throw ConfigError(at(kplace, who, hint.empty() ? fmt::format("unknown field (known: {})", join(names))
                                                          : fmt::format("unknown field (did you mean {}?)", hint)));
        }
        if (e.places.count(fname))
          throw ConfigError(at(kplace, who, fmt::format("given twice (first at {})", e.places[fname])));
        e.places[fname] = kplace;
        if (value.IsNull()) throw ConfigError(at(kplace, who, "no value given"));
        if (!value.IsScalar())
          throw ConfigError(at(kplace, who, fmt::format("expected {}, got a {}", noun(f->type), kind_of(value))));
        try {
          e.values[fname] = parse_field(*f, value.Scalar());
        } catch (const ConfigError& err) {
          throw ConfigError(at(kplace, who, err.what()));
        }
        e.texts[fname] = value.Scalar();
      }
      for (const auto& f : decl.fields) {
        if (e.values.count(f.path)) continue;
        if (f.default_value.empty())
          throw ConfigError(at(e.place, e.name() + ": " + f.path,
                               fmt::format("missing (every entry needs {})", [&] {
                                 std::vector<std::string> req;
                                 for (const auto& d : decl.fields)
                                   if (d.default_value.empty()) req.push_back(d.path);
                                 return join(req);
                               }())));
        e.values[f.path] = parse_field(f, f.default_value);
        e.texts[f.path] = f.default_value;
      }
      if (decl.check) decl.check(e);
      config.add_entry(l, std::move(e));
    }
  }
};

}  // namespace

namespace {
// yaml-cpp 0.7 never returns from a node that begins with ',' outside a flow collection,
// or from a tag holding a ',' (found by fuzzing: a file holding only ","; "!" and ","
// on the next line; "!s,l"). No plain scalar may begin with ',' and no tag hold one:
// the line of the first such node, or 0. Block
// scalars (| and >) and flow collections ([ ], { }) may hold one and are skipped.
int comma_node_line(std::string_view text) {
  int line = 0, flow = 0;
  size_t block_indent = std::string_view::npos;  // inside a block scalar: lines indented more
  bool node_expected = true;  // the next token begins a node (after a tag or anchor, a "- ", a "key:")
  for (size_t pos = 0; pos <= text.size();) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view l = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    const size_t indent = l.find_first_not_of(" \t\r");
    if (indent == std::string_view::npos) continue;
    if (block_indent != std::string_view::npos) {
      if (indent > block_indent) continue;
      block_indent = std::string_view::npos;
    }
    char quote = 0;
    for (size_t k = indent; k < l.size(); ++k) {
      const char c = l[k];
      if (quote) {
        if (c == quote) quote = 0;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') continue;
      if (c == '#' && (k == 0 || l[k - 1] == ' ' || l[k - 1] == '\t')) break;
      if (c == ',' && flow == 0 && node_expected) return line;
      if (c == '[' || c == '{') ++flow;
      else if ((c == ']' || c == '}') && flow > 0) --flow;
      if ((c == '!' || c == '&' || c == '*') && node_expected) {  // a tag, anchor or alias: up to a space
        while (k + 1 < l.size() && l[k + 1] != ' ' && l[k + 1] != '\t') {
          if (c == '!' && l[k + 1] == ',') return line;  // no tag holds a flow indicator; yaml-cpp hangs on it
          ++k;
        }
        continue;
      }
      if (c == '-' && (k + 1 == l.size() || l[k + 1] == ' ')) {  // a sequence entry, or "---"
        node_expected = true;
        continue;
      }
      if (c == ':' && (k + 1 == l.size() || l[k + 1] == ' ')) {
        node_expected = true;
        continue;
      }
      if ((c == '|' || c == '>') && node_expected && flow == 0) {
        block_indent = indent;
        break;
      }
      if ((c == '"' || c == '\'') && node_expected) quote = c;
      node_expected = flow > 0 && (c == ',' || c == '[' || c == '{');
    }
    if (flow == 0 && !quote) node_expected = true;  // a new line may begin a node (a key, an entry)
  }
  return 0;
}
}  // namespace

namespace {
// YAML::LoadAll, bounded: yaml-cpp 0.7 loops for ever on some malformed input that the
// checks above do not know, allocating as it goes (a 1,272-byte file took 6 GB in 20 s,
// issue 48). A child process parses the text first within a few seconds and tens of
// megabytes (config/bounded_parse.h); only text it finished with is parsed here. The
// bounds grow with the text: a 4 MB configuration (kMaxConfigBytes) of 118,000 operator
// entries, the most a valid one holds, took yaml-cpp 1.3 s and 294 MB; it may use 20 s
// and 576 MB.
ParseBounds yaml_parse_bounds(size_t text_bytes) {
  return {.seconds = 4 + int(text_bytes >> 18), .bytes = (64ull << 20) + 128 * text_bytes};
}

std::vector<YAML::Node> load_all_bounded(const std::string& text, std::string_view name) {
  const ParseBounds bounds = yaml_parse_bounds(text.size());
  const TrialParse trial = trial_parse([&] { (void)YAML::LoadAll(text); }, bounds);
  if (trial.outcome == TrialParse::Runaway)
    throw ConfigError(fmt::format("{}: the YAML parser {} on it (the limits are {} s and {} MB): the file is not "
                                  "YAML it can read (yaml-cpp loops on some malformed input)",
                                  name, trial.why, bounds.seconds, bounds.bytes >> 20));
  return YAML::LoadAll(text);
}
}  // namespace

namespace {
// A byte YAML text cannot hold (a NUL, a control character): yaml-cpp would name a
// wrong line and an "unknown escape character", so it is found first.
void check_yaml_characters(std::string_view text, std::string_view name) {
  size_t line = 1, line_start = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\n') ++line, line_start = k + 1;
    else if (is_control(text[k]))
      throw ConfigError(fmt::format("{}:{}: YAML syntax error: {} (column {}): YAML text cannot hold control "
                                    "characters (a binary file?)",
                                    name, line, control_name(text[k]), k - line_start + 1));
  }
}
}  // namespace

namespace {
// A tab in a line's indentation: YAML indents with spaces only, and yaml-cpp would say
// "illegal map value" at the key's end. Lines holding only blanks or a comment are left
// to the parser (a tab there is harmless), and so are a block scalar's (| or >) lines,
// where a tab after the indentation is text.
void check_yaml_indentation(std::string_view text, std::string_view name) {
  size_t line = 1;
  long block = -1;   // the indentation of the line that began a block scalar, while in one
  for (size_t start = 0; start < text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    start = end + 1;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const size_t spaces = std::min(l.find_first_not_of(' '), l.size());
    const size_t first = l.find_first_not_of(" \t");
    if (block >= 0 && (first == std::string_view::npos || long(spaces) > block)) continue;
    block = -1;
    const size_t last = l.find_last_not_of(" \t+-0123456789");
    if (last != std::string_view::npos && (l[last] == '|' || l[last] == '>') && l.find('#') == std::string_view::npos)
      block = long(spaces);
    if (first != std::string_view::npos && l[first] != '#') {
      const size_t tab = l.substr(0, first).find('\t');
      if (tab != std::string_view::npos)
        throw ConfigError(fmt::format("{}:{}: YAML syntax error: a tab in the indentation (column {}): YAML indents "
                                      "with spaces only",
                                      name, line, tab + 1));
    }
  }
}
}  // namespace

void Config::load_yaml(std::string_view text, std::string_view name) {
  check_yaml_characters(text, name);
  check_yaml_indentation(text, name);
  if (const int line = comma_node_line(text))
    throw ConfigError(fmt::format("{}:{}: YAML syntax error: a node cannot begin with ',' nor a tag hold one", name,
                                  line));
  std::vector<YAML::Node> docs;
  try {
    docs = load_all_bounded(std::string(text), name);
  } catch (const YAML::DeepRecursion& e) {
    throw ConfigError(at(place_of(name, e.mark), "",
                         fmt::format("YAML nested {} levels deep, as deep as the parser goes: no configuration "
                                     "needs more than a few",
                                     e.depth())));  // no column: the parser's mark is where it read ahead to
  } catch (const YAML::Exception& e) {
    std::string msg = e.msg;
    if (e.mark.column >= 0) msg += fmt::format(" (column {})", e.mark.column + 1);
    throw ConfigError(at(place_of(name, e.mark), "", "YAML syntax error: " + msg));
  }
  if (docs.empty()) return;
  if (docs.size() > 1)
    throw ConfigError(at(place_of(name, docs[1].Mark()), "",
                         "more than one YAML document; put every section in the first"));
  // The folder of the file `name` names ("." for one in the current directory).
  std::string folder = std::filesystem::path(name).parent_path().string();
  Walker w{*this, *schema_, name, folder.empty() ? "." : folder, {}};
  w.walk(docs[0], "");
}

void Config::load_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxConfigBytes, "configuration");
  } catch (const InputFileError& e) {
    throw ConfigError(e.what());
  }
  load_yaml(text, path);
}

void Config::set(std::string_view assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || trim(assignment.substr(0, eq)).empty())
    throw ConfigError(fmt::format("--set: \"{}\" is not key=value (e.g. machine.istreams=8)", assignment));
  set(trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)), "--set");
}

void Config::set(std::string_view path, std::string_view text, std::string_view place) {
  set(path, text, place, ".");  // not from a file: a relative path means the current directory
}

void Config::set(std::string_view path, std::string_view text, std::string_view place, std::string_view folder) {
  if (schema_->list_index(path) != Schema::npos)
    throw ConfigError(at(place, path, "is a list; give its entries in a YAML file"));
  size_t i = schema_->index(path);
  if (i == Schema::npos) unknown_key(path, place);
  const KeyDecl& k = schema_->keys()[i];
  if (text.empty())
    throw ConfigError(at(place, path, fmt::format("no value given (the default is {})", k.default_value)));
  try {
    entries_[i] = {schema_->parse(i, text), std::string(text), std::string(place), std::string(folder)};
  } catch (const ConfigError& e) {
    throw ConfigError(at(place, path, e.what()));
  }
}

void Config::validate() const {
  for (const auto& [name, fn] : schema_->checks_) fn(*this);
}

size_t Config::require(std::string_view path) const {
  size_t i = schema_->index(path);
  if (i == Schema::npos) throw std::logic_error(fmt::format("config: no key {}", path));
  return i;
}

const ConfigValue& Config::value(std::string_view path) const { return entries_[require(path)].value; }

int64_t Config::get_int(std::string_view path) const {
  const ConfigValue& v = value(path);
  if (!std::holds_alternative<int64_t>(v)) throw std::logic_error(fmt::format("config: {} is not an integer", path));
  return std::get<int64_t>(v);
}

uint64_t Config::get_uint(std::string_view path) const {
  const ConfigValue& v = value(path);
  if (!std::holds_alternative<uint64_t>(v))
    throw std::logic_error(fmt::format("config: {} is not a size, cycle count, frequency or duration", path));
  return std::get<uint64_t>(v);
}

double Config::get_ghz(std::string_view path) const {
  size_t i = require(path);
  if (schema_->keys()[i].type != ValueType::Frequency)
    throw std::logic_error(fmt::format("config: {} is not a frequency", path));
  return double(std::get<uint64_t>(entries_[i].value)) / 1e9;
}

double Config::get_ms(std::string_view path) const {
  size_t i = require(path);
  if (schema_->keys()[i].type != ValueType::Duration)
    throw std::logic_error(fmt::format("config: {} is not a duration", path));
  return double(std::get<uint64_t>(entries_[i].value)) / 1e6;
}

bool Config::get_bool(std::string_view path) const {
  const ConfigValue& v = value(path);
  if (!std::holds_alternative<bool>(v)) throw std::logic_error(fmt::format("config: {} is not a bool", path));
  return std::get<bool>(v);
}

const std::string& Config::get_string(std::string_view path) const {
  const ConfigValue& v = value(path);
  if (!std::holds_alternative<std::string>(v))
    throw std::logic_error(fmt::format("config: {} is not a string", path));
  return std::get<std::string>(v);
}

// The one place relative paths are resolved; the rule is in config.h (get_path) and
// configs/README.md.
std::string Config::get_path(std::string_view path, const std::string& fallback) const {
  namespace fs = std::filesystem;
  size_t i = require(path);
  if (schema_->keys()[i].type != ValueType::Path) throw std::logic_error(fmt::format("config: {} is not a path", path));
  const Entry& e = entries_[i];
  const std::string& file = std::get<std::string>(e.value);
  if (fs::path(file).is_absolute()) return file;  // a missing one is the reader's "cannot open"
  std::vector<std::string> tried;
  for (const std::string& dir : {e.folder, fallback}) {
    if (dir.empty()) continue;
    fs::path candidate = dir == "." ? fs::path(file) : fs::path(dir) / file;
    std::error_code ec;
    if (fs::exists(candidate, ec)) return candidate.string();
    tried.push_back(dir.back() == '/' ? dir : dir + "/");
  }
  const std::string what = e.origin.empty() ? file + " (the default)" : file;
  if (tried.empty()) throw ConfigError(at(e.origin, path, fmt::format("{}: relative, and no folder to look in", what)));
  throw ConfigError(at(e.origin, path, fmt::format("{}: not found (looked in {})", what, join(tried))));
}

const std::string& Config::text(std::string_view path) const { return entries_[require(path)].text; }

const std::string& Config::origin(std::string_view path) const { return entries_[require(path)].origin; }

ConfigError Config::error(std::initializer_list<std::string_view> keys, std::string_view message) const {
  if (keys.size() == 0) throw std::logic_error("config: error() needs a key");
  std::string_view blamed = *keys.begin();
  for (std::string_view k : keys)
    if (!is_default(k)) {
      blamed = k;
      break;
    }
  return ConfigError(at(origin(blamed), blamed, message));
}

Config load_config(const Schema& schema, const std::vector<std::string>& files, const std::vector<std::string>& sets) {
  Config config(schema);
  for (const auto& f : files) config.load_file(f);
  for (const auto& s : sets) config.set(s);
  config.validate();
  return config;
}

}  // namespace cfg
