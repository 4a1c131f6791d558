// The paging subsystem's settings: system.paging.*, declared beside the code they
// configure.
#pragma once
#include <cstdint>
#include <string>

#include "config/config.h"
#include "config/config_section.h"

namespace paging {

struct PagingConfig {
  uint64_t real_storage = 0;     // bytes of real storage for the ECBs' pageable 4 KB pages; 0: no paging
  uint64_t afq_low = 0, afq_ok = 0;  // available frames: steal below low, up to ok
  uint64_t scm_limit = 0;        // bytes of SCM paging may use (PAGESCM): ~0 ALL, 0 NONE
  std::string pagescm;           // as written: ALL, NONE, 64G
  uint32_t group = 0;            // pages a page-out I/O writes at most
  uint64_t max_writes = 0;       // page-out requests in flight at most
  bool speculative = false;      // a page-in from SCM brings the rest of its group
  bool self_tuning = false;      // place by measured time a page, not SCM first
  uint64_t check_interval_ns = 0;  // how often the available frames are checked
  uint64_t uic_interval_ns = 0;  // how often pages age when storage is not short
  uint64_t dump_copy_ns = 0;     // an SVC dump's copy of a resident 4 KB page
  uint64_t first_reference_cost = 0;  // cycles a first reference's fault adds to its handling
  uint64_t dump_reads = 0;       // an SVC dump's page-in requests in flight at most
  uint64_t sadmp_batch = 0;      // a stand-alone dump's pages read from auxiliary storage a batch
  bool pageable_programs = false;  // the image's read-only pages are pageable (PLPA-like)
  bool pageable_common = false;  // the shared area's pages are pageable (common storage, z/OS's CSA)
  uint64_t common_slots = 0;     // the COMMON page data set's size, in 4 KB slots
  uint64_t vio_volumes = ~0ull;  // the first this many page volumes accept VIO pages (~0: all)
  std::string vio_volumes_text;  // as written: all, or a count
};

const cfg::Section<PagingConfig>& paging_section();

}  // namespace paging
