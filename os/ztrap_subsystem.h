// ZTRAP EI as a subsystem: it takes the ZTRAP operator commands (from the
// configuration's operator: entries and the console) and writes etim.txt and
// etim.json when it ran. Its settings (system.ztrap.*) are the control program's own
// keys (os/operator.h); the profiler is os/ztrap.h.
#pragma once
#include <memory>
#include <sstream>

#include "os/subsystem.h"
#include "os/ztrap.h"

namespace os {

class ZtrapSubsystem : public Subsystem {
 public:
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  void install(System& system) override;
  // The profiler, once a command has started it (nullptr before).
  ZtrapEi* ei() const { return ei_.get(); }
  // etim.txt and etim.json; false (nothing written) if ZTRAP EI never started.
  bool write_etim(std::ostream& text, std::ostream& json);

 private:
  ZtrapEi& profiler();  // made on first use
  std::string command(const OperatorCommand& c, uint64_t now, uint64_t ns, bool console);

  System* system_ = nullptr;
  std::unique_ptr<ZtrapEi> ei_;
  std::ostringstream json_;  // etim.json, made with etim.txt
};

}  // namespace os
