// The operator console (os/console.h): commands typed on a TCP connection while a run
// goes on act at the simulated time of the poll that takes them, are answered on that
// connection, and are logged with the operator: entry that replays them.
#include <catch2/catch.hpp>

#include <utility>  // before Asio (Boost 1.74 needs it)

#include <boost/asio.hpp>
#include <string>

#include "app/subsystems.h"
#include "heap/ecb_heap.h"
#include "lock/lock_subsystem.h"
#include "os/ztrap_subsystem.h"
#include "emu/machine.h"
#include "os/console.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "os/ztrap.h"

using boost::asio::ip::tcp;
using Catch::Matchers::Contains;

namespace {

os::RunConfig syslog_config() {
  return app::load_run_config({}, {"workload.program=QSLG", "machine.istreams=4", "workload.terminals=4",
                                  "workload.routing=terminal", "workload.messages=40",
                                  "system.simple_lock.algorithm=pj46800", "system.console.poll_interval=20us"});
}

std::string read_all(tcp::socket& s) {
  boost::asio::streambuf b;
  boost::system::error_code ec;
  s.non_blocking(true);
  std::string out;
  for (;;) {
    char buf[4096];
    size_t n = s.read_some(boost::asio::buffer(buf), ec);
    if (ec) break;
    out.append(buf, n);
  }
  return out;
}

}  // namespace

TEST_CASE("console: ZTRAP EI typed while the run goes on, answered, logged for replay; errors answered", "[console]") {
  os::TcpConsole console(0);
  REQUIRE(console.port() != 0);
  boost::asio::io_context io;
  tcp::socket client(io);
  client.connect(tcp::endpoint(boost::asio::ip::address_v4::loopback(), console.port()));
  // Typed before the run starts: the first poll (at 20 us) takes them all, in order.
  boost::asio::write(client, boost::asio::buffer(std::string("help\r\nZTRAP EI STOP\nZTRAP EI START PROG=slockc\n"
                                                             "ZTRAP EI START\nZTRAP XX\n")));

  os::RunConfig cfg = syslog_config();
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.set_console(&console);
  os::RunSummary s = cp.run();
  CHECK(s.messages == 40);

  const std::string answers = read_all(client);
  INFO(answers);
  CHECK_THAT(answers, Contains("tpfemu operator console"));
  CHECK_THAT(answers, Contains("ZTRAP EI START [PROG=name]"));           // HELP (any case, \r dropped)
  CHECK_THAT(answers, Contains("ERROR at 20us: ZTRAP EI is not on"));     // STOP before START
  CHECK_THAT(answers, Contains("ZTRAP EI STARTED at 20us PROG=slockc"));
  CHECK_THAT(answers, Contains("ERROR at 20us: ZTRAP EI is already on"));  // a second START
  CHECK_THAT(answers, Contains("ERROR at 20us: \"ZTRAP XX\": ZTRAP knows only EI"));

  // The collection ran from 20 us to the end of the run, on the lock code only.
  REQUIRE(cp.subsystem<os::ZtrapSubsystem>()->ei());
  CHECK(cp.subsystem<os::ZtrapSubsystem>()->ei()->on());
  uint64_t samples = 0;
  for (const auto& r : cp.subsystem<os::ZtrapSubsystem>()->ei()->rows()) {
    CHECK(r.prog.rfind("slockc", 0) == 0);
    samples += r.samples;
  }
  CHECK(samples > 0);
  CHECK_THAT(cp.log(), Contains("operator console: ZTRAP EI START PROG=slockc   (to replay: operator: "
                                "[{at: 20us, command: ZTRAP EI START PROG=slockc}])"));
}

TEST_CASE("console: a STOP answers with the window's top instructions", "[console]") {
  os::RunConfig cfg = syslog_config();
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.run();
  const uint64_t now = m.elapsed_cycles();
  CHECK_THAT(cp.operator_command("ZTRAP EI START PROG=slockc", now), Contains("STARTED"));
  const std::string stop = cp.operator_command("ztrap ei stop", now);
  CHECK_THAT(stop, Contains("ZTRAP EI STOPPED at"));
  CHECK_THAT(stop, Contains("0 samples so far"));  // nothing ran between START and STOP
}

TEST_CASE("console: a port that is taken is an error naming it", "[console]") {
  os::TcpConsole first(0);
  CHECK_THROWS_WITH(os::TcpConsole(first.port()), Contains("cannot listen on 127.0.0.1:" + std::to_string(first.port())));
}
