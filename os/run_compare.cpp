// tpfemu compare DIR_A DIR_B: the configurations (config.yaml), the summaries
// (summary.json) and the subsystems' JSON reports of two runs.
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <spdlog/spdlog.h>

#include "os/run_command.h"
#include "os/run_record.h"
#include "os/summary.h"
#include "os/summary_format.h"

namespace os {
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
void write_config_differences(std::ostream& out, const std::string& dir_a, const std::string& dir_b) {
  RunRecord a, b;
  try {
    a = read_run_record((fs::path(dir_a) / "config.yaml").string());
    b = read_run_record((fs::path(dir_b) / "config.yaml").string());
  } catch (const std::runtime_error& e) {
    out << "Configuration: not compared (" << e.what() << ")\n\n";
    return;
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
    out << "Configuration: the same (every key of config.yaml)\n\n";
    return;
  }
  out << "Configuration: the keys that differ (config.yaml)\n";
  write_table(out, rows, "  ", "lll");
  out << "\n";
}

// An array element's name: its first string member when every element has a
// different one (a lock's or a device's name), else its index.
std::vector<std::string> element_labels(const json& array) {
  std::vector<std::string> labels;
  std::set<std::string> seen;
  for (const json& e : array) {
    std::string label;
    if (e.is_object())
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

std::string number_text(double v) {
  if (std::isnan(v)) return "-";
  if (v == std::floor(v) && std::fabs(v) < 1e18) return summary_format::grouped(uint64_t(std::fabs(v))).insert(0, v < 0 ? "-" : "");
  return fmt::format("{:.6g}", v);
}

std::string ratio_text(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || (a == 0 && b == 0)) return "-";
  if (a == 0) return "n/a";
  return fmt::format("{:.3f}", b / a);
}

// The report's figures that differ between the runs, and how many are the same.
void write_report_differences(std::ostream& out, const std::string& name, const json& a, const json& b) {
  std::map<std::string, double> na, nb;
  numbers(a, "", na);
  numbers(b, "", nb);
  std::set<std::string> keys;
  for (const auto& [k, v] : na) keys.insert(k);
  for (const auto& [k, v] : nb) keys.insert(k);
  std::vector<std::vector<std::string>> rows = {{"FIGURE", "A", "B", "B/A"}};
  size_t same = 0;
  for (const std::string& k : keys) {
    const double va = na.count(k) ? na[k] : NAN, vb = nb.count(k) ? nb[k] : NAN;
    if (va == vb) {
      ++same;
      continue;
    }
    rows.push_back({k, number_text(va), number_text(vb), ratio_text(va, vb)});
  }
  out << "\n" << name << ": " << rows.size() - 1 << " figures differ, " << same << " the same\n";
  if (rows.size() > 1) write_table(out, rows, "  ", "lrrr");
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

}  // namespace

int compare_runs(const std::string& dir_a, const std::string& dir_b) {
  try {
    RunSummary a = read_summary_json((fs::path(dir_a) / "summary.json").string());
    RunSummary b = read_summary_json((fs::path(dir_b) / "summary.json").string());
    write_config_differences(std::cout, dir_a, dir_b);
    write_comparison(std::cout, dir_a, a, dir_b, b);
    for (const char* name : kReports) {
      json ja, jb;
      const bool in_a = read_json(fs::path(dir_a) / name, ja), in_b = read_json(fs::path(dir_b) / name, jb);
      if (in_a && in_b) write_report_differences(std::cout, name, ja, jb);
      else if (in_a || in_b) std::cout << "\n" << name << ": only in " << (in_a ? "A" : "B") << "\n";
    }
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  } catch (const json::exception& e) {
    fmt::print(stderr, "tpfemu: compare: a report is not as tpfemu writes it: {}\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace os
