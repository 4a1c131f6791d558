/* VECTOR FIND ANY ELEMENT EQUAL, FIND ELEMENT EQUAL and FIND ELEMENT NOT EQUAL (z13)
   with every element size and every flag combination (IN, RT, ZS, CS; VFEE and VFENE
   define ZS and CS), through inline assembly with the CC preset, then through the
   <vecintrin.h> builtins GCC compiles to them: vec_find_any_eq/ne (and _idx, _or_0_idx,
   _cc), vec_cmpeq_idx/vec_cmpne_idx (and _or_0_, _cc). Not vec_cmpeq_or_0_idx without
   _cc: GCC 12 emits it as "vfeezbs v,v,v,2", which the assembler rejects. */
#include "strtest.h"

#define ROUNDS 12

#define VFAE(es, f)                                                                      \
  {                                                                                      \
    vb r;                                                                                \
    unsigned cc;                                                                         \
    __asm__ volatile(CC_AROUND("vfae %[r],%[a],%[b]," #es "," #f)                        \
                     : [r] "=v"(r), [cc] "=d"(cc) : [a] "v"(a), [b] "v"(b), [ccw] "d"(ccw) : "cc"); \
    put3("vfae", es, f, cc, r);                                                          \
  }
#define VFEE(es, f)                                                                      \
  {                                                                                      \
    vb r;                                                                                \
    unsigned cc;                                                                         \
    __asm__ volatile(CC_AROUND("vfee %[r],%[a],%[b]," #es "," #f)                        \
                     : [r] "=v"(r), [cc] "=d"(cc) : [a] "v"(a), [b] "v"(b), [ccw] "d"(ccw) : "cc"); \
    put3("vfee", es, f, cc, r);                                                          \
    __asm__ volatile(CC_AROUND("vfene %[r],%[a],%[b]," #es "," #f)                       \
                     : [r] "=v"(r), [cc] "=d"(cc) : [a] "v"(a), [b] "v"(b), [ccw] "d"(ccw) : "cc"); \
    put3("vfene", es, f, cc, r);                                                         \
  }
#define SIZES_OF(X, f) X(0, f) X(1, f) X(2, f)

static void find_any(void) {
  for (int round = 0; round < ROUNDS; ++round) {
    unsigned es = round % 3;
    vb a = pool_vec(es, round & 1), b = pool_vec(es, round % 4 == 1);
    uint64_t ccw = (uint64_t)(round & 3) << 28;
    PUT("a", a), PUT("b", b);
    ALL_FLAGS(VFAE)
  }
}

static void find_equal(void) {
  for (int round = 0; round < 3 * ROUNDS; ++round) {
    unsigned es = round % 3, n = 16u >> es;
    vb a = pool_vec(es, round & 1), b = a;
    /* Equal up to a random element, then anything: the string-compare shape. */
    unsigned k = (unsigned)(rnd64() % (n + 1));
    if (k < n) b = with_element(b, es, k, pool_element(es));
    if (round % 5 == 0 && k < n) a = with_element(a, es, k, 0);
    if (round % 7 == 0) b = pool_vec(es, 1);
    uint64_t ccw = (uint64_t)((round + 1) & 3) << 28;
    PUT("a", a), PUT("b", b);
    SIZES_OF(VFEE, 0) SIZES_OF(VFEE, 1) SIZES_OF(VFEE, 2) SIZES_OF(VFEE, 3)
  }
}

static void builtins(void) {
  for (int round = 0; round < ROUNDS; ++round) {
    vb a = pool_vec(0, 1), b = pool_vec(0, 0);
    vh ha = (vh)pool_vec(1, 1), hb = (vh)pool_vec(1, 0);
    vw wa = (vw)pool_vec(2, 1), wb = (vw)pool_vec(2, 0);
    int cc = -1;
    PUT("find_any_eq", vec_find_any_eq(a, b));
    PUT("find_any_ne", vec_find_any_ne(ha, hb));
    PUT("find_any_eq_idx", vec_find_any_eq_idx(wa, wb));
    PUT("find_any_ne_idx", vec_find_any_ne_idx(a, b));
    PUT("find_any_eq_or_0_idx", vec_find_any_eq_or_0_idx(ha, hb));
    PUT("find_any_ne_or_0_idx", vec_find_any_ne_or_0_idx(wa, wb));
    PUT("find_any_eq_cc", vec_find_any_eq_cc(a, b, &cc)), printf("cc %d\n", cc);
    PUT("find_any_ne_idx_cc", vec_find_any_ne_idx_cc(ha, hb, &cc)), printf("cc %d\n", cc);
    PUT("find_any_eq_or_0_idx_cc", vec_find_any_eq_or_0_idx_cc(wa, wb, &cc)), printf("cc %d\n", cc);
    vb c = with_element(a, 0, (unsigned)(rnd64() % 16), 'q');
    PUT("cmpeq_idx", vec_cmpeq_idx(a, b));
    PUT("cmpeq_idx_cc", vec_cmpeq_idx_cc(wa, wb, &cc)), printf("cc %d\n", cc);
    PUT("cmpeq_or_0_idx_cc", vec_cmpeq_or_0_idx_cc(a, c, &cc)), printf("cc %d\n", cc);
    PUT("cmpne_idx", vec_cmpne_idx(a, c));
    PUT("cmpne_or_0_idx", vec_cmpne_or_0_idx(a, c));
    PUT("cmpne_idx_cc", vec_cmpne_idx_cc(ha, ha, &cc)), printf("cc %d\n", cc);
    PUT("cmpne_or_0_idx_cc", vec_cmpne_or_0_idx_cc(a, c, &cc)), printf("cc %d\n", cc);
  }
}

int main(void) {
  find_any();
  find_equal();
  builtins();
  return 0;
}
