// Host side of the ECB heap: when a process ends, its heap header (heap/guest/eheap.h,
// at the start of its 31-bit heap area) is read and added to the run's totals; after
// the run, the totals become the reports of seed 000: the ECB HEAP REQUEST SIZE
// REPORT in its old layout (128-byte classes) and its PJ47265 layout (32, 64, 128,
// 256, 512, 768, 1024), the usage counters of the document's to-be list, and the
// 31-bit virtual ECB heap storage usage report in 4 KB increments. Text and JSON.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "emu/address_space.h"

namespace heap {

constexpr int kHist = 33;  // EHEAP_HIST

struct HeapTotals {
  std::string algorithm;
  uint64_t processes = 0;             // processes whose heap was read (ECBs with their threads)
  uint64_t ecbs_with_heap = 0;        // ... that obtained at least one heap buffer
  uint64_t ecbs_hash_expanded = 0;    // ... whose tag hash table grew
  uint64_t ecbs_frames31 = 0, ecbs_frames64 = 0;  // ... that obtained a 1 MB frame beyond the preallocated one
  uint64_t frames31 = 0, frames64 = 0;            // 1 MB frames obtained beyond the preallocated ones
  // 1 MB of heap area mapped with 256 4 KB frames although system.ecb_heap.large_frames
  // asked for a 1 MB frame: none was left (counted by the host as it maps them).
  uint64_t large_frame_fallbacks = 0;
  uint64_t hash_expansions = 0;
  uint64_t ecbs_table_grew = 0;       // processes whose control table needed more than its initial part
  uint64_t table_parts = 0;           // control table parts obtained beyond the initial ones
  uint64_t entries_hwm = 0;           // the most control entries one process bound to buffers
  std::array<uint64_t, kHist> requests{};         // request sizes in 32-byte classes; [32]: over 1024
  std::array<uint64_t, 5> dispensed{}, freed{};   // AVL1..AVL5
  uint64_t large_dispensed = 0, large_freed = 0;
  uint64_t mallocs = 0, frees = 0, reallocs = 0, callocs = 0, malloc64s = 0;
  uint64_t tags = 0, locates = 0, locate_steps = 0;
  uint64_t hwm31 = 0, hwm64 = 0;                  // the largest area used by one process, bytes
  std::map<uint64_t, uint64_t> usage31;           // 4 KB increments used (rounded up) -> processes
  uint64_t live_buffers = 0;                      // dispensed and not freed when their process ended
  std::map<std::string, uint64_t> errors;         // heap errors by check (counted by the control program)
};

// Adds the heap of a process that is ending (false if it never used the heap).
bool harvest(emu::AddressSpace& space, HeapTotals& totals);

// Whether any ECB called the heap (or had a buffer dispensed, or hit a heap error).
bool was_used(const HeapTotals& t);

void write_heap_text(std::ostream& out, const HeapTotals& t);
void write_heap_json(std::ostream& out, const HeapTotals& t);

// The name of an EHEAP_ERR_* check, for dumps and reports.
const char* error_name(int check);

}  // namespace heap
