#include "report/comparison.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "report/html_writer.h"
#include "report/svg.h"

namespace report_html {

namespace {

// A line of compare's text without the blank lines around it.
std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == '\n' || s.front() == ' ')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  return std::string(s);
}

// The unit of a compared figure: its last name's (istreams[0].busy_cycles: cycles,
// heap.json's locks[syslog].hold_max_cycles: cycles).
std::string figure_unit(std::string_view figure) {
  const size_t dot = figure.find_last_of('.');
  std::string_view last = dot == std::string_view::npos ? figure : figure.substr(dot + 1);
  if (const size_t b = last.find('['); b != std::string_view::npos) last = last.substr(0, b);
  if (last.starts_with("cycles: ")) return "cycles";  // compare's "cycles: storage"
  return unit_of(last);
}

// A cell of compare's text: right-aligned columns are numbers, sorted by their value.
Cell text_as_cell(const std::string& text, bool number) {
  if (!number) return text_cell(text);
  std::string plain;
  for (char ch : text)
    if (ch != ',' && ch != '%' && ch != '+') plain += ch;
  char* end = nullptr;
  const double v = std::strtod(plain.c_str(), &end);
  if (plain.empty() || *end) return text_cell(text);
  return Cell{text, true, v};
}

std::string part_html(const ComparisonPart& p) {
  const std::string title = trimmed(p.lead);
  std::string out = p.rows.empty() ? "<p>" + escape(title) + "</p>\n" : heading(2, p.id, title);
  if (p.rows.empty()) return out;
  const bool named = p.align.starts_with('l') && p.id != "configuration";  // a figure a row: give its unit
  Table t{"compare." + p.id, p.rows[0]};
  if (named) t.header.insert(t.header.begin() + 1, "unit");
  std::vector<std::string> labels;
  for (size_t r = 1; r < p.rows.size(); ++r) {
    std::vector<Cell> row;
    for (size_t c = 0; c < p.rows[r].size(); ++c)
      row.push_back(text_as_cell(p.rows[r][c], c < p.align.size() && p.align[c] == 'r'));
    if (named) row.insert(row.begin() + 1, text_cell(figure_unit(p.rows[r][0])));
    t.rows.push_back(std::move(row));
    labels.push_back(p.align.starts_with('l') ? p.rows[r][0] : p.id);
  }
  out += table_html(t);
  bool any = false;
  for (double r : p.ratios) any = any || std::isfinite(r);
  if (any && p.ratios.size() == labels.size())
    out += report_svg::ratio_bars({"ratios-" + p.id, "B/A, " + title, labels, p.ratios});
  const std::string note = trimmed(p.trail);
  if (!note.empty()) out += "<p class=\"note\">" + escape(note) + "</p>\n";
  return out;
}

}  // namespace

std::string comparison_html(const Comparison& c) {
  std::string body = fmt::format("<h1>tpfemu: two runs side by side</h1>\n");
  // The runs, then what differs in how they were made, then what it did to the figures.
  for (const char* first : {"runs", "configuration"})
    for (const ComparisonPart& p : c.parts)
      if (p.id == first) body += p.id == "runs" ? "<pre data-runs>" + escape(trimmed(p.lead)) + "</pre>\n" : part_html(p);
  for (const ComparisonPart& p : c.parts)
    if (p.id != "runs" && p.id != "configuration") body += part_html(p);
  return page_html("tpfemu compare: " + c.dir_a + " and " + c.dir_b, body);
}

}  // namespace report_html
