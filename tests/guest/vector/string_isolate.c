/* VECTOR ISOLATE STRING (z13) with every element size, with and without CS (the CC
   preset to each value), and vec_cp_until_zero / vec_cp_until_zero_cc. */
#include "strtest.h"

#define VISTR(es, f)                                                                     \
  {                                                                                      \
    vb r;                                                                                \
    unsigned cc;                                                                         \
    __asm__ volatile(CC_AROUND("vistr %[r],%[a]," #es "," #f)                            \
                     : [r] "=v"(r), [cc] "=d"(cc) : [a] "v"(a), [ccw] "d"(ccw) : "cc");  \
    put3("vistr", es, f, cc, r);                                                         \
  }

int main(void) {
  for (int round = 0; round < 24; ++round) {
    unsigned es = round % 3;
    vb a = pool_vec(es, round % 4 != 3);
    if (round % 5 == 0) a = with_element(a, es, 0, 0);
    if (round % 7 == 0) a = with_element(a, es, (16u >> es) - 1, 0);
    uint64_t ccw = (uint64_t)(round & 3) << 28;
    PUT("a", a);
    VISTR(0, 0) VISTR(0, 1) VISTR(1, 0) VISTR(1, 1) VISTR(2, 0) VISTR(2, 1)
    int cc = -1;
    PUT("cp_until_zero", vec_cp_until_zero(a));
    PUT("cp_until_zero_h", vec_cp_until_zero((vh)a));
    PUT("cp_until_zero_cc_w", vec_cp_until_zero_cc((vw)a, &cc)), printf("cc %d\n", cc);
  }
  return 0;
}
