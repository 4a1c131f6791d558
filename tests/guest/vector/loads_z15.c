/* The byte- and element-reversed vector loads and stores of vector-enhancements
   facility 2 (z15), which move little-endian data: VLBR and VSTBR (every element size,
   the quadword too), VLER and VSTER, VLBRREP, VLLEBRZ (with the M3 = 6 word form,
   LERV), VLEBRH/F/G and VSTEBRH/F/G at every element index; operands at every offset
   across a page boundary, and the builtins vec_revb, vec_reve and vec_xl/xst on them. */
#include "strtest.h"

static uint8_t buf[8192] __attribute__((aligned(4096)));

#define LOAD(insn, m)                                                                   \
  {                                                                                     \
    vb r;                                                                               \
    __asm__ volatile(Z15(insn " %0,0(%1)," #m) : "=v"(r) : "a"(p), "m"(*(const uint8_t(*)[16])p)); \
    printf("%s %d off %d ", insn, m, off);                                              \
    PUT("", r);                                                                         \
  }
#define STORE(insn, m)                                                                  \
  {                                                                                     \
    __asm__ volatile(Z15(insn " %1,0(%0)," #m) : : "a"(p), "v"(v) : "memory");          \
    printf("%s %d off %d ", insn, m, off);                                              \
    PUT("", vec_xl(0, p - 8));                                                          \
    PUT(" +16", vec_xl(16, p - 8));                                                     \
  }

int main(void) {
  for (unsigned k = 0; k < sizeof buf; ++k) buf[k] = (uint8_t)rnd64();
  for (int off = 4096 - 19; off < 4096 + 3; off += 3) {
    const uint8_t *p = buf + off;
    LOAD("vlbr", 1) LOAD("vlbr", 2) LOAD("vlbr", 3) LOAD("vlbr", 4)
    LOAD("vler", 1) LOAD("vler", 2) LOAD("vler", 3)
    LOAD("vlbrrep", 1) LOAD("vlbrrep", 2) LOAD("vlbrrep", 3)
    LOAD("vllebrz", 1) LOAD("vllebrz", 2) LOAD("vllebrz", 3) LOAD("vllebrz", 6)
  }
  /* Element loads into a register that keeps its other elements. */
  for (int round = 0; round < 4; ++round) {
    const uint8_t *p = buf + 100 + 5 * round;
    vb base = rnd_vec(), r;
#define ELEMENT(insn, m)                                                                \
    r = base;                                                                           \
    __asm__ volatile(Z15(insn " %0,0(%1)," #m) : "+v"(r) : "a"(p), "m"(*(const uint8_t(*)[8])p)); \
    printf("%s %d ", insn, m), PUT("", r);
    ELEMENT("vlebrh", 0) ELEMENT("vlebrh", 1) ELEMENT("vlebrh", 2) ELEMENT("vlebrh", 3)
    ELEMENT("vlebrh", 4) ELEMENT("vlebrh", 5) ELEMENT("vlebrh", 6) ELEMENT("vlebrh", 7)
    ELEMENT("vlebrf", 0) ELEMENT("vlebrf", 1) ELEMENT("vlebrf", 2) ELEMENT("vlebrf", 3)
    ELEMENT("vlebrg", 0) ELEMENT("vlebrg", 1)
  }
  for (int off = 4096 - 13; off < 4096 + 3; off += 4) {
    uint8_t *p = buf + off;
    vb v = rnd_vec();
    STORE("vstbr", 1) STORE("vstbr", 2) STORE("vstbr", 3) STORE("vstbr", 4)
    STORE("vster", 1) STORE("vster", 2) STORE("vster", 3)
    STORE("vstebrh", 0) STORE("vstebrh", 3) STORE("vstebrh", 7)
    STORE("vstebrf", 0) STORE("vstebrf", 1) STORE("vstebrf", 2) STORE("vstebrf", 3)
    STORE("vstebrg", 0) STORE("vstebrg", 1)
  }
  /* As GCC uses them: a reversal of an operand in storage becomes one of these loads
     or stores (of a register it would be a VPERM). */
  for (int round = 0; round < 4; ++round) {
    const uint8_t *p = buf + 16 * round + round;
    PUT("revb_w", vec_revb(vec_xl(0, (const unsigned int *)p)));
    PUT("revb_g", vec_revb(vec_xl(0, (const unsigned long long *)p)));
    PUT("reve_d", vec_reve(vec_xl(0, (const unsigned long long *)p)));
    PUT("reve_h", vec_reve(vec_xl(0, (const unsigned short *)p)));
    vec_xst(vec_reve(vec_xl(0, (const unsigned short *)(p + 40))), 0, (unsigned short *)(buf + 7000));
    PUT("xst_reve", vec_xl(0, buf + 7000));
    vec_xst(vec_revb(vec_xl(0, (const unsigned int *)(p + 80))), 0, (unsigned int *)(buf + 7001));
    PUT("xst_revb", vec_xl(0, buf + 7001));
  }
  return 0;
}
