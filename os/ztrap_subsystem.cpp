#include "os/ztrap_subsystem.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "os/run_config.h"

namespace os {

void ZtrapSubsystem::install(System& system) {
  system_ = &system;
  system.add_operator_commands(
      "ZTRAP", "ZTRAP EI START [PROG=name]  start the software profiler (PROG=: programs starting with name)\n"
      "ZTRAP EI STOP               stop it; the run writes etim.txt and etim.json at its end\n",
      [this](const OperatorCommand& c, uint64_t now, uint64_t ns, bool console) {
        return command(c, now, ns, console);
      });
  auto started = [this] { return ei_ && ei_->started(); };
  system.add_report({.name = "etim.txt",
                     .write = [this](std::ostream& out) { ei_->write(out, json_); },
                     .wanted = started});
  system.add_report({.name = "etim.json",
                     .write = [this](std::ostream& out) { out << json_.str(); },
                     .wanted = started});
}

ZtrapEi& ZtrapSubsystem::profiler() {
  if (!ei_) {
    const RunConfig& c = system_->config();
    ei_ = std::make_unique<ZtrapEi>(system_->machine(), system_->system_space(), system_->symbols(),
                                    std::filesystem::path(c.system.image).filename().string(), c.ztrap.interval);
  }
  return *ei_;
}

std::string ZtrapSubsystem::command(const OperatorCommand& c, uint64_t now, uint64_t ns, bool console) {
  ZtrapEi& z = profiler();
  const bool start = c.verb == OperatorCommand::Verb::ZtrapEiStart;
  const std::string when = emu::format_duration(ns);
  if (console && start == z.on())
    return fmt::format("ERROR at {}: ZTRAP EI is {}", when, start ? "already on (STOP it first)" : "not on");
  if (start) {
    z.start(c.prog, now, ns);
    return fmt::format("ZTRAP EI STARTED at {}{}", when, c.prog.empty() ? "" : " PROG=" + c.prog);
  }
  // The console's answer is the window this STOP closes, since its START (the report
  // at the end of the run adds up every window).
  std::vector<emu::ProfileRow> rows = console ? z.window_rows() : std::vector<emu::ProfileRow>{};
  const uint64_t since_ns = z.window_start_ns();
  z.stop(ns);
  if (!console) return "";
  uint64_t samples = 0;
  for (const auto& r : rows) samples += r.samples;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.samples > b.samples; });
  std::string out = fmt::format("ZTRAP EI STOPPED at {}: {} samples in the window {}..{}; its top instructions:\n",
                                when, samples, emu::format_duration(since_ns), when);
  for (size_t k = 0; k < rows.size() && k < 5 && rows[k].samples; ++k)
    out += fmt::format("  {:<20} {:016X} {:<8} {:>10}\n", rows[k].prog, rows[k].disp, rows[k].inst, rows[k].samples);
  return out;
}

bool ZtrapSubsystem::write_etim(std::ostream& text, std::ostream& json) {
  if (!ei_ || !ei_->started()) return false;
  ei_->write(text, json);
  return true;
}

}  // namespace os
