// Simple locks and syslog (lock/, issue 5): QSLG logs through syslog() on several
// I-streams, every line under the syslog simple lock, with each algorithm. The
// checks: every line arrives once and whole (the ring and the drain), mutual
// exclusion (a counter kept under the lock), the statistics agree with each other,
// and the run is deterministic.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "heap/ecb_heap.h"
#include "lock/lock_stats.h"
#include "lock/lock_subsystem.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "os/summary.h"
#include "os/ztrap_subsystem.h"

namespace {

constexpr int kLines = 20;  // QSLG_LINES (apps/apps.h)

struct LockRun {
  os::RunSummary s;
  std::string syslog, json, dumps, locks_json;
  lock::LockStats lock;
  lock::SyslogStats ring;
  bool used = false;  // LockSubsystem::was_used: whether locks.txt/json are written
  size_t lock_count = 0;
  explicit LockRun(const std::string& algorithm, std::vector<std::string> more = {}) {
    std::vector<std::string> sets = {"workload.program=QSLG", "machine.istreams=4", "workload.terminals=4",
                                     "workload.message_size=16", "workload.messages=100",
                                     "system.simple_lock.algorithm=" + algorithm};
    sets.insert(sets.end(), more.begin(), more.end());
    os::RunConfig cfg = app::load_run_config({}, sets);
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    s = cp.run();
    syslog = cp.find_subsystem<lock::LockSubsystem>()->syslog().text();
    dumps = cp.dumps();
    auto locks = cp.find_subsystem<lock::LockSubsystem>()->lock_stats();
    // QSLG's only lock is syslog's; a run that took none reports none (issue 48: every
    // lock taken or initialized is reported, and only those).
    REQUIRE(locks.size() <= 1);
    lock_count = locks.size();
    if (!locks.empty()) {
      CHECK(locks[0].name == "syslog");
      lock = locks[0];
    }
    ring = cp.find_subsystem<lock::LockSubsystem>()->syslog_stats();
    used = cp.find_subsystem<lock::LockSubsystem>()->was_used();
    std::ostringstream lj;
    lock::write_locks_json(lj, locks, ring);
    locks_json = lj.str();
    std::ostringstream j;
    os::write_summary_json(j, s);
    json = j.str();
  }
};

// Every line is a whole QSLG line; per ECB the sequence numbers are 0, 1, 2, ... with
// none missing or repeated. Returns lines, and the ECBs that logged all their lines.
void check_lines(const LockRun& r, uint64_t& lines, uint64_t& complete) {
  // syslog() stamps each line under the lock: the file is in time order.
  static const std::regex line(
      R"(^2025-01-01T00:00:([0-9]{2}\.[0-9]{6})Z QSLG\[([0-9]+)\]: QSLG ECB ([0-9]+) SEQ ([0-9]+) CRC [0-9a-f]{8}$)");
  std::map<long, int> next;  // ECB -> next sequence number expected
  std::string last_time;
  std::istringstream in(r.syslog);
  std::string l;
  lines = 0;
  while (std::getline(in, l)) {
    std::smatch m;
    INFO("line " << lines + 1 << ": " << l);
    REQUIRE(std::regex_match(l, m, line));
    REQUIRE(m[2] == m[3]);  // the ident's ECB number is the logging ECB's
    REQUIRE(m[1].str() >= last_time);
    last_time = m[1];
    long ecb = std::stol(m[3]);
    int seq = std::stoi(m[4]);
    REQUIRE(seq == next[ecb]);  // in order, none missing or repeated
    ++next[ecb];
    ++lines;
  }
  complete = 0;
  for (auto& [ecb, n] : next) {
    CHECK(n <= kLines);
    complete += n == kLines;
  }
}

}  // namespace

TEST_CASE("simple lock: every algorithm logs every syslog line once and whole, under mutual exclusion", "[lock]") {
  for (std::string algorithm : {"csg-loop", "pj46800", "queued"}) {
    SECTION(algorithm) {
      LockRun r(algorithm);
      INFO(r.dumps);
      CHECK(r.s.messages == 100);
      CHECK(r.s.ecb_program_checks == 0);
      CHECK(r.s.ecb_timeouts == 0);
      uint64_t lines = 0, complete = 0;
      check_lines(r, lines, complete);
      CHECK(complete >= 100);
      CHECK(lines == r.ring.committed);  // every committed record drained, nothing else
      CHECK(lines == r.ring.drained);
      CHECK(r.ring.drains > 1);          // periodic drains, not only the final one
      // Mutual exclusion: a plain increment under the lock and the holder's own count
      // agree with each other and with the lines (plus the times the ring was full).
      CHECK(r.lock.acquisitions - r.ring.checked <= 1);  // a holder may be in flight at the end
      // Every acquisition committed a line or found the ring full, but for at most one
      // holder still formatting its line when the run ended.
      CHECK(r.lock.acquisitions - (lines + r.ring.full_waits) <= 1);
      // Statistics: 4 I-streams logging with little work in between contend.
      CHECK(r.lock.algorithm == algorithm);
      CHECK(r.lock.contended <= r.lock.acquisitions);
      if (algorithm != "pj46800") CHECK(r.lock.contended > r.lock.acquisitions / 4);
      // pj46800 barges: a releaser that comes back takes the free lock before the waiter
      // it woke is running again, so most acquisitions are first tries and a few waiters
      // give up control many times.
      else CHECK((r.lock.contended > 0 && r.lock.give_ups > r.lock.contended));
      CHECK(r.lock.csg_attempts >= r.lock.acquisitions);
      CHECK(r.lock.csg_failures <= r.lock.csg_attempts);
      CHECK(r.lock.hold_cycles > 100 * r.lock.acquisitions);  // copying a line and committing it
      CHECK(r.lock.hold_max_cycles * r.lock.acquisitions >= r.lock.hold_cycles);
      // Wait time and I-streams (issue 48): contended acquisitions waited, all 4 I-streams
      // took the lock, and those that waited are among them.
      CHECK(r.lock.wait_cycles > r.lock.contended);
      CHECK(r.lock.istreams == 0xF);
      CHECK((r.lock.waited_istreams & ~r.lock.istreams) == 0);
      CHECK(r.lock.waited_istreams != 0);
      if (algorithm == "csg-loop") {
        CHECK(r.lock.csg_failures > r.lock.acquisitions);  // the retry loop: several CSG per acquisition
        CHECK(r.lock.spins == 0);
        CHECK(r.lock.give_ups == 0);
        CHECK(r.lock.csg_attempts == r.lock.acquisitions + r.lock.csg_failures);
      } else if (algorithm == "pj46800") {
        CHECK(r.lock.spins > r.lock.acquisitions);  // waiting is read-only
        CHECK(r.lock.csg_attempts < r.lock.acquisitions * 5 / 4);  // CSG only when the lock reads free
        CHECK(r.lock.csg_attempts == r.lock.acquisitions + r.lock.csg_failures);
      } else {
        CHECK(r.lock.spins > 0);  // each waiter on its own node
        // A node claim and a tail swap per acquisition, a CSG to free the tail at release.
        CHECK(r.lock.csg_attempts >= 2 * r.lock.acquisitions);
      }
    }
  }
}

TEST_CASE("syslog: the throughput in locks.json counts only the lines time-stamped inside the measurement window",
          "[lock]") {
  // 100 messages measured after 20 of warm-up on 4 I-streams: lines are logged before
  // the window opens (the warm-up) and after it closes (ECBs still running when the last
  // measured message completed). Counted from syslog.log's own time stamps (whole
  // microseconds from 2025-01-01, simulated time 0), with the bounds locks.json gives.
  LockRun r("pj46800", {"workload.warmup=20"});
  REQUIRE(r.s.messages == 100);
  const auto sl = nlohmann::json::parse(r.locks_json).at("syslog");
  const double start = sl.at("window_start_us"), end = sl.at("window_end_us");  // 3 decimals
  const uint64_t in_window = sl.at("records_in_window"), committed = sl.at("committed");
  const double per_second = sl.at("records_per_second");
  INFO("window " << start << "us to " << end << "us; " << in_window << " of " << committed << " records");
  CHECK(end - start == Approx(r.s.simulated_seconds * 1e6).margin(0.002));
  CHECK(start > 0);
  // A line stamped at microsecond u was logged in [u, u+1): surely inside the window if
  // that interval is, perhaps if it overlaps it (the bounds are rounded to 0.5 ns).
  static const std::regex stamp(R"(^2025-01-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{6})Z )");
  uint64_t surely = 0, perhaps = 0, lines = 0;
  std::istringstream in(r.syslog);
  for (std::string l; std::getline(in, l); ++lines) {
    std::smatch m;
    REQUIRE(std::regex_search(l, m, stamp));
    const double u = (((std::stod(m[1]) - 1) * 24 + std::stod(m[2])) * 60 + std::stod(m[3])) * 60e6 +
                     std::stod(m[4]) * 1e6 + std::stod(m[5]);
    surely += u >= start + 0.001 && u + 1 <= end - 0.001;
    perhaps += u + 1 > start - 0.001 && u <= end + 0.001;
  }
  CHECK(lines == committed);
  CHECK(surely <= in_window);
  CHECK(in_window <= perhaps);
  CHECK(perhaps - surely < 10);  // only lines in the bounds' own microseconds are in doubt
  // Not every line: the warm-up's 20 messages logged 400 before the window opened.
  CHECK(in_window + 400 <= committed);
  // About the measured messages' lines: they differ by the lines of the messages under
  // way at either bound (at most one a terminal, 20 lines each).
  CHECK(std::abs(double(in_window) - double(r.s.messages * kLines)) <= 4.0 * kLines);
  // The throughput is the window's lines over the window's length.
  CHECK(per_second == Approx(double(in_window) / r.s.simulated_seconds).epsilon(1e-6));
  CHECK(per_second < double(committed) / r.s.simulated_seconds);
}

TEST_CASE("simple lock: pj46800 gives up control under heavy contention and loses no line", "[lock]") {
  // Two ECBs per I-stream and a short spin limit: waiters give up control (DEFRC) and
  // the I-stream runs the other ECB.
  LockRun r("pj46800", {"workload.terminals=8", "system.simple_lock.spin_limit=20"});
  CHECK(r.s.messages == 100);
  CHECK(r.lock.give_ups > 0);
  uint64_t lines = 0, complete = 0;
  check_lines(r, lines, complete);
  CHECK(complete >= 100);
  CHECK(lines == r.ring.committed);
  CHECK(r.lock.acquisitions - r.ring.checked <= 1);  // a holder may be in flight at the end
}

TEST_CASE("simple lock: queued hands over in order with waiters that give up control", "[lock]") {
  // Waiters that give up control stay queued: the hand-over reaches them when their
  // I-stream dispatches them again. Nothing is lost, nothing runs twice.
  LockRun r("queued", {"workload.terminals=8", "system.simple_lock.spin_limit=20"});
  CHECK(r.s.messages == 100);
  CHECK(r.s.ecb_timeouts == 0);
  CHECK(r.lock.give_ups > 0);
  uint64_t lines = 0, complete = 0;
  check_lines(r, lines, complete);
  CHECK(complete >= 100);
  CHECK(r.lock.acquisitions - r.ring.checked <= 1);  // a holder may be in flight at the end
}

TEST_CASE("simple lock: a ring smaller than a drain interval's lines makes writers wait, not lose lines", "[lock]") {
  // Drains only every 2 ms: the 1,024-record ring fills, writers release the lock and
  // give up control until the control program drains it.
  LockRun r("pj46800", {"system.syslog.drain_interval=2ms"});
  CHECK(r.ring.full_waits > 0);
  uint64_t lines = 0, complete = 0;
  check_lines(r, lines, complete);
  CHECK(complete >= 100);
  CHECK(lines == r.ring.committed);
  CHECK(r.lock.acquisitions - (lines + r.ring.full_waits) <= 1);
}

TEST_CASE("simple lock: the same configuration gives the same syslog, statistics and summary", "[lock]") {
  for (std::string algorithm : {"csg-loop", "queued"}) {
    LockRun a(algorithm), b(algorithm);
    CHECK(a.syslog == b.syslog);
    CHECK(a.json == b.json);
    CHECK(a.lock.csg_attempts == b.lock.csg_attempts);
    CHECK(a.lock.spins == b.lock.spins);
    CHECK(a.lock.hold_cycles == b.lock.hold_cycles);
  }
}

TEST_CASE("simple lock: the configuration keys", "[lock]") {
  os::RunConfig r = app::load_run_config({}, {});
  const lock::SimpleLockConfig d = lock::simple_lock_section().read(*r.values);
  CHECK(d.algorithm == "csg-loop");
  CHECK(d.spin_limit == 300);
  CHECK(d.drain_interval_us == Approx(50.0));
  CHECK_THROWS_WITH(app::load_run_config({}, {"system.simple_lock.algorithm=ticket"}),
                    Catch::Matchers::Contains("system.simple_lock.algorithm"));
  CHECK_THROWS_WITH(app::load_run_config({}, {"system.shared_size=64K"}),
                    Catch::Matchers::Contains("syslog ring"));
}

TEST_CASE("simple lock: an I-stream woken by a lone runner interleaves with it from then on", "[lock][scheduler]") {
  // With a short spin limit most waiters wait on the lock word, so the holder is
  // often the only running I-stream and runs alone toward the next event. When its
  // release wakes a waiter, its slice must end: it once ran on tens of thousands of
  // cycles ahead, the woken I-stream then waited for lines "owned in the future", and
  // a hold time measured on that I-stream's clock reached 30x the mean.
  LockRun r("pj46800", {"system.simple_lock.spin_limit=50"});
  REQUIRE(r.lock.acquisitions > 0);
  CHECK(r.lock.give_ups > r.lock.acquisitions / 2);
  const uint64_t mean = r.lock.hold_cycles / r.lock.acquisitions;
  CHECK(r.lock.hold_max_cycles < 4 * mean);
}

TEST_CASE("syslog: a run that logged leads its summary with the syslog lines a second and writes locks.txt; "
          "one that took no lock writes neither", "[lock]") {
  LockRun r("pj46800");
  CHECK(r.used);
  CHECK(r.s.headline.key == "syslog_lines_per_second");
  CHECK(r.s.headline.value == Approx(r.ring.records_per_second()));
  // QZZ0 takes no simple lock and logs nothing.
  LockRun none("pj46800", {"workload.program=QZZ0"});
  CHECK_FALSE(none.used);
  CHECK(none.lock_count == 0);
  CHECK(r.lock_count == 1);
  CHECK(none.s.headline.key == "messages_per_second");
  CHECK(none.s.headline.value == Approx(none.s.messages_per_second));
}
