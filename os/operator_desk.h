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
  // The subsystems' commands (to parse what is typed).
  void set_grammars(OperatorGrammars g) { grammars_ = std::move(g); }
  // The configuration's entries, each an event at its time.
  void schedule(const std::vector<OperatorEntry>& entries);
  // One command at simulated time `now` (cycles): the answer for the console (errors
  // too: an operator's typing error never stops the run).
  std::string command(const std::string& text, uint64_t now);
  void set_console(OperatorConsole* console) { console_ = console; }
  OperatorConsole* console() const { return console_; }
  // An unsolicited message to every console client (none without a console).
  void broadcast(const std::string& text) {
    if (console_) console_->broadcast(text);
  }
  // Takes the console's lines now; answers them. After a PAUSE it goes on taking and
  // answering lines, all at `now`, until RESUME (or until nobody is left to type it).
  void poll(uint64_t now);
  bool paused() const { return paused_; }

 private:
  emu::Machine& machine_;
  std::function<void(const std::string&)> log_;
  std::string help_;
  std::map<std::string, OperatorHandler> handlers_;  // by owner
  OperatorGrammars grammars_;
  OperatorConsole* console_ = nullptr;
  bool paused_ = false;
  // A console line: PAUSE and RESUME (the console's own: they hold the host, not the
  // model, so the run's figures and replay log do not know them), else command().
  std::string console_command(const std::string& text, uint64_t now);
  void answer(const std::vector<ConsoleLine>& lines, uint64_t now);
  uint64_t ns_of(uint64_t cycles) const;
};

}  // namespace os
