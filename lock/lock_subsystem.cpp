#include "lock/lock_subsystem.h"

#include <algorithm>

#include <fmt/format.h>
#include <ostream>

#include "emu/cpu.h"
#include "os/guest/include/tpf_evm.h"
#include "os/run_config.h"
#include "os/summary.h"

namespace lock {

void LockSubsystem::install(os::System& system) {
  system_ = &system;
  // No application change: the algorithm and spin limit go into the image (read-only
  // variables of lock/guest/simplelock.c) before any ECB runs. An image without them
  // (no syslog, no simple locks) just has nothing to configure.
  system.set_image_value("slock_algorithm", uint64_t(std::max(0, algorithm_number(config_.algorithm))), 4);
  system.set_image_value("slock_spin_limit", config_.spin_limit, 8);
  syslog_ = std::make_unique<SyslogDrain>(system.system_space(), TPF_EVM_SHARED,
                                          system.machine().cpu(0).tod_clock());  // the clocks are at 0 here
  const double ghz = system.machine().config().clock_ghz;
  system.every(uint64_t(config_.drain_interval_us * ghz * 1e3), [this](uint64_t) { syslog_->drain(); });
  system.add_report({.name = "syslog.log", .stream = [this](std::ostream* out) {
                       if (out) syslog_->set_sink([out](const std::string& lines) { *out << lines; });
                     }});
  // A run that initialized or took no simple lock and logged nothing gets no locks.txt/json (like
  // devices.txt): a report of zeros would only have to be read to learn that.
  auto used = [this] { return was_used(); };
  system.add_report({.name = "locks.txt",
                     .write = [this](std::ostream& out) { write_locks_text(out, lock_stats(), syslog_stats()); },
                     .wanted = used});
  system.add_report({.name = "locks.json",
                     .write = [this](std::ostream& out) { write_locks_json(out, lock_stats(), syslog_stats()); },
                     .wanted = used});
  system.add_summary_headline({.key = "syslog_lines_per_second",
                               .label = "syslog lines per simulated second",
                               .note = "time-stamped in the measurement window, over its length; locks.txt",
                               .reason = "the run's ECBs logged with syslog(): E2's figure",
                               .digits = 0,
                               .applies = [this] { return syslog_stats().committed > 0; },
                               .value = [this] { return syslog_stats().records_per_second(); }});
}

bool LockSubsystem::was_used() {
  if (syslog_stats().committed > 0) return true;
  return !lock_stats().empty();
}

// Every lock the guest initialized or took, syslog's among them: named by
// simple_lock_init, syslog's by its place, any other by its symbol or its address.
std::vector<LockStats> LockSubsystem::lock_stats() {
  std::vector<LockStats> locks = read_lock_stats(system_->system_space(), system_->machine().config().clock_ghz);
  for (LockStats& l : locks) {
    l.algorithm = config_.algorithm;
    if (!l.name.empty()) continue;
    if (l.address == syslog_->lock_address()) l.name = "syslog";
    else if (l.address >= TPF_EVM_IMAGE && l.address < TPF_EVM_IMAGE_END && !system_->symbolize(l.address).empty())
      l.name = system_->symbolize(l.address);  // a lock in the image's static storage: its variable
    else l.name = fmt::format("{:#x}", l.address);
  }
  return locks;
}

// The throughput counts what was logged inside the measurement window: the records
// whose time stamp falls in it (not the warm-up's, nor those of ECBs still running after
// the last measured message), over the window's length.
SyslogStats LockSubsystem::syslog_stats() {
  SyslogStats s = syslog_->stats();
  const os::MeasurementWindow w = system_->measurement_window();
  const double ghz = system_->machine().config().clock_ghz;
  const uint64_t from = emu::Cpu::tod_at(ghz, w.start), to = emu::Cpu::tod_at(ghz, w.end);
  s.window_start_tod = from - syslog_->tod_base();
  s.window_end_tod = to - syslog_->tod_base();
  s.in_window = w.end > w.start ? syslog_->drained_between(from, to) : 0;
  s.simulated_seconds = system_->summary().simulated_seconds;
  return s;
}

}  // namespace lock
