#include "lock/lock_stats.h"

#include <fmt/format.h>

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

bool read_lock_stats(emu::AddressSpace& space, uint64_t address, double clock_ghz, LockStats& out) {
  static_assert(offsetof(slock_slot, stats) == SLOCK_SLOT_STATS_OFFSET);
  static_assert(sizeof(simple_lock_stats) == 8 * 8);
  const uint64_t slot = TPF_EVM_SHARED + TPF_SHARED_SLOCK_SLOTS + 256ull * slock_slot_index(address);
  uint8_t raw[sizeof(simple_lock_stats)];
  if (!space.read_bytes(slot + SLOCK_SLOT_STATS_OFFSET, raw, sizeof raw)) return false;
  uint64_t v[8];
  for (int k = 0; k < 8; ++k) v[k] = emu::Cpu::load_be<uint64_t>(raw + 8 * k);
  out.address = address;
  out.acquisitions = v[0], out.contended = v[1], out.spins = v[2], out.csg_attempts = v[3];
  out.csg_failures = v[4], out.give_ups = v[5];
  // TOD: bit 51 is one microsecond, so 4096 units a microsecond.
  auto cycles = [&](uint64_t tod) { return uint64_t(double(tod) / 4096.0 * clock_ghz * 1e3 + 0.5); };
  out.hold_cycles = cycles(v[6]), out.hold_max_cycles = cycles(v[7]);
  return true;
}

namespace {
double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }
double us(uint64_t tod) { return double(tod) / 4096.0; }  // TOD units to microseconds
}  // namespace

void write_locks_text(std::ostream& out, const std::vector<LockStats>& locks, const SyslogStats& sl) {
  using cfg::grouped, cfg::grouped_fixed;
  out << "SIMPLE LOCKS\n";
  for (const auto& l : locks) {
    out << fmt::format("  lock {} at {:#x}, algorithm {}\n", l.name, l.address, l.algorithm);
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
                    {"hold_max_cycles", l.hold_max_cycles}});
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
