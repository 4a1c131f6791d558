// The machine's I/O path (emu/io.h): a request started on a device completes as an I/O
// interruption at the time the device gives, on the machine's event queue, with the
// starter's parameter and operation; and the control program's side (os::System
// start_io): a subsystem's device, a request started on its behalf, `done` at the
// completion while the run goes on.
#include <catch2/catch.hpp>

#include <vector>

#include "app/subsystems.h"
#include "emu/io.h"
#include "emu/machine.h"
#include "os/control_program.h"
#include "os/run_config.h"

namespace {

// One request at a time, `service` cycles each; a request for block 13 fails.
struct Block : emu::IoOperation {
  explicit Block(uint64_t n) : block(n) {}
  uint64_t block;
  bool done = false;
};

struct SerialDevice : emu::IoDevice {
  uint64_t service = 1000, free_at = 0, starts = 0;
  std::string name() const override { return "serial"; }
  emu::IoResult start(uint64_t now, emu::IoOperation& op) override {
    auto* b = dynamic_cast<Block*>(&op);
    ++starts;
    if (!b) return {now, 2, "not a block request"};
    const uint64_t begin = std::max(now, free_at);
    free_at = begin + service;
    b->done = true;
    if (b->block == 13) return {free_at, 1, "block 13: no such block"};
    return {free_at, 0, ""};
  }
};

struct Recorder : emu::IoInterruptHandler {
  std::vector<emu::IoInterruption> seen;
  void io_interruption(const emu::IoInterruption& i) override { seen.push_back(i); }
};

}  // namespace

TEST_CASE("I/O: completions come as interruptions at the device's times, queued requests after each other",
          "[io]") {
  emu::EventQueue events;
  emu::ChannelSubsystem io(events);
  SerialDevice d;
  Recorder r;
  io.set_handler(&r);
  const unsigned sch = io.attach(d);
  CHECK(sch == 0);
  REQUIRE(io.start(sch, 100, std::make_shared<Block>(1), 11));
  REQUIRE(io.start(sch, 200, std::make_shared<Block>(13), 12));
  REQUIRE(io.start(sch, 5000, std::make_shared<Block>(2), 13));
  CHECK_FALSE(io.start(7, 100, std::make_shared<Block>(1), 14));  // no such subchannel: nothing starts
  CHECK(io.pending() == 3);
  std::vector<uint64_t> times;
  while (!events.empty()) {
    times.push_back(events.next_time());
    events.fire_next();
  }
  CHECK(times == std::vector<uint64_t>{1100, 2100, 6000});
  REQUIRE(r.seen.size() == 3);
  CHECK(r.seen[0].parameter == 11);
  CHECK(r.seen[0].started == 100);
  CHECK(r.seen[0].status == 0);
  CHECK(r.seen[1].parameter == 12);
  CHECK(r.seen[1].status == 1);
  CHECK(r.seen[1].detail == "block 13: no such block");
  CHECK(dynamic_cast<Block&>(*r.seen[2].operation).block == 2);  // the starter's operation comes back
  CHECK(io.pending() == 0);
  CHECK(io.completed() == 3);
}

TEST_CASE("I/O: a device's completion before its start is taken as at the start", "[io]") {
  struct Eager : emu::IoDevice {
    std::string name() const override { return "eager"; }
    emu::IoResult start(uint64_t, emu::IoOperation&) override { return {0, 0, ""}; }
  } d;
  emu::EventQueue events;
  emu::ChannelSubsystem io(events);
  io.start(io.attach(d), 500, std::make_shared<Block>(1), 1);
  CHECK(events.next_time() == 500);
}

namespace {

// A subsystem with a device of its own: every 200,000 cycles the control program starts
// a request on it and counts the completions and when they came.
struct Pager : os::Subsystem {
  SerialDevice device;
  unsigned sch = 99;
  os::System* system = nullptr;
  std::vector<std::pair<uint64_t, uint64_t>> done;  // started, completed
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  void install(os::System& s) override {
    system = &s;
    device.service = 50000;
    sch = s.attach_device(device);
    s.every(200000, [this](uint64_t now) {
      system->start_io(sch, now, std::make_shared<Block>(now), [this](const emu::IoInterruption& i) {
        done.emplace_back(i.started, i.time);
      });
    });
  }
};

}  // namespace

TEST_CASE("I/O: a subsystem's device on the control program's I/O path, completions while the run goes on",
          "[io][subsystem]") {
  os::RunConfig cfg = app::load_run_config({}, {"workload.messages=200"});
  Pager* pager = nullptr;
  cfg.subsystems = [&] {
    os::Subsystems s = app::subsystems();
    auto p = std::make_unique<Pager>();
    pager = p.get();
    s.push_back(std::move(p));
    return s;
  };
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  const os::RunSummary s = cp.run();
  REQUIRE(pager);
  CHECK(s.messages == 200);
  CHECK(pager->sch == 0);
  REQUIRE(pager->done.size() >= 2);
  for (const auto& [started, completed] : pager->done) CHECK(completed == started + 50000);
  CHECK(m.io().started() >= m.io().completed());
  CHECK(m.io().completed() == pager->done.size());
}
