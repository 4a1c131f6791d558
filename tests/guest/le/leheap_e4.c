/* E4's request sequences (le/guest/e4_requests.h) on the guest LE heap
   (le/guest/leheap.c), run by `tpfemu exec`; prints the heap's counters one per line,
   key=value, as le_heap_model prints the host model's for the same arguments
   (tests/le_heap_compare.sh compares them):
     leheap_e4.elf A|B N INIT INCR KEEP|FREE FIRST|BEST [placement] [pools[=CELL:PCT,...]]
   INIT and INCR in bytes, or with K or M. "placement" adds the placement checksum
   (every element's segment number and offset), at the cost of a lookup per get: leave
   it out when the instruction count is what is measured. "pools" puts LE's heap pools
   (le/guest/lepools.c, HEAPPOOLS(ON)) in front of the heap, IBM's default cells or
   those given; a cell's place is its extent's segment and its offset there.

   The environment (le_getmain, le_freemain) is this program's, over the program break:
   in the TPF image they are services; here they are small guest code counted with
   the rest (env_* lines). A freed segment goes on a list of its exact size (LIFO) and
   a get of that size takes it back: O(1), and E4's segments come in a handful of sizes
   (the increment, and the larger requests' own). There is no storage below 16 MB here
   (the program is linked at 16 MB): a BELOW get is refused and counted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e4_requests.h"
#include "leheap.h"
#include "lepools.h"

#define MAX_REQUESTS 200000u
static uint64_t slots[MAX_REQUESTS];
static uint32_t order[MAX_REQUESTS];

/* ---- The environment ------------------------------------------------------------- */

#define ENV_SIZES 32
struct env_block {
  struct env_block *next;
};
static struct {
  uint32_t size;
  struct env_block *head;
} env_lists[ENV_SIZES];
static uint64_t env_getmains, env_freemains, env_reused, env_below_refused, env_dropped_bytes;

/* Segment numbers by address, for the placement checksum: open addressing, the entry
   of an address got again overwritten (a number per getmain, 1 for the first). */
#define ENV_TABLE (1u << 17)
static struct {
  uint32_t addr, number;
} env_table[ENV_TABLE];
static int track_numbers;

static uint32_t env_slot(uint32_t addr) {
  uint32_t h = (addr >> 3) * 0x9E3779B1u;
  for (uint32_t i = h >> 15;; i = (i + 1) & (ENV_TABLE - 1))
    if (env_table[i].addr == addr || env_table[i].addr == 0) return i;
}

void *le_getmain(uint32_t bytes, int below) {
  if (below) {
    env_below_refused++;
    return 0;
  }
  void *p = 0;
  for (int i = 0; i < ENV_SIZES && env_lists[i].size; i++)
    if (env_lists[i].size == bytes && env_lists[i].head) {
      struct env_block *b = env_lists[i].head;
      env_lists[i].head = b->next;
      p = b;
      env_reused++;
      break;
    }
  if (!p) {
    p = sbrk((long)bytes);
    if (p == (void *)-1) return 0;
    if ((uintptr_t)p + bytes > 0x80000000u) return 0; /* the heap's fields are 31-bit */
  }
  env_getmains++;
  if (track_numbers) {
    const uint32_t s = env_slot((uint32_t)(uintptr_t)p);
    env_table[s].addr = (uint32_t)(uintptr_t)p;
    env_table[s].number = (uint32_t)env_getmains;
  }
  return p;
}

void le_freemain(void *address, uint32_t bytes) {
  env_freemains++;
  for (int i = 0; i < ENV_SIZES; i++)
    if (env_lists[i].size == bytes || env_lists[i].size == 0) {
      struct env_block *b = address;
      env_lists[i].size = bytes;
      b->next = env_lists[i].head;
      env_lists[i].head = b;
      return;
    }
  env_dropped_bytes += bytes; /* more sizes than lists: never reused */
}

/* ---- The sequence ---------------------------------------------------------------- */

static struct leheap_cb heap;
static struct lepools_cb pools;
static uint64_t placement = E4_PLACEMENT_INIT;
static uint64_t pool_free_errors;

/* The segment holding address a (a cell: its extent's), by a walk of the chain. */
static uint32_t segment_of(uint32_t a) {
  uint32_t s = heap.first;
  while (s && !(a >= s && a < s + ((const struct leheap_seg *)(uintptr_t)s)->length))
    s = ((const struct leheap_seg *)(uintptr_t)s)->next;
  return s;
}

/* As le/guest/le_tpf.c routes a program's malloc and free. */
static uint64_t get(void *ctx, uint32_t bytes) {
  (void)ctx;
  char *p;
  int cell = 0;
  if (pools.on && bytes - 1 < pools.largest) {
    p = le_pools_get(&pools, &heap, bytes);
    cell = 1;
  } else {
    if (pools.on && bytes) pools.big_requests++;
    p = le_heap_get(&heap, bytes);
  }
  if (!p) return 0;
  if (track_numbers) {
    const uint32_t seg = cell ? segment_of((uint32_t)(uintptr_t)p) : ((const struct leheap_prefix *)(p - LEHEAP_PREFIX))->seg;
    const uint32_t number = env_table[env_slot(seg)].number;
    placement = e4_placement(placement, number, (uint32_t)(uintptr_t)p - seg);
  }
  return (uint64_t)(uintptr_t)p;
}

static void release(void *ctx, uint64_t handle) {
  (void)ctx;
  if (!handle) return;
  void *p = (void *)(uintptr_t)handle;
  if (pools.on && LEPOOLS_IS_CELL(((const struct lepools_prefix *)((char *)p - LEPOOLS_PREFIX))->tag)) {
    if (le_pools_free(&pools, p) != LEPOOLS_OK) pool_free_errors++;
  } else {
    le_heap_free(&heap, p);
  }
}

/* "pools" or "pools=8:10,32:10": HEAPPOOLS(ON) with those pools (le_heap_model's rules). */
static int parse_pools(const char *a) {
  static const uint32_t ibm[][2] = {{8, 10}, {32, 10}, {128, 10}, {256, 10}, {1024, 10}, {2048, 10}};
  pools.on = 1;
  pools.count = 0;
  if (!strcmp(a, "pools")) {
    for (uint32_t i = 0; i < 6; i++) pools.pools[i].cell_size = ibm[i][0], pools.pools[i].percent = ibm[i][1];
    pools.count = 6;
    return 1;
  }
  if (strncmp(a, "pools=", 6)) return 0;
  const char *s = a + 6;
  while (*s) {
    char *end;
    const unsigned long cell = strtoul(s, &end, 10);
    if (*end != ':') return 0;
    const unsigned long pct = strtoul(end + 1, &end, 10);
    if (cell == 0 || cell % 8 || cell > LEPOOLS_MAX_CELL || pct < 1 || pct > 90 || pools.count == LEPOOLS_MAX ||
        (pools.count && cell <= pools.pools[pools.count - 1].cell_size))
      return 0;
    pools.pools[pools.count].cell_size = (uint32_t)cell;
    pools.pools[pools.count].percent = (uint32_t)pct;
    pools.count++;
    if (*end == ',') end++;
    else if (*end) return 0;
    s = end;
  }
  return pools.count != 0;
}

/* After the sequence everything is free: the chain holds the segments got and not
   given back, linked both ways, each one free element of all its bytes. */
static const char *chain_check(void) {
  uint64_t count = 0;
  uint32_t prev = 0;
  for (uint32_t s = heap.first; s; prev = s, s = ((const struct leheap_seg *)(uintptr_t)s)->next) {
    const struct leheap_seg *seg = (const struct leheap_seg *)(uintptr_t)s;
    const struct leheap_free *f = (const struct leheap_free *)(uintptr_t)seg->root;
    if (seg->eye != LEHEAP_SEG_EYE || seg->heap != (uint32_t)(uintptr_t)&heap || seg->prev != prev) return "BAD:links";
    /* With pools, extents stay in use (they are never given back). */
    if (!pools.on && (seg->in_use || seg->root != s + LEHEAP_SEG_HEADER ||
                      f->length != seg->length - LEHEAP_SEG_HEADER || f->left || f->right))
      return "BAD:not_all_free";
    count++;
  }
  if (prev != heap.last || count != heap.segs_alloc - heap.segs_freed) return "BAD:count";
  return "ok";
}

static int parse_size(const char *s, uint32_t *out) {
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (end == s) return 0;
  if (*end == 'K' || *end == 'k') v <<= 10, end++;
  else if (*end == 'M' || *end == 'm') v <<= 20, end++;
  if (*end || v > 0x7FFFFFFFul) return 0;
  *out = (uint32_t)v;
  return 1;
}

static int usage(void) {
  printf("usage: leheap_e4.elf A|B N INIT INCR KEEP|FREE FIRST|BEST [placement] [pools[=CELL:PCT,...]]\n");
  return 2;
}

int main(int argc, char **argv) {
  uint32_t n, init, incr;
  if (argc < 7 || argc > 9) return usage();
  const char seq = argv[1][0];
  if ((seq != 'A' && seq != 'B') || argv[1][1] || !parse_size(argv[2], &n) || n == 0 || n > MAX_REQUESTS ||
      !parse_size(argv[3], &init) || !parse_size(argv[4], &incr) ||
      (strcmp(argv[5], "KEEP") && strcmp(argv[5], "FREE")) || (strcmp(argv[6], "FIRST") && strcmp(argv[6], "BEST")))
    return usage();
  for (int i = 7; i < argc; i++) {
    if (!strcmp(argv[i], "placement") && !track_numbers) track_numbers = 1;
    else if (pools.on || !parse_pools(argv[i])) return usage();
  }
  heap.init_size = init;
  heap.incr_size = incr;
  heap.disposition = strcmp(argv[5], "FREE") ? LEHEAP_KEEP : LEHEAP_FREE;
  heap.location = LEHEAP_ANYWHERE;
  heap.fit = strcmp(argv[6], "BEST") ? LEHEAP_FIRST_FIT : LEHEAP_BEST_FIT;
  heap.alloc_fill = heap.free_fill = LEHEAP_FILL_NONE;
  if (le_heap_init(&heap)) {
    printf("leheap_e4: no initial segment of %u bytes\n", heap.init_size);
    return 1;
  }
  if (pools.on) {
    pools.heap_init = init; /* HEAP's init_size as the option gives it, as LE_START writes it */
    le_pools_init(&pools);
  }
  e4_run(seq, n, slots, order, get, release, 0);
  printf("sequence=%c\nrequests=%u\ninit_size=%u\nincr_size=%u\ndisposition=%s\nfit=%s\n", seq, n, heap.init_size,
         heap.incr_size, heap.disposition == LEHEAP_FREE ? "FREE" : "KEEP", heap.fit == LEHEAP_BEST_FIT ? "BEST" : "FIRST");
  printf("get_requests=%llu\nfree_requests=%llu\nsegments_allocated=%llu\nsegments_freed=%llu\n",
         (unsigned long long)heap.gets, (unsigned long long)heap.frees, (unsigned long long)heap.segs_alloc,
         (unsigned long long)heap.segs_freed);
  printf("total_heap_used=%llu\nbytes_in_use=%llu\nerrors=%llu\nget_failures=%llu\n", (unsigned long long)heap.total_used,
         (unsigned long long)heap.in_use, (unsigned long long)heap.errors, (unsigned long long)heap.get_failures);
  if (track_numbers) printf("placement=%016llx\n", (unsigned long long)placement);
  if (pools.on) {
    printf("pools=%u\nbig_requests=%llu\npool_errors=%llu\nextent_failures=%llu\n", pools.count,
           (unsigned long long)pools.big_requests, (unsigned long long)pools.errors,
           (unsigned long long)pools.extent_failures);
    for (uint32_t i = 0; i < pools.count; i++) {
      const struct lepool *q = &pools.pools[i];
      printf("pool%u=%u %u %u %u gets=%llu frees=%llu extents=%llu max_used=%llu in_use=%llu\n", i + 1, q->cell_size,
             q->percent, q->element_size, q->cells_per_extent, (unsigned long long)q->gets,
             (unsigned long long)q->frees, (unsigned long long)q->extents, (unsigned long long)q->max_used,
             (unsigned long long)q->in_use);
    }
    printf("pool_free_refused=%llu\n", (unsigned long long)pool_free_errors);
  }
  printf("chain_check=%s\n", chain_check());
  printf("env_getmain_calls=%llu\nenv_freemain_calls=%llu\nenv_reused=%llu\nenv_below_refused=%llu\n"
         "env_dropped_bytes=%llu\n",
         (unsigned long long)env_getmains, (unsigned long long)env_freemains, (unsigned long long)env_reused,
         (unsigned long long)env_below_refused, (unsigned long long)env_dropped_bytes);
  return 0;
}
