#include "report/html_writer.h"

#include <array>
#include <cmath>
#include <fmt/format.h>
#include <utility>

#include "config/number_text.h"

namespace report_html {

namespace {

bool ends_with(std::string_view s, std::string_view tail) { return s.size() >= tail.size() && s.ends_with(tail); }
bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The page's own script: a click on a sortable table's heading sorts its rows by that
// column (numbers by value, from data-v; a second click reverses); typing in a filter box
// hides the rows of the tables it names whose first cell does not contain the text.
constexpr const char* kScript = R"(
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () {
    var table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
    var down = th.getAttribute('data-sorted') !== 'down';
    table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('data-sorted'); });
    th.setAttribute('data-sorted', down ? 'down' : 'up');
    var key = function (tr) {
      var td = tr.cells[col];
      if (!td) return '';
      var v = td.getAttribute('data-v');
      return v === null ? td.textContent : parseFloat(v);
    };
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a), y = key(b), c = x < y ? -1 : x > y ? 1 : 0;
      return down ? -c : c;
    });
    rows.forEach(function (tr) { body.appendChild(tr); });
  });
});
document.querySelectorAll('input[data-filter]').forEach(function (box) {
  box.addEventListener('input', function () {
    var text = box.value.toLowerCase();
    document.querySelectorAll('table[data-filtered-by="' + box.getAttribute('data-filter') + '"] tbody tr')
      .forEach(function (tr) {
        tr.hidden = text !== '' && tr.cells[0].textContent.toLowerCase().indexOf(text) < 0;
      });
  });
});
)";

constexpr const char* kStyle = R"(
body { font: 14px/1.4 sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 2px 8px; }
th { background: #f3f3f3; text-align: left; }
table.sortable th { cursor: pointer; }
th[data-sorted=down]::after { content: " \25BC"; } th[data-sorted=up]::after { content: " \25B2"; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.headline { font-size: 1.3em; margin: 0.5em 0; }
.note { color: #555; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
svg { background: #fff; border: 1px solid #eee; }
svg text { font: 11px sans-serif; fill: #333; }
nav a { margin-right: 1em; }
)";

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string unit_of(std::string_view key) {
  // Suffixes first: they say the unit exactly (page_in_mean_us, response_ms); a rate's
  // before a time's (messages_per_s is not in seconds).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kSuffixes = {{
      {"per_s", "/s"}, {"per_second", "/s"}, {"_ns", "ns"}, {"_us", "µs"}, {"_ms", "ms"}, {"_s", "s"},
      {"seconds", "s"}, {"_percent", "%"}, {"percent", "%"}, {"_kb", "KB"}, {"_k", "KB"}, {"_mb", "MB"},
      {"_bytes", "bytes"}, {"_pages", "pages"},
  }};
  for (const auto& [tail, unit] : kSuffixes)
    if (ends_with(key, tail)) return std::string(unit);
  if (has(key, "_ms_") || key.starts_with("ms_") || key == "ms") return "ms";
  if (key == "kb") return "KB";
  // Then the words that name what is counted (hold_cycles, bytes_read, frames64).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kWords = {{
      {"cycles", "cycles"}, {"bytes", "bytes"}, {"utilization", "fraction"}, {"instructions", "instructions"},
      {"frames", "frames"},
  }};
  for (const auto& [word, unit] : kWords)
    if (has(key, word)) return std::string(unit);
  return "";
}

std::string number_text(double value, std::string_view unit) {
  if (!std::isfinite(value)) return "n/a";
  std::string text;
  if (value == std::floor(value) && std::fabs(value) < 1e18)
    text = (value < 0 ? "-" : "") + cfg::grouped(uint64_t(std::fabs(value)));
  else text = cfg::grouped_fixed(value, std::fabs(value) < 1 ? 6 : 3);
  if (unit.empty()) return text;
  return text + (unit == "%" ? "" : " ") + std::string(unit);
}

std::string value_text(const Json& value, std::string_view key) {
  if (value.is_number()) return number_text(value.get<double>(), unit_of(key));
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "n/a";
  return report_json::inline_text(value);
}

Cell cell_of(const Json& value, std::string_view key) {
  Cell c{value_text(value, key)};
  if (value.is_number()) {
    c.numeric = true;
    c.sort = value.get<double>();
  }
  return c;
}

Cell text_cell(std::string text) { return Cell{std::move(text)}; }

std::string table_html(const Table& table) {
  std::string out = fmt::format("<table data-table=\"{}\"", escape(table.name));
  if (table.sortable) out += " class=\"sortable\"";
  if (!table.filter.empty()) out += fmt::format(" data-filtered-by=\"{}\"", escape(table.filter));
  out += ">\n<thead><tr>";
  for (const std::string& h : table.header) out += "<th>" + escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const Cell& c : row) {
      if (c.numeric) out += fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", c.sort, escape(c.text));
      else out += "<td>" + escape(c.text) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

std::string heading(int level, std::string_view id, std::string_view text) {
  return fmt::format("<h{0} id=\"{1}\">{2}</h{0}>\n", level, escape(id), escape(text));
}

std::string page_html(std::string_view title, std::string_view body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n{}<script>{}</script>\n</body>\n</html>\n",
      escape(title), kStyle, body, kScript);
}

}  // namespace report_html
