/* E4's request sequences (le/guest/e4_requests.h) on the guest LE heap
   (le/guest/leheap.c), run by `tpfemu exec`; prints the heap's counters one per line,
   key=value, as le_heap_model prints the host model's for the same arguments
   (tests/le_heap_compare.sh compares them):
     leheap_e4.elf A|B N INIT INCR KEEP|FREE FIRST|BEST [placement]
   INIT and INCR in bytes, or with K or M. "placement" adds the placement checksum
   (every element's segment number and offset), at the cost of a lookup per get: leave
   it out when the instruction count is what is measured.

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
static uint64_t placement = E4_PLACEMENT_INIT;

static uint64_t get(void *ctx, uint32_t bytes) {
  (void)ctx;
  char *p = le_heap_get(&heap, bytes);
  if (!p) return 0;
  if (track_numbers) {
    const struct leheap_prefix *x = (const struct leheap_prefix *)(p - LEHEAP_PREFIX);
    const uint32_t number = env_table[env_slot(x->seg)].number;
    placement = e4_placement(placement, number, (uint32_t)(uintptr_t)p - x->seg);
  }
  return (uint64_t)(uintptr_t)p;
}

static void release(void *ctx, uint64_t handle) {
  (void)ctx;
  if (handle) le_heap_free(&heap, (void *)(uintptr_t)handle);
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
    if (seg->in_use || seg->root != s + LEHEAP_SEG_HEADER || f->length != seg->length - LEHEAP_SEG_HEADER ||
        f->left || f->right)
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
  printf("usage: leheap_e4.elf A|B N INIT INCR KEEP|FREE FIRST|BEST [placement]\n");
  return 2;
}

int main(int argc, char **argv) {
  uint32_t n, init, incr;
  if (argc != 7 && argc != 8) return usage();
  const char seq = argv[1][0];
  if ((seq != 'A' && seq != 'B') || argv[1][1] || !parse_size(argv[2], &n) || n == 0 || n > MAX_REQUESTS ||
      !parse_size(argv[3], &init) || !parse_size(argv[4], &incr) ||
      (strcmp(argv[5], "KEEP") && strcmp(argv[5], "FREE")) || (strcmp(argv[6], "FIRST") && strcmp(argv[6], "BEST")) ||
      (argc == 8 && strcmp(argv[7], "placement")))
    return usage();
  track_numbers = argc == 8;
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
  e4_run(seq, n, slots, order, get, release, 0);
  printf("sequence=%c\nrequests=%u\ninit_size=%u\nincr_size=%u\ndisposition=%s\nfit=%s\n", seq, n, heap.init_size,
         heap.incr_size, heap.disposition == LEHEAP_FREE ? "FREE" : "KEEP", heap.fit == LEHEAP_BEST_FIT ? "BEST" : "FIRST");
  printf("get_requests=%llu\nfree_requests=%llu\nsegments_allocated=%llu\nsegments_freed=%llu\n",
         (unsigned long long)heap.gets, (unsigned long long)heap.frees, (unsigned long long)heap.segs_alloc,
         (unsigned long long)heap.segs_freed);
  printf("total_heap_used=%llu\nbytes_in_use=%llu\nerrors=%llu\nget_failures=%llu\n", (unsigned long long)heap.total_used,
         (unsigned long long)heap.in_use, (unsigned long long)heap.errors, (unsigned long long)heap.get_failures);
  if (track_numbers) printf("placement=%016llx\n", (unsigned long long)placement);
  printf("chain_check=%s\n", chain_check());
  printf("env_getmain_calls=%llu\nenv_freemain_calls=%llu\nenv_reused=%llu\nenv_below_refused=%llu\n"
         "env_dropped_bytes=%llu\n",
         (unsigned long long)env_getmains, (unsigned long long)env_freemains, (unsigned long long)env_reused,
         (unsigned long long)env_below_refused, (unsigned long long)env_dropped_bytes);
  return 0;
}
