#include "heap/heap_stats.h"

#include <cstddef>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <vector>

#include "config/number_text.h"
#include "emu/cpu.h"
#include "heap/guest/eheap.h"
#include "report/report_json.h"

namespace heap {
namespace {

using cfg::grouped;

static_assert(EHEAP_HIST == kHist && EHEAP_AVLS == 5);

uint64_t be64(const uint8_t* p) { return emu::Cpu::load_be<uint64_t>(p); }
uint32_t be32(const uint8_t* p) { return emu::Cpu::load_be<uint32_t>(p); }

double pct(uint64_t a, uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; }

struct Row {
  uint64_t limit;  // 0: larger than the last
  uint64_t count;
};

// Sums of the 32-byte classes [from, to].
uint64_t classes(const HeapTotals& t, int from, int to) {
  uint64_t n = 0;
  for (int k = from; k <= to; ++k) n += t.requests[size_t(k)];
  return n;
}

std::vector<Row> old_layout(const HeapTotals& t) {  // 128-byte classes
  std::vector<Row> rows;
  for (int c = 0; c < 8; ++c) rows.push_back({uint64_t(128 * (c + 1)), classes(t, 4 * c, 4 * c + 3)});
  rows.push_back({0, t.requests[32]});
  return rows;
}

std::vector<Row> new_layout(const HeapTotals& t) {  // PJ47265: 32, 64, 128, 256, 512, 768, 1024
  return {{32, classes(t, 0, 0)},    {64, classes(t, 1, 1)},    {128, classes(t, 2, 3)},
          {256, classes(t, 4, 7)},   {512, classes(t, 8, 15)},  {768, classes(t, 16, 23)},
          {1024, classes(t, 24, 31)}, {0, t.requests[32]}};
}

void size_report(std::ostream& out, const char* title, const std::vector<Row>& rows) {
  uint64_t total = 0;
  for (const auto& r : rows) total += r.count;
  fmt::print(out, "TPF ECB HEAP REQUEST SIZE REPORT ({})\nCURRENT BUFFER SIZES IN BYTES:\n", title);
  fmt::print(out, "{:<8}{:>12}{:>22}{:>20}\n", "CLASS", "UPPER LIMIT", "FREQUENCY OBSERVED", "PERCENT OF TOTAL");
  for (const auto& r : rows)
    fmt::print(out, "{:<8}{:>12}{:>22}{:>19.2f}%\n", "", r.limit ? grouped(r.limit) : "LARGER", grouped(r.count),
               pct(r.count, total));
  fmt::print(out, "\n");
}

}  // namespace

const char* error_name(int check) {
  switch (check) {
    case EHEAP_ERR_NOT_OURS: return "free of a pointer the heap did not give";
    case EHEAP_ERR_DOUBLE_FREE: return "double free";
    case EHEAP_ERR_OVERRUN: return "write past the end of a buffer (trailer overwritten)";
    case EHEAP_ERR_EXHAUSTED: return "heap exhausted";
    default: return "unknown heap check";
  }
}

bool harvest(emu::AddressSpace& space, HeapTotals& t) {
  std::vector<uint8_t> h(sizeof(eheap_header));
  if (!space.read_bytes(TPF_EVM_HEAP31, h.data(), h.size()) ||
      be64(h.data() + offsetof(eheap_header, magic)) != EHEAP_HEADER_MAGIC)
    return false;
  ++t.processes;
  const uint8_t* p = h.data();
  if (be64(p + offsetof(eheap_header, ever_used))) ++t.ecbs_with_heap;
  const uint64_t expansions = be64(p + offsetof(eheap_header, hash_expansions));
  t.hash_expansions += expansions;
  if (expansions) ++t.ecbs_hash_expanded;
  const uint64_t f31 = be64(p + offsetof(eheap_header, frames31)), f64 = be64(p + offsetof(eheap_header, frames64));
  if (f31 > 1) ++t.ecbs_frames31, t.frames31 += f31 - 1;  // beyond the preallocated frame
  if (f64 > 0) ++t.ecbs_frames64, t.frames64 += f64;
  const uint64_t used31 = be64(p + offsetof(eheap_header, next31)) - TPF_EVM_HEAP31;
  const uint64_t used64 = be64(p + offsetof(eheap_header, next64)) - TPF_EVM_HEAP64;
  t.hwm31 = std::max(t.hwm31, used31);
  t.hwm64 = std::max(t.hwm64, used64);
  ++t.usage31[(used31 + 4095) / 4096];
  for (int s = 0; s < EHEAP_THREADS; ++s) {
    const uint8_t* q = p + offsetof(eheap_header, tstats) + size_t(s) * sizeof(eheap_tstats);
    auto at = [&](size_t off) { return be64(q + off); };
    for (int k = 0; k < kHist; ++k) t.requests[size_t(k)] += at(offsetof(eheap_tstats, requests) + 8 * size_t(k));
    for (int k = 0; k < 5; ++k) {
      t.dispensed[size_t(k)] += at(offsetof(eheap_tstats, dispensed) + 8 * size_t(k));
      t.freed[size_t(k)] += at(offsetof(eheap_tstats, freed) + 8 * size_t(k));
    }
    t.large_dispensed += at(offsetof(eheap_tstats, large_dispensed));
    t.large_freed += at(offsetof(eheap_tstats, large_freed));
    t.mallocs += at(offsetof(eheap_tstats, mallocs));
    t.frees += at(offsetof(eheap_tstats, frees));
    t.reallocs += at(offsetof(eheap_tstats, reallocs));
    t.callocs += at(offsetof(eheap_tstats, callocs));
    t.malloc64s += at(offsetof(eheap_tstats, malloc64s));
    t.tags += at(offsetof(eheap_tstats, tags));
    t.locates += at(offsetof(eheap_tstats, locates));
    t.locate_steps += at(offsetof(eheap_tstats, locate_steps));
  }
  // The control table: its parts beyond the initial one, and the buffers still
  // dispensed (a leak if the program meant to free them all).
  const uint32_t used = be32(p + offsetof(eheap_header, entries_used));
  const uint32_t cap = be32(p + offsetof(eheap_header, entries_cap));
  const uint32_t per = be32(p + offsetof(eheap_header, part_entries));
  const uint64_t area = TPF_EVM_HEAP31_END - TPF_EVM_HEAP31;
  if (per == 0 || uint64_t(std::max(cap, per)) * sizeof(eheap_entry) > area) return true;  // not a table the area holds
  const uint32_t parts = cap / per;
  if (parts > 1) ++t.ecbs_table_grew, t.table_parts += parts - 1;
  t.entries_hwm = std::max<uint64_t>(t.entries_hwm, used);
  std::vector<uint8_t> dir(size_t(parts) * 8), part(size_t(per) * sizeof(eheap_entry));
  if (!space.read_bytes(be64(p + offsetof(eheap_header, parts)), dir.data(), dir.size())) return true;
  for (uint32_t k = 0; k * uint64_t(per) < used; ++k) {
    if (!space.read_bytes(be64(dir.data() + 8 * size_t(k)), part.data(), part.size())) break;
    for (uint32_t e = 0; e < per && k * uint64_t(per) + e < used; ++e)
      if (part[size_t(e) * sizeof(eheap_entry) + offsetof(eheap_entry, state)] == EHEAP_USED) ++t.live_buffers;
  }
  return true;
}

bool was_used(const HeapTotals& t) {
  uint64_t dispensed = t.large_dispensed;
  for (uint64_t d : t.dispensed) dispensed += d;
  return t.ecbs_with_heap || dispensed || t.mallocs || t.callocs || t.reallocs || t.frees || t.malloc64s || t.tags ||
         t.locates || !t.errors.empty();
}

void write_heap_text(std::ostream& out, const HeapTotals& t) {
  fmt::print(out, "ECB HEAP ({}): {} processes\n", t.algorithm, grouped(t.processes));
  fmt::print(out,
             "Each process's heap is read once, as the process ends (an ECB with its threads; those still\n"
             "running when the run ended, at its end), and the figures below add them up.\n\n");
  size_report(out, "before PJ47265: 128-byte classes", old_layout(t));
  size_report(out, "PJ47265", new_layout(t));
  fmt::print(out, "ECB HEAP USAGE\n");
  auto line = [&](const std::string& what, uint64_t v) { fmt::print(out, "  {:<56}{:>14}\n", what, grouped(v)); };
  line("ECBs that obtained at least one ECB heap buffer", t.ecbs_with_heap);
  line("ECBs that expanded the ECB heap hash table", t.ecbs_hash_expanded);
  line("ECBs that obtained a 1 MB frame, 31-bit ECB heap", t.ecbs_frames31);
  line("ECBs that obtained a 1 MB frame, 64-bit ECB heap", t.ecbs_frames64);
  line("1 MB frames obtained, 31-bit (beyond preallocated)", t.frames31);
  line("1 MB frames obtained, 64-bit", t.frames64);
  line("1 MB of heap in 4 KB frames: no 1 MB frame left (*)", t.large_frame_fallbacks);
  line("ECBs whose control table grew beyond 1 part", t.ecbs_table_grew);
  line("control table parts obtained beyond the initial", t.table_parts);
  line("control entries, most one ECB used", t.entries_hwm);
  for (int k = 0; k < 5; ++k) {
    line(fmt::format("AVL{} buffers dispensed", k + 1), t.dispensed[size_t(k)]);
    line(fmt::format("AVL{} buffers freed", k + 1), t.freed[size_t(k)]);
  }
  line("larger buffers dispensed", t.large_dispensed);
  line("larger buffers freed", t.large_freed);
  line("high-water mark, 31-bit ECB heap (bytes)", t.hwm31);
  line("high-water mark, 64-bit ECB heap (bytes)", t.hwm64);
  line("malloc calls", t.mallocs);
  line("calloc and calloc64 calls", t.callocs);
  line("realloc and realloc64 calls", t.reallocs);
  line("free calls", t.frees);
  line("malloc64 calls", t.malloc64s);
  line("tpf_eheap_tag calls", t.tags);
  line("tpf_eheap_locate calls", t.locates);
  line("entries or chain links a locate looked at", t.locate_steps);
  line("buffers still held when their ECB exited (*)", t.live_buffers);
  for (const auto& [what, n] : t.errors) line("ECBs ended by a heap error: " + what, n);
  fmt::print(out,
             "  (*) dispensed and never freed by the program; the ECB's exit returns the whole heap, so\n"
             "      this is a leak only in a program meant to free every buffer itself.\n");
  if (t.large_frame_fallbacks)
    fmt::print(out,
               "  (*) system.ecb_heap.large_frames asked for 1 MB frames; storage had none left, so\n"
               "      these megabytes of heap have 4 KB pages (more TLB entries, each pageable alone).\n");
  fmt::print(out, "\nTPF 31-BIT VIRTUAL ECB HEAP STORAGE USAGE REPORT (4 KB INCREMENTS)\n");
  fmt::print(out, "{:>12}{:>14}{:>20}\n", "USED UP TO", "ECBS", "CUMULATIVE PERCENT");
  uint64_t cum = 0;
  for (const auto& [k, n] : t.usage31) {
    cum += n;
    fmt::print(out, "{:>10} K{:>14}{:>19.2f}%\n", grouped(k * 4), grouped(n), pct(cum, t.processes));
  }
}

void write_heap_json(std::ostream& out, const HeapTotals& t) {
  using report_json::Json;
  auto rows = [](const std::vector<Row>& r) {
    Json list = Json::array();
    for (const Row& row : r) list.push_back({{"upper_limit", row.limit ? Json(row.limit) : Json()}, {"count", row.count}});
    return list;
  };
  Json usage = Json::array();
  for (const auto& [k, n] : t.usage31) usage.push_back({{"kb", k * 4}, {"ecbs", n}});
  Json errors = Json::object();
  for (const auto& [what, n] : t.errors) errors[what] = n;
  const Json j = {{"algorithm", t.algorithm},
                  {"processes", t.processes},
                  {"request_sizes_32", t.requests},
                  {"request_size_report_old", rows(old_layout(t))},
                  {"request_size_report_new", rows(new_layout(t))},
                  {"ecbs_with_heap", t.ecbs_with_heap},
                  {"ecbs_hash_expanded", t.ecbs_hash_expanded},
                  {"ecbs_frames31", t.ecbs_frames31},
                  {"ecbs_frames64", t.ecbs_frames64},
                  {"frames31", t.frames31},
                  {"frames64", t.frames64},
                  {"large_frame_fallbacks", t.large_frame_fallbacks},
                  {"hash_expansions", t.hash_expansions},
                  {"ecbs_table_grew", t.ecbs_table_grew},
                  {"table_parts", t.table_parts},
                  {"entries_hwm", t.entries_hwm},
                  {"avl_dispensed", t.dispensed},
                  {"avl_freed", t.freed},
                  {"large_dispensed", t.large_dispensed},
                  {"large_freed", t.large_freed},
                  {"mallocs", t.mallocs},
                  {"callocs", t.callocs},
                  {"reallocs", t.reallocs},
                  {"frees", t.frees},
                  {"malloc64s", t.malloc64s},
                  {"tags", t.tags},
                  {"locates", t.locates},
                  {"locate_steps", t.locate_steps},
                  {"hwm31", t.hwm31},
                  {"hwm64", t.hwm64},
                  {"usage31", usage},
                  {"live_buffers", t.live_buffers},
                  {"errors", errors}};
  report_json::write(out, j);
}

}  // namespace heap
