// The run's reports (os/summary.cpp): summary.json has every key the issue requires,
// reads back to the same figures, is deterministic; summary.txt shows the figures;
// `tpfemu compare` puts two runs side by side with B/A; a bad or missing file is an
// error naming the file and the problem.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/run_command.h"
#include "app/summary_read.h"
#include "config/number_text.h"
#include "os/summary.h"

namespace {

using os::IStreamSummary;
using os::RunSummary;

RunSummary sample() {
  RunSummary s;
  s.config = "configs/demo.yaml";
  s.messages = 2000;
  s.simulated_seconds = 0.012345678;
  s.messages_per_second = 162000.125;
  s.ms_per_message = 0.068125;
  s.response_mean_ms = 0.4375;
  s.response_p50_ms = 0.25;
  s.response_p90_ms = 0.875;
  s.response_p99_ms = 2.5;
  s.cpu_utilization = 0.984375;
  s.istreams = {{1000000, 16000000, 15800000, 200000, 0.9875},
                {2000000, 16000000, 15700000, 300000, 0.98125},
                {3000000, 16000000, 15750000, 250000, 0.984375},
                {4000000, 16000000, 15750000, 250000, 0.984375}};
  for (const auto& i : s.istreams) s.instructions += i.instructions, s.cycles += i.cycles;
  s.ecbs_created = 2010;
  s.ecbs_exited = 2000;
  s.ecb_timeouts = 1;
  s.ecb_program_checks = 2;
  s.svcs = 12000;
  s.time_slices = 3;
  s.dispatches = 6000;
  s.frames_in_use_at_end = 0;
  return s;
}

std::string json_of(const RunSummary& s) {
  std::ostringstream out;
  os::write_summary_json(out, s);
  return out.str();
}

std::string text_of(const RunSummary& s) {
  std::ostringstream out;
  os::write_summary_text(out, s);
  return out.str();
}

// A scratch directory of this test process, removed at the end.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / fmt::format("tpfemu-summary-{}-{}", name, ::getpid())) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& file, const std::string& text) const {
    const std::string p = (path / file).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

std::string read_error(const std::string& path) {
  try {
    app::read_summary_json(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string figures(const RunSummary& s) {
  std::string out = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|", s.config, s.messages, s.simulated_seconds,
                                s.messages_per_second, s.ms_per_message, s.response_mean_ms, s.response_p50_ms,
                                s.response_p90_ms, s.response_p99_ms, s.cpu_utilization, s.instructions, s.cycles);
  for (const auto& i : s.istreams)
    out += fmt::format("[{} {} {} {} {}]", i.instructions, i.cycles, i.busy_cycles, i.idle_cycles, i.utilization);
  out += fmt::format("|{} {} {} {} {} {} {} {}", s.ecbs_created, s.ecbs_exited, s.ecb_timeouts, s.ecb_program_checks,
                     s.svcs, s.time_slices, s.dispatches, s.frames_in_use_at_end);
  return out;
}

// The line of a comparison whose first column is `figure`, split into its columns.
std::vector<std::string> row(const std::string& comparison, const std::string& figure) {
  std::istringstream lines(comparison);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cols(line);
    std::vector<std::string> v;
    for (std::string c; cols >> c;) v.push_back(c);
    if (!v.empty() && v[0] == figure) return v;
  }
  return {};
}

}  // namespace

TEST_CASE("summary.json has every key the issue requires, with the right types", "[summary]") {
  const nlohmann::json j = nlohmann::json::parse(json_of(sample()));
  for (const char* k : {"messages", "instructions", "cycles"}) {
    INFO(k);
    CHECK(j.at(k).is_number_unsigned());
  }
  for (const char* k : {"simulated_seconds", "messages_per_second", "ms_per_message", "cpu_utilization"}) {
    INFO(k);
    CHECK(j.at(k).is_number());
  }
  REQUIRE(j.at("response_ms").is_object());
  for (const char* k : {"mean", "p50", "p90", "p99"}) CHECK(j.at("response_ms").at(k).is_number());
  REQUIRE(j.at("istreams").is_array());
  REQUIRE(j.at("istreams").size() == 4);
  for (const auto& i : j.at("istreams"))
    for (const char* k : {"instructions", "cycles", "busy_cycles", "idle_cycles", "utilization"}) CHECK(i.at(k).is_number());
  CHECK(j.at("config") == "configs/demo.yaml");
  for (const char* k : {"ecbs_created", "ecbs_exited", "ecb_timeouts", "ecb_program_checks", "svcs", "time_slices",
                        "dispatches", "frames_in_use_at_end"})
    CHECK(j.at("control_program").at(k).is_number_unsigned());

  CHECK(j.at("messages") == 2000);
  CHECK(j.at("simulated_seconds").get<double>() == 0.012345678);
  CHECK(j.at("response_ms").at("p99").get<double>() == 2.5);
  CHECK(j.at("istreams")[1].at("busy_cycles") == 15700000);
  CHECK(j.at("control_program").at("svcs") == 12000);
}

TEST_CASE("summary.json is deterministic, with fixed precision", "[summary]") {
  const RunSummary s = sample();
  CHECK(json_of(s) == json_of(s));
  CHECK(json_of(s) == json_of(sample()));
  CHECK(text_of(s) == text_of(sample()));
  const std::string j = json_of(s);
  CHECK(j.find("\"simulated_seconds\": 0.012345678,") != std::string::npos);
  CHECK(j.find("\"messages_per_second\": 162000.125,") != std::string::npos);
  CHECK(j.find("\"ms_per_message\": 0.068125,") != std::string::npos);
  CHECK(j.find("\"response_ms\": {\"mean\": 0.437500, \"p50\": 0.250000, \"p90\": 0.875000, \"p99\": 2.500000},") !=
        std::string::npos);
  CHECK(j.find("\"cpu_utilization\": 0.984375,") != std::string::npos);
  // Key order is fixed: the required figures first, then the per-I-stream table, then the counters.
  CHECK(j.find("\"config\"") < j.find("\"messages\""));
  CHECK(j.find("\"cycles\": 64000000") < j.find("\"istreams\""));
  CHECK(j.find("\"istreams\"") < j.find("\"control_program\""));
}

TEST_CASE("summary.json reads back to the same figures", "[summary]") {
  TempDir dir("round");
  const RunSummary s = sample();
  const std::string path = dir.write("summary.json", json_of(s));
  const RunSummary back = app::read_summary_json(path);
  CHECK(figures(back) == figures(s));
  CHECK(json_of(back) == json_of(s));  // and writes the same bytes again
  // A run's directory works as well as its summary.json.
  CHECK(figures(app::read_summary_json(dir.path.string())) == figures(s));

  RunSummary empty;
  const std::string p2 = dir.write("empty.json", json_of(empty));
  CHECK(figures(app::read_summary_json(p2)) == figures(empty));
  CHECK(json_of(empty).find("\"istreams\": [\n  ],") != std::string::npos);  // report/report_json.h's layout
}

TEST_CASE("strings are escaped and figures that are not finite are null", "[summary]") {
  RunSummary s = sample();
  s.config = "a \"quoted\"\\path\n\x01\xff.yaml";
  s.messages_per_second = std::numeric_limits<double>::infinity();
  s.ms_per_message = std::numeric_limits<double>::quiet_NaN();
  s.cpu_utilization = -0.0;
  const std::string j = json_of(s);
  const nlohmann::json parsed = nlohmann::json::parse(j);  // still valid JSON
  CHECK(parsed.at("config") == "a \"quoted\"\\path\n\x01\xEF\xBF\xBD.yaml");  // the stray byte replaced
  CHECK(parsed.at("messages_per_second").is_null());
  CHECK(parsed.at("ms_per_message").is_null());
  CHECK(j.find("\"cpu_utilization\": 0.000000,") != std::string::npos);  // no -0.000000

  TempDir dir("nan");
  const RunSummary back = app::read_summary_json(dir.write("summary.json", j));
  CHECK(std::isnan(back.messages_per_second));
  CHECK(std::isnan(back.ms_per_message));
  const std::string t = text_of(s);
  CHECK(t.find("messages per second          n/a  (simulated)\n") != std::string::npos);
}

TEST_CASE("summary.txt shows the run's figures, the I-stream table and the counters", "[summary]") {
  const std::string t = text_of(sample());
  for (const char* want : {"  configuration  configs/demo.yaml\n", "  messages                   2,000\n",
                           "  simulated time       0.012345678  s\n", "  messages per second  162,000.125  (simulated)\n",
                           "  CPU per message         0.068125  ms", "\n  0.437500  0.250000  0.875000  2.500000\n",
                           "CPU (4 I-streams;", "  utilization        98.4%\n", "  instructions  10,000,000\n",
                           "  cycles        64,000,000\n", "  ECB timeouts (CTL-10)         1\n",
                           "  SVCs                     12,000\n", "  4K frames in use at end       0\n"}) {
    INFO(want);
    CHECK(t.find(want) != std::string::npos);
  }
  // One row per I-stream and a total.
  CHECK(t.find("\n  I-STREAM  INSTRUCTIONS      CYCLES  BUSY CYCLES  IDLE CYCLES  UTILIZATION\n"
               "  0            1,000,000  16,000,000   15,800,000      200,000        98.8%\n") != std::string::npos);
  CHECK(t.find("\n  all         10,000,000  64,000,000   63,000,000    1,000,000        98.4%\n") != std::string::npos);
  CHECK(text_of(RunSummary{}).find("(defaults)") != std::string::npos);
}

TEST_CASE("compare puts each figure side by side with B/A", "[summary]") {
  RunSummary a = sample(), b = sample();
  b.messages = 3000;
  b.ms_per_message = 0.06;
  b.cpu_utilization = 0.5;
  b.ecb_timeouts = 0;
  a.frames_in_use_at_end = 0, b.frames_in_use_at_end = 7;
  a.time_slices = 0, b.time_slices = 0;
  std::ostringstream out;
  app::write_comparison(out, "runs/a", a, "runs/b", b);
  const std::string c = out.str();
  CHECK(c.rfind("A: runs/a (configs/demo.yaml)\nB: runs/b (configs/demo.yaml)\n", 0) == 0);
  CHECK(row(c, "FIGURE") == std::vector<std::string>{"FIGURE", "A", "B", "B/A"});
  CHECK(row(c, "messages") == std::vector<std::string>{"messages", "2,000", "3,000", "1.500"});
  CHECK(row(c, "ms_per_message") == std::vector<std::string>{"ms_per_message", "0.068125", "0.060000", "0.881"});
  CHECK(row(c, "cpu_utilization") == std::vector<std::string>{"cpu_utilization", "0.984375", "0.500000", "0.508"});
  CHECK(row(c, "response_ms.p99") == std::vector<std::string>{"response_ms.p99", "2.500000", "2.500000", "1.000"});
  CHECK(row(c, "istreams[3].busy_cycles") ==
        std::vector<std::string>{"istreams[3].busy_cycles", "15,750,000", "15,750,000", "1.000"});
  CHECK(row(c, "control_program.ecb_timeouts") == std::vector<std::string>{"control_program.ecb_timeouts", "1", "0", "0.000"});
  // A = 0: no ratio.
  CHECK(row(c, "control_program.frames_in_use_at_end") ==
        std::vector<std::string>{"control_program.frames_in_use_at_end", "0", "7", "n/a"});
  CHECK(row(c, "control_program.time_slices") == std::vector<std::string>{"control_program.time_slices", "0", "0", "-"});
  // Every figure of the JSON is there.
  for (const char* f : {"simulated_seconds", "messages_per_second", "response_ms.mean", "response_ms.p50",
                        "response_ms.p90", "instructions", "cycles", "istreams[0].utilization",
                        "control_program.ecbs_created", "control_program.svcs", "control_program.dispatches"}) {
    INFO(f);
    CHECK(row(c, f).size() == 4);
  }
}

TEST_CASE("compare shows I-streams that only one run has", "[summary]") {
  RunSummary a = sample(), b = sample();
  b.istreams.resize(2);
  std::ostringstream out;
  app::write_comparison(out, "a", a, "b", b);
  CHECK(row(out.str(), "istreams[1].cycles") == std::vector<std::string>{"istreams[1].cycles", "16,000,000", "16,000,000", "1.000"});
  CHECK(row(out.str(), "istreams[3].cycles") == std::vector<std::string>{"istreams[3].cycles", "16,000,000", "-", "-"});
  std::ostringstream again;
  app::write_comparison(again, "a", a, "b", b);
  CHECK(again.str() == out.str());
}

TEST_CASE("compare: a subsystem's counter that only one run has is shown with \"-\" for the other", "[summary]") {
  RunSummary a = sample(), b = sample();
  a.extra_counters.push_back({"ecb_heap_errors", "ECB heap errors", "ecb_program_checks", 3});
  b.extra_counters.push_back({"probe_ticks", "probe ticks", "", 9});
  std::ostringstream out;
  app::write_comparison(out, "a", a, "b", b);
  CHECK(row(out.str(), "control_program.ecb_heap_errors") ==
        std::vector<std::string>{"control_program.ecb_heap_errors", "3", "-", "-"});
  CHECK(row(out.str(), "control_program.probe_ticks") ==
        std::vector<std::string>{"control_program.probe_ticks", "-", "9", "-"});
  // Placed after the counter it names, in the text and the JSON alike.
  std::ostringstream json;
  os::write_summary_json(json, a);
  CHECK(json.str().find("\"ecb_program_checks\": ") < json.str().find("\"ecb_heap_errors\": 3"));
  CHECK(json.str().find("\"ecb_heap_errors\": 3") < json.str().find("\"svcs\": "));
}

TEST_CASE("a missing or bad summary.json is an error naming the file and the problem", "[summary]") {
  TempDir dir("bad");
  const std::string missing = (dir.path / "nope.json").string();
  CHECK(read_error(missing) == missing + ": cannot open: No such file or directory");
  CHECK(read_error(dir.path.string()) == (dir.path / "summary.json").string() + ": cannot open: No such file or directory");

  std::string p = dir.write("syntax.json", "{\"messages\": 12,,}");
  CHECK(read_error(p).rfind(p + ": not valid JSON: ", 0) == 0);
  p = dir.write("empty.json", "");
  CHECK(read_error(p).rfind(p + ": not valid JSON: ", 0) == 0);
  p = dir.write("array.json", "[1, 2]");
  CHECK(read_error(p) == p + ": not a summary (the top level is not a JSON object)");

  // Each required key, removed or of the wrong type.
  const nlohmann::json good = nlohmann::json::parse(json_of(sample()));
  auto with = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = good;
    edit(j);
    return read_error(dir.write("edited.json", j.dump()));
  };
  const std::string e = (dir.path / "edited.json").string() + ": ";
  CHECK(with([](auto& j) { j.erase("messages"); }) == e + "missing key \"messages\"");
  CHECK(with([](auto& j) { j.erase("config"); }) == e + "missing key \"config\"");
  CHECK(with([](auto& j) { j["config"] = 5; }) == e + "\"config\" is not a string");
  CHECK(with([](auto& j) { j["messages"] = -3; }) == e + "\"messages\" is not a whole number >= 0 (got -3)");
  CHECK(with([](auto& j) { j["cycles"] = 1.5; }) == e + "\"cycles\" is not a whole number >= 0 (got 1.5)");
  CHECK(with([](auto& j) { j["simulated_seconds"] = "fast"; }) == e + "\"simulated_seconds\" is not a number (got \"fast\")");
  CHECK(with([](auto& j) { j["response_ms"].erase("p90"); }) == e + "missing key \"response_ms.p90\"");
  CHECK(with([](auto& j) { j["response_ms"] = 3; }) == e + "\"response_ms\" is not an object");
  CHECK(with([](auto& j) { j["istreams"] = nlohmann::json::object(); }) == e + "\"istreams\" is not an array");
  CHECK(with([](auto& j) { j["istreams"][2] = 7; }) == e + "\"istreams[2]\" is not an object");
  CHECK(with([](auto& j) { j["istreams"][1].erase("idle_cycles"); }) == e + "missing key \"istreams[1].idle_cycles\"");
  CHECK(with([](auto& j) { j["control_program"].erase("svcs"); }) == e + "missing key \"control_program.svcs\"");
  CHECK(with([](auto& j) { j.erase("control_program"); }) == e + "missing key \"control_program\"");
  CHECK(with([](auto& j) { j["extra"] = 1; }) == "(no error)");  // later keys are ignored
}

TEST_CASE("the text reports' number style: thousands grouped, fixed digits, no -0", "[summary]") {
  CHECK(cfg::grouped(0) == "0");
  CHECK(cfg::grouped(999) == "999");
  CHECK(cfg::grouped(1000) == "1,000");
  CHECK(cfg::grouped(1234567) == "1,234,567");
  CHECK(cfg::grouped_fixed(1234567.5, 3) == "1,234,567.500");
  CHECK(cfg::grouped_fixed(720447.4, 0) == "720,447");
  CHECK(cfg::grouped_fixed(999.9996, 3) == "1,000.000");  // the carry reaches the whole part
  CHECK(cfg::grouped_fixed(-1234.5, 1) == "-1,234.5");
  CHECK(cfg::grouped_fixed(-0.0001, 3) == "0.000");
  CHECK(cfg::grouped_fixed(-0.4, 0) == "0");
  CHECK(cfg::grouped_fixed(123.25, 2) == "123.25");
  CHECK(cfg::grouped_fixed(std::numeric_limits<double>::quiet_NaN(), 3) == "n/a");
}

TEST_CASE("summary.txt and summary.json lead with the experiment's headline figure", "[summary]") {
  RunSummary s = sample();
  s.headline.value = s.messages_per_second;  // the default: messages a second
  CHECK(text_of(s).find("  headline       162,000.125 messages per simulated second (measurement window)\n") !=
        std::string::npos);
  s.headline = os::Headline{};
  s.headline.key = "syslog_lines_per_second";
  s.headline.label = "syslog lines per simulated second";
  s.headline.note = "locks.txt";
  s.headline.value = 720447.4;
  s.headline.digits = 0;
  const std::string t = text_of(s);
  CHECK(t.find("  configuration  configs/demo.yaml\n  headline       720,447 syslog lines per simulated second "
               "(locks.txt)\n") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(json_of(s));
  CHECK(j.at("headline").at("key") == "syslog_lines_per_second");
  CHECK(j.at("headline").at("value") == 720447);  // a plain number in JSON
  CHECK(!j.at("headline").contains("detail"));
  CHECK(!j.at("headline").contains("document"));
  CHECK(t.find("  with ") == std::string::npos);
  CHECK(t.find("  document ") == std::string::npos);
}

TEST_CASE("the headline's companion figures and the document's figure follow it in summary.txt and summary.json",
          "[summary]") {
  RunSummary s = sample();
  s.headline.key = "le_cpu_seconds";
  s.headline.label = "CPU seconds a run of the program";
  s.headline.note = "busy time";
  s.headline.value = 12.34567;
  s.headline.digits = 4;
  s.headline.detail = "27,949 user heap segments allocated, 0 freed (1 enclave)";
  s.headline.document = 15.44;
  s.headline.document_source = "E4, seed 003; docs/e4-le.md";
  const std::string t = text_of(s);
  CHECK(t.find("  headline       12.3457 CPU seconds a run of the program (busy time)\n"
               "  with           27,949 user heap segments allocated, 0 freed (1 enclave)\n"
               "  document       15.44 (E4, seed 003; docs/e4-le.md)\n"
               "  chosen ") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(json_of(s));
  CHECK(j.at("headline").at("detail") == "27,949 user heap segments allocated, 0 freed (1 enclave)");
  CHECK(j.at("headline").at("document").at("value") == 15.44);
  CHECK(j.at("headline").at("document").at("source") == "E4, seed 003; docs/e4-le.md");
}

namespace {
// `n` response times around `mean` spread evenly over +-`spread` (deterministic).
void add_group(std::vector<double>& v, size_t n, double mean, double spread) {
  for (size_t k = 0; k < n; ++k) v.push_back(mean - spread + 2 * spread * double(k) / double(n - 1));
}
}  // namespace

TEST_CASE("response times in two separated groups are called bimodal, one group or a long tail is not",
          "[summary]") {
  std::vector<double> two;
  add_group(two, 400, 0.007, 0.001);
  add_group(two, 600, 0.021, 0.002);
  std::sort(two.begin(), two.end());
  const os::ResponseGroups g = os::response_groups(two);
  CHECK(g.bimodal);
  CHECK(g.low_share == Approx(0.4));
  CHECK(g.low_mean_ms == Approx(0.007));
  CHECK(g.high_mean_ms == Approx(0.021));

  std::vector<double> one;
  add_group(one, 1000, 0.015, 0.005);  // one flat group
  CHECK_FALSE(os::response_groups(one).bimodal);
  std::vector<double> tail;  // an exponential's quantiles: one mode and a long tail
  for (int k = 0; k < 1000; ++k) tail.push_back(-0.01 * std::log(1 - (k + 0.5) / 1000.0));
  CHECK_FALSE(os::response_groups(tail).bimodal);
  std::vector<double> few;  // a small second group is an outlier, not a mode
  add_group(few, 950, 0.007, 0.001);
  add_group(few, 50, 0.05, 0.001);
  CHECK_FALSE(os::response_groups(few).bimodal);
  CHECK_FALSE(os::response_groups(std::vector<double>(100, 0.01)).bimodal);
  CHECK_FALSE(os::response_groups({}).bimodal);
}

TEST_CASE("summary.txt explains the percentiles when the response times are bimodal", "[summary]") {
  RunSummary s = sample();
  CHECK(text_of(s).find("two groups") == std::string::npos);
  CHECK(nlohmann::json::parse(json_of(s)).count("response_groups") == 0);
  s.response_groups = {true, 0.4, 0.007, 0.6, 0.021};
  const std::string t = text_of(s);
  CHECK(t.find("  The response times fall in two groups (bimodal): 40.0% around 0.007000 ms, 60.0% around 0.021000 ms.\n")
        != std::string::npos);
  CHECK(t.find("rather than p50 alone") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(json_of(s));
  CHECK(j.at("response_groups").at(1).at("share") == Approx(0.6));
}

TEST_CASE("the progress line shows the simulated time a duration-limited run lasts, not \"of 0\"", "[summary]") {
  CHECK(app::progress_line(12000, 12200, 0.0123, 0, 2.5) == "12,000 messages of 12,200, 0.0123 s simulated, 2.5 s");
  const std::string d = app::progress_line(12000, 0, 0.0123, 0.05, 2.5);
  CHECK(d.find("of 0") == std::string::npos);
  CHECK(d == "12,000 messages, 0.0123 s simulated (the window lasts 0.0500 s after the warm-up), 2.5 s");
}

TEST_CASE("run.log labels its first column: the simulated time in cycles", "[summary]") {
  const std::string h = app::run_log_header(5.2);
  CHECK(h.find("CYCLE is the\n# simulated time of the line in cycles of the 5.2 GHz clock (5,200 cycles a "
               "microsecond).\n       CYCLE LINE\n") != std::string::npos);
}
