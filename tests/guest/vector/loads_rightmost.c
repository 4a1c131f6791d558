/* VECTOR LOAD/STORE RIGHTMOST WITH LENGTH (VLRL, VLRLR, VSTRL, VSTRLR: the
   vector-packed-decimal facility, z14) at every length, the register forms with lengths
   past 15, and the builtins vec_load_len_r / vec_store_len_r. Checked against
   loads_rightmost.expected: QEMU 7.2 does not have the vector-packed-decimal facility
   (it stops on VLRL with an illegal-instruction signal). */
#include "strtest.h"

static uint8_t buf[8192] __attribute__((aligned(4096)));

int main(void) {
  for (unsigned k = 0; k < sizeof buf; ++k) buf[k] = (uint8_t)(k * 37 + 11);
  const uint8_t *p = buf + 4096 - 5;  /* the operands cross a page boundary */
  vb r;
#define VLRL(i)                                                                         \
  __asm__ volatile(Z15("vlrl %0,0(%1)," #i) : "=v"(r) : "a"(p), "m"(*(const uint8_t(*)[16])p)); \
  PUT("vlrl " #i, r);
  VLRL(0) VLRL(1) VLRL(2) VLRL(3) VLRL(4) VLRL(5) VLRL(6) VLRL(7)
  VLRL(8) VLRL(9) VLRL(10) VLRL(11) VLRL(12) VLRL(13) VLRL(14) VLRL(15)
  static const uint64_t lengths[] = {0, 1, 7, 14, 15, 16, 255, 0x100000003ull, 0xffffffffull};
  for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
    __asm__ volatile(Z15("vlrlr %0,%2,0(%1)") : "=v"(r) : "a"(p), "d"(lengths[k]), "m"(*(const uint8_t(*)[16])p));
    printf("vlrlr %llx ", (unsigned long long)lengths[k]), PUT("", r);
  }
  vb v = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};
  uint8_t *q = buf + 4096 - 7;
#define VSTRL(i)                                                                        \
  __asm__ volatile(Z15("vstrl %1,0(%0)," #i) : : "a"(q), "v"(v) : "memory");           \
  PUT("vstrl " #i, vec_xl(0, q));                                                       \
  vec_xst(vec_splats((unsigned char)0x55), 0, q);
  vec_xst(vec_splats((unsigned char)0x55), 0, q);
  VSTRL(0) VSTRL(1) VSTRL(2) VSTRL(5) VSTRL(14) VSTRL(15)
  for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
    __asm__ volatile(Z15("vstrlr %1,%2,0(%0)") : : "a"(q), "v"(v), "d"(lengths[k]) : "memory");
    printf("vstrlr %llx ", (unsigned long long)lengths[k]), PUT("", vec_xl(0, q));
    vec_xst(vec_splats((unsigned char)0x55), 0, q);
  }
  for (unsigned n = 0; n < 18; n += 3) {
    PUT("load_len_r", vec_load_len_r(p, n));
    vec_store_len_r(v, q, n);
    PUT("store_len_r", vec_xl(0, q));
  }
  return 0;
}
