// The displays and monitors an analyst expects (issue 48): D M=CPU, D A,L, D IOS,CONFIG
// (os/displays.h), RMF's Workload Activity and the SMF type 30 step record
// (os/rmf_workload.h), RMF's device activity (devices/: rmfdev.txt and .json).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "harness.h"
#include "os/control_program.h"
#include "os/rmf_workload.h"
#include "os/run_config.h"
#include "os/ztrap_subsystem.h"
#include "scratch.h"

using Catch::Matchers::Contains;

namespace {

// QPGT under paging to SCM and DASD: ECBs that live for milliseconds and I/O on both kinds of device.
const std::vector<std::string> kPaging = {"system.image=tpf_io.elf", "workload.program=QPGT", "workload.warmup=0",
                                          "machine.istreams=2", "workload.terminals=2", "workload.messages=2",
                                          "workload.message_text=6 2", "system.paging.real_storage=8M",
                                          "system.paging.scm=2M", "machine.scm.card_pairs=1",
                                          "machine.dasd.page_volumes=2"};

struct Run {
  os::RunSummary s;
  std::string log;
  std::map<std::string, std::string> reports;
  uint64_t io_started = 0, busy_cycles = 0, elapsed = 0;
  double ghz = 0;
  Run(std::vector<std::string> sets, const std::string& operators = "") {
    std::vector<std::string> files;
    if (!operators.empty()) {
      files.push_back(test::scratch_file("test_analyst_views.yaml"));
      std::ofstream(files.back()) << "operator:\n" << operators;
    }
    os::RunConfig cfg = app::load_run_config(files, sets);
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    s = cp.run();
    log = cp.log();
    io_started = m.io().started();
    elapsed = m.elapsed_cycles();
    ghz = m.config().clock_ghz;
    for (unsigned k = 0; k < m.istreams(); ++k) busy_cycles += m.counters(k).busy_cycles;
    for (const os::ReportFile& r : cp.reports()) {
      if (!r.write || (r.wanted && !r.wanted())) continue;
      std::ostringstream out;
      r.write(out);
      reports[r.name] = out.str();
    }
  }
};

}  // namespace

TEST_CASE("displays: D M=CPU, D A,L and D IOS,CONFIG in z/OS's layouts, with what the model has",
          "[displays][operator]") {
  Run r(kPaging, "  - {at: 1ms, command: D M=CPU}\n  - {at: 2ms, command: \"d a,l\"}\n"
                 "  - {at: 2ms, command: \"D IOS,CONFIG\"}\n");
  INFO(r.log);
  // D M=CPU: an ID line per I-stream, online; none past the machine's two.
  CHECK_THAT(r.log, Contains("IEE174I 00.00.00.001 DISPLAY M 1\n") && Contains("   PROCESSOR STATUS\n"));
  CHECK_THAT(r.log, Contains("   00  +  ") && Contains("   01  +  "));
  CHECK(test::occurrences(r.log, "   02  +") == 0);
  CHECK_THAT(r.log, Contains("2 I-STREAMS"));
  // D A,L: the two QPGT address spaces (a process each), their ECBs and CPU so far.
  CHECK_THAT(r.log, Contains("IEE114I 00.00.00.002 0000.000 ACTIVITY 2\n"));
  CHECK_THAT(r.log, Contains("   00002    00000    00000      00000"));  // JOBS: 2
  CHECK(test::occurrences(r.log, " QPGT     QPGT     QPGT     ") == 2);
  CHECK_THAT(r.log, Contains("ECBS=1    CT=0000"));
  // D IOS,CONFIG: SCM and the two page volumes on their subchannels, and I/O under way.
  CHECK_THAT(r.log, Contains("IOS506I 00.00.00.002 I/O CONFIG DATA") && Contains("SUBCHANNELS 3  I/O STARTED "));
  CHECK_THAT(r.log, Contains("   0000  SCM\n") && Contains("   0001  0980\n") && Contains("   0002  0981\n"));
  CHECK_THAT(r.log, Contains("CHANNEL PATHS: NOT MODELLED"));
}

TEST_CASE("displays: a display the model does not take is a load-time error, or an answer when typed",
          "[displays][operator]") {
  const std::string bad = test::scratch_file("test_analyst_views_bad.yaml");
  std::ofstream(bad) << "operator:\n  - {at: 0ms, command: \"D A,ALL\"}\n";
  CHECK_THROWS_WITH(app::load_run_config({bad}, {}), Contains("D A takes L (D A,L)"));
  std::ofstream(bad) << "operator:\n  - {at: 0ms, command: \"D IOS,STALL\"}\n";
  CHECK_THROWS_WITH(app::load_run_config({bad}, {}), Contains("D IOS takes ,CONFIG or nothing"));
  os::RunConfig cfg = app::load_run_config({}, {});
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  CHECK_THAT(cp.operator_command("D M=CPUS", 0), Contains("ERROR at 0: ") && Contains("unknown operator command"));
  CHECK_THAT(cp.operator_command("D IOS", 0), Contains("IOS506I 00.00.00.000 I/O CONFIG DATA") && Contains("NO DEVICES"));
}

TEST_CASE("rmf: Workload Activity counts every ECB by program: transactions, response buckets, CPU a transaction",
          "[rmf]") {
  Run r(kPaging);
  const nlohmann::json j = nlohmann::json::parse(r.reports.at("rmfwlm.json"));
  REQUIRE(j["programs"].size() == 1);
  const nlohmann::json& p = j["programs"][0];
  CHECK(p["program"] == "QPGT");
  CHECK(p["transactions"] == 2);
  CHECK(p["transactions"].get<uint64_t>() + p["threads"].get<uint64_t>() == r.s.ecbs_exited);
  uint64_t bucketed = 0;
  for (const auto& b : p["response_distribution"]) bucketed += b["transactions"].get<uint64_t>();
  CHECK(bucketed == 2);
  // QPGT pages for milliseconds: its response is more than its CPU, and under the run's length.
  const double mean = p["response_mean_ms"].get<double>(), cpu = p["cpu_per_transaction_us"].get<double>() / 1e3;
  CHECK(mean > cpu);
  CHECK(cpu > 0);
  CHECK(p["response_max_ms"].get<double>() <= j["elapsed_s"].get<double>() * 1e3);
  CHECK_THAT(r.reports.at("rmfwlm.txt"), Contains("W O R K L O A D   A C T I V I T Y") &&
                                             Contains("RESPONSE TIME DISTRIBUTION") && Contains("\nQPGT "));
  Run again(kPaging);
  CHECK(again.reports.at("rmfwlm.txt") == r.reports.at("rmfwlm.txt"));
  CHECK(again.reports.at("rmfwlm.json") == r.reports.at("rmfwlm.json"));
}

TEST_CASE("smf30: the run as a step: CPU, EXCPs, elapsed, and what is not modelled said so", "[rmf][smf]") {
  Run r(kPaging);
  const nlohmann::json j = nlohmann::json::parse(r.reports.at("smf30.json"));
  CHECK(j["excps"] == r.io_started);
  CHECK(r.io_started > 0);
  CHECK(j["job"] == "QPGT");
  const double ghz = r.ghz;
  CHECK(j["cpu_s"].get<double>() == Approx(double(r.busy_cycles) / ghz / 1e9).margin(1e-6));
  CHECK(j["elapsed_s"].get<double>() == Approx(double(r.elapsed) / ghz / 1e9).margin(1e-6));
  CHECK_THAT(r.reports.at("smf30.txt"), Contains("SMF30TEP") && Contains("SMF30CPT") &&
                                            Contains("N/A (no SRM service-unit rate"));
}

TEST_CASE("rmf: device activity splits a 3390's response into IOSQ, PEND, DISC, CONN; SCM's split is not modelled",
          "[rmf][devices]") {
  Run r(kPaging);
  INFO(r.reports["rmfdev.txt"]);
  const nlohmann::json j = nlohmann::json::parse(r.reports.at("rmfdev.json"));
  bool dasd_used = false;
  for (const auto& d : j["devices"]) {
    if (d["kind"] == "scm") {
      CHECK(d["pend_ms"] == "N/M");
      CHECK(d["conn_ms"] == "N/M");
      CHECK(d["requests"].get<uint64_t>() > 0);
      continue;
    }
    if (d["requests"].get<uint64_t>() == 0) continue;
    dasd_used = true;
    // PEND is the model's start I/O time, 200 us a request (flashsim/dasd.h's start_io_ns).
    CHECK(d["pend_ms"].get<double>() == Approx(0.2));
    CHECK(d["conn_ms"].get<double>() > 0);
    // The parts add up to the response time.
    CHECK(d["resp_ms"].get<double>() ==
          Approx(d["iosq_ms"].get<double>() + d["pend_ms"].get<double>() + d["disc_ms"].get<double>() +
                 d["conn_ms"].get<double>())
              .epsilon(1e-4));
  }
  CHECK(dasd_used);
  CHECK_THAT(r.reports.at("rmfdev.txt"), Contains("D E V I C E   A C T I V I T Y") && Contains("\nSCM   SCM ") &&
                                             Contains("\n0980  3390 ") && Contains("N/M"));
}

TEST_CASE("trace: TRACE I=n,COUNT=k writes k instructions of the I-stream with registers; the figures do not move",
          "[trace][operator]") {
  const std::vector<std::string> sets = {"machine.istreams=2", "workload.messages=20", "workload.warmup=0"};
  Run plain(sets);
  Run traced(sets, "  - {at: 20us, command: \"TRACE I=1,COUNT=50\"}\n");
  INFO(traced.log);
  REQUIRE(traced.reports.count("itrace.txt"));
  CHECK(plain.reports.count("itrace.txt") == 0);
  const std::string& t = traced.reports.at("itrace.txt");
  CHECK_THAT(t, Contains("TRACE 1 at 00.00.00.000 (TRACE I=1,COUNT=50): the next 50 instructions of I-stream 1"));
  CHECK(test::occurrences(t, "\nIS01 ") == 50);
  CHECK(test::occurrences(t, "\nIS00 ") == 0);
  CHECK(test::occurrences(t, "\n  R0=") == 50);
  CHECK(test::occurrences(t, " RF=") == 50);
  CHECK_THAT(t, Contains("TRACE COMPLETE"));
  // Tracing holds the host only: the same instructions and cycles.
  CHECK(traced.s.instructions == plain.s.instructions);
  CHECK(traced.s.cycles == plain.s.cycles);
  CHECK(traced.busy_cycles == plain.busy_cycles);
  CHECK(traced.elapsed == plain.elapsed);
  CHECK(traced.reports.at("rmfwlm.json") == plain.reports.at("rmfwlm.json"));
  Run again(sets, "  - {at: 20us, command: \"TRACE I=1,COUNT=50\"}\n");
  CHECK(again.reports.at("itrace.txt") == t);
}

TEST_CASE("trace: TRACE PROG=name keeps the instructions run for that program's ECBs", "[trace][operator]") {
  Run r({"workload.messages=10", "workload.warmup=0"}, "  - {at: 5us, command: \"trace prog=QZZ0,count=30\"}\n");
  INFO(r.log);
  const std::string& t = r.reports.at("itrace.txt");
  CHECK(test::occurrences(t, "\nIS00 ") == 30);
  CHECK(test::occurrences(t, " QZZ0\n") == 30);  // each line ends with its ECB's program
  CHECK_THAT(t, Contains("PSW=") && Contains("INST="));
}

TEST_CASE("trace: bad TRACE commands", "[trace][operator]") {
  const std::string bad = test::scratch_file("test_analyst_views_trace.yaml");
  for (const char* c : {"TRACE I=0", "TRACE COUNT=5", "TRACE I=0,PROG=QZZ0,COUNT=5", "TRACE I=0,COUNT=0",
                        "TRACE I=0,COUNT=100001", "TRACE X=1,COUNT=5"}) {
    INFO(c);
    std::ofstream(bad) << "operator:\n  - {at: 0ms, command: \"" << c << "\"}\n";
    CHECK_THROWS_WITH(app::load_run_config({bad}, {}), Contains("TRACE") && Contains(bad));
  }
  os::RunConfig cfg = app::load_run_config({}, {"machine.istreams=2"});
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  CHECK_THAT(cp.operator_command("TRACE I=2,COUNT=5", 0), Contains("I=2 is not an I-stream of this machine (0..1)"));
  CHECK_THAT(cp.operator_command("TRACE OFF", 0), Contains("no trace is on"));
  CHECK_THAT(cp.operator_command("TRACE I=0,COUNT=5", 0), Contains("TRACE STARTED"));
  CHECK_THAT(cp.operator_command("TRACE I=1,COUNT=5", 0), Contains("a trace is on already"));
  CHECK_THAT(cp.operator_command("ZTRAP EI START", 0), Contains("STARTED"));
  CHECK_THAT(cp.operator_command("TRACE OFF", 0), Contains("TRACE ENDED"));
  CHECK_THAT(cp.operator_command("TRACE I=0,COUNT=5", 0), Contains("ZTRAP EI is collecting"));
  // The TRACE OFF left ZTRAP EI's sampling on: the run it then makes has samples.
  cp.run();
  uint64_t samples = 0;
  for (const auto& row : cp.find_subsystem<os::ZtrapSubsystem>()->ei()->rows()) samples += row.samples;
  CHECK(samples > 0);
}
