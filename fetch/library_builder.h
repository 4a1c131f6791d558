// Builds a load library on a modelled 3390 volume from a list of members: a PDS of load
// modules (written as the binder writes them, load_module.h) with its directory, or a
// PDSE of program objects (pdse_format.h). Same members and options, same image bytes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fetch/library_image.h"
#include "fetch/load_module.h"

namespace fetch {

struct LibraryOptions {
  Organization organization = Organization::Pds;
  std::string dsname = "TPFEMU.LOADLIB";
  BinderOptions binder;                 // block size, track filling (PDS)
  uint32_t directory_blocks = 0;        // PDS: at least this many (SPACE's third quantity); 0: what the entries need
  // Where the extent begins. Our choice: cylinder 1 (cylinder 0 holds the volume label and
  // VTOC on a real volume).
  uint32_t first_cylinder = 1, first_head = 0;
  uint32_t spare_tracks = 0;            // allocated beyond the tracks written
  // PDSE: the share of a member's text in INITIAL classes when the member does not say
  // (MemberSpec::initial_bytes). ESTIMATE: IBM publishes no typical split; a
  // configuration value, stated with every library built.
  double pdse_initial_fraction = 0.25;
  bool pack = false, prime = false;     // PDSE: FETCHOPT=(PACK,PRIME) when both; default (NOPACK,NOPRIME)
};

struct LibraryReport {
  Organization organization = Organization::Pds;
  uint32_t block_size = 0;
  uint32_t members = 0, aliases = 0;
  uint32_t tracks_used = 0, tracks_allocated = 0;
  uint64_t records = 0;                  // every record written (directory, members, end-of-file)
  uint64_t text_blocks = 0;              // PDS: text records
  uint64_t short_blocks = 0;             // PDS: text records shortened to fill a track
  uint32_t directory_blocks_used = 0;    // PDS: blocks holding entries (with the end marker); PDSE: pages
  uint32_t directory_blocks = 0;         // PDS: allocated; PDSE: directory pages allocated
  uint64_t pages = 0;                    // PDSE: pages written
  double pdse_initial_fraction = 0;      // PDSE: the estimate used
  std::string text() const;              // one line per figure
  std::string json() const;
};

struct BuiltLibrary {
  LibraryVolume volume;
  LibraryReport report;
};

// Throws std::invalid_argument naming the member or option at fault.
BuiltLibrary build_library(std::vector<MemberSpec> members, const LibraryOptions& o);

// TTR of a PDSE page (12 4 KB pages a track, dasd3390.h).
Ttr pdse_page_ttr(uint32_t page);

}  // namespace fetch
