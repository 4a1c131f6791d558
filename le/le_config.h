// LE storage's settings, system.le.* (issue 25, item 2): which programs run on LE
// storage instead of the ECB heap, their run-time options (for every LE program, and
// per program on top), and the region their storage may take. Declared here once each
// (le_config.cpp), beside the options they carry; the LE subsystem declares and reads
// them (le_section().declare(schema), le_section().read(config)).
//
//   system:
//     le:
//       programs: QLEH QLES
//       options: HEAP(100M,100M) RPTSTG(ON)
//       program_options: "QLEH=HEAP(32K,32K); QLES=STORAGE(,,00)"
//       region: 1G
//
// The configuration engine has no map-valued keys (a key's value is one scalar), so the
// per-program options are one string of PROGRAM=options entries separated by ';'.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"
#include "config/config_section.h"
#include "le/le_options.h"

namespace le {

struct LeConfig {
  Options options;                      // system.le.options over IBM's defaults
  std::vector<std::string> programs;    // system.le.programs, in the order written
  // Every program of `programs` with its options resolved: IBM's defaults, then
  // system.le.options, then the program's own from system.le.program_options.
  std::map<std::string, Options, std::less<>> program_options;
  uint64_t region = 0;                  // system.le.region, bytes

  bool on_le(std::string_view program) const { return program_options.count(program) != 0; }
  // A program's resolved options; std::logic_error for a program not on LE storage.
  const Options& options_for(std::string_view program) const;
};

// system.le.*, each key bound to its field of LeConfig.
cfg::Section<LeConfig> make_le_section();
const cfg::Section<LeConfig>& le_section();  // make_le_section(), made once
// The LeConfig a loaded (and validated) Config describes: le_section().read(config).
LeConfig le_config_from(const cfg::Config& config);

}  // namespace le
