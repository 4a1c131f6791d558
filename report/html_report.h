// tpfemu report RUN_DIR: a run folder's reports as one page (report.html) a z/TPF or
// z/OS performance analyst opens first, from the file system with nothing to fetch
// (issue 48): the headline with its with/document/chosen lines and a table of contents,
// the document's figures, cycles by cause as stacked bars (the run, per I-stream, a
// message without idle), the timeline's charts, the summary, ETIM's programs and its
// displacements counted most, then each subsystem's report in the layout it prints (its
// text twin as it is: RPTSTG, paging, RMF, fetch.txt, locks) with its JSON as tables
// folded below, the operator's displays from run.log, and ETIM's every row last.
//
// Every table shows one JSON member (data-table="FILE" for a report's scalar figures,
// "FILE.MEMBER" for an object's members or an array's elements, a <tr> each), and every
// text report is a <pre data-report="FILE"> with the file's text, so that what the page
// shows can be checked against the run's files row for row.
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
