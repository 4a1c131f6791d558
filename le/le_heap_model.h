// The LE heap's policy on host data structures (issue 25, item 1; experiment E4): the
// same chain of segments, fit policy, splitting, coalescing and KEEP/FREE as the guest
// heap (le/guest/leheap.c), written independently of it (per segment a std::map of the
// free elements by offset, no tree), so that running both on one request sequence and
// comparing every counter checks the guest code against the policy; and what the
// policy gives at full size in a fraction of a second.
//
// Shared with the guest: only the facts of le/guest/leheap.h (constants, the sizing
// rules, the option values) and the request sequences of le/guest/e4_requests.h.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "le/guest/leheap.h"
#include "le/guest/lepools.h"

namespace le {

struct HeapOptions {
  uint32_t init = 32768, incr = 32768;
  uint32_t disposition = LEHEAP_KEEP;  // LEHEAP_KEEP, LEHEAP_FREE
  uint32_t fit = LEHEAP_FIRST_FIT;     // LEHEAP_FIRST_FIT, LEHEAP_BEST_FIT
};

// The counters of struct leheap_cb, with the same meanings.
struct HeapCounters {
  uint32_t init_size = 0, incr_size = 0;  // as the heap uses them (leheap_segment_option)
  uint64_t gets = 0, frees = 0, segs_alloc = 0, segs_freed = 0;
  uint64_t total_used = 0, in_use = 0, errors = 0, get_failures = 0;
};

// An element as the model names it: its segment by number (1 for the initial
// segment, then in the order got) and the offset of the caller's bytes in it.
struct Place {
  uint32_t segment = 0, offset = 0;
  bool operator==(const Place&) const = default;
};

class HeapModel {
 public:
  explicit HeapModel(const HeapOptions& o);
  std::optional<Place> get(uint32_t n);
  int free(Place p);  // LEHEAP_OK or an LEHEAP_ERR_*, as le_heap_free
  const HeapCounters& counters() const { return c_; }
  // Segment numbers in chain order, and a segment's free elements (offset -> length).
  std::vector<uint32_t> chain() const;
  std::map<uint32_t, uint32_t> free_elements(uint32_t segment) const;

 private:
  struct Segment {
    uint32_t number, length;
    size_t pos;                                  // its index in chain_
    std::map<uint32_t, uint32_t> free;           // offset -> length
    std::set<std::pair<uint32_t, uint32_t>> by_length;  // (length, offset) of the same
    std::map<uint32_t, uint32_t> used;           // element offset -> length
    uint32_t in_use = 0;
    uint32_t largest() const { return by_length.empty() ? 0 : by_length.rbegin()->first; }
  };
  Segment& add_segment(uint32_t length);
  void add_free(Segment& s, uint32_t off, uint32_t len);
  void remove_free(Segment& s, uint32_t off);
  void note_high_water();

  HeapOptions o_;
  HeapCounters c_;
  std::vector<Segment*> chain_;
  std::vector<uint32_t> largest_;  // chain_[i]'s largest free element: the walk reads only this
  std::unordered_map<uint32_t, std::unique_ptr<Segment>> segments_;
};

// HEAPPOOLS (le/guest/lepools.c's policy): cell pools in front of the heap, their
// extents elements of it. Off: every request is the heap's.
struct PoolsOptions {
  bool on = false;
  std::vector<std::pair<uint32_t, uint32_t>> pools;  // (cell size, percent), cell sizes ascending
};

// The counters of struct lepool and lepools_cb, with the same meanings.
struct PoolCounters {
  uint32_t cell_size = 0, percent = 0, element_size = 0, cells_per_extent = 0;
  uint64_t gets = 0, frees = 0, extents = 0, in_use = 0, max_used = 0;
};
struct PoolsCounters {
  std::vector<PoolCounters> pools;
  uint64_t big_requests = 0, errors = 0, extent_failures = 0;
};

// The user heap with its pools: a get up to the largest cell size is served by the
// smallest pool that fits (a free cell, last freed first; else the newest extent's next
// cell; else a new extent of cells_per_extent cells, got from the heap), a larger one
// by the heap. A cell is named by its extent's place: the extent's segment and the
// offset of the cell's bytes in it.
class PoolsHeapModel {
 public:
  PoolsHeapModel(const HeapOptions& h, const PoolsOptions& p);
  std::optional<Place> get(uint32_t n);
  void free(Place p);
  const HeapModel& heap() const { return heap_; }
  const PoolsCounters& pools() const { return c_; }

 private:
  struct Pool {
    std::vector<Place> free;    // the free chain, its head last
    Place carve;                // the newest extent's next never-used cell
    uint32_t carve_left = 0;
  };
  static uint64_t key(Place p) { return uint64_t(p.segment) << 32 | p.offset; }
  HeapModel heap_;
  bool on_ = false;
  PoolsCounters c_;
  std::vector<Pool> pools_;
  std::unordered_map<uint64_t, std::pair<uint32_t, bool>> cells_;  // cell -> (pool, in use)
};

// A run of E4's sequence ('A' or 'B', n gets) on the model: its counters and the
// placement checksum (e4_placement over every get).
struct E4Result {
  HeapCounters counters;
  PoolsCounters pools;
  uint64_t placement = 0;
};
E4Result run_e4(char sequence, uint32_t n, const HeapOptions& o, const PoolsOptions& p = {});

// The key=value lines that tests/guest/le/leheap_e4.c prints for the same run (the
// pools' lines only when they are on).
std::string e4_report(char sequence, uint32_t n, const HeapOptions& o, const HeapCounters& c,
                      const uint64_t* placement, const PoolsCounters* pools = nullptr);

}  // namespace le
