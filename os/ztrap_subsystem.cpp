#include "os/ztrap_subsystem.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "os/run_config.h"

#include <spdlog/spdlog.h>

namespace os {
namespace {

// PROG= keeps the programs whose name starts with it; one that no symbol of the image
// starts with leaves an empty report, which is almost surely a misspelt name.
bool matches_a_program(const emu::SymbolTable& symbols, const std::string& prog) {
  return std::any_of(symbols.all().begin(), symbols.all().end(),
                     [&](const emu::Symbol& s) { return s.name.rfind(prog, 0) == 0; });
}

std::string no_match_warning(const std::string& prog, const std::string& image) {
  return fmt::format("PROG={} matches no program of {}: the report will have no rows", prog,
                     std::filesystem::path(image).filename().string());
}

}  // namespace

void ZtrapSubsystem::install(System& system) {
  system_ = &system;
  for (const OperatorEntry& e : system.config().operators)
    if (e.command.verb == OperatorCommand::Verb::ZtrapEiStart && !e.command.prog.empty() &&
        !matches_a_program(system.symbols(), e.command.prog))
      spdlog::warn("{}: {}", e.where, no_match_warning(e.command.prog, system.config().system.image));
  system.add_operator_commands(
      "ZTRAP", "ZTRAP EI START [PROG=name]  start the software profiler (PROG=: programs starting with name)\n"
      "ZTRAP EI STOP               stop it; the run writes etim.txt and etim.json at its end\n",
      [this](const OperatorCommand& c, uint64_t now, uint64_t ns, bool console) {
        return command(c, now, ns, console);
      });
  // system.ztrap.ei: measurement: the summary's window (its instructions, this profile's).
  if (system.config().ztrap.measurement)
    system.on_measurement_open([this](uint64_t now) {
      const uint64_t ns = uint64_t(double(now) / system_->machine().config().clock_ghz + 0.5);
      profiler().start("", now, ns);
      system_->log(fmt::format("{:>12} ZTRAP EI START (system.ztrap.ei: measurement, the window opens)", now));
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
                                    std::filesystem::path(c.system.image).filename().string(), c.ztrap.interval,
                                    [this](unsigned istream) {
                                      const Ecb* e = system_->running(istream);
                                      return e ? e->program : std::string();
                                    });
  }
  return *ei_;
}

std::string ZtrapSubsystem::command(const OperatorCommand& c, uint64_t now, uint64_t ns, bool console) {
  ZtrapEi& z = profiler();
  const bool start = c.verb == OperatorCommand::Verb::ZtrapEiStart;
  const std::string when = cfg::format_duration(ns);
  if (console && start == z.on())
    return fmt::format("ERROR at {}: ZTRAP EI is {}", when, start ? "already on (STOP it first)" : "not on");
  if (start) {
    z.start(c.prog, now, ns);
    if (console && !c.prog.empty() && !matches_a_program(system_->symbols(), c.prog))
      return fmt::format("ZTRAP EI STARTED at {} PROG={}\nWARNING: {}", when, c.prog,
                         no_match_warning(c.prog, system_->config().system.image));
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
                                when, samples, cfg::format_duration(since_ns), when);
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
