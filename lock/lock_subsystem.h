// Simple locks and syslog as a subsystem of the control program: the algorithm and
// spin limit go into the image (lock/guest reads them; no application change), the
// syslog ring in the shared area is drained into syslog.log every
// system.syslog.drain_interval, and the locks' statistics become locks.txt and
// locks.json after the run.
#pragma once
#include <memory>
#include <vector>

#include "lock/lock_config.h"
#include "lock/lock_stats.h"
#include "lock/syslog_drain.h"
#include "os/subsystem.h"

namespace lock {

class LockSubsystem : public os::Subsystem {
 public:
  void declare(cfg::Schema& schema) const override { simple_lock_section().declare(schema); }
  void configure(const cfg::Config& config) override { config_ = simple_lock_section().read(config); }
  void install(os::System& system) override;
  void run_ended() override { syslog_->drain(); }

  // The ring's drain (syslog.log's text, when no file was given).
  SyslogDrain& syslog() { return *syslog_; }
  // After the run: each lock's statistics, read from the shared area, and the ring's.
  std::vector<LockStats> lock_stats();
  SyslogStats syslog_stats();
  // After the run: whether any ECB took a simple lock or logged a line.
  bool was_used();

 private:
  os::System* system_ = nullptr;
  SimpleLockConfig config_;
  std::unique_ptr<SyslogDrain> syslog_;
};

}  // namespace lock
