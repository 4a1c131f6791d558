/* Benchmark: string and memory work: copies, fills, compares, searches and
   formatting over buffers of mixed sizes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static char a[65536], b[65536];

int main(void) {
  uint64_t acc = 0;
  for (int k = 0; k < (int)sizeof a; ++k) a[k] = (char)('a' + k % 26);
  a[sizeof a - 1] = 0;
  for (int round = 0; round < 400; ++round) {
    size_t n = 256 + (size_t)(round * 977) % 60000;
    memcpy(b, a + (round & 63), n);
    b[n] = 0;
    acc += strlen(b);
    acc += (uint64_t)(memcmp(a, b, 64) + 2);
    memset(b + 100, round & 0xFF, n / 2);
    acc += (unsigned char)b[n / 3];
    char *hit = strchr(b + 1, 'z');
    acc += hit ? (uint64_t)(hit - b) : 0;
    char line[96];
    for (int j = 0; j < 20; ++j) acc += (uint64_t)snprintf(line, sizeof line, "round %d item %d %08x", round, j, (unsigned)acc);
    acc += (uint64_t)strcmp(line, "round");
  }
  printf("memstr: acc=%llu\n", (unsigned long long)acc);
  return 0;
}
