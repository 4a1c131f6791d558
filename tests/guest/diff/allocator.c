/* A small allocator of its own over a static arena: size classes with segregated
   free lists for small blocks, a first-fit address-ordered list with boundary tags
   and coalescing for large blocks. A deterministic workload allocates, fills,
   verifies and frees blocks, then the heap is checked: every byte accounted for,
   no two adjacent free blocks, free lists consistent. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARENA (256 * 1024)
static _Alignas(16) unsigned char arena[ARENA];

/* Large blocks: header {size | used bit} at the start, footer (same word) at the end. */
typedef struct fblk {
  uint64_t hdr;
  struct fblk *next, *prev;
} fblk;
static fblk *flist;
static size_t top; /* arena bytes handed out to the large heap */

#define USED 1ULL
static uint64_t *footer(fblk *b) { return (uint64_t *)((unsigned char *)b + (b->hdr & ~USED) - 8); }

static void list_insert(fblk *b) { /* address order */
  fblk *prev = 0, *cur = flist;
  while (cur && cur < b) prev = cur, cur = cur->next;
  b->next = cur, b->prev = prev;
  if (cur) cur->prev = b;
  if (prev) prev->next = b;
  else flist = b;
}
static void list_remove(fblk *b) {
  if (b->prev) b->prev->next = b->next;
  else flist = b->next;
  if (b->next) b->next->prev = b->prev;
}

static void *large_alloc(size_t n) {
  size_t need = (n + 16 + 15) & ~(size_t)15; /* header + footer */
  if (need < sizeof(fblk) + 8) need = 48;
  for (fblk *b = flist; b; b = b->next) {
    size_t sz = (size_t)b->hdr;
    if (sz < need) continue;
    list_remove(b);
    if (sz - need >= 64) {
      fblk *rest = (fblk *)((unsigned char *)b + need);
      rest->hdr = sz - need;
      *footer(rest) = rest->hdr;
      list_insert(rest);
      sz = need;
    }
    b->hdr = sz | USED;
    *footer(b) = b->hdr;
    return (unsigned char *)b + 8;
  }
  if (top + need > ARENA / 2) return 0;
  fblk *b = (fblk *)(arena + ARENA / 2 + top);
  top += need;
  b->hdr = need | USED;
  *footer(b) = b->hdr;
  return (unsigned char *)b + 8;
}

static void large_free(void *p) {
  fblk *b = (fblk *)((unsigned char *)p - 8);
  size_t sz = (size_t)(b->hdr & ~USED);
  unsigned char *start = arena + ARENA / 2, *end = start + top;
  /* coalesce with the following block */
  fblk *nx = (fblk *)((unsigned char *)b + sz);
  if ((unsigned char *)nx < end && !(nx->hdr & USED)) list_remove(nx), sz += (size_t)nx->hdr;
  /* and with the preceding one, found through its footer */
  if ((unsigned char *)b > start) {
    uint64_t pf = *((uint64_t *)b - 1);
    if (!(pf & USED)) {
      fblk *pv = (fblk *)((unsigned char *)b - pf);
      list_remove(pv);
      sz += (size_t)pf;
      b = pv;
    }
  }
  b->hdr = sz;
  *footer(b) = sz;
  list_insert(b);
}

/* Small blocks: classes of 16..128 bytes carved from the low half of the arena. */
static void *small_free[8];
static size_t small_top;
static void *small_alloc(size_t n) {
  unsigned cls = (unsigned)((n + 15) / 16) - 1;
  if (small_free[cls]) {
    void *p = small_free[cls];
    small_free[cls] = *(void **)p;
    return p;
  }
  size_t sz = (cls + 1) * 16;
  if (small_top + sz > ARENA / 2) return 0;
  void *p = arena + small_top;
  small_top += sz;
  return p;
}
static void small_release(void *p, size_t n) {
  unsigned cls = (unsigned)((n + 15) / 16) - 1;
  *(void **)p = small_free[cls];
  small_free[cls] = p;
}

static void *my_alloc(size_t n) { return n <= 128 ? small_alloc(n ? n : 1) : large_alloc(n); }
static void my_free(void *p, size_t n) {
  if (n <= 128) small_release(p, n ? n : 1);
  else large_free(p);
}

struct slot {
  unsigned char *p;
  size_t n;
  unsigned char fill;
};

int main(void) {
  static struct slot slots[512];
  uint32_t x = 12345;
  unsigned allocs = 0, frees = 0, fails = 0, corrupt = 0;
  for (int step = 0; step < 20000; ++step) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    struct slot *s = &slots[x % 512];
    if (s->p) {
      for (size_t i = 0; i < s->n; ++i)
        if (s->p[i] != (unsigned char)(s->fill + i)) { ++corrupt; break; }
      my_free(s->p, s->n);
      s->p = 0;
      ++frees;
    } else {
      size_t n = (x >> 9) % 8 == 0 ? 129 + (x >> 12) % 3000 : (x >> 12) % 129;
      s->p = my_alloc(n);
      if (!s->p) { ++fails; continue; }
      s->n = n, s->fill = (unsigned char)(x >> 24);
      for (size_t i = 0; i < n; ++i) s->p[i] = (unsigned char)(s->fill + i);
      ++allocs;
    }
  }
  /* walk the large heap */
  unsigned nblk = 0, nfree = 0, adjacent_free = 0, footer_bad = 0;
  size_t used_bytes = 0, free_bytes = 0;
  int prev_free = 0;
  for (unsigned char *q = arena + ARENA / 2; q < arena + ARENA / 2 + top;) {
    fblk *b = (fblk *)q;
    size_t sz = (size_t)(b->hdr & ~USED);
    if (*footer(b) != b->hdr) ++footer_bad;
    int is_free = !(b->hdr & USED);
    if (is_free && prev_free) ++adjacent_free;
    if (is_free) ++nfree, free_bytes += sz;
    else used_bytes += sz;
    prev_free = is_free;
    ++nblk;
    q += sz;
  }
  unsigned listed = 0;
  for (fblk *b = flist; b; b = b->next) ++listed;
  printf("allocs=%u frees=%u fails=%u corrupt=%u\n", allocs, frees, fails, corrupt);
  printf("large heap: top=%u blocks=%u free=%u listed=%u used=%u freeb=%u adjacent_free=%u footer_bad=%u\n",
         (unsigned)top, nblk, nfree, listed, (unsigned)used_bytes, (unsigned)free_bytes, adjacent_free, footer_bad);
  unsigned small_counts[8];
  for (int c = 0; c < 8; ++c) {
    small_counts[c] = 0;
    for (void *p = small_free[c]; p; p = *(void **)p) small_counts[c]++;
  }
  printf("small top=%u free per class:", (unsigned)small_top);
  for (int c = 0; c < 8; ++c) printf(" %u", small_counts[c]);
  putchar('\n');
  /* free everything: the large heap must coalesce to one block */
  for (int i = 0; i < 512; ++i)
    if (slots[i].p) my_free(slots[i].p, slots[i].n), slots[i].p = 0;
  listed = 0;
  for (fblk *b = flist; b; b = b->next) ++listed;
  printf("after freeing all: free blocks=%u size=%u top=%u\n", listed, flist ? (unsigned)flist->hdr : 0, (unsigned)top);
  return corrupt || adjacent_free || footer_bad || listed != 1;
}
