// RMF's CPU Activity report (os/rmf_cpu_activity.h) from a demo run with a timeline: each
// interval's row per I-stream is the busy cycles the machine counted in that interval,
// over its length; TOTAL/AVERAGE their mean; the text in RMF's columns; the same bytes twice.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "os/control_program.h"
#include "os/run_config.h"

using nlohmann::json;

namespace {

struct CpuRun {
  std::map<std::string, std::string> reports;
  std::vector<std::vector<uint64_t>> busy_at_end;  // each interval's end: the I-streams' busy cycles
  explicit CpuRun(const std::vector<std::string>& sets) {
    std::vector<std::string> all = {"workload.messages=3000", "workload.warmup=0", "system.timeline=1ms"};
    all.insert(all.end(), sets.begin(), sets.end());
    os::RunConfig cfg = app::load_run_config({std::string(TPFEMU_SOURCE_DIR) + "/configs/demo.yaml"}, all);
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    cp.on_timeline_interval([&](uint64_t) {
      std::vector<uint64_t> busy;
      for (unsigned k = 0; k < m.istreams(); ++k) busy.push_back(m.counters(k).busy_cycles);
      busy_at_end.push_back(busy);
    });
    cp.run();
    for (const os::ReportFile& r : cp.reports())
      if (r.write && (!r.wanted || r.wanted())) {
        std::ostringstream out;
        r.write(out);
        reports[r.name] = out.str();
      }
  }
};

}  // namespace

TEST_CASE("rmf cpu: each I-stream's MVS BUSY is its busy cycles in the interval over the interval's",
          "[rmf][rmf_cpu]") {
  CpuRun r({"machine.istreams=4"});
  REQUIRE(r.reports.count("rmfcpu.json"));
  const json j = json::parse(r.reports["rmfcpu.json"]);
  const json& intervals = j["intervals"];
  REQUIRE(intervals.size() >= 2);
  REQUIRE(intervals.size() == r.busy_at_end.size());
  std::vector<uint64_t> before(4, 0);
  for (size_t i = 0; i < intervals.size(); ++i) {
    const json& v = intervals[i];
    const double span_cycles = (v["end_s"].get<double>() - v["start_s"].get<double>()) * 5.2e9;
    REQUIRE(v["istreams"].size() == 4);
    double sum = 0;
    for (size_t k = 0; k < 4; ++k) {
      const json& row = v["istreams"][k];
      const uint64_t busy = r.busy_at_end[i][k] - before[k];
      CHECK(row["busy_cycles"] == busy);
      CHECK(row["mvs_busy_percent"].get<double>() ==
            Approx(std::min(100.0, 100.0 * double(busy) / span_cycles)).margin(0.006));
      sum += row["mvs_busy_percent"].get<double>();
      before[k] = r.busy_at_end[i][k];
    }
    CHECK(v["average_mvs_busy_percent"].get<double>() == Approx(sum / 4).margin(0.006));
  }
}

TEST_CASE("rmf cpu: the text is RMF's CPU Activity layout, a block per interval, the same bytes twice",
          "[rmf][rmf_cpu]") {
  CpuRun a({"machine.istreams=2"}), b({"machine.istreams=2"});
  const std::string& t = a.reports["rmfcpu.txt"];
  CHECK(t == b.reports["rmfcpu.txt"]);
  CHECK(a.reports["rmfcpu.json"] == b.reports["rmfcpu.json"]);
  const json j = json::parse(a.reports["rmfcpu.json"]);
  size_t blocks = 0;
  for (size_t at = t.find("C P U  A C T I V I T Y"); at != std::string::npos;
       at = t.find("C P U  A C T I V I T Y", at + 1))
    ++blocks;
  CHECK(blocks == j["intervals"].size());
  std::istringstream in(t);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() > 12);
  CHECK(lines[2].find("INTERVAL 00.00.001") != std::string::npos);  // mm.ss.ttt
  CHECK(lines[6].rfind("---CPU---  ", 0) == 0);
  CHECK(lines[7].rfind("NUM  TYPE ", 0) == 0);
  // The I-streams' rows: number, CP, online 100.00, LPAR BUSY not modelled, MVS BUSY two decimals.
  for (int k = 0; k < 2; ++k) {
    std::istringstream row(lines[8 + k]);
    std::string num, type, online, lpar, mvs;
    row >> num >> type >> online >> lpar >> mvs;
    CHECK(num == std::to_string(k));
    CHECK(type == "CP");
    CHECK(online == "100.00");
    CHECK(lpar == "-----");
    CHECK(mvs == fmt::format("{:.2f}", j["intervals"][0]["istreams"][k]["mvs_busy_percent"].get<double>()));
  }
  CHECK(lines[10].rfind("TOTAL/AVERAGE", 0) == 0);
  // The MVS BUSY figures right-aligned under their heading.
  const std::string busy0 = fmt::format("{:.2f}", j["intervals"][0]["istreams"][0]["mvs_busy_percent"].get<double>());
  CHECK(lines[8].find(busy0, lines[8].find("-----")) + busy0.size() == lines[7].find("MVS BUSY") + 8);
}

TEST_CASE("rmf cpu: a run without a timeline writes no CPU Activity report", "[rmf][rmf_cpu]") {
  CpuRun r({"system.timeline=0"});
  CHECK(r.reports.count("rmfcpu.txt") == 0);
  CHECK(r.reports.count("rmfcpu.json") == 0);
}
