#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include "report/documents.h"
#include "report/html_writer.h"
#include "report/svg.h"

namespace report_html {

namespace {

namespace fs = std::filesystem;

// The reports a page shows after its charts, in the order it shows them: the summary,
// ETIM, then each subsystem's report as the subsystem writes it for people (its text
// twin, `text`, in its own layout: RPTSTG, paging's D ASM and RMF's page data sets, RMF's
// monitors, fetch.txt, the locks), its JSON's members as tables folded below it. A
// report a subsystem adds is one line here (rmfcpu's shows how); the page draws it
// from its files alone.
struct Report {
  const char* file;  // the JSON
  const char* text;  // its text twin
  const char* title;
};
constexpr Report kReports[] = {
    {"summary.json", "summary.txt", "Run summary"},
    {"etim.json", "etim.txt", "ETIM instruction-count profile"},
    {"lestorage.json", "lestorage.txt", "LE storage report (RPTSTG)"},
    {"paging.json", "paging.txt", "Paging (D ASM, RMF page data set activity)"},
    {"rmfstorf.json", "rmfstorf.txt", "RMF Monitor III STORF (storage frames by job, per interval)"},
    {"rmfpgsp.json", "rmfpgsp.txt", "RMF Monitor II PGSP (page data set activity, per interval)"},
    {"rmfcpu.json", "rmfcpu.txt", "RMF CPU Activity (busy by I-stream, per interval)"},
    {"rmfwlm.json", "rmfwlm.txt", "RMF Workload Activity (by ECB program)"},
    {"rmfdev.json", "rmfdev.txt", "RMF Device Activity (IOSQ, PEND, DISC, CONN)"},
    {"smf30.json", "smf30.txt", "SMF type 30 step record"},
    {"fetch.json", "fetch.txt", "Program fetch"},
    {"locks.json", "locks.txt", "Locks and syslog"},
    {"heap.json", "heap.txt", "ECB heap"},
    {"devices.json", "devices.txt", "Devices (Flash Express, DASD)"},
    {"svcdump.json", "svcdump.txt", "SVC dumps"},
    {"sadmp.json", "sadmp.txt", "Stand-alone dump"},
    {"timeline.json", "timeline.txt", "Timeline (per interval of simulated time)"},
};

// ETIM's displacements shown before the rest of the page; every row is at its end.
constexpr size_t kEtimTopRows = 25;

std::optional<Json> read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", path.string(), e.what()));
  }
}

// A text report as the run wrote it; nullopt when the run wrote none.
std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string stem(const char* file) { return fs::path(file).stem().string(); }

// A member's unit: its own name's, else its object's (cycles_by_cause.instruction: cycles).
std::string unit(std::string_view key, std::string_view parent) {
  std::string u = unit_of(key);
  return u.empty() ? unit_of(parent) : u;
}

// A value in a cell: as cell_of (hex, ***, lists), a plain number with its unit, or
// without it when its column's heading names it (`bare`).
Cell cell(const Json& v, std::string_view key, std::string_view parent, bool bare = false) {
  if (!v.is_number() || is_hex_key(key) || (key == "istream" && v.get<double>() == -1)) return cell_of(v, key);
  return Cell{number_text(v.get<double>(), bare ? "" : unit(key, parent)), true, v.get<double>()};
}

// The unit a column's heading names, so that its cells need not repeat it: cycles,
// bytes, ms, ...; not a percentage or a fraction (a cell says "%" itself) nor hex.
std::string heading_unit(std::string_view key, std::string_view parent) {
  const std::string u = unit(key, parent);
  return u == "fraction" || u == "%" || is_hex_key(key) ? "" : u;
}

bool is_scalar(const Json& v) { return !v.is_object() && !v.is_array(); }

// An object's members, a row each: figure, value with its unit.
Table members_table(const std::string& name, const Json& object, std::string_view parent) {
  Table t{name, {"figure", "value"}};
  for (const auto& [k, v] : object.items()) t.rows.push_back({text_cell(k), cell(v, k, parent)});
  return t;
}

// The columns of an array of objects: every member in the order first seen, an object
// of numbers spread into a column per member (istreams' cycles_by_cause.instruction).
std::vector<std::pair<std::string, std::string>> columns_of(const Json& array) {
  std::vector<std::pair<std::string, std::string>> cols;  // (member, sub-member or "")
  auto add = [&](std::string k, std::string sub) {
    if (std::find(cols.begin(), cols.end(), std::pair(k, sub)) == cols.end()) cols.emplace_back(k, sub);
  };
  for (const Json& e : array)
    for (const auto& [k, v] : e.items()) {
      if (v.is_object() && !v.empty() && std::all_of(v.begin(), v.end(), is_scalar))
        for (const auto& [sub, x] : v.items()) add(k, sub);
      else add(k, "");
    }
  // ETIM's rows (and any with a program) lead with it: the page filters on the first column.
  auto prog = std::find(cols.begin(), cols.end(), std::pair<std::string, std::string>("prog", ""));
  if (prog != cols.end()) std::rotate(cols.begin(), prog, prog + 1);
  return cols;
}

Table objects_table(const std::string& name, const Json& array) {
  const auto cols = columns_of(array);
  Table t{name};
  for (const auto& [k, sub] : cols) {
    const std::string u = sub.empty() ? heading_unit(k, "") : heading_unit(sub, k);
    t.header.push_back((sub.empty() ? k : k + "." + sub) + (u.empty() ? "" : " (" + u + ")"));
  }
  // Rows with no name of their own (the I-streams) get their index.
  const bool numbered = cols.empty() || !(array[0].contains(cols.front().first) && array[0][cols.front().first].is_string());
  if (numbered) t.header.insert(t.header.begin(), "#");
  if (!cols.empty() && cols.front().first == "prog") t.filter = "programs";
  for (const Json& e : array) {
    std::vector<Cell> row;
    if (numbered) row.push_back(Cell{std::to_string(t.rows.size()), true, double(t.rows.size())});
    for (const auto& [k, sub] : cols) {
      const Json* v = e.contains(k) ? &e[k] : nullptr;
      if (v && !sub.empty()) v = v->is_object() && v->contains(sub) ? &(*v)[sub] : nullptr;
      row.push_back(v ? cell(*v, sub.empty() ? k : sub, k, true) : text_cell("-"));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Rows of numbers under their column names (the timeline's "columns" and "rows").
Table arrays_table(const std::string& name, const Json& array, const Json& columns) {
  Table t{name};
  size_t width = 0;
  for (const Json& e : array) width = std::max(width, e.size());
  for (size_t i = 0; i < width; ++i)
    t.header.push_back(i < columns.size() && columns[i].is_string() ? columns[i].get<std::string>() : std::to_string(i));
  for (const Json& e : array) {
    std::vector<Cell> row;
    for (size_t i = 0; i < e.size(); ++i) row.push_back(cell(e[i], t.header[i], ""));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Intervals that each hold rows of their own (RMF's monitors: an interval's jobs, its
// data sets) as one table: a row per inner row, led by its interval's scalar members;
// nullopt if not so.
std::optional<Json> flattened(const Json& array) {
  std::optional<Json> rows;
  for (const Json& e : array) {
    if (!e.is_object()) return std::nullopt;
    const Json* inner = nullptr;
    Json lead = Json::object();
    for (const auto& [k, v] : e.items()) {
      if (v.is_array() && !inner && std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_object(); }))
        inner = &v;
      else if (is_scalar(v)) lead[k] = v;
      else return std::nullopt;
    }
    if (!inner) return std::nullopt;
    if (!rows) rows = Json::array();
    for (const Json& r : *inner) {
      Json row = lead;
      for (const auto& [k, v] : r.items()) row[k] = v;
      rows->push_back(std::move(row));
    }
  }
  return rows;
}

Table array_table(const std::string& name, const std::string& key, const Json& array, const Json& report) {
  if (key == "intervals")
    if (const std::optional<Json> rows = flattened(array)) return objects_table(name, *rows);
  if (std::any_of(array.begin(), array.end(), [](const Json& e) { return e.is_object(); }))
    return objects_table(name, array);
  if (std::any_of(array.begin(), array.end(), [](const Json& e) { return e.is_array(); }))
    return arrays_table(name, array, report.contains("columns") ? report["columns"] : Json::array());
  Table t{name, {"#", key}};
  for (size_t i = 0; i < array.size(); ++i) t.rows.push_back({Cell{std::to_string(i), true, double(i)}, cell(array[i], key, "")});
  return t;
}

// A report as tables: its scalar figures, then one table per object or array member
// but those named in `elsewhere` (shown by a part of the page of their own).
std::string report_tables(const std::string& name, const Json& report, const std::vector<std::string>& elsewhere = {}) {
  Table figures{name, {"figure", "value"}};
  std::string rest;
  for (const auto& [k, v] : report.items()) {
    if (std::find(elsewhere.begin(), elsewhere.end(), k) != elsewhere.end()) continue;
    if (is_scalar(v)) {
      figures.rows.push_back({text_cell(k), cell(v, k, "")});
      continue;
    }
    const std::string table = name + "." + k;
    rest += heading(3, table, k + (v.is_array() ? fmt::format(" ({} rows)", v.size()) : ""));
    rest += table_html(v.is_object() ? members_table(table, v, k) : array_table(table, k, v, report));
  }
  // A report of lists only (lestorage.json's enclaves) has no figures of its own: no empty table.
  return (figures.rows.empty() ? "" : table_html(figures)) + rest;
}

double number(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

// The causes (summary.json's order) and one bar of their cycles.
std::vector<double> cause_values(const Json& by_cause, const std::vector<std::string>& causes, double divide) {
  std::vector<double> v;
  for (const std::string& c : causes) v.push_back(number(by_cause, c.c_str()) / divide);
  return v;
}

// Cycles by cause as stacked bars: the run's, each I-stream's (beside each other, on
// their own scale), a message's.
std::string cause_charts(const Json& summary) {
  if (!summary.contains("cycles_by_cause") || !summary["cycles_by_cause"].is_object()) return "";
  const Json& all = summary["cycles_by_cause"];
  std::vector<std::string> causes;
  for (const auto& [k, v] : all.items()) causes.push_back(k);
  std::string out = heading(2, "cycles", "Cycles by cause") +
                    report_svg::stacked_bars({"cycles-by-cause", "Cycles by cause, the run (every I-stream)", "cycles",
                                              {"the run"}, causes, {cause_values(all, causes, 1)}});
  report_svg::StackedBars istreams{"cycles-by-cause-istreams", "Cycles by cause, each I-stream", "cycles", {}, causes};
  if (summary.contains("istreams") && summary["istreams"].is_array())
    for (size_t i = 0; i < summary["istreams"].size(); ++i) {
      const Json& s = summary["istreams"][i];
      if (!s.is_object() || !s.contains("cycles_by_cause")) continue;
      istreams.labels.push_back(fmt::format("I-stream {}", i));
      istreams.values.push_back(cause_values(s["cycles_by_cause"], causes, 1));
    }
  if (!istreams.labels.empty()) out += report_svg::stacked_bars(istreams);
  // A message's bar leaves the machine's waiting out: idle, and page_wait (an I-stream
  // idle while an ECB waits for a page-in, which the summary counts as idle too). That
  // time is no message's CPU, and would make the bar longer the less the machine did.
  const double messages = number(summary, "messages");
  if (messages > 0) {
    const auto waiting = [](const std::string& c) { return c == "idle" || c == "page_wait"; };
    std::vector<std::string> busy_causes;
    std::copy_if(causes.begin(), causes.end(), std::back_inserter(busy_causes),
                 [&](const std::string& c) { return !waiting(c); });
    out += report_svg::stacked_bars({"cycles-per-message",
                                     "Cycles by cause, a message (the run's cycles but idle and page_wait over its messages)",
                                     "cycles", {"a message"}, busy_causes, {cause_values(all, busy_causes, messages)}});
    const double idle = number(all, "idle") + number(all, "page_wait");
    out += fmt::format("<p class=\"note\">A message's bar leaves the machine's waiting out: the run's {} idle cycles "
                       "({} of all{}) are no message's.</p>\n",
                       number_text(idle), percent_text(idle / std::max(1.0, number(summary, "cycles"))),
                       number(all, "page_wait") > 0
                           ? fmt::format(", {} of them page_wait", number_text(number(all, "page_wait")))
                           : std::string());
  }
  return out;
}

// One small line chart per series of the timeline, over simulated time.
std::string timeline_charts(const Json& timeline) {
  if (!timeline.contains("columns") || !timeline.contains("rows")) return "";
  const Json& cols = timeline["columns"];
  std::string out = heading(2, "timeline-charts", "Timeline") + "<div class=\"charts\">\n";
  for (size_t c = 1; c < cols.size(); ++c) {
    const std::string col = cols[c].get<std::string>();
    report_svg::Line line{"timeline-" + col, col, unit_of(cols[0].get<std::string>()), unit_of(col)};
    for (const Json& r : timeline["rows"])
      if (r.is_array() && r.size() > c && r[0].is_number() && r[c].is_number()) {
        line.x.push_back(r[0].get<double>());
        line.y.push_back(r[c].get<double>());
      }
    out += report_svg::line_chart(line);
  }
  return out + "</div>\n";
}

// A count's share of ETIM's total, as etim.txt's PCT.
Cell share_cell(double count, double total) {
  return total > 0 ? Cell{fmt::format("{:.2f}%", 100 * count / total), true, count / total} : text_cell("-");
}

// ETIM's programs: the rows' counts, executions and cycles summed per program, most
// counted first, with their share of the samples; a click on one filters the tables
// below to it.
std::string etim_programs(const Json& etim) {
  if (!etim.contains("rows") || !etim["rows"].is_array()) return "";
  std::vector<std::string> order;
  std::map<std::string, std::array<double, 4>> by;  // count, executions, cycles, rows
  for (const Json& r : etim["rows"]) {
    const std::string p = r.contains("prog") && r["prog"].is_string() ? r["prog"].get<std::string>() : "-";
    if (!by.count(p)) order.push_back(p);
    auto& t = by[p];
    t[0] += number(r, "count"), t[1] += number(r, "executions"), t[2] += number(r, "cycles"), t[3] += 1;
  }
  std::stable_sort(order.begin(), order.end(), [&](const auto& x, const auto& y) { return by[x][0] > by[y][0]; });
  const std::string count_is = etim.value("count_is", std::string("count"));
  const double total = number(etim, "total_count");
  Table t{"etim.programs", {"prog", "count (" + count_is + ")", "pct", "executions", "cycles", "rows (displacements)"}};
  t.filter = "programs";
  for (const std::string& p : order)
    t.rows.push_back({text_cell(p), Cell{number_text(by[p][0]), true, by[p][0]}, share_cell(by[p][0], total),
                      Cell{number_text(by[p][1]), true, by[p][1]}, Cell{number_text(by[p][2]), true, by[p][2]},
                      Cell{number_text(by[p][3]), true, by[p][3]}});
  return heading(3, "etim.programs", "Programs by count") +
         "<p>Filter by program: <input data-filter=\"programs\" placeholder=\"program name\"></p>\n" + table_html(t);
}

// ETIM's samples by the ECB program in control, as etim.txt's BY ECB PROGRAM: each
// program's samples, their share, its I-streams' (IS 000 ...), and where they fell
// (segment, file, function) with their share of the program's.
std::string etim_by_program(const Json& etim) {
  if (!etim.contains("by_ecb_program") || !etim["by_ecb_program"].is_array() || etim["by_ecb_program"].empty()) return "";
  const Json& programs = etim["by_ecb_program"];
  size_t istreams = 0;
  for (const Json& p : programs)
    if (p.contains("by_istream") && p["by_istream"].is_array()) istreams = std::max(istreams, p["by_istream"].size());
  Table t{"etim.by_ecb_program", {"program", "samples", "pct"}};
  t.filter = "programs";
  for (size_t i = 0; i < istreams; ++i) t.header.push_back(fmt::format("IS {:03}", i));
  t.header.push_back("where its samples fell");
  const double total = number(etim, "total_count");
  for (const Json& p : programs) {
    const double samples = number(p, "samples");
    std::vector<Cell> row{p.contains("program") ? cell_of(p["program"], "program") : text_cell("-"),
                          Cell{number_text(samples), true, samples}, share_cell(samples, total)};
    for (size_t i = 0; i < istreams; ++i) {
      const bool there = p.contains("by_istream") && p["by_istream"].is_array() && i < p["by_istream"].size();
      row.push_back(there ? cell_of(p["by_istream"][i], "samples") : text_cell("-"));
    }
    Json places = Json::array();
    if (p.contains("places") && p["places"].is_array())
      for (const Json& place : p["places"]) {
        Json shown = place;
        if (samples > 0) shown["pct"] = fmt::format("{:.2f}%", 100 * number(place, "samples") / samples);
        places.push_back(std::move(shown));
      }
    row.push_back(places.empty() ? text_cell("-") : Cell{"", false, 0, inner_table_html(places)});
    t.rows.push_back(std::move(row));
  }
  return heading(3, "etim.by_ecb_program", "By ECB program, inclusive") +
         "<p class=\"note\">Each sample goes to the program in control of the running ECB, wherever it was: its own "
         "code and what it called (the heap, locks, the runtime).</p>\n" + table_html(t);
}

// ETIM's rows a table: program, I-stream (*** for several), displacement and address in
// hex, instruction, count with its share of the samples, executions, cycles.
Table etim_rows_table(const std::string& name, const std::vector<const Json*>& rows, double total) {
  Table t{name, {"prog", "ssu", "IS", "disp", "address", "inst", "count", "pct", "executions", "cycles"}};
  t.filter = "programs";
  for (const Json* r : rows) {
    auto field = [&](const char* key) { return r->contains(key) ? cell((*r)[key], key, key, true) : text_cell("-"); };
    t.rows.push_back({field("prog"), field("ssu"), field("istream"), field("disp"), field("address"), field("inst"),
                      field("count"), share_cell(number(*r, "count"), total), field("executions"), field("cycles")});
  }
  return t;
}

// The displacements counted most (kEtimTopRows of them), most first; every row is at
// the page's end.
std::string etim_top(const Json& etim) {
  if (!etim.contains("rows") || !etim["rows"].is_array()) return "";
  std::vector<const Json*> rows;
  for (const Json& r : etim["rows"]) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const Json* x, const Json* y) { return number(*x, "count") > number(*y, "count"); });
  if (rows.size() > kEtimTopRows) rows.resize(kEtimTopRows);
  const std::string count_is = etim.value("count_is", std::string("count"));
  return heading(3, "etim.top", fmt::format("The {} displacements counted most ({})", rows.size(), count_is)) +
         table_html(etim_rows_table("etim.top", rows, number(etim, "total_count"))) +
         fmt::format("<p>Every row ({}), and etim.txt as ETIM prints it: <a href=\"#etim-rows\">at the end of the page</a>.</p>\n",
                     etim["rows"].size());
}

// ETIM's every row and its text, folded at the page's end.
std::string etim_all(const Json& etim, const std::optional<std::string>& text) {
  if (!etim.contains("rows") || !etim["rows"].is_array()) return "";
  std::vector<const Json*> rows;
  for (const Json& r : etim["rows"]) rows.push_back(&r);
  std::string out = heading(2, "etim-all", fmt::format("ETIM, every row ({})", rows.size())) +
                    "<details id=\"etim-rows\"><summary>etim.json's rows as a table, in etim.txt's order</summary>\n" +
                    table_html(etim_rows_table("etim.rows", rows, number(etim, "total_count"))) + "</details>\n";
  if (text) out += "<details id=\"etim-text\"><summary>etim.txt</summary>\n" + text_report_html("etim.txt", *text) + "</details>\n";
  return out;
}

std::string headline(const Json& summary) {
  std::string out = fmt::format("<h1>tpfemu run: {}</h1>\n", escape(summary.value("config", std::string("(no configuration)"))));
  if (!summary.contains("headline") || !summary["headline"].is_object()) return out;
  const Json& h = summary["headline"];
  out += fmt::format("<p class=\"headline\" data-headline=\"{}\"><b>{}</b> {}</p>\n<div class=\"headline-lines\">\n",
                     escape(h.value("key", std::string())),
                     escape(h.contains("value") && h["value"].is_number() ? shortest_text(h["value"].get<double>()) : "n/a"),
                     escape(h.value("label", std::string())));
  auto line = [&](const char* name, const std::string& text) {
    out += fmt::format("<div><b>{}</b> {}</div>\n", name, escape(text));
  };
  if (h.contains("detail") && h["detail"].is_string()) line("with", h["detail"].get<std::string>());
  if (h.contains("document") && h["document"].is_object()) {
    const Json& d = h["document"];
    line("document", (d.contains("value") && d["value"].is_number() ? shortest_text(d["value"].get<double>()) : "n/a") +
                         " (" + d.value("source", std::string()) + ")");
  }
  if (h.contains("reason") && h["reason"].is_string())
    line("chosen", h.value("key", std::string()) + ": " + h["reason"].get<std::string>());
  return out + "</div>\n";
}

// The run's figure beside the source document's, when the run is an experiment's
// configuration (configs/document-figures.json): this run, the document, their ratio.
std::string document_figures(const Json& summary) {
  const Json entry = document_entry(summary.value("config", std::string()));
  if (entry.is_null()) return "";
  Table t{"document", {"figure", "this run", "the document", "run / document"}, {}, false};
  for (const Json& f : entry["figures"]) {
    const std::string key = f["key"].get<std::string>(), unit = f.value("unit", std::string());
    const Json& h = summary.contains("headline") ? summary["headline"] : Json::object();
    const Json run = h.value("key", std::string()) == key ? h.value("value", Json()) : summary.value(key, Json());
    const double doc = f["value"].get<double>();
    Cell ratio = text_cell("-");
    if (run.is_number() && doc != 0) {
      const double r = run.get<double>() / doc;  // far below 1 (a short run): its two significant digits
      ratio = Cell{std::fabs(r) >= 0.1 ? fmt::format("{:.3f}", r) : fmt::format("{:.2g}", r), true, r};
    }
    // As the run and the document write them (0.0244 s, 15.44 s), a fraction as a percentage.
    auto figure = [&](double v) {
      return Cell{unit == "fraction" ? percent_text(v) : shortest_text(v) + (unit.empty() || unit == "%" ? "" : " ") + unit,
                  true, v};
    };
    t.rows.push_back({text_cell(f.value("label", key)), run.is_number() ? figure(run.get<double>()) : text_cell("-"),
                      figure(doc), ratio});
  }
  return heading(2, "document", fmt::format("{}: beside the document ({})", entry.value("experiment", std::string()),
                                            entry.value("source", std::string()))) +
         table_html(t) + "<p class=\"note\">The document's figures: configs/document-figures.json; the experiment: " +
         escape(entry.value("document", std::string())) + ".</p>\n";
}

// A run of a study's sweep (RUN_DIR = SWEEP/runs/NAME) whose script wrote
// SWEEP/study.json (scripts/experiment-paging's E3 spread): the study's figures for this
// run's row (its median, min, max and the document's) beside this run's own. The study
// file is the one place these figures are written; "" when there is none or it does not
// name this run.
std::string study_figures(const fs::path& run_dir) {
  const fs::path path = run_dir.parent_path().parent_path() / "study.json";
  const std::optional<Json> study = read_json(path);
  if (!study) return "";
  const std::string name = run_dir.filename().string();
  if (!study->is_object() || !study->contains("runs") || !(*study)["runs"].is_object() ||
      !(*study)["runs"].contains(name))
    return "";
  const Json& run = (*study)["runs"][name];
  if (!run.contains("rows") || !run["rows"].is_array() || !run.contains("this_run") || !run["this_run"].is_array() ||
      !study->contains("columns") || !(*study)["columns"].is_array())
    throw std::runtime_error(fmt::format("{}: {}: no \"rows\" and \"this_run\" arrays, or no \"columns\"", path.string(), name));
  Table t{"study", {}, {}, false};
  for (const Json& c : (*study)["columns"]) t.header.push_back(c.is_string() ? c.get<std::string>() : "");
  t.header.insert(t.header.begin() + 1, "this run");
  auto figure = [](const Json& v) { return v.is_number() ? Cell{shortest_text(v.get<double>()), true, v.get<double>()} : text_cell("n/a"); };
  for (size_t k = 0; k < run["rows"].size(); ++k) {
    const Json& r = run["rows"][k];
    if (!r.is_array() || r.empty()) continue;
    std::vector<Cell> cells = {text_cell(r[0].is_string() ? r[0].get<std::string>() : "")};
    cells.push_back(figure(k < run["this_run"].size() ? run["this_run"][k] : Json()));
    for (size_t c = 1; c < r.size(); ++c) cells.push_back(figure(r[c]));
    t.rows.push_back(std::move(cells));
  }
  return heading(2, "study", fmt::format("{}: {}", study->value("title", std::string("the study")),
                                         run.value("row", std::string()))) +
         table_html(t) + "<p class=\"note\">" + escape(study->value("note", std::string())) + " The study's file: " +
         escape(path.string()) + ".</p>\n";
}

// The operator's commands and what the console displayed for them (D ASM's IEE200I,
// D M, ...), as run.log holds them: a line "CYCLE operator: COMMAND" (or "operator
// console:" for one typed) and below it the display's lines, at the same cycle two
// spaces further in. Whatever command a subsystem adds shows here as the console
// showed it. At most kOperatorLines lines; "" when the run had no operator command.
constexpr size_t kOperatorLines = 4000;

std::string operator_displays(const std::optional<std::string>& run_log) {
  if (!run_log) return "";
  std::string out;
  size_t lines = 0;
  bool in_display = false;
  for (size_t at = 0; at < run_log->size() && lines < kOperatorLines;) {
    size_t end = run_log->find('\n', at);
    if (end == std::string::npos) end = run_log->size();
    const std::string_view line(run_log->data() + at, end - at);
    at = end + 1;
    // After the right-aligned cycle: "operator..." opens a command, "  ..." continues its display.
    const size_t digits = line.find_first_not_of(' ');
    const size_t after = digits == std::string_view::npos ? line.size() : line.find(' ', digits);
    const bool cycled = after != std::string_view::npos && after > digits &&
                        line.substr(digits, after - digits).find_first_not_of("0123456789") == std::string_view::npos;
    const std::string_view rest = cycled ? line.substr(after + 1) : std::string_view();
    if (cycled && rest.starts_with("operator")) in_display = true;
    else if (!(in_display && cycled && rest.starts_with("  "))) in_display = false;
    if (!in_display) continue;
    out += std::string(line) + "\n";
    ++lines;
  }
  if (out.empty()) return "";
  return heading(2, "operator", "Operator commands and the console's displays (run.log)") +
         "<p class=\"note\">Each command at its simulated time in cycles (run.log's CYCLE), then what the console "
         "displayed.</p>\n" + text_report_html("run.log#operator", out);
}

std::string contents(const std::vector<std::pair<std::string, std::string>>& links) {
  std::string out = "<nav id=\"contents\"><b>Contents</b>\n";
  for (const auto& [id, title] : links) out += fmt::format("<a href=\"#{}\">{}</a>\n", escape(id), escape(title));
  return out + "</nav>\n";
}

// A subsystem's (or the summary's) section: its text report as it writes it, then its
// JSON's members as tables, folded.
std::string report_section(const std::string& id, const Report& r, const Json& j, const std::optional<std::string>& text,
                           const std::vector<std::string>& elsewhere = {}) {
  std::string out;
  if (text) out += text_report_html(r.text, *text);
  return out + fmt::format("<details><summary>{} as tables</summary>\n", escape(r.file)) + report_tables(id, j, elsewhere) +
         "</details>\n";
}

}  // namespace

std::string run_report(const fs::path& run_dir) {
  const std::optional<Json> summary = read_json(run_dir / "summary.json");
  if (!summary) throw std::runtime_error(fmt::format("{}: not a run folder (no summary.json)", run_dir.string()));
  if (!summary->is_object()) throw std::runtime_error(fmt::format("{}: not a run's summary", (run_dir / "summary.json").string()));
  // Every report first, so that one that is not JSON stops the page before any is written.
  std::vector<std::pair<const Report*, Json>> reports;
  for (const Report& r : kReports) {
    std::optional<Json> j = r.file == std::string("summary.json") ? summary : read_json(run_dir / r.file);
    if (!j) continue;
    if (!j->is_object()) throw std::runtime_error(fmt::format("{}: not a tpfemu report", (run_dir / r.file).string()));
    reports.emplace_back(&r, std::move(*j));
  }
  const Json* timeline = nullptr;
  const Json* etim = nullptr;
  for (const auto& [r, j] : reports) {
    if (stem(r->file) == "timeline") timeline = &j;
    if (stem(r->file) == "etim") etim = &j;
  }

  // The headline and the document's figure, cycles by cause, the timeline's charts, then
  // the reports; ETIM's every row last.
  std::vector<std::pair<std::string, std::string>> links;
  std::string body = document_figures(*summary);
  if (!body.empty()) links.emplace_back("document", "Beside the document");
  if (std::string study = study_figures(run_dir); !study.empty()) {
    body += study;
    links.emplace_back("study", "The study's spread");
  }
  if (std::string charts = cause_charts(*summary); !charts.empty()) {
    body += charts;
    links.emplace_back("cycles", "Cycles by cause");
  }
  if (timeline)
    if (std::string charts = timeline_charts(*timeline); !charts.empty()) {
      body += charts;
      links.emplace_back("timeline-charts", "Timeline charts");
    }
  for (const auto& [r, j] : reports) {
    const std::string id = stem(r->file);
    const std::optional<std::string> text = read_text(run_dir / r->text);
    body += heading(2, id, fmt::format("{} ({})", r->title, text ? r->text : r->file));
    links.emplace_back(id, r->title);
    if (id == "etim") {
      body += etim_programs(j);
      body += etim_by_program(j);
      body += etim_top(j);
      body += "<details><summary>etim.json's figures as a table</summary>\n" +
              report_tables(id, j, {"rows", "by_ecb_program"}) + "</details>\n";
      continue;
    }
    body += report_section(id, *r, j, text);
  }
  if (std::string displays = operator_displays(read_text(run_dir / "run.log")); !displays.empty()) {
    body += displays;
    links.emplace_back("operator", "Operator commands");
  }
  if (etim) {
    body += etim_all(*etim, read_text(run_dir / "etim.txt"));
    links.emplace_back("etim-all", "ETIM, every row");
  }
  return page_html("tpfemu run: " + summary->value("config", run_dir.string()), headline(*summary) + contents(links) + body);
}

fs::path write_run_report(const fs::path& run_dir) {
  const std::string page = run_report(run_dir);
  const fs::path path = run_dir / "report.html";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << page;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
  return path;
}

}  // namespace report_html
