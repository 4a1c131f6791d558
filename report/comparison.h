// Two runs side by side (`tpfemu compare A B` and `tpfemu report A B`): the comparison
// as data, built once (app/run_compare.cpp) and written as text or as a page, so that
// both show the same rows.
#pragma once
#include <string>
#include <vector>

namespace report_html {

// One part: the text compare prints before its table (its title line), the table
// (header first; none when empty), the text after it; and each row's ratio B/A (NaN
// where there is none) for the page's bars.
struct ComparisonPart {
  std::string id{};  // on the page: data-table="compare.ID", data-chart="ratios-ID"
  std::string lead{};
  std::vector<std::vector<std::string>> rows{};
  std::string indent{}, align{};  // as summary_format::write_table lays the text out
  std::string trail{};
  std::vector<double> ratios{};
};

struct Comparison {
  std::string dir_a{}, dir_b{};
  std::vector<ComparisonPart> parts{};  // in the order compare prints them
};

// The page: the runs, the configuration keys that differ first, then the other parts
// as compare prints them, each table with a bar per figure for B/A.
std::string comparison_html(const Comparison& comparison);

}  // namespace report_html
