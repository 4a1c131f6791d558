#include "os/timeline.h"

#include "config/number_text.h"
#include "report/report_json.h"


#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace os {

void Timeline::sample(double seconds) {
  const size_t n = columns_.size();
  if (last_.empty()) last_.assign(n, 0), last_count_.assign(n, 0);
  std::vector<double> row(n);
  for (size_t k = 0; k < n; ++k) {
    const TimelineColumn& c = columns_[k];
    const double v = c.value();
    switch (c.kind) {
      case TimelineColumn::Kind::Rate: row[k] = (v - last_[k]) / interval_s_; break;
      case TimelineColumn::Kind::Level: row[k] = v; break;
      case TimelineColumn::Kind::Mean: {
        const double m = c.count(), dm = m - last_count_[k];
        row[k] = dm > 0 ? (v - last_[k]) / dm : 0;
        last_count_[k] = m;
        break;
      }
    }
    last_[k] = v;
  }
  times_.push_back(seconds);
  rows_.push_back(std::move(row));
}

std::vector<std::string> Timeline::keys() const {
  std::vector<std::string> k;
  for (const auto& c : columns_) k.push_back(c.key);
  return k;
}

namespace {
// Thousands separators in the integer part, as the other reports print figures.
std::string figure(double v, int decimals) { return cfg::grouped_fixed(v, decimals); }
}  // namespace

void Timeline::write_text(std::ostream& out) const {
  out << fmt::format("TIMELINE  every {:g} ms of simulated time; rates are a second, means over the interval\n\n",
                     interval_s_ * 1e3);
  std::vector<size_t> width(columns_.size());
  std::string head = fmt::format("{:>10}", "time s");
  for (size_t k = 0; k < columns_.size(); ++k) {
    width[k] = std::max<size_t>(columns_[k].label.size(), 10);
    for (const auto& r : rows_) width[k] = std::max(width[k], figure(r[k], columns_[k].decimals).size());
    head += fmt::format("  {:>{}}", columns_[k].label, width[k]);
  }
  out << head << "\n";
  for (size_t i = 0; i < rows_.size(); ++i) {
    std::string line = fmt::format("{:>10.3f}", times_[i]);
    for (size_t k = 0; k < columns_.size(); ++k)
      line += fmt::format("  {:>{}}", figure(rows_[i][k], columns_[k].decimals), width[k]);
    out << line << "\n";
  }
}

void Timeline::write_json(std::ostream& out) const {
  using report_json::Json;
  Json columns = Json::array({"time_s"});
  for (const auto& c : columns_) columns.push_back(c.key);
  Json rows = Json::array();
  for (size_t i = 0; i < rows_.size(); ++i) {
    Json row = Json::array({times_[i]});
    for (double v : rows_[i]) row.push_back(v);
    rows.push_back(row);
  }
  report_json::write(out, {{"interval_s", interval_s_}, {"columns", columns}, {"rows", rows}},
                     {.one_per_line = {"rows"}});
}

}  // namespace os
