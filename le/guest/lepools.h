/* LE's heap pools (HEAPPOOLS(ON,...), issue 25): up to twelve cell pools in front of the
   user heap, as guest code (le/guest/lepools.c). One control block (struct lepools_cb)
   per process, after its first enclave's block (struct le_process_storage, le_enclave.h); the host sets its
   options (LE_START) and reads its counters at the enclave's end (RPTSTG's "HEAPPOOLS
   Statistics", le/le_pools.cpp).

   What IBM documents (z/OS Language Environment Programming Reference, HEAPPOOLS; the
   Debugging Guide's storage report, "HEAPPOOLS Statistics" and "HEAPPOOLS Summary"):
   - one to twelve pools, cell sizes ascending, each a multiple of 8, at most 65536; a
     cell size of 0 ends the list; each pool's percentage is 1 to 90;
   - "The size of this heap pool and any of its extents is determined by multiplying
     this percentage by the init_size value that was specified in the HEAP runtime
     option"; cells per extent = (Initial Heap Size * (Extent Percent/100)) / (Element
     Size), "with a minimum of four cells";
   - Element Size is "the size of the cell plus any additional storage needed for
     control information": 8 bytes in 31-bit (the user-created heap's report gives the
     same formula as (Initial Heap Size * (Extent Percent/100))/(8 + Cell Size));
   - each pool is allocated as needed, and "the allocation of a heap pool can result in
     the allocation of a heap increment": extents come from the user heap; "Heap pools
     and extents are not released back to the heap";
   - a request is served by a pool whose cells are large enough, a larger one by the
     heap ("Requests greater than the largest cell size"); LEDATA's heap pool report
     shows the cell's header naming its pool and the free cells chained per pool.
   Ours, marked "(ours)" below: the smallest pool that fits serves a request (IBM implies
   it, does not say it); the prefix's fields; the free chain is last-in first-out; an
   extent's cells are carved one at a time as they are first needed (not formatted when
   the extent is got); a pool with no free cell gets a new extent even if a larger pool
   has free cells.

   31-bit layout as the heap's (le/guest/leheap.h): 4-byte big-endian addresses, plain C
   fields the host reads by offsetof. */
#ifndef LEPOOLS_H
#define LEPOOLS_H
#include <stddef.h>
#include <stdint.h>

#include "leheap.h"

#define LEPOOLS_CB_EYE 0x4850504Cu /* "HPPL": the pools' control block (ours, ASCII) */
#define LEPOOLS_MAX 12u            /* "one to twelve heap pools" */
#define LEPOOLS_PREFIX 8u          /* the cell's prefix: Element Size = cell size + 8 (31-bit) */
#define LEPOOLS_MIN_CELLS 4u       /* cells per extent, at least ("with a minimum of four cells") */
#define LEPOOLS_MAX_CELL 65536u    /* "a maximum of 65536 (64 K)" */
#define LEPOOLS_GRANULE 8u         /* the report's request-size ranges ("the 8 byte range") */
#define LEPOOLS_RANGES (LEPOOLS_MAX_CELL / LEPOOLS_GRANULE)

/* The prefix's second word (ours): a heap element's prefix has its length there, a
   multiple of 8, so a word whose low three bits are 7 is a cell's. Bit 3 set: the cell
   is free (a second free of it is refused). */
#define LEPOOLS_TAG_USED 0x504C0007u /* "PL", 0, 7 */
#define LEPOOLS_TAG_FREE 0x504C000Fu
#define LEPOOLS_IS_CELL(word) (((word)&7u) == 7u)

/* le_pools_free's results (each but LEPOOLS_OK counted in lepools_cb.errors). */
#define LEPOOLS_OK 0
#define LEPOOLS_ERR_NOT_OURS 1     /* the prefix names no pool of these pools */
#define LEPOOLS_ERR_DOUBLE_FREE 3  /* the cell is free already */

/* Before each cell; the caller gets the address after it. */
struct lepools_prefix {
  uint32_t pool;     /* its pool: the address of its struct lepool */
  uint32_t tag;      /* LEPOOLS_TAG_USED or LEPOOLS_TAG_FREE */
};

/* One pool. The options are set before le_pools_init, the rest by the pools. */
struct lepool {
  uint32_t cell_size;        /* option: bytes, a multiple of 8 */
  uint32_t percent;          /* option: of HEAP's init_size, per extent */
  uint32_t element_size;     /* cell_size + LEPOOLS_PREFIX */
  uint32_t cells_per_extent; /* (init_size * percent / 100) / element_size, at least 4 */
  uint32_t free_head;        /* the last freed cell's prefix, 0 if none; the next is in its first word */
  uint32_t carve;            /* the newest extent's next never-used element */
  uint32_t carve_left;       /* ... and how many it has left */
  uint32_t reserved;
  /* Counters (RPTSTG). */
  uint64_t gets;             /* requests served ("Get requests") */
  uint64_t frees;            /* cells given back */
  uint64_t extents;          /* "Extents Allocated" */
  uint64_t in_use;           /* "Cells In Use" (at the end: never freed) */
  uint64_t max_used;         /* "Maximum Cells Used" */
};

struct lepools_cb {
  uint32_t eye;              /* LEPOOLS_CB_EYE, set by le_pools_init */
  uint32_t on;               /* option: 1 HEAPPOOLS(ON), 0 OFF (nothing else is used then) */
  uint32_t count;            /* option: pools in use, 1..12 */
  uint32_t heap_init;        /* HEAP's init_size as the option gives it: the extents' base */
  uint32_t largest;          /* the largest cell size: a request above it goes to the heap */
  uint32_t reserved;
  uint64_t big_requests;     /* "Requests greater than the largest cell size" */
  uint64_t errors;           /* frees refused by a check */
  uint64_t extent_failures;  /* extents the heap could not give (the request failed) */
  struct lepool pools[LEPOOLS_MAX];
  /* Requests the pools served, by size in 8-byte ranges: ranges[(n - 1) / 8] (the
     report's "Successful Get Heap requests: xxxx-yyyy n", and the suggested cell sizes'
     input), up to the largest cell size. */
  uint32_t ranges[LEPOOLS_RANGES];
};


/* Cells per extent, shared by the guest pools and the host (model and report). */
static inline uint32_t lepools_cells_per_extent(uint32_t heap_init, uint32_t percent, uint32_t element_size) {
  const uint32_t cells = (uint32_t)((uint64_t)heap_init * percent / 100u) / element_size;
  return cells < LEPOOLS_MIN_CELLS ? LEPOOLS_MIN_CELLS : cells;
}

#ifdef __cplusplus
static_assert(sizeof(lepools_prefix) == LEPOOLS_PREFIX && sizeof(lepool) == 72 &&
              offsetof(lepools_cb, pools) == 48 && offsetof(lepools_cb, ranges) == 48 + 12 * 72);
#else
_Static_assert(sizeof(struct lepools_prefix) == LEPOOLS_PREFIX, "cell prefix");
_Static_assert(sizeof(struct lepool) == 72, "pool");
_Static_assert(offsetof(struct lepools_cb, ranges) == 48 + 12 * 72, "pools control block");

/* Completes the control block (its options set): element sizes, cells per extent, the
   counters. Gets no storage: a pool's first extent is got by its first request. */
void le_pools_init(struct lepools_cb *pcb);
/* n bytes (1 <= n <= pcb->largest) from the smallest pool that fits, or 0 if its pool
   needed an extent and the heap had none. */
void *le_pools_get(struct lepools_cb *pcb, struct leheap_cb *heap, uint32_t n);
/* LEPOOLS_OK or an LEPOOLS_ERR_* (nothing changed); p must have a cell's tag
   (LEPOOLS_IS_CELL of its prefix's second word). */
int le_pools_free(struct lepools_cb *pcb, void *p);
#endif

#endif
