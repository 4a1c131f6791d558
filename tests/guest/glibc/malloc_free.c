/* malloc, calloc, realloc and free from small blocks (the heap, brk) to large ones
   (mmap, and mremap when realloc grows them); every byte is checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fill(unsigned char* p, size_t n, uint32_t seed) {
  uint32_t sum = 0;
  for (size_t k = 0; k < n; ++k) p[k] = (unsigned char)(seed + k * 7), sum += p[k];
  return sum;
}
static uint32_t sum(const unsigned char* p, size_t n) {
  uint32_t s = 0;
  for (size_t k = 0; k < n; ++k) s += p[k];
  return s;
}

int main(void) {
  enum { N = 200 };
  unsigned char* blocks[N];
  uint32_t sums[N];
  size_t sizes[N];
  for (int k = 0; k < N; ++k) {
    sizes[k] = (size_t)(k * 37 % 500) + 1;
    blocks[k] = malloc(sizes[k]);
    if (!blocks[k]) return 1;
    sums[k] = fill(blocks[k], sizes[k], (uint32_t)k);
  }
  for (int k = 0; k < N; k += 2) free(blocks[k]), blocks[k] = NULL;
  for (int k = 1; k < N; k += 2)
    if (sum(blocks[k], sizes[k]) != sums[k]) return printf("small block %d corrupted\n", k), 2;
  printf("small blocks ok\n");

  size_t big = 1 << 20;
  unsigned char* b = malloc(big);
  uint32_t bs = fill(b, big, 3);
  b = realloc(b, 4 * big);
  if (!b || sum(b, big) != bs) return printf("realloc lost data\n"), 3;
  memset(b + big, 0x5A, 3 * big);
  printf("large block ok: %u\n", (unsigned)(sum(b, 4 * big) & 0xFFFFFF));
  free(b);

  int* z = calloc(100000, sizeof *z);
  long zs = 0;
  for (int k = 0; k < 100000; ++k) zs += z[k];
  printf("calloc zeroed: %s\n", zs == 0 ? "yes" : "no");
  free(z);

  for (int round = 0; round < 50; ++round) {
    void* p = malloc((size_t)(round + 1) * 4096 * 8);
    memset(p, round, (size_t)(round + 1) * 4096 * 8);
    free(p);
  }
  for (int k = 1; k < N; k += 2) free(blocks[k]);
  printf("done\n");
  return 0;
}
