// The run's reports: summary.txt (for people) and summary.json (for scripts);
// summary_read.cpp reads them back and compares two runs.
//
// Formatting is deterministic: every number is written by fmt with a fixed precision
// (no locale, no shortest-round-trip guessing), the keys come in a fixed order, and
// nothing is read from the host. The same RunSummary gives the same bytes.
//
// Units: utilizations are fractions (0..1) in JSON and percentages in the text;
// times are milliseconds except simulated_seconds. A figure that is not finite (a
// division by zero upstream) is written as null in JSON and "n/a" in the text.
#include "os/summary.h"

#include "os/summary_format.h"

#include "report/report_json.h"

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

using namespace summary_format;


ResponseGroups response_groups(const std::vector<double>& sorted_ms) {
  ResponseGroups g;
  const size_t n = sorted_ms.size();
  if (n < 20 || !(sorted_ms.back() > sorted_ms.front())) return g;
  // The density: a histogram smoothed with a Gaussian of Silverman's bandwidth (which
  // smooths a two-group sample more than needed: a valley that survives it is real).
  constexpr size_t kBins = 256;
  const double lo = sorted_ms.front(), width = (sorted_ms.back() - lo) / double(kBins);
  std::vector<double> hist(kBins, 0.0);
  double mean = 0;
  for (double x : sorted_ms) hist[std::min(kBins - 1, size_t((x - lo) / width))] += 1, mean += x;
  mean /= double(n);
  double var = 0;
  for (double x : sorted_ms) var += (x - mean) * (x - mean);
  const double sd = std::sqrt(var / double(n - 1));
  const double iqr = sorted_ms[3 * n / 4] - sorted_ms[n / 4];
  const double spread = iqr > 0 ? std::min(sd, iqr / 1.34) : sd;
  const double sigma = std::max(1.0, 0.9 * spread * std::pow(double(n), -0.2) / width);  // in bins
  std::vector<double> density(kBins, 0.0);
  for (size_t i = 0; i < kBins; ++i)
    for (size_t j = 0; j < kBins; ++j) {
      const double d = (double(i) - double(j)) / sigma;
      if (d * d < 36) density[i] += hist[j] * std::exp(-0.5 * d * d);
    }
  // Its two highest peaks (local maxima; the edges count) and the lowest point between.
  std::vector<size_t> peaks;
  for (size_t i = 0; i < kBins; ++i)
    if ((i == 0 || density[i] > density[i - 1]) && (i + 1 == kBins || density[i] >= density[i + 1]))
      peaks.push_back(i);
  if (peaks.size() < 2) return g;
  std::stable_sort(peaks.begin(), peaks.end(), [&](size_t a, size_t b) { return density[a] > density[b]; });
  const size_t left = std::min(peaks[0], peaks[1]), right = std::max(peaks[0], peaks[1]);
  size_t valley = left;
  for (size_t i = left; i <= right; ++i)
    if (density[i] < density[valley]) valley = i;
  // Split at the valley: each side at least 10% of the messages, and the valley under
  // half the lower peak.
  const double cut = lo + width * (double(valley) + 0.5);
  const size_t low = size_t(std::lower_bound(sorted_ms.begin(), sorted_ms.end(), cut) - sorted_ms.begin());
  if (low == 0 || low == n) return g;
  double low_sum = 0, high_sum = 0;
  for (size_t k = 0; k < n; ++k) (k < low ? low_sum : high_sum) += sorted_ms[k];
  g.low_share = double(low) / double(n), g.high_share = 1 - g.low_share;
  g.low_mean_ms = low_sum / double(low), g.high_mean_ms = high_sum / double(n - low);
  g.bimodal = density[valley] < 0.5 * std::min(density[left], density[right]) && g.low_share >= 0.1 &&
              g.high_share >= 0.1;
  return g;
}

emu::CyclesByCause window_cycles_by_cause(const emu::CyclesByCause& at_open, const emu::CyclesByCause& at_close,
                                          uint64_t busy_cycles, uint64_t idle_cycles) {
  constexpr size_t kIdle = size_t(emu::Cause::Idle), kPageWait = size_t(emu::Cause::PageWait);
  const auto idle = [](size_t k) { return emu::is_idle(emu::Cause(k)); };
  emu::CyclesByCause out{};
  uint64_t counted = 0;  // busy cycles the counters saw in the window
  for (size_t k = 0; k < emu::kCauseCount; ++k)
    if (!idle(k)) out[k] = at_close[k] - at_open[k], counted += out[k];
  // The idle cycles, the window's rest, split by the counters: the page wait they saw
  // (idle time is charged when the I-stream next has work, so a wait across the
  // window's edge counts where it ended), the rest idle.
  out[kPageWait] = std::min(at_close[kPageWait] - at_open[kPageWait], idle_cycles);
  out[kIdle] = idle_cycles - out[kPageWait];
  if (counted == busy_cycles) return out;
  if (counted == 0) throw std::logic_error("cycles by cause: busy cycles in the window but none counted");
  // Scale to busy_cycles: each cause gets the floor of its share, then the cycles left
  // over (fewer than the causes) go one each to the largest remainders.
  emu::CyclesByCause remainder{};
  uint64_t given = 0;
  for (size_t k = 0; k < emu::kCauseCount; ++k) {
    if (idle(k)) continue;
    const unsigned __int128 share = static_cast<unsigned __int128>(out[k]) * busy_cycles;
    out[k] = uint64_t(share / counted);
    remainder[k] = uint64_t(share % counted);
    given += out[k];
  }
  for (; given < busy_cycles; ++given) {
    size_t best = kIdle;
    for (size_t k = 0; k < emu::kCauseCount; ++k)
      if (!idle(k) && (best == kIdle || remainder[k] > remainder[best])) best = k;
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
  const uint64_t page_wait = causes[size_t(emu::Cause::PageWait)];
  const uint64_t idle = causes[size_t(emu::Cause::Idle)] + page_wait;
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
    if (emu::is_idle(k)) continue;
    const uint64_t c = causes[size_t(k)];
    rows.push_back({emu::cause_name(k), grouped(c), share(c, all), share(c, busy), per_message(c)});
  }
  rows.push_back({"busy", grouped(busy), share(busy, all), share(busy, busy), per_message(busy)});
  rows.push_back({emu::cause_name(emu::Cause::Idle), grouped(idle), share(idle, all)});
  // Only where something waited for a page-in (paging): part of the idle time above.
  if (page_wait) rows.push_back({"  of which page_wait", grouped(page_wait), share(page_wait, all)});
  rows.push_back({"all", grouped(all), share(all, all)});
  write_table(out, rows, "  ", "l");
}

// Why p50 is a poor summary here: the response times fall in two groups, and p50 lies
// in whichever holds more than half, so it jumps when the mix shifts (with the run's
// length, the load, the seed).
void write_response_groups(std::ostream& out, const ResponseGroups& g) {
  auto ms = [](double v) { return fixed(v, kMsDigits, "n/a"); };
  out << "  The response times fall in two groups (bimodal): " << percent(g.low_share) << " around "
      << ms(g.low_mean_ms) << " ms, " << percent(g.high_share) << " around " << ms(g.high_mean_ms) << " ms.\n"
      << "  A percentile lies in one group or the other and moves when their mix shifts (with the run's\n"
      << "  length, the load, the seed); read the groups and the mean rather than p50 alone.\n";
}

}  // namespace

void write_summary_text(std::ostream& out, const RunSummary& s) {
  auto ms = [](double v) { return fixed(v, kMsDigits, "n/a"); };
  out << "tpfemu run summary\n";
  out << "  configuration  " << (s.config.empty() ? "(defaults)" : s.config) << "\n";
  if (!s.ended_early.empty()) out << "  ENDED EARLY    " << s.ended_early << "\n";
  out << "  headline       " << grouped_fixed(s.headline.value, s.headline.digits) << " " << s.headline.label << " ("
      << s.headline.note << ")\n";
  if (!s.headline.detail.empty()) out << "  with           " << s.headline.detail << "\n";
  if (s.headline.document)
    out << "  document       " << fmt::format("{}", *s.headline.document) << " (" << s.headline.document_source
        << ")\n";  // as the document gives it, not padded to the run's digits
  out << "  chosen         " << s.headline.key << ": " << s.headline.reason;
  if (s.headline.choices.size() > 1) {
    out << " (system.headline picks one of";
    for (size_t i = 0; i < s.headline.choices.size(); ++i) out << (i ? ", " : " ") << s.headline.choices[i];
    out << ")";
  }
  out << "\n";
  out << "\nThroughput (measurement window, after warm-up)\n";
  write_table(out,
              {{"messages", grouped(s.messages)},
               {"simulated time", fixed(s.simulated_seconds, kSecondsDigits, "n/a"), "s"},
               {"messages per second", grouped_fixed(s.messages_per_second, kRateDigits), "(simulated)"},
               {"CPU per message", ms(s.ms_per_message), "ms (busy time of all I-streams / messages)"}},
              "  ", "lrl");
  out << "\nResponse time (ms, from a message's arrival to its completion)\n";
  write_table(out,
              {{"mean", "p50", "p90", "p99"},
               {ms(s.response_mean_ms), ms(s.response_p50_ms), ms(s.response_p90_ms), ms(s.response_p99_ms)}},
              "  ", "rrrr");
  if (s.response_groups.bimodal) write_response_groups(out, s.response_groups);
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
  if (!s.notes.empty()) {
    out << "\nNotes\n";
    for (const std::string& n : s.notes) out << "  " << n << "\n";
  }
}

// ---- summary.json ---------------------------------------------------------------

namespace {

using report_json::Json;

// {"instruction": 123, "storage": 45, ...}: every cause, in the enum's order.
Json causes_json(const emu::CyclesByCause& c) {
  Json out = Json::object();
  for (emu::Cause k : emu::all_causes()) out[emu::cause_name(k)] = c[size_t(k)];
  return out;
}

Json istream_json(const RunSummary& s, const IStreamSummary& is) {
  Json out = {{"instructions", is.instructions},
              {"cycles", is.cycles},
              {"busy_cycles", is.busy_cycles},
              {"idle_cycles", is.idle_cycles},
              {"utilization", report_json::fixed(is.utilization, kFractionDigits)}};
  if (s.has_cycles_by_cause) out["cycles_by_cause"] = causes_json(is.cycles_by_cause);
  return out;
}

Json response_groups_json(const ResponseGroups& g) {
  return Json::array({{{"share", report_json::fixed(g.low_share, kFractionDigits)},
                       {"mean_ms", report_json::fixed(g.low_mean_ms, kMsDigits)}},
                      {{"share", report_json::fixed(g.high_share, kFractionDigits)},
                       {"mean_ms", report_json::fixed(g.high_mean_ms, kMsDigits)}}});
}

}  // namespace

void write_summary_json(std::ostream& out, const RunSummary& s) {
  using report_json::fixed;
  Json j = {{"config", s.config}};
  if (!s.ended_early.empty()) j["ended_early"] = s.ended_early;
  j["headline"] = {{"key", s.headline.key},
                   {"label", s.headline.label},
                   {"value", fixed(s.headline.value, s.headline.digits)},
                   {"reason", s.headline.reason}};
  if (!s.headline.detail.empty()) j["headline"]["detail"] = s.headline.detail;
  if (s.headline.document)
    j["headline"]["document"] = {{"value", *s.headline.document},
                                 {"source", s.headline.document_source}};
  j["messages"] = s.messages;
  j["simulated_seconds"] = fixed(s.simulated_seconds, kSecondsDigits);
  j["messages_per_second"] = fixed(s.messages_per_second, kRateDigits);
  j["ms_per_message"] = fixed(s.ms_per_message, kMsDigits);
  j["response_ms"] = {{"mean", fixed(s.response_mean_ms, kMsDigits)},
                      {"p50", fixed(s.response_p50_ms, kMsDigits)},
                      {"p90", fixed(s.response_p90_ms, kMsDigits)},
                      {"p99", fixed(s.response_p99_ms, kMsDigits)}};
  if (s.response_groups.bimodal) j["response_groups"] = response_groups_json(s.response_groups);
  j["cpu_utilization"] = fixed(s.cpu_utilization, kFractionDigits);
  j["instructions"] = s.instructions;
  j["cycles"] = s.cycles;
  if (s.has_cycles_by_cause) j["cycles_by_cause"] = causes_json(total_cycles_by_cause(s));
  j["istreams"] = Json::array();
  for (const IStreamSummary& is : s.istreams) j["istreams"].push_back(istream_json(s, is));
  j["control_program"] = Json::object();
  for (const NamedCount& c : all_counters(s)) j["control_program"][c.key] = c.value;
  if (!s.notes.empty()) j["notes"] = s.notes;
  report_json::write(out, j, {.one_per_line = {"istreams", "control_program"}});
}

uint64_t RunSummary::counter(const std::string& key) const {
  for (const NamedCount& c : all_counters(*this))
    if (c.key == key) return c.value;
  return 0;
}

}  // namespace os
