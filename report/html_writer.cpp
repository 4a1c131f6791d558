#include "report/html_writer.h"

#include <algorithm>
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
document.querySelectorAll('table.sortable > thead th').forEach(function (th) {
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
// A link to a section folded away (ETIM's every row) opens it.
function openTarget() {
  var id = decodeURIComponent(location.hash.slice(1)), target = id && document.getElementById(id);
  for (var e = target; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true;
}
window.addEventListener('hashchange', openTarget);
openTarget();
)";

constexpr const char* kStyle = R"(
body { font: 14px/1.4 sans-serif; margin: 1.5em auto; max-width: 1320px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.05em; }
.box { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 2px 6px; vertical-align: top; }
th { background: #f3f3f3; text-align: left; }
table.sortable > thead th { cursor: pointer; }
th[data-sorted=down]::after { content: " \25BC"; } th[data-sorted=up]::after { content: " \25B2"; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.inner { margin: 0; font-size: 12px; } table.inner th, table.inner td { border-color: #eee; padding: 0 6px; }
pre.report { font: 12px/1.35 monospace; background: #fafafa; border: 1px solid #e4e4e4; padding: 0.5em;
             max-height: 60em; overflow: auto; margin: 0.5em 0 1em; }
.headline { font-size: 1.3em; margin: 0.5em 0 0.2em; }
.headline-lines { margin: 0 0 1em 1.5em; color: #333; } .headline-lines b { display: inline-block; min-width: 5em; }
.note { color: #555; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
svg { background: #fff; border: 1px solid #eee; max-width: 100%; height: auto; }
svg text { font: 11px sans-serif; fill: #333; }
nav#contents { background: #f7f7f7; border: 1px solid #e4e4e4; padding: 0.4em 0.8em; columns: 3; }
nav#contents a { display: block; }
details { margin: 0.5em 0 1em; } summary { cursor: pointer; color: #035; }
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

std::string percent_text(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  const double percent = fraction * 100;
  if (percent == 0) return "0%";
  if (std::fabs(percent) >= 0.1) return fmt::format("{:.1f}%", percent);
  // Below 0.1%: two significant digits (0.00039%), not a row of zeros.
  const int digits = std::min(12, 1 + int(std::ceil(-std::log10(std::fabs(percent)))));
  return fmt::format("{:.{}f}%", percent, digits);
}

std::string shortest_text(double value) {
  if (!std::isfinite(value)) return "n/a";
  if (value == std::floor(value) && std::fabs(value) < 1e18) return number_text(value);
  const std::string text = fmt::format("{}", std::fabs(value));  // the shortest that reads back
  const size_t point = text.find('.');
  if (point == std::string::npos || text.find('e') != std::string::npos) return fmt::format("{}", value);
  return (value < 0 ? "-" : "") + cfg::grouped(uint64_t(std::stoull(text.substr(0, point)))) + text.substr(point);
}

std::string number_text(double value, std::string_view unit) {
  if (!std::isfinite(value)) return "n/a";
  if (unit == "fraction") return percent_text(value);
  std::string text;
  if (value == std::floor(value) && std::fabs(value) < 1e18)
    text = (value < 0 ? "-" : "") + cfg::grouped(uint64_t(std::fabs(value)));
  else text = cfg::grouped_fixed(value, std::fabs(value) < 1 ? 6 : 3);
  if (unit.empty()) return text;
  return text + (unit == "%" ? "" : " ") + std::string(unit);
}

bool is_hex_key(std::string_view key) {
  return key == "address" || ends_with(key, "_address") || key == "disp" || key == "displacement" || key == "asid" ||
         ends_with(key, "_asid");
}

std::string hex_text(double value, std::string_view key) {
  if (!std::isfinite(value) || value < 0 || value != std::floor(value) || value >= 18446744073709551616.0)
    return number_text(value);
  const uint64_t v = uint64_t(value);
  const int digits = has(key, "address") ? (v > 0xFFFFFFFFull ? 16 : 8) : 4;
  return fmt::format("{:0{}X}", v, digits);
}

namespace {

// An I-stream number; -1 is "several" (ETIM's rows), printed *** as etim.txt does.
bool is_istream_key(std::string_view key) { return key == "istream" || key == "is"; }

std::string scalar_text(const Json& value, std::string_view key) {
  if (value.is_number()) {
    const double v = value.get<double>();
    if (is_istream_key(key) && v == -1) return "***";
    if (is_hex_key(key)) return hex_text(v, key);
    return number_text(v, unit_of(key));
  }
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  return "n/a";
}

}  // namespace

std::string value_text(const Json& value, std::string_view key) {
  if (!value.is_array() && !value.is_object()) return scalar_text(value, key);
  if (value.empty()) return "-";
  std::string out;
  if (value.is_array()) {
    for (const Json& e : value) out += (out.empty() ? "" : " · ") + value_text(e, key);
    return out;
  }
  for (const auto& [k, v] : value.items()) out += (out.empty() ? "" : "; ") + k + " " + value_text(v, k);
  return out;
}

Cell cell_of(const Json& value, std::string_view key) {
  Cell c{value_text(value, key)};
  if (value.is_array() && !value.empty() && std::all_of(value.begin(), value.end(), [](const Json& e) { return e.is_object(); }))
    c.html = inner_table_html(value);
  if (value.is_number()) {
    c.numeric = true;
    c.sort = value.get<double>();
  }
  return c;
}

Cell text_cell(std::string text) { return Cell{std::move(text)}; }

namespace {

// A heading that may wrap after its _ and . (cycles_by_cause.instruction), so that a
// table of many columns takes the width of its numbers, not of its names.
std::string breakable(std::string heading) {
  std::string out;
  for (char ch : heading) {
    out += ch;
    if (ch == '_' || ch == '.') out += "<wbr>";
  }
  return out;
}

std::string cell_html(const Cell& c) {
  if (!c.html.empty()) return "<td>" + c.html + "</td>";
  if (c.numeric) return fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", c.sort, escape(c.text));
  return "<td>" + escape(c.text) + "</td>";
}

}  // namespace

std::string table_html(const Table& table) {
  std::string out = fmt::format("<div class=\"box\"><table data-table=\"{}\"", escape(table.name));
  if (table.sortable) out += " class=\"sortable\"";
  if (!table.filter.empty()) out += fmt::format(" data-filtered-by=\"{}\"", escape(table.filter));
  out += ">\n<thead><tr>";
  for (const std::string& h : table.header) out += "<th>" + breakable(escape(h)) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const Cell& c : row) out += cell_html(c);
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table></div>\n";
}

std::string inner_table_html(const Json& objects) {
  std::vector<std::string> cols;
  for (const Json& e : objects)
    if (e.is_object())
      for (const auto& [k, v] : e.items())
        if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  std::string out = "<table class=\"inner\"><thead><tr>";
  for (const std::string& k : cols) out += "<th>" + escape(k) + "</th>";
  out += "</tr></thead><tbody>";
  for (const Json& e : objects) {
    out += "<tr>";
    for (const std::string& k : cols) {
      const bool there = e.is_object() && e.contains(k) && !(e[k].is_string() && e[k].get<std::string>().empty());
      out += cell_html(there ? cell_of(e[k], k) : text_cell("-"));
    }
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

std::string text_report_html(std::string_view file, std::string_view text) {
  return fmt::format("<pre class=\"report\" data-report=\"{}\">{}</pre>\n", escape(file), escape(text));
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
