/* Simple locks for guest code, as z/TPF's <sys/simplelock.h>:

       #include <simplelock.h>
       simple_lock(&mySimpleLock);
       ... operations under the lock ...
       simple_unlock(&mySimpleLock);

   A lock is a simplelock_t of zeroes (free) in storage every ECB that uses it can
   reach: for locks shared by ECBs, the shared system area (TPF_EVM_SHARED). Which
   algorithm simple_lock() runs is chosen by the control program from the
   configuration (system.simple_lock.algorithm and .spin_limit), through the image
   variables slock_algorithm and slock_spin_limit, so applications never change:
     SLOCK_CSG_LOOP  slockc_csg_*     retry CSG until it wins (before APAR PJ46800)
     SLOCK_PJ46800   slockc_pj46800_* spin on loads, CSG only when the word reads free,
                                      after spin_limit spins give up control until a
                                      release wakes it (TPF_SVC_WORD_WAIT)
     SLOCK_QUEUED    slockc_queued_*  MCS queue lock: FIFO hand-off, each waiter spins
                                      on its own node (a line of the node pool) and
                                      gives up control likewise

   A simplelock_t is two doublewords and lives where its user puts it, usually
   beside the data it protects, as a C struct lays them out (syslog's ring indexes
   share its line): so a waiter's CSG takes that line from the holder too. Every
   algorithm uses the same layout; only the waiting differs. The holder's own fields
   and the statistics are kept apart, in a slot of a table in the shared area (see
   struct slock_slot), so that measuring does not add accesses to the lock's line.

   This header is also the layout the host reads (lock/lock_stats.cpp): plain C with
   fixed-size fields, included by C++ too. The guest is big-endian; the host converts. */
#ifndef SIMPLELOCK_H
#define SIMPLELOCK_H
#include <stdint.h>
#include "tpf_svc.h"

#define SLOCK_CSG_LOOP 0
#define SLOCK_PJ46800 1
#define SLOCK_QUEUED 2

/* Per lock, added by the holder after it has the lock (counted in locals while
   waiting). The times are in TOD clock units (bit 51 = 1 microsecond: 4096 a us). */
struct simple_lock_stats {
  uint64_t acquisitions;   /* simple_lock() calls that got the lock */
  uint64_t contended;      /* ... of which did not get it at the first try */
  uint64_t spins;          /* read-only spin iterations while waiting */
  uint64_t csg_attempts;   /* CSG (compare and swap) instructions issued on the lock */
  uint64_t csg_failures;   /* ... that did not swap */
  uint64_t give_ups;       /* times a waiter gave up control (waited for the release) */
  uint64_t hold_tod;       /* total time held, TOD units */
  uint64_t hold_max_tod;   /* longest hold, TOD units */
  uint64_t wait_tod;       /* total time contended acquisitions waited (first failed try to acquired), TOD units */
  uint64_t istreams;       /* bit n (of 64, from the left: 1 << n): I-stream n (STAP's CPU address) got the lock */
  uint64_t waited_istreams;/* ... and had to wait for it */
};

typedef struct simplelock {
  volatile uint64_t word;     /* 0 free; csg-loop/pj46800: 1 held; queued: tail node + 1 */
  volatile uint64_t sleepers; /* pj46800: waiters that gave up control (the releaser wakes one) */
} simplelock_t;

/* The holder's fields and the statistics, apart from the lock: a table of
   SLOCK_SLOTS slots (a 256-byte line each) in the shared area at
   TPF_EVM_SHARED + TPF_SHARED_SLOCK_SLOTS, the slot chosen by the lock's address. Only
   holders write a slot, so keeping statistics moves one line from holder to holder
   and never queues behind the waiters on the lock's own line: measuring does not
   change what is measured. Two locks whose addresses hash to the same slot share it
   (their statistics add up); `lock` is the last lock that used it. A slot whose
   `lock` is not 0 is reported (lock/lock_stats.cpp), named by `name` if
   simple_lock_init gave one. */
#define SLOCK_NAME_MAX 24
struct slock_slot {
  uint64_t lock;          /* the lock's address */
  uint64_t acquired_tod;  /* STCKF when the holder got it */
  uint64_t holder_node;   /* queued: the holder's node + 1 */
  uint64_t reserved;
  struct simple_lock_stats stats;
  char name[SLOCK_NAME_MAX]; /* simple_lock_init's name, NUL-padded ("": none) */
  uint8_t pad[256 - 32 - sizeof(struct simple_lock_stats) - SLOCK_NAME_MAX];
};
#define SLOCK_SLOTS 64
#define SLOCK_SLOT_STATS_OFFSET 32 /* offsetof(struct slock_slot, stats), for the host */
#define SLOCK_SLOT_NAME_OFFSET (32 + 11 * 8) /* offsetof(struct slock_slot, name) */
#define SLOCK_MAX_ISTREAMS 64 /* the I-stream masks' bits */
static inline unsigned slock_slot_index(uint64_t lock_address) {
  return (unsigned)(((lock_address >> 3) * 0x9E3779B97F4A7C15ULL) >> 58); /* 6 bits: 64 slots */
}

/* Queue nodes of the queued algorithm: a pool in the shared area at
   TPF_EVM_SHARED + TPF_SHARED_SLOCK_QNODES, one 256-byte line each. A waiter claims a
   free node (CS on its owner word), starting from its ECB number modulo the pool
   size, and frees it when it releases the lock. See also tpf_syslog.h, the other
   user of the shared area: the two regions must not overlap. */
struct slock_qnode {
  volatile uint64_t locked; /* 1 while waiting; the predecessor stores 0 to hand over */
  volatile uint64_t next;   /* the successor's node + 1, 0 none yet */
  volatile uint64_t owner;  /* 0 free, else the claiming ECB's number */
  volatile uint64_t asleep; /* 1 while its waiter has given up control (wake it at hand-over) */
  volatile uint64_t head;   /* 1: next in line after the holder (keeps spinning, see queued) */
  uint8_t pad[256 - 40];
} __attribute__((aligned(256)));

#define SLOCK_SLOT_END (TPF_SHARED_SLOCK_SLOTS + SLOCK_SLOTS * 256UL)
#define SLOCK_QNODES 256
#define SLOCK_QNODE_END (TPF_SHARED_SLOCK_QNODES + SLOCK_QNODES * 256UL)
TPF_EVM_ASSERT(SLOCK_SLOT_END <= TPF_SHARED_SLOCK_SLOTS_END, "the statistics slots in their part of the shared area");
TPF_EVM_ASSERT(SLOCK_QNODE_END <= TPF_SHARED_SLOCK_QNODES_END, "the queue nodes in their part of the shared area");

#define SLOCK_SPIN_LIMIT_DEFAULT 300
/* queued: how many spin limits the head waiter (next after the holder) spins before it gives up. */
#define SLOCK_HEAD_ROUNDS 16

#ifndef __cplusplus
/* The lock. simple_lock returns with the lock held; it may give up control while
   waiting (pj46800, queued). simple_unlock must be called by the holder. */
void simple_lock(simplelock_t *l);
void simple_unlock(simplelock_t *l);
/* Optional, once, before any ECB takes the lock: frees it and gives it a name (at most
   SLOCK_NAME_MAX - 1 characters are kept) for locks.txt and locks.json. A lock that
   was never initialized is reported too, by its address, once it is taken. */
void simple_lock_init(simplelock_t *l, const char *name);

/* The configuration (set by the control program in the image before any ECB runs;
   read-only to guest code). */
extern const volatile int slock_algorithm;
extern const volatile long slock_spin_limit;

/* The algorithms (one program each in the profiler). */
void slockc_csg_lock(simplelock_t *l);
void slockc_csg_unlock(simplelock_t *l);
void slockc_pj46800_lock(simplelock_t *l);
void slockc_pj46800_unlock(simplelock_t *l);
void slockc_queued_lock(simplelock_t *l);
void slockc_queued_unlock(simplelock_t *l);

/* Helpers shared by the algorithms (lock/guest/simplelock.c). */
static inline uint64_t slock_tod(void) {
  uint64_t t;
  __asm__ volatile("stckf %0" : "=Q"(t) : : "cc");
  return t;
}
/* Interlocked add (LAAG, not a CSG loop: the profiler should show what the lock
   really does). */
static inline void slock_add(volatile uint64_t *p, int64_t v) {
  int64_t old;
  __asm__ volatile(".machine push\n\t.machine z196\n\tlaag %0,%2,%1\n\t.machine pop"
                   : "=d"(old), "+QS"(*p)
                   : "d"(v)
                   : "cc", "memory");
  (void)old;
}
/* Serialization (BCR 15,0): the stores before it are seen before the loads after it. */
static inline void slock_serialize(void) { __asm__ volatile("bcr 15,0" : : : "memory"); }
/* The holder adds what it counted while waiting, and marks the acquire time. */
static inline struct slock_slot *slock_slot(simplelock_t *l) {
  return (struct slock_slot *)(TPF_EVM_SHARED + TPF_SHARED_SLOCK_SLOTS) + slock_slot_index((uint64_t)l);
}
/* The I-stream this code runs on: STORE CPU ADDRESS (Principles of Operation, "Store
   CPU Address"), the I-stream's number, one instruction (no service call). */
static inline unsigned slock_istream(void) {
  uint16_t cpu;
  __asm__ volatile("stap %0" : "=Q"(cpu));
  return cpu;
}
/* `waited_since`: the TOD of the first try that failed (0: got it at the first try). */
static inline void slock_acquired(simplelock_t *l, uint64_t contended, uint64_t spins, uint64_t attempts,
                                  uint64_t failures, uint64_t give_ups, uint64_t waited_since) {
  struct slock_slot *slot = slock_slot(l);
  struct simple_lock_stats *s = &slot->stats;
  const uint64_t now = slock_tod();
  const uint64_t me = 1ULL << (slock_istream() % SLOCK_MAX_ISTREAMS);
  slot->lock = (uint64_t)l;
  s->acquisitions += 1;
  s->contended += contended;
  s->spins += spins;
  s->csg_attempts += attempts;
  s->csg_failures += failures;
  s->give_ups += give_ups;
  s->istreams |= me;
  if (waited_since) {
    s->wait_tod += now - waited_since;
    s->waited_istreams |= me;
  }
  slot->acquired_tod = now;
}
/* The holder, before it lets go: the hold time. */
static inline void slock_releasing(simplelock_t *l) {
  struct slock_slot *slot = slock_slot(l);
  uint64_t held = slock_tod() - slot->acquired_tod;
  slot->stats.hold_tod += held;
  if (held > slot->stats.hold_max_tod) slot->stats.hold_max_tod = held;
}
#endif

#endif
