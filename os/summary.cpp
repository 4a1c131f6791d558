// The run's reports: summary.txt (for people), summary.json (for scripts) and the
// side-by-side comparison of `tpfemu compare`.
//
// Formatting is deterministic: every number is written by fmt with a fixed precision
// (no locale, no shortest-round-trip guessing), the keys come in a fixed order, and
// nothing is read from the host. The same RunSummary gives the same bytes.
//
// Units: utilizations are fractions (0..1) in JSON and percentages in the text;
// times are milliseconds except simulated_seconds. A figure that is not finite (a
// division by zero upstream) is written as null in JSON and "n/a" in the text.
#include "os/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace os {

namespace {

// The control program's counters: key in JSON, label in text, the field. One place.
struct Counter {
  const char* key;
  const char* label;
  uint64_t RunSummary::*field;
};
constexpr Counter kCounters[] = {
    {"ecbs_created", "ECBs created", &RunSummary::ecbs_created},
    {"ecbs_exited", "ECBs exited", &RunSummary::ecbs_exited},
    {"ecb_timeouts", "ECB timeouts (CTL-10)", &RunSummary::ecb_timeouts},
    {"ecb_program_checks", "ECB program checks", &RunSummary::ecb_program_checks},
    {"svcs", "SVCs", &RunSummary::svcs},
    {"time_slices", "time slices", &RunSummary::time_slices},
    {"dispatches", "dispatches", &RunSummary::dispatches},
    {"word_waits", "waits on a storage word", &RunSummary::word_waits},
    {"static_page_copies", "static pages copied", &RunSummary::static_page_copies},
    {"frames_in_use_at_end", "4K frames in use at end", &RunSummary::frames_in_use_at_end},
    {"line_transfers", "line transfers", &RunSummary::line_transfers},
    {"invalidations", "line invalidations", &RunSummary::invalidations},
};

// The control_program block in its order: the control program's own counters, each
// subsystem's after the one it names (or at the end).
struct NamedCount {
  std::string key, label;
  uint64_t value;
};
std::vector<NamedCount> all_counters(const RunSummary& s) {
  std::vector<NamedCount> out;
  auto extras_after = [&](const std::string& key) {
    for (const auto& x : s.extra_counters)
      if (x.after == key) out.push_back({x.key, x.label, x.value});
  };
  for (const Counter& c : kCounters) {
    out.push_back({c.key, c.label, s.*c.field});
    extras_after(c.key);
  }
  for (const auto& x : s.extra_counters) {
    bool placed = false;
    for (const Counter& c : kCounters) placed = placed || x.after == c.key;
    if (!placed) out.push_back({x.key, x.label, x.value});
  }
  return out;
}

using nlohmann::json;

// Digits after the point for each kind of decimal figure.
constexpr int kSecondsDigits = 9;  // simulated seconds: nanosecond resolution
constexpr int kRateDigits = 3;     // messages per second
constexpr int kMsDigits = 6;       // milliseconds: nanosecond resolution
constexpr int kFractionDigits = 6; // utilizations (0..1)

std::string fixed(double v, int digits, std::string_view not_finite) {
  if (!std::isfinite(v)) return std::string(not_finite);
  std::string out = fmt::format("{:.{}f}", v, digits);
  if (out.rfind("-0.", 0) == 0 && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);  // no "-0.000"
  return out;
}

std::string json_number(double v, int digits) { return fixed(v, digits, "null"); }

// A JSON string: escaped, and any byte that is not valid UTF-8 replaced, so the file
// always parses.
std::string json_string(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

// 1234567 -> "1,234,567".
std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return fixed(100.0 * fraction, 1, "n/a") + "%";
}

// ---- The figures, flattened (for the comparison) --------------------------------

struct Figure {
  std::string name;  // as in summary.json, dotted
  bool whole;        // uint64 (grouped) or double (fixed digits)
  double value;      // NaN when one side has no such figure
  uint64_t count;
  int digits;
};

Figure whole(std::string name, uint64_t v) { return {std::move(name), true, double(v), v, 0}; }
Figure decimal(std::string name, double v, int digits) { return {std::move(name), false, v, 0, digits}; }

std::vector<Figure> figures(const RunSummary& s, size_t istreams) {
  std::vector<Figure> f = {
      whole("messages", s.messages),
      decimal("simulated_seconds", s.simulated_seconds, kSecondsDigits),
      decimal("messages_per_second", s.messages_per_second, kRateDigits),
      decimal("ms_per_message", s.ms_per_message, kMsDigits),
      decimal("response_ms.mean", s.response_mean_ms, kMsDigits),
      decimal("response_ms.p50", s.response_p50_ms, kMsDigits),
      decimal("response_ms.p90", s.response_p90_ms, kMsDigits),
      decimal("response_ms.p99", s.response_p99_ms, kMsDigits),
      decimal("cpu_utilization", s.cpu_utilization, kFractionDigits),
      whole("instructions", s.instructions),
      whole("cycles", s.cycles),
  };
  const emu::CyclesByCause causes = total_cycles_by_cause(s);
  for (emu::Cause c : emu::all_causes()) {
    std::string name = std::string("cycles_by_cause.") + emu::cause_name(c);
    if (s.has_cycles_by_cause)
      f.push_back(whole(std::move(name), causes[size_t(c)]));
    else  // a summary written before the figure existed
      f.push_back({std::move(name), true, std::numeric_limits<double>::quiet_NaN(), 0, 0});
  }
  for (size_t i = 0; i < istreams; ++i) {
    const std::string p = fmt::format("istreams[{}].", i);
    if (i < s.istreams.size()) {
      const IStreamSummary& is = s.istreams[i];
      f.push_back(whole(p + "instructions", is.instructions));
      f.push_back(whole(p + "cycles", is.cycles));
      f.push_back(whole(p + "busy_cycles", is.busy_cycles));
      f.push_back(whole(p + "idle_cycles", is.idle_cycles));
      f.push_back(decimal(p + "utilization", is.utilization, kFractionDigits));
    } else {  // the other run has more I-streams
      const double none = std::numeric_limits<double>::quiet_NaN();
      for (const char* k : {"instructions", "cycles", "busy_cycles", "idle_cycles"})
        f.push_back({p + k, true, none, 0, 0});
      f.push_back(decimal(p + "utilization", none, kFractionDigits));
    }
  }
  for (const NamedCount& c : all_counters(s)) f.push_back(whole("control_program." + c.key, c.value));
  return f;
}

std::string show(const Figure& f) {
  if (std::isnan(f.value)) return "-";
  return f.whole ? grouped(f.count) : fixed(f.value, f.digits, "n/a");
}

// B/A: "-" when both are 0 or a side is missing, "n/a" when only A is 0 or a value
// is not finite.
std::string ratio(const Figure& a, const Figure& b) {
  if (std::isnan(a.value) || std::isnan(b.value)) return "-";
  if (!std::isfinite(a.value) || !std::isfinite(b.value)) return "n/a";
  const bool a_zero = a.whole ? a.count == 0 : a.value == 0;
  const bool b_zero = b.whole ? b.count == 0 : b.value == 0;
  if (a_zero) return b_zero ? "-" : "n/a";
  return fixed(b.value / a.value, 3, "n/a");
}

// ---- Text tables ----------------------------------------------------------------

// Columns padded to their widest cell; `align` has one letter per column, 'l' or 'r'
// (columns past its end are right-aligned, the first defaults to left).
void write_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::string& indent,
                 std::string_view align = "l") {
  if (rows.empty()) return;
  size_t columns = 0;
  for (const auto& r : rows) columns = std::max(columns, r.size());
  std::vector<size_t> width(columns, 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line = indent;
    for (size_t c = 0; c < r.size(); ++c) {
      if (c) line += "  ";
      const bool left = c < align.size() ? align[c] == 'l' : false;
      line += left ? fmt::format("{:<{}}", r[c], width[c]) : fmt::format("{:>{}}", r[c], width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

// ---- Reading summary.json -------------------------------------------------------

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", path, what));
}

const json& member(const json& obj, const char* key, const std::string& prefix, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(path, fmt::format("missing key \"{}{}\"", prefix, key));
  return *it;
}

uint64_t read_uint(const json& obj, const char* key, const std::string& prefix, const std::string& path) {
  const json& v = member(obj, key, prefix, path);
  if (!v.is_number_unsigned())
    fail(path, fmt::format("\"{}{}\" is not a whole number >= 0 (got {})", prefix, key,
                           v.dump(-1, ' ', false, json::error_handler_t::replace)));
  return v.get<uint64_t>();
}

double read_double(const json& obj, const char* key, const std::string& prefix, const std::string& path) {
  const json& v = member(obj, key, prefix, path);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();  // written for a figure that was not finite
  if (!v.is_number())
    fail(path, fmt::format("\"{}{}\" is not a number (got {})", prefix, key,
                           v.dump(-1, ' ', false, json::error_handler_t::replace)));
  return v.get<double>();
}

const json& read_object(const json& obj, const char* key, const std::string& path) {
  const json& v = member(obj, key, "", path);
  if (!v.is_object()) fail(path, fmt::format("\"{}\" is not an object", key));
  return v;
}

// {"instruction": 123, "storage": 45, ...}: every cause, in the enum's order.
std::string json_causes(const emu::CyclesByCause& c) {
  std::string out = "{";
  for (emu::Cause k : emu::all_causes())
    out += fmt::format("{}\"{}\": {}", k == emu::Cause(0) ? "" : ", ", emu::cause_name(k), c[size_t(k)]);
  return out + "}";
}

emu::CyclesByCause read_causes(const json& obj, const std::string& prefix, const std::string& path) {
  const json& v = member(obj, "cycles_by_cause", prefix, path);
  const std::string p = prefix + "cycles_by_cause";
  if (!v.is_object()) fail(path, fmt::format("\"{}\" is not an object", p));
  emu::CyclesByCause c{};
  for (emu::Cause k : emu::all_causes()) c[size_t(k)] = read_uint(v, emu::cause_name(k), p + ".", path);
  return c;
}

}  // namespace

emu::CyclesByCause window_cycles_by_cause(const emu::CyclesByCause& at_open, const emu::CyclesByCause& at_close,
                                          uint64_t busy_cycles, uint64_t idle_cycles) {
  constexpr size_t kIdle = size_t(emu::Cause::Idle);
  emu::CyclesByCause out{};
  uint64_t counted = 0;  // busy cycles the counters saw in the window
  for (size_t k = 0; k < emu::kCauseCount; ++k)
    if (k != kIdle) out[k] = at_close[k] - at_open[k], counted += out[k];
  out[kIdle] = idle_cycles;
  if (counted == busy_cycles) return out;
  if (counted == 0) throw std::logic_error("cycles by cause: busy cycles in the window but none counted");
  // Scale to busy_cycles: each cause gets the floor of its share, then the cycles left
  // over (fewer than the causes) go one each to the largest remainders.
  emu::CyclesByCause remainder{};
  uint64_t given = 0;
  for (size_t k = 0; k < emu::kCauseCount; ++k) {
    if (k == kIdle) continue;
    const unsigned __int128 share = static_cast<unsigned __int128>(out[k]) * busy_cycles;
    out[k] = uint64_t(share / counted);
    remainder[k] = uint64_t(share % counted);
    given += out[k];
  }
  for (; given < busy_cycles; ++given) {
    size_t best = kIdle;
    for (size_t k = 0; k < emu::kCauseCount; ++k)
      if (k != kIdle && (best == kIdle || remainder[k] > remainder[best])) best = k;
    ++out[best];
    remainder[best] = 0;
  }
  return out;
}

emu::CyclesByCause total_cycles_by_cause(const RunSummary& s) {
  emu::CyclesByCause total{};
  for (const IStreamSummary& is : s.istreams)
    for (size_t k = 0; k < emu::kCauseCount; ++k) total[k] += is.cycles_by_cause[k];
  return total;
}

// ---- summary.txt ----------------------------------------------------------------

namespace {

// Where the window's cycles went, all I-streams: each cause's cycles, its share of
// all cycles and of the busy ones, and its cycles per message.
void write_cycles_by_cause(std::ostream& out, const RunSummary& s) {
  const emu::CyclesByCause causes = total_cycles_by_cause(s);
  const uint64_t idle = causes[size_t(emu::Cause::Idle)];
  uint64_t all = 0;
  for (uint64_t c : causes) all += c;
  const uint64_t busy = all - idle;
  auto share = [](uint64_t part, uint64_t whole) { return whole ? percent(double(part) / double(whole)) : "n/a"; };
  auto per_message = [&](uint64_t c) {
    return s.messages ? grouped((c + s.messages / 2) / s.messages) : std::string("n/a");  // rounded
  };
  out << "\nCycles by cause (measurement window, all I-streams)\n";
  std::vector<std::vector<std::string>> rows = {{"CAUSE", "CYCLES", "OF ALL", "OF BUSY", "PER MESSAGE"}};
  for (emu::Cause k : emu::all_causes()) {
    if (k == emu::Cause::Idle) continue;
    const uint64_t c = causes[size_t(k)];
    rows.push_back({emu::cause_name(k), grouped(c), share(c, all), share(c, busy), per_message(c)});
  }
  rows.push_back({"busy", grouped(busy), share(busy, all), share(busy, busy), per_message(busy)});
  rows.push_back({emu::cause_name(emu::Cause::Idle), grouped(idle), share(idle, all)});
  rows.push_back({"all", grouped(all), share(all, all)});
  write_table(out, rows, "  ", "l");
}

}  // namespace

void write_summary_text(std::ostream& out, const RunSummary& s) {
  auto ms = [](double v) { return fixed(v, kMsDigits, "n/a"); };
  out << "tpfemu run summary\n";
  out << "  configuration  " << (s.config.empty() ? "(defaults)" : s.config) << "\n";
  out << "\nThroughput (measurement window, after warm-up)\n";
  write_table(out,
              {{"messages", grouped(s.messages)},
               {"simulated time", fixed(s.simulated_seconds, kSecondsDigits, "n/a"), "s"},
               {"messages per second", fixed(s.messages_per_second, kRateDigits, "n/a")},
               {"CPU per message", ms(s.ms_per_message), "ms (busy time of all I-streams / messages)"}},
              "  ", "lrl");
  out << "\nResponse time (ms, from a message's arrival to its completion)\n";
  write_table(out,
              {{"mean", "p50", "p90", "p99"},
               {ms(s.response_mean_ms), ms(s.response_p50_ms), ms(s.response_p90_ms), ms(s.response_p99_ms)}},
              "  ", "rrrr");
  out << fmt::format("\nCPU ({} I-stream{}; utilization is busy over elapsed cycles)\n", s.istreams.size(),
                     s.istreams.size() == 1 ? "" : "s");
  write_table(out,
              {{"utilization", percent(s.cpu_utilization)},
               {"instructions", grouped(s.instructions)},
               {"cycles", grouped(s.cycles)}},
              "  ", "lr");
  if (!s.istreams.empty()) {
    out << "\n";
    std::vector<std::vector<std::string>> rows = {
        {"I-STREAM", "INSTRUCTIONS", "CYCLES", "BUSY CYCLES", "IDLE CYCLES", "UTILIZATION"}};
    IStreamSummary total;
    for (size_t i = 0; i < s.istreams.size(); ++i) {
      const IStreamSummary& is = s.istreams[i];
      rows.push_back({std::to_string(i), grouped(is.instructions), grouped(is.cycles), grouped(is.busy_cycles),
                      grouped(is.idle_cycles), percent(is.utilization)});
      total.instructions += is.instructions;
      total.cycles += is.cycles;
      total.busy_cycles += is.busy_cycles;
      total.idle_cycles += is.idle_cycles;
    }
    rows.push_back({"all", grouped(total.instructions), grouped(total.cycles), grouped(total.busy_cycles),
                    grouped(total.idle_cycles), percent(s.cpu_utilization)});
    write_table(out, rows, "  ", "l");
  }
  if (s.has_cycles_by_cause && !s.istreams.empty()) write_cycles_by_cause(out, s);
  out << "\nControl program (whole run)\n";
  std::vector<std::vector<std::string>> counters;
  for (const NamedCount& c : all_counters(s)) counters.push_back({c.label, grouped(c.value)});
  write_table(out, counters, "  ", "lr");
}

// ---- summary.json ---------------------------------------------------------------

void write_summary_json(std::ostream& out, const RunSummary& s) {
  out << "{\n";
  out << "  \"config\": " << json_string(s.config) << ",\n";
  out << "  \"messages\": " << s.messages << ",\n";
  out << "  \"simulated_seconds\": " << json_number(s.simulated_seconds, kSecondsDigits) << ",\n";
  out << "  \"messages_per_second\": " << json_number(s.messages_per_second, kRateDigits) << ",\n";
  out << "  \"ms_per_message\": " << json_number(s.ms_per_message, kMsDigits) << ",\n";
  out << "  \"response_ms\": {\"mean\": " << json_number(s.response_mean_ms, kMsDigits)
      << ", \"p50\": " << json_number(s.response_p50_ms, kMsDigits)
      << ", \"p90\": " << json_number(s.response_p90_ms, kMsDigits)
      << ", \"p99\": " << json_number(s.response_p99_ms, kMsDigits) << "},\n";
  out << "  \"cpu_utilization\": " << json_number(s.cpu_utilization, kFractionDigits) << ",\n";
  out << "  \"instructions\": " << s.instructions << ",\n";
  out << "  \"cycles\": " << s.cycles << ",\n";
  if (s.has_cycles_by_cause) out << "  \"cycles_by_cause\": " << json_causes(total_cycles_by_cause(s)) << ",\n";
  out << "  \"istreams\": [";
  for (size_t i = 0; i < s.istreams.size(); ++i) {
    const IStreamSummary& is = s.istreams[i];
    out << (i ? ",\n" : "\n") << "    {\"instructions\": " << is.instructions << ", \"cycles\": " << is.cycles
        << ", \"busy_cycles\": " << is.busy_cycles << ", \"idle_cycles\": " << is.idle_cycles
        << ", \"utilization\": " << json_number(is.utilization, kFractionDigits);
    if (s.has_cycles_by_cause) out << ", \"cycles_by_cause\": " << json_causes(is.cycles_by_cause);
    out << "}";
  }
  out << (s.istreams.empty() ? "],\n" : "\n  ],\n");
  out << "  \"control_program\": {\n";
  const std::vector<NamedCount> counters = all_counters(s);
  for (size_t k = 0; k < counters.size(); ++k)
    out << "    \"" << counters[k].key << "\": " << counters[k].value << (k + 1 < counters.size() ? ",\n" : "\n");
  out << "  }\n";
  out << "}\n";
}

RunSummary read_summary_json(const std::string& given) {
  // A run's directory is accepted too: DIR/summary.json.
  std::string path = given;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) path = (std::filesystem::path(path) / "summary.json").string();

  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail(path, "cannot read");

  json doc;
  try {
    doc = json::parse(text.str());
  } catch (const json::exception& e) {
    fail(path, fmt::format("not valid JSON: {}", e.what()));
  }
  if (!doc.is_object()) fail(path, "not a summary (the top level is not a JSON object)");

  RunSummary s;
  const json& config = member(doc, "config", "", path);
  if (!config.is_string()) fail(path, "\"config\" is not a string");
  s.config = config.get<std::string>();
  s.messages = read_uint(doc, "messages", "", path);
  s.simulated_seconds = read_double(doc, "simulated_seconds", "", path);
  s.messages_per_second = read_double(doc, "messages_per_second", "", path);
  s.ms_per_message = read_double(doc, "ms_per_message", "", path);
  const json& r = read_object(doc, "response_ms", path);
  s.response_mean_ms = read_double(r, "mean", "response_ms.", path);
  s.response_p50_ms = read_double(r, "p50", "response_ms.", path);
  s.response_p90_ms = read_double(r, "p90", "response_ms.", path);
  s.response_p99_ms = read_double(r, "p99", "response_ms.", path);
  s.cpu_utilization = read_double(doc, "cpu_utilization", "", path);
  s.instructions = read_uint(doc, "instructions", "", path);
  s.cycles = read_uint(doc, "cycles", "", path);
  // Written since cycles_by_cause existed: then every I-stream has its own.
  s.has_cycles_by_cause = doc.contains("cycles_by_cause");
  const json& list = member(doc, "istreams", "", path);
  if (!list.is_array()) fail(path, "\"istreams\" is not an array");
  for (size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    const std::string p = fmt::format("istreams[{}].", i);
    if (!e.is_object()) fail(path, fmt::format("\"istreams[{}]\" is not an object", i));
    IStreamSummary is;
    is.instructions = read_uint(e, "instructions", p, path);
    is.cycles = read_uint(e, "cycles", p, path);
    is.busy_cycles = read_uint(e, "busy_cycles", p, path);
    is.idle_cycles = read_uint(e, "idle_cycles", p, path);
    is.utilization = read_double(e, "utilization", p, path);
    if (s.has_cycles_by_cause) is.cycles_by_cause = read_causes(e, p, path);
    s.istreams.push_back(is);
  }
  const json& cp = read_object(doc, "control_program", path);
  const std::string p = "control_program.";
  for (const Counter& c : kCounters) s.*c.field = read_uint(cp, c.key, p, path);
  for (const auto& [key, v] : cp.items()) {  // a subsystem's counters (shown after the control program's)
    bool own = false;
    for (const Counter& c : kCounters) own = own || key == c.key;
    if (!own) s.extra_counters.push_back({key, key, "", read_uint(cp, key.c_str(), p, path)});
  }
  return s;
}

// ---- tpfemu compare -------------------------------------------------------------

void write_comparison(std::ostream& out, const std::string& name_a, const RunSummary& a, const std::string& name_b,
                      const RunSummary& b) {
  const size_t n = std::max(a.istreams.size(), b.istreams.size());
  const std::vector<Figure> fa = figures(a, n), fb = figures(b, n);
  out << "A: " << name_a << (a.config.empty() ? "" : " (" + a.config + ")") << "\n";
  out << "B: " << name_b << (b.config.empty() ? "" : " (" + b.config + ")") << "\n\n";
  std::vector<std::vector<std::string>> rows = {{"FIGURE", "A", "B", "B/A"}};
  for (size_t i = 0; i < fa.size(); ++i) rows.push_back({fa[i].name, show(fa[i]), show(fb[i]), ratio(fa[i], fb[i])});
  write_table(out, rows, "", "lrrr");
  out << "\nB/A: \"-\" when both are 0 or a run has no such I-stream; \"n/a\" when only A is 0.\n";
}

uint64_t RunSummary::counter(const std::string& key) const {
  for (const NamedCount& c : all_counters(*this))
    if (c.key == key) return c.value;
  return 0;
}

}  // namespace os
