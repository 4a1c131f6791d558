// The ECB heap's settings: system.ecb_heap.*, declared here (beside the code they
// configure) and called from os/run_config.cpp. The control program writes them into
// the guest image (heap/guest/eheap_core.c's read-only variables) before any ECB runs.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/config_section.h"

namespace heap {

constexpr int kAvls = 5;

struct AvlConfig {
  std::array<uint32_t, kAvls> sizes{};   // AVL1..AVL5 buffer sizes, bytes, increasing
  std::array<uint32_t, kAvls> counts{};  // buffers of each preallocated at a process's first request
};

struct EcbHeapConfig {
  std::string algorithm;          // baseline, pj47265
  uint32_t control_entries = 0;   // entries of the initial control table and of each part it grows by
  uint32_t changes = 0;           // EHEAP_CHANGE_* bits: which of PJ47265's changes the guest code has
  uint32_t trace_entries = 0;     // trace table entries (per process or per thread)
  uint32_t thread_avl_max = 0;    // pj47265: buffers a thread keeps on each of its own AVLs
  uint32_t hash_buckets = 0;      // pj47265: the tag hash table's first size
  AvlConfig app, ssl;             // application ECBs; shared SSL and Java ECBs
  std::vector<std::string> ssl_programs;  // programs whose ECBs (and threads) are of the SSL class
  bool large_frames = true;       // the heap areas' 1 MB at a time in a 1 MB frame (else 256 4 KB frames)
  bool fixed = false;             // the heap's frames page-fixed as they are allocated (never paged or demoted)
};

// system.ecb_heap.*, each key bound to its field of EcbHeapConfig.
const cfg::Section<EcbHeapConfig>& ecb_heap_section();
int algorithm_number(const std::string& name);
// What the reports call the heap code: the algorithm, or the changes picked for it.
std::string variant_label(const EcbHeapConfig& h);  // EHEAP_BASELINE, EHEAP_PJ47265; -1 if unknown

}  // namespace heap
