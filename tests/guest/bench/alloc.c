/* Benchmark: an allocator-style workload. A segregated-fit heap with size classes
   (like an ECB heap's available lists), splitting of fresh storage, per-class free
   lists with headers and trailers checked on free, and a mix of short- and
   long-lived buffers that are written and read. On several I-streams (tpfemu exec
   --istreams N) each runs its own heap on its own data; I-stream 0 reports. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tpfemu.h>

#define CLASSES 12 /* 16 .. 32K */
#define ARENA (2u << 20)
#define MAX_ISTREAMS 64
#define TRAILER 0x5AA5C33CD00DF00Dull

struct hdr {
  uint32_t cls, magic;
  struct hdr *next;
};

struct heap {
  char *top, *limit;
  struct hdr *avail[CLASSES];
  uint64_t dispensed[CLASSES], reused[CLASSES];
  uint32_t rng;
} __attribute__((aligned(256)));
static struct heap heaps[MAX_ISTREAMS];
static char arenas[MAX_ISTREAMS][ARENA] __attribute__((aligned(4096)));

static unsigned class_of(size_t n) {
  unsigned c = 0;
  size_t s = 16;
  while (s < n) s <<= 1, ++c;
  return c;
}

static void *heap_get(struct heap *h_, size_t n) {
  unsigned c = class_of(n + 8);
  size_t size = (size_t)16 << c;
  struct hdr *h = h_->avail[c];
  if (h) {
    h_->avail[c] = h->next;
    h_->reused[c]++;
  } else {
    if (h_->top + sizeof *h + size > h_->limit) return 0;
    h = (struct hdr *)h_->top;
    h_->top += sizeof *h + size;
    h->cls = c;
  }
  h->magic = 0xC0FFEE;
  h_->dispensed[c]++;
  char *p = (char *)(h + 1);
  memcpy(p + size - 8, &(uint64_t){TRAILER}, 8);
  return p;
}

static int heap_free(struct heap *h_, void *p) {
  struct hdr *h = (struct hdr *)p - 1;
  size_t size = (size_t)16 << h->cls;
  uint64_t t;
  memcpy(&t, (char *)p + size - 8, 8);
  if (h->magic != 0xC0FFEE || t != TRAILER) return -1;
  h->magic = 0;
  h->next = h_->avail[h->cls];
  h_->avail[h->cls] = h;
  return 0;
}

static uint32_t next(struct heap *h_) {
  uint32_t r = h_->rng;
  r ^= r << 13, r ^= r >> 17, r ^= r << 5;
  return h_->rng = r;
}

int main(void) {
  int id = tpf_istream();
  if (id >= MAX_ISTREAMS) return 0;
  struct heap *h_ = &heaps[id];
  h_->top = arenas[id], h_->limit = arenas[id] + ARENA;
  h_->rng = 12345 + 7919u * (uint32_t)id;
  enum { LIVE = 1024 };
  static char *lives[MAX_ISTREAMS][LIVE];
  static uint32_t all_sizes[MAX_ISTREAMS][LIVE];
  char **live = lives[id];
  uint32_t *sizes = all_sizes[id];
  uint64_t sum = 0, errors = 0;
  for (long i = 0; i < 600000; ++i) {
    unsigned slot = next(h_) % LIVE;
    if (live[slot]) {
      sum += (unsigned char)live[slot][0] + (unsigned char)live[slot][sizes[slot] - 1];
      if (heap_free(h_, live[slot])) ++errors;
    }
    uint32_t r = next(h_);
    uint32_t n = (r & 7) < 6 ? 8 + (r >> 8) % 120 : 128 + (r >> 8) % 4000; /* mostly small */
    char *p = heap_get(h_, n);
    if (!p) {
      ++errors;
      live[slot] = 0;
      continue;
    }
    p[0] = (char)i, p[n - 1] = (char)(i >> 3);
    if (n >= 64) memset(p + 1, 0x40, 32);
    live[slot] = p, sizes[slot] = n;
  }
  if (id != 0) return errors != 0;
  printf("alloc: sum=%llu errors=%llu arena_used=%lu\n", (unsigned long long)sum,
         (unsigned long long)errors, (unsigned long)(h_->top - arenas[id]));
  for (int c = 0; c < CLASSES; ++c)
    if (h_->dispensed[c]) printf("  class %5d: dispensed %7llu reused %7llu\n", 16 << c,
                                 (unsigned long long)h_->dispensed[c], (unsigned long long)h_->reused[c]);
  return errors != 0;
}
