/* LE's heap pools (le/guest/lepools.h): cell pools in front of the user heap. A get is
   a pool choice, a pop from the pool's free chain (or the next never-used cell of its
   newest extent) and a few counters; only a pool with no cell left goes to the heap,
   for an extent. All of it guest code, so the pools cost what they execute. */
#include "lepools.h"

typedef uint32_t la_t;
static inline struct lepools_prefix *CELL(la_t a) { return (struct lepools_prefix *)(uintptr_t)a; }
static inline la_t LA(const void *p) { return (la_t)(uintptr_t)p; }

void le_pools_init(struct lepools_cb *pcb) {
  pcb->eye = LEPOOLS_CB_EYE;
  pcb->largest = 0;
  pcb->big_requests = pcb->errors = pcb->extent_failures = 0;
  if (pcb->count > LEPOOLS_MAX) pcb->count = LEPOOLS_MAX;
  for (uint32_t i = 0; i < pcb->count; i++) {
    struct lepool *p = &pcb->pools[i];
    p->element_size = p->cell_size + LEPOOLS_PREFIX;
    p->cells_per_extent = lepools_cells_per_extent(pcb->heap_init, p->percent, p->element_size);
    p->free_head = p->carve = p->carve_left = p->reserved = 0;
    p->gets = p->frees = p->extents = p->in_use = p->max_used = 0;
    pcb->largest = p->cell_size;
  }
  /* ranges[] is static storage, zero at the enclave's start: not cleared here, so that
     its 32 KB are touched only where requests land. */
}

void *le_pools_get(struct lepools_cb *pcb, struct leheap_cb *heap, uint32_t n) {
  /* The smallest pool whose cells hold n bytes (ours: IBM implies it). */
  struct lepool *p = pcb->pools;
  while (p->cell_size < n) p++;
  la_t c = p->free_head;
  if (c) {
    p->free_head = *(const la_t *)(uintptr_t)(c + LEPOOLS_PREFIX);
  } else {
    if (!p->carve_left) {
      /* A new extent: an element of the user heap, never given back. */
      void *x = le_heap_get(heap, p->cells_per_extent * p->element_size);
      if (!x) {
        pcb->extent_failures++;
        return 0;
      }
      p->carve = LA(x);
      p->carve_left = p->cells_per_extent;
      p->extents++;
    }
    c = p->carve;
    p->carve += p->element_size;
    p->carve_left--;
    CELL(c)->pool = LA(p);
  }
  CELL(c)->tag = LEPOOLS_TAG_USED;
  p->gets++;
  if (++p->in_use > p->max_used) p->max_used = p->in_use;
  pcb->ranges[(n - 1) / LEPOOLS_GRANULE]++;
  return (void *)(uintptr_t)(c + LEPOOLS_PREFIX);
}

int le_pools_free(struct lepools_cb *pcb, void *user) {
  const la_t c = LA(user) - LEPOOLS_PREFIX;
  struct lepools_prefix *pre = CELL(c);
  /* The prefix must name one of these pools, at a pool's own place in the block. */
  const la_t first = LA(pcb->pools), pool = pre->pool;
  if (pool < first || pool >= first + pcb->count * (la_t)sizeof(struct lepool) ||
      (pool - first) % (la_t)sizeof(struct lepool)) {
    pcb->errors++;
    return LEPOOLS_ERR_NOT_OURS;
  }
  if (pre->tag != LEPOOLS_TAG_USED) {
    pcb->errors++;
    return pre->tag == LEPOOLS_TAG_FREE ? LEPOOLS_ERR_DOUBLE_FREE : LEPOOLS_ERR_NOT_OURS;
  }
  struct lepool *p = (struct lepool *)(uintptr_t)pool;
  pre->tag = LEPOOLS_TAG_FREE;
  *(la_t *)user = p->free_head; /* the chain's link, in the free cell's first word */
  p->free_head = c;
  p->in_use--;
  p->frees++;
  return LEPOOLS_OK;
}
