// Flash Express on the machine's I/O path (devices/): guest programs (QSCM in
// tpf_io.elf) move blocks with EADM requests, wait for them while their I-stream runs
// others, and read back what they wrote, on a healthy card pair and on one whose card
// failed; errors come back as statuses and the run goes on; a run without devices has
// none and writes no devices report.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "app/subsystems.h"
#include "devices/devices.h"
#include "emu/machine.h"
#include "harness.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "scratch.h"

using Catch::Matchers::Contains;

namespace {

struct ScmRun {
  os::RunSummary s;
  std::string log, devices_text;
  uint64_t degraded = 0, requests = 0;
  explicit ScmRun(std::vector<std::string> sets, const std::string& operators = "") {
    std::vector<std::string> files;
    if (!operators.empty()) {
      files.push_back(test::scratch_file("test_devices_operators.yaml"));
      std::ofstream(files.back()) << "operator:\n" << operators;
    }
    std::vector<std::string> all = {"system.image=tpf_io.elf", "workload.program=QSCM", "machine.scm.card_pairs=1",
                                    "workload.warmup=0"};
    all.insert(all.end(), sets.begin(), sets.end());
    os::RunConfig cfg = app::load_run_config(files, all);
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    s = cp.run();
    log = cp.log();
    auto* d = cp.find_subsystem<devices::DeviceSubsystem>();
    if (d->scm()) {
      degraded = d->scm()->degraded_blocks();
      requests = d->scm()->stats().requests;
    }
    for (const os::ReportFile& r : cp.reports())
      if (r.name == "devices.txt" && (!r.wanted || r.wanted())) {
        std::ostringstream out;
        r.write(out);
        devices_text = out.str();
      }
  }
  size_t lines(const std::string& what) const { return test::occurrences(log, what); }
};

}  // namespace

TEST_CASE("devices: QSCM writes, reads back and releases 4 KB and 1 MB blocks through EADM, nothing lost",
          "[devices]") {
  SECTION("4 KB, full AOBs") {
    ScmRun r({"workload.message_text=124 4k 2", "workload.messages=6", "workload.terminals=3"});
    CHECK(r.lines("blocks of 4096 bytes written, read back and released, 0 bad") >= 6);
    CHECK(r.lines("EADM status") == 0);
    CHECK_THAT(r.devices_text, Contains("SCM"));
  }
  SECTION("1 MB") {
    ScmRun r({"workload.message_text=3 1m 1", "workload.messages=2", "workload.terminals=2"});
    CHECK(r.lines("requests of 3 blocks of 1048576 bytes written, read back and released, 0 bad") >= 2);
  }
}

TEST_CASE("devices: an ECB waiting for EADM gives its I-stream to others", "[devices]") {
  // One I-stream, four terminals: the requests of four ECBs are in the device together,
  // and the I-stream idles while every ECB waits.
  ScmRun r({"workload.message_text=16 4k 4", "workload.messages=8", "workload.terminals=4", "machine.istreams=1"});
  CHECK(r.lines(" 0 bad") >= 8);
  CHECK(r.s.cpu_utilization < 0.5);  // the I-stream idles while every ECB waits
  std::smatch m;
  static const std::regex in_sys(R"(\n(SCM +scm +[0-9]+ .*))");
  REQUIRE(std::regex_search(r.devices_text, m, in_sys));
  INFO(m[1]);
  // More than one request in the device at a time on average: they overlapped.
  std::istringstream cols(m[1]);
  std::vector<std::string> c;
  for (std::string w; cols >> w;) c.push_back(w);
  REQUIRE(c.size() >= 10);
  CHECK(std::stod(c[9]) > 1.5);  // IN SYS
}

TEST_CASE("devices: a failed card: the pair serves from its mirror, nothing is lost, and it is reported",
          "[devices]") {
  ScmRun r({"workload.message_text=64 4k 2", "workload.messages=4", "workload.terminals=2",
            "machine.scm.failed_cards=0.1"});
  CHECK(r.lines(" 0 bad") >= 4);
  CHECK(r.degraded > 0);
  CHECK_THAT(r.log, Contains("SCM: ") && Contains("FAILED"));
  CHECK_THAT(r.devices_text, Contains("FAILED"));
}

TEST_CASE("devices: EADM errors are statuses naming the MSB; the run goes on", "[devices]") {
  SECTION("no SCM online: the increment is offline") {
    ScmRun r({"workload.message_text=4 4k 1", "workload.messages=3", "machine.scm.online=0"});
    CHECK(r.lines("QSCM: EADM status") >= 3);
    CHECK_THAT(r.log, Contains("EADM: ECB") && Contains("offline"));
    CHECK(r.s.messages == 3);
  }
  SECTION("no Flash Express at all") {
    ScmRun r({"workload.message_text=4 4k 1", "workload.messages=2", "machine.scm.card_pairs=0"});
    CHECK(r.lines("QSCM: EADM status 101") >= 2);
    CHECK(r.devices_text.empty());  // no devices: no report
  }
}

TEST_CASE("devices: configuration errors name the key", "[devices][run_config]") {
  CHECK_THROWS_WITH(app::load_run_config({}, {"machine.scm.card_pairs=1", "machine.scm.defined=20G"}),
                    Contains("machine.scm.defined") && Contains("increments of 16G"));
  CHECK_THROWS_WITH(app::load_run_config({}, {"machine.scm.card_pairs=1", "machine.scm.failed_cards=2.0"}),
                    Contains("machine.scm.failed_cards") && Contains("pair 2 of 1 card pairs"));
  CHECK_THROWS_WITH(app::load_run_config({}, {"machine.scm.failed_cards=0.3"}),
                    Contains("machine.scm.failed_cards") && Contains("PAIR.CARD"));
  CHECK_THROWS_WITH(app::load_run_config({}, {"machine.dasd.cache_hit_ratio=1.5"}),
                    Contains("machine.dasd.cache_hit_ratio") && Contains("fraction"));
}

TEST_CASE("devices: the same EADM run twice gives the same completions and devices report", "[devices]") {
  const std::vector<std::string> sets = {"workload.message_text=32 4k 2", "workload.messages=4",
                                         "workload.terminals=2", "machine.istreams=2"};
  ScmRun a(sets), b(sets);
  CHECK(a.devices_text == b.devices_text);
  CHECK(a.log == b.log);
}

TEST_CASE("devices: D M=SCM, CF SCM and F SCM as operator: entries, answered in run.log in z/OS's layouts",
          "[devices][operator]") {
  ScmRun r({"workload.message_text=8 4k 1", "workload.messages=4", "workload.terminals=2"},
           "  - {at: 0ms, command: D M=SCM}\n  - {at: 50us, command: \"CF SCM(16G),ONLINE\"}\n"
           "  - {at: 100us, command: \"d m=scm(detail)\"}\n  - {at: 150us, command: \"F SCM,FAIL,CARD=0.1\"}\n"
           "  - {at: 200us, command: \"CF SCM(64G-80G),OFFLINE\"}\n");
  CHECK_THAT(r.log, Contains("IEE174I 00.00.00.000 DISPLAY M 1") && Contains("80G DEFINED") &&
                        Contains("16G OFFLINE-AVAILABLE"));
  CHECK_THAT(r.log, Contains("IEE195I SCM LOCATIONS 64G TO 80G ONLINE") && Contains("IEE712I CONFIG"));
  CHECK_THAT(r.log, Contains("STORAGE-CLASS MEMORY STATUS - INCREMENT DETAIL"));
  // D M=SCM(DETAIL) after the CF SCM ONLINE: its increments in address order, 0G to 64G.
  const size_t detail = r.log.find("INCREMENT DETAIL");
  REQUIRE(detail != std::string::npos);
  size_t last = detail;
  for (const char* inc : {"     0G ", "    16G ", "    32G ", "    48G ", "    64G "}) {
    const size_t at = r.log.find(inc, detail);
    INFO(inc);
    CHECK((at != std::string::npos && at > last));
    last = at;
  }
  CHECK_THAT(r.log, Contains("PAIR 0 CARD 1 FAILED"));
  CHECK_THAT(r.log, Contains("IEE195I SCM LOCATIONS 64G TO 80G OFFLINE"));
  CHECK(r.lines(" 0 bad") >= 4);
}

TEST_CASE("devices: a bad SCM command is a load-time error with its entry, or an answer when typed",
          "[devices][operator]") {
  os::OperatorGrammars g;
  for (const auto& sub : app::subsystems())
    if (dynamic_cast<devices::DeviceSubsystem*>(sub.get())) g = sub->operator_grammars();
  REQUIRE(g.size() == 1);
  CHECK(os::parse_operator_command("cf scm (16g), online", g).owner == "SCM");
  auto err = [&](const char* text) {
    try {
      os::parse_operator_command(text, g);
    } catch (const cfg::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK_THAT(err("D M=SCM(ALL)"), Contains("D M=SCM takes (DETAIL) or nothing"));
  CHECK_THAT(err("CF SCM(16X),ONLINE"), Contains("16X is not an amount"));
  CHECK_THAT(err("CF SCM(48G-64G),ONLINE"), Contains("OFFLINE only"));
  CHECK_THAT(err("CF SCM(16G)"), Contains(",ONLINE or ,OFFLINE"));
  CHECK_THAT(err("F SCM,FAIL,CARD=0.2"), Contains("pair.card"));
  CHECK_THAT(err("D ASM"), Contains("unknown operator command D") && Contains("D M=SCM[(DETAIL)]"));
  const std::string file = test::scratch_file("test_devices_bad_command.yaml");
  std::ofstream(file) << "operator:\n  - at: 1ms\n    command: CF SCM(1X),ONLINE\n";
  CHECK_THROWS_WITH(app::load_run_config({file}, {}),
                    Contains(file + ":3: operator entry 1") && Contains("1X is not an amount"));
}

namespace {

// What the paging subsystem will do: the control program writes pages to a DASD page
// volume with one channel program, reads them back with another, through the I/O path.
struct PageVolumeProbe : os::Subsystem {
  devices::DeviceSubsystem* devices = nullptr;
  os::System* system = nullptr;
  std::vector<uint8_t> written, read;
  uint64_t write_started = 0, write_done = 0, read_done = 0;
  uint32_t status = 99;
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  void install(os::System& s) override {
    system = &s;
    s.at(100000, [this] { write_pages(); });
  }
  std::shared_ptr<devices::Transfer> transfer(flashsim::Op op, uint8_t* data) {
    auto t = std::make_shared<devices::Transfer>();
    for (int k = 0; k < 16; ++k) t->request.blocks.push_back({op, uint64_t(k) * 4096, 4096, data + k * 4096});
    return t;
  }
  void write_pages() {
    written.resize(16 * 4096);
    for (size_t k = 0; k < written.size(); ++k) written[k] = uint8_t(k * 7 + k / 4096);
    write_started = 100000;
    system->start_io(devices->dasd_subchannel(3), 100000, transfer(flashsim::Op::Write, written.data()),
                     [this](const emu::IoInterruption& i) {
                       write_done = i.time;
                       read.assign(written.size(), 0);
                       system->start_io(devices->dasd_subchannel(3), i.time, transfer(flashsim::Op::Read, read.data()),
                                        [this](const emu::IoInterruption& j) { read_done = j.time, status = j.status; });
                     });
  }
};

}  // namespace

TEST_CASE("devices: a DASD page volume on the I/O path: a channel program of 16 pages out and back", "[devices]") {
  os::RunConfig cfg = app::load_run_config({}, {"machine.dasd.page_volumes=16", "workload.messages=8000"});
  PageVolumeProbe* probe = nullptr;
  cfg.subsystems = [&] {
    os::Subsystems s = app::subsystems();
    auto p = std::make_unique<PageVolumeProbe>();
    probe = p.get();
    s.push_back(std::move(p));
    return s;
  };
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  probe->devices = cp.find_subsystem<devices::DeviceSubsystem>();
  REQUIRE(probe->devices->dasd().size() == 16);
  cp.run();
  REQUIRE(probe->read_done > 0);
  CHECK(probe->status == 0);
  CHECK(probe->read == probe->written);
  // A channel program: the start, then 16 pages (hits or misses) on one volume.
  const double ms = double(probe->write_done - probe->write_started) / cfg.machine.clock_ghz / 1e6;
  CHECK(ms > 1.0);
  CHECK(ms < 100.0);
  CHECK(probe->devices->dasd()[3]->stats().requests == 2);
  CHECK(probe->devices->dasd()[2]->stats().requests == 0);
}
