// z/OS's displays of what the control program and the machine hold, typed on the console
// or given as operator: entries, each answered in run.log too:
//   D M=CPU      IEE174I: the I-streams (z/TPF's CPs), online, and the machine's level
//   D A,L        IEE114I: the address spaces (processes) and their ECBs in use
//   D IOS,CONFIG IOS506I: the subchannels and their devices, with the I/O in flight
// Only what the model knows: a column the model has no figure for prints N/A. Part of
// the control program (os/), as a subsystem for its commands' registration.
#pragma once
#include <string>

#include "os/subsystem.h"

namespace os {

class SystemDisplays : public Subsystem {
 public:
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  OperatorGrammars operator_grammars() const override;
  void install(System& system) override;

 private:
  std::string display(const OperatorCommand& c, uint64_t now, uint64_t ns);
  std::vector<std::string> cpus(uint64_t ns);
  std::vector<std::string> address_spaces(uint64_t ns);
  std::vector<std::string> io_config(uint64_t ns);
  System* system_ = nullptr;
  unsigned message_number_ = 0;  // of the displays (IEE174I ... nnn), from 1
};

}  // namespace os
