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

// What an analyst reads (issue 48): hex where z/TPF and z/OS print hex, *** for
// several I-streams, a utilization as a percentage, never JSON in a cell.
TEST_CASE("report_html: numbers as z/TPF and z/OS print them", "[report_html]") {
  using report_html::Json;
  CHECK(report_html::is_hex_key("address"));
  CHECK(report_html::is_hex_key("lock_address"));
  CHECK(report_html::is_hex_key("disp"));
  CHECK(report_html::is_hex_key("asid"));
  CHECK_FALSE(report_html::is_hex_key("addresses_seen"));
  CHECK(report_html::value_text(Json(16781720), "address") == "01001198");
  CHECK(report_html::value_text(Json(0x1'0000'0000ull), "address") == "0000000100000000");
  CHECK(report_html::value_text(Json(8), "disp") == "0008");
  CHECK(report_html::value_text(Json(1), "asid") == "0001");
  CHECK(report_html::value_text(Json(-1), "istream") == "***");
  CHECK(report_html::value_text(Json(3), "istream") == "3");
  CHECK(report_html::value_text(Json(0.999996), "cpu_utilization") == "100.0%");
  CHECK(report_html::number_text(0.091613, "fraction") == "9.2%");
  CHECK(report_html::percent_text(151.0 / 38354836) == "0.00039%");
  CHECK(report_html::percent_text(0) == "0%");
  CHECK(report_html::shortest_text(0.0244) == "0.0244");
  CHECK(report_html::shortest_text(1084608.992) == "1,084,608.992");
  // A list in a cell: its elements, or a table of its objects; no JSON.
  CHECK(report_html::value_text(Json::parse("[1113, 1101]"), "samples") == "1,113 · 1,101");
  const Json places = Json::parse(R"([{"segment": "program", "file": "", "function": "app_crc32", "samples": 1548}])");
  const report_html::Cell c = report_html::cell_of(places, "places");
  CHECK(c.html.find("<table class=\"inner\">") == 0);
  CHECK(c.html.find("<td>app_crc32</td>") != std::string::npos);
  CHECK(c.html.find("{\"") == std::string::npos);
  CHECK(c.html.find("&quot;") == std::string::npos);
}

TEST_CASE("report_html: a text report is shown as it is, escaped", "[report_html]") {
  const std::string pre = report_html::text_report_html("locks.txt", "lock <a> & b\n  spins  1,000\n");
  CHECK(pre == "<pre class=\"report\" data-report=\"locks.txt\">lock &lt;a&gt; &amp; b\n  spins  1,000\n</pre>\n");
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
  CHECK(l.find("points=\"92.0,67.4 250.0,28.0 408.0,47.7\"") != std::string::npos);  // y from 0
  // A ratio that is not a number draws no bar; 2x and 1/2 the same length either side.
  const std::string r = report_svg::ratio_bars({"r", "B/A", {"up", "down", "none"}, {2, 0.5, NAN}});
  CHECK(count(r, "<rect") == 2);
  CHECK(count(r, "width=\"58.8\"") == 2);
}

#include <filesystem>
#include <fstream>

#include "report/html_report.h"

TEST_CASE("report_html: a message's cycles leave out idle and page_wait, both the machine waiting", "[report_html]") {
  // summary.cpp counts page_wait (an I-stream idle while an ECB waits for a page-in) as
  // idle: a message's bar of the e3 transition showed 300 times its CPU while it did.
  const auto dir = std::filesystem::temp_directory_path() / "tpfemu-test-report-message-bar";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "summary.json")
      << R"({"messages": 10, "cycles": 9500, "cycles_by_cause": {"instruction": 1000, "idle": 500, "page_wait": 8000}})";
  const std::string page = report_html::run_report(dir);
  std::filesystem::remove_all(dir);
  const size_t from = page.find("cycles-per-message");
  REQUIRE(from != std::string::npos);
  const std::string bar = page.substr(from, page.find("</svg>", from) - from);
  CHECK(bar.find(">page_wait<") == std::string::npos);  // not in its legend
  CHECK(bar.find(">idle<") == std::string::npos);
  CHECK(bar.find("100 cycles") != std::string::npos);
  CHECK(bar.find("900 cycles") == std::string::npos);
  CHECK(page.find("8,500 idle cycles (89.5% of all, 8,000 of them page_wait)") != std::string::npos);
}
