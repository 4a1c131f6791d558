#include "os/rmf_cpu_activity.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>

#include "emu/isa/facility.h"
#include "emu/machine.h"
#include "os/simulated_time.h"
#include "report/report_json.h"

namespace os {

namespace {
constexpr const char* kNone = "-----";  // RMF's mark for a figure it has not got
// NUM TYPE, then TIME %: ONLINE, LPAR BUSY, MVS BUSY, PARKED; MT %: PROD, UTIL;
// LOG PROC SHARE %; I/O INTERRUPTS: RATE, % VIA TPI (RMF's CPU Activity columns).
constexpr const char* kRow = "{:>3}  {:<4}  {:>7} {:>9} {:>9} {:>7}  {:>6} {:>6}  {:>8}  {:>7} {:>9}\n";
constexpr const char* kGroups =
    "---CPU---  ------------- TIME % --------------  --- MT % ----  LOG PROC  -I/O INTERRUPTS--\n";
constexpr const char* kTotal = "{:<18} {:>9} {:>9} {:>7}\n\n";

// RMF's INTERVAL: mm.ss.ttt.
std::string interval_text(uint64_t cycles, double ghz) {
  const uint64_t ms = uint64_t(double(cycles) / ghz / 1e6 + 0.5);
  return fmt::format("{:02}.{:02}.{:03}", ms / 60000, ms / 1000 % 60, ms % 1000);
}
}  // namespace

void RmfCpuActivity::interval_end(uint64_t now) {
  const unsigned n = machine_.istreams();
  if (last_busy_.size() != n) last_busy_.assign(n, 0), last_instructions_.assign(n, 0);
  Interval v{.start = last_end_, .end = now, .istreams = {}};
  const uint64_t span = now - last_end_;
  double sum = 0;
  for (unsigned k = 0; k < n; ++k) {
    const emu::IStreamCounters& c = machine_.counters(k);
    IStream is{.busy_cycles = c.busy_cycles - last_busy_[k], .instructions = c.instructions - last_instructions_[k]};
    // An I-stream's clock may run a quantum past the interval's end: its busy share is capped at the whole interval.
    is.busy_percent = span ? std::min(100.0, 100.0 * double(is.busy_cycles) / double(span)) : 0.0;
    sum += is.busy_percent;
    last_busy_[k] = c.busy_cycles, last_instructions_[k] = c.instructions;
    v.istreams.push_back(is);
  }
  v.average_busy_percent = n ? sum / n : 0;
  intervals_.push_back(std::move(v));
  last_end_ = now;
}

void RmfCpuActivity::write_text(std::ostream& out) const {
  const double ghz = machine_.config().clock_ghz;
  for (const Interval& v : intervals_) {
    const double seconds = double(v.end - v.start) / ghz / 1e9;
    out << "                                        C P U  A C T I V I T Y\n\n";
    out << fmt::format("           z/TPF (tpfemu)          SYSTEM ID N/A          DATE N/A            INTERVAL {}\n",
                       interval_text(v.end - v.start, ghz));
    // RMF samples each CYCLE; these figures are exact (cycles counted), over LENGTH.
    out << fmt::format("                                   RPT VERSION tpfemu     TIME {}    CYCLE N/A (exact)  "
                       "LENGTH {:.6f} SECONDS\n",
                       simulated_clock(v.start, ghz, '.'), seconds);
    out << fmt::format("CPU  {:<5}  CLOCK {} GHz   I-STREAMS {}\n\n", emu::generation_name(machine_.config().arch),
                       machine_.config().clock_ghz, machine_.istreams());
    out << kGroups;
    out << fmt::format(kRow, "NUM", "TYPE", "ONLINE", "LPAR BUSY", "MVS BUSY", "PARKED", "PROD", "UTIL", "SHARE %",
                       "RATE", "% VIA TPI");
    for (size_t k = 0; k < v.istreams.size(); ++k)
      out << fmt::format(kRow, fmt::format("{:X}", k), "CP", "100.00", kNone,
                         fmt::format("{:.2f}", v.istreams[k].busy_percent), kNone, kNone, kNone, kNone, kNone, kNone);
    out << fmt::format(kTotal, "TOTAL/AVERAGE", kNone, fmt::format("{:.2f}", v.average_busy_percent), kNone);
  }
}

void RmfCpuActivity::write_json(std::ostream& out) const {
  using report_json::Json, report_json::fixed;
  const double ghz = machine_.config().clock_ghz;
  Json intervals = Json::array();
  for (const Interval& v : intervals_) {
    Json rows = Json::array();
    for (size_t k = 0; k < v.istreams.size(); ++k)
      rows.push_back({{"istream", k},
                      {"type", "CP"},
                      {"online_percent", 100},
                      {"mvs_busy_percent", fixed(v.istreams[k].busy_percent, 2)},
                      {"busy_cycles", v.istreams[k].busy_cycles},
                      {"instructions", v.istreams[k].instructions}});
    intervals.push_back({{"start_s", fixed(double(v.start) / ghz / 1e9, 6)},
                         {"end_s", fixed(double(v.end) / ghz / 1e9, 6)},
                         {"istreams", rows},
                         {"average_mvs_busy_percent", fixed(v.average_busy_percent, 2)}});
  }
  report_json::write(out, {{"report", "RMF CPU Activity (busy by I-stream and interval)"},
                           {"not_modelled", {"lpar_busy", "parked", "mt_prod", "mt_util", "log_proc_share",
                                             "io_interrupts"}},
                           {"intervals", intervals}},
                     {.one_per_line = {"intervals", "istreams"}});
}

}  // namespace os
