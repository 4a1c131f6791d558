/* Language Environment storage in the TPF image (issue 25): the environment the LE
   heap asks for (le_getmain, le_freemain: services of the control program,
   le/le_subsystem.cpp) and the C allocator of a program that runs on LE storage
   (le_alloc.h). The process's user heap is its static storage (each ECB's process has
   its own copy), so the host finds it where LE_START said it is, for RPTSTG's report.
   The heap has no latch: an LE program's threads must not allocate at once (ours: E4's
   programs are single-threaded; LE serializes its heap for threads, not modelled). */
#include <eheap.h>
#include <string.h>
#include <tpf.h>

#include "le_alloc.h"
#include "leheap.h"
#include "lepools.h"

int le_state;
static struct le_user_storage le_user;

void *le_getmain(uint32_t bytes, int below) { return tpf_le_getmain(bytes, below); }
void le_freemain(void *address, uint32_t bytes) { tpf_le_freemain(address, bytes); }

/* The control program sets the heap's and the pools' options (system.le) if the
   program runs on LE storage; the initial segment is got now, as LE gets it at the
   enclave's start (a pool gets its first extent when first asked). */
int le_start(void) {
  le_state = tpf_le_start(&le_user) ? 2 : 1;
  if (le_state == 2 && le_heap_init(&le_user.heap) != 0)
    tpf_heap_error(EHEAP_ERR_EXHAUSTED, 0, __builtin_return_address(0));
  if (le_state == 2 && le_user.pools.on) le_pools_init(&le_user.pools);
  return le_state == 2;
}

/* HEAPPOOLS(ON): a request up to the largest cell size is a pool's, a larger one the
   heap's ("Requests greater than the largest cell size"). */
void *le_malloc(size_t n) {
  if (le_user.pools.on && n - 1 < le_user.pools.largest) return le_pools_get(&le_user.pools, &le_user.heap, (uint32_t)n);
  if (le_user.pools.on && n) le_user.pools.big_requests++;
  return n > LEHEAP_MAX_REQUEST ? 0 : le_heap_get(&le_user.heap, (uint32_t)n);
}

/* A cell of the pools (HEAPPOOLS(ON)): inside the heap's segments (extents are heap
   elements) with a cell's tag in its prefix. The bounds are checked before the prefix
   is read, as le_heap_free does. */
static struct lepools_prefix *le_cell(const void *p) {
  if (!le_user.pools.on || (uintptr_t)p > 0xFFFFFFFFu || ((uintptr_t)p & 7) ||
      (uint32_t)(uintptr_t)p < le_user.heap.lo + LEHEAP_SEG_HEADER + LEHEAP_PREFIX ||
      (uint32_t)(uintptr_t)p >= le_user.heap.hi)
    return 0;
  struct lepools_prefix *pre = (struct lepools_prefix *)((char *)p - LEPOOLS_PREFIX);
  return LEPOOLS_IS_CELL(pre->tag) ? pre : 0;
}

void *le_calloc(size_t n, size_t size) {
  if (size && n > LEHEAP_MAX_REQUEST / size) return 0;
  void *p = le_malloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

/* A new element when the old one is too short (LE does the same: its elements do not
   grow in place). */
void *le_realloc(void *p, size_t n) {
  if (!p) return le_malloc(n);
  if (!n) {
    le_free(p);
    return 0;
  }
  const struct lepools_prefix *cell = le_cell(p);
  const struct leheap_prefix *pre = (const struct leheap_prefix *)((char *)p - LEHEAP_PREFIX);
  const size_t have = cell ? ((const struct lepool *)(uintptr_t)cell->pool)->cell_size : pre->length - LEHEAP_PREFIX;
  if (n <= have) return p;
  void *q = le_malloc(n);
  if (q) {
    memcpy(q, p, have);
    le_free(p);
  }
  return q;
}

/* A free the heap's checks refuse ends the ECB with a dump, as a bad ECB heap free does
   (ours: LE would end the enclave with CEE0802C; the dump names the address). */
void le_free(void *p) {
  if (le_cell(p)) {
    const int rc = le_pools_free(&le_user.pools, p);
    if (rc != LEPOOLS_OK)
      tpf_heap_error(rc == LEPOOLS_ERR_DOUBLE_FREE ? EHEAP_ERR_DOUBLE_FREE : EHEAP_ERR_NOT_OURS, p,
                     __builtin_return_address(0));
    return;
  }
  const int rc = le_heap_free(&le_user.heap, p);
  if (rc != LEHEAP_OK)
    tpf_heap_error(rc == LEHEAP_ERR_DOUBLE_FREE ? EHEAP_ERR_DOUBLE_FREE : EHEAP_ERR_NOT_OURS, p,
                   __builtin_return_address(0));
}
