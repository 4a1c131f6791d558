// summary.json read back, and `tpfemu compare`: two runs' figures side by side with
// the ratio B/A of each (os/summary.h writes them).
#pragma once
#include <iosfwd>
#include <string>

#include "os/summary.h"

namespace app {

// Reads a summary.json back (for compare); throws std::runtime_error naming the file.
os::RunSummary read_summary_json(const std::string& path);
// Side by side with the ratio B/A of each figure; `all`: each I-stream's rows too (else
// one line says how many were left out).
void write_comparison(std::ostream& out, const std::string& name_a, const os::RunSummary& a,
                      const std::string& name_b, const os::RunSummary& b, bool all = true, bool names = true);

}  // namespace app
