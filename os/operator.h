// Operator commands, z/TPF style, scheduled at a simulated time in the run's YAML:
//
//   operator:
//     - at: 2ms
//       command: ZTRAP EI START PROG=slockc
//     - at: 10ms
//       command: ZTRAP EI STOP
//
// The same commands can be typed on the operator console (os/console.h) while a run
// goes on; ControlProgram::operator_command answers them.
//
// Commands known so far (keywords in any case; the PROG= value as the symbol is spelt):
//   ZTRAP EI START [PROG=name]   start the software profiler (os/ztrap.h); PROG= keeps
//                                only instructions whose program (ELF symbol) starts with name
//   ZTRAP EI STOP                stop it; the report covers START..STOP (or ..the end)
// A command that does not parse, a START while the collection is on or a STOP while it
// is off is a configuration error at load time, naming the entry and its line.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"
#include "config/config_section.h"

namespace os {

// The commands a subsystem owns besides ZTRAP (D M=SCM, CF SCM, ...): how to tell
// them and check their operands, at load time (an operator: entry) and when typed.
struct OperatorGrammar {
  std::string owner;   // routes the command to the handler registered under this name
  std::string syntax;  // for the "known:" list of an unknown command
  std::function<bool(std::string_view text)> mine;    // one of the owner's commands?
  std::function<void(std::string_view text)> check;   // throws cfg::ConfigError (no place) if not right
};
using OperatorGrammars = std::vector<OperatorGrammar>;

struct OperatorCommand {
  enum class Verb { ZtrapEiStart, ZtrapEiStop, Other };
  Verb verb = Verb::ZtrapEiStop;
  std::string prog;   // ZTRAP EI START: PROG= prefix ("" : every program)
  std::string text;   // as written
  std::string owner;  // "ZTRAP", or the grammar's owner for Verb::Other
};

// Throws cfg::ConfigError with a message (no place) if `text` is not a known command:
// ZTRAP's, or one of `others`.
OperatorCommand parse_operator_command(std::string_view text, const OperatorGrammars& others = {});

struct OperatorEntry {
  uint64_t at_ns = 0;    // simulated time from the start of the run
  OperatorCommand command;
  std::string where;     // "x.yaml:7: operator entry 2", or "system.ztrap.ei" for whole-run
};

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
// Adds the `operator:` list and the check of its START/STOP order; `others` are the
// subsystems' commands.
void declare_operator_schema(cfg::Schema& schema, const OperatorGrammars& others = {});
// The commands in time order (ties in the order written); system.ztrap.ei: whole-run
// is a ZTRAP EI START at 0.
std::vector<OperatorEntry> operator_entries(const cfg::Config& config, const OperatorGrammars& others = {});

}  // namespace os
