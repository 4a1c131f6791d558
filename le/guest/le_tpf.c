/* Language Environment storage in the TPF image (issue 25): the environment the LE
   heaps ask for (le_getmain, le_freemain: services of the control program,
   le/le_subsystem.cpp), the C allocator of a program that runs on LE storage
   (le_alloc.h), __malloc24, and LE's LINK (le_link: a new enclave). The process's
   first enclave is its static storage (each ECB's process has its own copy), so the
   host finds it where LE_START said it is, for RPTSTG's report.
   The heaps have no latch: an LE program's threads must not allocate at once (ours:
   E4's programs are single-threaded; LE serializes its heaps for threads, not modelled). */
#include <eheap.h>
#include <string.h>
#include <tpf.h>

#include <tpf_evm.h>

#include "le_alloc.h"
#include "le_enclave.h"
#include "le_stack.h"
#include "leheap.h"
#include "lepools.h"

int le_state;
static struct le_process_storage le_first; /* the process's first enclave and its heap pools */
static struct le_enclave *le_current = &le_first.enclave;
/* HEAPPOOLS serves the process's first enclave (ours: a LINKed enclave's requests go to
   its heap; its HEAPPOOLS option is not used). */
#define POOLS_ON (le_first.pools.on && le_current == &le_first.enclave)

void *le_getmain(uint32_t bytes, int below) { return tpf_le_getmain(bytes, below); }
void le_freemain(void *address, uint32_t bytes) { tpf_le_freemain(address, bytes); }

/* The heaps whose initial segment comes with the enclave (HEAP24's comes with its
   first request). 0, or -1 if the region has no room for one. */
static int enclave_heaps_init(struct le_enclave *e) {
  if (le_heap_init(&e->heap) != 0 || le_heap_init(&e->anyheap) != 0) return -1;
  return le_heap_init(&e->belowheap);
}

/* Gives back every segment of an ending LINKed enclave's heaps. */
static void enclave_heaps_term(struct le_enclave *e) {
  le_heap_term(&e->heap);
  le_heap_term(&e->heap24);
  le_heap_term(&e->anyheap);
  le_heap_term(&e->belowheap);
}

/* The control program sets the heaps' and the pools' options (system.le) if the program
   runs on LE storage; the initial segments are got now, as LE gets them at the
   enclave's start (a pool gets its first extent when first asked). */
int le_start(void) {
  le_state = tpf_le_start(&le_first, 0) ? 2 : 1;
  if (le_state == 2 && enclave_heaps_init(&le_first.enclave) != 0)
    tpf_heap_error(EHEAP_ERR_EXHAUSTED, 0, __builtin_return_address(0));
  if (le_state == 2 && le_first.pools.on) le_pools_init(&le_first.pools);
  return le_state == 2;
}

/* Where a 31-bit element lives: below 16 MB it is HEAP24's, unless the user heap
   itself is BELOW (then __malloc24 uses it). */
static struct leheap_cb *heap_of(const void *p) {
  struct le_enclave *e = le_current;
  return (uintptr_t)p < 0x1000000u && e->heap.location != LEHEAP_BELOW ? &e->heap24 : &e->heap;
}

/* HEAPPOOLS(ON): a request up to the largest cell size is a pool's, a larger one the
   heap's ("Requests greater than the largest cell size"). */
void *le_malloc(size_t n) {
  if (POOLS_ON && n - 1 < le_first.pools.largest)
    return le_pools_get(&le_first.pools, &le_first.enclave.heap, (uint32_t)n);
  if (POOLS_ON && n) le_first.pools.big_requests++;
  return n > LEHEAP_MAX_REQUEST ? 0 : le_heap_get(&le_current->heap, (uint32_t)n);
}

/* A cell of the pools (HEAPPOOLS(ON)): inside the heap's segments (extents are heap
   elements) with a cell's tag in its prefix. The bounds are checked before the prefix
   is read, as le_heap_free does. */
static struct lepools_prefix *le_cell(const void *p) {
  const struct leheap_cb *heap = &le_first.enclave.heap;
  if (!POOLS_ON || (uintptr_t)p > 0xFFFFFFFFu || ((uintptr_t)p & 7) ||
      (uint32_t)(uintptr_t)p < heap->lo + LEHEAP_SEG_HEADER + LEHEAP_PREFIX || (uint32_t)(uintptr_t)p >= heap->hi)
    return 0;
  struct lepools_prefix *pre = (struct lepools_prefix *)((char *)p - LEPOOLS_PREFIX);
  return LEPOOLS_IS_CELL(pre->tag) ? pre : 0;
}

/* z/OS C's __malloc24: storage below the 16 MB line, freed by free. */
void *le_malloc24(size_t n) {
  struct le_enclave *e = le_current;
  if (e->heap.location == LEHEAP_BELOW) return le_malloc(n);
  if (n > LEHEAP_MAX_REQUEST) return 0;
  if (e->heap24.eye != LEHEAP_CB_EYE && le_heap_init(&e->heap24) != 0) return 0;
  return le_heap_get(&e->heap24, (uint32_t)n);
}

/* Off LE storage there is no storage below the line to give (the ECB heap's is above it). */
void *__malloc24(size_t n) { return le_program() ? le_malloc24(n) : 0; }

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
    const int rc = le_pools_free(&le_first.pools, p);
    if (rc != LEPOOLS_OK)
      tpf_heap_error(rc == LEPOOLS_ERR_DOUBLE_FREE ? EHEAP_ERR_DOUBLE_FREE : EHEAP_ERR_NOT_OURS, p,
                     __builtin_return_address(0));
    return;
  }
  const int rc = le_heap_free(heap_of(p), p);
  if (rc != LEHEAP_OK)
    tpf_heap_error(rc == LEHEAP_ERR_DOUBLE_FREE ? EHEAP_ERR_DOUBLE_FREE : EHEAP_ERR_NOT_OURS, p,
                   __builtin_return_address(0));
}

/* ---- LINK: a new enclave ----------------------------------------------------------- */

/* What a LINK keeps while the linked program runs, in the caller's ANYHEAP: the caller's
   enclave and its stack's anchor fields (le_stack.h), which the new enclave's stack
   takes over until it ends. */
struct le_link_block {
  uint32_t caller;  /* the caller's enclave */
  uint32_t stack;   /* the new enclave's initial stack segment */
  uint64_t anchor[LE_ANCHOR_BYTES / 8];
};

#define ANCHOR(off) (*(volatile uint64_t *)(uintptr_t)(TPF_EVM_LE_ANCHOR + (off)))

/* The new enclave's stack for LE's prologue check (le_dsa_check.S): one segment, never
   extended (a frame below it ends the ECB: LE_STACK); its own STORAGE fill; its usage
   measured from its top. The trip at the maximum, so that its first check runs. */
static void anchor_link(struct le_link_block *link, const struct le_enclave *e, char *stack) {
  for (unsigned i = 0; i < LE_ANCHOR_BYTES / 8; i++) link->anchor[i] = ANCHOR(8 * i);
  const uint64_t base = (uint64_t)(uintptr_t)stack, top = base + e->stack_init;
  ANCHOR(LE_A_TRIP) = ~(uint64_t)0;
  ANCHOR(LE_A_LOWEST) = top;
  ANCHOR(LE_A_FLOOR) = base;
  ANCHOR(LE_A_EXT_TOP) = 0;
  ANCHOR(LE_A_TOP) = top;
  ANCHOR(LE_A_AREA) = base;
  ANCHOR(LE_A_FILL) = e->stack_fill;
  ANCHOR(LE_A_FLAGS) = e->stack_flags;
  ANCHOR(LE_A_STARTED) = 0;
  ANCHOR(LE_A_CALLS) = 0;
}

static void anchor_restore(const struct le_link_block *link) {
  for (unsigned i = 0; i < LE_ANCHOR_BYTES / 8; i++) ANCHOR(8 * i) = link->anchor[i];
}

/* tpf_enter(name, msg, len) on the stack whose top is `top` (le_link_stack.S). */
int le_enter_on_stack(const char *name, void *msg, long len, void *top);

int le_link(const char *name, void *msg, long len) {
  if (!le_program()) return tpf_enter(name, msg, len);
  struct le_enclave *caller = le_current;
  struct le_link_block *link = le_heap_get(&caller->anyheap, sizeof *link);
  struct le_enclave *e = le_getmain(sizeof *e, 0);
  if (!link || !e || !tpf_le_start(e, name)) {
    if (e) le_freemain(e, sizeof *e);
    if (link) le_heap_free(&caller->anyheap, link);
    tpf_log("le_link: no storage for a new enclave for %.8s", name);
    return -1;
  }
  void *stack = le_getmain(e->stack_init, 0);
  if (!stack || enclave_heaps_init(e) != 0) {
    tpf_log("le_link: no storage for enclave %.8s's initial stack and heaps", name);
    tpf_le_end(e);
    enclave_heaps_term(e);
    if (stack) le_freemain(stack, e->stack_init);
    le_freemain(e, sizeof *e);
    le_heap_free(&caller->anyheap, link);
    return -1;
  }
  link->caller = (uint32_t)(uintptr_t)caller;
  link->stack = (uint32_t)(uintptr_t)stack;
  le_current = e;
  anchor_link(link, e, stack);
  const int rc = le_enter_on_stack(name, msg, len, (char *)stack + e->stack_init);
  le_current = (struct le_enclave *)(uintptr_t)link->caller;
  tpf_le_end(e); /* the host reads its statistics (the anchor's too) before they go */
  anchor_restore(link);
  enclave_heaps_term(e);
  le_freemain((void *)(uintptr_t)link->stack, e->stack_init);
  le_freemain(e, sizeof *e);
  le_heap_free(&le_current->anyheap, link);
  return rc;
}

unsigned long le_storage_available(int below) { return le_program() ? tpf_le_available(below) : 0; }
