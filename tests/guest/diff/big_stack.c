/* Large local arrays on the stack: a 48 KB frame filled and summed, recursion where
   every level has a 4 KB frame (about 100 KB deep), a variable-length array, and a
   frame larger than the 4 KB displacement range so GCC must compute addresses
   with long displacements or explicit adds. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t __attribute__((noinline)) big_frame(unsigned seed) {
  uint32_t a[12288]; /* 48 KB */
  for (unsigned i = 0; i < 12288; ++i) a[i] = seed * 2654435761u + i * 40503u;
  uint64_t s = 0;
  for (unsigned i = 0; i < 12288; i += 3) s += a[i] ^ a[12287 - i];
  a[0] = (uint32_t)s;
  a[12287] = a[0] + 1; /* touch both ends */
  return s + a[12287];
}

static uint32_t __attribute__((noinline)) deep(int level, uint32_t carry) {
  unsigned char frame[4000];
  memset(frame, (unsigned char)level, sizeof frame);
  frame[level * 37 % 4000] = (unsigned char)carry;
  uint32_t h = carry;
  for (int i = 0; i < 4000; i += 97) h = h * 31 + frame[i];
  if (level == 0) return h;
  uint32_t below = deep(level - 1, h);
  return below ^ frame[3999] ^ (uint32_t)frame[0] << 8; /* frame still intact after the call */
}

static uint64_t __attribute__((noinline)) vla(int n) {
  uint64_t v[n];
  for (int i = 0; i < n; ++i) v[i] = (uint64_t)i * i;
  uint64_t s = 0;
  for (int i = n - 1; i >= 0; i -= 2) s += v[i];
  return s;
}

struct wide_frame {
  char pad[5000];
  int64_t far[16];
};
static int64_t __attribute__((noinline)) long_disp(int k) {
  struct wide_frame w;
  memset(w.pad, 0, sizeof w.pad);
  for (int i = 0; i < 16; ++i) w.far[i] = (int64_t)k * i - 7;
  w.pad[4999] = 3;
  int64_t s = w.pad[4999];
  for (int i = 0; i < 16; ++i) s += w.far[i];
  return s;
}

int main(void) {
  printf("big_frame %llu %llu\n", (unsigned long long)big_frame(1), (unsigned long long)big_frame(77));
  printf("deep %08x\n", deep(25, 12345));
  printf("vla %llu %llu %llu\n", (unsigned long long)vla(1), (unsigned long long)vla(1000),
         (unsigned long long)vla(6000));
  printf("long_disp %lld %lld\n", (long long)long_disp(3), (long long)long_disp(-100));
  return 0;
}
