/* Benchmark: an allocator-style workload. A segregated-fit heap with size classes
   (like an ECB heap's available lists), splitting of fresh storage, per-class free
   lists with headers and trailers checked on free, and a mix of short- and
   long-lived buffers that are written and read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASSES 12 /* 16 .. 32K */
#define ARENA (8u << 20)
#define TRAILER 0x5AA5C33CD00DF00Dull

struct hdr {
  uint32_t cls, magic;
  struct hdr *next;
};

static char *arena, *top, *limit;
static struct hdr *avail[CLASSES];
static uint64_t dispensed[CLASSES], reused[CLASSES];

static unsigned class_of(size_t n) {
  unsigned c = 0;
  size_t s = 16;
  while (s < n) s <<= 1, ++c;
  return c;
}

static void *heap_get(size_t n) {
  unsigned c = class_of(n + 8);
  size_t size = (size_t)16 << c;
  struct hdr *h = avail[c];
  if (h) {
    avail[c] = h->next;
    reused[c]++;
  } else {
    if (top + sizeof *h + size > limit) return 0;
    h = (struct hdr *)top;
    top += sizeof *h + size;
    h->cls = c;
  }
  h->magic = 0xC0FFEE;
  dispensed[c]++;
  char *p = (char *)(h + 1);
  memcpy(p + size - 8, &(uint64_t){TRAILER}, 8);
  return p;
}

static int heap_free(void *p) {
  struct hdr *h = (struct hdr *)p - 1;
  size_t size = (size_t)16 << h->cls;
  uint64_t t;
  memcpy(&t, (char *)p + size - 8, 8);
  if (h->magic != 0xC0FFEE || t != TRAILER) return -1;
  h->magic = 0;
  h->next = avail[h->cls];
  avail[h->cls] = h;
  return 0;
}

static uint32_t rng = 12345;
static uint32_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return rng;
}

int main(void) {
  arena = malloc(ARENA);
  top = arena, limit = arena + ARENA;
  enum { LIVE = 1024 };
  static char *live[LIVE];
  static uint32_t sizes[LIVE];
  uint64_t sum = 0, errors = 0;
  for (long i = 0; i < 600000; ++i) {
    unsigned slot = next() % LIVE;
    if (live[slot]) {
      sum += (unsigned char)live[slot][0] + (unsigned char)live[slot][sizes[slot] - 1];
      if (heap_free(live[slot])) ++errors;
    }
    uint32_t r = next();
    uint32_t n = (r & 7) < 6 ? 8 + (r >> 8) % 120 : 128 + (r >> 8) % 4000; /* mostly small */
    char *p = heap_get(n);
    if (!p) {
      ++errors;
      live[slot] = 0;
      continue;
    }
    p[0] = (char)i, p[n - 1] = (char)(i >> 3);
    if (n >= 64) memset(p + 1, 0x40, 32);
    live[slot] = p, sizes[slot] = n;
  }
  printf("alloc: sum=%llu errors=%llu arena_used=%lu\n", (unsigned long long)sum,
         (unsigned long long)errors, (unsigned long)(top - arena));
  for (int c = 0; c < CLASSES; ++c)
    if (dispensed[c]) printf("  class %5d: dispensed %7llu reused %7llu\n", 16 << c,
                             (unsigned long long)dispensed[c], (unsigned long long)reused[c]);
  return errors != 0;
}
