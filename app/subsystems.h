// What a tpfemu run is made of: the control program (os/) and the subsystems that
// plug into it, in the order their keys are declared and they are installed. The one
// place that names them all; os/ names none.
#pragma once
#include <string>
#include <vector>

#include "os/run_config.h"
#include "os/subsystem.h"

namespace app {

// The ECB heap (heap/), simple locks and syslog (lock/), LE storage (le/), the devices
// (devices/), paging (paging/), program fetch (fetch/), ZTRAP EI and ZSTAT (os/).
os::Subsystems subsystems();
// The schema of a run with them all (for listings, examples and tests).
const cfg::Schema& run_schema();
// Defaults, then the files in order, then the overrides; throws cfg::ConfigError.
os::RunConfig load_run_config(const std::vector<std::string>& files, const std::vector<std::string>& sets = {});

}  // namespace app
