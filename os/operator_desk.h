// Operator commands reach the running system here: the configuration's operator:
// entries at their simulated times, and lines typed on the operator console (polled
// every system.console.poll_interval of simulated time). The grammar is os/operator.h;
// what a command does is its subsystem's handler (ZTRAP EI: os/ztrap_subsystem.h).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "emu/machine.h"
#include "os/console.h"
#include "os/subsystem.h"

namespace os {

class OperatorDesk {
 public:
  // `log`: a line of run.log (each console command is logged with the entry that replays it).
  OperatorDesk(emu::Machine& machine, std::function<void(const std::string&)> log)
      : machine_(machine), log_(std::move(log)) {}
  void add(std::string owner, std::string help, OperatorHandler handler);
  // The subsystems' commands besides ZTRAP (to parse what is typed).
  void set_grammars(OperatorGrammars g) { grammars_ = std::move(g); }
  // The configuration's entries, each an event at its time.
  void schedule(const std::vector<OperatorEntry>& entries);
  // One command at simulated time `now` (cycles): the answer for the console (errors
  // too: an operator's typing error never stops the run).
  std::string command(const std::string& text, uint64_t now);
  void set_console(OperatorConsole* console) { console_ = console; }
  OperatorConsole* console() const { return console_; }
  // Takes the console's lines now; answers them.
  void poll(uint64_t now);

 private:
  emu::Machine& machine_;
  std::function<void(const std::string&)> log_;
  std::string help_;
  std::map<std::string, OperatorHandler> handlers_;  // by owner
  OperatorGrammars grammars_;
  OperatorConsole* console_ = nullptr;
};

}  // namespace os
