// tpfemu compare DIR_A DIR_B: the configurations (config.yaml), the summaries
// (summary.json) and the subsystems' JSON reports of two runs.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <spdlog/spdlog.h>

#include "app/run_command.h"
#include "app/run_record.h"
#include "app/summary_read.h"
#include "os/summary_format.h"
#include "report/comparison.h"

namespace app {
using os::total_cycles_by_cause;
namespace summary_format = os::summary_format;
using os::RunSummary;
using report_html::Comparison;
using report_html::ComparisonPart;

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using summary_format::write_table;

// The JSON reports compared figure by figure (summary.json has its own comparison;
// the timeline and dumps are series and events, not figures).
constexpr const char* kReports[] = {"heap.json", "locks.json", "etim.json", "devices.json", "paging.json", "fetch.json"};

// What differs between two runs' config.yaml: the header's lines (tpfemu's version,
// the images' hashes; not the command line, which names other directories) and every
// key whose value differs.
ComparisonPart config_differences(const std::string& dir_a, const std::string& dir_b) {
  ComparisonPart part{"configuration"};
  RunRecord a, b;
  try {
    a = read_run_record((fs::path(dir_a) / "config.yaml").string());
    b = read_run_record((fs::path(dir_b) / "config.yaml").string());
  } catch (const std::runtime_error& e) {
    part.lead = std::string("Configuration: not compared (") + e.what() + ")\n\n";
    return part;
  }
  std::vector<std::vector<std::string>> rows = {{"KEY", "A", "B"}};
  auto differ = [&](const std::map<std::string, std::string>& x, const std::map<std::string, std::string>& y,
                    bool skip_command) {
    std::set<std::string> keys;
    for (const auto& [k, v] : x) keys.insert(k);
    for (const auto& [k, v] : y) keys.insert(k);
    for (const std::string& k : keys) {
      if (skip_command && k == "command") continue;
      auto i = x.find(k), j = y.find(k);
      const std::string va = i == x.end() ? "-" : i->second, vb = j == y.end() ? "-" : j->second;
      if (va != vb) rows.push_back({k, va, vb});
    }
  };
  differ(a.header, b.header, true);
  differ(a.values, b.values, false);
  if (rows.size() == 1) {
    part.lead = "Configuration: the same (every key of config.yaml)\n\n";
    return part;
  }
  part.lead = "Configuration: the keys that differ (config.yaml)\n";
  part.rows = std::move(rows);
  part.indent = "  ", part.align = "lll", part.trail = "\n";
  return part;
}

// An array element's name: its first string member when every element has a
// different one (a lock's or a device's name), else its index.
std::vector<std::string> element_labels(const json& array) {
  std::vector<std::string> labels;
  std::set<std::string> seen;
  for (const json& e : array) {
    std::string label;
    // Its name first (a lock is "syslog" whatever its algorithm, so that the variants of
    // an experiment match), then what else names it, then its first string member.
    if (e.is_object())
      for (const char* k : {"name", "program", "module", "device"})
        if (e.contains(k) && e[k].is_string()) {
          label = e[k].get<std::string>();
          break;
        }
    if (label.empty() && e.is_object())
      for (const auto& [k, v] : e.items())
        if (v.is_string()) {
          label = v.get<std::string>();
          break;
        }
    if (label.empty() || !seen.insert(label).second) {
      labels.clear();
      for (size_t i = 0; i < array.size(); ++i) labels.push_back(std::to_string(i));
      return labels;
    }
    labels.push_back(label);
  }
  return labels;
}

// ETIM rows are one per instruction: compared as totals per program.
json etim_by_program(const json& rows) {
  json by = json::object();
  for (const json& r : rows) {
    if (!r.is_object() || !r.contains("prog") || !r["prog"].is_string()) continue;
    json& p = by[r["prog"].get<std::string>()];
    for (const char* f : {"count", "executions", "cycles"})
      if (r.contains(f) && r[f].is_number()) p[f] = (p.contains(f) ? p[f].get<double>() : 0.0) + r[f].get<double>();
  }
  return by;
}

// Every number of a report by its path: members by name, array elements by label.
void numbers(const json& j, const std::string& path, std::map<std::string, double>& out) {
  if (j.is_number()) {
    out[path] = j.get<double>();
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      const std::string p = path.empty() ? k : path + "." + k;
      if (k == "rows" && v.is_array()) {  // ETIM's: by program
        const json by = etim_by_program(v);  // kept: a range-for over a temporary's items() dangles
        for (const auto& [prog, totals] : by.items())
          numbers(totals, (path.empty() ? "" : path + ".") + "programs[" + prog + "]", out);
      } else {
        numbers(v, p, out);
      }
    }
  } else if (j.is_array()) {
    const std::vector<std::string> labels = element_labels(j);
    for (size_t i = 0; i < j.size(); ++i) numbers(j[i], path + "[" + labels[i] + "]", out);
  }
}

// One number style for every table of compare, as summary.txt writes its figures:
// whole numbers grouped (1,234,567); others with 6 decimals below 1, 3 from 1 on, grouped.
std::string number_text(double v) {
  if (std::isnan(v)) return "-";
  if (v == std::floor(v) && std::fabs(v) < 1e18) return summary_format::grouped(uint64_t(std::fabs(v))).insert(0, v < 0 ? "-" : "");
  return summary_format::grouped_fixed(v, std::fabs(v) < 1 ? 6 : 3);
}

std::string ratio_text(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || (a == 0 && b == 0)) return "-";
  if (a == 0) return "n/a";
  return fmt::format("{:.3f}", b / a);
}

// B against A in percent: "+38.6%", "-99.3%"; "new" when A is 0, "" when both are.
std::string change_text(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || (a == 0 && b == 0)) return "";
  if (a == 0) return "new";
  const double pct = (b / a - 1) * 100;
  if (pct > 9999) return ">+9,999%";   // B/A says how many times
  return fmt::format("{}{:.1f}%", pct >= 0 ? "+" : "", pct);
}

// B/A as the page draws it: NaN where compare prints "-" or "n/a".
double ratio_of(double a, double b) { return std::isnan(a) || std::isnan(b) || a == 0 ? NAN : b / a; }

// The headline of both runs, with its ratio: the question the runs were made for.
ComparisonPart headlines(const RunSummary& a, const RunSummary& b) {
  ComparisonPart part{"headline"};
  if (a.headline.key != b.headline.key) {
    part.lead = "Headline: A's is " + a.headline.label + " (" + number_text(a.headline.value) + "), B's " +
                b.headline.label + " (" + number_text(b.headline.value) + "): not the same figure; messages per second " +
                number_text(a.messages_per_second) + " -> " + number_text(b.messages_per_second) + " (B/A " +
                ratio_text(a.messages_per_second, b.messages_per_second) + ")\n\n";
    return part;
  }
  part.lead = "Headline: " + a.headline.label + "\n";
  part.rows = {{"A", "B", "B/A", "change"},
               {number_text(a.headline.value), number_text(b.headline.value), ratio_text(a.headline.value, b.headline.value),
                change_text(a.headline.value, b.headline.value)}};
  part.indent = "  ", part.align = "rrrr", part.trail = "";
  if (!a.headline.detail.empty() || !b.headline.detail.empty())
    part.trail += "  A with  " + a.headline.detail + "\n  B with  " + b.headline.detail + "\n";
  if (const std::optional<double>& d = a.headline.document ? a.headline.document : b.headline.document)
    part.trail += fmt::format("  document  {} ({})\n", *d,
                              a.headline.document ? a.headline.document_source : b.headline.document_source);
  part.trail += "\n";
  part.ratios = {ratio_of(a.headline.value, b.headline.value)};
  return part;
}

// What moved most between the runs, a message: the cycles by cause first (where the
// time went), then the other counts; each list with B/A furthest from 1 first.
ComparisonPart moved_most(const RunSummary& a, const RunSummary& b, size_t most) {
  const bool per_message = a.messages > 0 && b.messages > 0;
  const double na = per_message ? double(a.messages) : 1.0, nb = per_message ? double(b.messages) : 1.0;
  struct Moved {
    std::string name;
    double a, b;
    double distance() const {
      if (a == 0 && b == 0) return -1;
      if (a == 0 || b == 0) return 1e9;
      return std::fabs(std::log(b / a));
    }
  };
  // Counts by how many times they changed; cycles by how many cycles a message moved
  // (where the time went: a cause of a few cycles that grew tenfold is not the story).
  auto ranked = [](std::vector<Moved> v, bool by_amount) {
    v.erase(std::remove_if(v.begin(), v.end(), [](const Moved& m) { return m.distance() <= 0; }), v.end());
    std::stable_sort(v.begin(), v.end(), [&](const Moved& x, const Moved& y) {
      return by_amount ? std::fabs(x.b - x.a) > std::fabs(y.b - y.a) : x.distance() > y.distance();
    });
    return v;
  };
  const emu::CyclesByCause ca = total_cycles_by_cause(a), cb = total_cycles_by_cause(b);
  std::vector<Moved> causes, others;
  for (size_t c = 0; c < emu::kCauseCount; ++c)
    causes.push_back({std::string("cycles: ") + emu::cause_name(emu::Cause(c)), double(ca[c]) / na, double(cb[c]) / nb});
  others.push_back({"instructions", double(a.instructions) / na, double(b.instructions) / nb});
  others.push_back({"cycles", double(a.cycles) / na, double(b.cycles) / nb});
  // The control program's and the subsystems' counters both runs have (summary_format's list).
  std::map<std::string, uint64_t> counts_b;
  for (const auto& c : summary_format::all_counters(b)) counts_b[c.key] = c.value;
  for (const auto& c : summary_format::all_counters(a))
    if (auto it = counts_b.find(c.key); it != counts_b.end())
      others.push_back({c.key, double(c.value) / na, double(it->second) / nb});
  std::vector<Moved> shown = ranked(causes, true);
  const std::vector<Moved> ro = ranked(others, false);
  shown.insert(shown.end(), ro.begin(), ro.begin() + std::min(ro.size(), most));
  ComparisonPart part{"moved"};
  part.lead = std::string("Moved most, ") + (per_message ? "a message" : "in all (a run completed no message)") +
              " (cycles by cause first, most cycles moved first; then the counts, B/A furthest from 1 first)\n";
  part.rows = {{"FIGURE", "A", "B", "B/A", "change"}};
  for (const Moved& m : shown) {
    part.rows.push_back({m.name, number_text(m.a), number_text(m.b), ratio_text(m.a, m.b), change_text(m.a, m.b)});
    part.ratios.push_back(ratio_of(m.a, m.b));
  }
  part.indent = "  ", part.align = "lrrrr", part.trail = "\n";
  return part;
}

// The report's figures that differ between the runs, and how many are the same.
// The program an ETIM figure belongs to ("programs[QZZ0].cycles", "by_ecb_program[QZZ0].samples":
// QZZ0), or "" for the report's totals.
std::string etim_program_of(const std::string& key) {
  for (const char* group : {"programs[", "by_ecb_program["}) {
    const std::string g = group;
    if (key.rfind(g, 0) == 0) {
      const size_t end = key.find(']', g.size());
      if (end != std::string::npos) return key.substr(g.size(), end - g.size());
    }
  }
  return "";
}

// ETIM's figures in the order an analyst reads a difference: the totals, then each
// program's figures together, the programs whose cycles moved most first (ties by
// name). Figures of "(no ECB)" (the dispatcher's own code, outside any ECB) are left
// out unless `all`; their number is returned in `folded`.
std::vector<std::string> etim_order(const std::set<std::string>& keys, std::map<std::string, double>& na,
                                    std::map<std::string, double>& nb, bool all, size_t& folded) {
  auto cycles = [](std::map<std::string, double>& n, const std::string& prog) {
    const auto it = n.find("programs[" + prog + "].cycles");
    return it == n.end() ? 0.0 : it->second;
  };
  std::map<std::string, std::vector<std::string>> by_program;
  std::vector<std::string> order;
  folded = 0;
  for (const std::string& k : keys) {
    const std::string prog = etim_program_of(k);
    if (prog.empty()) order.push_back(k);
    else if (prog == "(no ECB)" && !all) ++folded;
    else by_program[prog].push_back(k);
  }
  std::vector<std::pair<double, std::string>> moved;
  for (const auto& [prog, ks] : by_program) moved.push_back({-std::fabs(cycles(nb, prog) - cycles(na, prog)), prog});
  std::sort(moved.begin(), moved.end());
  for (const auto& [m, prog] : moved) order.insert(order.end(), by_program[prog].begin(), by_program[prog].end());
  return order;
}

ComparisonPart report_differences(const std::string& name, const json& a, const json& b, bool all) {
  std::map<std::string, double> na, nb;
  numbers(a, "", na);
  numbers(b, "", nb);
  std::set<std::string> keys;
  for (const auto& [k, v] : na) keys.insert(k);
  for (const auto& [k, v] : nb) keys.insert(k);
  size_t folded = 0;
  const bool etim = name == "etim.json";
  const std::vector<std::string> order =
      etim ? etim_order(keys, na, nb, all, folded) : std::vector<std::string>(keys.begin(), keys.end());
  ComparisonPart part{fs::path(name).stem().string()};
  std::vector<std::vector<std::string>> rows = {{"FIGURE", "A", "B", "B/A", "change"}};
  size_t same = 0;
  for (const std::string& k : order) {
    const double va = na.count(k) ? na[k] : NAN, vb = nb.count(k) ? nb[k] : NAN;
    if (va == vb) {
      ++same;
      continue;
    }
    rows.push_back({k, number_text(va), number_text(vb), ratio_text(va, vb), change_text(va, vb)});
    part.ratios.push_back(ratio_of(va, vb));
  }
  part.lead = "\n" + name + ": " + std::to_string(rows.size() - 1) + " figures differ, " + std::to_string(same) +
              " the same" + (etim ? "; programs whose cycles moved most first" : "") + "\n";
  if (folded)
    part.trail = "  (" + std::to_string(folded) +
                 " figures of (no ECB), samples taken while no ECB ran, folded away; --all shows them)\n";
  if (rows.size() > 1) part.rows = std::move(rows), part.indent = "  ", part.align = "lrrrr";
  return part;
}

bool read_json(const fs::path& p, json& j) {
  std::ifstream in(p);
  if (!in) return false;
  try {
    j = json::parse(in);
    return true;
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", p.string(), e.what()));
  }
}

// The comparison of two run folders, in the order compare prints it.
Comparison comparison(const std::string& dir_a, const std::string& dir_b, bool all) {
  const RunSummary a = read_summary_json((fs::path(dir_a) / "summary.json").string());
  const RunSummary b = read_summary_json((fs::path(dir_b) / "summary.json").string());
  Comparison c{dir_a, dir_b};
  c.parts.push_back({"runs", "A: " + dir_a + (a.config.empty() ? "" : " (" + a.config + ")") + "\n" + "B: " + dir_b +
                                 (b.config.empty() ? "" : " (" + b.config + ")") + "\n\n"});
  c.parts.push_back(headlines(a, b));
  c.parts.push_back(config_differences(dir_a, dir_b));
  c.parts.push_back(moved_most(a, b, 10));
  const SummaryComparison s = compare_summaries(a, b, all);
  ComparisonPart figures{"summary", "All figures (summary.json)\n", s.rows, "", "lrrr", s.notes()};
  for (size_t i = 0; i < s.a.size(); ++i) figures.ratios.push_back(ratio_of(s.a[i], s.b[i]));
  c.parts.push_back(std::move(figures));
  for (const char* name : kReports) {
    json ja, jb;
    const bool in_a = read_json(fs::path(dir_a) / name, ja), in_b = read_json(fs::path(dir_b) / name, jb);
    if (in_a && in_b) c.parts.push_back(report_differences(name, ja, jb, all));
    else if (in_a || in_b)
      c.parts.push_back({fs::path(name).stem().string(), std::string("\n") + name + ": only in " + (in_a ? "A" : "B") + "\n"});
  }
  return c;
}

void write_comparison_text(std::ostream& out, const Comparison& c) {
  for (const ComparisonPart& p : c.parts) {
    out << p.lead;
    if (!p.rows.empty()) write_table(out, p.rows, p.indent, p.align);
    out << p.trail;
  }
}

// A folder's own name, also when it is written "out/b/" or ".".
std::string folder_name(const std::string& dir) {
  fs::path p = fs::absolute(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().string();
}

// Builds the comparison and hands it to `use`; a run folder that is not one, or a report
// that is not as tpfemu writes it, is one message naming the file, and status 2.
template <typename Use>
int with_comparison(const std::string& dir_a, const std::string& dir_b, bool all, Use use) {
  try {
    return use(comparison(dir_a, dir_b, all));
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  } catch (const json::exception& e) {
    fmt::print(stderr, "tpfemu: compare: a report is not as tpfemu writes it: {}\n", e.what());
    return 2;
  }
}

}  // namespace

int compare_runs(const std::string& dir_a, const std::string& dir_b, bool all) {
  return with_comparison(dir_a, dir_b, all, [](const Comparison& c) {
    write_comparison_text(std::cout, c);
    return 0;
  });
}

int report_compare(const std::string& dir_a, const std::string& dir_b, const std::string& file) {
  const std::string path = file.empty() ? (fs::path(dir_a) / ("compare-" + folder_name(dir_b) + ".html")).string() : file;
  return with_comparison(dir_a, dir_b, false, [&](const Comparison& c) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << report_html::comparison_html(c);
    out.close();
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path));
    fmt::print("{}\n", path);
    return 0;
  });
}

}  // namespace app
