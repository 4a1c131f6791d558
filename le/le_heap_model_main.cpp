// le_heap_model: E4's request sequences on the host model of the LE heap, printing the
// key=value lines that the guest program tests/guest/le/leheap_e4.c prints for the same
// arguments (tests/le_heap_compare.sh compares them).
//   le_heap_model A|B N INIT INCR KEEP|FREE FIRST|BEST [placement] [pools[=CELL:PCT,...]]
// INIT and INCR in bytes, or with K or M (1024, 1048576). "pools" puts HEAPPOOLS(ON) in
// front of the heap: IBM's default pools (8:10,32:10,128:10,256:10,1024:10,2048:10),
// or the cell sizes and percentages given.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "le/le_heap_model.h"

namespace {

bool parse_size(const char* s, uint32_t& out) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s) return false;
  if (*end == 'K' || *end == 'k') v <<= 10, ++end;
  else if (*end == 'M' || *end == 'm') v <<= 20, ++end;
  if (*end || v > 0x7FFFFFFFull) return false;
  out = uint32_t(v);
  return true;
}

int usage() {
  std::fputs("usage: le_heap_model A|B N INIT INCR KEEP|FREE FIRST|BEST [placement] [pools[=CELL:PCT,...]]\n", stderr);
  return 2;
}

// "pools" or "pools=8:10,32:10": HEAPPOOLS(ON) with those pools.
bool parse_pools(const std::string& a, le::PoolsOptions& p) {
  if (a == "pools") {
    p.on = true;
    p.pools = {{8, 10}, {32, 10}, {128, 10}, {256, 10}, {1024, 10}, {2048, 10}};
    return true;
  }
  if (a.rfind("pools=", 0) != 0) return false;
  p.on = true;
  const char* s = a.c_str() + 6;
  while (*s) {
    char* end = nullptr;
    const unsigned long cell = std::strtoul(s, &end, 10);
    if (*end != ':') return false;
    const unsigned long pct = std::strtoul(end + 1, &end, 10);
    if (cell == 0 || cell % 8 || cell > LEPOOLS_MAX_CELL || pct < 1 || pct > 90 ||
        (!p.pools.empty() && cell <= p.pools.back().first) || p.pools.size() == LEPOOLS_MAX)
      return false;
    p.pools.emplace_back(uint32_t(cell), uint32_t(pct));
    if (*end == ',') ++end;
    else if (*end) return false;
    s = end;
  }
  return !p.pools.empty();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7 || argc > 9) return usage();
  const std::string seq = argv[1], disp = argv[5], fit = argv[6];
  uint32_t n = 0;
  le::HeapOptions o;
  le::PoolsOptions pools;
  bool placement = false;
  for (int i = 7; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "placement" && !placement) placement = true;
    else if (pools.on || !parse_pools(a, pools)) return usage();
  }
  if ((seq != "A" && seq != "B") || !parse_size(argv[2], n) || n == 0 || !parse_size(argv[3], o.init) ||
      !parse_size(argv[4], o.incr) || (disp != "KEEP" && disp != "FREE") || (fit != "FIRST" && fit != "BEST"))
    return usage();
  o.disposition = disp == "FREE" ? LEHEAP_FREE : LEHEAP_KEEP;
  o.fit = fit == "BEST" ? LEHEAP_BEST_FIT : LEHEAP_FIRST_FIT;
  const le::E4Result r = le::run_e4(seq[0], n, o, pools);
  std::fputs(le::e4_report(seq[0], n, o, r.counters, placement ? &r.placement : nullptr, pools.on ? &r.pools : nullptr)
                 .c_str(),
             stdout);
  return 0;
}
