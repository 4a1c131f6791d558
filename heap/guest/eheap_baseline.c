/* baseline: the ECB heap before APAR PJ47265. The whole control table is initialized
   at the process's first heap request (every entry, however few buffers the ECB will
   use); tagged buffers are found by a sequential search of the table; buffers are
   packed (8-byte aligned, so buffers of different threads share lines); available
   lists are FIFO (a freed buffer goes to the tail, the oldest is dispensed: it has
   left the cache); the shared AVLs and the control table are serialized by the
   process's heap lock, taken and released by SVC every time once the process has
   threads; and one trace table is
   shared by all the threads of a process (its index is one contended word). */
#include <eheap.h>
#include <tpf.h>

static void eheap_baseline_init_table(struct eheap_header *h) {
  struct eheap_entry *t = eheap_entry_at(h, 0);
  for (uint32_t i = 0; i < h->entries_cap; ++i) {
    t[i].addr = 0;
    t[i].tag = 0;
    t[i].size = t[i].cap = 0;
    t[i].next = i + 1 < h->entries_cap ? i + 1 : EHEAP_NONE;
    t[i].hnext = EHEAP_NONE;
    t[i].state = EHEAP_FREE;
    t[i].avl = 0;
  }
}

static uint32_t eheap_baseline_new_entry(struct eheap_header *h) {
  return h->entries_used < h->entries_cap ? h->entries_used++ : EHEAP_NONE;
}

static void eheap_baseline_lock(struct eheap_header *h) {
  (void)h;
  if (tpf_process_threaded) tpf_heap_lock();
}

static void eheap_baseline_unlock(struct eheap_header *h) {
  (void)h;
  if (tpf_process_threaded) tpf_heap_unlock();
}

static uint32_t eheap_baseline_avl_get(struct eheap_header *h, int k, unsigned thread) {
  (void)thread;
  eheap_baseline_lock(h);
  uint32_t e = h->avl_head[k];
  if (e != EHEAP_NONE) {
    h->avl_head[k] = eheap_entry_at(h, e)->next;
    if (h->avl_head[k] == EHEAP_NONE) h->avl_tail[k] = EHEAP_NONE;
    --h->avl_count[k];
  }
  eheap_baseline_unlock(h);
  return e;
}

/* FIFO: to the tail. The heap's setup puts its preallocated buffers here while it
   already holds the lock (thread EHEAP_SHARED). */
static void eheap_baseline_avl_put(struct eheap_header *h, int k, uint32_t e, unsigned thread) {
  if (thread != EHEAP_SHARED) eheap_baseline_lock(h);
  eheap_entry_at(h, e)->next = EHEAP_NONE;
  if (h->avl_tail[k] == EHEAP_NONE) h->avl_head[k] = e;
  else eheap_entry_at(h, h->avl_tail[k])->next = e;
  h->avl_tail[k] = e;
  ++h->avl_count[k];
  if (thread != EHEAP_SHARED) eheap_baseline_unlock(h);
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

static uint32_t eheap_baseline_tag_find(struct eheap_header *h, uint64_t tag, unsigned thread) {
  const struct eheap_entry *t = eheap_entry_at(h, 0);
  const uint32_t n = h->entries_used;
  uint32_t i = 0;
  for (; i < n; ++i)
    if (t[i].tag == tag && t[i].state == EHEAP_USED) break;
  h->tstats[thread].locate_steps += i < n ? i + 1 : n;
  return i < n ? i : EHEAP_NONE;
}

const struct eheap_ops eheap_baseline_ops = {
    .init_table = eheap_baseline_init_table,
    .new_entry = eheap_baseline_new_entry,
    .lock = eheap_baseline_lock,
    .unlock = eheap_baseline_unlock,
    .avl_get = eheap_baseline_avl_get,
    .avl_put = eheap_baseline_avl_put,
    .align = 8,
    .trace = eheap_baseline_trace,
    .tag_add = eheap_baseline_tag_add,
    .tag_remove = eheap_baseline_tag_remove,
    .tag_find = eheap_baseline_tag_find,
};
