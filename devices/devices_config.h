// The machine's devices: machine.scm.* (Flash Express) and machine.dasd.* (3390 page
// volumes), declared here beside the subsystem that builds them. The device models and
// the sources of their defaults are flashsim's (flashsim/README.md).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "config/config_section.h"
#include "flashsim/dasd.h"
#include "flashsim/scm.h"

namespace devices {

struct DevicesConfig {
  flashsim::ScmConfig scm;                          // used if scm.card_pairs > 0
  std::vector<std::pair<unsigned, unsigned>> failed_cards;  // (pair, card) failed at the start
  unsigned dasd_volumes = 0;                        // page volumes (0: none)
  unsigned dump_volumes = 0;                        // volumes of the SVC dump data sets (0: none)
  bool plpa_volume = false;                         // a volume for the PLPA page data set
  unsigned dasd_lcus = 0;                           // the volumes are spread over this many LCUs
  flashsim::DasdConfig dasd;                        // every volume's settings but its number and LCU
};

const cfg::Section<DevicesConfig>& devices_section();

}  // namespace devices
