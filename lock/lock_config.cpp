#include "lock/lock_config.h"

#include <fmt/format.h>

#include "os/guest/include/simplelock.h"
#include "os/guest/include/tpf_syslog.h"

namespace lock {

namespace {
const std::string kSeed4 = "seed 004 (Simple Lock Performance Improvements, APAR PJ46800, TPF Users Group 2023)";
}

uint64_t shared_area_needed() { return std::max<uint64_t>(TPF_SYSLOG_END, SLOCK_QNODE_END); }

namespace {
cfg::Section<SimpleLockConfig> make_simple_lock_section() {
  cfg::Section<SimpleLockConfig> s;
  using T = cfg::ValueType;
  s.key({.path = "system.simple_lock.algorithm",
         .type = T::Enum,
         .default_value = "csg-loop",
         .choices = {"csg-loop", "pj46800", "queued"},
         .unit = "algorithm",
         .description = "The simple lock guest code runs (simple_lock()/simple_unlock(), lock/guest): csg-loop "
                        "retries CSG until it wins (before APAR PJ46800); pj46800 spins on loads, issues CSG only "
                        "when the lock reads free and after system.simple_lock.spin_limit spins gives up control "
                        "until a release wakes it; queued is an MCS queue lock (FIFO hand-off, each waiter spins "
                        "on its own line, gives up control likewise, the waiter next in line keeps spinning). No "
                        "application change: the control program sets it in the image.",
         .source = "csg-loop: the behaviour without the APAR, the baseline of " + kSeed4 + "."},
         &SimpleLockConfig::algorithm);
  s.key({.path = "system.simple_lock.spin_limit",
         .type = T::Integer,
         .default_value = std::to_string(SLOCK_SPIN_LIMIT_DEFAULT),
         .min = "1",
         .max = "1000000000",
         .unit = "spins",
         .description = "pj46800 and queued: read-only spins (a load, a compare and branch, a count) a waiter "
                        "makes before it gives up control, waiting on the lock word until a release wakes it. "
                        "csg-loop never gives up.",
         .source = "IBM publishes no value; the competitive rule of spin-then-block (Karlin, Li, Manasse and "
                   "Owicki, SOSP 1991): spin about as long as giving up costs. Giving up here costs about "
                   "1,500 cycles (the wait and wake services, 2 x 550; a dispatch, 300; two LAAG on the lock's "
                   "line) and a spin 4 cycles (measured in the ETIM report of configs/syslog-pj46800.yaml: load, "
                   "compare-and-branch, add, branch on count, the load from L1), so about 375 spins; 300 keeps "
                   "the spin a little under the cost."}, &SimpleLockConfig::spin_limit);
  s.key_with({.path = "system.syslog.drain_interval",
         .type = T::Duration,
         .default_value = "50us",
         .min = "1us",
         .max = "1s",
         .unit = "simulated time",
         .description = "How often the control program copies the committed syslog() records from the ring buffer "
                        "in the shared area to the run's syslog.log (and once more at the end). A writer that finds "
                        "the ring full gives up control until the next drain.",
         .source = fmt::format("estimate: writers are serialized by the lock, at best one line per hold time "
                               "(about 300 cycles: 17 lines a microsecond at 5.2 GHz, some 870 in 50 us), under the "
                               "{} records of the ring, so it fills only if holds get much shorter; full-ring waits "
                               "are counted in locks.txt.",
                               TPF_SYSLOG_RECORDS)}, [](SimpleLockConfig& l, const cfg::ConfigValue& v) {
           l.drain_interval_us = cfg::field_value<double>(v, cfg::ValueType::Duration) * 1e3;  // ms to us
         });
  s.describe("system.simple_lock", "Simple locks (lock/): the algorithm simple_lock() runs and its spin limit.");
  s.describe("system.syslog", "syslog(): the shared ring buffer the control program drains into syslog.log.");
  s.check("system.shared_size holds the syslog ring and the lock nodes", [](const cfg::Config& c) {
    if (c.get_uint("system.shared_size") < shared_area_needed())
      throw c.error({"system.shared_size"},
                    fmt::format("{} is too small: the syslog ring and the simple lock's queue nodes need {} bytes "
                                "({}K) of the shared area",
                                c.text("system.shared_size"), shared_area_needed(), shared_area_needed() / 1024));
  });
  return s;
}

}  // namespace

const cfg::Section<SimpleLockConfig>& simple_lock_section() {
  static const cfg::Section<SimpleLockConfig> section = make_simple_lock_section();
  return section;
}

}  // namespace lock
