/* VECTOR STRING SEARCH (vector-enhancements facility 2, z15): every element size, with
   and without the zero search, substrings taken from the searched string (full
   matches), cut at its end (partial matches), absent, empty and longer than a
   register; and vec_search_string_cc / vec_search_string_until_zero_cc. */
#include "strtest.h"

#define VSTRS(es, f)                                                                     \
  {                                                                                      \
    vb r;                                                                                \
    unsigned cc;                                                                         \
    __asm__ volatile(CC_AROUND("vstrs %[r],%[a],%[b],%[n]," #es "," #f)                  \
                     : [r] "=v"(r), [cc] "=d"(cc)                                        \
                     : [a] "v"(a), [b] "v"(b), [n] "v"(n), [ccw] "d"(ccw) : "cc");       \
    put3("vstrs", es, f, cc, r);                                                         \
  }

/* A needle of n bytes: from the haystack at byte `at` (so it may run past its end),
   or random. */
static vb needle(vb hay, unsigned at, int from_hay) {
  union { vb v; uint8_t b[16]; } h = {hay}, u;
  for (unsigned k = 0; k < 16; ++k) u.b[k] = from_hay && at + k < 16 ? h.b[at + k] : (uint8_t)(rnd64() % 3 + 'a');
  return u.v;
}

int main(void) {
  for (int round = 0; round < 60; ++round) {
    unsigned es = round % 3, size = 1u << es;
    vb a = pool_vec(es, round % 4 == 0);
    if (round % 6 == 1) a = pool_vec(0, 0);
    unsigned at = (unsigned)(rnd64() % 16) & ~(size - 1);
    vb b = needle(a, at, round % 5 != 4);
    unsigned len = (unsigned)(rnd64() % 21);
    if (round % 9 == 0) len = 0;
    if (round % 4 == 2 && at + len < 16) b = with_element(b, es, len / size / 2, 0);
    vb n = with_element((vb){0}, 0, 7, len);
    n = with_element(n, 0, 3, 0xee);  /* bytes other than 7 are ignored */
    uint64_t ccw = (uint64_t)(round & 3) << 28;
    printf("at %u len %u\n", at, len);
    PUT("a", a), PUT("b", b);
    VSTRS(0, 0) VSTRS(0, 2) VSTRS(1, 0) VSTRS(1, 2) VSTRS(2, 0) VSTRS(2, 2)
    int cc = -1;
    PUT("search_string_cc", vec_search_string_cc(a, b, n, &cc)), printf("cc %d\n", cc);
    PUT("search_string_until_zero_cc", vec_search_string_until_zero_cc((vh)a, (vh)b, n, &cc)),
        printf("cc %d\n", cc);
  }
  return 0;
}
