#include "heap/heap_config.h"

#include <fmt/format.h>
#include <algorithm>
#include <sstream>

#include "heap/guest/eheap.h"

namespace heap {
namespace {

const std::string kSeed0 = "seed 000 (ECB Heap Performance Enhancements, APAR PJ47265, TPF Users Group 2025)";

// "32,64,128,256,512" -> five numbers; throws a message (no place) if it is not that.
std::array<uint32_t, kAvls> five(const std::string& text, bool increasing, uint32_t min, uint32_t max) {
  std::array<uint32_t, kAvls> v{};
  std::istringstream in(text);
  std::string item;
  int n = 0;
  while (std::getline(in, item, ',')) {
    if (n == kAvls) throw cfg::ConfigError(fmt::format("\"{}\": more than {} values", text, kAvls));
    size_t used = 0;
    unsigned long x = 0;
    try {
      x = std::stoul(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size())
      throw cfg::ConfigError(fmt::format("\"{}\": AVL{} \"{}\" is not a whole number", text, n + 1, item));
    if (x < min || x > max)
      throw cfg::ConfigError(fmt::format("\"{}\": AVL{} {} is out of range {}..{}", text, n + 1, x, min, max));
    if (increasing && n > 0 && x <= v[size_t(n - 1)])
      throw cfg::ConfigError(fmt::format("\"{}\": AVL{} ({}) must be larger than AVL{} ({})", text, n + 1, x, n, v[size_t(n - 1)]));
    v[size_t(n++)] = uint32_t(x);
  }
  if (n != kAvls) throw cfg::ConfigError(fmt::format("\"{}\": {} values, AVL1 to AVL5 need {}", text, n, kAvls));
  return v;
}

struct Change {
  const char* name;
  uint32_t bit;
};
constexpr Change kChanges[] = {
    {"lazy-entries", EHEAP_CHANGE_LAZY_ENTRIES}, {"tag-hash", EHEAP_CHANGE_TAG_HASH},
    {"line-align", EHEAP_CHANGE_LINE_ALIGN},     {"lifo", EHEAP_CHANGE_LIFO},
    {"light-lock", EHEAP_CHANGE_LIGHT_LOCK},     {"thread-trace", EHEAP_CHANGE_THREAD_TRACE},
    {"thread-avls", EHEAP_CHANGE_THREAD_AVLS},
};

std::string change_list() {
  std::string s;
  for (const auto& c : kChanges) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

// "algorithm", "none", "all" or "lifo,light-lock" -> EHEAP_CHANGE_* bits.
uint32_t parse_changes(const std::string& text, const std::string& algorithm) {
  if (text == "algorithm") return algorithm == "pj47265" ? EHEAP_CHANGES_ALL : 0;
  if (text == "none") return 0;
  if (text == "all") return EHEAP_CHANGES_ALL;
  uint32_t bits = 0;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const auto* c = std::find_if(std::begin(kChanges), std::end(kChanges), [&](const Change& k) { return item == k.name; });
    if (c == std::end(kChanges))
      throw cfg::ConfigError(fmt::format("\"{}\" is not a change of PJ47265 (algorithm, none, all, or some of {})",
                                         item, change_list()));
    bits |= c->bit;
  }
  return bits;
}

AvlConfig avls(const cfg::Config& c, const std::string& who) {
  AvlConfig a;
  const std::string sizes = "system.ecb_heap." + who + ".avl_sizes", counts = "system.ecb_heap." + who + ".avl_counts";
  try {
    a.sizes = five(c.get_string(sizes), true, 8, 1 << 20);
  } catch (const cfg::ConfigError& e) {
    throw c.error({sizes}, e.what());
  }
  try {
    a.counts = five(c.get_string(counts), false, 0, 4096);
  } catch (const cfg::ConfigError& e) {
    throw c.error({counts}, e.what());
  }
  return a;
}

cfg::Section<EcbHeapConfig> make_ecb_heap_section() {
  cfg::Section<EcbHeapConfig> s;
  using T = cfg::ValueType;
  s.key({.path = "system.ecb_heap.algorithm",
         .type = T::Enum,
         .default_value = "baseline",
         .choices = {"baseline", "pj47265"},
         .unit = "variant",
         .description = "The ECB heap guest code (malloc, free, ..., heap/guest): baseline initializes each part "
                        "of the control table whole (the initial one at an ECB's first request), searches tags sequentially, packs buffers, "
                        "reuses AVL buffers FIFO and serializes the shared AVLs with an SVC lock and one trace "
                        "table per process; pj47265 initializes entries when needed, hashes tags, aligns buffers "
                        "on 256-byte lines, reuses LIFO, locks in guest code and gives each thread its own AVLs "
                        "and trace table (system.ecb_heap.changes picks some of these). No application change.",
         .source = "baseline: the ECB heap before the APAR, the baseline of " + kSeed0 + "."},
         &EcbHeapConfig::algorithm);
  s.key({.path = "system.ecb_heap.large_frames",
         .type = T::Bool,
         .default_value = "true",
         .unit = "on/off",
         .description = "The heap gets its areas 1 MB at a time: on, in a 1 MB frame (a large page: one TLB entry, "
                        "pageable whole to SCM); off, in 256 4 KB frames (paged as 4 KB pages).",
         .source = "on: z/TPF backs the ECB heap with 1 MB frames where it can; seed 002 compares pageable 1 MB "
                   "large pages with 4 KB pages (about 5-8% CPU)."},
         &EcbHeapConfig::large_frames);
  s.key({.path = "system.ecb_heap.fixed",
         .type = T::Bool,
         .default_value = "false",
         .unit = "on/off",
         .description = "The heap's frames are page-fixed as the heap gets them, as z/OS's fixed large pages: "
                        "backed at allocation, counted in real storage (system.paging.real_storage) but never "
                        "stolen, so a 1 MB frame is never demoted to 4 KB frames; off, pageable (paging may write "
                        "a 1 MB page to SCM whole or demote it). With large_frames off: fixed 4 KB frames.",
         .source = "off: pageable, as seed 002's pageable large pages; seed 002: \"Fixed large pages are backed at "
                   "allocation ... stay as 1 MB pages while pageable large pages may be demoted to 4K pages\"."},
         &EcbHeapConfig::fixed);
  s.key({.path = "system.ecb_heap.control_entries",
         .type = T::Integer,
         .default_value = "150",
         .min = "16",
         .max = "100000",
         .unit = "entries",
         .description = "Entries of an ECB's initial heap control table (one per buffer, 136 bytes each; 150 take "
                        "five 4 KB frames) and of each further part the table grows by when more buffers are used. "
                        "baseline initializes a part whole when it gets it, pj47265 each entry as a buffer needs "
                        "it. The preallocated AVL1-AVL4 buffers of each ECB class must fit the initial table.",
         .source = "IBM (z/TPF blog, \"Pre-allocated ECB buffer restriction Q&A\", Ken Warner): the initial ECB "
                   "heap control table has 150 entries, a good fit into the five 4 KB frames it uses, and more "
                   "storage is obtained for the table when more than 150 buffers are used (so ZCTKA allows at "
                   "most 150 preallocated AVL1-AVL4 buffers). The size of a growth step is not published: "
                   "estimate, the same as the initial table."}, &EcbHeapConfig::control_entries);
  s.key_from({.path = "system.ecb_heap.changes",
              .type = T::String,
              .default_value = "algorithm",
              .unit = "changes of PJ47265",
              .description = "Which of PJ47265's changes the heap code has: \"algorithm\" (none for baseline, all "
                             "for pj47265), \"none\", \"all\", or a comma-separated list of " +
                             change_list() + ". For the ablation of E1 (docs/e1-tls.md): each change alone on top "
                             "of the baseline. The eighth change of the APAR, the request size report's "
                             "layout, is a report (heap.txt has both layouts) and costs the guest nothing.",
              .source = "the list of seed 000, \"Technical Details\"."},
             [](EcbHeapConfig& h, const cfg::Config& c, const std::string& path) {
               h.changes = parse_changes(c.get_string(path), c.get_string("system.ecb_heap.algorithm"));
             });
  s.key({.path = "system.ecb_heap.trace_entries",
         .type = T::Integer,
         .default_value = "256",
         .min = "1",
         .max = "65536",
         .unit = "entries",
         .description = "Entries of the ECB heap trace table (32 bytes each): one per process for baseline, one "
                        "per thread for pj47265; each heap operation writes one, round robin.",
         .source = "estimate: a few hundred recent operations, enough to see what a dump's ECB last did."},
         &EcbHeapConfig::trace_entries);
  s.key({.path = "system.ecb_heap.thread_avl_max",
         .type = T::Integer,
         .default_value = "32",
         .min = "0",
         .max = "65536",
         .unit = "buffers",
         .description = "pj47265: buffers a thread keeps on each of its own AVLs before a free goes to the shared "
                        "AVL (under the lock).",
         .source = "estimate: more than the buffers one TLS record exchange holds at once (a few), so a "
                   "thread's steady state never touches the shared lists."}, &EcbHeapConfig::thread_avl_max);
  s.key({.path = "system.ecb_heap.hash_buckets",
         .type = T::Integer,
         .default_value = "64",
         .min = "1",
         .max = "1048576",
         .unit = "buckets",
         .description = "pj47265: the tag hash table's first size (a power of two); it doubles when it holds "
                        "twice as many tags as buckets (locate stays a few steps).",
         .source = "estimate: a handful of tags per ECB is usual; 64 buckets are one 256-byte line."},
         &EcbHeapConfig::hash_buckets);
  const auto avl_keys = [&](AvlConfig EcbHeapConfig::*avl, const std::string& who, const std::string& sizes,
                            const std::string& counts, const std::string& whom, const std::string& source) {
    s.key_with({.path = "system.ecb_heap." + who + ".avl_sizes",
           .type = T::String,
           .default_value = sizes,
           .unit = "bytes, AVL1..AVL5",
           .description = "Buffer sizes of AVL1 to AVL5 for " + whom + ", comma separated and increasing; a "
                          "request goes to the first AVL it fits, larger ones to the large list.",
           .source = source},
               [avl](EcbHeapConfig& h, const cfg::ConfigValue& v) {
                 (h.*avl).sizes = five(std::get<std::string>(v), true, 8, 1 << 20);
               });
    s.key_with({.path = "system.ecb_heap." + who + ".avl_counts",
           .type = T::String,
           .default_value = counts,
           .unit = "buffers, AVL1..AVL5",
           .description = "Buffers of each AVL preallocated at the first heap request of " + whom + ".",
           .source = "estimate: a few of each, more of the small sizes the workload asks most for; AVL1-AVL4 "
                     "at most system.ecb_heap.control_entries together (z/TPF's ZCTKA limit, 150), AVL5 "
                     "within the initial table too."},
               [avl](EcbHeapConfig& h, const cfg::ConfigValue& v) {
                 (h.*avl).counts = five(std::get<std::string>(v), false, 0, 4096);
               });
  };
  avl_keys(&EcbHeapConfig::app, "app", "64,128,256,512,1024", "8,8,4,4,2", "application ECBs",
           "estimate: seed 000 expects applications to benefit from larger available list sizes than SSL's.");
  avl_keys(&EcbHeapConfig::ssl, "ssl", "32,64,128,256,512", "48,48,32,16,4", "shared SSL and Java ECBs",
           "AVL1 to AVL4 as the published example (32, 64, 128, 256 bytes); seed 000: SSL and Java use many "
           "small buffers and benefit from small AVL sizes. AVL5 512 continues the doubling.");
  s.key_with({.path = "system.ecb_heap.ssl_programs",
         .type = T::String,
         .default_value = "QSSL",
         .unit = "program names",
         .description = "Programs (comma separated) whose ECBs and threads are shared SSL or Java ECBs and get "
                        "the ssl AVLs; every other ECB gets the app AVLs.",
         .source = "QSSL, the TLS workload's SSL server program (apps/)."},
         [](EcbHeapConfig& h, const cfg::ConfigValue& v) {
           std::istringstream in(std::get<std::string>(v));
           for (std::string p; std::getline(in, p, ',');)
             if (!p.empty()) h.ssl_programs.push_back(p);
         });
  s.describe("system.ecb_heap", "The ECB heap (heap/): variant, control table, AVLs per ECB class.");
  s.describe("system.ecb_heap.app", "AVLs of application ECBs.");
  s.describe("system.ecb_heap.ssl", "AVLs of shared SSL and Java ECBs.");
  s.check("system.ecb_heap AVL sizes and counts are five numbers each", [](const cfg::Config& c) {
    const uint64_t entries = uint64_t(c.get_int("system.ecb_heap.control_entries"));
    for (const std::string who : {"app", "ssl"}) {
      const AvlConfig a = avls(c, who);
      // ZCTKA's restriction: every preallocated AVL buffer needs an entry of the initial table.
      const uint64_t pre = uint64_t(a.counts[0]) + a.counts[1] + a.counts[2] + a.counts[3];
      if (pre > entries)
        throw c.error({"system.ecb_heap." + who + ".avl_counts"},
                      fmt::format("{} preallocated AVL1-AVL4 buffers do not fit the initial control table "
                                  "(system.ecb_heap.control_entries: {}); z/TPF's ZCTKA allows at most as many",
                                  pre, entries));
    }
    const uint64_t buckets = uint64_t(c.get_int("system.ecb_heap.hash_buckets"));
    if (buckets & (buckets - 1))  // the guest masks a tag's hash with buckets - 1
      throw c.error({"system.ecb_heap.hash_buckets"}, fmt::format("{} is not a power of two", buckets));
    try {
      parse_changes(c.get_string("system.ecb_heap.changes"), c.get_string("system.ecb_heap.algorithm"));
    } catch (const cfg::ConfigError& e) {
      throw c.error({"system.ecb_heap.changes"}, e.what());
    }
  });
  return s;
}

}  // namespace

const cfg::Section<EcbHeapConfig>& ecb_heap_section() {
  static const cfg::Section<EcbHeapConfig> section = make_ecb_heap_section();
  return section;
}

std::string variant_label(const EcbHeapConfig& h) {
  const uint32_t own = h.algorithm == "pj47265" ? EHEAP_CHANGES_ALL : 0;
  if (h.changes == own) return h.algorithm;
  if (h.changes == 0) return "no change of PJ47265";
  if (h.changes == EHEAP_CHANGES_ALL) return "every change of PJ47265";
  std::string s;
  for (const auto& c : kChanges)
    if (h.changes & c.bit) s += (s.empty() ? "" : ",") + std::string(c.name);
  return "baseline with " + s;
}

int algorithm_number(const std::string& name) {
  static_assert(EHEAP_BASELINE == 0 && EHEAP_PJ47265 == 1);
  return name == "baseline" ? EHEAP_BASELINE : name == "pj47265" ? EHEAP_PJ47265 : -1;
}

}  // namespace heap
