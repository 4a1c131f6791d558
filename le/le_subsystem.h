// Language Environment storage as a subsystem of the control program (issue 25): the
// programs named in system.le.programs run on LE's heaps instead of the ECB heap, with
// no change to their code (the ECB heap's entry points hand their calls to
// le/guest/le_tpf.c). Its services are three lines of the SVC table: LE_START (sets
// the process's user heap options, system.le), LE_GETMAIN and LE_FREEMAIN (segments of
// the process's LE region, TPF_EVM_LE, at most system.le.region bytes held). As each
// process (an enclave here) ends, its heap's counters are read; RPTSTG(ON) programs get
// LE's storage report, lestorage.txt and lestorage.json.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "le/guest/leheap.h"
#include "le/le_config.h"
#include "le/le_pools.h"
#include "os/subsystem.h"

namespace le {

// One heap's statistics as RPTSTG reports them (struct leheap_cb's options and counters).
struct HeapReport {
  uint64_t init_size = 0, incr_size = 0, total_used = 0, gets = 0, frees = 0, segments_allocated = 0,
           segments_freed = 0, in_use = 0, errors = 0, get_failures = 0;
  std::string disposition;  // KEEP or FREE
};

// One enclave's report: a process that ran a program on LE storage.
struct EnclaveReport {
  std::string program;
  uint64_t process = 0;
  std::string options;       // the program's options in LE's canonical form
  bool rptstg = false;
  HeapReport heap;
  PoolsReport pools;             // HEAPPOOLS(ON): the pools in front of the user heap (le_pools.h)
  uint64_t region_held_max = 0;  // the most bytes of the region held at once (GETMAIN'd, page-rounded)
};

class LeStorage : public os::Subsystem {
 public:
  void declare(emu::Schema& schema) const override { le_section().declare(schema); }
  void configure(const emu::Config& config) override { config_ = le_section().read(config); }
  void install(os::System& system) override;
  void process_ending(os::Process& p) override;

  const std::vector<EnclaveReport>& enclaves() const { return enclaves_; }

 private:
  // A process's LE region: segments are page-rounded ranges (ours: so that giving one
  // back unmaps no neighbour's page); a range given back is reused by the next request
  // of the same size, last in first out, else the region grows.
  struct Region {
    std::string program;
    uint64_t heap_cb = 0;            // the user heap's control block (LE_START)
    uint64_t pools_cb = 0;           // its pools' (struct le_user_storage), 0 if HEAPPOOLS(OFF)
    uint64_t next = TPF_EVM_LE;      // the region's first never-used address
    uint64_t held = 0, held_max = 0; // bytes held now, at most
    std::multimap<uint64_t, uint64_t> given_back;  // bytes -> address
    std::map<uint64_t, uint64_t> ranges;           // address -> bytes, held now
  };
  void start(emu::Cpu& cpu, os::Ecb& e);
  void getmain(emu::Cpu& cpu, os::Ecb& e);
  void freemain(emu::Cpu& cpu, os::Ecb& e);

  os::System* system_ = nullptr;
  LeConfig config_;
  std::map<uint64_t, Region> regions_;  // by process id
  std::vector<EnclaveReport> enclaves_;
};

// RPTSTG's report in LE's wording and order (the sections tpfemu models), and its JSON twin.
void write_storage_report(std::ostream& out, const std::vector<EnclaveReport>& enclaves);
void write_storage_json(std::ostream& out, const std::vector<EnclaveReport>& enclaves);

}  // namespace le
