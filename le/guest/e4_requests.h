/* Experiment E4's request sequences (issue 25; seed 003, "A bit more meaty!" and "What
   about KEEP vs FREE"), defined once for the guest test program (tests/guest/le) and
   the host model (le/le_heap_model.cpp): both call e4_run with their own get and free.

   The document's program drew "50000 random pieces of storage of sizes from 1 to 32K"
   with a generator it does not name; ours is xorshift64* (Vigna, 2016) from E4_SEED,
   so our sizes are not the document's, only their distribution is.

   Sequence A (n gets): get n elements of random size, then free all, in get order.
     Document, n = 50,000: HEAP(32K,32K) 27,949 segments allocated, "Total heap
     storage used" 819,229,056; HEAP(100M,100M) 8 segments, 818,334,944.
     CPU 15.44 s against 0.12 s (129x).
   Sequence B (n gets, k = 2n/5 frees and new gets: 50,000 and 20,000): get n elements
     into slots 0..n-1; free k of them, chosen without repeats by a partial
     Fisher-Yates shuffle of the slot numbers (step i < k swaps slot number i with
     i + e4_below(n - i), then frees the slot it put at i); get k new elements into
     those slots, in the order they were freed; then free every slot, 0..n-1.
     Document, n = 50,000, HEAP(32K,32K): FREE 39,122 segments allocated and 39,120
     freed ("Total heap storage used" 819,982,896); KEEP 27,952 allocated (819,983,152);
     CPU FREE 25.79 s, KEEP 22.34 s, tuned 0.15 s.
   The draws come from one stream in program order: A's n sizes; B's n sizes, its k
   slot choices, its k new sizes. */
#ifndef E4_REQUESTS_H
#define E4_REQUESTS_H
#include <stdint.h>

#define E4_SEED 0x9E3779B97F4A7C15ull
#define E4_MAX_SIZE 32768u
#define E4_DOCUMENT_REQUESTS 50000u

/* xorshift64*: the state steps by three xor-shifts, the draw is the state times an
   odd constant. */
static inline uint64_t e4_draw(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* A request size, uniform in 1..E4_MAX_SIZE: the draw's top 15 bits, plus one. */
static inline uint32_t e4_size(uint64_t *state) { return 1u + (uint32_t)(e4_draw(state) >> 49); }

/* A number in 0..m-1: the top 32 bits of the draw times m, shifted down (bias below
   m / 2^32, nothing at these sizes). */
static inline uint32_t e4_below(uint64_t *state, uint32_t m) {
  return (uint32_t)(((e4_draw(state) >> 32) * (uint64_t)m) >> 32);
}

/* The placement checksum: every get's (segment number in the order the heap got its
   segments, the initial one 1; the element's offset in its segment) folded in,
   FNV-1a style over the 64-bit word, so that guest and model can be seen to put every
   element in the same place. */
#define E4_PLACEMENT_INIT 0xCBF29CE484222325ull
static inline uint64_t e4_placement(uint64_t h, uint32_t segment_number, uint32_t offset) {
  return (h ^ (((uint64_t)segment_number << 32) | offset)) * 0x100000001B3ull;
}

/* get returns a handle (0: the get failed), free takes one (0 included). */
typedef uint64_t (*e4_get_fn)(void *ctx, uint32_t bytes);
typedef void (*e4_free_fn)(void *ctx, uint64_t handle);

/* Runs sequence 'A' or 'B' of n gets; slots and order have room for n each.
   Returns 0, or -1 for an unknown sequence. */
static inline int e4_run(char sequence, uint32_t n, uint64_t *slots, uint32_t *order, e4_get_fn get,
                         e4_free_fn release, void *ctx) {
  uint64_t state = E4_SEED;
  uint32_t i;
  if (sequence != 'A' && sequence != 'B') return -1;
  for (i = 0; i < n; i++) slots[i] = get(ctx, e4_size(&state));
  if (sequence == 'B') {
    const uint32_t k = (uint32_t)((uint64_t)n * 2 / 5);
    for (i = 0; i < n; i++) order[i] = i;
    for (i = 0; i < k; i++) {
      const uint32_t j = i + e4_below(&state, n - i), t = order[i];
      order[i] = order[j];
      order[j] = t;
      release(ctx, slots[order[i]]);
      slots[order[i]] = 0;
    }
    for (i = 0; i < k; i++) slots[order[i]] = get(ctx, e4_size(&state));
  }
  for (i = 0; i < n; i++) release(ctx, slots[i]);
  return 0;
}

#endif
