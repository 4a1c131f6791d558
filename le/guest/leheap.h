/* The Language Environment heap (issue 25, item 1): the user heap, ANYHEAP and
   BELOWHEAP of an enclave, as guest code (le/guest/leheap.c). One piece of code
   serves all three; each heap is one control block (struct leheap_cb).

   What IBM documents (LEDATA's heap description, the LE Programming Guide):
   a heap is a chain of segments got from the system, the first of the initial size,
   the later ones of the increment size, or of the request's own size plus the header
   when a request does not fit in an increment; each segment starts with a header
   chaining it to the heap and naming its free tree; an element has an 8-byte prefix
   (31-bit: the segment's address and the element's length); free space in a segment
   is a tree of free elements; freed elements coalesce with free neighbours; an
   emptied increment segment is kept (KEEP) or returned (FREE), the initial segment
   never. Everything else below (field order, the tree's ordering, the fit policy,
   rounding, the minimum element and segment) is our choice, marked "(ours)".

   Evidence for the 32-byte segment header (seed 003): HEAP(32K,32K) untuned "Total
   heap storage used" 819,229,056 - 27,949 segments x 32 = 818,334,688; tuned
   HEAP(100M,100M) 818,334,944 - 8 x 32 = 818,334,688: the same element total. So
   that statistic is the high-water mark of (bytes of elements in use, prefixes
   included) + 32 x (segments held), and leheap_cb.total_used is kept exactly so.

   31-bit layout: every address the heap keeps is a 4-byte big-endian field. LE's lie
   below 2 GB; in the TPF image the first 2 GB of an ECB's space are taken (tpf_evm.h),
   so its LE region lies at 2 to 4 GB (TPF_EVM_LE), which 4-byte fields still hold:
   le_getmain's promise is an address below 4 GB. This header is also the layout the host reads
   (plain C, fixed-width fields, offsetof): the guest is big-endian, the host converts. */
#ifndef LEHEAP_H
#define LEHEAP_H
#include <stddef.h>
#include <stdint.h>

/* Eyecatchers, as the ASCII bytes of their names (ours: the project's guest code and
   its dumps are ASCII; LE's are EBCDIC). */
#define LEHEAP_SEG_EYE 0x48414E43u /* "HANC": a segment header */
#define LEHEAP_CB_EYE 0x48504342u  /* "HPCB": a heap control block */

#define LEHEAP_SEG_HEADER 32u      /* bytes: struct leheap_seg */
#define LEHEAP_PREFIX 8u           /* bytes: struct leheap_prefix */
#define LEHEAP_ALIGN 8u            /* element lengths and addresses (ours) */
#define LEHEAP_MIN_ELEMENT 16u     /* a free element must hold struct leheap_free (ours) */
/* The smallest segment: its header and one smallest element. A smaller init or incr
   is raised to it (ours: a heap that cannot hold one element is no heap). */
#define LEHEAP_MIN_SEGMENT (LEHEAP_SEG_HEADER + LEHEAP_MIN_ELEMENT)
/* The largest request: its element and a segment header must fit in 31 bits. */
#define LEHEAP_MAX_REQUEST 0x7FFF0000u

/* Options (leheap_cb fields). */
#define LEHEAP_KEEP 0            /* an emptied increment segment stays in the chain */
#define LEHEAP_FREE 1            /* ... is unlinked and given back by le_freemain */
#define LEHEAP_ANYWHERE 0
#define LEHEAP_BELOW 1           /* segments below 16 MB (BELOWHEAP, HEAP(,,BELOW)) */
/* Fit policy inside the segment that serves a request (ours: IBM does not say, and it
   could move E4's segment counts, so it is an option). Both serve a request from the
   first segment in chain order whose largest free element fits. */
#define LEHEAP_FIRST_FIT 0       /* the lowest-addressed free element that fits */
#define LEHEAP_BEST_FIT 1        /* the smallest that fits, the lowest-addressed of equals */
#define LEHEAP_FILL_NONE 0x100u  /* STORAGE(NONE): no fill; 0..255: the fill byte */

/* le_heap_free's results (each but LEHEAP_OK counted in leheap_cb.errors; the heap is
   left as it was). */
#define LEHEAP_OK 0
#define LEHEAP_ERR_PREFIX 1      /* the prefix names no segment of this heap, or a bad length */
#define LEHEAP_ERR_RANGE 2       /* the element is not inside its segment's element area */
#define LEHEAP_ERR_DOUBLE_FREE 3 /* the element overlaps free storage */

/* At a segment's start. */
struct leheap_seg {
  uint32_t eye;      /* LEHEAP_SEG_EYE */
  uint32_t next;     /* next segment in the chain, 0 at the end */
  uint32_t prev;     /* previous segment, 0 for the initial one */
  uint32_t heap;     /* the heap's control block */
  uint32_t length;   /* bytes, header included */
  uint32_t root;     /* the free tree's root, 0 if nothing is free */
  uint32_t in_use;   /* bytes of elements in use in the segment, prefixes included */
  uint32_t reserved;
};

/* Before each element in use; the caller gets the address after it. */
struct leheap_prefix {
  uint32_t seg;      /* its segment */
  uint32_t length;   /* bytes, prefix included: round_up(n + 8, 8), at least 16 */
};

/* The first 16 bytes of a free element. The free elements of a segment are one
   Cartesian tree (ours): a binary search tree by address and a max-heap by length, so
   the root's length says whether anything in the segment fits, and address-ordered
   first fit is a walk down the left side. */
struct leheap_free {
  uint32_t length;   /* bytes of the free element */
  uint32_t left;     /* free elements at lower addresses, 0 if none */
  uint32_t right;    /* ... at higher addresses */
  uint32_t reserved;
};

/* One per heap. Options are set by the caller before le_heap_init; counters are what
   RPTSTG reports (read by the host at the enclave's end). */
struct leheap_cb {
  uint32_t eye;          /* LEHEAP_CB_EYE, set by le_heap_init */
  uint32_t first;        /* the initial segment */
  uint32_t last;         /* the chain's last segment */
  uint32_t lo;           /* lowest segment address and highest segment end ever got: */
  uint32_t hi;           /*   a prefix naming a segment outside them is not read */
  /* Options. */
  uint32_t init_size;    /* bytes of the initial segment (LEHEAP_MIN_SEGMENT at least, x8) */
  uint32_t incr_size;    /* bytes of an increment segment (the same) */
  uint32_t disposition;  /* LEHEAP_KEEP, LEHEAP_FREE */
  uint32_t location;     /* LEHEAP_ANYWHERE, LEHEAP_BELOW: passed to le_getmain */
  uint32_t fit;          /* LEHEAP_FIRST_FIT, LEHEAP_BEST_FIT */
  uint32_t alloc_fill;   /* STORAGE heap_alloc: LEHEAP_FILL_NONE or a byte for each get */
  uint32_t free_fill;    /* STORAGE heap_free: the same for each free */
  /* Counters. */
  uint64_t gets;         /* successful get requests */
  uint64_t frees;        /* successful free requests */
  uint64_t segs_alloc;   /* segments got, the initial one included */
  uint64_t segs_freed;   /* segments given back (FREE) */
  uint64_t total_used;   /* high-water mark of in_use + LEHEAP_SEG_HEADER x segments held */
  uint64_t in_use;       /* bytes of elements in use now, prefixes included */
  uint64_t errors;       /* frees refused by a heap check */
  uint64_t get_failures; /* gets refused: 0 bytes, over LEHEAP_MAX_REQUEST, no storage */
};

/* The sizing rules, shared by the guest heap and the host model (le/le_heap_model.cpp):
   the element a request of n bytes takes (1 <= n <= LEHEAP_MAX_REQUEST), a segment
   size option as the heap uses it, and the segment a request that fits nowhere gets:
   an increment, or its element plus a header when that is larger ("a larger request
   gets a segment of its own size plus header"). */
static inline uint32_t leheap_element_length(uint32_t n) {
  uint32_t need = (n + LEHEAP_PREFIX + LEHEAP_ALIGN - 1) & ~(LEHEAP_ALIGN - 1);
  return need < LEHEAP_MIN_ELEMENT ? LEHEAP_MIN_ELEMENT : need;
}
static inline uint32_t leheap_segment_option(uint32_t bytes) {
  if (bytes < LEHEAP_MIN_SEGMENT) return LEHEAP_MIN_SEGMENT;
  return bytes > 0x7FFFFFF8u ? 0x7FFFFFF8u : (bytes + LEHEAP_ALIGN - 1) & ~(LEHEAP_ALIGN - 1);
}
static inline uint32_t leheap_new_segment_length(uint32_t need, uint32_t incr) {
  return need + LEHEAP_SEG_HEADER > incr ? need + LEHEAP_SEG_HEADER : incr;
}

#ifdef __cplusplus
static_assert(sizeof(leheap_seg) == LEHEAP_SEG_HEADER && sizeof(leheap_prefix) == LEHEAP_PREFIX &&
              sizeof(leheap_free) == LEHEAP_MIN_ELEMENT && sizeof(leheap_cb) == 112);
#else
_Static_assert(sizeof(struct leheap_seg) == LEHEAP_SEG_HEADER, "segment header");
_Static_assert(sizeof(struct leheap_prefix) == LEHEAP_PREFIX, "prefix");
_Static_assert(sizeof(struct leheap_free) == LEHEAP_MIN_ELEMENT, "free element");
_Static_assert(sizeof(struct leheap_cb) == 112, "control block");

/* Provided by the environment: in the TPF image, service wrappers; in
   tests/guest/le, an allocator of the test program's own. le_getmain returns `bytes`
   bytes, 8-byte aligned, below 2 GB (below 16 MB if `below`), or 0 if it has none. */
void *le_getmain(uint32_t bytes, int below);
void le_freemain(void *address, uint32_t bytes);

/* Sets the counters and gets the initial segment; the options must be set. Returns
   0, or -1 if the environment gave no initial segment. */
int le_heap_init(struct leheap_cb *cb);
/* Gives back all of a heap's segments when its enclave ends (nothing if never begun). */
void le_heap_term(struct leheap_cb *cb);
/* n bytes, 8-byte aligned, or 0 (counted in get_failures). */
void *le_heap_get(struct leheap_cb *cb, uint32_t n);
/* LEHEAP_OK, or an LEHEAP_ERR_* with nothing changed; p == 0 is LEHEAP_OK, not counted. */
int le_heap_free(struct leheap_cb *cb, void *p);
#endif

#endif
