// ZTRAP EI, the software profiler as an operator command (os/operator.h, os/ztrap.h):
// windows given in the YAML's operator: list, time-weighted samples beside exact
// executions and cycles, the PROG= filter, load-time errors of the operator: list
// (the generic list sections of emu/config), and determinism of etim.json.
#include <catch2/catch.hpp>

#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "app/subsystems.h"
#include "config/config.h"
#include "emu/machine.h"
#include "emu/profiler.h"
#include "heap/ecb_heap.h"
#include "lock/lock_subsystem.h"
#include "os/control_program.h"
#include "os/operator.h"
#include "os/run_config.h"
#include "os/ztrap.h"
#include "os/ztrap_subsystem.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

os::RunConfig config_of(const std::string& yaml, std::vector<std::string> sets) {
  auto c = std::make_shared<cfg::Config>(app::run_schema());
  c->load_yaml(yaml, "ztrap.yaml");
  for (const auto& s : sets) c->set(s);
  c->validate();
  os::RunConfig r = os::run_config(*c, os::operator_grammars_of(app::subsystems()));
  r.values = c, r.subsystems = app::subsystems;
  return r;
}

std::string error_of(const std::string& yaml, std::vector<std::string> sets = {}) {
  try {
    config_of(yaml, std::move(sets));
  } catch (const cfg::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

// Sums of every decoded slot's counters of the program image, by address.
using Counts = std::map<uint64_t, emu::SlotCounts>;
Counts snapshot(os::ControlProgram& cp) {
  Counts m;
  for (const auto& c : emu::slot_counts(cp.system_space())) m[c.address] = c;
  return m;
}

struct ZRun {
  std::string text, json;
  bool etim = false;
  os::RunSummary s;
  std::vector<emu::ProfileRow> rows;
  std::vector<Counts> snaps;  // taken by events at `snap_at` (cycles), right after ZTRAP's own
  Counts end;
  ZRun(const std::string& yaml, std::vector<std::string> sets, std::vector<uint64_t> snap_at = {}) {
    os::RunConfig cfg = config_of(yaml, std::move(sets));
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    snaps.resize(snap_at.size());
    // Scheduled after the constructor's operator events: at the same time they fire just
    // after them, with no instruction in between.
    for (size_t k = 0; k < snap_at.size(); ++k)
      m.events().schedule(snap_at[k], [&, k] { snaps[k] = snapshot(cp); });
    s = cp.run();
    std::ostringstream t, j;
    etim = cp.find_subsystem<os::ZtrapSubsystem>()->write_etim(t, j);
    text = t.str(), json = j.str();
    if (cp.find_subsystem<os::ZtrapSubsystem>()->ei()) rows = cp.find_subsystem<os::ZtrapSubsystem>()->ei()->rows();
    end = snapshot(cp);
  }
};

uint64_t total_samples(const Counts& c) {
  uint64_t n = 0;
  for (const auto& [a, s] : c) n += s.samples;
  return n;
}

const std::vector<std::string> k4 = {"machine.istreams=4", "workload.program=QZZ0", "workload.messages=400"};
constexpr uint64_t kCyclesPerUs = 5200;  // the default 5.2 GHz clock

}  // namespace

TEST_CASE("ztrap: the report covers exactly the START..STOP window", "[ztrap]") {
  const std::string yaml =
      "operator:\n"
      "  - at: 100us\n"
      "    command: ZTRAP EI START\n"
      "  - at: 250us\n"
      "    command: ZTRAP EI STOP\n";
  ZRun r(yaml, k4, {100 * kCyclesPerUs, 250 * kCyclesPerUs});
  REQUIRE(r.etim);
  REQUIRE(r.s.messages == 400);
  REQUIRE(r.s.simulated_seconds > 300e-6);  // the run goes on after STOP
  const Counts &a = r.snaps[0], &b = r.snaps[1];

  // Executions, cycles and samples of every row are the differences over the window.
  uint64_t window_execs = 0, report_execs = 0, report_samples = 0;
  for (const auto& [addr, c] : b) {
    auto it = a.find(addr);
    window_execs += c.count - (it == a.end() ? 0 : it->second.count);
  }
  REQUIRE(!r.rows.empty());
  for (const auto& row : r.rows) {
    INFO(row.prog << "+" << row.disp << " " << row.inst);
    const emu::SlotCounts& after = b.at(row.address);
    auto it = a.find(row.address);
    const emu::SlotCounts before = it == a.end() ? emu::SlotCounts{} : it->second;
    CHECK(row.count == after.count - before.count);
    CHECK(row.cycles == after.spent - before.spent);
    CHECK(row.samples == after.samples - before.samples);
    // Samples only for instructions that ran inside the window.
    if (row.samples) CHECK(row.count > 0);
    report_execs += row.count, report_samples += row.samples;
  }
  CHECK(report_execs == window_execs);
  // Nothing sampled before START or after STOP.
  CHECK(total_samples(a) == 0);
  CHECK(total_samples(r.end) == total_samples(b));
  CHECK(report_samples == total_samples(b));
  // 150 us on 4 busy I-streams, one sample every 4,999 cycles each: at most about 624;
  // fewer, since the control program's host work between instructions (ECB creation,
  // dispatch) and idle time are not sampled. Samples follow the instructions' cycles.
  const double most = 150.0 * kCyclesPerUs * 4 / 4999;
  uint64_t report_cycles = 0;
  for (const auto& row : r.rows) report_cycles += row.cycles;
  CHECK(double(report_samples) > 0.75 * most);
  CHECK(double(report_samples) < 1.02 * most);
  CHECK(double(report_samples) > 0.97 * double(report_cycles) / 4999);
  CHECK(double(report_samples) < 1.03 * double(report_cycles) / 4999);
  CHECK_THAT(r.text, Contains("ZTRAP EI window 100us..250us"));
  CHECK_THAT(r.text, Contains("P IS  DISP             INST              COUNT       EXECUTIONS             CYCLES\n"));
  CHECK_THAT(r.text, Contains("PROGRAMS BY COUNT (samples)\nPROG "));
  CHECK_THAT(r.text, Contains("BSS  QZZ0 - tpf_apps.elf"));
  CHECK_THAT(r.text, Contains("TOP 20 INSTRUCTIONS BY COUNT (samples)"));
  CHECK_THAT(r.json, Contains("\"count_is\": \"samples\""));
  CHECK_THAT(r.json, Contains("\"executions\": "));
}

TEST_CASE("ztrap: samples are time-weighted: stalled instructions get more than their share of executions",
          "[ztrap]") {
  ZRun r("", {"machine.istreams=4", "workload.program=QZZ0", "workload.messages=400", "system.ztrap.ei=whole-run",
              "system.ztrap.interval=997"});
  REQUIRE(r.etim);
  // Instructions that took their base cycles (register ops, cache hits) against those
  // that stalled (cache misses, line transfers, host services): samples per execution.
  uint64_t cheap_s = 0, cheap_e = 0, slow_s = 0, slow_e = 0, samples = 0, cycles = 0;
  for (const auto& row : r.rows) {
    samples += row.samples, cycles += row.cycles;
    if (!row.count) continue;
    if (row.cycles == row.count) cheap_s += row.samples, cheap_e += row.count;
    else if (row.cycles >= 20 * row.count) slow_s += row.samples, slow_e += row.count;
  }
  REQUIRE(cheap_e > 0);
  REQUIRE(slow_e > 0);
  const double cheap = double(cheap_s) / double(cheap_e), slow = double(slow_s) / double(slow_e);
  INFO("samples per execution: cheap " << cheap << ", stalled " << slow);
  CHECK(slow > 10 * cheap);
  // Over the whole report, samples follow cycles: one per interval.
  CHECK(double(samples) > 0.95 * double(cycles) / 997);
  CHECK(double(samples) < 1.05 * double(cycles) / 997);
  CHECK_THAT(r.text, Contains("ZTRAP EI window 0..end"));
}

TEST_CASE("ztrap: PROG= keeps only the programs that start with the name", "[ztrap]") {
  const std::string yaml =
      "operator: [{at: 0, command: ZTRAP EI START PROG=app_crc}, {at: 200us, command: ZTRAP EI STOP},\n"
      "           {at: 250us, command: ztrap ei start prog=QZZ}]\n";
  ZRun r(yaml, k4);
  REQUIRE(r.etim);
  REQUIRE(!r.rows.empty());
  bool crc = false, qzz = false;
  for (const auto& row : r.rows) {
    INFO(row.prog);
    CHECK((row.prog.rfind("app_crc", 0) == 0 || row.prog.rfind("QZZ", 0) == 0));
    crc |= row.prog == "app_crc32" && row.samples > 0;
    qzz |= row.prog == "QZZ0" && row.samples > 0;
  }
  CHECK(crc);
  CHECK(qzz);
  CHECK_THAT(r.text, Contains("window 0..200us, 250us..end"));
  CHECK_THAT(r.text, Contains("PROG=app_crc|QZZ"));
  CHECK_THAT(r.text, !Contains("BSS  memcpy"));
}

TEST_CASE("ztrap: without ZTRAP EI no report is written and nothing is sampled", "[ztrap]") {
  ZRun r("", k4);
  CHECK_FALSE(r.etim);
  CHECK(r.text.empty());
  CHECK(total_samples(r.end) == 0);
}

TEST_CASE("ztrap: the same configuration twice gives identical etim.json and etim.txt", "[ztrap][determinism]") {
  const std::string yaml =
      "operator:\n  - at: 50us\n    command: ZTRAP EI START\n  - at: 300us\n    command: ZTRAP EI STOP\n";
  ZRun a(yaml, k4), b(yaml, k4);
  REQUIRE(a.etim);
  CHECK(a.json == b.json);
  CHECK(a.text == b.text);
}

TEST_CASE("ztrap: operator commands parse, in any case, and name what is wrong", "[ztrap]") {
  const os::OperatorGrammars ztrap = {os::ztrap_grammar()};
  CHECK(os::parse_operator_command("ztrap ei start PROG=slockc", ztrap).owner == "ZTRAP");
  const os::ZtrapCommand cmd = os::parse_ztrap_command("ztrap ei start PROG=slockc");
  CHECK(cmd.start);
  CHECK(cmd.prog == "slockc");
  CHECK_FALSE(os::parse_ztrap_command("  ZTRAP   EI STOP ").start);
  CHECK(os::parse_ztrap_command("ZTRAP EI START").prog.empty());
  auto err = [&](const char* text) {
    try {
      os::parse_operator_command(text, ztrap);
    } catch (const cfg::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK_THAT(err("ZSTAT"), Contains("unknown operator command ZSTAT"));
  CHECK_THAT(err("ZTRAP EI"), Contains("needs START or STOP"));
  CHECK_THAT(err("ZTRAP EI GO"), Contains("expected START or STOP"));
  CHECK_THAT(err("ZTRAP EI STOP NOW"), Contains("takes no parameters"));
  CHECK_THAT(err("ZTRAP EI START SSU=BSS"), Contains("unknown parameter SSU=BSS"));
  CHECK_THAT(err("ZTRAP EI START PROG="), Contains("is not a program name"));
  CHECK_THAT(err(""), Contains("an empty command"));
  // The control program knows no command of its own: without the grammars, nothing parses.
  CHECK_THROWS_WITH(os::parse_operator_command("ZTRAP EI STOP", {}), Contains("(known: none)"));
}

TEST_CASE("ztrap: a bad operator: entry is a load-time error with its line", "[ztrap][config]") {
  CHECK(error_of("operator:\n  - at: 1ms\n    command: ZDSP\n") ==
        "ztrap.yaml:3: operator entry 1: command: \"ZDSP\": unknown operator command ZDSP (known: D M=SCM[(DETAIL)], "
        "CF SCM(amount|start-end),ONLINE|OFFLINE, F SCM,FAIL,CARD=pair.card, D ASM[,SCM], "
        "DUMP COMM=(title),JOBNAME=(name,...), SADMP [TITLE=(title)], ZTRAP EI START [PROG=name], ZTRAP EI STOP, "
        "ZSTAT, D M=CPU, D A,L, D IOS[,CONFIG], TRACE I=n|PROG=name,COUNT=k, TRACE OFF)");
  CHECK(error_of("operator:\n  - at: 1ms\n    comand: ZTRAP EI STOP\n") ==
        "ztrap.yaml:3: operator entry 1: comand: unknown field (did you mean command?)");
  CHECK(error_of("operator:\n  - at: 1ms\n    command: ZTRAP EI START\n  - command: ZTRAP EI STOP\n") ==
        "ztrap.yaml:4: operator entry 2: at: missing (every entry needs at, command)");
  CHECK(error_of("operator:\n  - at: 2 ms\n    command: ZTRAP EI START\n") ==
        "ztrap.yaml:2: operator entry 1: at: \"2 ms\" is not a duration (use e.g. 2s, 1ms, 0.5ms, 500us or 40ns)");
  CHECK(error_of("operator:\n  - at: 1ms\n    at: 2ms\n    command: ZTRAP EI START\n") ==
        "ztrap.yaml:3: operator entry 1: at: given twice (first at ztrap.yaml:2)");
  CHECK(error_of("operator:\n  - at: 1ms\n    command: [ZTRAP]\n") ==
        "ztrap.yaml:3: operator entry 1: command: expected a string, got a sequence");
  CHECK(error_of("operator:\n  at: 1ms\n") ==
        "ztrap.yaml:1: operator: expected a list of entries (- at: ..., command: ...), got a map");
  CHECK(error_of("operator:\n  - ZTRAP EI START\n") ==
        "ztrap.yaml:2: operator entry 1: expected a map of at, command, got a scalar");
  CHECK(error_of("operater:\n  - at: 1ms\n") == "ztrap.yaml:1: operater: unknown section (did you mean operator?)");
  // The order of START and STOP is checked at load time too.
  CHECK(error_of("operator:\n  - {at: 1ms, command: ZTRAP EI STOP}\n") ==
        "ztrap.yaml:2: operator entry 1: command: ZTRAP EI STOP at 1ms: no collection is on (a ZTRAP EI START must "
        "come before)");
  CHECK(error_of("operator:\n  - {at: 1ms, command: ZTRAP EI START}\n  - {at: 2ms, command: ZTRAP EI START}\n") ==
        "ztrap.yaml:3: operator entry 2: command: ZTRAP EI START at 2ms: the collection is already on (started at "
        "1ms by operator entry 1); STOP it first");
  CHECK(error_of("system: {ztrap: {ei: whole-run}}\noperator:\n  - {at: 1ms, command: ZTRAP EI START}\n") ==
        "ztrap.yaml:3: operator entry 1: command: ZTRAP EI START at 1ms: the collection is already on (started at 0 "
        "by system.ztrap.ei: whole-run); STOP it first");
  // Entries are sorted by time, so they may be written in any order.
  CHECK(error_of("operator:\n  - {at: 2ms, command: ZTRAP EI STOP}\n  - {at: 1ms, command: ZTRAP EI START}\n") ==
        "(no error)");
  CHECK(error_of("system: {ztrap: {ei: whole-run}}\noperator: [{at: 1ms, command: ZTRAP EI STOP}]\n") == "(no error)");
  CHECK(error_of("operator:\n") == "(no error)");
  CHECK(error_of("", {"operator=ZTRAP EI START"}) ==
        "--set: operator: is a list; give its entries in a YAML file");
  CHECK(error_of("system:\n  ztrap:\n    interval: 0\n") ==
        "ztrap.yaml:3: system.ztrap.interval: 0 is out of range 1..1000000000");
}

TEST_CASE("ztrap: the operator: list reaches the run configuration in time order", "[ztrap][config]") {
  os::RunConfig r = config_of(
      "operator:\n  - {at: 2ms, command: ZTRAP EI STOP}\n  - {at: 500us, command: ZTRAP EI START PROG=slockc}\n",
      {"system.ztrap.interval=1000"});
  REQUIRE(r.operators.size() == 2);
  CHECK(r.operators[0].at_ns == 500000);
  CHECK(os::parse_ztrap_command(r.operators[0].command.text).prog == "slockc");
  CHECK(r.operators[0].where == "ztrap.yaml:3: operator entry 2");
  CHECK(r.operators[1].command.owner == "ZTRAP");
  CHECK_FALSE(os::parse_ztrap_command(r.operators[1].command.text).start);
  CHECK(r.ztrap.interval == 1000);
  CHECK_FALSE(r.ztrap.whole_run);
  os::RunConfig d = config_of("", {});
  CHECK(d.operators.empty());
  CHECK(d.ztrap.interval == 4999);
}

TEST_CASE("config: list sections are declared with checked fields and listed", "[ztrap][config]") {
  cfg::Schema s;
  s.add({.path = "a.b", .type = cfg::ValueType::Integer, .default_value = "1", .description = "b"});
  s.add_list({.name = "jobs",
              .fields = {{.path = "size", .type = cfg::ValueType::Size, .default_value = "4K", .max = "1M",
                          .description = "how big"},
                         {.path = "name", .type = cfg::ValueType::String, .description = "what"}},
              .description = "Jobs."});
  CHECK_THROWS_AS(s.add_list({.name = "jobs", .fields = {{.path = "x", .description = "x"}}, .description = "d"}),
                  std::logic_error);
  CHECK_THROWS_AS(s.add_list({.name = "a", .fields = {{.path = "x", .description = "x"}}, .description = "d"}),
                  std::logic_error);
  CHECK_THROWS_AS(s.add_list({.name = "k", .fields = {}, .description = "d"}), std::logic_error);
  cfg::Config c(s);
  c.load_yaml("jobs:\n  - name: one\n  - {name: two, size: 1M}\n", "f1.yaml");
  c.load_yaml("jobs:\n  - name: three\n", "f2.yaml");
  const auto& l = c.list("jobs");
  REQUIRE(l.size() == 3);
  CHECK(l[0].get_uint("size") == 4096);
  CHECK(l[0].text("size") == "4K");
  CHECK(l[1].get_uint("size") == 1 << 20);
  CHECK(l[2].get_string("name") == "three");
  CHECK(l[2].place == "f2.yaml:2");
  CHECK(l[2].name() == "jobs entry 3");
  CHECK_THROWS_AS(c.list("nope"), std::logic_error);
  cfg::Config bad(s);
  try {
    bad.load_yaml("jobs:\n  - {name: x, size: 2M}\n", "f.yaml");
    FAIL("no error");
  } catch (const cfg::ConfigError& e) {
    CHECK(std::string(e.what()) == "f.yaml:2: jobs entry 1: size: 2M is above the maximum 1M");
  }
  std::ostringstream listing, example;
  s.write_listing(listing);
  s.write_example(example);
  CHECK_THAT(listing.str(), Contains("jobs: a list"));
  CHECK_THAT(listing.str(), Contains("size: size, at most 1M, default 4K"));
  CHECK_THAT(example.str(), Contains("#   name: string, required"));
  CHECK_THAT(example.str(), Contains("\njobs: []\n"));
  cfg::Config again(s);
  CHECK_NOTHROW(again.load_yaml(example.str(), "example.yaml"));
}
