// Host side of the simple lock: reads a lock's statistics (os/guest/include/simplelock.h,
// kept by the holder in the lock's slot of the statistics table) from guest storage after a run, and
// writes them as locks.txt and locks.json, with the syslog buffer's counters.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "emu/address_space.h"

namespace lock {

struct LockStats {
  std::string name;        // e.g. "syslog", simple_lock_init's name, else the address in hex
  std::string algorithm;   // csg-loop, pj46800, queued
  uint64_t address = 0;    // of the lock (in the shared area, for locks ECBs share)
  uint64_t acquisitions = 0, contended = 0, spins = 0, csg_attempts = 0, csg_failures = 0, give_ups = 0;
  uint64_t hold_cycles = 0, hold_max_cycles = 0;  // from the TOD units the guest kept
  uint64_t wait_cycles = 0;                       // contended acquisitions' waits, likewise
  uint64_t istreams = 0, waited_istreams = 0;     // bit n: I-stream n got it / had to wait for it
};

struct SyslogStats {
  uint64_t committed = 0;   // producer: records committed by guest code (the whole run: warm-up, and the
                            // ECBs still running at the end, included)
  uint64_t drained = 0;     // records written to syslog.log
  uint64_t full_waits = 0;  // a writer found the ring full and gave up control
  uint64_t checked = 0;     // acquisitions counted under the lock (mutual exclusion check)
  uint64_t drains = 0;      // times the control program drained the ring
  // The measurement window: its bounds in TOD units (4096 a microsecond) from simulated
  // time 0, the records time-stamped inside it (bounds included) and its length.
  uint64_t window_start_tod = 0, window_end_tod = 0;
  uint64_t in_window = 0;
  double simulated_seconds = 0;
  // The throughput: records in the window per second of it.
  double records_per_second() const { return simulated_seconds > 0 ? double(in_window) / simulated_seconds : 0.0; }
};

// The algorithm names of system.simple_lock.algorithm, in SLOCK_* order.
const std::vector<std::string>& algorithm_names();
int algorithm_number(const std::string& name);  // -1 if unknown

// Reads the statistics of every lock the guest initialized (simple_lock_init) or took:
// each slot of the statistics table whose lock is set, in address order (none if the
// table is not mapped). `name` is the slot's name, or "" (the caller names it).
std::vector<LockStats> read_lock_stats(emu::AddressSpace& space, double clock_ghz);
// "0, 2-3": the I-streams of a mask, for the reports.
std::string istream_list(uint64_t mask);

void write_locks_text(std::ostream& out, const std::vector<LockStats>& locks, const SyslogStats& syslog);
void write_locks_json(std::ostream& out, const std::vector<LockStats>& locks, const SyslogStats& syslog);

}  // namespace lock
