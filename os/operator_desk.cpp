#include "os/operator_desk.h"

#include <cctype>
#include <fmt/format.h>
#include <stdexcept>

namespace os {

void OperatorDesk::add(std::string owner, std::string help, OperatorHandler handler) {
  if (handlers_.count(owner)) throw std::logic_error("operator commands: a second handler of " + owner);
  help_ += help;
  handlers_[owner] = std::move(handler);
}

void OperatorDesk::schedule(const std::vector<OperatorEntry>& entries) {
  for (const OperatorEntry& op : entries)
    if (!handlers_.count(op.command.owner))
      throw std::runtime_error(op.where + ": no subsystem of this run takes " + op.command.owner + " commands");
  const double hz = machine_.config().clock_ghz * 1e9;
  for (const OperatorEntry& op : entries) {
    const uint64_t at = uint64_t(double(op.at_ns) * hz / 1e9);  // cycles from the start of the run
    const OperatorHandler& handler = handlers_.at(op.command.owner);
    machine_.events().schedule(at, [&handler, at, ns = op.at_ns, c = op.command] { handler(c, at, ns, false); });
  }
}

uint64_t OperatorDesk::ns_of(uint64_t cycles) const {
  return uint64_t(double(cycles) / machine_.config().clock_ghz + 0.5);
}

namespace {

const char* const kConsoleHelp =
    "PAUSE                       hold the run (simulated time stands still) while you type\n"
    "RESUME                      let it go on\n";

std::string upper_first_word(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  std::string first = text.substr(begin, text.find_first_of(" \t", begin) - begin);
  for (char& c : first) c = char(std::toupper(static_cast<unsigned char>(c)));
  return first;
}

}  // namespace

std::string OperatorDesk::command(const std::string& text, uint64_t now) {
  const uint64_t ns = ns_of(now);
  const std::string when = cfg::format_duration(ns);
  const std::string first = upper_first_word(text);
  if (first == "HELP") return help_ + (console_ ? kConsoleHelp : "");
  // A command refused is in run.log too, with why: the log says what the operator tried.
  auto refused = [&](std::string answer) {
    const std::string first_line = answer.substr(0, answer.find('\n'));
    log_(fmt::format("{:>12} operator console: {}   REFUSED: {}", now, text, first_line));
    return answer;
  };
  OperatorCommand c;
  try {
    c = parse_operator_command(text, grammars_);
  } catch (const cfg::ConfigError& e) {
    return refused(fmt::format("ERROR at {}: {}", when, e.what()));
  }
  auto h = handlers_.find(c.owner);
  if (h == handlers_.end()) return refused(fmt::format("ERROR at {}: no subsystem takes {}", when, first));
  std::string answer = h->second(c, now, ns, true);
  if (answer.rfind("ERROR", 0) == 0) return refused(std::move(answer));
  log_(fmt::format("{:>12} operator console: {}   (to replay: operator: [{{at: {}, command: {}}}])", now, text, when,
                   text));
  return answer;
}

std::string OperatorDesk::console_command(const std::string& text, uint64_t now) {
  const std::string first = upper_first_word(text);
  if (first != "PAUSE" && first != "RESUME") return command(text, now);
  const std::string when = cfg::format_duration(ns_of(now));
  auto refused = [&](std::string answer) {
    log_(fmt::format("{:>12} operator console: {}   REFUSED: {}", now, text, answer));
    return answer;
  };
  if (text.find_first_not_of(" \t", text.find_first_not_of(" \t") + first.size()) != std::string::npos)
    return refused(fmt::format("ERROR at {}: {} takes nothing after it", when, first));
  const bool pause = first == "PAUSE";
  if (pause == paused_)
    return refused(fmt::format("ERROR at {}: the run is {}", when, pause ? "paused already" : "not paused"));
  paused_ = pause;
  if (pause)
    return fmt::format("PAUSED at {}: simulated time stands still; commands typed now act at {}; RESUME goes on",
                       when, when);
  return fmt::format("RESUMED at {}", when);
}

void OperatorDesk::answer(const std::vector<ConsoleLine>& lines, uint64_t now) {
  for (const ConsoleLine& l : lines) console_->reply(l.session, console_command(l.text, now));
}

void OperatorDesk::poll(uint64_t now) {
  console_->pace(ns_of(now));
  answer(console_->poll(), now);
  while (paused_) {
    if (!console_->attended()) {
      paused_ = false;
      log_(fmt::format("{:>12} operator console: the pause ends: no client is left to type RESUME", now));
      break;
    }
    answer(console_->wait_for_lines(), now);
  }
  for (const std::string& n : console_->notices()) log_(fmt::format("{:>12} operator console: {}", now, n));
}

}  // namespace os
