#include "os/operator.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace os {
namespace {

std::string first_word(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  return std::string(s.substr(begin, s.find_first_of(" \t", begin) - begin));
}

std::string known_commands(const OperatorGrammars& grammars) {
  std::string known;
  for (const OperatorGrammar& g : grammars) known += (known.empty() ? "" : ", ") + g.syntax;
  return known.empty() ? "none" : known;
}

}  // namespace

std::string squeezed_command(std::string_view text) {
  std::string t;
  for (char ch : text)
    if (ch != ' ' && ch != '\t') t += char(std::toupper(static_cast<unsigned char>(ch)));
  return t;
}

OperatorCommand parse_operator_command(std::string_view text, const OperatorGrammars& grammars) {
  const std::string first = first_word(text);
  if (first.empty()) throw cfg::ConfigError(fmt::format("an empty command (known: {})", known_commands(grammars)));
  for (const OperatorGrammar& g : grammars)
    if (g.mine(text)) {
      g.check(text);
      return {.text = std::string(text), .owner = g.owner};
    }
  throw cfg::ConfigError(
      fmt::format("\"{}\": unknown operator command {} (known: {})", text, first, known_commands(grammars)));
}

cfg::ConfigError operator_entry_error(const cfg::Config& c, const OperatorEntry& e, const std::string& key,
                                      const std::string& message) {
  if (e.list_index >= 0) return c.list("operator").at(size_t(e.list_index)).error("command", message);
  return c.error({key}, message);
}

void declare_operator_schema(cfg::Schema& s, const OperatorGrammars& grammars) {
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
                          .description = "The command: " + known_commands(grammars) + "."}},
              .description = "Operator commands entered at a simulated time (z/TPF style).",
              .example = "- at: 2ms\n  command: ZTRAP EI START PROG=slockc\n- at: 10ms\n  command: ZTRAP EI STOP",
              .check = [grammars](const cfg::ListEntry& e) {
                try {
                  parse_operator_command(e.get_string("command"), grammars);
                } catch (const cfg::ConfigError& err) {
                  throw e.error("command", err.what());
                }
              }});
  s.check("each owner's operator commands in an order it takes",
          [grammars](const cfg::Config& c) { operator_entries(c, grammars); });
}

std::vector<OperatorEntry> operator_entries(const cfg::Config& c, const OperatorGrammars& grammars) {
  std::vector<OperatorEntry> entries;
  for (const OperatorGrammar& g : grammars)
    if (g.implied)
      for (OperatorEntry& e : g.implied(c)) entries.push_back(std::move(e));
  const std::vector<cfg::ListEntry>& list = c.list("operator");
  for (size_t i = 0; i < list.size(); ++i) {
    const cfg::ListEntry& le = list[i];
    entries.push_back({.at_ns = le.get_uint("at"),
                       .command = parse_operator_command(le.get_string("command"), grammars),
                       .where = le.place + ": " + le.name(),
                       .list_index = int(i)});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const OperatorEntry& a, const OperatorEntry& b) { return a.at_ns < b.at_ns; });
  for (const OperatorGrammar& g : grammars) {
    if (!g.check_sequence) continue;
    std::vector<const OperatorEntry*> mine;
    for (const OperatorEntry& e : entries)
      if (e.command.owner == g.owner) mine.push_back(&e);
    g.check_sequence(c, mine);
  }
  return entries;
}

}  // namespace os
