// The control program end to end: real guest programs (apps/) in ECBs on the
// machine model, driven by the workload generator.
#include <catch2/catch.hpp>

#include "harness.h"
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "heap/ecb_heap.h"
#include "lock/lock_subsystem.h"
#include "os/control_program.h"
#include "os/guest/include/tpf_evm.h"
#include "os/run_config.h"
#include "os/summary.h"
#include "os/ztrap_subsystem.h"

using Catch::Matchers::Contains;

namespace {

struct CpRun {
  os::RunSummary s;
  std::string log, dumps, json;
  explicit CpRun(std::vector<std::string> sets) {
    os::RunConfig cfg = app::load_run_config({}, sets);
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    s = cp.run();
    log = cp.log();
    dumps = cp.dumps();
    std::ostringstream j;
    os::write_summary_json(j, s);
    json = j.str();
  }
};

using test::occurrences;

}  // namespace

TEST_CASE("control program: the demo transaction runs on 4 I-streams and returns every frame", "[cp]") {
  CpRun r({"machine.istreams=4", "workload.program=QZZ0", "workload.messages=400"});
  CHECK(r.s.messages == 400);
  CHECK(r.s.ecb_program_checks == 0);
  CHECK(r.s.ecb_timeouts == 0);
  CHECK(r.s.frames_in_use_at_end == 0);
  CHECK(r.s.istreams.size() == 4);
  CHECK(r.s.instructions / r.s.messages > 9000);  // QZZ0 runs about 10,000 instructions a message
  CHECK(r.s.instructions / r.s.messages < 11000);
  CHECK(r.s.svcs >= 7 * 400);  // GETSTOR, ENTER, BACK, DEFRC, RELSTOR, LOG?, exit
  CHECK(r.s.cpu_utilization > 0.9);  // 16 terminals, no think time: the I-streams are busy
}

TEST_CASE("control program: no frame leaks after 100,000 messages", "[cp]") {
  CpRun r({"machine.istreams=2", "workload.program=QZZ1", "workload.message_size=32", "workload.terminals=8",
           "workload.messages=100000"});
  CHECK(r.s.messages == 100000);
  CHECK(r.s.ecbs_created >= 100000);
  CHECK(r.s.ecbs_created - r.s.ecbs_exited <= 8);  // at most one in flight per terminal at the end
  CHECK(r.s.frames_in_use_at_end == 0);
}

TEST_CASE("control program: the CPU loop serves cross, ready, input, then deferred", "[cp]") {
  // One I-stream, one terminal: QCRE creates ECB 2 immediate (ready list), ECB 3 deferred,
  // ECB 4 any (cross list); then it exits and the next input message waits.
  CpRun r({"machine.istreams=1", "workload.program=QCRE", "workload.terminals=1", "workload.messages=2"});
  size_t cross = r.log.find("ECB 4      QZZ2"), ready = r.log.find("ECB 2      QZZ2"),
         input = r.log.find("ECB 5      QCRE"), deferred = r.log.find("ECB 3      QZZ2");
  REQUIRE(cross != std::string::npos);
  REQUIRE(ready != std::string::npos);
  REQUIRE(input != std::string::npos);
  CHECK(cross < ready);
  CHECK(ready < input);
  CHECK((deferred == std::string::npos || deferred > input));  // the deferred list comes last
}

TEST_CASE("control program: looping ECBs are time-sliced, then ended CTL-10 style; the run goes on",
          "[cp]") {
  CpRun r({"machine.istreams=1", "workload.program=QSPN", "workload.terminals=2", "workload.messages=4",
           "system.time_slice=100us", "system.timeout=1ms"});
  CHECK(r.s.messages == 4);
  CHECK(r.s.ecb_timeouts >= 4);
  CHECK(r.s.time_slices >= 4 * 9);  // each runs 1 ms in slices of 0.1 ms, two taking turns
  CHECK_THAT(r.dumps, Contains("CTL-10 PROGRAM TIMEOUT: ECB 1 (program QSPN"));
  CHECK_THAT(r.dumps, Contains("QSPN+0x"));
  CHECK(r.s.frames_in_use_at_end == 0);
}

TEST_CASE("control program: a program check ends that ECB with a report; the run goes on", "[cp]") {
  CpRun r({"machine.istreams=2", "workload.program=QPCK", "workload.messages=20"});
  CHECK(r.s.messages == 20);
  CHECK(r.s.ecb_program_checks >= 20);
  CHECK_THAT(r.dumps, Contains("PROGRAM CHECK"));
  CHECK_THAT(r.dumps, Contains("(program QPCK, I-stream"));
  CHECK(r.s.frames_in_use_at_end == 0);
}

TEST_CASE("control program: threads of one process share its heap, on any I-stream", "[cp]") {
  CpRun r({"machine.istreams=4", "workload.program=QTHR", "workload.terminals=2", "workload.messages=8"});
  CHECK(r.s.messages == 8);
  CHECK(r.s.ecb_program_checks == 0);
  CHECK(occurrences(r.log, "expected 400: right") == 8);
  CHECK(r.s.static_page_copies > 0);  // each process got its own C library state
  bool other_istream = r.log.find("on I-stream 1") != std::string::npos || r.log.find("on I-stream 2") != std::string::npos ||
                       r.log.find("on I-stream 3") != std::string::npos;
  CHECK(other_istream);
}

TEST_CASE("control program: closed arrivals obey Little's law, open arrivals their rate", "[cp]") {
  CpRun closed({"machine.istreams=1", "workload.program=QZZ0", "workload.terminals=4", "workload.think_time=1ms",
                "workload.messages=400", "workload.warmup=40"});
  // N = X (R + Z): throughput times (response + think) gives the terminal count.
  double n = closed.s.messages_per_second * (closed.s.response_mean_ms + 1.0) / 1000.0;
  CHECK(n == Approx(4.0).epsilon(0.15));
  CpRun open({"machine.istreams=1", "workload.program=QZZ0", "workload.arrivals=open", "workload.rate=5000",
              "workload.messages=500"});
  CHECK(open.s.messages_per_second == Approx(5000).epsilon(0.15));
  CHECK(open.s.cpu_utilization < 0.5);  // 5,000/s of ~20 us messages leaves the I-stream mostly idle
}

TEST_CASE("control program: the same configuration twice gives identical summary.json", "[cp][determinism]") {
  std::vector<std::string> sets{"machine.istreams=4", "workload.program=QZZ0", "workload.messages=300",
                                "workload.think_time=50us"};
  CpRun a(sets), b(sets);
  CHECK(a.json == b.json);
  CHECK(a.log == b.log);
}

TEST_CASE("control program: DELAY gives up control for at least the time asked", "[cp]") {
  CpRun r({"machine.istreams=1", "workload.program=QDLY", "workload.terminals=1", "workload.messages=5"});
  CHECK(r.s.messages == 5);
  CHECK(occurrences(r.log, "QDLY waited 10") == 5);  // 100 or 101 us: the delay plus the SVCs around it
  CHECK(r.s.cpu_utilization < 0.5);           // the I-stream idles while the ECB waits
}

// The image's layout (cmake/Guest.cmake, add_tpf_image; the tests layout.add_program_*
// check the figures): each page of the image area lies in the absolute frame its
// address names, so a program's cache sets do not depend on the other programs; every
// other frame comes after the area, so neither do the ECBs'.
TEST_CASE("control program: image pages lie in the frames their addresses name, other frames after the area", "[cp]") {
  os::RunConfig cfg = app::load_run_config({}, {"workload.messages=10"});
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  const uint64_t area_end_frame = 1 + (TPF_EVM_IMAGE_END - TPF_EVM_IMAGE) / emu::kPageSize;
  for (const char* symbol : {"QZZ0", "QSLG", "QTLS", "slockc_pj46800_lock", "malloc"}) {
    INFO(symbol);
    const emu::Symbol* s = cp.symbols().find(symbol);
    REQUIRE(s);
    emu::Translation t;
    REQUIRE(cp.system_space().translate(s->address, t) == emu::Translate::Ok);
    CHECK(t.frame->number == 1 + (s->address - TPF_EVM_IMAGE) / emu::kPageSize);
  }
  // Programs in their slots, the system's code before them.
  CHECK(cp.symbols().find("QZZ0")->address % TPF_EVM_PROGRAM_SLOT == 0);
  CHECK(cp.symbols().find("malloc")->address < TPF_EVM_IMAGE_DATA);
  emu::Translation shared;
  REQUIRE(cp.system_space().translate(TPF_EVM_SHARED, shared) == emu::Translate::Ok);
  CHECK(shared.frame->number >= area_end_frame);
  CHECK(cp.run().frames_in_use_at_end == 0);
}

TEST_CASE("control program: an image with a segment outside the image area is refused, naming it", "[cp]") {
  // demo.elf with its data segment (loadable, not executable) moved to 512 MB, above the area.
  std::ifstream in(std::string(TPFEMU_GUEST_DIR) + "/demo.elf", std::ios::binary);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
  auto be = [&](size_t off, unsigned n) {
    uint64_t v = 0;
    for (unsigned k = 0; k < n; ++k) v = v << 8 | b.at(off + k);
    return v;
  };
  const uint64_t phoff = be(32, 8), phentsize = be(54, 2), phnum = be(56, 2);
  uint64_t ph = 0;
  for (uint64_t k = 0; k < phnum && !ph; ++k)
    if (be(phoff + k * phentsize, 4) == 1 && !(be(phoff + k * phentsize + 4, 4) & 1))  // PT_LOAD, not PF_X
      ph = phoff + k * phentsize;
  REQUIRE(ph);
  for (unsigned k = 0; k < 8; ++k) b.at(ph + 16 + k) = uint8_t(0x20000000ull >> (56 - 8 * k));  // p_vaddr
  const std::string path = std::string(TPFEMU_GUEST_DIR) + "/../outside-image-area.elf";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));

  os::RunConfig cfg = app::load_run_config({}, {"system.image=" + path});
  emu::Machine m(cfg.machine, true);
  CHECK_THROWS_WITH(os::ControlProgram(m, cfg),
                    Contains("a segment at 0x20000000") && Contains("lies outside the image area 0x1000000..0xA000000"));
}

TEST_CASE("configs/open-arrivals.yaml does what its comment says: flat response times at its rate, growing near "
          "the I-streams' capacity", "[control_program][examples]") {
  // The comment's measured table: 5,000 and 100,000 a second are served at once
  // (about 0.006 ms); at 600,000 the 4 I-streams are about 90% busy and the mean is
  // several times longer. (5 ms windows here; the comment's runs are 200 ms.)
  auto mean_ms = [](const std::string& rate) {
    os::RunConfig cfg = app::load_run_config({std::string(TPFEMU_SOURCE_DIR) + "/configs/open-arrivals.yaml"},
                                             {"workload.rate=" + rate, "workload.duration=5ms"});
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    const os::RunSummary s = cp.run();
    INFO(rate << ": mean " << s.response_mean_ms << " ms, CPU " << s.cpu_utilization);
    return s.response_mean_ms;
  };
  const double at_default = mean_ms("5000"), at_100k = mean_ms("100000"), at_600k = mean_ms("600000");
  CHECK(at_default < 0.008);
  CHECK(at_100k < 1.2 * at_default);
  CHECK(at_600k > 3 * at_100k);
}
