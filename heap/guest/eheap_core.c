/* The ECB heap's core: what both variants share (the areas and their 1 MB frames,
   buffer headers and trailers, the checks that catch errors, AVL classes, the
   request statistics) and the C entry points. The variants' policies are in
   eheap_baseline.c and eheap_pj47265.c, reached through struct eheap_ops.
   Every function of the heap is named eheap_*, static ones too, except the C API
   (malloc, calloc, realloc, free, their 64-bit forms, tpf_eheap_tag/locate): a
   profile's rows name functions, and E1 counts the heap's cycles by those names
   (configs/sweeps/e1-tls.yaml), which a bare `check` or `take` elsewhere would join. */
#include <eheap.h>
#include <le_alloc.h>
#include <string.h>
#include <tpf.h>

#define EHEAP_RODATA __attribute__((section(".rodata.eheap,\"a\",@progbits #")))
/* Set by the control program before any ECB runs (see simplelock.c for why the
   section is given by hand: const volatile would otherwise go to writable .data). */
const volatile int eheap_algorithm EHEAP_RODATA = EHEAP_BASELINE;
const volatile uint32_t eheap_changes EHEAP_RODATA = 0;
const volatile uint32_t eheap_control_entries EHEAP_RODATA = 150;
const volatile uint32_t eheap_trace_entries EHEAP_RODATA = 256;
const volatile uint32_t eheap_thread_avl_max EHEAP_RODATA = 32;
const volatile uint32_t eheap_hash_buckets EHEAP_RODATA = 64;
const volatile uint32_t eheap_avl_sizes[2][EHEAP_AVLS] EHEAP_RODATA = {{64, 128, 256, 512, 1024},
                                                                      {32, 64, 128, 256, 512}};
const volatile uint32_t eheap_avl_counts[2][EHEAP_AVLS] EHEAP_RODATA = {{8, 8, 4, 4, 2}, {64, 64, 32, 16, 8}};
/* Where thread stacks are (TPF_EVM_STACK_TOP and the stride between them), so that a
   thread finds its slot from its stack pointer without a service. */
const volatile uint64_t eheap_stack_top EHEAP_RODATA = 0x7F000000;
const volatile uint64_t eheap_stack_stride EHEAP_RODATA = 0x110000;

_Static_assert(sizeof(struct eheap_entry) == EHEAP_ENTRY_BYTES, "control entry: 150 in five 4 KB frames");
_Static_assert(sizeof(struct eheap_block) == 16, "block header");
_Static_assert(sizeof(struct eheap_thread) == 256, "thread slot: one line");
_Static_assert(sizeof(struct eheap_tstats) == 512, "thread statistics: two lines");
_Static_assert(__builtin_offsetof(struct eheap_header, lock) == EHEAP_HEADER_LOCK_OFFSET, "lock line");
_Static_assert(__builtin_offsetof(struct eheap_header, threads) % 256 == 0, "thread lines");

#define HEADER ((struct eheap_header *)TPF_EVM_HEAP31)

/* The process's own (static storage is per process, shared by its threads): whether
   its heap is set up. Serialization (either variant's lock) is needed only once the
   process has threads (tpf_process_threaded): an ECB alone never waits for itself. */
static volatile int eheap_ready;

/* The process's policies, put together at its first request from its changes. */
static struct eheap_ops ops;

uint32_t eheap_carve(struct eheap_header *h, int area64, uint64_t cap, int avl);

uint64_t eheap_tod(void) {
  uint64_t t;
  __asm__ volatile("stckf %0" : "=Q"(t) : : "cc");
  return t;
}

static const struct eheap_ops *eheap_ops_of(const struct eheap_header *h) {
  (void)h;
  return &ops;
}

/* Each change: pj47265's policy if the process has it, else the baseline's. */
static void eheap_compose(uint32_t changes) {
  const struct eheap_ops *b = &eheap_baseline_ops, *p = &eheap_pj47265_ops;
#define EHEAP_PICK(change, field) ops.field = (changes & (change)) ? p->field : b->field
  EHEAP_PICK(EHEAP_CHANGE_LAZY_ENTRIES, init_part);
  EHEAP_PICK(EHEAP_CHANGE_LAZY_ENTRIES, new_entry);
  EHEAP_PICK(EHEAP_CHANGE_LIGHT_LOCK, lock);
  EHEAP_PICK(EHEAP_CHANGE_LIGHT_LOCK, unlock);
  EHEAP_PICK(EHEAP_CHANGE_LIFO, shared_put);
  EHEAP_PICK(EHEAP_CHANGE_THREAD_AVLS, thread_get);
  EHEAP_PICK(EHEAP_CHANGE_THREAD_AVLS, thread_put);
  EHEAP_PICK(EHEAP_CHANGE_LINE_ALIGN, align);
  EHEAP_PICK(EHEAP_CHANGE_THREAD_TRACE, trace);
  EHEAP_PICK(EHEAP_CHANGE_TAG_HASH, tag_add);
  EHEAP_PICK(EHEAP_CHANGE_TAG_HASH, tag_remove);
  EHEAP_PICK(EHEAP_CHANGE_TAG_HASH, tag_find);
#undef EHEAP_PICK
}

static unsigned eheap_thread_slot(void) {
  uint64_t sp;
  __asm__("lgr %0,15" : "=d"(sp));
  uint64_t below = eheap_stack_top > sp ? eheap_stack_top - sp : 0;
  uint64_t slot = below / eheap_stack_stride;
  return slot < EHEAP_THREADS ? (unsigned)slot : EHEAP_THREADS - 1;
}

static void eheap_fail(int check, const void *addr) __attribute__((noreturn));
static void eheap_fail(int check, const void *addr) {
  const uint64_t caller = eheap_ready ? HEADER->threads[eheap_thread_slot()].caller : 0;
  tpf_heap_error(check, addr, (const void *)caller);
  __builtin_trap(); /* not reached: the control program ends the ECB */
}

static uint64_t eheap_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* The first request of a process: its preallocated frame, the header, the table.
   Under the process's heap lock service, so that two threads never both set it up. */
static struct eheap_header *eheap_get(void) {
  struct eheap_header *h = HEADER;
  if (eheap_ready) return h;
  const int threaded = tpf_process_threaded;
  if (threaded) tpf_heap_lock();
  if (eheap_ready) {
    if (threaded) tpf_heap_unlock();
    return h;
  }
  if (tpf_heap_frame(0) != TPF_EVM_HEAP31) eheap_fail(EHEAP_ERR_EXHAUSTED, (void *)TPF_EVM_HEAP31);
  /* The frame is fresh (zeroes): only what is not zero is set. */
  h->magic = EHEAP_HEADER_MAGIC;
  h->variant = eheap_algorithm == EHEAP_PJ47265 ? EHEAP_PJ47265 : EHEAP_BASELINE;
  h->changes = eheap_changes & EHEAP_CHANGES_ALL;
  eheap_compose(h->changes);
  h->heap_class = (uint32_t)tpf_ecb_info(TPF_INFO_HEAP_CLASS) == EHEAP_CLASS_SSL ? EHEAP_CLASS_SSL : EHEAP_CLASS_APP;
  h->frames31 = 1;
  h->end31 = TPF_EVM_HEAP31 + EHEAP_FRAME;
  h->next31 = eheap_up(TPF_EVM_HEAP31 + sizeof(struct eheap_header), 256);
  h->next64 = h->end64 = TPF_EVM_HEAP64;
  h->trace_cap = eheap_trace_entries;
  h->trace = (uint64_t)eheap_internal_alloc(h, (uint64_t)h->trace_cap * sizeof(struct eheap_trace));
  h->large_head = EHEAP_NONE;
  for (int k = 0; k < EHEAP_AVLS; ++k) {
    h->avl_size[k] = eheap_avl_sizes[h->heap_class][k];
    h->avl_head[k] = h->avl_tail[k] = EHEAP_NONE;
    for (int t = 0; t < EHEAP_THREADS; ++t) h->threads[t].avl_head[k] = EHEAP_NONE; /* 0 is an entry */
  }
  /* The initial control table: the directory and its first part. */
  h->part_entries = eheap_control_entries;
  h->parts_cap = 16;
  h->parts = (uint64_t)eheap_internal_alloc(h, (uint64_t)h->parts_cap * 8);
  eheap_table_grow(h);
  /* The AVLs' preallocated buffers, on the shared lists. */
  const struct eheap_ops *o = eheap_ops_of(h);
  for (int k = 0; k < EHEAP_AVLS; ++k)
    for (uint32_t n = eheap_avl_counts[h->heap_class][k]; n > 0; --n) {
      uint32_t e = eheap_carve(h, 0, h->avl_size[k], k + 1);
      eheap_entry_at(h, e)->state = EHEAP_AVAIL;
      o->shared_put(h, k, e);
    }
  eheap_ready = 1;
  if (threaded) tpf_heap_unlock();
  return h;
}

/* Bytes from an area's carving pointer, growing the area by frames. Under the lock. */
static uint64_t eheap_take(struct eheap_header *h, int area64, uint64_t bytes, uint64_t align) {
  uint64_t *next = area64 ? &h->next64 : &h->next31, *end = area64 ? &h->end64 : &h->end31;
  uint64_t at = eheap_up(*next, align);
  while (at + bytes > *end) {
    uint64_t f = tpf_heap_frame(area64);
    if (f != *end) eheap_fail(EHEAP_ERR_EXHAUSTED, (void *)*end); /* the area is full */
    *end += EHEAP_FRAME;
    if (area64) ++h->frames64;
    else ++h->frames31;
  }
  *next = at + bytes;
  return at;
}

void *eheap_internal_alloc(struct eheap_header *h, uint64_t bytes) {
  return (void *)eheap_take(h, 0, bytes, 256);
}

void eheap_lock(struct eheap_header *h) { ops.lock(h); }
void eheap_unlock(struct eheap_header *h) { ops.unlock(h); }

void eheap_entry_init(struct eheap_entry *x) {
  *x = (struct eheap_entry){.next = EHEAP_NONE, .hnext = EHEAP_NONE, .state = EHEAP_FREE};
}

/* One more part of the control table, on its own 4 KB frames (IBM: the initial table
   takes five), the directory doubled when it is full. Under the lock. */
void eheap_table_grow(struct eheap_header *h) {
  const uint32_t n = h->entries_cap / h->part_entries;
  if (n == h->parts_cap) {
    uint64_t *bigger = eheap_internal_alloc(h, (uint64_t)h->parts_cap * 16);
    memcpy(bigger, (const void *)h->parts, (uint64_t)h->parts_cap * 8);
    h->parts = (uint64_t)bigger;
    h->parts_cap *= 2;
  }
  ((uint64_t *)h->parts)[n] = eheap_take(h, 0, (uint64_t)h->part_entries * sizeof(struct eheap_entry), 4096);
  const uint32_t first = h->entries_cap;
  h->entries_cap += h->part_entries;
  eheap_ops_of(h)->init_part(h, first, h->part_entries);
}

/* An AVL buffer for thread `t`: its own AVLs first (EHEAP_CHANGE_THREAD_AVLS, no lock,
   and then a look at the shared list before taking the lock for it), then the shared
   one. EHEAP_NONE: carve a new one. */
static uint32_t eheap_avl_get(struct eheap_header *h, int k, unsigned t) {
  const struct eheap_ops *o = eheap_ops_of(h);
  uint32_t e;
  if (o->thread_get) {
    e = o->thread_get(h, k, t);
    if (e != EHEAP_NONE || h->avl_head[k] == EHEAP_NONE) return e;
  }
  o->lock(h);
  e = h->avl_head[k];
  if (e != EHEAP_NONE) {
    h->avl_head[k] = eheap_entry_at(h, e)->next;
    if (h->avl_head[k] == EHEAP_NONE) h->avl_tail[k] = EHEAP_NONE;
    --h->avl_count[k];
  }
  o->unlock(h);
  return e;
}

/* A freed AVL buffer: onto the thread's own AVL while it has room, else the shared one. */
static void eheap_avl_put(struct eheap_header *h, int k, uint32_t e, unsigned t) {
  const struct eheap_ops *o = eheap_ops_of(h);
  if (o->thread_put && o->thread_put(h, k, e, t)) return;
  o->lock(h);
  o->shared_put(h, k, e);
  o->unlock(h);
}

/* A new buffer of `cap` bytes with its entry. Under the lock. */
uint32_t eheap_carve(struct eheap_header *h, int area64, uint64_t cap, int avl) {
  const struct eheap_ops *o = eheap_ops_of(h);
  uint32_t e = o->new_entry(h);
  uint64_t block = eheap_take(h, area64, sizeof(struct eheap_block) + eheap_up(cap, 8) + 8, o->align);
  struct eheap_entry *x = eheap_entry_at(h, e);
  x->addr = block + sizeof(struct eheap_block);
  x->cap = (uint32_t)cap;
  x->avl = (uint8_t)avl;
  x->area64 = (uint8_t)area64;
  x->next = EHEAP_NONE;
  struct eheap_block *b = (struct eheap_block *)block;
  b->magic = EHEAP_BLOCK_MAGIC;
  b->entry = e;
  return e;
}

static int eheap_avl_class(const struct eheap_header *h, uint64_t n) {
  for (int k = 0; k < EHEAP_AVLS; ++k)
    if (n <= h->avl_size[k]) return k;
  return -1;
}

static unsigned eheap_hist_class(uint64_t n) {
  return n > 1024 ? EHEAP_HIST - 1 : (unsigned)((n + 31) / 32) - (n != 0);
}

static void eheap_put_trailer(const struct eheap_entry *x) {
  const uint64_t t = EHEAP_TRAILER;
  memcpy((char *)x->addr + x->size, &t, 8);
}

static void *eheap_dispense(struct eheap_header *h, uint64_t n, int area64, int op) {
  const unsigned t = eheap_thread_slot();
  struct eheap_tstats *s = &h->tstats[t];
  const struct eheap_ops *o = eheap_ops_of(h);
  if (n == 0) n = 1;
  if (n > 0x7FFFFFFFu) eheap_fail(EHEAP_ERR_EXHAUSTED, (void *)n);
  ++s->requests[eheap_hist_class(n)];
  const int k = area64 ? -1 : eheap_avl_class(h, n);
  uint32_t e = EHEAP_NONE;
  if (k >= 0) {
    e = eheap_avl_get(h, k, t);
    if (e == EHEAP_NONE) {
      o->lock(h);
      e = eheap_carve(h, 0, h->avl_size[k], k + 1);
      o->unlock(h);
    }
    ++s->dispensed[k];
  } else {
    /* Larger than AVL5 (or 64-bit): the first freed one big enough, else a new one. */
    o->lock(h);
    uint32_t *pp = &h->large_head;
    while (*pp != EHEAP_NONE) {
      struct eheap_entry *c = eheap_entry_at(h, *pp);
      if (c->cap >= n && c->area64 == (uint8_t)area64) break;
      pp = &c->next;
    }
    if (*pp != EHEAP_NONE) {
      e = *pp;
      *pp = eheap_entry_at(h, e)->next;
    } else {
      e = eheap_carve(h, area64, n, 0);
    }
    o->unlock(h);
    ++s->large_dispensed;
  }
  struct eheap_entry *x = eheap_entry_at(h, e);
  x->state = EHEAP_USED;
  x->size = (uint32_t)n;
  x->tag = 0;
  x->next = EHEAP_NONE;
  ((struct eheap_block *)x->addr - 1)->size = n;
  eheap_put_trailer(x);
  if (!h->ever_used) h->ever_used = 1;
  o->trace(h, t, op, x->addr, n);
  return (void *)x->addr;
}

/* The checks every pointer handed back goes through; returns its entry. */
static uint32_t eheap_check(struct eheap_header *h, void *p) {
  const uint64_t a = (uint64_t)p;
  const int in31 = a >= TPF_EVM_HEAP31 + sizeof(struct eheap_block) && a < h->next31;
  const int in64 = a >= TPF_EVM_HEAP64 + sizeof(struct eheap_block) && a < h->next64;
  if (!eheap_ready || (a & 7) || !(in31 || in64)) eheap_fail(EHEAP_ERR_NOT_OURS, p);
  const struct eheap_block *b = (const struct eheap_block *)p - 1;
  if (b->magic != EHEAP_BLOCK_MAGIC || b->entry >= h->entries_used) eheap_fail(EHEAP_ERR_NOT_OURS, p);
  struct eheap_entry *x = eheap_entry_at(h, b->entry);
  if (x->addr != a) eheap_fail(EHEAP_ERR_NOT_OURS, p);
  if (x->state != EHEAP_USED) eheap_fail(EHEAP_ERR_DOUBLE_FREE, p);
  uint64_t t;
  memcpy(&t, (char *)p + x->size, 8);
  if (t != EHEAP_TRAILER || b->size != x->size) eheap_fail(EHEAP_ERR_OVERRUN, (char *)p + x->size);
  return b->entry;
}

static void eheap_give_back(struct eheap_header *h, uint32_t e, unsigned t) {
  const struct eheap_ops *o = eheap_ops_of(h);
  struct eheap_entry *x = eheap_entry_at(h, e);
  struct eheap_tstats *s = &h->tstats[t];
  o->trace(h, t, EHEAP_OP_FREE, x->addr, x->size);
  if (x->tag) {
    o->lock(h);
    o->tag_remove(h, e);
    o->unlock(h);
    x->tag = 0;
  }
  if (x->avl) {
    x->state = EHEAP_AVAIL;
    ++s->freed[x->avl - 1];
    eheap_avl_put(h, x->avl - 1, e, t);
  } else {
    x->state = EHEAP_LARGE;
    ++s->large_freed;
    o->lock(h);
    x->next = h->large_head;
    h->large_head = e;
    o->unlock(h);
  }
}

/* Who called: kept for the dump if the call fails a check. */
#define CALLER(h) ((h)->threads[eheap_thread_slot()].caller = (uint64_t)__builtin_return_address(0))

/* A program on Language Environment storage (system.le.programs) has LE's heaps
   instead (le/guest/le_alloc.h): the 31-bit entry points ask, at the cost of a load and
   a compare; the 64-bit ones stay the ECB heap's (LE's HEAP64 is not modelled). */
void *malloc(size_t n) {
  if (le_program()) return le_malloc(n);
  struct eheap_header *h = eheap_get();
  CALLER(h);
  ++h->tstats[eheap_thread_slot()].mallocs;
  return eheap_dispense(h, n, 0, EHEAP_OP_MALLOC);
}

void *malloc64(size_t n) {
  struct eheap_header *h = eheap_get();
  CALLER(h);
  ++h->tstats[eheap_thread_slot()].malloc64s;
  return eheap_dispense(h, n, 1, EHEAP_OP_MALLOC);
}

static void *eheap_zeroed(void *p, size_t bytes) {
  memset(p, 0, bytes);
  return p;
}

static void *eheap_zalloc(size_t n, size_t size, int area64, uint64_t caller) {
  struct eheap_header *h = eheap_get();
  h->threads[eheap_thread_slot()].caller = caller;
  if (size && n > (size_t)0x7FFFFFFF / size) eheap_fail(EHEAP_ERR_EXHAUSTED, (void *)n);
  ++h->tstats[eheap_thread_slot()].callocs;
  return eheap_zeroed(eheap_dispense(h, n * size, area64, EHEAP_OP_MALLOC), n * size);
}

void *calloc(size_t n, size_t size) {
  if (le_program()) return le_calloc(n, size);
  return eheap_zalloc(n, size, 0, (uint64_t)__builtin_return_address(0));
}
void *calloc64(size_t n, size_t size) { return eheap_zalloc(n, size, 1, (uint64_t)__builtin_return_address(0)); }

void free(void *p) {
  if (le_program()) return le_free(p);
  if (!p) return;
  struct eheap_header *h = HEADER;
  const unsigned t = eheap_thread_slot();
  if (eheap_ready) h->threads[t].caller = (uint64_t)__builtin_return_address(0);
  const uint32_t e = eheap_check(h, p);
  ++h->tstats[t].frees;
  eheap_give_back(h, e, t);
}

static void *eheap_resize(void *p, size_t n, int area64, uint64_t caller) {
  if (!p) return area64 ? malloc64(n) : malloc(n);
  struct eheap_header *h = HEADER;
  const unsigned t = eheap_thread_slot();
  if (eheap_ready) h->threads[t].caller = caller;
  const uint32_t e = eheap_check(h, p);
  ++h->tstats[t].reallocs;
  if (n == 0) {
    eheap_give_back(h, e, t);
    return 0;
  }
  struct eheap_entry *x = eheap_entry_at(h, e);
  if (n <= x->cap && (int)x->area64 == area64) { /* fits: move the trailer */
    ++h->tstats[t].requests[eheap_hist_class(n)];
    x->size = (uint32_t)n;
    ((struct eheap_block *)p - 1)->size = n;
    eheap_put_trailer(x);
    eheap_ops_of(h)->trace(h, t, EHEAP_OP_REALLOC, x->addr, n);
    return p;
  }
  void *q = eheap_dispense(h, n, area64, EHEAP_OP_REALLOC);
  memcpy(q, p, x->size < n ? x->size : n);
  eheap_give_back(h, e, t);
  return q;
}

void *realloc(void *p, size_t n) {
  if (le_program()) return le_realloc(p, n);
  return eheap_resize(p, n, 0, (uint64_t)__builtin_return_address(0));
}
void *realloc64(void *p, size_t n) { return eheap_resize(p, n, 1, (uint64_t)__builtin_return_address(0)); }

static uint64_t eheap_pack(const char *name) {
  uint64_t v = 0;
  size_t n = name ? strlen(name) : 0;
  if (n == 0 || n > 8) return 0;
  memcpy(&v, name, n); /* big-endian: the name reads left to right, zero padded */
  return v;
}

int tpf_eheap_tag(void *buffer, const char *name) {
  const uint64_t tag = eheap_pack(name);
  if (!tag) return -1;
  struct eheap_header *h = HEADER;
  const unsigned t = eheap_thread_slot();
  if (eheap_ready) h->threads[t].caller = (uint64_t)__builtin_return_address(0);
  const uint32_t e = eheap_check(h, buffer);
  const struct eheap_ops *o = eheap_ops_of(h);
  struct eheap_entry *x = eheap_entry_at(h, e);
  ++h->tstats[t].tags;
  o->lock(h);
  if (x->tag) o->tag_remove(h, e);
  x->tag = tag;
  o->tag_add(h, e);
  o->unlock(h);
  o->trace(h, t, EHEAP_OP_TAG, x->addr, x->size);
  return 0;
}

void *tpf_eheap_locate(const char *name) {
  const uint64_t tag = eheap_pack(name);
  if (!tag || !eheap_ready) return 0;
  struct eheap_header *h = HEADER;
  const unsigned t = eheap_thread_slot();
  const struct eheap_ops *o = eheap_ops_of(h);
  ++h->tstats[t].locates;
  o->lock(h);
  const uint32_t e = o->tag_find(h, tag, t);
  o->unlock(h);
  return e == EHEAP_NONE ? 0 : (void *)eheap_entry_at(h, e)->addr;
}
