/* The E3 workload (seed 002's WAS/CICS/DB2 transactions and the night's batch work),
   in tpf_io.elf:

   QREG  the region: a thread process (a WAS servant region, in the seed's terms) with a
         large working set in its 64-bit ECB heap (its "Java heap": 1 MB frames, so
         pageable large pages, unless system.ecb_heap.large_frames is off). Message
         text "MB THREADS": it allocates MB megabytes in 64 KB objects, writes every
         page, posts QOLT_READY, and its THREADS threads serve transactions from a
         queue in the shared area.
   QOLT  a transaction (one per input message), text "PAGES WORK [TABLES]": reads
         TABLES random pages of the common tables (default 0), hands a request to the
         region and waits for the reply. A region thread serving it touches PAGES
         random pages of the working set (reads a word of each and writes it back,
         changed) and runs WORK iterations of a business loop.
   QNGT  the night (workload.prelude), text "REGION_MB THREADS NIGHT_MB NIGHT_MS GAP_MS
         [COMMON_MB]": first builds COMMON_MB megabytes of common tables in the shared
         area (TPF_SHARED_TABLES up: system storage every address space maps, z/OS's
         CSA; default 0), then starts the region, waits until its working set is in and GAP_MS milliseconds
         more (the day's work has stopped; the region idles), then GETSTORs NIGHT_MB
         megabytes above the bar (GETSTOR64), one at a time, writing each as it gets it, and writes them all
         again and again until NIGHT_MS milliseconds of simulated time have passed -- in real storage smaller than
         both, the region's pages go out to auxiliary storage -- and ends (its storage
         is freed). The transactions begin then: the morning transition.

   The region checks every word it reads (each holds its own address): the first that
   comes back wrong is logged ("came back wrong"). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <eheap.h>
#include <tpf.h>

#include <pthread.h>
#include <stdio.h>

tpf_program QREG, QOLT, QNGT;

#define OLTQ_SLOTS 512
#define OBJECT (64 * 1024)
#define REQUEST_EVENT 0x4F4C54L /* "OLT" */
#define READY_EVENT 0x4F4C5452L /* the region's working set is in */
#define REPLY_EVENT(ecb) (0x4F4C5400000000L | (ecb))

struct olt_request {
  uint64_t reply;
  uint32_t pages, work;
};

struct olt_queue {
  volatile uint64_t lock;
  uint64_t head, tail;
  uint64_t objects; /* the working set: objects of OBJECT bytes */
  uint64_t bad;     /* words that came back wrong */
  uint64_t served;
  struct olt_request slots[OLTQ_SLOTS];
  uint64_t tables; /* pages of the common tables (after the slots: their places as before) */
};
#define OLTQ ((struct olt_queue *)(TPF_EVM_SHARED + TPF_SHARED_APPS))
_Static_assert(TPF_SHARED_APPS + sizeof(struct olt_queue) <= TPF_SHARED_APPS_END, "the queue in its part");

static void lock(void) {
  while (!__sync_bool_compare_and_swap(&OLTQ->lock, 0, 1)) tpf_word_wait(&OLTQ->lock, 1);
}
static void unlock(void) {
  __sync_lock_release(&OLTQ->lock);
  tpf_word_wake(&OLTQ->lock, 1);
}

static long number(const char **s) {
  char *end;
  long v = strtol(*s, &end, 10);
  *s = end;
  return v;
}

static void text_of(char *out, long size, const void *msg, long len) {
  long k = len < size - 1 ? len : size - 1;
  memcpy(out, msg, (size_t)k);
  out[k] = 0;
}

static uint64_t **objects; /* the region's working set (the process's own static storage) */

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

static void *region_thread(void *arg) {
  uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)(uintptr_t)arg + 1;
  struct olt_queue *q = OLTQ;
  const uint64_t words_per_object = (OBJECT - 64) / 8;
  for (;;) {
    tpf_wait(REQUEST_EVENT);
    lock();
    const struct olt_request r = q->slots[q->head++ % OLTQ_SLOTS];
    unlock();
    uint64_t bad = 0;
    for (uint32_t k = 0; k < r.pages; ++k) {
      const uint64_t x = next_random(&seed);
      uint64_t *w = objects[x % q->objects] + (x >> 24) % words_per_object;
      bad += *w != (uint64_t)(uintptr_t)w;
      *w = (uint64_t)(uintptr_t)w;
    }
    unsigned long v = 17;
    for (uint32_t k = 0; k < r.work; ++k) v = v * 31 + k;
    __asm__ volatile("" : : "r"(v)); /* the loop's result is used */
    lock();
    const uint64_t before = q->bad;
    q->bad += bad, ++q->served;
    unlock();
    if (bad && !before) tpf_log("QREG: a word of the working set came back wrong (transaction %lu)", (unsigned long)q->served);
    tpf_post((long)r.reply);
  }
  return 0;
}

int QREG(void *msg, long len) {
  char text[32];
  text_of(text, sizeof text, msg, len);
  const char *at = text;
  const long mb = number(&at), threads = number(&at);
  if (mb < 1 || mb > 65536 || threads < 1 || threads > 64) {
    tpf_log("QREG: \"%s\": MB 1..65536, THREADS 1..64", text);
    return 1;
  }
  struct olt_queue *q = OLTQ;
  const uint64_t n = (uint64_t)mb * (1 << 20) / OBJECT;
  objects = malloc64(n * sizeof *objects);
  for (uint64_t k = 0; k < n; ++k) {
    objects[k] = malloc64(OBJECT - 64); /* with the heap's own words, 64 KB */
    if (!objects[k]) {
      tpf_log("QREG: the heap is full after %lu objects", (unsigned long)k);
      return 1;
    }
    for (uint64_t *w = objects[k]; w < objects[k] + (OBJECT - 64) / 8; ++w) *w = (uint64_t)(uintptr_t)w;
  }
  q->objects = n;
  pthread_t tid;
  for (long k = 0; k < threads; ++k) pthread_create(&tid, 0, region_thread, (void *)(uintptr_t)(k + 1));
  tpf_log("QREG: %lu objects of %d KB in the heap, %ld threads", (unsigned long)n, OBJECT / 1024, threads);
  tpf_post(READY_EVENT);
  for (;;) tpf_wait(0x4F4C5458L); /* the region stays; its threads serve */
  return 0;
}

int QOLT(void *msg, long len) {
  char text[32];
  text_of(text, sizeof text, msg, len);
  const char *at = text;
  const long pages = number(&at), work = number(&at), tables = number(&at);
  struct olt_queue *q = OLTQ;
  const long me = tpf_ecb_info(TPF_INFO_ECB);
  uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)me + 1;
  for (long k = 0; k < tables && q->tables; ++k) { /* the common tables: read, never changed */
    const uint64_t *w = (const uint64_t *)(TPF_EVM_SHARED + TPF_SHARED_TABLES + next_random(&seed) % q->tables * 4096);
    if (*w != (uint64_t)(uintptr_t)w) tpf_log("QOLT: a word of the common tables came back wrong");
  }
  lock();
  if (q->tail - q->head >= OLTQ_SLOTS) {
    unlock();
    return 2;
  }
  struct olt_request *r = &q->slots[q->tail++ % OLTQ_SLOTS];
  r->reply = (uint64_t)REPLY_EVENT(me), r->pages = (uint32_t)pages, r->work = (uint32_t)work;
  unlock();
  tpf_post(REQUEST_EVENT);
  tpf_wait(REPLY_EVENT(me));
  return 0;
}

int QNGT(void *msg, long len) {
  char text[48];
  text_of(text, sizeof text, msg, len);
  const char *at = text;
  const long region_mb = number(&at), threads = number(&at), night_mb = number(&at), night_us = number(&at) * 1000;
  const long gap_us = number(&at) * 1000, common_mb = number(&at);
  /* The common tables: every page's words hold their own addresses (the region checks
     what it reads). */
  const uint64_t room = (uint64_t)tpf_ecb_info(TPF_INFO_SHARED_SIZE);
  if (common_mb < 0 || TPF_SHARED_TABLES + (uint64_t)common_mb * (1 << 20) > room) {
    tpf_log("QNGT: COMMON_MB %ld: the shared area (system.shared_size, %lu bytes) holds the tables from offset %lu",
            common_mb, (unsigned long)room, (unsigned long)TPF_SHARED_TABLES);
    return 1;
  }
  for (uint64_t *w = (uint64_t *)(TPF_EVM_SHARED + TPF_SHARED_TABLES);
       w < (uint64_t *)(TPF_EVM_SHARED + TPF_SHARED_TABLES + (uint64_t)common_mb * (1 << 20)); w += 64)
    *w = (uint64_t)(uintptr_t)w;
  OLTQ->tables = (uint64_t)common_mb * (1 << 20) / 4096;
  char args[32];
  const int n = snprintf(args, sizeof args, "%ld %ld", region_mb, threads);
  tpf_create("QREG", args, n, TPF_CREATE_ANY);
  tpf_wait(READY_EVENT);
  if (gap_us > 0) tpf_delay_us((unsigned long)gap_us); /* the day's work has stopped; the region idles */
  const long t0 = tpf_ecb_info(TPF_INFO_TIME_US);
  /* The night's storage grows a megabyte at a time, each written as it is got (a batch
     job's working set grows as it runs), then is written again ROUNDS - 1 times. It is
     64-bit system storage (GETSTOR64, above the bar), so that the full-size night (12 GB,
     f = 1) fits: the 31-bit system region is 256 MB. */
  if (night_mb < 0 || night_mb > 65536) {
    tpf_log("QNGT: NIGHT_MB 0..65536");
    return 1;
  }
  /* Their addresses in a table of its own (no night, no table: E3d's runs have none). */
  uint64_t **chunks = night_mb ? tpf_getstor64((unsigned long)night_mb * sizeof *chunks) : 0;
  if (night_mb && !chunks) {
    tpf_log("QNGT: no storage for the night's table of %ld megabytes", night_mb);
    return 1;
  }
  long r = 0;
  do {
    for (long c = 0; c < night_mb; ++c) {
      if (r == 0 && !(chunks[c] = tpf_getstor64(1UL << 20))) {
        tpf_log("QNGT: no storage for the night's megabyte %ld", c);
        return 1;
      }
      for (uint64_t w = 0; w < (1 << 17); w += 512) chunks[c][w] = w ^ (uint64_t)r;
    }
    ++r;
  } while (tpf_ecb_info(TPF_INFO_TIME_US) - t0 < night_us);
  tpf_log("QNGT: night work of %ld MB, %ld rounds in %ld us", night_mb, r, tpf_ecb_info(TPF_INFO_TIME_US) - t0);
  return 0;
}
