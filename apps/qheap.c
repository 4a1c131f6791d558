/* Programs that exercise the ECB heap (heap/guest) for its tests and experiments.

   QHTT  torture: "THREADS OPS SEED" -- a thread process whose threads (on any
         I-stream) each make OPS random operations (malloc, calloc, realloc, free,
         malloc64, realloc64) on 48 slots of their own, sizes mostly small, some up to
         4 KB, a few up to 64 KB; every buffer is filled with a pattern of its slot and
         generation and checked before it is resized or freed, and at the end. Returns
         0 if every check held (each thread logs its counts), 1 if not.
   QHTG  tags: "TAGS LOCATES" -- tags TAGS buffers T0000000, T0000001, ..., then
         locates LOCATES of them (spread over all) and logs the simulated cycles a
         locate took on average. Returns 0 if every locate found its buffer.
   QHE1..QHE4  one heap error each (free of a pointer the heap did not give, double
         free, a write past the end, heap exhausted): the ECB must end with a dump.
         Each returns 0 if the heap let it through (a test failure). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

void *malloc64(size_t n);
void *realloc64(void *p, size_t n);
int tpf_eheap_tag(void *buffer, const char *name);
void *tpf_eheap_locate(const char *name);

#define SLOTS 48

struct torture {
  long ops;
  unsigned long seed;
  long bad;  /* checks that failed */
  long done; /* operations made */
};

static unsigned long next_rand(unsigned long *s) {
  *s = *s * 6364136223846793005UL + 1442695040888963407UL;
  return *s >> 33;
}

static size_t pick_size(unsigned long *s) {
  unsigned long r = next_rand(s) % 100;
  if (r < 80) return 1 + next_rand(s) % 256;   /* the small buffers heaps live on */
  if (r < 98) return 1 + next_rand(s) % 4096;
  return 1 + next_rand(s) % 65536;
}

/* The pattern of a buffer: the doubleword at offset k is key ^ k (big-endian, so
   byte j is byte j % 8 of key ^ (j - j % 8): any prefix checks the same way). */
static unsigned char pattern_byte(unsigned long key, size_t j) {
  return (unsigned char)((key ^ (j & ~(size_t)7)) >> (56 - 8 * (j % 8)));
}

static void fill(unsigned char *p, size_t n, unsigned long key) {
  size_t k = 0;
  for (; k + 8 <= n; k += 8) *(unsigned long *)(p + k) = key ^ k;
  for (; k < n; ++k) p[k] = pattern_byte(key, k);
}

static int intact(const unsigned char *p, size_t n, unsigned long key) {
  size_t k = 0;
  for (; k + 8 <= n; k += 8)
    if (*(const unsigned long *)(p + k) != (key ^ k)) return 0;
  for (; k < n; ++k)
    if (p[k] != pattern_byte(key, k)) return 0;
  return 1;
}

static void *torture_thread(void *arg) {
  struct torture *t = arg;
  unsigned char *buf[SLOTS] = {0};
  size_t size[SLOTS] = {0};
  unsigned long key[SLOTS] = {0};
  char area64[SLOTS] = {0};
  unsigned long s = t->seed;
  for (long op = 0; op < t->ops; ++op) {
    const unsigned slot = (unsigned)(next_rand(&s) % SLOTS);
    const unsigned long k = t->seed * 1000003UL + (unsigned long)op;
    if (!buf[slot]) {
      const size_t n = pick_size(&s);
      const unsigned how = (unsigned)(next_rand(&s) % 8);
      unsigned char *p = how == 0 ? calloc(1, n) : how == 1 ? malloc64(n) : malloc(n);
      if (how == 0)
        for (size_t j = 0; j < n; ++j)
          if (p[j]) {
            ++t->bad;
            break;
          }
      buf[slot] = p, size[slot] = n, key[slot] = k, area64[slot] = how == 1;
      fill(p, n, k);
      continue;
    }
    if (!intact(buf[slot], size[slot], key[slot])) ++t->bad;
    if (next_rand(&s) % 3 == 0) { /* resize: the common prefix must survive */
      const size_t n = pick_size(&s);
      unsigned char *q = area64[slot] ? realloc64(buf[slot], n) : realloc(buf[slot], n);
      const size_t keep = n < size[slot] ? n : size[slot];
      if (!intact(q, keep, key[slot])) ++t->bad;
      buf[slot] = q, size[slot] = n, key[slot] = k;
      fill(q, n, k);
    } else {
      free(buf[slot]);
      buf[slot] = 0;
    }
  }
  for (unsigned slot = 0; slot < SLOTS; ++slot)
    if (buf[slot]) {
      if (!intact(buf[slot], size[slot], key[slot])) ++t->bad;
      free(buf[slot]);
    }
  t->done = t->ops;
  tpf_log("QHTT thread on I-stream %ld: %ld operations, %ld bad", tpf_ecb_info(TPF_INFO_ISTREAM), t->done, t->bad);
  return 0;
}

int QHTT(void *msg, long len) {
  char text[64] = {0};
  memcpy(text, msg, len < 63 ? (size_t)len : 63);
  char *at = text;
  long threads = strtol(at, &at, 10), ops = strtol(at, &at, 10);
  unsigned long seed = strtoul(at, &at, 10);
  if (ops < 1) ops = 1000;
  if (threads < 1 || threads > 32) threads = 4;
  struct torture *ts = calloc((size_t)threads, sizeof *ts);
  pthread_t tid[32];
  for (long k = 0; k < threads; ++k) {
    ts[k].ops = ops, ts[k].seed = seed * 7919UL + (unsigned long)k;
    if (pthread_create(&tid[k], 0, torture_thread, &ts[k]) != 0) return 2;
  }
  long bad = 0, done = 0;
  for (long k = 0; k < threads; ++k) {
    pthread_join(tid[k], 0);
    bad += ts[k].bad, done += ts[k].done;
  }
  tpf_log("QHTT: %ld threads, %ld operations, %ld bad", threads, done, bad);
  free(ts);
  return bad != 0 || done != threads * ops;
}

static unsigned long long tod(void) {
  unsigned long long t;
  __asm__ volatile("stckf %0" : "=Q"(t) : : "cc");
  return t;
}

int QHTG(void *msg, long len) {
  char text[64] = {0};
  memcpy(text, msg, len < 63 ? (size_t)len : 63);
  char *at = text;
  long tags = strtol(at, &at, 10), locates = strtol(at, &at, 10);
  if (tags < 1) tags = 10;
  if (locates < 1) locates = 100;
  char name[16];
  for (long k = 0; k < tags; ++k) {
    void *p = malloc(48);
    snprintf(name, sizeof name, "T%07ld", k);
    if (tpf_eheap_tag(p, name) != 0) return 2;
  }
  long found = 0;
  const unsigned long long t0 = tod();
  for (long k = 0; k < locates; ++k) {
    snprintf(name, sizeof name, "T%07ld", (k * 7919) % tags);
    found += tpf_eheap_locate(name) != 0;
  }
  const unsigned long long t1 = tod();
  /* TOD: 4096 units a microsecond; the log gives nanoseconds a locate (with its name). */
  tpf_log("QHTG: %ld tags, %ld locates, %ld found, %llu ns per locate", tags, locates, found,
          (t1 - t0) * 1000 / 4096 / (unsigned long long)(locates ? locates : 1));
  return found != locates;
}

int QHE1(void *msg, long len) {
  (void)msg, (void)len;
  char *p = malloc(40);
  free(p + 16); /* inside a buffer: not one the heap gave */
  return 0;
}

int QHE2(void *msg, long len) {
  (void)msg, (void)len;
  void *p = malloc(40);
  free(p);
  free(p);
  return 0;
}

int QHE3(void *msg, long len) {
  (void)msg, (void)len;
  char *p = malloc(40);
  memset(p, 'x', 41); /* one byte past the end */
  free(p);
  return 0;
}

int QHE4(void *msg, long len) {
  (void)msg, (void)len;
  for (int k = 0; k < 1 << 20; ++k)
    if (!malloc64(1 << 20)) return 0; /* a heap that ends the ECB never returns NULL here */
  return 0;
}
