/* The ECB heap (issue 6, APAR PJ47265): malloc, calloc, realloc, free and the 64-bit
   malloc64, calloc64, realloc64 of every ECB and thread, as guest code; tagged
   buffers (tpf_eheap_tag, tpf_eheap_locate). Two variants, chosen by the control
   program from system.ecb_heap.algorithm through read-only image variables (no
   application change):
     EHEAP_BASELINE  eheap_baseline_*  control table initialized whole at the first
                     request, sequential search for tags, packed buffers, FIFO reuse
                     of AVL buffers, the shared AVLs under a lock taken by SVC, one
                     trace table per process
     EHEAP_PJ47265   eheap_pj47265_*   control entries initialized when needed, a
                     growing hash table for tags, buffers on 256-byte lines, LIFO
                     reuse, a lightweight lock in guest code, a trace table and
                     AVLs per thread in front of the shared ones

   Storage. A process's heap lives in its own EVM: the 31-bit area from
   TPF_EVM_HEAP31 and the 64-bit area from TPF_EVM_HEAP64, each grown a 1 MB frame at a
   time (TPF_SVC_HEAP_FRAME); the first 31-bit frame is the preallocated heap area
   and starts with the heap's header (struct eheap_header), then the process trace
   table, then the control table's first part, then buffers.

   The control table has one struct eheap_entry per buffer (every AVL buffer needs
   one, dispensed or not). As IBM describes z/TPF's: the initial table is 150 entries,
   "a good fit into the 5 4K frames" it takes (so an entry is 136 bytes), and when
   more buffers are used more storage is obtained for the table. Here the table is a
   list of parts of system.ecb_heap.control_entries entries each (a directory of
   part addresses that doubles when full); a further part is carved from the 31-bit
   area, so the heap runs out of control entries only when the area runs out of
   frames.

   The changes of PJ47265 are seven switches (EHEAP_CHANGE_*), so that each can be
   measured alone on top of the baseline (the ablation of E1, docs/e1-tls.md): baseline is
   none of them, pj47265 all; system.ecb_heap.changes picks others. A process puts its
   policies together at its first request (struct eheap_ops) from the two files'.
   A buffer is [struct eheap_block header][data][8-byte trailer right after the
   requested size]; the trailer catches writes past the end.

   Errors (free of a pointer the heap did not give, double free, a write past the
   end, heap exhausted) end the ECB through TPF_SVC_HEAP_ERROR with a dump naming the
   ECB, the address and the check that failed.

   This header is also the layout the host reads when a process ends (heap/heap_stats.cpp):
   plain C with fixed-size fields. The guest is big-endian; the host converts. */
#ifndef EHEAP_H
#define EHEAP_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
#include "os/guest/include/tpf_evm.h"
#else
#include <tpf_evm.h>
#endif

#define EHEAP_BASELINE 0
#define EHEAP_PJ47265 1

/* The changes of APAR PJ47265 (seed 000's list, in its order); the eighth, the request
   size report's layout, is the host's (heap/heap_stats.cpp) and costs the guest nothing. */
#define EHEAP_CHANGE_LAZY_ENTRIES 0x01  /* initialize control entries only when needed */
#define EHEAP_CHANGE_TAG_HASH 0x02      /* a hash table for locating tagged buffers */
#define EHEAP_CHANGE_LINE_ALIGN 0x04    /* buffers on cache line (256-byte) boundaries */
#define EHEAP_CHANGE_LIFO 0x08          /* LIFO dispatching of the AVLs */
#define EHEAP_CHANGE_LIGHT_LOCK 0x10    /* a lock in guest code instead of an SVC */
#define EHEAP_CHANGE_THREAD_TRACE 0x20  /* a trace table per thread */
#define EHEAP_CHANGE_THREAD_AVLS 0x40   /* AVLs per thread in front of the shared ones */
#define EHEAP_CHANGES_ALL 0x7F

#define EHEAP_FRAME (1UL << 20)

#define EHEAP_AVLS 5
#define EHEAP_THREADS 64         /* thread slots (a process's own ECB is slot 0) */
#define EHEAP_HIST 33            /* request sizes: 32-byte classes up to 1024, then more */
#define EHEAP_NONE 0xFFFFFFFFu   /* no entry */
#define EHEAP_HEADER_MAGIC 0x4548454150484452ULL /* "EHEAPHDR" */
#define EHEAP_BLOCK_MAGIC 0xEB10C0DEu
#define EHEAP_TRAILER 0x7E7E7E7E7E7E7E7EULL

/* Classes of ECB: their AVL sizes and preallocated counts are set apart. */
#define EHEAP_CLASS_APP 0
#define EHEAP_CLASS_SSL 1 /* shared SSL and Java */

/* Errors: TPF_SVC_HEAP_ERROR r2. */
#define EHEAP_ERR_NOT_OURS 1   /* free/realloc/tag of a pointer the heap did not give */
#define EHEAP_ERR_DOUBLE_FREE 2
#define EHEAP_ERR_OVERRUN 3    /* the trailer after the requested size was overwritten */
#define EHEAP_ERR_EXHAUSTED 4  /* no frame left for a buffer or the control table */

/* Entry states. */
#define EHEAP_FREE 0  /* not bound to a buffer (pj47265: not yet initialized either) */
#define EHEAP_USED 1  /* dispensed */
#define EHEAP_AVAIL 2 /* on an available list (shared or a thread's) */
#define EHEAP_LARGE 3 /* a freed buffer larger than AVL5, on the large list */

/* One per buffer: the ECB heap control table. 136 bytes: IBM's 150 entries fill five
   4 KB frames; IBM does not publish the entry's layout, so what this heap does not use
   is reserved, and initializing an entry initializes all of it. */
struct eheap_entry {
  uint64_t addr;   /* the data's address */
  uint64_t tag;    /* a tag name packed in 8 bytes (0: none) */
  uint32_t size;   /* requested bytes */
  uint32_t cap;    /* bytes the buffer holds */
  uint32_t next;   /* next on an available or large list */
  uint32_t hnext;  /* pj47265: next in the tag hash chain */
  uint8_t state;
  uint8_t avl;     /* 1..5: its AVL; 0: larger than AVL5 */
  uint8_t area64;  /* in the 64-bit area */
  uint8_t spare;
  uint32_t spare2;
  uint64_t reserved[12];
};
#define EHEAP_ENTRY_BYTES 136

/* Before each buffer's data. */
struct eheap_block {
  uint32_t magic;
  uint32_t entry;  /* its control table entry */
  uint64_t size;   /* requested bytes (also in the entry: a cross-check) */
};

/* One trace table entry per heap operation. */
struct eheap_trace {
  uint64_t tod;
  uint64_t addr;
  uint32_t size;
  uint16_t op;     /* EHEAP_OP_* */
  uint16_t thread;
  uint64_t spare;
};
#define EHEAP_OP_MALLOC 1
#define EHEAP_OP_FREE 2
#define EHEAP_OP_REALLOC 3
#define EHEAP_OP_TAG 4

/* Per thread slot, one line: its AVLs (pj47265) and its trace table. */
struct eheap_thread {
  uint32_t avl_head[EHEAP_AVLS];
  uint32_t avl_count[EHEAP_AVLS];
  uint64_t trace;       /* its trace table (pj47265), 0 until its first operation */
  uint32_t trace_next;
  uint32_t spare;
  uint64_t caller;      /* the return address of its heap call in progress (for an error's dump) */
  uint8_t pad[256 - 40 - 24];
};

/* Per thread slot: counters, kept where only that thread writes (no lock, no line
   shared between I-streams); the host adds the slots up. */
struct eheap_tstats {
  uint64_t requests[EHEAP_HIST]; /* request sizes: [k] = (32k, 32k+32], [32] > 1024 */
  uint64_t dispensed[EHEAP_AVLS];
  uint64_t freed[EHEAP_AVLS];
  uint64_t large_dispensed, large_freed;
  uint64_t mallocs, frees, reallocs, callocs, malloc64s;
  uint64_t tags, locates, locate_steps; /* steps: entries or chain links looked at */
  uint8_t pad[512 - (EHEAP_HIST + 2 * EHEAP_AVLS + 10) * 8];
};

struct eheap_header {
  uint64_t magic;
  uint32_t variant;        /* EHEAP_BASELINE, EHEAP_PJ47265 */
  uint32_t heap_class;     /* EHEAP_CLASS_* */
  /* Carving: the next free byte and the end of what is mapped, per area. */
  uint64_t next31, end31, next64, end64;
  /* The control table: a directory of parts (part_entries entries each). */
  uint64_t parts;                     /* the directory: parts_cap part addresses */
  uint32_t entries_cap, entries_used; /* entries in the parts; bound to a buffer (baseline initializes */
  uint32_t part_entries, parts_cap;   /* each part whole when it gets it, pj47265 each entry as used) */
  /* Shared AVLs (under the heap lock) and the large list. */
  uint32_t avl_size[EHEAP_AVLS];
  uint32_t avl_head[EHEAP_AVLS], avl_tail[EHEAP_AVLS], avl_count[EHEAP_AVLS];
  uint32_t large_head, changes; /* changes: the EHEAP_CHANGE_* this process's heap has */
  /* Tags: pj47265's hash table (bucket heads, entry numbers). */
  uint64_t hash;
  uint32_t hash_buckets, hash_count;
  /* baseline: the process trace table. */
  uint64_t trace;
  uint32_t trace_next, trace_cap;
  /* Process-wide figures (under the lock). */
  uint64_t frames31, frames64;     /* 1 MB frames obtained */
  uint64_t hash_expansions;        /* times the hash table grew */
  uint64_t ever_used;              /* 1 once a buffer was dispensed */
  uint8_t pad0[256 - 224];
  /* The lightweight lock (pj47265), a line of its own. */
  volatile uint64_t lock;
  volatile uint64_t lock_sleepers;
  uint8_t pad1[256 - 16];
  struct eheap_thread threads[EHEAP_THREADS];
  struct eheap_tstats tstats[EHEAP_THREADS];
};

#define EHEAP_HEADER_LOCK_OFFSET 256

#ifndef __cplusplus
/* Tagged buffers: names of up to 8 characters. tpf_eheap_tag returns 0, or -1 if the
   name is empty or too long; tagging a tagged buffer renames it. tpf_eheap_locate
   returns the buffer last tagged with the name, or NULL. */
int tpf_eheap_tag(void *buffer, const char *name);
void *tpf_eheap_locate(const char *name);

void *malloc64(size_t n);
void *calloc64(size_t n, size_t size);
void *realloc64(void *p, size_t n);

/* The policies (each its program in the profiler: eheap_baseline_* or eheap_pj47265_*),
   one or the other per change. */
struct eheap_ops {
  /* EHEAP_CHANGE_LAZY_ENTRIES */
  void (*init_part)(struct eheap_header *h, uint32_t first, uint32_t n); /* a new part of the table */
  uint32_t (*new_entry)(struct eheap_header *h); /* under the lock: an entry for a new buffer */
  /* EHEAP_CHANGE_LIGHT_LOCK */
  void (*lock)(struct eheap_header *h);
  void (*unlock)(struct eheap_header *h);
  /* EHEAP_CHANGE_LIFO: a freed buffer onto a shared AVL (under the lock) */
  void (*shared_put)(struct eheap_header *h, int k, uint32_t e);
  /* EHEAP_CHANGE_THREAD_AVLS: the thread's own AVLs, no lock (0: none) */
  uint32_t (*thread_get)(struct eheap_header *h, int k, unsigned thread); /* EHEAP_NONE if empty */
  int (*thread_put)(struct eheap_header *h, int k, uint32_t e, unsigned thread); /* 0 if full */
  /* EHEAP_CHANGE_LINE_ALIGN */
  uint64_t align;                                                       /* block alignment */
  /* EHEAP_CHANGE_THREAD_TRACE */
  void (*trace)(struct eheap_header *h, unsigned thread, int op, uint64_t addr, uint64_t size);
  /* EHEAP_CHANGE_TAG_HASH */
  void (*tag_add)(struct eheap_header *h, uint32_t e);                 /* under the lock */
  void (*tag_remove)(struct eheap_header *h, uint32_t e);              /* under the lock */
  uint32_t (*tag_find)(struct eheap_header *h, uint64_t tag, unsigned thread); /* under the lock */
};
extern const struct eheap_ops eheap_baseline_ops, eheap_pj47265_ops;

/* The core's services for the variants (heap/guest/eheap_core.c). */
static inline struct eheap_entry *eheap_entry_at(struct eheap_header *h, uint32_t e) {
  const uint32_t n = h->part_entries;
  return (struct eheap_entry *)((const uint64_t *)h->parts)[e / n] + e % n;
}
void *eheap_internal_alloc(struct eheap_header *h, uint64_t bytes); /* under the lock; never freed */
void eheap_table_grow(struct eheap_header *h);
void eheap_lock(struct eheap_header *h);                             /* the process's heap lock */
void eheap_unlock(struct eheap_header *h);                      /* under the lock: one more part */
void eheap_entry_init(struct eheap_entry *x);                        /* all its bytes */
uint64_t eheap_tod(void);

/* The configuration (read-only image variables the control program sets). */
extern const volatile int eheap_algorithm;
extern const volatile uint32_t eheap_changes;
extern const volatile uint32_t eheap_control_entries;
extern const volatile uint32_t eheap_trace_entries;
extern const volatile uint32_t eheap_thread_avl_max;
extern const volatile uint32_t eheap_hash_buckets;
extern const volatile uint32_t eheap_avl_sizes[2][EHEAP_AVLS];
extern const volatile uint32_t eheap_avl_counts[2][EHEAP_AVLS];
#endif

#endif
