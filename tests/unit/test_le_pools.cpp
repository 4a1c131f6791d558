// HEAPPOOLS (issue 25): the pools' host model (le/le_heap_model.h, PoolsHeapModel: the
// policy of le/guest/lepools.c, checked against the guest by tests/le_heap_compare.sh)
// on hand-made cases, and RPTSTG's HEAPPOOLS statistics (le/le_pools.h): the suggested
// percentages and cell sizes, the report's lines.
#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

#include "le/le_heap_model.h"
#include "le/le_pools.h"

using le::Place;
using le::PoolsHeapModel;
using le::PoolsReport;

namespace {

le::HeapOptions heap32k() {
  le::HeapOptions o;
  o.init = o.incr = 32768;
  return o;
}

le::PoolsOptions ibm_pools() {
  le::PoolsOptions p;
  p.on = true;
  p.pools = {{8, 10}, {32, 10}, {128, 10}, {256, 10}, {1024, 10}, {2048, 10}};
  return p;
}

}  // namespace

TEST_CASE("LE pools: cells per extent are IBM's formula, at least four", "[le]") {
  // (Initial Heap Size * (Extent Percent/100)) / (Element Size), element = cell + 8.
  CHECK(lepools_cells_per_extent(32768, 10, 16) == 204);
  CHECK(lepools_cells_per_extent(32768, 10, 40) == 81);
  CHECK(lepools_cells_per_extent(32768, 10, 2056) == 4);  // 3276 / 2056 = 1: the minimum
  CHECK(lepools_cells_per_extent(100 << 20, 90, 65544) == 1439);
  PoolsHeapModel m(heap32k(), ibm_pools());
  CHECK(m.pools().pools[0].cells_per_extent == 204);
  CHECK(m.pools().pools[5].element_size == 2056);
}

TEST_CASE("LE pools: the smallest pool that fits serves a request; a pool gets extents from the heap", "[le]") {
  PoolsHeapModel m(heap32k(), ibm_pools());
  const uint64_t heap_gets = m.heap().counters().gets;
  REQUIRE(m.get(1));
  REQUIRE(m.get(8));
  REQUIRE(m.get(9));     // 32
  REQUIRE(m.get(2048));  // 2048
  const auto& p = m.pools().pools;
  CHECK(p[0].gets == 2);
  CHECK(p[1].gets == 1);
  CHECK(p[5].gets == 1);
  CHECK(p[2].gets + p[3].gets + p[4].gets == 0);
  // One extent for each pool used, each one heap element: cells x element size.
  CHECK(p[0].extents == 1);
  CHECK(m.heap().counters().gets == heap_gets + 3);
  CHECK(m.pools().big_requests == 0);
  // Four cells of 2048 an extent: the fifth cell needs a second extent.
  for (int i = 0; i < 4; ++i) REQUIRE(m.get(2000));
  CHECK(p[5].extents == 2);
  CHECK(p[5].in_use == 5);
  CHECK(p[5].max_used == 5);
  // Cells of one extent lie one element apart in it, after the heap element's prefix.
  PoolsHeapModel n(heap32k(), ibm_pools());
  const Place a = *n.get(100), b = *n.get(100);
  CHECK(a.segment == b.segment);
  CHECK(b.offset - a.offset == 136);
  CHECK(n.heap().counters().in_use == leheap_element_length(24 * 136));
}

TEST_CASE("LE pools: a request greater than the largest cell size goes to the heap and is counted", "[le]") {
  PoolsHeapModel m(heap32k(), ibm_pools());
  const uint64_t heap_gets = m.heap().counters().gets;
  REQUIRE(m.get(2049));
  REQUIRE(m.get(32768));
  CHECK(m.pools().big_requests == 2);
  CHECK(m.heap().counters().gets == heap_gets + 2);
  for (const auto& q : m.pools().pools) CHECK(q.gets == 0);
  // 0 bytes: not a request of any size (the heap refuses it), not counted as large.
  CHECK_FALSE(m.get(0));
  CHECK(m.pools().big_requests == 2);
  // HEAPPOOLS(OFF): nothing counted, every request the heap's.
  PoolsHeapModel off(heap32k(), le::PoolsOptions{});
  REQUIRE(off.get(8));
  CHECK(off.pools().big_requests == 0);
  CHECK(off.heap().counters().gets == 1);
}

TEST_CASE("LE pools: a freed cell goes back to its pool, last freed first; a second free is refused", "[le]") {
  PoolsHeapModel m(heap32k(), ibm_pools());
  const Place a = *m.get(20), b = *m.get(30);
  const uint64_t heap_in_use = m.heap().counters().in_use;
  m.free(a);
  m.free(b);
  const auto& p = m.pools().pools[1];
  CHECK(p.in_use == 0);
  CHECK(p.max_used == 2);
  CHECK(p.frees == 2);
  CHECK(m.heap().counters().in_use == heap_in_use);  // extents are never given back
  CHECK(*m.get(32) == b);
  CHECK(*m.get(17) == a);
  CHECK(p.extents == 1);
  m.free(a);
  m.free(a);
  CHECK(m.pools().errors == 1);
  CHECK(p.frees == 3);
}

TEST_CASE("LE pools: E4's sequence with the pools leaves every cell free and the same heap segments each time", "[le]") {
  const auto r1 = le::run_e4('B', 3000, heap32k(), ibm_pools());
  const auto r2 = le::run_e4('B', 3000, heap32k(), ibm_pools());
  CHECK(r1.placement == r2.placement);
  uint64_t gets = 0;
  for (const auto& q : r1.pools.pools) {
    CHECK(q.in_use == 0);
    gets += q.gets;
  }
  // Sizes are uniform in 1..32768: 2048 / 32768 of 4,200 gets are the pools'.
  CHECK(gets + r1.pools.big_requests == 3000 + 1200);
  CHECK(gets > 150);
  CHECK(gets < 400);
}

namespace {

PoolsReport report(std::vector<uint32_t> cells, std::vector<uint32_t> ranges) {
  PoolsReport r;
  r.on = true;
  r.heap_init = 32768;
  for (uint32_t c : cells) {
    le::PoolReport p;
    p.cell_size = c, p.percent = 10, p.element_size = c + 8, p.cells_per_extent = lepools_cells_per_extent(32768, 10, c + 8);
    r.pools.push_back(p);
  }
  ranges.resize(cells.back() / 8);
  r.ranges = ranges;
  return r;
}

}  // namespace

TEST_CASE("LE pools: suggested percentages are IBM's formula, 1 to 90", "[le]") {
  PoolsReport r = report({8, 32, 1024}, {});
  r.pools[0].max_used = 0;    // never used: the minimum
  r.pools[1].max_used = 100;  // 100 x 40 x 100 / 32768 = 12.2: 13 (rounded up, ours)
  r.pools[2].max_used = 49;   // 49 x 1032 x 100 / 32768 = 154: the maximum
  CHECK(le::suggested_percentages(r) == std::vector<uint32_t>{1, 13, 90});
  CHECK(le::suggested_percentages_option(r) == "HEAPP(ON,8,1,32,13,1024,90,0)");
}

TEST_CASE("LE pools: suggested cell sizes take the fewest cell bytes for the requests seen", "[le]") {
  // Two sizes requested: each its own cell, and the largest cell in effect after them
  // (IBM: "the largest cell size currently in effect will be used for the last").
  std::vector<uint32_t> ranges(256, 0);
  ranges[2] = 5;   // 17..24
  ranges[12] = 7;  // 97..104
  CHECK(le::suggested_cell_sizes(report({8, 32, 128, 256, 1024, 2048}, ranges)) == std::vector<uint32_t>{24, 104, 2048});
  CHECK(le::suggested_cell_sizes_option(report({8, 32, 128, 256, 1024, 2048}, ranges)) ==
        "HEAPP(ON,24,,104,,2048,,0)");
  // Nothing requested: the largest cell in effect only; no pools (HEAPPOOLS(ON,0)): none.
  CHECK(le::suggested_cell_sizes_option(report({8, 32}, {})) == "HEAPP(ON,32,,0)");
  PoolsReport none;
  none.on = true;
  CHECK(le::suggested_cell_sizes(none).empty());
  CHECK(le::suggested_cell_sizes_option(none) == "HEAPP(ON,0)");
  // Thirteen sizes, 8 to 104, the 8-byte one asked once: it is the one to share a cell
  // (with 16: 8 more bytes once), the others keep their own.
  std::vector<uint32_t> thirteen(13, 100);
  thirteen[0] = 1;
  std::vector<uint32_t> want;
  for (uint32_t s = 16; s <= 104; s += 8) want.push_back(s);
  CHECK(le::suggested_cell_sizes(report({104}, thirteen)) == want);
  CHECK(le::suggested_cell_sizes_option(report({104}, thirteen)) ==
        "HEAPP(ON,16,,24,,32,,40,,48,,56,,64,,72,,80,,88,,96,,104)");
  // Uniform sizes 1..2048: twelve sizes, ascending multiples of 8, ending at 2048, no
  // worse than twelve evenly spaced ones.
  const PoolsReport u = report({2048}, std::vector<uint32_t>(256, 1));
  const std::vector<uint32_t> s = le::suggested_cell_sizes(u);
  REQUIRE(s.size() == 12);
  CHECK(s.back() == 2048);
  auto cost = [](const std::vector<uint32_t>& cells) {
    uint64_t c = 0;
    for (uint32_t g = 1; g <= 256; ++g)
      for (uint32_t cell : cells)
        if (cell >= g * 8) {
          c += cell;
          break;
        }
    return c;
  };
  std::vector<uint32_t> even;
  for (uint32_t k = 1; k <= 12; ++k) even.push_back((2048 * k / 12 + 7) / 8 * 8);
  CHECK(cost(s) <= cost(even));
  for (size_t i = 1; i < s.size(); ++i) CHECK((s[i] > s[i - 1] && s[i] % 8 == 0));
}

TEST_CASE("LE pools: the report's HEAPPOOLS sections in LE's words and order", "[le]") {
  std::vector<uint32_t> ranges(4, 0);
  ranges[0] = 3;  // 1..8
  ranges[3] = 2;  // 25..32
  PoolsReport r = report({8, 32}, ranges);
  r.pools[0].gets = 3, r.pools[0].extents = 1, r.pools[0].max_used = 3;
  r.pools[1].gets = 2, r.pools[1].extents = 1, r.pools[1].max_used = 2, r.pools[1].in_use = 1;
  r.big_requests = 7;
  std::ostringstream out;
  le::write_pools_report(out, r);
  CHECK(out.str() ==
        "HEAPPOOLS Statistics:\n"
        "  Pool  1 size:     8   Get requests:            3\n"
        "    Successful Get Heap requests:     1-    8                3\n"
        "  Pool  2 size:    32   Get requests:            2\n"
        "    Successful Get Heap requests:    25-   32                2\n"
        "  Requests greater than the largest cell size:                7\n"
        "HEAPPOOLS Summary:\n"
        "    Specified  Element   Extent   Cells Per  Extents    Maximum      Cells In\n"
        "    Cell Size  Size      Percent  Extent     Allocated  Cells Used   Use\n"
        "    --------------------------------------------------------------------------\n"
        "            8     16        10         204          1            3          0\n"
        "           32     40        10          81          1            2          1\n"
        "    --------------------------------------------------------------------------\n"
        "    Suggested Percentages for current Cell Sizes:\n"
        "      HEAPP(ON,8,1,32,1,0)\n"
        "    Suggested Cell Sizes:\n"
        "      HEAPP(ON,8,,32,,0)\n");
  std::ostringstream off;
  le::write_pools_report(off, PoolsReport{});
  CHECK(off.str().empty());
}
