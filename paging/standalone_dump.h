// A stand-alone dump's record (SADMP, z/OS MVS Diagnosis: Tools and Service Aids,
// "Stand-alone dump"): the operator stops the system and IPLs the dump program, which
// writes the real storage in use and then every address space's paged-out pages, read
// back from auxiliary storage in batches, to the dump volumes. Paging runs it
// (paging/standalone_dump.cpp); times in simulated cycles.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace paging {

struct SadmpRecord {
  std::string title;
  uint64_t start = 0;                 // the operator's SADMP: the system stops
  uint64_t real_end = 0;              // real storage written
  uint64_t end = 0;                   // every page written (0: not complete when the run ended)
  uint64_t io_wait = 0;               // paging I/O wait: batches' reads, start to last completion
  // Real storage (REAL=USED): every frame in use at the stop.
  uint64_t process_pages = 0;         // the processes' resident 4 KB pages
  uint64_t large_pages = 0;           // their 1 MB pages (each 256 4 KB pages in the dump)
  uint64_t writing_pages = 0;         // pages being paged out: still in their frames
  uint64_t system_pages = 0;          // the rest: the image, the system's and fixed frames
  // Auxiliary storage: pages out (4 KB pages; a 1 MB page counts 256).
  uint64_t aux_pages[2] = {0, 0};     // read from SCM and from DASD
  uint64_t read_ios[2] = {0, 0};      // their requests (AOBs, channel programs)
  uint64_t aux_large = 0;             // of the SCM pages, 1 MB pages read whole
  uint64_t zero_pages = 0;            // never stored into: no frame, no slot, nothing to dump
  uint64_t batches = 0;
  uint64_t write_ios = 0;             // channel programs to the dump volumes
  uint64_t written_pages = 0;
  uint64_t real_pages() const { return process_pages + large_pages * 256 + writing_pages + system_pages; }
  uint64_t aux_total() const { return aux_pages[0] + aux_pages[1]; }
};

// The operator's SADMP [TITLE=(text)]; throws cfg::ConfigError.
struct SadmpCommand {
  std::string title;
};
SadmpCommand parse_sadmp_command(std::string_view text);

}  // namespace paging
