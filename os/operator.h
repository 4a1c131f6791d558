// Operator commands, z/TPF and z/OS style, scheduled at a simulated time in the run's
// YAML:
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
// The control program knows no command itself: each subsystem registers the grammar
// of its own (Subsystem::operator_grammars: ZTRAP EI in os/ztrap_subsystem.cpp, D M=SCM
// and CF SCM in devices/, D ASM and DUMP in paging/, ZSTAT in os/zstat.cpp) and, at
// install, their handler (System::add_operator_commands). A command that does not
// parse, or an entry its owner's sequence check refuses (a ZTRAP EI START while the
// collection is on), is a configuration error at load time, naming the entry and its
// line.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"
#include "config/config_section.h"

namespace os {

struct OperatorCommand {
  std::string text;   // as written
  std::string owner;  // the grammar's owner: the handler registered under this name takes it
};

struct OperatorEntry {
  uint64_t at_ns = 0;    // simulated time from the start of the run
  OperatorCommand command;
  std::string where;     // "x.yaml:7: operator entry 2", or the key that implied it
  int list_index = -1;   // its entry of the operator: list (-1: implied by a key)
};

// A subsystem's commands: how to tell them and check their operands, at load time (an
// operator: entry) and when typed.
struct OperatorGrammar {
  std::string owner;   // routes the command to the handler registered under this name
  std::string syntax;  // for the "known:" list of an unknown command
  std::function<bool(std::string_view text)> mine;    // one of the owner's commands?
  std::function<void(std::string_view text)> check;   // throws cfg::ConfigError (no place) if not right
  // Entries a key implies besides the operator: list (system.ztrap.ei: whole-run is a
  // ZTRAP EI START at 0); may be empty.
  std::function<std::vector<OperatorEntry>(const cfg::Config&)> implied = {};
  // Checks the owner's entries, in time order, as a sequence (ZTRAP EI: START and STOP
  // alternate); throws the entry's error (operator_entry_error). May be empty.
  std::function<void(const cfg::Config&, const std::vector<const OperatorEntry*>&)> check_sequence = {};
};
using OperatorGrammars = std::vector<OperatorGrammar>;

// Throws cfg::ConfigError with a message (no place) if `text` is none of `grammars`'
// commands.
// A command without blanks, in capitals: z/OS takes D M=CPU and d m = cpu alike.
std::string squeezed_command(std::string_view text);

OperatorCommand parse_operator_command(std::string_view text, const OperatorGrammars& grammars);
// An error placed at the entry: its operator: list entry's command, or the key that
// implied it (`key`).
cfg::ConfigError operator_entry_error(const cfg::Config& config, const OperatorEntry& entry, const std::string& key,
                                      const std::string& message);

// Adds the `operator:` list and its owners' sequence checks; `grammars` are the
// subsystems' commands.
void declare_operator_schema(cfg::Schema& schema, const OperatorGrammars& grammars);
// The commands in time order (ties: the implied ones first, then in the order written),
// each owner's sequence checked.
std::vector<OperatorEntry> operator_entries(const cfg::Config& config, const OperatorGrammars& grammars);

}  // namespace os
