#include "lock/lock_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "config/number_text.h"
#include "emu/cpu.h"
#include "os/guest/include/simplelock.h"
#include "report/report_json.h"

namespace lock {

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names = {"csg-loop", "pj46800", "queued"};  // SLOCK_CSG_LOOP, ...
  static_assert(SLOCK_CSG_LOOP == 0 && SLOCK_PJ46800 == 1 && SLOCK_QUEUED == 2);
  return names;
}

int algorithm_number(const std::string& name) {
  const auto& n = algorithm_names();
  for (size_t k = 0; k < n.size(); ++k)
    if (n[k] == name) return int(k);
  return -1;
}

namespace {

// TOD units (bit 51 is one microsecond: 4096 a microsecond) to cycles.
uint64_t tod_cycles(uint64_t tod, double clock_ghz) { return uint64_t(double(tod) / 4096.0 * clock_ghz * 1e3 + 0.5); }

bool read_slot(emu::AddressSpace& space, uint64_t slot, double clock_ghz, LockStats& out) {
  constexpr size_t kStats = sizeof(simple_lock_stats) / 8;
  uint8_t raw[SLOCK_SLOT_NAME_OFFSET + SLOCK_NAME_MAX];
  if (!space.read_bytes(slot, raw, sizeof raw)) return false;
  out.address = emu::Cpu::load_be<uint64_t>(raw + offsetof(slock_slot, lock));
  uint64_t v[kStats];
  for (size_t k = 0; k < kStats; ++k) v[k] = emu::Cpu::load_be<uint64_t>(raw + SLOCK_SLOT_STATS_OFFSET + 8 * k);
  out.acquisitions = v[0], out.contended = v[1], out.spins = v[2], out.csg_attempts = v[3];
  out.csg_failures = v[4], out.give_ups = v[5];
  out.hold_cycles = tod_cycles(v[6], clock_ghz), out.hold_max_cycles = tod_cycles(v[7], clock_ghz);
  out.wait_cycles = tod_cycles(v[8], clock_ghz);
  out.istreams = v[9], out.waited_istreams = v[10];
  const char* name = reinterpret_cast<const char*>(raw + SLOCK_SLOT_NAME_OFFSET);
  out.name.assign(name, strnlen(name, SLOCK_NAME_MAX - 1));
  return true;
}

}  // namespace

std::vector<LockStats> read_lock_stats(emu::AddressSpace& space, double clock_ghz) {
  static_assert(offsetof(slock_slot, stats) == SLOCK_SLOT_STATS_OFFSET);
  static_assert(offsetof(slock_slot, name) == SLOCK_SLOT_NAME_OFFSET);
  static_assert(sizeof(simple_lock_stats) == 11 * 8);
  std::vector<LockStats> locks;
  for (uint64_t k = 0; k < SLOCK_SLOTS; ++k) {
    LockStats l;
    if (read_slot(space, TPF_EVM_SHARED + TPF_SHARED_SLOCK_SLOTS + sizeof(slock_slot) * k, clock_ghz, l) &&
        l.address != 0)
      locks.push_back(std::move(l));
  }
  std::sort(locks.begin(), locks.end(), [](const LockStats& a, const LockStats& b) { return a.address < b.address; });
  return locks;
}

std::string istream_list(uint64_t mask) {
  std::string out;
  for (unsigned n = 0; n < 64;) {
    if (!(mask >> n & 1)) {
      ++n;
      continue;
    }
    unsigned last = n;
    while (last + 1 < 64 && (mask >> (last + 1) & 1)) ++last;
    if (!out.empty()) out += ", ";
    out += last == n ? std::to_string(n) : fmt::format("{}-{}", n, last);
    n = last + 1;
  }
  return out.empty() ? "none" : out;
}

namespace {
double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }
double us(uint64_t tod) { return double(tod) / 4096.0; }  // TOD units to microseconds
}  // namespace

void write_locks_text(std::ostream& out, const std::vector<LockStats>& locks, const SyslogStats& sl) {
  using cfg::grouped, cfg::grouped_fixed;
  out << "SIMPLE LOCKS\n";
  for (const auto& l : locks) {
    out << fmt::format("  lock {} at {:#x}, algorithm {}, I-streams {} (waited: {})\n", l.name, l.address,
                       l.algorithm, istream_list(l.istreams), istream_list(l.waited_istreams));
    out << fmt::format("    acquisitions          {:>14}\n", grouped(l.acquisitions));
    out << fmt::format("    contended             {:>14}  ({:.1f}%)\n", grouped(l.contended),
                       100 * ratio(l.contended, l.acquisitions));
    out << fmt::format("    spins                 {:>14}  ({} per acquisition)\n", grouped(l.spins),
                       grouped_fixed(ratio(l.spins, l.acquisitions), 1));
    out << fmt::format("    CSG attempts          {:>14}  ({} per acquisition)\n", grouped(l.csg_attempts),
                       grouped_fixed(ratio(l.csg_attempts, l.acquisitions), 2));
    out << fmt::format("    CSG failures          {:>14}\n", grouped(l.csg_failures));
    out << fmt::format("    give-ups (waited)     {:>14}\n", grouped(l.give_ups));
    out << fmt::format("    hold time, cycles     {:>14}  (mean {}, longest {})\n", grouped(l.hold_cycles),
                       grouped_fixed(ratio(l.hold_cycles, l.acquisitions), 0), grouped(l.hold_max_cycles));
    out << fmt::format("    wait time, cycles     {:>14}  (mean {} a contended acquisition)\n", grouped(l.wait_cycles),
                       grouped_fixed(ratio(l.wait_cycles, l.contended), 0));
  }
  out << "SYSLOG\n";
  out << fmt::format("  records committed       {:>14}  (the whole run: warm-up and unfinished ECBs included)\n",
                     grouped(sl.committed));
  out << fmt::format("  records drained         {:>14}  (to syslog.log, in {} drains)\n", grouped(sl.drained),
                     grouped(sl.drains));
  out << fmt::format("  ring full, waited       {:>14}\n", grouped(sl.full_waits));
  out << fmt::format("  lock acquisitions seen  {:>14}  (counted under the lock)\n", grouped(sl.checked));
  out << fmt::format("  records in the window   {:>14}  (time-stamped from {} us to {} us, simulated)\n",
                     grouped(sl.in_window), grouped_fixed(us(sl.window_start_tod), 3),
                     grouped_fixed(us(sl.window_end_tod), 3));
  out << fmt::format("  records per second      {:>14}  (simulated, measurement window: records in it / its length)\n",
                     grouped_fixed(sl.records_per_second(), 0));
}

void write_locks_json(std::ostream& out, const std::vector<LockStats>& locks, const SyslogStats& sl) {
  using report_json::Json, report_json::fixed;
  Json list = Json::array();
  for (const auto& l : locks)
    list.push_back({{"name", l.name},
                    {"algorithm", l.algorithm},
                    {"address", l.address},
                    {"acquisitions", l.acquisitions},
                    {"contended", l.contended},
                    {"spins", l.spins},
                    {"csg_attempts", l.csg_attempts},
                    {"csg_failures", l.csg_failures},
                    {"give_ups", l.give_ups},
                    {"hold_cycles", l.hold_cycles},
                    {"hold_max_cycles", l.hold_max_cycles},
                    {"wait_cycles", l.wait_cycles},
                    {"istreams", istream_list(l.istreams)},
                    {"waited_istreams", istream_list(l.waited_istreams)}});
  const Json syslog = {{"committed", sl.committed},
                       {"drained", sl.drained},
                       {"drains", sl.drains},
                       {"full_waits", sl.full_waits},
                       {"checked", sl.checked},
                       {"window_start_us", fixed(us(sl.window_start_tod), 3)},
                       {"window_end_us", fixed(us(sl.window_end_tod), 3)},
                       {"records_in_window", sl.in_window},
                       {"records_per_second", fixed(sl.records_per_second(), 3)}};
  report_json::write(out, {{"locks", list}, {"syslog", syslog}}, {.one_per_line = {"locks"}});
}

}  // namespace lock
