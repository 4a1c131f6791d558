// summary.json read back, and `tpfemu compare`: two runs' figures side by side with
// the ratio B/A of each.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "app/summary_read.h"
#include "os/summary_format.h"

namespace app {
using os::RunSummary;
using os::IStreamSummary;
using os::total_cycles_by_cause;

using namespace os::summary_format;

namespace {

using OrderedJson = nlohmann::ordered_json;  // keeps the file's order (of the counters)

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", path, what));
}

const OrderedJson& member(const OrderedJson& obj, const char* key, const std::string& prefix, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(path, fmt::format("missing key \"{}{}\"", prefix, key));
  return *it;
}

uint64_t read_uint(const OrderedJson& obj, const char* key, const std::string& prefix, const std::string& path) {
  const OrderedJson& v = member(obj, key, prefix, path);
  if (!v.is_number_unsigned())
    fail(path, fmt::format("\"{}{}\" is not a whole number >= 0 (got {})", prefix, key,
                           v.dump(-1, ' ', false, OrderedJson::error_handler_t::replace)));
  return v.get<uint64_t>();
}

double read_double(const OrderedJson& obj, const char* key, const std::string& prefix, const std::string& path) {
  const OrderedJson& v = member(obj, key, prefix, path);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();  // written for a figure that was not finite
  if (!v.is_number())
    fail(path, fmt::format("\"{}{}\" is not a number (got {})", prefix, key,
                           v.dump(-1, ' ', false, OrderedJson::error_handler_t::replace)));
  return v.get<double>();
}

const OrderedJson& read_object(const OrderedJson& obj, const char* key, const std::string& path) {
  const OrderedJson& v = member(obj, key, "", path);
  if (!v.is_object()) fail(path, fmt::format("\"{}\" is not an object", key));
  return v;
}

emu::CyclesByCause read_causes(const OrderedJson& obj, const std::string& prefix, const std::string& path) {
  const OrderedJson& v = member(obj, "cycles_by_cause", prefix, path);
  const std::string p = prefix + "cycles_by_cause";
  if (!v.is_object()) fail(path, fmt::format("\"{}\" is not an object", p));
  emu::CyclesByCause c{};
  for (emu::Cause k : emu::all_causes()) {
    // page_wait came later: a summary without it had none (its idle time is all idle).
    if (k == emu::Cause::PageWait && !v.contains(emu::cause_name(k))) continue;
    c[size_t(k)] = read_uint(v, emu::cause_name(k), p + ".", path);
  }
  return c;
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
  return f.whole ? grouped(f.count) : grouped_fixed(f.value, f.digits);
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

}  // namespace

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

  OrderedJson doc;
  try {
    doc = OrderedJson::parse(text.str());
  } catch (const OrderedJson::exception& e) {
    fail(path, fmt::format("not valid JSON: {}", e.what()));
  }
  if (!doc.is_object()) fail(path, "not a summary (the top level is not a JSON object)");

  RunSummary s;
  const OrderedJson& config = member(doc, "config", "", path);
  if (!config.is_string()) fail(path, "\"config\" is not a string");
  s.config = config.get<std::string>();
  if (auto it = doc.find("ended_early"); it != doc.end() && it->is_string()) s.ended_early = it->get<std::string>();
  if (auto it = doc.find("notes"); it != doc.end() && it->is_array())
    for (const auto& n : *it)
      if (n.is_string()) s.notes.push_back(n.get<std::string>());
  if (auto it = doc.find("headline"); it != doc.end() && it->is_object()) {
    const OrderedJson& h = *it;
    if (h.contains("key") && h["key"].is_string()) s.headline.key = h["key"].get<std::string>();
    if (h.contains("label") && h["label"].is_string()) s.headline.label = h["label"].get<std::string>();
    if (h.contains("value") && h["value"].is_number()) s.headline.value = h["value"].get<double>();
    if (h.contains("reason") && h["reason"].is_string()) s.headline.reason = h["reason"].get<std::string>();
    if (h.contains("detail") && h["detail"].is_string()) s.headline.detail = h["detail"].get<std::string>();
    if (h.contains("document") && h["document"].is_object()) {
      const OrderedJson& d = h["document"];
      if (d.contains("value") && d["value"].is_number()) s.headline.document = d["value"].get<double>();
      if (d.contains("source") && d["source"].is_string()) s.headline.document_source = d["source"].get<std::string>();
    }
  }
  s.messages = read_uint(doc, "messages", "", path);
  s.simulated_seconds = read_double(doc, "simulated_seconds", "", path);
  s.messages_per_second = read_double(doc, "messages_per_second", "", path);
  s.ms_per_message = read_double(doc, "ms_per_message", "", path);
  const OrderedJson& r = read_object(doc, "response_ms", path);
  s.response_mean_ms = read_double(r, "mean", "response_ms.", path);
  s.response_p50_ms = read_double(r, "p50", "response_ms.", path);
  s.response_p90_ms = read_double(r, "p90", "response_ms.", path);
  s.response_p99_ms = read_double(r, "p99", "response_ms.", path);
  s.cpu_utilization = read_double(doc, "cpu_utilization", "", path);
  s.instructions = read_uint(doc, "instructions", "", path);
  s.cycles = read_uint(doc, "cycles", "", path);
  // Written since cycles_by_cause existed: then every I-stream has its own.
  s.has_cycles_by_cause = doc.contains("cycles_by_cause");
  const OrderedJson& list = member(doc, "istreams", "", path);
  if (!list.is_array()) fail(path, "\"istreams\" is not an array");
  for (size_t i = 0; i < list.size(); ++i) {
    const OrderedJson& e = list[i];
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
  const OrderedJson& cp = read_object(doc, "control_program", path);
  const std::string p = "control_program.";
  for (const Counter& c : kCounters) s.*c.field = read_uint(cp, c.key, p, path);
  std::string after;  // a subsystem's counter stays where the file has it: after the one before it
  for (const auto& [key, v] : cp.items()) {
    bool own = false;
    for (const Counter& c : kCounters) own = own || key == c.key;
    if (!own) s.extra_counters.push_back({key, key, after, read_uint(cp, key.c_str(), p, path)});
    after = key;
  }
  return s;
}

// ---- tpfemu compare -------------------------------------------------------------

SummaryComparison compare_summaries(const RunSummary& a, const RunSummary& b, bool all) {
  const size_t n = std::max(a.istreams.size(), b.istreams.size());
  const std::vector<Figure> fa = figures(a, n), fb = figures(b, n);
  // By name: runs with other subsystems have other counters ("-" where a run has none).
  auto find = [](const std::vector<Figure>& f, const std::string& name, bool whole) {
    for (const Figure& x : f)
      if (x.name == name) return x;
    return Figure{name, whole, std::numeric_limits<double>::quiet_NaN(), 0, 0};
  };
  SummaryComparison c;
  c.rows = {{"FIGURE", "A", "B", "B/A"}};
  auto add = [&](const Figure& x, const Figure& y) {
    if (!all && x.name.rfind("istreams[", 0) == 0) {
      ++c.folded;
      return;
    }
    c.rows.push_back({x.name, show(x), show(y), ratio(x, y)});
    c.a.push_back(x.value);
    c.b.push_back(y.value);
  };
  for (const Figure& x : fa) add(x, find(fb, x.name, x.whole));
  for (const Figure& y : fb) {
    const Figure x = find(fa, y.name, y.whole);
    if (std::isnan(x.value)) add(Figure{y.name, y.whole, x.value, 0, y.digits}, y);
  }
  return c;
}

std::string SummaryComparison::notes() const {
  std::string out;
  if (folded) out += "\n" + std::to_string(folded) + " rows of single I-streams (istreams[N].*) left out: --all shows them.\n";
  return out + "\nB/A: \"-\" when both are 0 or a run has no such I-stream; \"n/a\" when only A is 0.\n";
}

void write_comparison(std::ostream& out, const std::string& name_a, const RunSummary& a, const std::string& name_b,
                      const RunSummary& b, bool all, bool names) {
  if (names) {
    out << "A: " << name_a << (a.config.empty() ? "" : " (" + a.config + ")") << "\n";
    out << "B: " << name_b << (b.config.empty() ? "" : " (" + b.config + ")") << "\n\n";
  }
  const SummaryComparison c = compare_summaries(a, b, all);
  write_table(out, c.rows, "", "lrrr");
  out << c.notes();
}

}  // namespace app
