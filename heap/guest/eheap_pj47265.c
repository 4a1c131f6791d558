/* pj47265: the ECB heap with APAR PJ47265. Control entries are initialized when a
   buffer first needs one; tagged buffers are found through a hash table that doubles
   when it holds twice as many tags as buckets; buffers start on 256-byte lines (no
   two share one); available lists are LIFO (the buffer freed last, still in the
   cache, is dispensed first); each thread has its own small AVLs in front of the
   shared ones and its own trace table, so most requests take no lock; and the lock,
   when needed, is a word in guest storage (CS, a read-only spin, then a wait on the
   word) instead of an SVC. */
#include <eheap.h>
#include <tpf.h>

/* Nothing for a new part: new_entry initializes each entry as a buffer first needs it. */
static void eheap_pj47265_init_part(struct eheap_header *h, uint32_t first, uint32_t n) { (void)h, (void)first, (void)n; }

static uint32_t eheap_pj47265_new_entry(struct eheap_header *h) {
  if (h->entries_used == h->entries_cap) eheap_table_grow(h);
  const uint32_t e = h->entries_used++;
  eheap_entry_init(eheap_entry_at(h, e));
  return e;
}

#define SPINS 200 /* read-only spins before waiting on the word */

static void eheap_pj47265_lock(struct eheap_header *h) {
  if (!tpf_process_threaded) return;
  for (;;) {
    if (h->lock == 0 && __sync_bool_compare_and_swap(&h->lock, 0, 1)) return;
    int n = SPINS;
    while (h->lock != 0 && --n > 0) continue;
    if (n == 0) {
      __sync_fetch_and_add(&h->lock_sleepers, 1);
      tpf_word_wait(&h->lock, 1);
      __sync_fetch_and_sub(&h->lock_sleepers, 1);
    }
  }
}

static void eheap_pj47265_unlock(struct eheap_header *h) {
  if (!tpf_process_threaded) return;
  __sync_synchronize();
  h->lock = 0;
  __asm__ volatile("bcr 15,0" : : : "memory");
  if (h->lock_sleepers) tpf_word_wake(&h->lock, 1);
}

/* The thread's own AVLs: stacks (the buffer freed last, still in the cache, first). */
static uint32_t eheap_pj47265_thread_get(struct eheap_header *h, int k, unsigned thread) {
  struct eheap_thread *t = &h->threads[thread];
  const uint32_t e = t->avl_head[k];
  if (e != EHEAP_NONE) {
    t->avl_head[k] = eheap_entry_at(h, e)->next;
    --t->avl_count[k];
  }
  return e;
}

static int eheap_pj47265_thread_put(struct eheap_header *h, int k, uint32_t e, unsigned thread) {
  struct eheap_thread *t = &h->threads[thread];
  if (t->avl_count[k] >= eheap_thread_avl_max) return 0;
  eheap_entry_at(h, e)->next = t->avl_head[k];
  t->avl_head[k] = e;
  ++t->avl_count[k];
  return 1;
}

/* LIFO: to the head. */
static void eheap_pj47265_shared_put(struct eheap_header *h, int k, uint32_t e) {
  eheap_entry_at(h, e)->next = h->avl_head[k];
  if (h->avl_head[k] == EHEAP_NONE) h->avl_tail[k] = e;
  h->avl_head[k] = e;
  ++h->avl_count[k];
}

static void eheap_pj47265_trace(struct eheap_header *h, unsigned thread, int op, uint64_t addr, uint64_t size) {
  struct eheap_thread *th = &h->threads[thread];
  if (!th->trace) { /* its own table, on first use */
    eheap_lock(h); /* the process's lock, whichever it is: carving is under it */
    th->trace = (uint64_t)eheap_internal_alloc(h, (uint64_t)h->trace_cap * sizeof(struct eheap_trace));
    eheap_unlock(h);
  }
  struct eheap_trace *t = (struct eheap_trace *)th->trace + th->trace_next++ % h->trace_cap;
  t->tod = eheap_tod();
  t->addr = addr;
  t->size = (uint32_t)size;
  t->op = (uint16_t)op;
  t->thread = (uint16_t)thread;
}

static uint32_t eheap_pj47265_bucket(const struct eheap_header *h, uint64_t tag) {
  return (uint32_t)((tag * 0x9E3779B97F4A7C15ULL) >> 32) & (h->hash_buckets - 1);
}

static void eheap_pj47265_rehash(struct eheap_header *h, uint32_t buckets) {
  uint32_t *fresh = eheap_internal_alloc(h, (uint64_t)buckets * 4);
  for (uint32_t b = 0; b < buckets; ++b) fresh[b] = EHEAP_NONE;
  uint32_t *old = (uint32_t *)h->hash;
  const uint32_t old_n = old ? h->hash_buckets : 0;
  h->hash = (uint64_t)fresh;
  h->hash_buckets = buckets;
  for (uint32_t b = 0; b < old_n; ++b)
    for (uint32_t e = old[b]; e != EHEAP_NONE;) {
      struct eheap_entry *x = eheap_entry_at(h, e);
      const uint32_t next = x->hnext, nb = eheap_pj47265_bucket(h, x->tag);
      x->hnext = fresh[nb];
      fresh[nb] = e;
      e = next;
    }
}

static void eheap_pj47265_tag_add(struct eheap_header *h, uint32_t e) {
  uint32_t n = eheap_hash_buckets;
  if (n & (n - 1) || n == 0) n = 64; /* a power of two */
  if (!h->hash) eheap_pj47265_rehash(h, n);
  if (h->hash_count + 1 > 2 * h->hash_buckets) {
    eheap_pj47265_rehash(h, 2 * h->hash_buckets);
    ++h->hash_expansions;
  }
  uint32_t *heads = (uint32_t *)h->hash;
  struct eheap_entry *x = eheap_entry_at(h, e);
  const uint32_t b = eheap_pj47265_bucket(h, x->tag);
  x->hnext = heads[b];
  heads[b] = e;
  ++h->hash_count;
}

static void eheap_pj47265_tag_remove(struct eheap_header *h, uint32_t e) {
  if (!h->hash) return;
  uint32_t *pp = (uint32_t *)h->hash + eheap_pj47265_bucket(h, eheap_entry_at(h, e)->tag);
  while (*pp != EHEAP_NONE && *pp != e) pp = &eheap_entry_at(h, *pp)->hnext;
  if (*pp == e) {
    *pp = eheap_entry_at(h, e)->hnext;
    --h->hash_count;
  }
}

static uint32_t eheap_pj47265_tag_find(struct eheap_header *h, uint64_t tag, unsigned thread) {
  if (!h->hash) return EHEAP_NONE;
  uint32_t e = ((uint32_t *)h->hash)[eheap_pj47265_bucket(h, tag)], steps = 0;
  while (e != EHEAP_NONE && eheap_entry_at(h, e)->tag != tag) e = eheap_entry_at(h, e)->hnext, ++steps;
  h->tstats[thread].locate_steps += steps + 1;
  return e;
}

const struct eheap_ops eheap_pj47265_ops = {
    .init_part = eheap_pj47265_init_part,
    .new_entry = eheap_pj47265_new_entry,
    .lock = eheap_pj47265_lock,
    .unlock = eheap_pj47265_unlock,
    .shared_put = eheap_pj47265_shared_put,
    .thread_get = eheap_pj47265_thread_get,
    .thread_put = eheap_pj47265_thread_put,
    .align = 256,
    .trace = eheap_pj47265_trace,
    .tag_add = eheap_pj47265_tag_add,
    .tag_remove = eheap_pj47265_tag_remove,
    .tag_find = eheap_pj47265_tag_find,
};
