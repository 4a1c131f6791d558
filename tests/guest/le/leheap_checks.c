/* The guest LE heap's checks and fills, run by `tpfemu exec` (tests/CMakeLists.txt,
   le.heap_checks): a bad free (double free, a prefix naming no segment, a pointer that
   is not the heap's, an element reaching past its segment) is refused with its code
   and counted, and the heap goes on as if it had not happened; STORAGE's heap_alloc
   and heap_free fill bytes are written; FREE gives back an emptied increment segment
   and never the initial one; an enclave's end (le_heap_term) gives back every segment.
   The heap pools (lepools.c, HEAPPOOLS(ON)): cells of the
   smallest pool that fits, extents from the heap, a freed cell reused first, a second
   free and a prefix naming no pool refused and counted. Prints "check ... ok" lines, or
   what failed, and exits 1 on a failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "leheap.h"
#include "lepools.h"

static uint64_t getmains, freemains;

void *le_getmain(uint32_t bytes, int below) {
  if (below) return 0;
  void *p = sbrk((long)bytes);
  if (p == (void *)-1) return 0;
  getmains++;
  return p;
}

void le_freemain(void *address, uint32_t bytes) {
  (void)address, (void)bytes;
  freemains++;
}

static int failures;
static void check(const char *what, int ok) {
  printf("check %s %s\n", what, ok ? "ok" : "FAILED");
  if (!ok) failures++;
}

/* The whole initial segment is one free element again. */
static int empty(const struct leheap_cb *h) {
  const struct leheap_seg *s = (const struct leheap_seg *)(uintptr_t)h->first;
  const struct leheap_free *f = (const struct leheap_free *)(uintptr_t)s->root;
  return s->in_use == 0 && f && s->root == h->first + LEHEAP_SEG_HEADER &&
         f->length == s->length - LEHEAP_SEG_HEADER && !f->left && !f->right;
}

int main(void) {
  static struct leheap_cb h;
  h.init_size = 1024, h.incr_size = 1024, h.disposition = LEHEAP_FREE, h.fit = LEHEAP_FIRST_FIT;
  h.location = LEHEAP_ANYWHERE, h.alloc_fill = 0xAB, h.free_fill = 0xCD;
  check("init", le_heap_init(&h) == 0 && getmains == 1);

  unsigned char *a = le_heap_get(&h, 40), *b = le_heap_get(&h, 40), *c = le_heap_get(&h, 40);
  int filled = 1;
  for (int i = 0; i < 40; i++) filled &= a[i] == 0xAB;
  check("heap_alloc fill", filled);
  check("first fit in address order", b == a + 48 && c == b + 48);

  /* b coalesces into a's free element; its prefix is still there: a double free. */
  check("free", le_heap_free(&h, a) == LEHEAP_OK && le_heap_free(&h, b) == LEHEAP_OK);
  filled = 1;
  for (int i = 16; i < 40; i++) filled &= b[i] == 0xCD;
  check("heap_free fill", filled);
  check("double free refused", le_heap_free(&h, b) == LEHEAP_ERR_DOUBLE_FREE);
  /* a is the free element's start: its prefix now holds the free element's length. */
  check("free of a free element's start refused", le_heap_free(&h, a) != LEHEAP_OK);
  long local;
  check("pointer outside the heap refused", le_heap_free(&h, &local) == LEHEAP_ERR_PREFIX);
  check("pointer inside an element refused", le_heap_free(&h, c + 16) == LEHEAP_ERR_PREFIX);
  struct leheap_prefix *pc = (struct leheap_prefix *)(c - LEHEAP_PREFIX);
  const uint32_t saved = pc->length;
  pc->length = 4096;
  check("element past its segment refused", le_heap_free(&h, c) == LEHEAP_ERR_RANGE);
  pc->length = saved;
  check("errors counted", h.errors == 5 && h.frees == 2);

  /* Nothing was changed: c's free coalesces with both sides into one element. */
  check("free after the refusals", le_heap_free(&h, c) == LEHEAP_OK && empty(&h) && h.in_use == 0);

  /* FREE: an emptied increment segment goes back, the initial one stays. */
  void *big = le_heap_get(&h, 2000);
  check("large request in a segment of its own", getmains == 2 && h.last != h.first &&
        ((struct leheap_seg *)(uintptr_t)h.last)->length == 2008 + LEHEAP_SEG_HEADER);
  void *small = le_heap_get(&h, 8);
  check("small request from the initial segment", (uint32_t)(uintptr_t)small < h.first + 1024);
  check("emptied increment given back",
        le_heap_free(&h, big) == LEHEAP_OK && freemains == 1 && h.segs_freed == 1 && h.last == h.first);
  check("initial segment kept", le_heap_free(&h, small) == LEHEAP_OK && freemains == 1 && empty(&h));
  check("freed segment's prefix refused", le_heap_free(&h, big) == LEHEAP_ERR_PREFIX);
  check("zero-byte get refused", le_heap_get(&h, 0) == 0 && h.get_failures == 1);

  /* An enclave's end: every segment goes back, the initial one too; the counters stay
     for RPTSTG, and a heap never begun gives back nothing. */
  le_heap_get(&h, 3000);
  le_heap_get(&h, 3000);
  const uint64_t held = getmains - freemains, gets = h.gets;
  le_heap_term(&h);
  check("enclave end gives back every segment", held == 3 && getmains == freemains && !h.first && h.gets == gets);
  static struct leheap_cb never;
  le_heap_term(&never);
  check("a heap never begun gives back nothing", getmains == freemains);

  /* Heap pools in front of a KEEP heap of 4K: cells of 16 and 64 bytes, 10% of 4096
     a extent: 5 cells of 24 bytes (409 / 24 = 17), 4 of 72 (409 / 72 = 5). */
  static struct leheap_cb ph;
  static struct lepools_cb pp;
  ph.init_size = ph.incr_size = 4096, ph.disposition = LEHEAP_KEEP, ph.fit = LEHEAP_FIRST_FIT;
  ph.location = LEHEAP_ANYWHERE, ph.alloc_fill = ph.free_fill = LEHEAP_FILL_NONE;
  pp.on = 1, pp.count = 2, pp.heap_init = 4096;
  pp.pools[0].cell_size = 16, pp.pools[0].percent = 10, pp.pools[1].cell_size = 64, pp.pools[1].percent = 10;
  check("pools init", le_heap_init(&ph) == 0);
  le_pools_init(&pp);
  check("cells per extent", pp.pools[0].cells_per_extent == 17 && pp.pools[1].cells_per_extent == 5 &&
                                pp.largest == 64);
  char *x = le_pools_get(&pp, &ph, 10), *y = le_pools_get(&pp, &ph, 16), *z = le_pools_get(&pp, &ph, 17);
  check("smallest pool that fits", y == x + 24 && pp.pools[0].gets == 2 && pp.pools[1].gets == 1);
  check("an extent each, from the heap", ph.gets == 2 && pp.pools[0].extents == 1 && pp.pools[1].extents == 1 &&
                                             ph.in_use == leheap_element_length(17 * 24) + leheap_element_length(5 * 72));
  const struct lepools_prefix *px = (const struct lepools_prefix *)(x - LEPOOLS_PREFIX);
  check("the prefix names the pool", px->pool == (uint32_t)(uintptr_t)&pp.pools[0] && LEPOOLS_IS_CELL(px->tag));
  check("free to the pool", le_pools_free(&pp, x) == LEPOOLS_OK && pp.pools[0].in_use == 1 && pp.pools[0].max_used == 2);
  check("second free refused", le_pools_free(&pp, x) == LEPOOLS_ERR_DOUBLE_FREE && pp.errors == 1);
  check("freed cell reused first", le_pools_get(&pp, &ph, 1) == x);
  struct lepools_prefix *pz = (struct lepools_prefix *)(z - LEPOOLS_PREFIX);
  const uint32_t owner = pz->pool;
  pz->pool = (uint32_t)(uintptr_t)&pp.pools[0] + 4;
  check("prefix naming no pool refused", le_pools_free(&pp, z) == LEPOOLS_ERR_NOT_OURS && pp.errors == 2);
  pz->pool = owner;
  check("then freed", le_pools_free(&pp, z) == LEPOOLS_OK && pp.pools[1].in_use == 0);
  for (int i = 0; i < 6; i++) le_pools_get(&pp, &ph, 64); /* z again, its extent's other 4, one more */
  check("a full pool gets a second extent", pp.pools[1].extents == 2 && pp.pools[1].max_used == 6 && ph.gets == 3);
  printf("%s\n", failures ? "LE heap checks FAILED" : "LE heap checks passed");
  return failures ? 1 : 0;
}
