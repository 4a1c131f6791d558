// An SVC dump's record: what IEAVTSFS (VERBX IEAVTSFS, "SVC dump statistics") shows
// for a dump, in simulated time (cycles). Paging captures it (paging/svc_dump.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace paging {

struct DumpedAddressSpace {
  uint64_t process = 0;                 // the process (its ASID, in z/OS's terms)
  std::string name;                     // its job name: the program of its first ECB
  uint64_t local_start = 0, local_end = 0, tasks_reset = 0;
  uint64_t input_io = 0;                // pages on auxiliary storage, read for the dump
  uint64_t copied = 0;                  // resident pages copied to the dump
  uint64_t reassigned = 0;              // frames read for the dump, given to it (the page stays out)
};

struct SvcDumpRecord {
  unsigned number = 0;
  std::string title, by;                // COMM=, and "operator" or the requesting program
  uint64_t start = 0, end = 0;          // the request, and the dump written (or captured, without dump volumes)
  uint64_t system_nd_start = 0, system_set_nd = 0, system_reset = 0;  // global storage's capture
  uint64_t capture_end = 0;
  uint64_t global_pages = 0;            // the shared area, copied while nothing is dispatched
  uint64_t written_pages = 0;           // pages written to the dump data sets
  std::vector<DumpedAddressSpace> spaces;
};

// The operator's DUMP COMM=(title),JOBNAME=(name,...); throws cfg::ConfigError.
struct DumpCommand {
  std::string title;
  std::vector<std::string> jobs;
};
DumpCommand parse_dump_command(std::string_view text);

}  // namespace paging
