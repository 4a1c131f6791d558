// How the run's reports write their figures (summary.cpp writes them, summary_read.cpp
// reads them back and compares two runs): the control program's counters in their
// order, numbers with fixed digits, thousands grouped, aligned text tables. (The JSON
// is written by report/report_json.h, with these digits.) Internal
// to os/summary*.cpp.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "config/number_text.h"
#include "os/summary.h"

namespace os::summary_format {

// The control program's counters: key in JSON, label in text, the field. One place.
struct Counter {
  const char* key;
  const char* label;
  uint64_t RunSummary::*field;
};
inline constexpr Counter kCounters[] = {
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
std::vector<NamedCount> all_counters(const RunSummary& s);

// Digits after the point for each kind of decimal figure.
constexpr int kSecondsDigits = 9;  // simulated seconds: nanosecond resolution
constexpr int kRateDigits = 3;     // messages per second
constexpr int kMsDigits = 6;       // milliseconds: nanosecond resolution
constexpr int kFractionDigits = 6; // utilizations (0..1)

using cfg::fixed;  // config/number_text.h: the text reports' one number style
using cfg::grouped;
using cfg::grouped_fixed;
std::string percent(double fraction);    // 0.25 -> "25.0%"
// Columns padded to their widest cell; `align` has one letter per column, 'l' or 'r'
// (columns past its end are right-aligned, the first defaults to left).
void write_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::string& indent,
                 std::string_view align = "l");

}  // namespace os::summary_format
