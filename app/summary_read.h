// summary.json read back, and `tpfemu compare`: two runs' figures side by side with
// the ratio B/A of each (os/summary.h writes them).
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "os/summary.h"

namespace app {

// Reads a summary.json back (for compare); throws std::runtime_error naming the file.
os::RunSummary read_summary_json(const std::string& path);
// Every summary figure of two runs side by side: the rows compare prints (header
// first: FIGURE, A, B, B/A) and each row's values (NaN where a run has none), for the
// page's ratio bars; `all`: each I-stream's rows too (else `folded` counts them).
struct SummaryComparison {
  std::vector<std::vector<std::string>> rows;
  std::vector<double> a, b;
  size_t folded = 0;
  std::string notes() const;  // what compare prints below the table
};
SummaryComparison compare_summaries(const os::RunSummary& a, const os::RunSummary& b, bool all);

// Side by side with the ratio B/A of each figure; `all`: each I-stream's rows too (else
// one line says how many were left out).
void write_comparison(std::ostream& out, const std::string& name_a, const os::RunSummary& a,
                      const std::string& name_b, const os::RunSummary& b, bool all = true, bool names = true);

}  // namespace app
