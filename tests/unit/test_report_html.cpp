// The pages' pieces (report/html_writer.h, report/svg.h): text escaped wherever a run's
// names land (a program or a path with < & " '), units from the keys' names, one <tr>
// per row, charts drawn from the data alone (the same bytes), and a JSON table row per
// element whatever the element holds.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "report/html_writer.h"
#include "report/svg.h"

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("report_html: text and attributes are escaped", "[report_html]") {
  CHECK(report_html::escape("<a href=\"x\">Tom's & Jerry's</a>") ==
        "&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt;");
  report_html::Table t{"t\"<", {"<prog>"}, {{report_html::text_cell("QZZ0<script>")}}};
  const std::string html = report_html::table_html(t);
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("data-table=\"t&quot;&lt;\"") != std::string::npos);
  CHECK(report_html::page_html("a<b", "").find("<title>a&lt;b</title>") != std::string::npos);
}

TEST_CASE("report_html: a key's unit is the one its name says", "[report_html]") {
  CHECK(report_html::unit_of("page_in_mean_us") == "µs");
  CHECK(report_html::unit_of("response_ms") == "ms");
  CHECK(report_html::unit_of("ms_per_message") == "ms");
  CHECK(report_html::unit_of("elapsed_ns") == "ns");
  CHECK(report_html::unit_of("simulated_seconds") == "s");
  CHECK(report_html::unit_of("cpu_percent") == "%");
  CHECK(report_html::unit_of("messages_per_s") == "/s");
  CHECK(report_html::unit_of("hold_max_cycles") == "cycles");
  CHECK(report_html::unit_of("bytes_read") == "bytes");
  CHECK(report_html::unit_of("frames64") == "frames");
  CHECK(report_html::unit_of("acquisitions") == "");  // a count: the name says of what
  CHECK(report_html::number_text(1234567, "cycles") == "1,234,567 cycles");
  CHECK(report_html::number_text(25.5, "%") == "25.500%");
  CHECK(report_html::number_text(0.015625, "s") == "0.015625 s");
  CHECK(report_html::number_text(NAN, "ms") == "n/a");
}

TEST_CASE("report_html: a table has one <tr> in its body per row, numbers sortable by value", "[report_html]") {
  report_html::Table t{"rows", {"name", "value"}};
  for (int i = 0; i < 5; ++i)
    t.rows.push_back({report_html::text_cell("r" + std::to_string(i)), report_html::cell_of(i * 1000, "busy_cycles")});
  const std::string html = report_html::table_html(t);
  const std::string body = html.substr(html.find("<tbody>"));
  CHECK(count(body, "<tr>") == 5);
  CHECK(html.find("data-v=\"4000\">4,000 cycles</td>") != std::string::npos);
  CHECK(html.find("class=\"sortable\"") != std::string::npos);
}

TEST_CASE("report_svg: charts are named, drawn from their data, the same bytes every time", "[report_html]") {
  const report_svg::StackedBars bars{"causes", "Cycles", "cycles", {"a", "b"}, {"x", "y"}, {{1, 2}, {3, 0}}};
  const std::string svg = report_svg::stacked_bars(bars);
  CHECK(svg.starts_with("<svg data-chart=\"causes\""));
  CHECK(count(svg, "<rect") == 3 + 2);  // the parts that are not 0, and the legend's two
  CHECK(svg == report_svg::stacked_bars(bars));
  const report_svg::Line line{"t", "messages_per_s", "s", "/s", {0, 1, 2}, {5, 7, 6}};
  const std::string l = report_svg::line_chart(line);
  CHECK(l.find("points=\"70.0,67.4 239.0,28.0 408.0,47.7\"") != std::string::npos);  // y from 0
  // A ratio that is not a number draws no bar; 2x and 1/2 the same length either side.
  const std::string r = report_svg::ratio_bars({"r", "B/A", {"up", "down", "none"}, {2, 0.5, NAN}});
  CHECK(count(r, "<rect") == 2);
  CHECK(count(r, "width=\"58.8\"") == 2);
}
