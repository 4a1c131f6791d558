#include "os/summary_format.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace os::summary_format {

std::vector<NamedCount> all_counters(const RunSummary& s) {
  std::vector<NamedCount> out;
  auto extras_after = [&](const std::string& key) {
    for (const auto& x : s.extra_counters)
      if (x.after == key) out.push_back({x.key, x.label, x.value});
  };
  for (const Counter& c : kCounters) {
    out.push_back({c.key, c.label, s.*c.field});
    extras_after(c.key);
  }
  for (const auto& x : s.extra_counters) {
    bool placed = false;
    for (const Counter& c : kCounters) placed = placed || x.after == c.key;
    if (!placed) out.push_back({x.key, x.label, x.value});
  }
  return out;
}

std::string percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return fixed(100.0 * fraction, 1, "n/a") + "%";
}

void write_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::string& indent,
                 std::string_view align) {
  if (rows.empty()) return;
  size_t columns = 0;
  for (const auto& r : rows) columns = std::max(columns, r.size());
  std::vector<size_t> width(columns, 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line = indent;
    for (size_t c = 0; c < r.size(); ++c) {
      if (c) line += "  ";
      const bool left = c < align.size() ? align[c] == 'l' : false;
      line += left ? fmt::format("{:<{}}", r[c], width[c]) : fmt::format("{:>{}}", r[c], width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

}  // namespace os::summary_format
