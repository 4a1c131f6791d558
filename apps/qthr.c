/* QTHR: a thread process. Four threads (pthread_create) share the ECB's address
   space and heap: each allocates and frees blocks with malloc/free and counts its
   rounds in one counter kept in the heap, under a spin lock in the heap too. The
   C runtime's malloc is not thread-safe, so the lock also covers malloc and free,
   and each thread keeps a few blocks alive at a time so that the free list mixes
   every thread's blocks: a block handed out twice shows up as a wrong fill byte.

   A start gate (tpf_wait/tpf_post on an event numbered after the ECB) holds the
   threads until all four exist, so they contend from the start. QTHR joins them,
   checks the counter and the rounds they report against the expected total, logs
   the result and returns 0 if right, 1 if wrong, 2 if it could not set up. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "apps.h"

#define THREADS 4
#define ROUNDS 100
#define KEEP 4          /* blocks each thread holds at once */
#define SPINS 1000      /* busy-waits on the lock before giving up control once */

struct shared {
  volatile int lock;
  long gate;            /* the start gate's event number */
  long counter;         /* rounds done by all threads (under the lock) */
};

struct worker {
  struct shared *sh;
  int index;
};

/* Test-and-test-and-set: spinning only reads the lock word, so the line stays
   shared in the waiters' caches until the holder's release. A waiter that has spun
   a while defers, so a holder time-sliced on the same I-stream can finish. */
static void spin_lock(volatile int *l) {
  unsigned spins = 0;
  while (__sync_lock_test_and_set(l, 1)) {
    while (*l)
      if (++spins % SPINS == 0) tpf_defrc();
  }
}

static void spin_unlock(volatile int *l) { __sync_lock_release(l); }

/* 1 if the block still holds only its owner's fill byte. */
static int intact(const unsigned char *p, size_t n, unsigned char fill) {
  for (size_t k = 0; k < n; ++k)
    if (p[k] != fill) return 0;
  return 1;
}

static void *work(void *arg) {
  struct worker *w = arg;
  struct shared *sh = w->sh;
  unsigned char fill = (unsigned char)('A' + w->index);
  unsigned char *held[KEEP] = {0};
  size_t size[KEEP] = {0};
  long good = 0;

  tpf_wait(sh->gate);
  for (int r = 0; r < ROUNDS; ++r) {
    int slot = r % KEEP;
    /* The block is this thread's until freed: check it outside the lock. */
    int ok = held[slot] ? intact(held[slot], size[slot], fill) : 1;
    spin_lock(&sh->lock);
    free(held[slot]);
    size[slot] = 16 + (size_t)((r * 37 + w->index * 11) % 64);
    held[slot] = malloc(size[slot]);
    sh->counter++;
    spin_unlock(&sh->lock);
    if (held[slot]) memset(held[slot], fill, size[slot]);
    else ok = 0;
    good += ok;
    if (r % 32 == 31) tpf_defrc(); /* let threads sharing this I-stream interleave */
  }
  for (int s = 0; s < KEEP; ++s)
    if (held[s] && !intact(held[s], size[s], fill)) --good; /* its round counted it good */
  spin_lock(&sh->lock);
  for (int s = 0; s < KEEP; ++s) free(held[s]);
  spin_unlock(&sh->lock);
  tpf_log("QTHR thread %lu on I-stream %ld: %ld of %d rounds good", (unsigned long)pthread_self(),
          tpf_ecb_info(TPF_INFO_ISTREAM), good, ROUNDS);
  return (void *)good;
}

int QTHR(void *msg, long len) {
  (void)msg, (void)len;
  struct shared *sh = malloc(sizeof *sh);
  struct worker *ws = malloc(THREADS * sizeof *ws);
  if (!sh || !ws) {
    tpf_log("QTHR: no heap for the shared block");
    return 2;
  }
  memset(sh, 0, sizeof *sh);
  sh->gate = 0x51544852L << 24 | tpf_ecb_info(TPF_INFO_ECB); /* "QTHR", then the ECB: unique per ECB */

  pthread_t tid[THREADS];
  int started = 0;
  for (; started < THREADS; ++started) {
    ws[started].sh = sh, ws[started].index = started;
    if (pthread_create(&tid[started], 0, work, &ws[started]) != 0) break;
  }
  for (int k = 0; k < started; ++k) tpf_post(sh->gate);

  long good = 0;
  for (int k = 0; k < started; ++k) {
    void *v = 0;
    pthread_join(tid[k], &v);
    good += (long)v;
  }
  long want = (long)THREADS * ROUNDS;
  int right = started == THREADS && sh->counter == want && good == want;
  tpf_log("QTHR: %d threads, counter %ld, good rounds %ld, expected %ld: %s", started, sh->counter, good, want,
          right ? "right" : "WRONG");
  free(ws);
  free(sh);
  return started < THREADS ? 2 : !right;
}
