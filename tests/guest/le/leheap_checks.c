/* The guest LE heap's checks and fills, run by `tpfemu exec` (tests/CMakeLists.txt,
   le.heap_checks): a bad free (double free, a prefix naming no segment, a pointer that
   is not the heap's, an element reaching past its segment) is refused with its code
   and counted, and the heap goes on as if it had not happened; STORAGE's heap_alloc
   and heap_free fill bytes are written; FREE gives back an emptied increment segment
   and never the initial one; an enclave's end (le_heap_term) gives back every segment. Prints "check ... ok" lines, or what failed, and exits 1
   on a failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "leheap.h"

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
  printf("%s\n", failures ? "LE heap checks FAILED" : "LE heap checks passed");
  return failures ? 1 : 0;
}
