// RPTSTG's HEAPPOOLS statistics (issue 25, item 4): what the guest pools
// (le/guest/lepools.c) counted, read at the enclave's end, LE's "HEAPPOOLS Statistics"
// and "HEAPPOOLS Summary" sections written from it, and the options the report
// suggests ("Suggested Percentages for current Cell Sizes", "Suggested Cell Sizes").
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "le/guest/lepools.h"
#include "report/report_json.h"

namespace le {

struct PoolReport {
  uint32_t cell_size = 0, percent = 0, element_size = 0, cells_per_extent = 0;
  uint64_t gets = 0, frees = 0, extents = 0, max_used = 0, in_use = 0;
};

// An enclave's pools: empty unless HEAPPOOLS(ON).
struct PoolsReport {
  bool on = false;
  uint32_t heap_init = 0;            // HEAP's init_size: the extents' base
  std::vector<PoolReport> pools;
  uint64_t big_requests = 0, errors = 0, extent_failures = 0;
  std::vector<uint32_t> ranges;      // requests the pools served, by 8-byte range, up to the largest cell
};

// The pools' control block as the guest left it (big-endian bytes of struct
// lepools_cb, `bytes` of them: the whole block, or up to `ranges` when it is off).
PoolsReport read_pools(const uint8_t* cb, size_t bytes);

// IBM's formula, (Maximum Cells Used * Element Size * 100) / Initial Heap Size, "with a
// minimum of 1% and a maximum of 90%"; rounded up (ours: IBM does not say, and up is
// what makes the maximum fit in one extent).
std::vector<uint32_t> suggested_percentages(const PoolsReport& p);
// Cell sizes "calculated to optimally use storage (assuming that the application will
// malloc/free with the same frequency)": IBM does not give the calculation. Ours: the
// sizes (at most twelve, each a multiple of 8) that minimize the bytes of the cells the
// same requests would take, from the requests' 8-byte ranges (an exact dynamic program
// over the sizes requested). IBM's one documented rule: "If there are less than 12
// cell sizes calculated and the last calculated cell size is smaller than the largest
// cell size currently in effect, the largest cell size currently in effect will be used
// for the last suggested cell size" (ours: added as a size of its own).
std::vector<uint32_t> suggested_cell_sizes(const PoolsReport& p);
// "HEAPP(ON,8,1,32,1,...,0)" and "HEAPP(ON,16,,48,,...,0)": a 0 ends a list of fewer
// than twelve pools, as the option's syntax does.
std::string suggested_percentages_option(const PoolsReport& p);
std::string suggested_cell_sizes_option(const PoolsReport& p);

// The sections, after the heap's (write_storage_report, write_storage_json call them).
void write_pools_report(std::ostream& out, const PoolsReport& p);
report_json::Json pools_json(const PoolsReport& p);  // null when off

}  // namespace le
