#include "le/le_subsystem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "emu/cpu.h"
#include "le/guest/le_stack.h"
#include "os/guest/include/tpf_evm.h"
#include "os/guest/include/tpf_svc.h"
#include "config/number_text.h"
#include "report/report_json.h"

namespace le {
namespace {


// The guest's struct le_enclave and its heaps' control blocks (big-endian fields).
void put32(std::vector<uint8_t>& b, size_t off, uint32_t v) { emu::Cpu::store_be<uint32_t>(b.data() + off, v); }
uint32_t get32(const std::vector<uint8_t>& b, size_t off) { return emu::Cpu::load_be<uint32_t>(b.data() + off); }
uint64_t get64(const std::vector<uint8_t>& b, size_t off) { return emu::Cpu::load_be<uint64_t>(b.data() + off); }

uint32_t fill_byte(const Fill& f) { return f.kind == Fill::Byte ? f.byte : LEHEAP_FILL_NONE; }
uint32_t size32(uint64_t bytes) { return uint32_t(std::min<uint64_t>(bytes, 0x7FFFFFF8u)); }

// One heap's options into its control block at `cb` (an offset in the enclave block).
struct HeapSettings {
  uint64_t init = 0, incr = 0;
  bool below = false, free = false;
  Fill alloc_fill, free_fill;
};
void put_heap(std::vector<uint8_t>& b, size_t cb, const HeapSettings& h) {
  // As the options give them; le_heap_init applies the heap's own sizing rule
  // (leheap_segment_option).
  put32(b, cb + offsetof(leheap_cb, init_size), size32(h.init));
  put32(b, cb + offsetof(leheap_cb, incr_size), size32(h.incr));
  put32(b, cb + offsetof(leheap_cb, disposition), h.free ? LEHEAP_FREE : LEHEAP_KEEP);
  put32(b, cb + offsetof(leheap_cb, location), h.below ? LEHEAP_BELOW : LEHEAP_ANYWHERE);
  put32(b, cb + offsetof(leheap_cb, fit), LEHEAP_FIRST_FIT);
  put32(b, cb + offsetof(leheap_cb, alloc_fill), fill_byte(h.alloc_fill));
  put32(b, cb + offsetof(leheap_cb, free_fill), fill_byte(h.free_fill));
}

// A heap's report: its counters if it began, else only the sizes its options give.
HeapReport read_heap(const std::vector<uint8_t>& b, size_t cb, uint64_t init, uint64_t incr, Disposition d) {
  HeapReport h;
  h.init_size = leheap_segment_option(size32(init));
  h.incr_size = leheap_segment_option(size32(incr));
  h.disposition = d == Disposition::Free ? "FREE" : "KEEP";
  if (get32(b, cb + offsetof(leheap_cb, eye)) != LEHEAP_CB_EYE) return h;
  h.init_size = get32(b, cb + offsetof(leheap_cb, init_size));
  h.incr_size = get32(b, cb + offsetof(leheap_cb, incr_size));
  h.gets = get64(b, cb + offsetof(leheap_cb, gets));
  h.frees = get64(b, cb + offsetof(leheap_cb, frees));
  h.segments_allocated = get64(b, cb + offsetof(leheap_cb, segs_alloc));
  h.segments_freed = get64(b, cb + offsetof(leheap_cb, segs_freed));
  h.total_used = get64(b, cb + offsetof(leheap_cb, total_used));
  h.in_use = get64(b, cb + offsetof(leheap_cb, in_use));
  h.errors = get64(b, cb + offsetof(leheap_cb, errors));
  h.get_failures = get64(b, cb + offsetof(leheap_cb, get_failures));
  return h;
}

constexpr size_t kHeap = offsetof(le_enclave, heap), kHeap24 = offsetof(le_enclave, heap24),
                 kAnyHeap = offsetof(le_enclave, anyheap), kBelowHeap = offsetof(le_enclave, belowheap);

// A program name from guest storage: up to 8 printable characters before a NUL.
std::string read_name(os::Ecb& e, uint64_t at) {
  char buf[LE_PROGRAM_NAME] = {};
  std::string name;
  for (uint64_t i = 0; i < LE_PROGRAM_NAME; ++i) {
    if (!e.process->space->read_bytes(at + i, buf + i, 1) || buf[i] == 0) break;
    if (buf[i] < 0x21 || buf[i] > 0x7E) return {};
    name += buf[i];
  }
  return name;
}

}  // namespace

void LeStorage::install(os::System& system) {
  system_ = &system;
  // Without programs on LE storage no process needs to ask (LE_START): the ECB heap's
  // entry points then cost one load and compare more than before LE existed.
  system.set_image_value("le_state", config_.programs.empty() ? 1 : 0, 4);
  using C = os::SvcCost;
  system.add_svc({TPF_SVC_LE_START, "LE_START", C::Service, [this](emu::Cpu& c, os::Ecb& e) { start(c, e); }});
  system.add_svc({TPF_SVC_LE_END, "LE_END", C::Service, [this](emu::Cpu& c, os::Ecb& e) { end(c, e); }});
  system.add_svc({TPF_SVC_LE_GETMAIN, "LE_GETMAIN", C::Service, [this](emu::Cpu& c, os::Ecb& e) { getmain(c, e); }});
  system.add_svc({TPF_SVC_LE_FREEMAIN, "LE_FREEMAIN", C::Service, [this](emu::Cpu& c, os::Ecb& e) { freemain(c, e); }});
  system.add_svc(
      {TPF_SVC_LE_AVAILABLE, "LE_AVAILABLE", C::Service, [this](emu::Cpu& c, os::Ecb& e) { available(c, e); }});
  system.add_svc({TPF_SVC_LE_STACK, "LE_STACK", C::Service, [this](emu::Cpu& c, os::Ecb& e) { stack_service(c, e); }});
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
  // E4's question: what a run of the program costs, and how many heap segments it took.
  system.add_summary_headline({.key = "le_cpu_seconds",
                               .label = "CPU seconds a run of the program",
                               .note = "simulated busy time of all I-streams a message; lestorage.txt has the heaps",
                               .reason = "the run's programs got storage from LE's user heap: E4's figure",
                               .digits = 4,
                               .applies = [this] { return user_heap_segments().first > 0; },
                               .value = [this] { return system_->summary().ms_per_message / 1000; },
                               .detail = [this] {
                                 const auto [allocated, freed] = user_heap_segments();
                                 return fmt::format("{} user heap segments allocated, {} freed ({} enclave{})",
                                                    cfg::grouped(allocated), cfg::grouped(freed), enclaves_.size(),
                                                    enclaves_.size() == 1 ? "" : "s");
                               }});
}

std::pair<uint64_t, uint64_t> LeStorage::user_heap_segments() const {
  uint64_t allocated = 0, freed = 0;
  for (const EnclaveReport& r : enclaves_) allocated += r.heap.segments_allocated, freed += r.heap.segments_freed;
  return {allocated, freed};
}

// r2 = an enclave's block, r3 = 0 (the process's first enclave: its ECB's program) or
// the name of the program a LINK starts. A program on LE storage gets its options in
// the block and r2 = 1; any other r2 = 0 (the process's calls stay with the ECB heap).
// A LINKed program not in system.le.programs gets system.le.options: its caller is on
// LE storage, and an enclave has LE's heaps whatever program it starts with.
void LeStorage::start(emu::Cpu& cpu, os::Ecb& e) {
  const bool linked = cpu.gr[3] != 0;
  const std::string program = linked ? read_name(e, cpu.gr[3]) : e.program;
  Region& r = regions_[e.process->id];
  if (program.empty() || (!linked && (!config_.on_le(program) || !r.enclaves.empty())) ||
      (linked && r.enclaves.empty())) {
    cpu.gr[2] = 0;
    return;
  }
  const Options& o = config_.on_le(program) ? config_.options_for(program) : config_.options;
  std::vector<uint8_t> b(sizeof(le_enclave), 0);
  put32(b, offsetof(le_enclave, eye), LE_ENCLAVE_EYE);
  put32(b, offsetof(le_enclave, depth), uint32_t(r.enclaves.size()));
  std::copy_n(program.begin(), std::min<size_t>(program.size(), LE_PROGRAM_NAME), b.begin() + offsetof(le_enclave, program));
  put32(b, offsetof(le_enclave, stack_init), size32(o.stack.init_size));
  const Fill& dsa = o.storage.dsa_alloc;
  put32(b, offsetof(le_enclave, stack_fill), dsa.kind == Fill::Byte ? dsa.byte : LE_FILL_NONE);
  put32(b, offsetof(le_enclave, stack_flags), dsa.kind == Fill::Clear ? LE_FLAG_CLEAR : 0);
  const bool heap_below = o.heap.location == Location::Below;
  put_heap(b, kHeap, {o.heap.init_size, o.heap.incr_size, heap_below, o.heap.disposition == Disposition::Free,
                      o.storage.heap_alloc, o.storage.heap_free});
  put_heap(b, kHeap24, {o.heap.init24, o.heap.incr24, true, o.heap.disposition == Disposition::Free,
                        o.storage.heap_alloc, o.storage.heap_free});
  put_heap(b, kAnyHeap, {o.anyheap.init_size, o.anyheap.incr_size, o.anyheap.location == Location::Below,
                         o.anyheap.disposition == Disposition::Free, {}, {}});
  put_heap(b, kBelowHeap, {o.belowheap.init_size, o.belowheap.incr_size, true,
                           o.belowheap.disposition == Disposition::Free, {}, {}});
  if (!e.process->space->write_bytes(cpu.gr[2], b.data(), b.size())) {
    cpu.gr[2] = 0;
    return;
  }
  if (!linked) r.program = program;
  // HEAPPOOLS(ON), the first enclave: the pools' options after its block (struct
  // le_process_storage); OFF leaves the guest's zero (static storage) there.
  if (!linked && o.heappools.on) {
    std::vector<uint8_t> pcb(offsetof(lepools_cb, ranges), 0);
    put32(pcb, offsetof(lepools_cb, on), 1);
    put32(pcb, offsetof(lepools_cb, count), uint32_t(o.heappools.count()));
    put32(pcb, offsetof(lepools_cb, heap_init), uint32_t(o.heap.init_size));
    for (size_t i = 0; i < o.heappools.count(); ++i) {
      const size_t at = offsetof(lepools_cb, pools) + i * sizeof(lepool);
      put32(pcb, at + offsetof(lepool, cell_size), o.heappools.pools[i].cell_size);
      put32(pcb, at + offsetof(lepool, percent), o.heappools.pools[i].percent);
    }
    r.pools_cb = cpu.gr[2] + offsetof(le_process_storage, pools);
    if (!e.process->space->write_bytes(r.pools_cb, pcb.data(), pcb.size())) {
      cpu.gr[2] = 0;
      return;
    }
  }
  r.enclaves.push_back({cpu.gr[2], program, {}, {}, {}});
  // The first enclave's initial stack (the ECB's) counts in the region from its start.
  if (!linked) anchor(*e.process, program);
  cpu.gr[2] = 1;
}

// r2 = the block of the enclave a LINK made, which ends now (the innermost): its
// statistics are taken before its storage goes. Any other address is ignored.
void LeStorage::end(emu::Cpu& cpu, os::Ecb& e) {
  auto it = regions_.find(e.process->id);
  if (it == regions_.end() || it->second.enclaves.size() < 2 || it->second.enclaves.back().block != cpu.gr[2]) return;
  Enclave& in = it->second.enclaves.back();
  in.stack = read_linked_stack(*e.process, config_.on_le(in.program) ? config_.options_for(in.program) : config_.options);
  report(*e.process, it->second, in, uint32_t(it->second.enclaves.size() - 1));
  it->second.enclaves.pop_back();
}

uint64_t LeStorage::limit(const Area& a) const {
  return a.end == TPF_EVM_LE_END ? std::min(config_.region, a.end - TPF_EVM_LE) : a.end - TPF_EVM_LE24;
}

// r2 = bytes, r3 = 1 for below 16 MB -> r2 = the address, or 0 if the area has no room.
void LeStorage::getmain(emu::Cpu& cpu, os::Ecb& e) {
  Region& r = regions_[e.process->id];
  Area& a = cpu.gr[3] != 0 ? r.below : r.above;
  const uint64_t bytes = emu::page_up(std::max<uint64_t>(std::min<uint64_t>(cpu.gr[2], 1ULL << 40), 1));
  cpu.gr[2] = 0;
  if (a.held + bytes > limit(a)) return;
  uint64_t at = 0;
  if (auto it = a.given_back.find(bytes); it != a.given_back.end()) {
    at = it->second;
    a.given_back.erase(it);
  } else {
    if (a.next + bytes > a.end) return;
    at = a.next;
    a.next += bytes;
  }
  // Demand-zero: a segment's pages cost storage as the heap touches them (its header,
  // the elements' prefixes), as z/OS backs a GETMAIN's pages on first reference: each
  // first reference is a page fault the paging subsystem takes (a frame and its cycles,
  // paging/paging.cpp first_reference).
  e.process->space->reserve(at, bytes, emu::kProtReadWrite, /*first_reference_faults=*/true);
  r.ranges[at] = bytes;
  a.held += bytes;
  a.held_max = std::max(a.held_max, a.held);
  cpu.gr[2] = at;
}

// r2 = an address LE_GETMAIN gave, r3 = its bytes: its pages go; the range is kept for
// the next request of its size. An address it did not give is ignored.
void LeStorage::freemain(emu::Cpu& cpu, os::Ecb& e) {
  Region& r = regions_[e.process->id];
  auto it = r.ranges.find(cpu.gr[2]);
  if (it == r.ranges.end()) return;
  Area& a = it->first < TPF_EVM_LE24_END ? r.below : r.above;
  e.process->space->unmap(it->first, it->second);
  a.given_back.emplace(it->second, it->first);
  a.held -= it->second;
  r.ranges.erase(it);
}

// r2 = 1 for below 16 MB -> r2 = bytes the process can still get there (whole pages:
// LE_GETMAIN's unit), as a program asks LE how much storage is left.
void LeStorage::available(emu::Cpu& cpu, os::Ecb& e) {
  Region& r = regions_[e.process->id];
  const Area& a = cpu.gr[2] != 0 ? r.below : r.above;
  const uint64_t room = std::min(limit(a) - std::min(limit(a), a.held), a.end - a.next + [&] {
    uint64_t reusable = 0;
    for (const auto& [bytes, at] : a.given_back) reusable += bytes;
    return reusable;
  }());
  if (!r.enclaves.empty()) (cpu.gr[2] != 0 ? r.enclaves.back().available_below : r.enclaves.back().available_above) = room;
  cpu.gr[2] = room;
}

// An enclave's report: its heaps from its block (only their options if it has none: a
// program whose LE-conforming code ran LE's prologue but never asked for storage), its
// stack from the anchor.
void LeStorage::report(os::Process& p, const Region& r, const Enclave& enclave, uint32_t depth) {
  std::vector<uint8_t> b(sizeof(le_enclave), 0);
  if (enclave.block && (!p.space->read_bytes(enclave.block, b.data(), b.size()) ||
                        get32(b, offsetof(le_enclave, eye)) != LE_ENCLAVE_EYE))
    std::fill(b.begin(), b.end(), 0);
  const Options& o = config_.on_le(enclave.program) ? config_.options_for(enclave.program) : config_.options;
  EnclaveReport rep;
  rep.program = enclave.program;
  rep.process = p.id;
  rep.depth = depth;
  rep.options = canonical(o);
  rep.resolved = o;
  rep.rptstg = o.rptstg;
  rep.region_held_max = r.above.held_max;
  rep.available_above = enclave.available_above;
  rep.available_below = enclave.available_below;
  if (depth == 0) read_stack(p, r, rep.stack);
  else rep.stack = enclave.stack;
  rep.heap = read_heap(b, kHeap, o.heap.init_size, o.heap.incr_size, o.heap.disposition);
  rep.heap24 = read_heap(b, kHeap24, o.heap.init24, o.heap.incr24, o.heap.disposition);
  rep.anyheap = read_heap(b, kAnyHeap, o.anyheap.init_size, o.anyheap.incr_size, o.anyheap.disposition);
  rep.belowheap = read_heap(b, kBelowHeap, o.belowheap.init_size, o.belowheap.incr_size, o.belowheap.disposition);
  if (depth == 0 && r.pools_cb) {
    // The block, then its ranges a page at a time: a page of them no request reached
    // may never have been touched (static storage, demand-zero), and reads as zeros.
    std::vector<uint8_t> pcb(sizeof(lepools_cb), 0);
    if (p.space->read_bytes(r.pools_cb, pcb.data(), offsetof(lepools_cb, ranges))) {
      for (uint64_t at = offsetof(lepools_cb, ranges); at < pcb.size();) {
        const uint64_t end = std::min<uint64_t>(pcb.size(), emu::page_up(r.pools_cb + at + 1) - r.pools_cb);
        if (!p.space->read_bytes(r.pools_cb + at, pcb.data() + at, end - at))
          std::fill(pcb.begin() + ptrdiff_t(at), pcb.begin() + ptrdiff_t(end), 0);
        at = end;
      }
      rep.pools = read_pools(pcb.data(), pcb.size());
    }
  }
  enclaves_.push_back(std::move(rep));
}

// The process ends: the enclaves still active end with it, the innermost first. A
// process whose program ran LE's prologue but never started its enclave's heaps
// (LE_START) still has the enclave and its stack.
void LeStorage::process_ending(os::Process& p) {
  anchored_.erase(p.id);
  auto it = regions_.find(p.id);
  if (it == regions_.end()) return;
  Region& r = it->second;
  if (r.enclaves.empty() && r.stack.on) r.enclaves.push_back({0, r.program, {}, {}, {}});
  for (size_t d = r.enclaves.size(); d-- > 0;) report(p, r, r.enclaves[d], uint32_t(d));
  regions_.erase(it);
}

namespace {

void line(std::ostream& out, const char* label, uint64_t v) { out << fmt::format("  {:<46}{:>16}\n", label, v); }
void line(std::ostream& out, const char* label, const char* text) { out << fmt::format("  {:<46}{:>16}\n", label, text); }

// What the model does not have, said in the value's place: LE's other threads (an
// enclave runs on one ECB, so THREADSTACK and THREADHEAP, whose storage is for the
// threads after the first, have nothing to count), LE's library stack (LIBSTACK: the
// model's library routines run on the caller's stack) and heaps a program creates
// (CEECRHP, "Additional Heap statistics": no such service here).
constexpr const char* kNotModelled = "not modelled";

void heap_section(std::ostream& out, const char* name, const HeapReport& h) {
  out << name << " statistics:\n";
  line(out, "Initial size:", h.init_size);
  line(out, "Increment size:", h.incr_size);
  line(out, "Total heap storage used (sugg. initial size):", h.total_used);
  line(out, "Successful Get Heap requests:", h.gets);
  line(out, "Successful Free Heap requests:", h.frees);
  line(out, "Number of segments allocated:", h.segments_allocated);
  line(out, "Number of segments freed:", h.segments_freed);
}

// A stack LE has that the model does not (THREADSTACK, LIBSTACK): its sizes from the
// options, its use "not modelled".
void unmodelled_stack_section(std::ostream& out, const char* name, uint64_t init, uint64_t incr) {
  out << name << " statistics:\n";
  line(out, "Initial size:", init);
  line(out, "Increment size:", incr);
  line(out, "Maximum used by all concurrent threads:", kNotModelled);
  line(out, "Largest used by any thread:", kNotModelled);
  line(out, "Number of segments allocated:", kNotModelled);
  line(out, "Number of segments freed:", kNotModelled);
}

// THREADHEAP: not an option the model reads (le_options.cpp), so neither its sizes nor
// its use are known.
void threadheap_section(std::ostream& out) {
  out << "THREADHEAP statistics:\n";
  for (const char* label : {"Initial size:", "Increment size:", "Maximum used by all concurrent threads:",
                            "Largest used by any thread:", "Successful Get Heap requests:",
                            "Successful Free Heap requests:", "Number of segments allocated:",
                            "Number of segments freed:"})
    line(out, label, kNotModelled);
}

// LE's "Additional Heap statistics": the heaps CEECRHP created (none can be, here).
void additional_heaps_section(std::ostream& out) {
  out << "Additional Heap statistics:\n";
  for (const char* label : {"Successful Create Heap requests:", "Successful Discard Heap requests:",
                            "Total heap storage used:", "Successful Get Heap requests:",
                            "Successful Free Heap requests:", "Number of segments allocated:",
                            "Number of segments freed:"})
    line(out, label, kNotModelled);
}

// An enclave runs on one ECB: one thread, measured as such.
constexpr uint64_t kThreadsPerEnclave = 1;

nlohmann::ordered_json not_modelled_json(std::optional<std::pair<uint64_t, uint64_t>> sizes) {
  nlohmann::ordered_json j{{"modelled", false}};
  if (sizes) j["initial_size"] = sizes->first, j["increment_size"] = sizes->second;
  return j;
}

nlohmann::ordered_json heap_json(const HeapReport& h) {
  return {{"initial_size", h.init_size},         {"increment_size", h.incr_size},
          {"disposition", h.disposition},        {"total_used", h.total_used},
          {"get_requests", h.gets},              {"free_requests", h.frees},
          {"segments_allocated", h.segments_allocated}, {"segments_freed", h.segments_freed},
          {"in_use_at_end", h.in_use},           {"errors", h.errors},
          {"get_failures", h.get_failures}};
}

uint64_t round8(uint64_t v) { return (v + 7) & ~uint64_t(7); }

}  // namespace

// LE's advice (each heap's "sugg. initial size"): an initial size that holds all the
// heap used, so one segment serves; the increments stay. A heap that was never used
// keeps its options.
std::string suggested_options(const EnclaveReport& e) {
  Options o = e.resolved;
  // Only a heap that served requests has a size to suggest.
  if (e.heap.gets) o.heap.init_size = round8(e.heap.total_used);
  if (e.heap24.gets) o.heap.init24 = round8(e.heap24.total_used);
  if (e.anyheap.gets) o.anyheap.init_size = round8(e.anyheap.total_used);
  if (e.belowheap.gets) o.belowheap.init_size = round8(e.belowheap.total_used);
  return canonical(o, "HEAP") + " " + canonical(o, "ANYHEAP") + " " + canonical(o, "BELOWHEAP");
}

// LE's layout (seed 003, RPTSTG(ON)): a label, its value right-aligned, numbers as LE
// prints them (no separators), the sections in LE's order.
void write_storage_report(std::ostream& out, const std::vector<EnclaveReport>& enclaves) {
  for (const EnclaveReport& e : enclaves) {
    if (!e.rptstg) continue;
    out << fmt::format("Storage Report for Enclave {} (process {}, {})   tpfemu, in the layout of Language Environment\n",
                       e.program, e.process, e.depth ? fmt::format("LINKed {} deep", e.depth) : "first enclave");
    out << fmt::format("  Options: {}\n\n", e.options);
    write_stack_report(out, e.stack);
    const Options& o = e.resolved;
    const StackOption& ts = o.threadstack.on ? o.threadstack.stack : o.stack;
    unmodelled_stack_section(out, "THREADSTACK", ts.init_size, ts.incr_size);
    unmodelled_stack_section(out, "LIBSTACK", o.libstack.init_size, o.libstack.incr_size);
    threadheap_section(out);
    heap_section(out, "HEAP", e.heap);
    heap_section(out, "HEAP24", e.heap24);
    heap_section(out, "ANYHEAP", e.anyheap);
    heap_section(out, "BELOWHEAP", e.belowheap);
    additional_heaps_section(out);
    write_pools_report(out, e.pools);
    line(out, "Largest number of threads concurrently active:", kThreadsPerEnclave);
    if (e.available_above) line(out, "Storage still obtainable when asked (tpfemu):", *e.available_above);
    if (e.available_below) line(out, "  of it below 16 MB:", *e.available_below);
    out << fmt::format("Suggested options (tpfemu, from the sizes used above): {}\n", suggested_options(e));
    out << "End of Storage Report\n\n";
  }
}

void write_storage_json(std::ostream& out, const std::vector<EnclaveReport>& enclaves) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array(), asked;
  for (const EnclaveReport& e : enclaves) {
    if (!e.rptstg) continue;
    const StackOption& ts = e.resolved.threadstack.on ? e.resolved.threadstack.stack : e.resolved.stack;
    nlohmann::ordered_json available;
    if (e.available_above) available["above"] = *e.available_above;
    if (e.available_below) available["below"] = *e.available_below;
    if (!available.is_null() && asked.is_null()) {
      asked = available;
      asked["program"] = e.program;
      asked["depth"] = e.depth;
    }
    list.push_back({{"program", e.program},
                    {"process", e.process},
                    {"depth", e.depth},
                    {"options", e.options},
                    {"region_held_max", e.region_held_max},
                    {"stack", stack_json(e.stack)},
                    {"threadstack", not_modelled_json(std::pair{ts.init_size, ts.incr_size})},
                    {"libstack", not_modelled_json(std::pair{e.resolved.libstack.init_size, e.resolved.libstack.incr_size})},
                    {"threadheap", not_modelled_json(std::nullopt)},
                    {"heap", heap_json(e.heap)},
                    {"heap24", heap_json(e.heap24)},
                    {"anyheap", heap_json(e.anyheap)},
                    {"belowheap", heap_json(e.belowheap)},
                    {"additional_heaps", not_modelled_json(std::nullopt)},
                    {"threads_max_active", kThreadsPerEnclave},
                    {"suggested_options", suggested_options(e)}});
    if (e.pools.on) list.back()["heappools"] = pools_json(e.pools);
    if (!available.is_null()) list.back()["available_when_asked"] = available;
  }
  nlohmann::ordered_json doc{{"enclaves", list}};
  // The first enclave in the report that asked (the innermost: they are reported as they end).
  if (!asked.is_null()) doc["storage_query"] = asked;
  report_json::write(out, doc, {.one_per_line = {"enclaves"}});
}

}  // namespace le
