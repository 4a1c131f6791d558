#include "heap/ecb_heap.h"

#include <algorithm>
#include <fmt/format.h>

#include "heap/tls_replay.h"
#include "os/guest/include/tpf_svc.h"
#include "os/run_config.h"

namespace heap {
namespace {

constexpr uint8_t kRW = emu::kProtRead | emu::kProtWrite;

}  // namespace

void EcbHeap::install(os::System& system) {
  system_ = &system;
  totals_.algorithm = variant_label(config_);
  set_image_values();
  using C = os::SvcCost;
  system.add_svc({TPF_SVC_HEAP_FRAME, "HEAP_FRAME", C::Service,
                  [this](emu::Cpu& c, os::Ecb& e) { c.gr[2] = uint64_t(frame(e, c.gr[2])); }});
  system.add_svc({TPF_SVC_HEAP_ERROR, "HEAP_ERROR", C::Entry, [this](emu::Cpu& c, os::Ecb& e) { error(c, e); }});
  system.add_svc({TPF_SVC_HEAP_LOCK, "HEAP_LOCK", C::Service, [this](emu::Cpu& c, os::Ecb& e) { lock(c, e); }});
  system.add_svc({TPF_SVC_HEAP_UNLOCK, "HEAP_UNLOCK", C::Service,
                  [this](emu::Cpu& c, os::Ecb& e) { unlock(e, c.cycles); }});
  system.add_ecb_info(TPF_INFO_HEAP_CLASS, [this](const os::Ecb& e) -> uint64_t {
    const auto& ssl = config_.ssl_programs;
    return std::find(ssl.begin(), ssl.end(), e.program) != ssl.end() ? 1 : 0;
  });
  // The TLS trace, turned into the image the guest replays; a bad trace is a
  // configuration error naming its line.
  system.set_data_reader([this](const std::string& path) {
    replays_tls_ = true;
    return tls_trace_image(path);
  });
  // A run whose programs never called the heap gets no heap.txt/json (like devices.txt).
  auto used = [this] { return was_used(totals_); };
  system.add_report(
      {.name = "heap.txt", .write = [this](std::ostream& out) { write_heap_text(out, totals_); }, .wanted = used});
  system.add_report(
      {.name = "heap.json", .write = [this](std::ostream& out) { write_heap_json(out, totals_); }, .wanted = used});
  // E1's figure: each message is one TLS record exchange through the shared SSL server.
  system.add_summary_headline({.key = "tls_messages_per_second",
                               .label = "TLS messages per simulated second",
                               .note = "measurement window; each one a record exchange through shared SSL",
                               .reason = "the workload replays a TLS trace (workload.data_file): E1's figure",
                               .digits = 3,
                               .applies = [this] { return replays_tls_; },
                               .value = [this] { return system_->summary().messages_per_second; }});
  system.add_summary_counter(
      {.key = "ecb_heap_errors", .label = "ECB heap errors", .after = "ecb_program_checks", .value = [this] {
         return errors_;
       },
       .fails_run = true});
  system.add_summary_note([this] {
    const uint64_t n = totals_.large_frame_fallbacks;
    return n ? fmt::format("ECB heap: {} MB of heap got 4 KB frames, not the 1 MB frames system.ecb_heap.large_frames "
                           "asks for: storage had none left (heap.txt)", n)
             : std::string();
  });
}

// No application change: the variant and its settings go into the image (read-only
// variables of heap/guest/eheap_core.c) before any ECB runs, like the simple lock's.
void EcbHeap::set_image_values() {
  os::System& s = *system_;
  s.set_image_value("eheap_algorithm", uint64_t(std::max(0, algorithm_number(config_.algorithm))), 4);
  s.set_image_value("eheap_changes", config_.changes, 4);
  s.set_image_value("eheap_control_entries", config_.control_entries, 4);
  s.set_image_value("eheap_trace_entries", config_.trace_entries, 4);
  s.set_image_value("eheap_thread_avl_max", config_.thread_avl_max, 4);
  s.set_image_value("eheap_hash_buckets", config_.hash_buckets, 4);
  for (size_t k = 0; k < kAvls; ++k) {
    s.set_image_array("eheap_avl_sizes", k, config_.app.sizes[k], 4);
    s.set_image_array("eheap_avl_sizes", kAvls + k, config_.ssl.sizes[k], 4);
    s.set_image_array("eheap_avl_counts", k, config_.app.counts[k], 4);
    s.set_image_array("eheap_avl_counts", kAvls + k, config_.ssl.counts[k], 4);
  }
  s.set_image_value("eheap_stack_top", TPF_EVM_STACK_TOP, 8);
  s.set_image_value("eheap_stack_stride", emu::page_up(s.config().system.stack_size) + 16 * emu::kPageSize, 8);
}

// The next 1 MB of an area, with a 1 MB frame if one is left (else 4 KB frames), or
// 4 KB frames if system.ecb_heap.large_frames is off; page-fixed if system.ecb_heap.fixed.
int64_t EcbHeap::frame(os::Ecb& e, uint64_t area64) {
  os::Process& p = *e.process;
  ProcessHeap& h = of(p);
  uint64_t& end = area64 ? h.end64 : h.end31;
  const uint64_t base = area64 ? TPF_EVM_HEAP64 : TPF_EVM_HEAP31;
  const os::SystemConfig& sys = system_->config().system;
  const uint64_t size = area64 ? sys.heap64_size : sys.heap31_size;
  if (end + emu::kSegmentSize > base + size) return 0;
  const bool large = config_.large_frames && p.space->map_large(end, emu::kSegmentSize, kRW) == 1;
  if (!config_.large_frames && config_.fixed) p.space->map(end, emu::kSegmentSize, kRW);  // fixed: backed now
  if (!config_.large_frames && !config_.fixed) {
    // 4 KB frames as the heap first references each page (a page fault the paging
    // subsystem takes: a frame and its cost), as z/OS backs pageable storage.
    p.space->reserve(end, emu::kSegmentSize, kRW, /*first_reference_faults=*/true);
  } else if (!p.space->is_mapped(end) || !p.space->is_mapped(end + emu::kSegmentSize - 1)) {
    return 0;  // no storage left
  }
  if (config_.large_frames && !large) ++totals_.large_frame_fallbacks;  // 4 KB frames: none of 1 MB was left
  const uint64_t at = end;
  end += emu::kSegmentSize;
  if (config_.fixed) system_->fix_pages(p, at, emu::kSegmentSize);
  return int64_t(at);
}

// A heap check failed: the ECB ends with a dump naming it, the address and the check;
// the run goes on and counts it.
void EcbHeap::error(emu::Cpu& cpu, os::Ecb& e) {
  const int check = int(cpu.gr[2]);
  const uint64_t address = cpu.gr[3];
  ++errors_;
  ++totals_.errors[error_name(check)];
  const uint64_t caller = cpu.gr[4] ? cpu.gr[4] : cpu.gr[14];
  system_->abend(cpu, e,
                 fmt::format("ECB HEAP ERROR: {} -- ECB {} (program {}, thread {}, I-stream {})\n"
                             "  ADDRESS      {:016X}\n  CALLED FROM  {:016X}  {}\n",
                             error_name(check), e.id, e.program, e.thread, cpu.istream(), address, caller,
                             system_->symbolize(caller)));
}

void EcbHeap::lock(emu::Cpu& cpu, os::Ecb& e) {
  ProcessHeap& h = of(*e.process);
  if (!h.lock_holder || h.lock_holder == &e) {
    h.lock_holder = &e;
    return;
  }
  // Held by another thread: wait for the hand-over.
  system_->park(cpu, e, h.lock_waiters, fmt::format("its process's heap lock, held by ECB {}", h.lock_holder->id));
}

// An ECB that ends holding its process's heap lock lets go of it too.
void EcbHeap::unlock(os::Ecb& e, uint64_t now) {
  auto it = processes_.find(e.process->id);
  if (it == processes_.end() || it->second.lock_holder != &e) return;
  ProcessHeap& h = it->second;
  h.lock_holder = nullptr;
  if (h.lock_waiters.empty()) return;
  os::Ecb* w = h.lock_waiters.front();
  h.lock_waiters.pop_front();
  h.lock_holder = w;  // handed over: it returns from its SVC holding the lock
  system_->make_ready(*w, now);
}

void EcbHeap::process_ending(os::Process& p) {
  harvest(*p.space, totals_);
  processes_.erase(p.id);
}

}  // namespace heap
