/* baseline: the ECB heap before APAR PJ47265. The control table is initialized a
   whole part at a time (the initial 150 entries at the process's first heap request,
   however few buffers the ECB will use); tagged buffers are found by a sequential search of the table; buffers are
   packed (8-byte aligned, so buffers of different threads share lines); available
   lists are FIFO (a freed buffer goes to the tail, the oldest is dispensed: it has
   left the cache); the shared AVLs and the control table are serialized by the
   process's heap lock, taken and released by SVC every time once the process has
   threads; and one trace table is
   shared by all the threads of a process (its index is one contended word). */
#include <eheap.h>
#include <tpf.h>

/* Each part of the control table in whole as the heap gets it: the initial one at the
   process's first request, however few buffers the ECB will use. */
static void eheap_baseline_init_part(struct eheap_header *h, uint32_t first, uint32_t n) {
  struct eheap_entry *t = eheap_entry_at(h, first);
  for (uint32_t i = 0; i < n; ++i) {
    eheap_entry_init(&t[i]);
    t[i].next = i + 1 < n ? first + i + 1 : EHEAP_NONE; /* the part's entries, chained */
  }
}

static uint32_t eheap_baseline_new_entry(struct eheap_header *h) {
  if (h->entries_used == h->entries_cap) eheap_table_grow(h);
  return h->entries_used++;
}

static void eheap_baseline_lock(struct eheap_header *h) {
  (void)h;
  if (tpf_process_threaded) tpf_heap_lock();
}

static void eheap_baseline_unlock(struct eheap_header *h) {
  (void)h;
  if (tpf_process_threaded) tpf_heap_unlock();
}

/* FIFO: to the tail (the oldest is dispensed first). */
static void eheap_baseline_shared_put(struct eheap_header *h, int k, uint32_t e) {
  eheap_entry_at(h, e)->next = EHEAP_NONE;
  if (h->avl_tail[k] == EHEAP_NONE) h->avl_head[k] = e;
  else eheap_entry_at(h, h->avl_tail[k])->next = e;
  h->avl_tail[k] = e;
  ++h->avl_count[k];
}

static void eheap_baseline_trace(struct eheap_header *h, unsigned thread, int op, uint64_t addr, uint64_t size) {
  const uint32_t i = __sync_fetch_and_add(&h->trace_next, 1) % h->trace_cap;
  struct eheap_trace *t = (struct eheap_trace *)h->trace + i;
  t->tod = eheap_tod();
  t->addr = addr;
  t->size = (uint32_t)size;
  t->op = (uint16_t)op;
  t->thread = (uint16_t)thread;
}

/* Tags live in the entries; nothing to keep apart. */
static void eheap_baseline_tag_add(struct eheap_header *h, uint32_t e) { (void)h, (void)e; }
static void eheap_baseline_tag_remove(struct eheap_header *h, uint32_t e) { (void)h, (void)e; }

/* Every entry in use, part by part, until one holds the tag. */
static uint32_t eheap_baseline_tag_find(struct eheap_header *h, uint64_t tag, unsigned thread) {
  const uint32_t n = h->entries_used, per = h->part_entries;
  uint32_t i = 0;
  while (i < n) {
    const struct eheap_entry *t = eheap_entry_at(h, i);
    const uint32_t end = n - i < per - i % per ? n : i - i % per + per;
    for (; i < end; ++i, ++t)
      if (t->tag == tag && t->state == EHEAP_USED) {
        h->tstats[thread].locate_steps += i + 1;
        return i;
      }
  }
  h->tstats[thread].locate_steps += n;
  return EHEAP_NONE;
}

const struct eheap_ops eheap_baseline_ops = {
    .init_part = eheap_baseline_init_part,
    .new_entry = eheap_baseline_new_entry,
    .lock = eheap_baseline_lock,
    .unlock = eheap_baseline_unlock,
    .shared_put = eheap_baseline_shared_put,
    .thread_get = 0, /* no AVLs of a thread's own */
    .thread_put = 0,
    .align = 8,
    .trace = eheap_baseline_trace,
    .tag_add = eheap_baseline_tag_add,
    .tag_remove = eheap_baseline_tag_remove,
    .tag_find = eheap_baseline_tag_find,
};
