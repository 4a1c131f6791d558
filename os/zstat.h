// ZSTAT, the operator's system status display, in the manner of z/TPF's ZSTAT: the ECBs
// in use, and for each I-stream the ECB it runs, its ready, deferred and input lists and
// its utilization since the last display (or the run's start). A command of the console
// and of the configuration's operator: entries, answered in run.log too. Part of the
// control program (os/), as a subsystem for its command's registration.
#pragma once
#include <vector>

#include "os/subsystem.h"

namespace os {

class SystemStatusDisplay : public Subsystem {
 public:
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  OperatorGrammars operator_grammars() const override;
  void install(System& system) override;

 private:
  std::string display(uint64_t now, uint64_t ns, const std::string& command);
  System* system_ = nullptr;
  std::vector<uint64_t> last_cycles_, last_busy_;   // per I-stream, at the last display
  uint64_t last_ns_ = 0;
};

}  // namespace os
