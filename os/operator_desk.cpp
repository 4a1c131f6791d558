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

std::string OperatorDesk::command(const std::string& text, uint64_t now) {
  const uint64_t ns = uint64_t(double(now) / machine_.config().clock_ghz + 0.5);
  const std::string when = emu::format_duration(ns);
  std::string first = text.substr(0, text.find_first_of(" \t"));
  for (char& c : first) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (first == "HELP") return help_;
  OperatorCommand c;
  try {
    c = parse_operator_command(text, grammars_);
  } catch (const emu::ConfigError& e) {
    return fmt::format("ERROR at {}: {}", when, e.what());
  }
  auto h = handlers_.find(c.owner);
  if (h == handlers_.end()) return fmt::format("ERROR at {}: no subsystem takes {}", when, first);
  std::string answer = h->second(c, now, ns, true);
  if (answer.rfind("ERROR", 0) != 0)
    log_(fmt::format("{:>12} operator console: {}   (to replay: operator: [{{at: {}, command: {}}}])", now, text,
                     when, text));
  return answer;
}

void OperatorDesk::poll(uint64_t now) {
  for (const ConsoleLine& l : console_->poll()) console_->reply(l.session, command(l.text, now));
  for (const std::string& n : console_->notices()) log_(fmt::format("{:>12} operator console: {}", now, n));
}

}  // namespace os
