#include "os/operator.h"

#include <algorithm>
#include <fmt/format.h>

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

}  // namespace

OperatorCommand parse_operator_command(std::string_view text, const OperatorGrammars& others) {
  OperatorCommand c;
  c.text = std::string(text);
  c.owner = "ZTRAP";
  std::vector<std::string> w = words(text);
  std::string known = kKnown;
  for (const OperatorGrammar& g : others) known += ", " + g.syntax;
  if (w.empty()) throw cfg::ConfigError(fmt::format("an empty command (known: {})", known));
  if (upper(w[0]) != "ZTRAP") {
    for (const OperatorGrammar& g : others)
      if (g.mine(text)) {
        g.check(text);
        c.verb = OperatorCommand::Verb::Other;
        c.owner = g.owner;
        return c;
      }
    throw cfg::ConfigError(fmt::format("\"{}\": unknown operator command {} (known: {})", text, w[0], known));
  }
  if (w.size() < 2 || upper(w[1]) != "EI")
    throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP knows only EI (known: {})", text, kKnown));
  if (w.size() < 3) throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI needs START or STOP", text));
  const std::string verb = upper(w[2]);
  if (verb == "STOP") {
    c.verb = OperatorCommand::Verb::ZtrapEiStop;
    if (w.size() > 3) throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI STOP takes no parameters", text));
    return c;
  }
  if (verb != "START")
    throw cfg::ConfigError(fmt::format("\"{}\": ZTRAP EI {}: expected START or STOP", text, w[2]));
  c.verb = OperatorCommand::Verb::ZtrapEiStart;
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
cfg::Section<ZtrapConfig> make_ztrap_section() {
  cfg::Section<ZtrapConfig> s;
  using T = cfg::ValueType;
  s.key_with({.path = "system.ztrap.ei",
         .type = T::Enum,
         .default_value = "off",
         .choices = {"off", "whole-run", "measurement"},
         .unit = "collection",
         .description = "ZTRAP EI software profiler (writes etim.txt and etim.json): whole-run is a ZTRAP EI START "
                        "at 0 with no STOP; measurement a START when the summary's measurement window opens (after "
                        "the warm-up), so that the profile and summary.txt count the same instructions. For another "
                        "window or a PROG= filter, use operator: entries instead.",
         .source = "off: sampling costs nothing while off, and most runs need no instruction report."},
         [](ZtrapConfig& z, const cfg::ConfigValue& v) {
           z.whole_run = std::get<std::string>(v) == "whole-run";
           z.measurement = std::get<std::string>(v) == "measurement";
         });
  s.key({.path = "system.ztrap.interval",
         .type = T::Cycles,
         .default_value = "4999",
         .min = "1",
         .max = "1000000000",
         .unit = "cycles",
         .description = "ZTRAP EI samples each I-stream's current instruction every this many cycles of its "
                        "clock (time not spent executing, such as idle, is not sampled).",
         .source = "estimate: about 1 us at 5.2 GHz, so a few-ms run on a few I-streams collects thousands of "
                   "samples (the document's csg-loop report has about 8,700); prime, so that a loop whose "
                   "period in cycles is shorter cannot alias with the sample points."}, &ZtrapConfig::interval);
  s.describe("system.ztrap", "ZTRAP EI, the software profiler: time-weighted samples of every I-stream's PSW.");
  s.key({.path = "system.console.poll_interval",
         .type = T::Duration,
         .default_value = "100us",
         .min = "1us",
         .max = "1s",
         .unit = "simulated time",
         .description = "With tpfemu run --console PORT: how often (in simulated time) the control program "
                        "takes the commands typed on the operator console; each acts at the time of the poll "
                        "that took it. Without a console, nothing is polled.",
         .source = "estimate: fine enough to place a ZTRAP EI window within a few per cent of a millisecond "
                   "run, coarse enough that polling costs little host time."}, &ZtrapConfig::console_poll_ns);
  s.describe("system.console", "The operator console (tpfemu run --console PORT).");
  return s;
}

}  // namespace

const cfg::Section<ZtrapConfig>& ztrap_section() {
  static const cfg::Section<ZtrapConfig> section = make_ztrap_section();
  return section;
}

void declare_operator_schema(cfg::Schema& s, const OperatorGrammars& others) {
  std::string known = kKnown;
  for (const OperatorGrammar& g : others) known += ", " + g.syntax;
  using T = cfg::ValueType;
  s.add_list({.name = "operator",
              .fields = {{.path = "at",
                          .type = T::Duration,
                          .max = "100000s",
                          .unit = "simulated time",
                          .description = "When the command is entered, from the start of the run."},
                         {.path = "command",
                          .type = T::String,
                          .unit = "operator command",
                          .description = "The command: " + known + "."}},
              .description = "Operator commands entered at a simulated time (z/TPF style).",
              .example = "- at: 2ms\n  command: ZTRAP EI START PROG=slockc\n- at: 10ms\n  command: ZTRAP EI STOP",
              .check = [others](const cfg::ListEntry& e) {
                try {
                  parse_operator_command(e.get_string("command"), others);
                } catch (const cfg::ConfigError& err) {
                  throw e.error("command", err.what());
                }
              }});
  s.check("ZTRAP EI START and STOP alternate", [others](const cfg::Config& c) { operator_entries(c, others); });
}

std::vector<OperatorEntry> operator_entries(const cfg::Config& c, const OperatorGrammars& others) {
  struct Item {
    OperatorEntry entry;
    const cfg::ListEntry* source;
  };
  std::vector<Item> items;
  if (ztrap_section().read(c).whole_run) {
    OperatorEntry e;
    e.command = parse_operator_command("ZTRAP EI START");
    e.where = c.origin("system.ztrap.ei") + ": system.ztrap.ei";
    items.push_back({e, nullptr});
  }
  for (const cfg::ListEntry& le : c.list("operator")) {
    OperatorEntry e;
    e.at_ns = le.get_uint("at");
    e.command = parse_operator_command(le.get_string("command"), others);
    e.where = le.place + ": " + le.name();
    items.push_back({std::move(e), &le});
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.entry.at_ns < b.entry.at_ns; });
  const Item* open = nullptr;
  for (const Item& it : items) {
    if (it.entry.command.verb == OperatorCommand::Verb::Other) continue;  // not ZTRAP's
    const bool start = it.entry.command.verb == OperatorCommand::Verb::ZtrapEiStart;
    auto fail = [&](const std::string& msg) -> cfg::ConfigError {
      if (it.source) return it.source->error("command", msg);
      return c.error({"system.ztrap.ei"}, msg);
    };
    if (start && open)
      throw fail(fmt::format("ZTRAP EI START at {}: the collection is already on (started at {} by {}); "
                             "STOP it first",
                             cfg::format_duration(it.entry.at_ns), cfg::format_duration(open->entry.at_ns),
                             open->source ? open->source->name() : "system.ztrap.ei: whole-run"));
    if (!start && !open)
      throw fail(fmt::format("ZTRAP EI STOP at {}: no collection is on (a ZTRAP EI START must come before)",
                             cfg::format_duration(it.entry.at_ns)));
    open = start ? &it : nullptr;
  }
  std::vector<OperatorEntry> out;
  for (auto& it : items) out.push_back(std::move(it.entry));
  return out;
}

}  // namespace os
