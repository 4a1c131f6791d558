// le_heap_model: E4's request sequences on the host model of the LE heap, printing the
// key=value lines that the guest program tests/guest/le/leheap_e4.c prints for the same
// arguments (tests/le_heap_compare.sh compares them).
//   le_heap_model A|B N INIT INCR KEEP|FREE FIRST|BEST [placement]
// INIT and INCR in bytes, or with K or M (1024, 1048576).
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
  std::fputs("usage: le_heap_model A|B N INIT INCR KEEP|FREE FIRST|BEST [placement]\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7 && argc != 8) return usage();
  const std::string seq = argv[1], disp = argv[5], fit = argv[6];
  uint32_t n = 0;
  le::HeapOptions o;
  if ((seq != "A" && seq != "B") || !parse_size(argv[2], n) || n == 0 || !parse_size(argv[3], o.init) ||
      !parse_size(argv[4], o.incr) || (disp != "KEEP" && disp != "FREE") || (fit != "FIRST" && fit != "BEST") ||
      (argc == 8 && std::string(argv[7]) != "placement"))
    return usage();
  o.disposition = disp == "FREE" ? LEHEAP_FREE : LEHEAP_KEEP;
  o.fit = fit == "BEST" ? LEHEAP_BEST_FIT : LEHEAP_FIRST_FIT;
  const le::E4Result r = le::run_e4(seq[0], n, o);
  std::fputs(le::e4_report(seq[0], n, o, r.counters, argc == 8 ? &r.placement : nullptr).c_str(), stdout);
  return 0;
}
