/* QHMS: mimalloc-bench's mstress (bench/mstress/mstress.c), ported to a TPF thread
   process on the ECB heap: an allocator stress test written by others, against which
   the heap variants (heap/guest) are checked (issue 16).

   Its design, kept: THREADS threads, thread t making 80 * N * (t % 8 + 1) allocations
   of 1..128 words (1% of them 100 times larger), freeing two thirds of them at random
   as it goes, keeping a retained set of larger objects to the end, and swapping a
   quarter of its live objects with a shared array of 1,000 slots by an atomic
   exchange, so that objects are freed by threads other than the one that allocated
   them (on other I-streams). Every word of an object holds (items - i) ^ cookie and is
   checked before the object is freed.
   Changed for the ECB heap and this test: the retained objects are ten times smaller
   (10 * (1..128) words, not 10 * (1..1280): mstress sizes them for a desktop, the ECB
   heap's 31-bit area is megabytes); the growth of a thread's pointer array is 1,000
   slots, not 100,000 (so realloc moves it often, and what it holds is checked when
   used); a check that fails is counted and logged (the first few), not an abort; the
   random generator's seed takes the message's SEED too. Message text "THREADS N SEED";
   logs each thread's counts and returns 0 if every check held.

   The original's notice (MIT license):

   Copyright (c) 2018,2019 Microsoft Research, Daan Leijen
   This is free software; you can redistribute it and/or modify it under the
   terms of the MIT license.

   Permission is hereby granted, free of charge, to any person obtaining a copy of this
   software and associated documentation files (the "Software"), to deal in the Software
   without restriction, including without limitation the rights to use, copy, modify,
   merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
   permit persons to whom the Software is furnished to do so, subject to the following
   conditions: The above copyright notice and this permission notice shall be included
   in all copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS
   IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
   THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
   CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE,
   ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
   THE SOFTWARE. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tpf.h>

tpf_program QHMS;

#define TRANSFERS 1000
#define MAX_ITEM 128                       /* words */
#define RETAINED_STEPS MAX_ITEM            /* a retained object is 10 * (1..this) words; mstress: 1280 */
#define DATA_GROWTH 1000                   /* slots; mstress: 100000 */
#define MAX_WORDS (100 * 10 * RETAINED_STEPS) /* the largest object: a huge retained one */
#define LOGGED_BAD 4

static const uintptr_t cookie = 0xbf58476d1ce4e5b9UL;

struct shared {
  void *volatile *transfer; /* TRANSFERS slots, swapped by the threads */
  unsigned long seed;
};

struct worker {
  struct shared *shared;
  long tid, n;
  long allocs, frees, swaps, bad; /* what it did, and the checks that failed */
};

/* splitmix64's finalizer, as mstress picks. */
static uintptr_t pick(uintptr_t *r) {
  uintptr_t x = *r;
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9UL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebUL;
  x ^= x >> 31;
  *r = x;
  return x;
}

static int chance(int percent, uintptr_t *r) { return (int)(pick(r) % 100) <= percent; }

static void *alloc_items(struct worker *w, size_t items, uintptr_t *r) {
  if (chance(1, r)) items *= 100; /* 1% huge */
  if (items == 40) items++;       /* mstress: a size its pthreads use */
  uintptr_t *p = malloc(items * sizeof *p);
  for (uintptr_t i = 0; i < items; i++) p[i] = (items - i) ^ cookie;
  ++w->allocs;
  return p;
}

static void bad_word(struct worker *w, const void *p, uintptr_t i, uintptr_t got) {
  if (w->bad++ < LOGGED_BAD)
    tpf_log("QHMS thread %ld: object %p word %lu is %016lx, not what was written", w->tid, p, (unsigned long)i,
            (unsigned long)got);
}

/* Checks every word of the object, then frees it (NULL: nothing). */
static void free_items(struct worker *w, void *p) {
  if (!p) return;
  const uintptr_t *q = p;
  const uintptr_t items = q[0] ^ cookie;
  if (items == 0 || items > MAX_WORDS) {
    bad_word(w, p, 0, q[0]); /* its length is gone: the rest cannot be checked, nor freed safely */
    return;
  }
  for (uintptr_t i = 1; i < items; i++)
    if ((q[i] ^ cookie) != items - i) bad_word(w, p, i, q[i]);
  free(p);
  ++w->frees;
}

static void *stress(void *arg) {
  struct worker *w = arg;
  uintptr_t r = (uintptr_t)(w->tid ^ 42) ^ w->shared->seed * 0x9E3779B97F4A7C15UL;
  size_t allocs = 80 * (size_t)w->n * (size_t)(w->tid % 8 + 1); /* some threads do more */
  size_t retain = allocs / 2;
  void **data = NULL;
  size_t data_size = 0, data_top = 0;
  void **retained = malloc(retain * sizeof *retained);
  size_t retain_top = 0;
  while (allocs > 0 || retain > 0) {
    if (retain == 0 || (chance(50, &r) && allocs > 0)) {
      allocs--;
      if (data_top >= data_size) {
        data_size += DATA_GROWTH;
        data = realloc(data, data_size * sizeof *data);
      }
      data[data_top++] = alloc_items(w, (pick(&r) % MAX_ITEM) + 1, &r);
    } else {
      retained[retain_top++] = alloc_items(w, 10 * ((pick(&r) % RETAINED_STEPS) + 1), &r);
      retain--;
    }
    if (chance(66, &r) && data_top > 0) {
      const size_t idx = pick(&r) % data_top;
      free_items(w, data[idx]);
      data[idx] = NULL;
    }
    if (chance(25, &r) && data_top > 0) {
      const size_t idx = pick(&r) % data_top;
      void *volatile *slot = &w->shared->transfer[pick(&r) % TRANSFERS];
      data[idx] = __atomic_exchange_n(slot, data[idx], __ATOMIC_ACQ_REL);
      ++w->swaps;
    }
  }
  for (size_t i = 0; i < retain_top; i++) free_items(w, retained[i]);
  for (size_t i = 0; i < data_top; i++) free_items(w, data[i]);
  free(retained);
  free(data);
  tpf_log("QHMS thread %ld on I-stream %ld: %ld allocations, %ld frees, %ld swaps, %ld bad", w->tid,
          tpf_ecb_info(TPF_INFO_ISTREAM), w->allocs, w->frees, w->swaps, w->bad);
  return 0;
}

int QHMS(void *msg, long len) {
  char text[64] = {0};
  memcpy(text, msg, len < 63 ? (size_t)len : 63);
  char *at = text;
  long threads = strtol(at, &at, 10), n = strtol(at, &at, 10);
  struct shared shared = {.seed = strtoul(at, &at, 10)};
  if (threads < 1 || threads > 32) threads = 4;
  if (n < 1) n = 1;
  shared.transfer = calloc(TRANSFERS, sizeof *shared.transfer);
  struct worker *ws = calloc((size_t)threads, sizeof *ws);
  pthread_t tid[32];
  for (long k = 0; k < threads; ++k) {
    ws[k].shared = &shared, ws[k].tid = k, ws[k].n = n;
    if (pthread_create(&tid[k], 0, stress, &ws[k]) != 0) return 2;
  }
  struct worker total = {0};
  for (long k = 0; k < threads; ++k) {
    pthread_join(tid[k], 0);
    total.allocs += ws[k].allocs, total.frees += ws[k].frees, total.swaps += ws[k].swaps, total.bad += ws[k].bad;
  }
  total.tid = -1; /* the objects left in the transfer slots: freed (and checked) by this ECB */
  for (int i = 0; i < TRANSFERS; i++) free_items(&total, (void *)shared.transfer[i]);
  free((void *)shared.transfer);
  free(ws);
  tpf_log("QHMS: %ld threads, %ld allocations, %ld frees, %ld swaps, %ld bad", threads, total.allocs, total.frees,
          total.swaps, total.bad);
  return total.bad != 0 || total.frees != total.allocs;
}
