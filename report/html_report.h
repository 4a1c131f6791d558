// tpfemu report RUN_DIR: a run folder's JSON reports as one page (report.html) a
// person can look at, opened from the file system with nothing to fetch: the headline,
// the summary, cycles by cause as stacked bars (per I-stream and per message), the
// timeline's series, the ETIM profile and every subsystem's report as tables.
//
// Every table shows one JSON member (data-table="FILE" for a report's scalar figures,
// "FILE.MEMBER" for an object's members or an array's elements, a <tr> each), so that
// what the page shows can be checked against the JSON row for row.
#pragma once
#include <filesystem>
#include <string>

namespace report_html {

// The page of a run folder. Throws std::runtime_error naming the file when the folder
// is not a run (no summary.json) or a report is not JSON.
std::string run_report(const std::filesystem::path& run_dir);

// Writes run_dir/report.html (replacing it) and returns its path.
std::filesystem::path write_run_report(const std::filesystem::path& run_dir);

}  // namespace report_html
