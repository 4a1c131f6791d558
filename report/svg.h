// Charts drawn as inline SVG when the page is written (no script library, nothing to
// load): every chart one <svg data-chart="NAME">, its coordinates written with fixed
// digits so that the same data gives the same bytes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace report_svg {

// Horizontal bars, each split into the parts of `series` (cycles by cause): one bar per
// label, values[bar][part] in `unit`. Parts of 0 draw nothing; the legend names them all.
struct StackedBars {
  std::string name{}, title{}, unit{};
  std::vector<std::string> labels{}, series{};
  std::vector<std::vector<double>> values{};
};
std::string stacked_bars(const StackedBars& chart);

// One series over simulated time: x in `x_unit`, y in `y_unit`.
struct Line {
  std::string name{}, title{}, x_unit{}, y_unit{};
  std::vector<double> x{}, y{};
};
std::string line_chart(const Line& chart);

// One bar per figure for the ratio B/A, drawn from 1 on a log2 scale (2x and 0.5x the
// same length), clipped at 16x; no bar where the ratio is not a number.
struct Ratios {
  std::string name{}, title{};
  std::vector<std::string> labels{};
  std::vector<double> ratios{};
};
std::string ratio_bars(const Ratios& chart);

}  // namespace report_svg
