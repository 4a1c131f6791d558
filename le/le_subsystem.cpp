#include "le/le_subsystem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <ostream>

#include "emu/cpu.h"
#include "emu/profiler.h"
#include "os/guest/include/tpf_svc.h"

namespace le {
namespace {

constexpr uint8_t kRW = emu::kProtRead | emu::kProtWrite;

uint64_t page_up(uint64_t a) { return (a + emu::kPageMask) & ~emu::kPageMask; }

// The options LE_START writes into the guest's struct leheap_cb (big-endian fields).
void put32(std::vector<uint8_t>& cb, size_t off, uint32_t v) { emu::Cpu::store_be<uint32_t>(cb.data() + off, v); }
uint32_t get32(const std::vector<uint8_t>& cb, size_t off) { return emu::Cpu::load_be<uint32_t>(cb.data() + off); }
uint64_t get64(const std::vector<uint8_t>& cb, size_t off) { return emu::Cpu::load_be<uint64_t>(cb.data() + off); }

uint32_t fill_byte(const Fill& f) { return f.kind == Fill::Byte ? f.byte : LEHEAP_FILL_NONE; }

}  // namespace

void LeStorage::install(os::System& system) {
  system_ = &system;
  // Without programs on LE storage no process needs to ask (LE_START): the ECB heap's
  // entry points then cost one load and compare more than before LE existed.
  system.set_image_value("le_state", config_.programs.empty() ? 1 : 0, 4);
  using C = os::SvcCost;
  system.add_svc({TPF_SVC_LE_START, "LE_START", C::Service, [this](emu::Cpu& c, os::Ecb& e) { start(c, e); }});
  system.add_svc({TPF_SVC_LE_GETMAIN, "LE_GETMAIN", C::Service, [this](emu::Cpu& c, os::Ecb& e) { getmain(c, e); }});
  system.add_svc({TPF_SVC_LE_FREEMAIN, "LE_FREEMAIN", C::Service, [this](emu::Cpu& c, os::Ecb& e) { freemain(c, e); }});
  auto reported = [this] {
    for (const EnclaveReport& r : enclaves_)
      if (r.rptstg) return true;
    return false;
  };
  system.add_report({.name = "lestorage.txt",
                     .write = [this](std::ostream& out) { write_storage_report(out, enclaves_); },
                     .wanted = reported});
  system.add_report({.name = "lestorage.json",
                     .write = [this](std::ostream& out) { write_storage_json(out, enclaves_); },
                     .wanted = reported});
}

// r2 = the user heap's control block. A program on LE storage gets its HEAP options
// there and r2 = 1; any other r2 = 0 (its calls stay with the ECB heap).
void LeStorage::start(emu::Cpu& cpu, os::Ecb& e) {
  if (!config_.on_le(e.program)) {
    cpu.gr[2] = 0;
    return;
  }
  const Options& o = config_.options_for(e.program);
  Region& r = regions_[e.process->id];
  r.program = e.program;
  r.heap_cb = cpu.gr[2];
  std::vector<uint8_t> cb(sizeof(leheap_cb), 0);
  // As the options give them (at most 2047M: they fit); le_heap_init applies the heap's
  // own sizing rule (leheap_segment_option).
  put32(cb, offsetof(leheap_cb, init_size), uint32_t(o.heap.init_size));
  put32(cb, offsetof(leheap_cb, incr_size), uint32_t(o.heap.incr_size));
  put32(cb, offsetof(leheap_cb, disposition), o.heap.disposition == Disposition::Free ? LEHEAP_FREE : LEHEAP_KEEP);
  put32(cb, offsetof(leheap_cb, location), o.heap.location == Location::Below ? LEHEAP_BELOW : LEHEAP_ANYWHERE);
  put32(cb, offsetof(leheap_cb, fit), LEHEAP_FIRST_FIT);
  put32(cb, offsetof(leheap_cb, alloc_fill), fill_byte(o.storage.heap_alloc));
  put32(cb, offsetof(leheap_cb, free_fill), fill_byte(o.storage.heap_free));
  if (!e.process->space->write_bytes(r.heap_cb, cb.data(), cb.size())) {
    cpu.gr[2] = 0;
    return;
  }
  // HEAPPOOLS(ON): the pools' options after the heap's block (struct le_user_storage);
  // OFF leaves the guest's zero (static storage) there.
  if (o.heappools.on) {
    std::vector<uint8_t> pcb(offsetof(lepools_cb, ranges), 0);
    put32(pcb, offsetof(lepools_cb, on), 1);
    put32(pcb, offsetof(lepools_cb, count), uint32_t(o.heappools.count()));
    put32(pcb, offsetof(lepools_cb, heap_init), uint32_t(o.heap.init_size));
    for (size_t i = 0; i < o.heappools.count(); ++i) {
      const size_t at = offsetof(lepools_cb, pools) + i * sizeof(lepool);
      put32(pcb, at + offsetof(lepool, cell_size), o.heappools.pools[i].cell_size);
      put32(pcb, at + offsetof(lepool, percent), o.heappools.pools[i].percent);
    }
    r.pools_cb = r.heap_cb + offsetof(le_user_storage, pools);
    if (!e.process->space->write_bytes(r.pools_cb, pcb.data(), pcb.size())) {
      cpu.gr[2] = 0;
      return;
    }
  }
  cpu.gr[2] = 1;
}

// r2 = bytes, r3 = below 16 MB. BELOW is not modelled yet: such a request gets nothing.
void LeStorage::getmain(emu::Cpu& cpu, os::Ecb& e) {
  Region& r = regions_[e.process->id];
  const uint64_t bytes = page_up(std::max<uint64_t>(cpu.gr[2], 1));
  cpu.gr[2] = 0;
  if (cpu.gr[3] != 0 || r.held + bytes > config_.region) return;
  uint64_t at = 0;
  if (auto it = r.given_back.find(bytes); it != r.given_back.end()) {
    at = it->second;
    r.given_back.erase(it);
  } else {
    if (r.next + bytes > TPF_EVM_LE_END) return;
    at = r.next;
    r.next += bytes;
  }
  // Demand-zero: a segment's pages cost storage as the heap touches them (its header,
  // the elements' prefixes), as z/OS backs a GETMAIN's pages on first reference.
  e.process->space->reserve(at, bytes, kRW);
  r.ranges[at] = bytes;
  r.held += bytes;
  r.held_max = std::max(r.held_max, r.held);
  cpu.gr[2] = at;
}

// r2 = an address LE_GETMAIN gave, r3 = its bytes: its pages go; the range is kept for
// the next request of its size. An address it did not give is ignored.
void LeStorage::freemain(emu::Cpu& cpu, os::Ecb& e) {
  Region& r = regions_[e.process->id];
  auto it = r.ranges.find(cpu.gr[2]);
  if (it == r.ranges.end()) return;
  e.process->space->unmap(it->first, it->second);
  r.given_back.emplace(it->second, it->first);
  r.held -= it->second;
  r.ranges.erase(it);
}

// The enclave ends: its user heap's statistics, read from the process's storage.
void LeStorage::process_ending(os::Process& p) {
  auto it = regions_.find(p.id);
  if (it == regions_.end()) return;
  const Region& r = it->second;
  std::vector<uint8_t> cb(sizeof(leheap_cb));
  if (r.heap_cb && p.space->read_bytes(r.heap_cb, cb.data(), cb.size()) &&
      get32(cb, offsetof(leheap_cb, eye)) == LEHEAP_CB_EYE) {
    const Options& o = config_.options_for(r.program);
    EnclaveReport rep;
    rep.program = r.program;
    rep.process = p.id;
    rep.options = canonical(o, "HEAP");
    if (o.heappools.on) rep.options += " " + canonical(o, "HEAPPOOLS");
    rep.rptstg = o.rptstg;
    rep.region_held_max = r.held_max;
    HeapReport& h = rep.heap;
    h.init_size = get32(cb, offsetof(leheap_cb, init_size));
    h.incr_size = get32(cb, offsetof(leheap_cb, incr_size));
    h.disposition = get32(cb, offsetof(leheap_cb, disposition)) == LEHEAP_FREE ? "FREE" : "KEEP";
    h.gets = get64(cb, offsetof(leheap_cb, gets));
    h.frees = get64(cb, offsetof(leheap_cb, frees));
    h.segments_allocated = get64(cb, offsetof(leheap_cb, segs_alloc));
    h.segments_freed = get64(cb, offsetof(leheap_cb, segs_freed));
    h.total_used = get64(cb, offsetof(leheap_cb, total_used));
    h.in_use = get64(cb, offsetof(leheap_cb, in_use));
    h.errors = get64(cb, offsetof(leheap_cb, errors));
    h.get_failures = get64(cb, offsetof(leheap_cb, get_failures));
    if (r.pools_cb) {
      // The block, then its ranges a page at a time: a page of them no request reached
      // may never have been touched (static storage, demand-zero), and reads as zeros.
      std::vector<uint8_t> pcb(sizeof(lepools_cb), 0);
      if (p.space->read_bytes(r.pools_cb, pcb.data(), offsetof(lepools_cb, ranges))) {
        for (uint64_t at = offsetof(lepools_cb, ranges); at < pcb.size();) {
          const uint64_t end = std::min<uint64_t>(pcb.size(), page_up(r.pools_cb + at + 1) - r.pools_cb);
          if (!p.space->read_bytes(r.pools_cb + at, pcb.data() + at, end - at))
            std::fill(pcb.begin() + ptrdiff_t(at), pcb.begin() + ptrdiff_t(end), 0);
          at = end;
        }
        rep.pools = read_pools(pcb.data(), pcb.size());
      }
    }
    enclaves_.push_back(std::move(rep));
  }
  regions_.erase(it);
}

// LE's layout (seed 003, RPTSTG(ON)): a label, its value right-aligned, numbers as LE
// prints them (no separators). Only the sections tpfemu models so far: HEAP.
void write_storage_report(std::ostream& out, const std::vector<EnclaveReport>& enclaves) {
  auto line = [&](const char* label, uint64_t v) { out << fmt::format("  {:<46}{:>16}\n", label, v); };
  for (const EnclaveReport& e : enclaves) {
    if (!e.rptstg) continue;
    out << fmt::format("Storage Report for Enclave {} (process {})   tpfemu, in the layout of Language Environment\n",
                       e.program, e.process);
    out << fmt::format("  Options: {}\n\n", e.options);
    out << "HEAP statistics:\n";
    line("Initial size:", e.heap.init_size);
    line("Increment size:", e.heap.incr_size);
    line("Total heap storage used (sugg. initial size):", e.heap.total_used);
    line("Successful Get Heap requests:", e.heap.gets);
    line("Successful Free Heap requests:", e.heap.frees);
    line("Number of segments allocated:", e.heap.segments_allocated);
    line("Number of segments freed:", e.heap.segments_freed);
    write_pools_report(out, e.pools);
    out << "End of Storage Report\n\n";
  }
}

void write_storage_json(std::ostream& out, const std::vector<EnclaveReport>& enclaves) {
  out << "{\n  \"enclaves\": [";
  bool first = true;
  for (const EnclaveReport& e : enclaves) {
    if (!e.rptstg) continue;
    const HeapReport& h = e.heap;
    out << (first ? "\n" : ",\n")
        << fmt::format("    {{\"program\": \"{}\", \"process\": {}, \"options\": \"{}\", \"region_held_max\": {},\n"
                       "     \"heap\": {{\"initial_size\": {}, \"increment_size\": {}, \"disposition\": \"{}\", "
                       "\"total_used\": {}, \"get_requests\": {}, \"free_requests\": {}, \"segments_allocated\": {}, "
                       "\"segments_freed\": {}, \"in_use_at_end\": {}, \"errors\": {}, \"get_failures\": {}}}",
                       emu::json_escape(e.program), e.process, emu::json_escape(e.options), e.region_held_max,
                       h.init_size, h.incr_size, h.disposition, h.total_used, h.gets, h.frees, h.segments_allocated,
                       h.segments_freed, h.in_use, h.errors, h.get_failures);
    if (e.pools.on) {
      out << ",\n     \"heappools\": ";
      write_pools_json(out, e.pools);
    }
    out << "}";
    first = false;
  }
  out << (first ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace le
