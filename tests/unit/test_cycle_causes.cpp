// Cycles by cause (emu/cycle_cause.h, Cpu::charge, os::window_cycles_by_cause): every
// cycle an I-stream's clock moves has one cause, so the causes sum exactly to the
// clock in exec mode, and to the reported cycles, busy and idle cycles of each
// I-stream and of the whole machine in a run's summary, over the measurement window.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/subsystems.h"
#include "app/summary_read.h"
#include "emu/cache.h"
#include "emu/cycle_cause.h"
#include "emu/machine.h"
#include "guest_run.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "os/summary.h"

namespace {

using emu::Cause;
using emu::CyclesByCause;

uint64_t sum(const CyclesByCause& c) { return std::accumulate(c.begin(), c.end(), uint64_t(0)); }
uint64_t busy(const CyclesByCause& c) { return sum(c) - c[size_t(Cause::Idle)] - c[size_t(Cause::PageWait)]; }
uint64_t of(const CyclesByCause& c, Cause k) { return c[size_t(k)]; }

os::RunSummary run(const std::string& config, const std::vector<std::string>& extra) {
  os::RunConfig cfg = app::load_run_config({std::string(TPFEMU_SOURCE_DIR) + "/configs/" + config}, extra);
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  return cp.run();
}

// The exactness the summary promises, per I-stream and for the whole machine, in the
// RunSummary and in the summary.json written from it.
void check_sums(const os::RunSummary& s) {
  REQUIRE(!s.istreams.empty());
  for (size_t i = 0; i < s.istreams.size(); ++i) {
    INFO("I-stream " << i);
    const os::IStreamSummary& is = s.istreams[i];
    CHECK(sum(is.cycles_by_cause) == is.cycles);
    CHECK(busy(is.cycles_by_cause) == is.busy_cycles);
    CHECK(of(is.cycles_by_cause, Cause::Idle) == is.idle_cycles);
  }
  const CyclesByCause total = os::total_cycles_by_cause(s);
  CHECK(sum(total) == s.cycles);
  uint64_t busy_cycles = 0;
  for (const auto& is : s.istreams) busy_cycles += is.busy_cycles;
  CHECK(busy(total) == busy_cycles);

  std::ostringstream out;
  os::write_summary_json(out, s);
  const nlohmann::json j = nlohmann::json::parse(out.str());
  uint64_t from_json = 0;
  for (Cause k : emu::all_causes()) from_json += j.at("cycles_by_cause").at(emu::cause_name(k)).get<uint64_t>();
  CHECK(from_json == j.at("cycles").get<uint64_t>());
  for (const auto& is : j.at("istreams")) {
    uint64_t n = 0;
    for (Cause k : emu::all_causes()) n += is.at("cycles_by_cause").at(emu::cause_name(k)).get<uint64_t>();
    CHECK(n == is.at("cycles").get<uint64_t>());
  }
}

}  // namespace

TEST_CASE("cycles by cause: the cache model splits an access into storage and coherence, summing to its cycles",
          "[cycles][cache]") {
  emu::MachineConfig c = emu::default_machine_config();
  c.istreams = 2;
  c.serialize_lines = false;
  const uint32_t l1 = c.l1.latency;
  emu::MemoryHierarchy m(c);
  auto access = [&](unsigned i, emu::AccessKind k) {
    emu::MemoryHierarchy::AccessCost cost;
    const uint32_t total = m.access(i, 7, k, emu::MemoryHierarchy::kNoTime, &cost);
    CHECK(cost.storage + cost.coherence == total);
    return cost;
  };
  auto first = access(0, emu::AccessKind::Store);  // from memory: the storage hierarchy alone
  CHECK(first.storage == c.memory_latency - l1);
  CHECK(first.coherence == 0);
  auto moved = access(1, emu::AccessKind::Load);  // modified in I-stream 0: a line transfer
  CHECK(moved.storage == 0);
  CHECK(moved.coherence == c.transfer_latency - l1);
  auto upgrade = access(1, emu::AccessKind::Store);  // shared with 0: L3 round trip + cross-invalidate
  CHECK(upgrade.storage == c.l3.latency - l1);
  CHECK(upgrade.coherence == c.invalidate_latency);
  auto hit = access(1, emu::AccessKind::Store);
  CHECK(hit.storage + hit.coherence == 0);
}

TEST_CASE("cycles by cause: the window's counters scaled to a clamped busy figure still sum exactly",
          "[cycles][summary]") {
  CyclesByCause open{}, close{};
  close[size_t(Cause::Instruction)] = 1000;
  close[size_t(Cause::Storage)] = 333;
  close[size_t(Cause::Coherence)] = 333;
  close[size_t(Cause::Svc)] = 334;
  close[size_t(Cause::Idle)] = 50;  // the counter's own idle is not used: the window's remainder is
  // Not clamped: the deltas as they are.
  CyclesByCause same = os::window_cycles_by_cause(open, close, 2000, 7);
  CHECK(of(same, Cause::Storage) == 333);
  CHECK(of(same, Cause::Idle) == 7);
  // Clamped to 1001 of the 2000 counted: in proportion, exactly 1001, deterministic.
  CyclesByCause scaled = os::window_cycles_by_cause(open, close, 1001, 0);
  CHECK(busy(scaled) == 1001);
  // Shares 500.5, 166.67, 166.67, 167.17: the floors leave 2 cycles, which go to the
  // two largest remainders (storage and coherence, .67), not to instruction (.5).
  CHECK(of(scaled, Cause::Instruction) == 500);
  CHECK(of(scaled, Cause::Storage) == 167);
  CHECK(of(scaled, Cause::Coherence) == 167);
  CHECK(of(scaled, Cause::Svc) == 167);
  CHECK(scaled == os::window_cycles_by_cause(open, close, 1001, 0));
}

TEST_CASE("cycles by cause: the window's idle cycles split into page wait (as counted) and idle", "[cycles][summary]") {
  CyclesByCause open{}, close{};
  close[size_t(Cause::Instruction)] = 100;
  open[size_t(Cause::PageWait)] = 10;
  close[size_t(Cause::PageWait)] = 70;  // 60 in the window
  CyclesByCause w = os::window_cycles_by_cause(open, close, 100, 80);
  CHECK(of(w, Cause::PageWait) == 60);
  CHECK(of(w, Cause::Idle) == 20);
  CHECK(busy(w) == 100);
  // A wait charged past the window's end (at the I-stream's next work) is not more than
  // the window's idle time.
  w = os::window_cycles_by_cause(open, close, 100, 40);
  CHECK(of(w, Cause::PageWait) == 40);
  CHECK(of(w, Cause::Idle) == 0);
  CHECK(emu::is_idle(Cause::PageWait));
  CHECK(std::string(emu::cause_name(Cause::PageWait)) == "page_wait");
}

TEST_CASE("cycles by cause: in exec mode each I-stream's causes sum to its clock", "[cycles][machine]") {
  for (bool timing : {false, true}) {
    INFO("timing " << timing);
    test::GuestRun::Options o;
    o.istreams = 4;
    o.timing = timing;
    o.args = {"shared"};
    test::GuestRun g("machine_sharing", o);
    REQUIRE(g.exit_code == 0);
    uint64_t coherence = 0;
    for (unsigned i = 0; i < g.machine->istreams(); ++i) {
      const emu::Cpu& c = g.machine->cpu(i);
      CHECK(sum(c.cycles_by_cause()) == c.cycles);
      CHECK(busy(c.cycles_by_cause()) == g.machine->counters(i).busy_cycles);
      CHECK(of(c.cycles_by_cause(), Cause::Instruction) > 0);
      coherence += of(c.cycles_by_cause(), Cause::Coherence);
    }
    // One counter updated by CSG from every I-stream: coherence only with the model on.
    if (timing)
      CHECK(coherence > 0);
    else
      CHECK(coherence == 0);
  }
}

TEST_CASE("cycles by cause: a run's causes sum exactly to its cycles, busy and idle cycles", "[cycles][cp]") {
  SECTION("demo") {
    os::RunSummary s = run("demo.yaml", {"workload.messages=300", "workload.warmup=20"});
    check_sums(s);
    const CyclesByCause t = os::total_cycles_by_cause(s);
    for (Cause k : {Cause::Instruction, Cause::Svc, Cause::Service, Cause::Dispatch, Cause::Create, Cause::Exit})
      CHECK(of(t, k) > 0);
  }
  SECTION("syslog, csg-loop against pj46800: the spin's coherence goes away") {
    const std::vector<std::string> small = {"machine.istreams=4", "workload.terminals=4", "workload.messages=48",
                                            "workload.warmup=8"};
    os::RunSummary before = run("syslog-csg-loop.yaml", small), after = run("syslog-pj46800.yaml", small);
    check_sums(before);
    check_sums(after);
    CHECK(of(os::total_cycles_by_cause(before), Cause::Coherence) >
          of(os::total_cycles_by_cause(after), Cause::Coherence));
  }
  SECTION("tls, with warm-up (the window opens mid-run)") {
    os::RunSummary s = run("tls-baseline.yaml", {"workload.messages=260", "workload.warmup=200",
                                                 "workload.data_file=" + std::string(TPFEMU_SOURCE_DIR) +
                                                     "/heap/traces/tls13-server.trace"});
    check_sums(s);
  }
}

TEST_CASE("cycles by cause: summary.json reads back with them; one written before them compares as \"-\"",
          "[cycles][summary]") {
  os::RunSummary s;
  s.messages = 10;
  s.istreams.resize(2);
  for (unsigned i = 0; i < 2; ++i) {
    os::IStreamSummary& is = s.istreams[i];
    is.cycles_by_cause[size_t(Cause::Instruction)] = 700 + i, is.cycles_by_cause[size_t(Cause::Coherence)] = 200;
    is.cycles_by_cause[size_t(Cause::Idle)] = 100 - i;
    is.cycles = 1000, is.busy_cycles = 900 + i, is.idle_cycles = 100 - i;
  }
  s.cycles = 2000;
  const std::string dir = std::filesystem::temp_directory_path().string();
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string p = dir + "/" + std::to_string(::getpid()) + "-" + name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  };
  std::ostringstream out;
  os::write_summary_json(out, s);
  const os::RunSummary back = app::read_summary_json(write("tpfemu-causes-new.json", out.str()));
  CHECK(back.has_cycles_by_cause);
  CHECK(back.istreams[1].cycles_by_cause == s.istreams[1].cycles_by_cause);

  nlohmann::json old = nlohmann::json::parse(out.str());
  old.erase("cycles_by_cause");
  for (auto& is : old["istreams"]) is.erase("cycles_by_cause");
  const os::RunSummary before = app::read_summary_json(write("tpfemu-causes-old.json", old.dump()));
  CHECK(!before.has_cycles_by_cause);
  std::ostringstream cmp;
  app::write_comparison(cmp, "old", before, "new", back);
  CHECK(cmp.str().find("cycles_by_cause.coherence") != std::string::npos);
  std::istringstream lines(cmp.str());
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("cycles_by_cause.instruction", 0) == 0) CHECK(line.find(" -  ") != std::string::npos);
  for (const char* name : {"tpfemu-causes-new.json", "tpfemu-causes-old.json"})
    std::filesystem::remove(dir + "/" + std::to_string(::getpid()) + "-" + name);
}
