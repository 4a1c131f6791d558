// The operator console (os/console.h): commands typed on a TCP connection while a run
// goes on act at the simulated time of the poll that takes them, are answered on that
// connection, and are logged with the operator: entry that replays them.
#include <catch2/catch.hpp>

#include <utility>  // before Asio (Boost 1.74 needs it)

#include <boost/asio.hpp>
#include <atomic>
#include <chrono>
#include <string>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "heap/ecb_heap.h"
#include "lock/lock_subsystem.h"
#include "os/console.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "os/ztrap.h"
#include "os/ztrap_subsystem.h"

using boost::asio::ip::tcp;
using Catch::Matchers::Contains;

namespace {

os::RunConfig syslog_config() {
  return app::load_run_config({}, {"workload.program=QSLG", "machine.istreams=4", "workload.terminals=4",
                                  "workload.routing=terminal", "workload.messages=40",
                                  "system.simple_lock.algorithm=pj46800", "system.console.poll_interval=20us"});
}

// The syslog run, with `console` attached if given: its summary and run.log.
struct SyslogRun {
  os::RunSummary summary;
  std::string log;
};
SyslogRun run_syslog(os::TcpConsole* console = nullptr) {
  const os::RunConfig cfg = syslog_config();
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  if (console) cp.set_console(console);
  SyslogRun r{cp.run(), ""};
  r.log = cp.log();
  return r;
}

// What clients send changes nothing that the model computes.
void check_same_figures(const os::RunSummary& with_clients, const os::RunSummary& alone) {
  CHECK(with_clients.messages == alone.messages);
  CHECK(with_clients.instructions == alone.instructions);
  CHECK(with_clients.cycles == alone.cycles);
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
  REQUIRE(cp.find_subsystem<os::ZtrapSubsystem>()->ei());
  CHECK(cp.find_subsystem<os::ZtrapSubsystem>()->ei()->on());
  uint64_t samples = 0;
  for (const auto& r : cp.find_subsystem<os::ZtrapSubsystem>()->ei()->rows()) {
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
  CHECK_THAT(stop, Contains("0 samples in the window"));  // nothing ran between START and STOP
}

TEST_CASE("console: a STOP answers with its own window, since the matching START, not the earlier ones", "[console]") {
  os::RunConfig cfg = syslog_config();
  // A window of the run itself, from the configuration, closed long before the console's.
  cfg.operators = {{.at_ns = 100'000, .command = os::parse_operator_command("ZTRAP EI START", {os::ztrap_grammar()}), .where = "test"},
                   {.at_ns = 300'000, .command = os::parse_operator_command("ZTRAP EI STOP", {os::ztrap_grammar()}), .where = "test"}};
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.run();
  REQUIRE(cp.find_subsystem<os::ZtrapSubsystem>()->ei());
  uint64_t run_samples = 0;
  for (const auto& r : cp.find_subsystem<os::ZtrapSubsystem>()->ei()->rows()) run_samples += r.samples;
  REQUIRE(run_samples > 0);
  const uint64_t now = m.elapsed_cycles();
  cp.operator_command("ZTRAP EI START", now);
  const std::string stop = cp.operator_command("ZTRAP EI STOP", now);
  const std::string at = cfg::format_duration(uint64_t(double(now) / m.config().clock_ghz + 0.5));
  CHECK_THAT(stop, Contains("ZTRAP EI STOPPED at " + at + ": 0 samples in the window " + at + ".." + at));
}

namespace {

// A console whose clients' lines are a script: one batch of lines for each poll or
// wait, in order; it records the answers and the pacing calls.
class ScriptedConsole : public os::OperatorConsole {
 public:
  explicit ScriptedConsole(std::vector<std::vector<std::string>> batches) : batches_(std::move(batches)) {}
  std::vector<os::ConsoleLine> poll() override { return next(); }
  std::vector<os::ConsoleLine> wait_for_lines() override {
    ++waits;
    return next();
  }
  void reply(uint64_t, const std::string& text) override { answers.push_back(text); }
  void pace(uint64_t ns) override { paced_ns.push_back(ns); }
  bool attended() const override { return someone_there; }

  std::vector<std::string> answers;
  std::vector<uint64_t> paced_ns;
  unsigned waits = 0;
  bool someone_there = true;

 private:
  std::vector<os::ConsoleLine> next() {
    std::vector<os::ConsoleLine> out;
    if (k_ < batches_.size())
      for (const std::string& text : batches_[k_]) out.push_back({1, text});
    ++k_;
    return out;
  }
  std::vector<std::vector<std::string>> batches_;
  size_t k_ = 0;
};

struct ScriptedRun {
  os::RunSummary summary;
  std::vector<emu::ProfileRow> rows;
  std::string log;
};

ScriptedRun run_with(ScriptedConsole& console) {
  os::RunConfig cfg = syslog_config();
  emu::Machine m(cfg.machine, true);
  os::ControlProgram cp(m, cfg);
  cp.set_console(&console);
  ScriptedRun r{cp.run(), {}, cp.log()};
  if (cp.find_subsystem<os::ZtrapSubsystem>()->ei()) r.rows = cp.find_subsystem<os::ZtrapSubsystem>()->ei()->rows();
  return r;
}

}  // namespace

TEST_CASE("console: PAUSE holds the run while commands are typed; they act at the pause's time; figures unchanged",
          "[console]") {
  ScriptedConsole typed_at_once({{"ZTRAP EI START PROG=slockc"}});
  const ScriptedRun straight = run_with(typed_at_once);

  // PAUSE at the first poll, two empty waits (the operator thinks), the command, RESUME.
  ScriptedConsole paused({{"PAUSE"}, {}, {"pause"}, {"ZTRAP EI START PROG=slockc"}, {"RESUME now"}, {"RESUME"}});
  const ScriptedRun r = run_with(paused);
  REQUIRE(paused.answers.size() == 5);
  CHECK_THAT(paused.answers[0], Contains("PAUSED at 20us: simulated time stands still"));
  CHECK(paused.answers[1] == "ERROR at 20us: the run is paused already");
  CHECK(paused.answers[2] == "ZTRAP EI STARTED at 20us PROG=slockc");
  CHECK(paused.answers[3] == "ERROR at 20us: RESUME takes nothing after it");
  CHECK(paused.answers[4] == "RESUMED at 20us");
  CHECK(paused.waits == 5);
  // The pause held the host only: the model computed the same run.
  CHECK(r.summary.messages == straight.summary.messages);
  CHECK(r.summary.instructions == straight.summary.instructions);
  CHECK(r.summary.cycles == straight.summary.cycles);
  REQUIRE(r.rows.size() == straight.rows.size());
  for (size_t k = 0; k < r.rows.size(); ++k) {
    CHECK(r.rows[k].address == straight.rows[k].address);
    CHECK(r.rows[k].samples == straight.rows[k].samples);
    CHECK(r.rows[k].count == straight.rows[k].count);
  }
  // Every poll was paced with its simulated time, 20 us apart.
  REQUIRE(paused.paced_ns.size() > 2);
  CHECK(paused.paced_ns[0] == 20'000);
  CHECK(paused.paced_ns[1] == 40'000);
  CHECK(typed_at_once.answers == std::vector<std::string>{"ZTRAP EI STARTED at 20us PROG=slockc"});
}

TEST_CASE("console: a pause that nobody is left to end ends by itself", "[console]") {
  ScriptedConsole console({{"PAUSE"}});
  console.someone_there = false;
  const ScriptedRun r = run_with(console);
  CHECK(r.summary.messages == 40);
  CHECK(console.waits == 0);
  CHECK_THAT(r.log, Contains("operator console: the pause ends: no client is left to type RESUME"));
}

TEST_CASE("console: pacing waits on the host clock until the run is no longer ahead of its pace", "[console]") {
  os::TcpConsole console(0);
  using namespace std::chrono;
  steady_clock::time_point fake{};  // a clock that moves 200 ms each time it is read
  unsigned reads = 0;
  console.set_clock([&] {
    ++reads;
    return fake += milliseconds(200);
  });
  console.pace(5'000'000);  // unpaced: returns at once, never reads the clock
  CHECK(reads == 0);

  console.set_pace(0.001);  // a simulated millisecond a second, from now (the run's start)
  const steady_clock::time_point origin = fake;
  console.pace(1'000'000);  // 1 ms simulated: due 1 s after the start
  CHECK(fake >= origin + seconds(1));
  CHECK(fake < origin + seconds(1) + milliseconds(400));

  std::atomic<int> stop{15};  // SIGTERM: no more waiting
  console.set_host_stop(&stop);
  const steady_clock::time_point before = fake;
  console.pace(60'000'000);
  CHECK(fake - before <= milliseconds(200));
  CHECK_FALSE(console.wait_for_client());
  CHECK_FALSE(console.attended());
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
  const os::RunSummary alone = run_syslog().summary;

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

  const SyslogRun r = run_syslog(&console);
  check_same_figures(r.summary, alone);
  CHECK_THAT(r.log, Contains("operator console: client 3 dropped: a line longer than 4096 bytes"));
  CHECK_THAT(read_all(garbage), Contains("ERROR"));
  // The garbage client stays; the flood is answered as far as it reads, bounded: whether
  // it outgrows the bound depends on HELP's length and the host's socket buffers, and a
  // drop is said in run.log.
  const bool flood_dropped = r.log.find("dropped: more than 262144 bytes of answers not read") != std::string::npos;
  CHECK(console.clients() == (flood_dropped ? 1u : 2u));
}

TEST_CASE("console: 200 connections of garbage, binary and 1 MB lines, some gone mid-command: same figures",
          "[console]") {
  const os::RunSummary alone = run_syslog().summary;

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
  const SyslogRun r = run_syslog(&console);
  check_same_figures(r.summary, alone);
  CHECK(r.summary.ended_early.empty());
  CHECK_THAT(r.log, Contains("dropped: a line longer than 4096 bytes"));
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

TEST_CASE("console: --console-wait's wait ends when a client connects; the end of the run is told before closing",
          "[console]") {
  os::TcpConsole console(0);
  boost::asio::io_context io;
  tcp::socket client = connect_to(io, console.port());
  CHECK(console.wait_for_client());
  CHECK(console.attended());
  console.close_with("RUN ENDED at 1ms simulated\n");
  CHECK(console.clients() == 0);
  std::string all;
  boost::system::error_code ec;
  boost::asio::read(client, boost::asio::dynamic_buffer(all), ec);  // to the end: the console closed
  CHECK(ec == boost::asio::error::eof);
  CHECK_THAT(all, Contains("tpfemu operator console"));
  CHECK_THAT(all, Contains("RUN ENDED at 1ms simulated\n"));
}
