// Program fetch's settings, system.fetch.* (issue 26): the load library programs are
// fetched from (an image built by tpfemu-libbuild, or one built at the run's start from
// a member list or as a synthetic SYS1.LINKLIB), the library lookaside, the device's
// timing. (Its CPU is guest code, fetch/guest/qcsv.c: no keys.) Declared here once each (fetch_config.cpp); the
// fetch subsystem declares and reads them.
//
//   system:
//     fetch:
//       synthetic: 300          # or members: my-members.txt, or library: linklib.img
//       organization: PDS
//       block_size: 6144
//       lla: NONE
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/config_section.h"
#include "fetch/library_builder.h"

namespace fetch {

enum class Lla { None, Directory, Modules };
const char* lla_name(Lla l);

struct FetchConfig {
  std::string library;           // an image file (tpfemu-libbuild); "" if built at the start
  std::string members;           // a member list to build the library from; "" if none
  uint32_t synthetic = 0;        // else a synthetic SYS1.LINKLIB of this many members (0: no library)
  LibraryOptions build;          // organization, block size, FETCHOPT, PDSE initial share, directory blocks
  std::vector<std::string> programs;   // programs of the image fetched at their first ENTER (members of the library)
  Lla lla = Lla::None;
  bool dasd_cache = true;        // the control unit's cache answers (flashsim/ckd.h, cached timing)
  uint64_t record_overhead_ns = 0;
  // No CPU keys: fetch's CPU is the contents supervisor's guest code, as executed (issue 47).

  bool enabled() const { return !library.empty() || !members.empty() || synthetic > 0 || !programs.empty(); }
};

cfg::Section<FetchConfig> make_fetch_section();
const cfg::Section<FetchConfig>& fetch_section();

}  // namespace fetch
