#include "os/operator_desk.h"

#include <cctype>
#include <fmt/format.h>
#include <stdexcept>

namespace os {

void OperatorDesk::add(std::string help, OperatorHandler handler) {
  if (handler_) throw std::logic_error("operator commands: a second handler (one subsystem owns ZTRAP)");
  help_ = std::move(help);
  handler_ = std::move(handler);
}

void OperatorDesk::schedule(const std::vector<OperatorEntry>& entries) {
  if (!entries.empty() && !handler_)
    throw std::runtime_error(entries.front().where + ": no subsystem of this run takes operator commands");
  const double hz = machine_.config().clock_ghz * 1e9;
  for (const OperatorEntry& op : entries) {
    const uint64_t at = uint64_t(double(op.at_ns) * hz / 1e9);  // cycles from the start of the run
    machine_.events().schedule(at, [this, at, ns = op.at_ns, c = op.command] { handler_(c, at, ns, false); });
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
    c = parse_operator_command(text);
  } catch (const emu::ConfigError& e) {
    return fmt::format("ERROR at {}: {}", when, e.what());
  }
  if (!handler_) return fmt::format("ERROR at {}: no subsystem takes {}", when, first);
  std::string answer = handler_(c, now, ns, true);
  if (answer.rfind("ERROR", 0) != 0)
    log_(fmt::format("{:>12} operator console: {}   (to replay: operator: [{{at: {}, command: {}}}])", now, text,
                     when, text));
  return answer;
}

void OperatorDesk::poll(uint64_t now) {
  for (const ConsoleLine& l : console_->poll()) console_->reply(l.session, command(l.text, now));
}

}  // namespace os
