// Language Environment storage as a subsystem of the control program (issue 25): the
// programs named in system.le.programs run on LE's heaps instead of the ECB heap, with
// no change to their code (the ECB heap's entry points hand their calls to
// le/guest/le_tpf.c). Its services are lines of the SVC table: LE_START (an enclave
// begins: its heaps' options from system.le), LE_END (a LINKed enclave ends),
// LE_GETMAIN and LE_FREEMAIN (segments of the process's LE region: TPF_EVM_LE above
// 16 MB, at most system.le.region bytes held, and TPF_EVM_LE24 below), LE_AVAILABLE
// (what the process can still get). As each enclave ends its heaps' counters are read;
// RPTSTG(ON) programs get LE's storage report, lestorage.txt and lestorage.json.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "le/guest/le_enclave.h"
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

// The enclave's stack as RPTSTG reports it (le/le_stack.cpp): STACK's options, the most
// stack used (from the stack's top to the lowest frame LE's prologue saw; one thread, so
// "all concurrent threads" and "any thread" are the same figure) and its segments (the
// initial one counted, as LE counts it).
struct StackReport {
  bool present = false;  // the enclave had LE's stack (its initial segment)
  uint64_t init_size = 0, incr_size = 0, max_used_all = 0, largest_used = 0, segments_allocated = 0,
           segments_freed = 0, prologue_calls = 0;
  std::string disposition;  // KEEP or FREE
};

// One enclave's report: a process's first program on LE storage, or one it LINKed to.
struct EnclaveReport {
  std::string program;
  uint64_t process = 0;
  uint32_t depth = 0;        // 0: the process's first enclave; n: LINKed n deep
  std::string options;       // the program's options in LE's canonical form
  Options resolved;          // the same, as numbers (the report's sizes and suggestions)
  bool rptstg = false;
  StackReport stack;
  HeapReport heap, heap24, anyheap, belowheap;
  PoolsReport pools;             // HEAPPOOLS(ON): the pools in front of the user heap (le_pools.h)
  uint64_t region_held_max = 0;  // the most bytes of the region the process held at once
  // What LE_AVAILABLE last answered this enclave's programs (bytes), if they asked.
  std::optional<uint64_t> available_above, available_below;
};

class LeStorage : public os::Subsystem {
 public:
  void declare(cfg::Schema& schema) const override { le_section().declare(schema); }
  void configure(const cfg::Config& config) override { config_ = le_section().read(config); }
  void install(os::System& system) override;
  void process_ending(os::Process& p) override;
  // The LE anchor page (le/guest/le_stack.h) at its first reference (le_stack.cpp).
  emu::PageFaultHandler::Action page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) override;

  const std::vector<EnclaveReport>& enclaves() const { return enclaves_; }
  // The user heaps' segments (HEAP) allocated and freed, over the enclaves that ended.
  std::pair<uint64_t, uint64_t> user_heap_segments() const;

 private:
  // One area of a process's LE region (above or below the line): segments are
  // page-rounded ranges (ours: so that giving one back unmaps no neighbour's page); a
  // range given back is reused by the next request of the same size, last in first
  // out, else the area grows.
  struct Area {
    Area(uint64_t start, uint64_t end_) : next(start), end(end_) {}
    uint64_t next, end;               // the first never-used address, the area's end
    uint64_t held = 0, held_max = 0;  // bytes held now, at most
    std::multimap<uint64_t, uint64_t> given_back;  // bytes -> address
  };
  struct Enclave {
    uint64_t block = 0;  // its struct le_enclave
    std::string program;
    std::optional<uint64_t> available_above, available_below;  // LE_AVAILABLE's last answers
    StackReport stack;  // a LINKed enclave's, read as it ends
  };
  struct Region {
    Area above{TPF_EVM_LE, TPF_EVM_LE_END};
    Area below{TPF_EVM_LE24, TPF_EVM_LE24_END};
    std::map<uint64_t, uint64_t> ranges;  // address -> bytes, held now (both areas)
    std::vector<Enclave> enclaves;        // the first, then the LINKed ones now active
    std::string program;                  // the process's first program (its ECB's)
    uint64_t pools_cb = 0;                // its first enclave's heap pools (HEAPPOOLS(ON)), else 0
    // LE's stack (le_stack.cpp): the ECB stack area's top part, in segments growing down
    // from its top, contiguous; each held one counts in `above.held` (page-rounded).
    struct Stack {
      bool on = false;
      uint64_t top = 0, area = 0, floor = 0, init = 0, incr = 0, allocated = 0, freed = 0;
      std::vector<uint64_t> increments;  // the increment segments' sizes, the lowest last
    } stack;
  };
  void start(emu::Cpu& cpu, os::Ecb& e);
  void end(emu::Cpu& cpu, os::Ecb& e);
  void getmain(emu::Cpu& cpu, os::Ecb& e);
  void freemain(emu::Cpu& cpu, os::Ecb& e);
  void available(emu::Cpu& cpu, os::Ecb& e);
  uint64_t limit(const Area& a) const;
  // The enclave's statistics, read from the process's storage, into enclaves_.
  void report(os::Process& p, const Region& r, const Enclave& enclave, uint32_t depth);
  void stack_service(emu::Cpu& cpu, os::Ecb& e);                        // TPF_SVC_LE_STACK
  void stack_anchor(os::Process& p, Region::Stack& s) const;            // floor, ext_top to the anchor
  bool read_stack(os::Process& p, const Region& r, StackReport& out) const;
  bool anchor(os::Process& p, const std::string& program);  // the first enclave's stack (le_stack.cpp)
  StackReport read_linked_stack(os::Process& p, const Options& o) const;

  os::System* system_ = nullptr;
  LeConfig config_;
  std::map<uint64_t, Region> regions_;  // by process id
  std::set<uint64_t> anchored_;         // processes whose anchor page was mapped (le_stack.cpp)
  std::vector<EnclaveReport> enclaves_;
};

// RPTSTG's report in LE's wording and order, and its JSON twin.
void write_storage_report(std::ostream& out, const std::vector<EnclaveReport>& enclaves);
void write_storage_json(std::ostream& out, const std::vector<EnclaveReport>& enclaves);
// The options the report suggests (LE: "sugg. initial size"), in LE's canonical form.
std::string suggested_options(const EnclaveReport& e);
// Their STACK parts (le_stack.cpp): LE's "STACK statistics:" lines, and the JSON member.
void write_stack_report(std::ostream& out, const StackReport& s);
nlohmann::ordered_json stack_json(const StackReport& s);  // null when no prologue ran

}  // namespace le
