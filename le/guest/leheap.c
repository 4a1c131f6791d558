/* The LE heap (le/guest/leheap.h): a chain of segments, in each a Cartesian tree of
   free elements (by address a search tree, by length a max-heap). Every step of a get
   or a free is guest code, so the search through a long chain of small segments (E4's
   untuned HEAP(32K,32K)) costs what it executes. */
#include <string.h>

#include "leheap.h"

/* Heap addresses are 31-bit fields; the guest's pointers are 64-bit. */
typedef uint32_t la_t;
static inline struct leheap_seg *SEG(la_t a) { return (struct leheap_seg *)(uintptr_t)a; }
static inline struct leheap_free *NODE(la_t a) { return (struct leheap_free *)(uintptr_t)a; }
static inline struct leheap_prefix *PREFIX(la_t a) { return (struct leheap_prefix *)(uintptr_t)a; }
static inline la_t LA(const void *p) { return (la_t)(uintptr_t)p; }

/* ---- The free tree ---------------------------------------------------------------- */

/* Splits the tree t into the elements below address x (*l) and above it (*r). */
static void tree_split(la_t t, la_t x, la_t *l, la_t *r) {
  while (t) {
    if (t < x) {
      *l = t;
      l = &NODE(t)->right;
      t = NODE(t)->right;
    } else {
      *r = t;
      r = &NODE(t)->left;
      t = NODE(t)->left;
    }
  }
  *l = 0;
  *r = 0;
}

/* Joins a (every address below b's) and b into *link, keeping the max-heap. */
static void tree_merge(la_t *link, la_t a, la_t b) {
  while (a && b) {
    if (NODE(a)->length >= NODE(b)->length) {
      *link = a;
      link = &NODE(a)->right;
      a = NODE(a)->right;
    } else {
      *link = b;
      link = &NODE(b)->left;
      b = NODE(b)->left;
    }
  }
  *link = a ? a : b;
}

/* x (its length set) into the tree: below every node at least as long, on its address
   path; what was there is split around it. */
static void tree_insert(la_t *root, la_t x) {
  la_t *link = root;
  const uint32_t len = NODE(x)->length;
  while (*link && NODE(*link)->length >= len) link = x < *link ? &NODE(*link)->left : &NODE(*link)->right;
  tree_split(*link, x, &NODE(x)->left, &NODE(x)->right);
  NODE(x)->reserved = 0;
  *link = x;
}

/* The link that points to node x (which is in the tree). */
static la_t *tree_link(la_t *root, la_t x) {
  la_t *link = root;
  while (*link != x) link = x < *link ? &NODE(*link)->left : &NODE(*link)->right;
  return link;
}

static void tree_remove(la_t *link) {
  const la_t x = *link;
  tree_merge(link, NODE(x)->left, NODE(x)->right);
}

/* The node *link, its length lowered, sinks below any longer child (a rotation each
   level keeps the address order). */
static void tree_sift_down(la_t *link) {
  const la_t x = *link;
  const uint32_t len = NODE(x)->length;
  for (;;) {
    const la_t l = NODE(x)->left, r = NODE(x)->right;
    la_t big = l;
    if (r && (!l || NODE(r)->length > NODE(l)->length)) big = r;
    if (!big || NODE(big)->length <= len) return;
    if (big == l) {
      NODE(x)->left = NODE(l)->right;
      NODE(l)->right = x;
      *link = l;
      link = &NODE(l)->right;
    } else {
      NODE(x)->right = NODE(r)->left;
      NODE(r)->left = x;
      *link = r;
      link = &NODE(r)->left;
    }
  }
}

/* First fit: the lowest-addressed element of at least `need` bytes in a tree whose
   root fits. Going left while the left child fits: a left child too short means no
   element of its subtree fits (it is their longest), so this node is the lowest. */
static la_t *fit_first(la_t *root, uint32_t need) {
  la_t *link = root;
  for (;;) {
    const la_t l = NODE(*link)->left;
    if (!l || NODE(l)->length < need) return link;
    link = &NODE(*link)->left;
  }
}

/* Best fit: in address order through the subtrees whose root fits (a subtree whose
   root is too short holds nothing that fits); a strictly shorter element replaces the
   best, so the lowest-addressed of equals wins; an exact fit ends the search. Returns
   1 on an exact fit. */
static int best_walk(la_t t, uint32_t need, la_t *best) {
  while (t && NODE(t)->length >= need) {
    if (best_walk(NODE(t)->left, need, best)) return 1;
    if (!*best || NODE(t)->length < NODE(*best)->length) {
      *best = t;
      if (NODE(t)->length == need) return 1;
    }
    t = NODE(t)->right;
  }
  return 0;
}

static la_t *fit_best(la_t *root, uint32_t need) {
  la_t best = 0;
  best_walk(*root, need, &best);
  return tree_link(root, best);
}

/* ---- Segments -------------------------------------------------------------------- */

static void note_high_water(struct leheap_cb *cb) {
  const uint64_t used = cb->in_use + (uint64_t)LEHEAP_SEG_HEADER * (cb->segs_alloc - cb->segs_freed);
  if (used > cb->total_used) cb->total_used = used;
}

/* A new segment of `length` bytes at the chain's end, all of it one free element. */
static la_t segment_new(struct leheap_cb *cb, uint32_t length) {
  void *p = le_getmain(length, cb->location == LEHEAP_BELOW);
  if (!p) return 0;
  const la_t s = LA(p);
  struct leheap_seg *seg = SEG(s);
  seg->eye = LEHEAP_SEG_EYE;
  seg->next = 0;
  seg->prev = cb->last;
  seg->heap = LA(cb);
  seg->length = length;
  seg->in_use = 0;
  seg->reserved = 0;
  const la_t e = s + LEHEAP_SEG_HEADER;
  NODE(e)->length = length - LEHEAP_SEG_HEADER;
  NODE(e)->left = NODE(e)->right = NODE(e)->reserved = 0;
  seg->root = e;
  if (cb->last) SEG(cb->last)->next = s;
  else cb->first = s;
  cb->last = s;
  if (!cb->lo || s < cb->lo) cb->lo = s;
  if (s + length > cb->hi) cb->hi = s + length;
  cb->segs_alloc++;
  return s;
}

static void segment_release(struct leheap_cb *cb, la_t s) {
  struct leheap_seg *seg = SEG(s);
  if (seg->prev) SEG(seg->prev)->next = seg->next;
  if (seg->next) SEG(seg->next)->prev = seg->prev;
  else cb->last = seg->prev;
  seg->eye = 0; /* a stale prefix naming it fails the check while the storage lasts */
  cb->segs_freed++;
  le_freemain(seg, seg->length);
}

/* ---- The interface --------------------------------------------------------------- */

int le_heap_init(struct leheap_cb *cb) {
  cb->eye = LEHEAP_CB_EYE;
  cb->first = cb->last = cb->lo = cb->hi = 0;
  cb->init_size = leheap_segment_option(cb->init_size);
  cb->incr_size = leheap_segment_option(cb->incr_size);
  cb->gets = cb->frees = cb->segs_alloc = cb->segs_freed = 0;
  cb->total_used = cb->in_use = cb->errors = cb->get_failures = 0;
  if (!segment_new(cb, cb->init_size)) return -1;
  note_high_water(cb);
  return 0;
}

/* An ending enclave's heap: every segment goes back, the initial one too (the heap
   ends with it). The counters stay for the report; a heap never begun has none. */
void le_heap_term(struct leheap_cb *cb) {
  if (cb->eye != LEHEAP_CB_EYE) return;
  la_t s = cb->first;
  while (s) {
    const la_t next = SEG(s)->next;
    SEG(s)->eye = 0;
    le_freemain(SEG(s), SEG(s)->length);
    s = next;
  }
  cb->first = cb->last = 0;
}

void *le_heap_get(struct leheap_cb *cb, uint32_t n) {
  if (n == 0 || n > LEHEAP_MAX_REQUEST) {
    cb->get_failures++;
    return 0;
  }
  const uint32_t need = leheap_element_length(n);
  la_t s = cb->first;
  while (s && (!SEG(s)->root || NODE(SEG(s)->root)->length < need)) s = SEG(s)->next;
  if (!s) s = segment_new(cb, leheap_new_segment_length(need, cb->incr_size));
  if (!s) {
    cb->get_failures++;
    return 0;
  }
  struct leheap_seg *seg = SEG(s);
  la_t *link = cb->fit == LEHEAP_BEST_FIT ? fit_best(&seg->root, need) : fit_first(&seg->root, need);
  const la_t e = *link;
  uint32_t len = NODE(e)->length;
  if (len - need < LEHEAP_MIN_ELEMENT) {
    tree_remove(link); /* the remainder could not be a free element: the whole is given */
  } else {
    /* The request takes the low part; the remainder takes the element's place in the
       tree (the same neighbours by address) and sinks to its new length. */
    const la_t rest = e + need;
    NODE(rest)->length = len - need;
    NODE(rest)->left = NODE(e)->left;
    NODE(rest)->right = NODE(e)->right;
    NODE(rest)->reserved = 0;
    *link = rest;
    tree_sift_down(link);
    len = need;
  }
  PREFIX(e)->seg = s;
  PREFIX(e)->length = len;
  seg->in_use += len;
  cb->in_use += len;
  cb->gets++;
  note_high_water(cb);
  void *user = (void *)(uintptr_t)(e + LEHEAP_PREFIX);
  if (cb->alloc_fill != LEHEAP_FILL_NONE) memset(user, (int)cb->alloc_fill, len - LEHEAP_PREFIX);
  return user;
}

int le_heap_free(struct leheap_cb *cb, void *p) {
  if (!p) return LEHEAP_OK;
  const la_t e = LA(p) - LEHEAP_PREFIX;
  int err = LEHEAP_ERR_PREFIX;
  /* The pointer: below 4 GB (its 4-byte form would alias another address; LE's 31-bit
     heap keeps its addresses below 2 GB, and so does every environment here but the
     TPF image, whose LE region lies at 2 to 4 GB: TPF_EVM_LE) and inside the segments
     this heap got. The prefix: its segment one of them too (so nothing
     outside them is read), with a header naming this heap; its length a whole number
     of 8-byte units. */
  if ((uintptr_t)p > 0xFFFFFFFFu || (LA(p) & (LEHEAP_ALIGN - 1)) || LA(p) < cb->lo + LEHEAP_SEG_HEADER + LEHEAP_PREFIX ||
      LA(p) >= cb->hi)
    goto bad;
  const la_t s = PREFIX(e)->seg;
  const uint32_t len = PREFIX(e)->length;
  if ((s & (LEHEAP_ALIGN - 1)) || s < cb->lo || s > cb->hi - LEHEAP_MIN_SEGMENT) goto bad;
  struct leheap_seg *seg = SEG(s);
  if (seg->eye != LEHEAP_SEG_EYE || seg->heap != LA(cb)) goto bad;
  if ((len & (LEHEAP_ALIGN - 1)) || len < LEHEAP_MIN_ELEMENT) goto bad;
  err = LEHEAP_ERR_RANGE;
  if (e < s + LEHEAP_SEG_HEADER || e > s + seg->length || len > s + seg->length - e) goto bad;
  /* Its free neighbours by address, from one walk down the tree: the nearest free
     element below and above. Either overlapping it means it is (partly) free already. */
  la_t pred = 0, succ = 0;
  for (la_t t = seg->root; t;) {
    if (t < e) {
      pred = t;
      t = NODE(t)->right;
    } else {
      succ = t;
      t = NODE(t)->left;
    }
  }
  err = LEHEAP_ERR_DOUBLE_FREE;
  if ((pred && pred + NODE(pred)->length > e) || (succ && succ < e + len)) goto bad;

  if (cb->free_fill != LEHEAP_FILL_NONE) memset(p, (int)cb->free_fill, len - LEHEAP_PREFIX);
  seg->in_use -= len;
  cb->in_use -= len;
  cb->frees++;
  /* Coalesce: the neighbours that touch it leave the tree; the whole goes back in. */
  la_t x = e;
  uint32_t xlen = len;
  if (succ && succ == e + len) {
    xlen += NODE(succ)->length;
    tree_remove(tree_link(&seg->root, succ));
  }
  if (pred && pred + NODE(pred)->length == e) {
    xlen += NODE(pred)->length;
    tree_remove(tree_link(&seg->root, pred));
    x = pred;
  }
  NODE(x)->length = xlen;
  tree_insert(&seg->root, x);
  if (seg->in_use == 0 && s != cb->first && cb->disposition == LEHEAP_FREE) segment_release(cb, s);
  return LEHEAP_OK;
bad:
  cb->errors++;
  return err;
}
