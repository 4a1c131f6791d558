/* VECTOR STRING RANGE COMPARE (z13) with every element size and flag combination
   (IN, RT, ZS, CS), ranges whose controls take every combination of equal/low/high,
   and the <vecintrin.h> builtins over it: vec_cmprg, vec_cmpnrg and their _idx,
   _or_0_idx and _cc forms. */
#include "strtest.h"

#define ROUNDS 10

/* Range bounds and controls: the control of each bound in the leftmost three bits of
   its element (equal, low, high), random bits below them. */
static vb controls(unsigned es) {
  union { vb v; uint8_t b[16]; } u;
  unsigned size = 1u << es;
  for (unsigned k = 0; k < 16; ++k) u.b[k] = (uint8_t)rnd64();
  for (unsigned k = 0; k < 16; k += size) u.b[k] = (uint8_t)((rnd64() & 7) << 5) | (u.b[k] & 0x1f);
  return u.v;
}

#define VSTRC(es, f)                                                                     \
  {                                                                                      \
    vb r;                                                                                \
    unsigned cc;                                                                         \
    __asm__ volatile(CC_AROUND("vstrc %[r],%[a],%[b],%[c]," #es "," #f)                  \
                     : [r] "=v"(r), [cc] "=d"(cc)                                        \
                     : [a] "v"(a), [b] "v"(b), [c] "v"(c), [ccw] "d"(ccw) : "cc");       \
    put3("vstrc", es, f, cc, r);                                                         \
  }

int main(void) {
  for (int round = 0; round < ROUNDS; ++round) {
    vb a = pool_vec(round % 3, round & 1), b = pool_vec(round % 3, 0), c = controls(round % 3);
    uint64_t ccw = (uint64_t)(round & 3) << 28;
    PUT("a", a), PUT("b", b), PUT("c", c);
    ALL_FLAGS(VSTRC)
  }
  /* The classic use: letters 'a'-'z' and digits as two ranges, >= low and <= high. */
  vb lo_hi = {'a', 'z', '0', '9', 'a', 'z', '0', '9', 'a', 'z', '0', '9', 'a', 'z', '0', '9'};
  vb ge_le = {0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0};
  for (int round = 0; round < ROUNDS; ++round) {
    vb s = pool_vec(0, 1);
    s = with_element(s, 0, (unsigned)(rnd64() % 16), '5');
    int cc = -1;
    PUT("s", s);
    PUT("cmprg", vec_cmprg(s, lo_hi, ge_le));
    PUT("cmpnrg", vec_cmpnrg(s, lo_hi, ge_le));
    PUT("cmprg_idx", vec_cmprg_idx(s, lo_hi, ge_le));
    PUT("cmpnrg_idx", vec_cmpnrg_idx(s, lo_hi, ge_le));
    PUT("cmprg_or_0_idx", vec_cmprg_or_0_idx(s, lo_hi, ge_le));
    PUT("cmpnrg_or_0_idx", vec_cmpnrg_or_0_idx(s, lo_hi, ge_le));
    PUT("cmprg_cc", vec_cmprg_cc(s, lo_hi, ge_le, &cc)), printf("cc %d\n", cc);
    PUT("cmpnrg_idx_cc", vec_cmpnrg_idx_cc(s, lo_hi, ge_le, &cc)), printf("cc %d\n", cc);
    PUT("cmprg_or_0_idx_cc", vec_cmprg_or_0_idx_cc(s, lo_hi, ge_le, &cc)), printf("cc %d\n", cc);
    vh hs = (vh)pool_vec(1, 1), hr = {0x61, 0x7a00, 0, 0xffff, 0x61, 0x7a00, 0, 0xffff};
    vh hc = {0xa000, 0xc000, 0x8000, 0x8000, 0xa000, 0xc000, 0x8000, 0x8000};
    PUT("cmprg_h", vec_cmprg(hs, hr, hc));
    vw ws = (vw)pool_vec(2, 1), wr = {0x61616161, 0xffffffff, 0, 0x80};
    vw wc = {0x20000000, 0x80000000, 0xa0000000, 0x40000000};
    PUT("cmpnrg_or_0_idx_cc_w", vec_cmpnrg_or_0_idx_cc(ws, wr, wc, &cc)), printf("cc %d\n", cc);
  }
  return 0;
}
