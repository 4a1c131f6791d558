#include "le/le_pools.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <limits>

#include "emu/cpu.h"

namespace le {
namespace {

uint32_t get32(const uint8_t* cb, size_t off) { return emu::Cpu::load_be<uint32_t>(cb + off); }
uint64_t get64(const uint8_t* cb, size_t off) { return emu::Cpu::load_be<uint64_t>(cb + off); }

std::string heapp(const std::vector<std::pair<uint32_t, std::string>>& pools) {
  std::string s = "HEAPP(ON";
  for (const auto& [cell, pct] : pools) s += fmt::format(",{},{}", cell, pct);
  if (pools.size() < LEPOOLS_MAX) s += ",0";
  return s + ")";
}

}  // namespace

PoolsReport read_pools(const uint8_t* cb, size_t bytes) {
  PoolsReport r;
  if (bytes < offsetof(lepools_cb, ranges) || get32(cb, offsetof(lepools_cb, eye)) != LEPOOLS_CB_EYE ||
      get32(cb, offsetof(lepools_cb, on)) == 0)
    return r;
  r.on = true;
  r.heap_init = get32(cb, offsetof(lepools_cb, heap_init));
  r.big_requests = get64(cb, offsetof(lepools_cb, big_requests));
  r.errors = get64(cb, offsetof(lepools_cb, errors));
  r.extent_failures = get64(cb, offsetof(lepools_cb, extent_failures));
  const uint32_t count = std::min(get32(cb, offsetof(lepools_cb, count)), LEPOOLS_MAX);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = offsetof(lepools_cb, pools) + i * sizeof(lepool);
    PoolReport p;
    p.cell_size = get32(cb, at + offsetof(lepool, cell_size));
    p.percent = get32(cb, at + offsetof(lepool, percent));
    p.element_size = get32(cb, at + offsetof(lepool, element_size));
    p.cells_per_extent = get32(cb, at + offsetof(lepool, cells_per_extent));
    p.gets = get64(cb, at + offsetof(lepool, gets));
    p.frees = get64(cb, at + offsetof(lepool, frees));
    p.extents = get64(cb, at + offsetof(lepool, extents));
    p.in_use = get64(cb, at + offsetof(lepool, in_use));
    p.max_used = get64(cb, at + offsetof(lepool, max_used));
    r.pools.push_back(p);
  }
  const uint32_t largest = r.pools.empty() ? 0 : std::min(r.pools.back().cell_size, LEPOOLS_MAX_CELL);
  const size_t ranges = largest / LEPOOLS_GRANULE;
  if (bytes >= offsetof(lepools_cb, ranges) + ranges * 4)
    for (size_t i = 0; i < ranges; ++i) r.ranges.push_back(get32(cb, offsetof(lepools_cb, ranges) + i * 4));
  return r;
}

std::vector<uint32_t> suggested_percentages(const PoolsReport& p) {
  std::vector<uint32_t> r;
  for (const PoolReport& q : p.pools) {
    const uint64_t bytes = q.max_used * q.element_size * 100;
    uint64_t pct = p.heap_init ? (bytes + p.heap_init - 1) / p.heap_init : 90;
    r.push_back(uint32_t(std::clamp<uint64_t>(pct, 1, 90)));
  }
  return r;
}

std::vector<uint32_t> suggested_cell_sizes(const PoolsReport& p) {
  // The sizes requested, in 8-byte units (a request of n bytes needs a cell of
  // round_up(n, 8)), and how often.
  std::vector<uint64_t> unit, count;
  for (size_t i = 0; i < p.ranges.size(); ++i)
    if (p.ranges[i]) unit.push_back(i + 1), count.push_back(p.ranges[i]);
  const size_t m = unit.size();
  std::vector<uint32_t> sizes;
  if (m <= LEPOOLS_MAX) {
    for (uint64_t u : unit) sizes.push_back(uint32_t(u * LEPOOLS_GRANULE));
  } else {
    // cost[k][j]: the fewest cell bytes for the j smallest sizes with k cell sizes, the
    // largest of them unit[j-1]; a group of sizes takes its largest as its cell.
    std::vector<uint64_t> total(m + 1, 0);
    for (size_t j = 0; j < m; ++j) total[j + 1] = total[j] + count[j];
    const uint64_t inf = std::numeric_limits<uint64_t>::max();
    std::vector<std::vector<uint64_t>> cost(LEPOOLS_MAX + 1, std::vector<uint64_t>(m + 1, inf));
    std::vector<std::vector<uint32_t>> from(LEPOOLS_MAX + 1, std::vector<uint32_t>(m + 1, 0));
    for (size_t j = 1; j <= m; ++j) cost[1][j] = unit[j - 1] * total[j];
    for (size_t k = 2; k <= LEPOOLS_MAX; ++k)
      for (size_t j = k; j <= m; ++j)
        for (size_t i = k - 1; i < j; ++i) {
          const uint64_t c = cost[k - 1][i] + unit[j - 1] * (total[j] - total[i]);
          if (c < cost[k][j]) cost[k][j] = c, from[k][j] = uint32_t(i);
        }
    for (size_t k = LEPOOLS_MAX, j = m; k >= 1 && j > 0; j = from[k][j], --k) sizes.push_back(uint32_t(unit[j - 1] * 8));
    std::reverse(sizes.begin(), sizes.end());
  }
  const uint32_t largest = p.pools.empty() ? 0 : p.pools.back().cell_size;
  if (largest && sizes.size() < LEPOOLS_MAX && (sizes.empty() || sizes.back() < largest)) sizes.push_back(largest);
  return sizes;
}

std::string suggested_percentages_option(const PoolsReport& p) {
  const std::vector<uint32_t> pct = suggested_percentages(p);
  std::vector<std::pair<uint32_t, std::string>> pools;
  for (size_t i = 0; i < p.pools.size(); ++i) pools.emplace_back(p.pools[i].cell_size, std::to_string(pct[i]));
  return heapp(pools);
}

// The percentages left out (",,"), as IBM's sample writes them: ",32,,128,,...,0)".
std::string suggested_cell_sizes_option(const PoolsReport& p) {
  const std::vector<uint32_t> cells = suggested_cell_sizes(p);
  std::string s = "HEAPP(ON";
  for (size_t i = 0; i < cells.size(); ++i) s += fmt::format("{}{}", i ? ",," : ",", cells[i]);
  if (cells.size() < LEPOOLS_MAX) s += cells.empty() ? ",0" : ",,0";  // HEAPP(ON,0): no pools
  return s + ")";
}

// LE's layout (z/OS Language Environment Debugging Guide, the storage report's
// "HEAPPOOLS Statistics" and "HEAPPOOLS Summary"): per pool its cell size and the
// requests it served, with the requests by 8-byte range of size (ours: only the ranges
// that had requests); the requests greater than the largest cell size; the summary
// table, the suggested percentages and cell sizes.
void write_pools_report(std::ostream& out, const PoolsReport& p) {
  if (!p.on) return;
  out << "HEAPPOOLS Statistics:\n";
  uint32_t low = 0;
  for (size_t i = 0; i < p.pools.size(); ++i) {
    const PoolReport& q = p.pools[i];
    out << fmt::format("  Pool {:>2} size: {:>5}   Get requests: {:>12}\n", i + 1, q.cell_size, q.gets);
    for (size_t r = low / LEPOOLS_GRANULE; r < q.cell_size / LEPOOLS_GRANULE && r < p.ranges.size(); ++r)
      if (p.ranges[r])
        out << fmt::format("    Successful Get Heap requests: {:>5}-{:>5} {:>16}\n", r * LEPOOLS_GRANULE + 1,
                           (r + 1) * LEPOOLS_GRANULE, p.ranges[r]);
    low = q.cell_size;
  }
  out << fmt::format("  Requests greater than the largest cell size: {:>16}\n", p.big_requests);
  out << "HEAPPOOLS Summary:\n";
  out << "    Specified  Element   Extent   Cells Per  Extents    Maximum      Cells In\n";
  out << "    Cell Size  Size      Percent  Extent     Allocated  Cells Used   Use\n";
  const std::string rule = "    " + std::string(74, '-') + "\n";
  out << rule;
  for (const PoolReport& q : p.pools)
    out << fmt::format("    {:>9} {:>6} {:>9} {:>11} {:>10} {:>12} {:>10}\n", q.cell_size, q.element_size, q.percent,
                       q.cells_per_extent, q.extents, q.max_used, q.in_use);
  out << rule;
  out << "    Suggested Percentages for current Cell Sizes:\n";
  out << "      " << suggested_percentages_option(p) << "\n";
  out << "    Suggested Cell Sizes:\n";
  out << "      " << suggested_cell_sizes_option(p) << "\n";
}

report_json::Json pools_json(const PoolsReport& p) {
  using report_json::Json;
  if (!p.on) return nullptr;
  const std::vector<uint32_t> pct = suggested_percentages(p);
  Json pools = Json::array();
  for (size_t i = 0; i < p.pools.size(); ++i) {
    const PoolReport& q = p.pools[i];
    pools.push_back({{"cell_size", q.cell_size},
                     {"element_size", q.element_size},
                     {"extent_percent", q.percent},
                     {"cells_per_extent", q.cells_per_extent},
                     {"get_requests", q.gets},
                     {"free_requests", q.frees},
                     {"extents_allocated", q.extents},
                     {"maximum_cells_used", q.max_used},
                     {"cells_in_use", q.in_use},
                     {"suggested_percent", pct[i]}});
  }
  return {{"initial_heap_size", p.heap_init},
          {"requests_greater_than_largest_cell", p.big_requests},
          {"errors", p.errors},
          {"extent_failures", p.extent_failures},
          {"pools", pools},
          {"suggested_cell_sizes", suggested_cell_sizes(p)},
          {"suggested_percentages_option", suggested_percentages_option(p)},
          {"suggested_cell_sizes_option", suggested_cell_sizes_option(p)}};
}

}  // namespace le
