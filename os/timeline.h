// The run's timeline (system.timeline): every interval of simulated time, one row of
// figures over that interval -- messages completed and their mean response time, CPU
// busy, and the columns subsystems add (page-ins a second by device, frames available).
// What a transition or a dump looks like over time, where the summary shows only the
// measurement window's totals. timeline.txt and its JSON twin timeline.json.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace os {

// One column: `value` is read at the end of every interval.
struct TimelineColumn {
  enum class Kind {
    Rate,   // a running count: the interval's increase, a second
    Mean,   // a running sum over a running count (`count`): the interval's mean
    Level,  // a level (frames available): its value at the end of the interval
  };
  std::string key{}, label{};  // json key; txt column heading
  Kind kind = Kind::Rate;
  std::function<double()> value{};
  std::function<double()> count{};  // Mean only
  int decimals = 0;
};

class Timeline {
 public:
  explicit Timeline(double interval_s) : interval_s_(interval_s) {}
  void add(TimelineColumn column) { columns_.push_back(std::move(column)); }
  // The end of an interval at `seconds` of simulated time.
  void sample(double seconds);
  // The columns' keys, in order, and the last row sample() made (empty before one).
  std::vector<std::string> keys() const;
  const std::vector<double>& last_row() const { return rows_.empty() ? kNoRow : rows_.back(); }
  void write_text(std::ostream& out) const;
  void write_json(std::ostream& out) const;

 private:
  static inline const std::vector<double> kNoRow{};
  double interval_s_;
  std::vector<TimelineColumn> columns_;
  std::vector<double> last_, last_count_;
  std::vector<double> times_;
  std::vector<std::vector<double>> rows_;
};

}  // namespace os
