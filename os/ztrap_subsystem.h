// ZTRAP EI as a subsystem: it owns the ZTRAP operator commands, grammar included
// (from the configuration's operator: entries and the console), and writes etim.txt
// and etim.json when it ran. Its settings (system.ztrap.*) are read by the control
// program too (os/ztrap_config.h); the profiler is os/ztrap.h.
//
//   ZTRAP EI START [PROG=name]   start the software profiler; PROG= keeps only
//                                instructions whose program (ELF symbol) starts with name
//   ZTRAP EI STOP                stop it; the report covers START..STOP (or ..the end)
// Keywords in any case; the PROG= value as the symbol is spelt. START while the
// collection is on, or STOP while it is off, is refused (at load time for operator:
// entries, with system.ztrap.ei: whole-run counting as a START at 0).
#pragma once
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "os/subsystem.h"
#include "os/ztrap.h"

namespace os {

// A ZTRAP command, parsed; throws cfg::ConfigError (no place) if it is not one.
struct ZtrapCommand {
  bool start = false;
  std::string prog;  // START: PROG= prefix ("" : every program)
};
ZtrapCommand parse_ztrap_command(std::string_view text);
// ZTRAP's grammar: its commands, and system.ztrap.ei: whole-run as an implied START.
OperatorGrammar ztrap_grammar();

class ZtrapSubsystem : public Subsystem {
 public:
  void declare(cfg::Schema&) const override {}
  OperatorGrammars operator_grammars() const override { return {ztrap_grammar()}; }
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
