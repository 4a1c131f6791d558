#include "os/zstat.h"

#include <cctype>
#include <fmt/format.h>

#include "config/config.h"
#include "config/number_text.h"

namespace os {
namespace {

std::string upper_trimmed(std::string_view text) {
  std::string out;
  for (char c : text) out += char(std::toupper(static_cast<unsigned char>(c)));
  const size_t a = out.find_first_not_of(" \t"), b = out.find_last_not_of(" \t");
  return a == std::string::npos ? "" : out.substr(a, b - a + 1);
}

}  // namespace

OperatorGrammars SystemStatusDisplay::operator_grammars() const {
  return {{.owner = "ZSTAT",
           .syntax = "ZSTAT",
           .mine = [](std::string_view text) { return upper_trimmed(text).rfind("ZSTAT", 0) == 0; },
           .check = [](std::string_view text) {
             if (upper_trimmed(text) != "ZSTAT") throw cfg::ConfigError("ZSTAT takes nothing after it");
           }}};
}

void SystemStatusDisplay::install(System& system) {
  system_ = &system;
  system.add_operator_commands("ZSTAT",
                               "ZSTAT                       the system's status: ECBs in use, each I-stream's lists and "
                               "utilization since the last ZSTAT\n",
                               [this](const OperatorCommand& c, uint64_t now, uint64_t ns, bool) {
                                 return display(now, ns, c.text);
                               });
}

std::string SystemStatusDisplay::display(uint64_t now, uint64_t ns, const std::string& command) {
  const SystemStatus s = system_->status();
  last_cycles_.resize(s.istreams.size(), 0);
  last_busy_.resize(s.istreams.size(), 0);
  std::vector<std::string> lines;
  lines.push_back(fmt::format("ZSTAT at {}: {} ECBs in use; cross list {}, held (nondispatchable) {}",
                              cfg::format_duration(ns), s.ecbs, s.cross, s.held));
  lines.push_back(fmt::format("  {:<4} {:<10} {:>6} {:>6} {:>6}  {}", "IS", "RUNNING", "READY", "DEFER", "INPUT",
                              "UTIL since " + cfg::format_duration(last_ns_)));
  for (size_t i = 0; i < s.istreams.size(); ++i) {
    const IStreamStatus& is = s.istreams[i];
    const uint64_t cycles = is.cycles - std::min(is.cycles, last_cycles_[i]);
    const uint64_t busy = is.busy_cycles - std::min(is.busy_cycles, last_busy_[i]);
    lines.push_back(fmt::format("  {:03d}  {:<10} {:>6} {:>6} {:>6}  {}", i, is.running.empty() ? "-" : is.running,
                                is.ready, is.deferred, is.input,
                                cycles ? fmt::format("{:.1f}%", 100.0 * double(busy) / double(cycles)) : "-"));
    last_cycles_[i] = is.cycles;
    last_busy_[i] = is.busy_cycles;
  }
  last_ns_ = ns;
  return system_->operator_answer(now, command, lines);
}

}  // namespace os
