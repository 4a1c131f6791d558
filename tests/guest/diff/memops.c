/* Memory operations: hand-written byte/word copy loops, overlapping memmove in both
   directions at many offsets (checked against a naive temp-buffer move), memcmp
   sign on bytes >= 0x80, memset at every alignment/length, and struct copies and
   compares that GCC turns into MVC/CLC/XC (small fixed sizes) or memcpy calls. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct rec {
  char name[13];
  uint16_t id;
  uint32_t flags;
  uint64_t val[3];
};

struct big {
  unsigned char bytes[300];
};

static void naive_move(unsigned char *base, int d, int s, int n) {
  unsigned char tmp[256];
  for (int i = 0; i < n; ++i) tmp[i] = base[s + i];
  for (int i = 0; i < n; ++i) base[d + i] = tmp[i];
}

static uint32_t sum_bytes(const unsigned char *p, int n) {
  uint32_t h = 0;
  for (int i = 0; i < n; ++i) h = h * 257 + p[i];
  return h;
}

static void __attribute__((noinline)) copy_rec(struct rec *d, const struct rec *s) { *d = *s; }
static int __attribute__((noinline)) same_rec(const struct rec *a, const struct rec *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

int main(void) {
  static unsigned char a[256], b[256];
  unsigned bad = 0;
  /* overlapping moves */
  for (int s = 0; s < 40; s += 3) {
    for (int d = 0; d < 40; d += 5) {
      for (int n = 0; n < 100; n += 13) {
        for (int i = 0; i < 256; ++i) a[i] = b[i] = (unsigned char)(i * 7 + 3);
        memmove(a + d, a + s, (size_t)n);
        naive_move(b, d, s, n);
        if (memcmp(a, b, 256) != 0) ++bad;
      }
    }
  }
  printf("memmove bad %u sum %08x\n", bad, sum_bytes(a, 256));
  /* memcmp signs */
  unsigned char x[8] = {1, 2, 3, 0x80, 5}, y[8] = {1, 2, 3, 0x7f, 5};
  printf("memcmp %d %d %d %d\n", memcmp(x, y, 5) > 0, memcmp(y, x, 5) < 0, memcmp(x, y, 3), memcmp(x, x, 8));
  /* memset at every alignment and length */
  uint32_t h = 0;
  for (int off = 0; off < 16; ++off) {
    for (int n = 0; n < 70; n += 3) {
      memset(a, 0xaa, 256);
      memset(a + off, off * 16 + 1, (size_t)n);
      h = h * 31 + sum_bytes(a, 100);
    }
  }
  printf("memset %08x\n", h);
  /* hand-written loops: byte, halfword, word, doubleword */
  for (int i = 0; i < 256; ++i) a[i] = (unsigned char)(255 - i);
  for (int i = 0; i < 256; ++i) b[i] = a[i];
  uint16_t hw[64];
  uint32_t wd[32];
  uint64_t dw[16];
  for (int i = 0; i < 64; ++i) hw[i] = (uint16_t)(a[2 * i] << 8 | a[2 * i + 1]);
  for (int i = 0; i < 32; ++i) wd[i] = (uint32_t)hw[2 * i] << 16 | hw[2 * i + 1];
  for (int i = 0; i < 16; ++i) dw[i] = (uint64_t)wd[2 * i] << 32 | wd[2 * i + 1];
  uint64_t t = 0;
  for (int i = 0; i < 16; ++i) t ^= dw[i] * (uint64_t)(i + 1);
  uint64_t viamem;
  memcpy(&viamem, a + 8, 8); /* big-endian load through memcpy */
  printf("loops %016llx %016llx %016llx\n", (unsigned long long)t, (unsigned long long)viamem,
         (unsigned long long)dw[1]);
  /* struct copy and compare */
  struct rec r1, r2;
  memset(&r1, 0, sizeof r1);
  memset(&r2, 0x55, sizeof r2); /* padding is compared by memcmp below */
  memcpy(r1.name, "hello, world", 13);
  r1.id = 0xbeef, r1.flags = 0x80000001u, r1.val[0] = 1, r1.val[1] = ~0ULL, r1.val[2] = 0x1234;
  copy_rec(&r2, &r1);
  printf("rec same=%d size=%u id=%x\n", same_rec(&r1, &r2), (unsigned)sizeof r1, r2.id);
  r2.val[2]++;
  printf("rec same after change=%d\n", same_rec(&r1, &r2));
  struct rec arr[5];
  for (int i = 0; i < 5; ++i) arr[i] = r1, arr[i].id = (uint16_t)i;
  struct rec tmp = arr[0];
  arr[0] = arr[4], arr[4] = tmp;
  printf("swapped ids %u %u %s\n", arr[0].id, arr[4].id, arr[2].name);
  /* a big struct copy (may become a loop of MVCs or a memcpy call) */
  struct big g1, g2;
  for (int i = 0; i < 300; ++i) g1.bytes[i] = (unsigned char)(i ^ 0x5a);
  g2 = g1;
  g2.bytes[299] ^= 1;
  printf("big %08x %08x %d\n", sum_bytes(g1.bytes, 300), sum_bytes(g2.bytes, 300),
         memcmp(&g1, &g2, sizeof g1) < 0);
  /* zeroing idioms (XC) */
  struct rec z;
  memcpy(&z, &r1, sizeof z);
  memset(&z, 0, sizeof z);
  printf("zeroed %08x\n", sum_bytes((unsigned char *)&z, sizeof z));
  return bad != 0;
}
