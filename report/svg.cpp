#include "report/svg.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "report/html_writer.h"

namespace report_svg {

namespace {

using report_html::escape;
using report_html::number_text;

// Colours of the parts of a stacked bar, in the order of the series (cycles by cause:
// instruction, storage, coherence, ...): distinct on a white page and in grey print.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f3b5c", "#8cd17d"};
constexpr size_t kColours = sizeof kPalette / sizeof kPalette[0];

// A coordinate: one digit after the point is finer than a pixel and the same bytes every time.
std::string c(double v) { return fmt::format("{:.1f}", v); }

std::string open_svg(std::string_view name, double width, double height, std::string_view title) {
  return fmt::format(
      "<svg data-chart=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\">\n<title>{}</title>\n<text x=\"8\" y=\"16\" style=\"font-weight:bold\">{}</text>\n",
      escape(name), c(width), c(height), c(width), c(height), escape(title), escape(title));
}

std::string text(double x, double y, std::string_view s, std::string_view anchor = "start") {
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\">{}</text>\n", c(x), c(y), anchor, escape(s));
}

std::string rect(double x, double y, double w, double h, std::string_view fill, std::string_view tip) {
  return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n", c(x),
                     c(y), c(w), c(h), fill, escape(tip));
}

double bar_total(const std::vector<double>& parts) {
  double t = 0;
  for (double v : parts) t += std::max(v, 0.0);
  return t;
}

std::string legend(const std::vector<std::string>& series, double y, double width) {
  std::string out;
  double x = 8;
  for (size_t i = 0; i < series.size(); ++i) {
    const double w = 18 + 7 * double(series[i].size());
    if (x + w > width) x = 8, y += 16;
    out += rect(x, y - 9, 10, 10, kPalette[i % kColours], series[i]);
    out += text(x + 13, y, series[i]);
    x += w;
  }
  return out;
}

}  // namespace

std::string stacked_bars(const StackedBars& chart) {
  constexpr double kLabel = 110, kBar = 18, kGap = 6, kWidth = 900, kRight = 150, kTop = 28;
  double most = 0;
  for (const auto& parts : chart.values) most = std::max(most, bar_total(parts));
  const double span = kWidth - kLabel - kRight, rows = double(chart.labels.size());
  const double legend_rows = std::ceil(double(chart.series.size()) / 8);
  const double height = kTop + rows * (kBar + kGap) + 16 * legend_rows + 16;
  std::string out = open_svg(chart.name, kWidth, height, chart.title);
  for (size_t b = 0; b < chart.labels.size(); ++b) {
    const double y = kTop + double(b) * (kBar + kGap);
    out += text(kLabel - 6, y + 13, chart.labels[b], "end");
    double x = kLabel;
    for (size_t s = 0; s < chart.values[b].size() && s < chart.series.size(); ++s) {
      const double v = std::max(chart.values[b][s], 0.0);
      if (v <= 0 || most <= 0) continue;
      const double w = span * v / most;
      out += rect(x, y, w, kBar, kPalette[s % kColours],
                  chart.labels[b] + ", " + chart.series[s] + ": " + number_text(v, chart.unit));
      x += w;
    }
    out += text(x + 6, y + 13, number_text(bar_total(chart.values[b]), chart.unit));
  }
  out += legend(chart.series, kTop + rows * (kBar + kGap) + 12, kWidth);
  return out + "</svg>\n";
}

std::string line_chart(const Line& chart) {
  constexpr double kWidth = 420, kHeight = 200, kLeft = 92, kRight = 12, kTop = 28, kBottom = 34;
  const auto [xmin_it, xmax_it] = std::minmax_element(chart.x.begin(), chart.x.end());
  const auto [ymin_it, ymax_it] = std::minmax_element(chart.y.begin(), chart.y.end());
  const double x0 = chart.x.empty() ? 0 : *xmin_it, x1 = chart.x.empty() ? 1 : *xmax_it;
  const double y0 = std::min(0.0, chart.y.empty() ? 0 : *ymin_it), y1 = chart.y.empty() ? 1 : *ymax_it;
  const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x1 > x0 ? (x - x0) / (x1 - x0) * w : 0); };
  auto py = [&](double y) { return kTop + h - (y1 > y0 ? (y - y0) / (y1 - y0) * h : 0); };
  std::string out = open_svg(chart.name, kWidth, kHeight, chart.title);
  out += fmt::format("<path d=\"M{} {}V{}H{}\" fill=\"none\" stroke=\"#999\"/>\n", c(kLeft), c(kTop), c(kTop + h),
                     c(kLeft + w));
  out += text(kLeft - 4, kTop + 4, number_text(y1, chart.y_unit), "end");
  out += text(kLeft - 4, kTop + h, number_text(y0, chart.y_unit), "end");
  out += text(kLeft, kTop + h + 14, number_text(x0, chart.x_unit));
  out += text(kLeft + w, kTop + h + 14, number_text(x1, chart.x_unit), "end");
  out += text(kLeft + w / 2, kTop + h + 28, "simulated time", "middle");
  std::string points;
  for (size_t i = 0; i < chart.x.size() && i < chart.y.size(); ++i)
    points += (i ? " " : "") + c(px(chart.x[i])) + "," + c(py(chart.y[i]));
  out += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", points, kPalette[0]);
  return out + "</svg>\n";
}

std::string ratio_bars(const Ratios& chart) {
  constexpr double kLabel = 330, kBar = 14, kGap = 4, kWidth = 900, kTop = 28, kMaxLog = 4;  // 16x
  const double half = (kWidth - kLabel - 100) / 2, mid = kLabel + half;  // the ratio's text right of the bars
  const double height = kTop + double(chart.labels.size()) * (kBar + kGap) + 24;
  std::string out = open_svg(chart.name, kWidth, height, chart.title);
  out += fmt::format("<path d=\"M{} {}V{}\" stroke=\"#999\"/>\n", c(mid), c(kTop - 4), c(height - 20));
  out += text(mid, height - 6, "B/A = 1 (log scale: 1/16 to 16)", "middle");
  for (size_t i = 0; i < chart.labels.size(); ++i) {
    const double y = kTop + double(i) * (kBar + kGap), r = chart.ratios[i];
    std::string label = chart.labels[i];
    if (label.size() > 48) label = label.substr(0, 45) + "...";
    out += text(kLabel - 6, y + 11, label, "end");
    if (!std::isfinite(r) || r <= 0) {
      out += text(kWidth - 6, y + 11, "-", "end");
      continue;
    }
    const double l = std::clamp(std::log2(r), -kMaxLog, kMaxLog) / kMaxLog * half;
    const std::string tip = chart.labels[i] + ": B/A " + fmt::format("{:.3f}", r);
    out += rect(l >= 0 ? mid : mid + l, y, std::max(std::fabs(l), 1.0), kBar, l >= 0 ? kPalette[0] : kPalette[1], tip);
    out += text(kWidth - 6, y + 11, fmt::format("{:.3f}", r), "end");
  }
  return out + "</svg>\n";
}

}  // namespace report_svg
