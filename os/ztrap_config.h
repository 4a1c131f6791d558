// ZTRAP EI's keys (system.ztrap.*) and the operator console's (system.console.*): the
// control program reads them into RunConfig::ztrap; the commands are ZTRAP's own
// (os/ztrap_subsystem.h).
#pragma once
#include <cstdint>

#include "config/config_section.h"

namespace os {

// ZTRAP EI settings (system.ztrap.*).
struct ZtrapConfig {
  bool whole_run = false;   // system.ztrap.ei: whole-run (a START at 0, no STOP)
  bool measurement = false; // system.ztrap.ei: measurement (a START when the summary's window opens)
  uint64_t interval = 0;    // cycles between samples, per I-stream
  uint64_t console_poll_ns = 0;  // system.console.poll_interval: console commands are taken this often
};

// system.ztrap.* and system.console.*, bound to ZtrapConfig (declared after the other
// system.* keys: a section's keys go together).
const cfg::Section<ZtrapConfig>& ztrap_section();

}  // namespace os
