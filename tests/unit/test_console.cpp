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

namespace {

tcp::socket connect_to(boost::asio::io_context& io, uint16_t port) {
  tcp::socket s(io);
  s.connect(tcp::endpoint(boost::asio::ip::address_v4::loopback(), port));
  return s;
}

// Writes as much of `text` as the socket takes now, without waiting; returns how much.
size_t write_what_fits(tcp::socket& s, const std::string& text) {
  s.non_blocking(true);
  boost::system::error_code ec;
  size_t done = 0;
  while (done < text.size()) {
    size_t n = s.write_some(boost::asio::buffer(text.data() + done, text.size() - done), ec);
    if (ec) break;
    done += n;
  }
  return done;
}

std::string repeated(const std::string& line, size_t bytes) {
  std::string out;
  while (out.size() < bytes) out += line;
  return out;
}

}  // namespace

TEST_CASE("console: a client that half-closes after its command still gets the answer", "[console]") {
  os::TcpConsole console(0);
  boost::asio::io_context io;
  tcp::socket client = connect_to(io, console.port());
  boost::asio::write(client, boost::asio::buffer(std::string("ZTRAP EI START\nZTRAP EI STOP")));  // no \n at the end
  client.shutdown(tcp::socket::shutdown_send);

  os::RunConfig cfg = syslog_config();
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.set_console(&console);
  cp.run();
  const std::string answers = read_all(client);
  CHECK_THAT(answers, Contains("ZTRAP EI STARTED at 20us"));
  CHECK_THAT(answers, Contains("ZTRAP EI STOPPED at 20us"));
  CHECK(console.clients() == 0);  // answered and closed
}

TEST_CASE("console: floods, garbage and over-long lines do not hold up the run or change its figures", "[console]") {
  os::RunConfig cfg = syslog_config();
  emu::Machine quiet_machine(cfg.machine, true);
  os::ControlProgram quiet(quiet_machine, cfg);
  const os::RunSummary alone = quiet.run();

  os::TcpConsole console(0);
  boost::asio::io_context io;
  tcp::socket flood = connect_to(io, console.port());
  tcp::socket garbage = connect_to(io, console.port());
  tcp::socket longline = connect_to(io, console.port());
  REQUIRE(write_what_fits(flood, repeated("HELP\n", 1 << 20)) > 100000);
  std::string binary;
  for (int k = 0; k < 20000; ++k) binary += char(k * 37 % 256 == '\n' ? 1 : k * 37 % 256), binary += k % 50 ? "" : "\n";
  write_what_fits(garbage, binary);
  write_what_fits(longline, std::string(1 << 20, 'Z'));

  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.set_console(&console);
  const os::RunSummary s = cp.run();
  // HELP and garbage change nothing that the model computes.
  CHECK(s.messages == alone.messages);
  CHECK(s.instructions == alone.instructions);
  CHECK(s.cycles == alone.cycles);
  CHECK_THAT(cp.log(), Contains("operator console: client 3 dropped: a line longer than 4096 bytes"));
  CHECK_THAT(read_all(garbage), Contains("ERROR"));
  CHECK(console.clients() == 2);  // the flood (answered as far as it reads, bounded) and the garbage
}

TEST_CASE("console: 200 connections of garbage, binary and 1 MB lines, some gone mid-command: same figures",
          "[console]") {
  os::RunConfig cfg = syslog_config();
  emu::Machine quiet_machine(cfg.machine, true);
  os::ControlProgram quiet(quiet_machine, cfg);
  const os::RunSummary alone = quiet.run();
  const std::string quiet_log = quiet.log();

  os::TcpConsole console(0);
  boost::asio::io_context io;
  std::vector<tcp::socket> clients;
  std::string binary;
  for (int k = 0; k < 4096; ++k) binary += char(k * 131 % 256);  // NULs, 0xFF, a few line ends
  for (int k = 0; k < 200; ++k) {
    tcp::socket& c = clients.emplace_back(connect_to(io, console.port()));
    switch (k % 5) {
      case 0: write_what_fits(c, repeated("ZTRAP EI FROB\n%%%\n\n   \nZ\n", 2000)); break;
      case 1: write_what_fits(c, binary); break;
      case 2: write_what_fits(c, std::string(k < 50 ? 1 << 20 : 64 << 10, 'Z')); break;  // no line end
      case 3:  // a command cut off: the client goes before its line ends
        write_what_fits(c, "ZTRAP EI ST");
        c.close();
        break;
      case 4:  // a whole command, the client gone before the answer
        write_what_fits(c, "HELP\nD ASM\n");
        c.close();
        break;
    }
  }
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.set_console(&console);
  const os::RunSummary s = cp.run();
  CHECK(s.messages == alone.messages);
  CHECK(s.instructions == alone.instructions);
  CHECK(s.cycles == alone.cycles);
  CHECK(s.ended_early.empty());
  CHECK_THAT(cp.log(), Contains("dropped: a line longer than 4096 bytes"));
  CHECK(console.clients() <= 80);  // the closed ones and the over-long lines are gone
}

TEST_CASE("console: the answers a client has not read are bounded; past the bound it is dropped", "[console]") {
  os::TcpConsole console(0);
  boost::asio::io_context io;
  tcp::socket client = connect_to(io, console.port());
  boost::asio::write(client, boost::asio::buffer(repeated("HELP\n", 5 * 1000)));
  const std::string big(64 << 10, 'A');
  size_t polls = 0, lines = 0;
  while (console.clients() + polls == 0 || (console.clients() > 0 && polls < 10000)) {
    auto got = console.poll();
    CHECK(got.size() <= os::TcpConsole::kMaxLinesPerPoll);
    for (const auto& l : got) console.reply(l.session, big), ++lines;
    ++polls;
  }
  CHECK(console.clients() == 0);
  const auto notices = console.notices();
  REQUIRE(notices.size() == 1);
  CHECK_THAT(notices[0], Contains("client 1 dropped: more than 262144 bytes of answers not read"));
  CHECK(lines < 1000);  // dropped long before its 1000 HELPs were all answered
}

TEST_CASE("console: connections past the bound are refused, the others still served", "[console]") {
  os::TcpConsole console(0);
  boost::asio::io_context io;
  std::vector<tcp::socket> clients;
  for (unsigned k = 0; k < os::TcpConsole::kMaxClients + 4; ++k) clients.push_back(connect_to(io, console.port()));
  for (int k = 0; k < 20 && console.clients() < os::TcpConsole::kMaxClients; ++k) console.poll();
  console.poll();
  CHECK(console.clients() == os::TcpConsole::kMaxClients);
  const auto notices = console.notices();
  REQUIRE(notices.size() == 4);
  CHECK_THAT(notices[0], Contains("refused: 256 clients connected already"));
  boost::asio::write(clients[0], boost::asio::buffer(std::string("HELP\n")));
  std::vector<os::ConsoleLine> got;
  for (int k = 0; k < 100 && got.empty(); ++k) got = console.poll();
  REQUIRE(got.size() == 1);
  CHECK(got[0].text == "HELP");
}
