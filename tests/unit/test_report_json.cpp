// The one writer of the reports' JSON (report/report_json.h): strings escaped so the file
// parses back to the same text, the house layout, numbers with the digits a report
// chose, null for what is not finite; and a report through it that parses back.
#include <catch2/catch.hpp>

#include <limits>
#include <sstream>
#include <string>

#include "os/summary.h"
#include "report/report_json.h"

namespace {

using report_json::Json;

}  // namespace

TEST_CASE("report_json: a string with quotes, backslashes, newlines and control bytes parses back the same",
          "[report_json]") {
  const std::string name = "prog \"A\"\\B\nC\tD\x01\x1f end";
  const std::string text = report_json::text({{"program", name}, {"path", "C:\\dir\\\"x\".yaml"}});
  const Json back = Json::parse(text);
  CHECK(back.at("program") == name);
  CHECK(back.at("path") == "C:\\dir\\\"x\".yaml");
  CHECK(text.find("\"prog \\\"A\\\"\\\\B\\nC\\tD\\u0001\\u001f end\"") != std::string::npos);
  // A byte that is not UTF-8 is replaced (U+FFFD), so the file still parses.
  CHECK(Json::parse(report_json::text({{"bad", "a\xff"}})).at("bad") == "a\xEF\xBF\xBD");
  // Keys are escaped as values are.
  CHECK(Json::parse(report_json::text({{"k\"ey", 1}})).at("k\"ey") == 1);
}

TEST_CASE("report_json: the house layout, a member a line at the top and the named members spread",
          "[report_json]") {
  const Json report = {{"name", "x"},
                       {"inline", {{"a", 1}, {"b", Json::array({2, 3})}}},
                       {"rows", Json::array({{{"x", 1}, {"places", Json::array({{{"y", 2}}})}},
                                             {{"x", 3}, {"places", Json::array()}}})},
                       {"counters", {{"c", 4}, {"d", 5}}},
                       {"empty", Json::array()},
                       {"none", Json::object()}};
  CHECK(report_json::text(report, {.one_per_line = {"rows", "places", "counters"}}) ==
        "{\n"
        "  \"name\": \"x\",\n"
        "  \"inline\": {\"a\": 1, \"b\": [2, 3]},\n"
        "  \"rows\": [\n"
        "    {\"x\": 1, \"places\": [\n"
        "      {\"y\": 2}\n"
        "    ]},\n"
        "    {\"x\": 3, \"places\": [\n"
        "    ]}\n"
        "  ],\n"
        "  \"counters\": {\n"
        "    \"c\": 4,\n"
        "    \"d\": 5\n"
        "  },\n"
        "  \"empty\": [],\n"
        "  \"none\": {}\n"
        "}\n");
  // Without names, everything below the top is inline.
  CHECK(report_json::text({{"rows", Json::array({Json::array({1, 2})})}}) == "{\n  \"rows\": [[1, 2]]\n}\n");
  CHECK(report_json::inline_text("a\"b") == "\"a\\\"b\"");
  CHECK(report_json::inline_text({{"a", {{"b", true}, {"c", nullptr}}}}) == "{\"a\": {\"b\": true, \"c\": null}}");
}

TEST_CASE("report_json: numbers as they are, shortest doubles, or the digits the report chose", "[report_json]") {
  const auto line = [](const Json& v) { return report_json::inline_text(v); };
  CHECK(line(uint64_t(18446744073709551615ull)) == "18446744073709551615");
  CHECK(line(int64_t(-7)) == "-7");
  CHECK(line(0.0) == "0");  // as the hand-written reports printed a double: no "0.0"
  CHECK(line(0.015625) == "0.015625");
  CHECK(line(25.00011230769231) == "25.00011230769231");
  CHECK(line(report_json::fixed(0.5, 3)) == "0.500");
  CHECK(line(report_json::fixed(1234567.0, 9)) == "1234567.000000000");
  CHECK(line(report_json::fixed(-0.0000001, 6)) == "0.000000");  // no -0.000000
  CHECK(line(report_json::fixed(-1.25, 1)) == "-1.2");
  CHECK(line(report_json::significant(1326820.4, 6)) == "1.32682e+06");
  CHECK(line(report_json::significant(0.404271234, 6)) == "0.404271");
  // They parse back as numbers.
  const Json back = Json::parse(report_json::text({{"f", report_json::fixed(0.5, 3)},
                                                   {"g", report_json::significant(1326820.4, 6)}}));
  CHECK(back.at("f") == 0.5);
  CHECK(back.at("g") == 1326820.0);
}

TEST_CASE("report_json: a figure that is not finite is null, so the file parses", "[report_json]") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::string text = report_json::text({{"plain", nan},
                                              {"inf", -inf},
                                              {"fixed", report_json::fixed(inf, 3)},
                                              {"significant", report_json::significant(nan, 6)}});
  CHECK(text == "{\n  \"plain\": null,\n  \"inf\": null,\n  \"fixed\": null,\n  \"significant\": null\n}\n");
  CHECK(Json::parse(text).at("fixed").is_null());
}

TEST_CASE("report_json: summary.json with a config path holding a quote parses back through the writer",
          "[report_json]") {
  os::RunSummary s;
  s.config = "configs/my \"best\" run\\1.yaml";
  s.ended_early = "stopped:\n\"ctl-10\"";
  s.notes = {"a note with a \"quote\""};
  s.simulated_seconds = 0.5;
  s.istreams.resize(2);
  s.istreams[1].utilization = 0.25;
  std::ostringstream out;
  os::write_summary_json(out, s);
  const Json back = Json::parse(out.str());
  CHECK(back.at("config") == s.config);
  CHECK(back.at("ended_early") == s.ended_early);
  CHECK(back.at("notes").at(0) == s.notes[0]);
  CHECK(back.at("istreams").size() == 2);
  CHECK(back.at("istreams").at(1).at("utilization") == 0.25);
  CHECK(out.str().find("\"simulated_seconds\": 0.500000000,\n") != std::string::npos);
  CHECK(out.str().find("  \"istreams\": [\n    {\"instructions\": 0,") != std::string::npos);
}
