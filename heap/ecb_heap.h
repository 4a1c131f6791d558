// The ECB heap as a subsystem of the control program: the variant and its settings go
// into the image (heap/guest reads them; no application change); the heap's host
// services (a 1 MB frame for an area, a heap check that failed, the baseline's SVC
// lock) are lines of the SVC table; each process's heap is read as it ends and the
// totals become heap.txt and heap.json. It also reads workload.data_file (a TLS
// allocation trace) into the image the guest replays.
#pragma once
#include <map>

#include "heap/heap_config.h"
#include "heap/heap_stats.h"
#include "os/subsystem.h"

namespace heap {

class EcbHeap : public os::Subsystem {
 public:
  void declare(cfg::Schema& schema) const override { ecb_heap_section().declare(schema); }
  void configure(const cfg::Config& config) override { config_ = ecb_heap_section().read(config); }
  void install(os::System& system) override;
  void process_ending(os::Process& p) override;
  void ecb_ending(os::Ecb& e, uint64_t now) override { unlock(e, now); }

  // Every process's heap, read as it ended (after the run, those still alive too).
  const HeapTotals& totals() const { return totals_; }

 private:
  // A process's heap as the host sees it: how far each area is mapped, and its heap
  // lock (the SVC lock of the baseline heap).
  struct ProcessHeap {
    uint64_t end31 = TPF_EVM_HEAP31, end64 = TPF_EVM_HEAP64;
    os::Ecb* lock_holder = nullptr;
    os::WaitList lock_waiters;
  };
  ProcessHeap& of(const os::Process& p) { return processes_[p.id]; }
  void set_image_values();
  int64_t frame(os::Ecb& e, uint64_t area64);
  void error(emu::Cpu& cpu, os::Ecb& e);
  void lock(emu::Cpu& cpu, os::Ecb& e);
  void unlock(os::Ecb& e, uint64_t now);

  os::System* system_ = nullptr;
  EcbHeapConfig config_;
  HeapTotals totals_;
  uint64_t errors_ = 0;
  bool replays_tls_ = false;  // the workload's data file is a TLS trace (E1's runs)
  std::map<uint64_t, ProcessHeap> processes_;  // by process id
};

}  // namespace heap
