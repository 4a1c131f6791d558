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
#include <set>
#include <string>
#include <vector>

#include "le/guest/leheap.h"
#include "le/le_config.h"
#include "os/subsystem.h"

namespace le {

// One heap's statistics as RPTSTG reports them (struct leheap_cb's options and counters).
struct HeapReport {
  uint64_t init_size = 0, incr_size = 0, total_used = 0, gets = 0, frees = 0, segments_allocated = 0,
           segments_freed = 0, in_use = 0, errors = 0, get_failures = 0;
  std::string disposition;  // KEEP or FREE
};

// The enclave's stack as RPTSTG reports it (le/le_stack.cpp): STACK's options, the most
// stack used (from the stack's top to the lowest frame LE's prologue saw; one thread, so
// "all concurrent threads" and "any thread" are the same figure) and its segments (the
// initial one counted, as LE counts it).
struct StackReport {
  bool present = false;  // an LE-conforming program ran LE's prologue in this enclave
  uint64_t init_size = 0, incr_size = 0, max_used_all = 0, largest_used = 0, segments_allocated = 0,
           segments_freed = 0, prologue_calls = 0;
  std::string disposition;  // KEEP or FREE
};

// One enclave's report: a process that ran a program on LE storage.
struct EnclaveReport {
  std::string program;
  uint64_t process = 0;
  std::string options;       // the program's options in LE's canonical form
  bool rptstg = false;
  StackReport stack;
  HeapReport heap;
  uint64_t region_held_max = 0;  // the most bytes of the region held at once (GETMAIN'd, page-rounded)
};

class LeStorage : public os::Subsystem {
 public:
  void declare(emu::Schema& schema) const override { le_section().declare(schema); }
  void configure(const emu::Config& config) override { config_ = le_section().read(config); }
  void install(os::System& system) override;
  void process_ending(os::Process& p) override;
  // The LE anchor page (le/guest/le_stack.h) at its first reference (le_stack.cpp).
  emu::PageFaultHandler::Action page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) override;

  const std::vector<EnclaveReport>& enclaves() const { return enclaves_; }

 private:
  // A process's LE region: segments are page-rounded ranges (ours: so that giving one
  // back unmaps no neighbour's page); a range given back is reused by the next request
  // of the same size, last in first out, else the region grows.
  struct Region {
    std::string program;
    uint64_t heap_cb = 0;            // the user heap's control block (LE_START)
    uint64_t next = TPF_EVM_LE;      // the region's first never-used address
    uint64_t held = 0, held_max = 0; // bytes held now, at most
    std::multimap<uint64_t, uint64_t> given_back;  // bytes -> address
    std::map<uint64_t, uint64_t> ranges;           // address -> bytes, held now
    // LE's stack (le_stack.cpp): the ECB stack area's top part, in segments growing down
    // from its top, contiguous; each held one counts in `held` (page-rounded).
    struct Stack {
      bool on = false;
      uint64_t top = 0, area = 0, floor = 0, init = 0, incr = 0, allocated = 0, freed = 0;
      std::vector<uint64_t> increments;  // the increment segments' sizes, the lowest last
    } stack;
  };
  void start(emu::Cpu& cpu, os::Ecb& e);
  void getmain(emu::Cpu& cpu, os::Ecb& e);
  void freemain(emu::Cpu& cpu, os::Ecb& e);
  void stack_service(emu::Cpu& cpu, os::Ecb& e);                        // TPF_SVC_LE_STACK
  void stack_anchor(os::Process& p, Region::Stack& s) const;            // floor, ext_top to the anchor
  bool read_stack(os::Process& p, const Region& r, StackReport& out) const;

  os::System* system_ = nullptr;
  LeConfig config_;
  std::map<uint64_t, Region> regions_;  // by process id
  std::set<uint64_t> anchored_;         // processes whose anchor page was mapped (le_stack.cpp)
  std::vector<EnclaveReport> enclaves_;
};

// RPTSTG's report in LE's wording and order (the sections tpfemu models), and its JSON twin.
void write_storage_report(std::ostream& out, const std::vector<EnclaveReport>& enclaves);
void write_storage_json(std::ostream& out, const std::vector<EnclaveReport>& enclaves);
// Their STACK parts (le_stack.cpp): LE's "STACK statistics:" lines, and the JSON member.
void write_stack_report(std::ostream& out, const StackReport& s);
std::string stack_json(const StackReport& s);

}  // namespace le
