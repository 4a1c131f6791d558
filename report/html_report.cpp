#include "report/html_report.h"

#include <algorithm>
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

// The reports a page shows, in the order it shows them, with their headings. The
// summary and the timeline have charts of their own besides their tables.
struct Report {
  const char* file;
  const char* title;
};
constexpr Report kReports[] = {
    {"summary.json", "Summary"},           {"etim.json", "ETIM instruction-count profile"},
    {"heap.json", "ECB heap"},             {"locks.json", "Locks and syslog"},
    {"paging.json", "Paging"},             {"svcdump.json", "SVC dumps"},
    {"sadmp.json", "Stand-alone dump"},
    {"rmfstorf.json", "RMF Monitor III STORF (storage frames by job, per interval)"},
    {"rmfpgsp.json", "RMF Monitor II PGSP (page data set activity, per interval)"},
    {"rmfcpu.json", "RMF CPU Activity (busy by I-stream, per interval)"},
    {"rmfwlm.json", "RMF Workload Activity (by ECB program)"}, {"rmfdev.json", "RMF Device Activity (IOSQ, PEND, DISC, CONN)"},
    {"smf30.json", "SMF type 30 step record"},
    {"devices.json", "Devices (Flash Express, DASD)"}, {"lestorage.json", "LE storage"},
    {"fetch.json", "Program fetch"},       {"timeline.json", "Timeline (per interval of simulated time)"},
};

std::optional<Json> read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", path.string(), e.what()));
  }
}

std::string stem(const char* file) { return fs::path(file).stem().string(); }

// A member's unit: its own name's, else its object's (cycles_by_cause.instruction: cycles).
std::string unit(std::string_view key, std::string_view parent) {
  std::string u = unit_of(key);
  return u.empty() ? unit_of(parent) : u;
}

Cell cell(const Json& v, std::string_view key, std::string_view parent) {
  if (!v.is_number()) return cell_of(v, key);
  return Cell{number_text(v.get<double>(), unit(key, parent)), true, v.get<double>()};
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
  for (const auto& [k, sub] : cols) t.header.push_back(sub.empty() ? k : k + "." + sub);
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
      row.push_back(v ? cell(*v, sub.empty() ? k : sub, k) : text_cell("-"));
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

// A report as tables: its scalar figures, then one table per object or array member.
std::string report_tables(const std::string& name, const Json& report) {
  Table figures{name, {"figure", "value"}};
  std::string rest;
  for (const auto& [k, v] : report.items()) {
    if (is_scalar(v)) {
      figures.rows.push_back({text_cell(k), cell(v, k, "")});
      continue;
    }
    const std::string table = name + "." + k;
    rest += heading(3, table, k + (v.is_array() ? fmt::format(" ({} rows)", v.size()) : ""));
    rest += table_html(v.is_object() ? members_table(table, v, k) : array_table(table, k, v, report));
  }
  return table_html(figures) + rest;
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
  const double messages = number(summary, "messages");
  if (messages > 0)
    out += report_svg::stacked_bars({"cycles-per-message", "Cycles by cause, a message (the run's over its messages)",
                                     "cycles", {"a message"}, causes, {cause_values(all, causes, messages)}});
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

// ETIM's programs: the rows' counts, executions and cycles summed per program, most
// counted first; a click on one filters the displacements below to it.
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
  Table t{"etim.programs", {"prog", "count (" + count_is + ")", "executions", "cycles", "rows (displacements)"}};
  t.filter = "programs";
  for (const std::string& p : order)
    t.rows.push_back({text_cell(p), Cell{number_text(by[p][0], count_is), true, by[p][0]},
                      Cell{number_text(by[p][1], "executions"), true, by[p][1]},
                      Cell{number_text(by[p][2], "cycles"), true, by[p][2]}, Cell{number_text(by[p][3]), true, by[p][3]}});
  return heading(3, "etim.programs", "Programs") +
         "<p>Filter by program: <input data-filter=\"programs\" placeholder=\"program name\"></p>\n" + table_html(t);
}

std::string headline(const Json& summary) {
  std::string out = fmt::format("<h1>tpfemu run: {}</h1>\n", escape(summary.value("config", std::string("(no configuration)"))));
  if (!summary.contains("headline") || !summary["headline"].is_object()) return out;
  const Json& h = summary["headline"];
  out += fmt::format("<p class=\"headline\" data-headline=\"{}\"><b>{}</b>: {}</p>\n", escape(h.value("key", std::string())),
                     escape(h.value("label", std::string())),
                     escape(h.contains("value") && h["value"].is_number() ? number_text(h["value"].get<double>()) : "n/a"));
  if (h.contains("reason") && h["reason"].is_string())
    out += "<p class=\"note\">" + escape(h["reason"].get<std::string>()) + "</p>\n";
  return out;
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
    if (run.is_number() && doc != 0) ratio = Cell{fmt::format("{:.3f}", run.get<double>() / doc), true, run.get<double>() / doc};
    t.rows.push_back({text_cell(f.value("label", key)),
                      run.is_number() ? Cell{number_text(run.get<double>(), unit), true, run.get<double>()} : text_cell("-"),
                      Cell{number_text(doc, unit), true, doc}, ratio});
  }
  return heading(2, "document", fmt::format("{}: beside the document ({})", entry.value("experiment", std::string()),
                                            entry.value("source", std::string()))) +
         table_html(t) + "<p class=\"note\">The document's figures: configs/document-figures.json; the experiment: " +
         escape(entry.value("document", std::string())) + ".</p>\n";
}

std::string nav(const std::vector<std::pair<std::string, std::string>>& links) {
  std::string out = "<nav>";
  for (const auto& [id, title] : links) out += fmt::format("<a href=\"#{}\">{}</a>", escape(id), escape(title));
  return out + "</nav>\n";
}

}  // namespace

std::string run_report(const fs::path& run_dir) {
  const std::optional<Json> summary = read_json(run_dir / "summary.json");
  if (!summary) throw std::runtime_error(fmt::format("{}: not a run folder (no summary.json)", run_dir.string()));
  if (!summary->is_object()) throw std::runtime_error(fmt::format("{}: not a run's summary", (run_dir / "summary.json").string()));
  std::string body = headline(*summary) + document_figures(*summary);
  std::vector<std::pair<std::string, std::string>> links;
  for (const Report& r : kReports) {
    const std::optional<Json> j = r.file == std::string("summary.json") ? summary : read_json(run_dir / r.file);
    if (!j) continue;
    if (!j->is_object()) throw std::runtime_error(fmt::format("{}: not a tpfemu report", (run_dir / r.file).string()));
    const std::string id = stem(r.file);
    if (id == "timeline") body += timeline_charts(*j);
    body += heading(2, id, fmt::format("{} ({})", r.title, r.file));
    if (id == "etim") body += etim_programs(*j);
    body += report_tables(id, *j);
    links.emplace_back(id, r.title);
    if (id == "summary") {
      body += cause_charts(*j);
      links.emplace_back("cycles", "Cycles by cause");
    }
  }
  return page_html("tpfemu run: " + summary->value("config", run_dir.string()), nav(links) + body);
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
