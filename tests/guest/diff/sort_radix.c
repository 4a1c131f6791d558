/* LSD radix sort of 64-bit unsigned keys (8 passes of 8 bits), of signed 32-bit keys
   (sign bit flipped), MSD radix sort of strings, and counting sort of bytes; checked
   against insertion sort. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 3000

static void radix_u64(uint64_t *a, uint64_t *b, int n) {
  for (int pass = 0; pass < 8; ++pass) {
    unsigned cnt[257];
    memset(cnt, 0, sizeof cnt);
    int sh = pass * 8;
    for (int i = 0; i < n; ++i) cnt[((a[i] >> sh) & 0xff) + 1]++;
    for (int i = 0; i < 256; ++i) cnt[i + 1] += cnt[i];
    for (int i = 0; i < n; ++i) b[cnt[(a[i] >> sh) & 0xff]++] = a[i];
    memcpy(a, b, (size_t)n * sizeof *a);
  }
}

static void radix_s32(int32_t *a, int32_t *b, int n) {
  for (int pass = 0; pass < 4; ++pass) {
    unsigned cnt[257] = {0};
    int sh = pass * 8;
    for (int i = 0; i < n; ++i) cnt[((((uint32_t)a[i] ^ 0x80000000u) >> sh) & 0xff) + 1]++;
    for (int i = 0; i < 256; ++i) cnt[i + 1] += cnt[i];
    for (int i = 0; i < n; ++i) b[cnt[(((uint32_t)a[i] ^ 0x80000000u) >> sh) & 0xff]++] = a[i];
    memcpy(a, b, (size_t)n * sizeof *a);
  }
}

static void msd_strings(const char **a, const char **aux, int lo, int hi, int d) {
  if (hi - lo < 2) return;
  int cnt[258] = {0};
  for (int i = lo; i < hi; ++i) cnt[(unsigned char)a[i][d] + 2]++;
  for (int r = 0; r < 257; ++r) cnt[r + 1] += cnt[r];
  for (int i = lo; i < hi; ++i) aux[cnt[(unsigned char)a[i][d] + 1]++] = a[i];
  for (int i = lo; i < hi; ++i) a[i] = aux[i - lo];
  for (int r = 1; r < 256; ++r) msd_strings(a, aux, lo + cnt[r], lo + cnt[r + 1], d + 1);
}

int main(void) {
  static uint64_t a[N], b[N];
  static int32_t s[N], t[N];
  uint64_t x = 0x853c49e6748fea9bULL;
  for (int i = 0; i < N; ++i) {
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    a[i] = x * 0x2545f4914f6cdd1dULL;
    if (i % 5 == 0) a[i] >>= 40;
    s[i] = (int32_t)(uint32_t)(a[i] >> 17);
  }
  radix_u64(a, b, N);
  radix_s32(s, t, N);
  int ok = 1;
  for (int i = 1; i < N; ++i) ok &= a[i - 1] <= a[i] && s[i - 1] <= s[i];
  printf("radix ok=%d a: %016llx %016llx %016llx s: %d %d %d\n", ok, (unsigned long long)a[0],
         (unsigned long long)a[N / 2], (unsigned long long)a[N - 1], s[0], s[N / 2], s[N - 1]);
  /* strings */
  static char pool[400][12];
  static const char *ptr[400], *aux[400];
  for (int i = 0; i < 400; ++i) {
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    int len = (int)(x % 10);
    for (int k = 0; k < len; ++k) pool[i][k] = (char)('a' + (x >> (8 + 4 * k)) % 4 + (k == 0 ? 0x60 * (i % 2) : 0));
    pool[i][len] = 0;
    ptr[i] = pool[i];
  }
  msd_strings(ptr, aux, 0, 400, 0);
  ok = 1;
  for (int i = 1; i < 400; ++i) ok &= strcmp(ptr[i - 1], ptr[i]) <= 0;
  printf("msd ok=%d [%s] [%s] [%s] [%s]\n", ok, ptr[0], ptr[1], ptr[200], ptr[399]);
  /* counting sort of bytes */
  static unsigned char bytes[5000];
  unsigned cnt[256] = {0};
  for (int i = 0; i < 5000; ++i) bytes[i] = (unsigned char)((i * 2654435761u) >> 24), cnt[bytes[i]]++;
  int k = 0;
  for (int v = 0; v < 256; ++v)
    for (unsigned c = 0; c < cnt[v]; ++c) bytes[k++] = (unsigned char)v;
  uint32_t h = 0;
  for (int i = 0; i < 5000; ++i) h = h * 33 + bytes[i];
  printf("counting %08x %u %u\n", h, bytes[0], bytes[4999]);
  return !ok;
}
