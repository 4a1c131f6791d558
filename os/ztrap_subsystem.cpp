#include "os/ztrap_subsystem.h"

#include <algorithm>
#include <string>
#include <vector>
#include <filesystem>
#include <fmt/format.h>

#include "os/run_config.h"
#include "os/ztrap_config.h"

#include <spdlog/spdlog.h>

namespace os {
namespace {

const char* const kKnown = "ZTRAP EI START [PROG=name], ZTRAP EI STOP";

std::string upper(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return o;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool symbol_char(char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
         ch == '.' || ch == '$';
}


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

ZtrapCommand parse_ztrap_command(std::string_view text) {
  ZtrapCommand c;
  std::vector<std::string> w = words(text);
  if (w.empty() || upper(w[0]) != "ZTRAP")
    throw cfg::ConfigError(fmt::format("\"{}\": not a ZTRAP command (known: {})", text, kKnown));
  if (w.size() < 2 || upper(w[1]) != "EI")
    throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP knows only EI (known: {})", text, kKnown));
  if (w.size() < 3) throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI needs START or STOP", text));
  const std::string verb = upper(w[2]);
  if (verb == "STOP") {
    if (w.size() > 3) throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI STOP takes no parameters", text));
    return c;
  }
  if (verb != "START")
    throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI {}: expected START or STOP", text, w[2]));
  c.start = true;
  for (size_t k = 3; k < w.size(); ++k) {
    const size_t eq = w[k].find('=');
    const std::string name = upper(w[k].substr(0, eq));
    if (eq == std::string::npos || name != "PROG")
      throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI START: unknown parameter {} (known: PROG=name)", text, w[k]));
    if (!c.prog.empty()) throw cfg::ConfigError(fmt::format("\"{}\": PROG= given twice", text));
    c.prog = w[k].substr(eq + 1);
    if (c.prog.empty() || c.prog.size() > 64 || !std::all_of(c.prog.begin(), c.prog.end(), symbol_char))
      throw cfg::ConfigError(
          fmt::format("\"{}\": PROG=\"{}\" is not a program name (letters, digits, _, . or $)", text, c.prog));
  }
  return c;
}

namespace {

// system.ztrap.ei: whole-run is a ZTRAP EI START at 0, scheduled as an operator: entry
// would be (so that it counts in the order check and acts at the same point).
std::vector<OperatorEntry> implied_start(const cfg::Config& c) {
  if (!ztrap_section().read(c).whole_run) return {};
  return {{.at_ns = 0,
           .command = {.text = "ZTRAP EI START", .owner = "ZTRAP"},
           .where = c.origin("system.ztrap.ei") + ": system.ztrap.ei"}};
}

void check_start_stop_order(const cfg::Config& c, const std::vector<const OperatorEntry*>& entries) {
  const OperatorEntry* open = nullptr;
  for (const OperatorEntry* e : entries) {
    const bool start = parse_ztrap_command(e->command.text).start;
    if (start && open)
      throw operator_entry_error(
          c, *e, "system.ztrap.ei",
          fmt::format("ZTRAP EI START at {}: the collection is already on (started at {} by {}); STOP it first",
                      cfg::format_duration(e->at_ns), cfg::format_duration(open->at_ns),
                      open->list_index >= 0 ? c.list("operator").at(size_t(open->list_index)).name()
                                            : "system.ztrap.ei: whole-run"));
    if (!start && !open)
      throw operator_entry_error(c, *e, "system.ztrap.ei",
                                 fmt::format("ZTRAP EI STOP at {}: no collection is on (a ZTRAP EI START must come "
                                             "before)",
                                             cfg::format_duration(e->at_ns)));
    open = start ? e : nullptr;
  }
}

}  // namespace

OperatorGrammar ztrap_grammar() {
  return {.owner = "ZTRAP",
          .syntax = kKnown,
          .mine = [](std::string_view text) {
            const std::vector<std::string> w = words(text);
            return !w.empty() && upper(w[0]) == "ZTRAP";
          },
          .check = [](std::string_view text) { parse_ztrap_command(text); },
          .implied = implied_start,
          .check_sequence = check_start_stop_order};
}

void ZtrapSubsystem::install(System& system) {
  system_ = &system;
  for (const OperatorEntry& e : system.config().operators) {
    if (e.command.owner != "ZTRAP") continue;
    const ZtrapCommand z = parse_ztrap_command(e.command.text);
    if (z.start && !z.prog.empty() && !matches_a_program(system.symbols(), z.prog))
      spdlog::warn("{}: {}", e.where, no_match_warning(z.prog, system.config().system.image));
  }
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
                                      return e ? e->program_in_control() : std::string();
                                    });
  }
  return *ei_;
}

std::string ZtrapSubsystem::command(const OperatorCommand& text, uint64_t now, uint64_t ns, bool console) {
  const ZtrapCommand c = parse_ztrap_command(text.text);
  ZtrapEi& z = profiler();
  const bool start = c.start;
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
