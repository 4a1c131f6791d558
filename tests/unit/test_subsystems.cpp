// The control program's parts and the subsystem interface: the SVC table, the EVM's
// region limits, and a subsystem plugged in the way heap/ and lock/ are, from the test.
#include <catch2/catch.hpp>
#include <sstream>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "os/control_program.h"
#include "os/evm.h"
#include "os/guest/include/tpf_svc.h"
#include "os/run_config.h"
#include "os/svc_table.h"

using Catch::Matchers::Contains;

namespace {

// A subsystem of the test's own: a periodic event, a report, a summary counter after
// ecbs_created, and the hooks.
struct Probe : os::Subsystem {
  uint64_t ticks = 0, processes = 0, ecbs = 0;
  bool ended = false;
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  void install(os::System& s) override {
    s.every(100000, [this](uint64_t) { ++ticks; });
    s.add_report({.name = "probe.txt", .write = [this](std::ostream& out) { out << "ticks " << ticks << "\n"; }});
    s.add_summary_counter({.key = "probe_ecbs", .label = "probe ECBs", .after = "ecbs_created", .value = [this] {
                             return ecbs;
                           }});
  }
  void process_ending(os::Process&) override { ++processes; }
  void ecb_ending(os::Ecb&, uint64_t) override { ++ecbs; }
  void run_ended() override { ended = true; }
};

}  // namespace

TEST_CASE("SVC table: one line a number, the entry cost charged first, a service's on top", "[cp][svc]") {
  os::SvcTable t(150, 400);
  int calls = 0;
  t.add({7, "SEVEN", os::SvcCost::Service, [&](emu::Cpu&, os::Ecb&) { ++calls; }});
  t.add({8, "EIGHT", os::SvcCost::Entry, [&](emu::Cpu&, os::Ecb&) { ++calls; }});
  CHECK_THROWS_AS(t.add({7, "AGAIN", os::SvcCost::Entry, {}}), std::logic_error);
  emu::Machine m(emu::default_machine_config(), true);
  emu::AddressSpace space(m.storage());
  m.start(space);
  emu::Cpu& cpu = m.cpu(0);
  os::Ecb e;
  const uint64_t c0 = cpu.cycles;
  CHECK(t.call(cpu, e, 7));
  CHECK(cpu.cycles - c0 == 550);
  CHECK(t.call(cpu, e, 8));
  CHECK(cpu.cycles - c0 == 700);
  CHECK_FALSE(t.call(cpu, e, 9));  // no line: the caller answers ENOSYS; the entry is paid
  CHECK(cpu.cycles - c0 == 850);
  CHECK(calls == 2);
  CHECK(cpu.cycles_by_cause()[size_t(emu::Cause::Svc)] == 450);
  CHECK(cpu.cycles_by_cause()[size_t(emu::Cause::Service)] == 400);
}

TEST_CASE("EVM: stacks stay in their region, GETSTOR in the system region", "[cp][evm]") {
  os::RunConfig cfg = app::load_run_config({}, {"system.stack_size=16M", "system.heap31_size=768M"});
  emu::Machine m(cfg.machine, true);
  os::Evm evm(m, cfg.system);
  auto p = evm.new_process(1);
  os::Ecb e;
  e.process = p;
  // 16 MB stacks and their guard gaps: 14 fit below TPF_EVM_STACK_TOP and above TPF_EVM_STACKS.
  e.thread = 13;
  CHECK(evm.start_program(e, 0x1000, 0, 0, 0));
  CHECK(e.gr[15] > TPF_EVM_STACKS);
  e.thread = 14;
  CHECK_FALSE(evm.start_program(e, 0x1000, 0, 0, 0));
  // heap31_size allows 768 MB of GETSTOR, the system region 256 MB: the region wins.
  CHECK(evm.getstor(*p, 200u << 20) == int64_t(TPF_EVM_SYSTEM));
  CHECK(evm.getstor(*p, 100u << 20) == 0);
  CHECK(evm.getstor(*p, 50u << 20) == int64_t(TPF_EVM_SYSTEM + (200u << 20)));
  // GETSTOR64: above the bar, more than the whole system region, block after block; the
  // 31-bit area is not touched, and RELSTOR takes a 64-bit block back.
  CHECK(evm.getstor64(*p, 300u << 20) == int64_t(TPF_EVM_SYSTEM64));
  CHECK(evm.getstor64(*p, 1) == int64_t(TPF_EVM_SYSTEM64 + (300u << 20)));
  CHECK(evm.getstor(*p, 4096) == int64_t(TPF_EVM_SYSTEM + (250u << 20)));
  CHECK(evm.relstor(*p, TPF_EVM_SYSTEM64) == 0);
  CHECK(evm.relstor(*p, TPF_EVM_SYSTEM64) == -14);
  CHECK(p->space->is_mapped(TPF_EVM_SYSTEM64 + (300u << 20)));
  CHECK_FALSE(p->space->is_mapped(TPF_EVM_SYSTEM64));
}

TEST_CASE("subsystems: a subsystem's periodic event, report, summary counter and hooks", "[cp][subsystem]") {
  os::RunConfig cfg = app::load_run_config({}, {"workload.messages=50", "machine.istreams=2"});
  Probe* probe = nullptr;
  cfg.subsystems = [&] {
    os::Subsystems s = app::subsystems();
    auto p = std::make_unique<Probe>();
    probe = p.get();
    s.push_back(std::move(p));
    return s;
  };
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  REQUIRE(probe);
  REQUIRE(cp.find_subsystem<Probe>() == probe);
  const os::RunSummary s = cp.run();
  CHECK(probe->ended);
  CHECK(probe->ticks > 0);
  CHECK(probe->ecbs == s.ecbs_exited);
  CHECK(probe->processes == s.ecbs_created);  // the demo's ECBs are processes of their own
  CHECK(s.counter("probe_ecbs") == probe->ecbs);
  std::ostringstream json;
  os::write_summary_json(json, s);
  CHECK_THAT(json.str(), Contains("\"ecbs_created\": " + std::to_string(s.ecbs_created) + ",\n    \"probe_ecbs\": "));
  bool report = false;
  for (const os::ReportFile& r : cp.reports()) report = report || r.name == "probe.txt";
  CHECK(report);
}

TEST_CASE("subsystems: two lines for one SVC number are refused", "[cp][subsystem]") {
  struct Clash : os::Subsystem {
    void declare(cfg::Schema&) const override {}
    void configure(const cfg::Config&) override {}
    void install(os::System& s) override { s.add_svc({TPF_SVC_LOG, "LOG AGAIN", os::SvcCost::Entry, {}}); }
  };
  os::RunConfig cfg = app::load_run_config({}, {});
  cfg.subsystems = [] {
    os::Subsystems s;
    s.push_back(std::make_unique<Clash>());
    return s;
  };
  emu::Machine m(cfg.machine, true);
  CHECK_THROWS_WITH(os::ControlProgram(m, cfg), Contains("SVC 113 has two lines"));
}
