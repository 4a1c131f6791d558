// The simple lock's and syslog's settings: system.simple_lock.* and system.syslog.*,
// declared here (beside the code they configure) and called from os/run_config.cpp.
#pragma once
#include <cstdint>
#include <string>

#include "config/config.h"
#include "config/config_section.h"

namespace lock {

struct SimpleLockConfig {
  std::string algorithm;       // system.simple_lock.algorithm: csg-loop, pj46800, queued
  uint64_t spin_limit = 0;     // system.simple_lock.spin_limit: read-only spins before giving up control
  double drain_interval_us = 0;  // system.syslog.drain_interval: the control program drains the ring this often
};

// Adds system.simple_lock.* and system.syslog.* (call among the other system.* keys),
// and the check that system.shared_size holds the syslog ring and the lock nodes.
const cfg::Section<SimpleLockConfig>& simple_lock_section();

// Bytes of the shared area the syslog ring and the queue-lock nodes need.
uint64_t shared_area_needed();

}  // namespace lock
