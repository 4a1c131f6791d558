/* A small C library subset: a first-fit allocator over sbrk, conversions, qsort,
   and a deterministic rand. The allocator is weak: the TPF image links the ECB heap
   (heap/guest) in its place. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each block has a 16-byte header; free blocks are kept in an address-ordered list
   and merged with their neighbours. */
struct block {
  size_t size; /* bytes after the header */
  struct block *next;
};
static struct block *free_list;

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

__attribute__((weak)) void *malloc(size_t n) {
  if (n == 0) n = 1;
  if (n > ((size_t)1 << 40)) return 0;
  n = round16(n);
  struct block **pp = &free_list;
  for (struct block *b = free_list; b; pp = &b->next, b = b->next) {
    if (b->size < n) continue;
    if (b->size >= n + 2 * sizeof(struct block)) {
      struct block *rest = (struct block *)((char *)(b + 1) + n);
      rest->size = b->size - n - sizeof(struct block);
      rest->next = b->next;
      b->size = n;
      *pp = rest;
    } else {
      *pp = b->next;
    }
    return b + 1;
  }
  struct block *b = sbrk((long)(n + sizeof(struct block)));
  if (b == (void *)-1) return 0;
  b->size = n;
  return b + 1;
}

__attribute__((weak)) void free(void *p) {
  if (!p) return;
  struct block *b = (struct block *)p - 1, *prev = 0, *cur = free_list;
  while (cur && cur < b) prev = cur, cur = cur->next;
  b->next = cur;
  if (prev) prev->next = b;
  else free_list = b;
  if (cur && (char *)(b + 1) + b->size == (char *)cur) b->size += sizeof(struct block) + cur->size, b->next = cur->next;
  if (prev && (char *)(prev + 1) + prev->size == (char *)b) prev->size += sizeof(struct block) + b->size, prev->next = b->next;
}

__attribute__((weak)) void *calloc(size_t n, size_t size) {
  if (size && n > (size_t)-1 / size) return 0;
  void *p = malloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

__attribute__((weak)) void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  struct block *b = (struct block *)p - 1;
  if (b->size >= n) return p;
  void *q = malloc(n);
  if (q) {
    memcpy(q, p, b->size);
    free(p);
  }
  return q;
}

int abs(int v) { return v < 0 ? -v : v; }
long labs(long v) { return v < 0 ? -v : v; }

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

unsigned long strtoul(const char *s, char **end, int base) {
  while (*s == ' ' || *s == '\t' || *s == '\n') ++s;
  int neg = *s == '-';
  if (*s == '-' || *s == '+') ++s;
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && is_hex(s[2]))
    s += 2, base = 16;
  else if (base == 0 && s[0] == '0') base = 8;
  else if (base == 0) base = 10;
  unsigned long v = 0;
  for (;; ++s) {
    int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'z' ? *s - 'a' + 10
            : *s >= 'A' && *s <= 'Z' ? *s - 'A' + 10 : 99;
    if (d >= base) break;
    v = v * (unsigned long)base + (unsigned long)d;
  }
  if (end) *end = (char *)s;
  return neg ? -v : v;
}

long strtol(const char *s, char **end, int base) { return (long)strtoul(s, end, base); }

int atoi(const char *s) { return (int)strtol(s, 0, 10); }

static void swap_bytes(char *a, char *b, size_t n) {
  while (n--) {
    char t = *a;
    *a++ = *b, *b++ = t;
  }
}

/* Insertion sort for short runs, median-of-three quicksort otherwise. */
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *a = base;
  while (n > 8) {
    char *lo = a, *mid = a + (n / 2) * size, *hi = a + (n - 1) * size;
    if (cmp(mid, lo) < 0) swap_bytes(mid, lo, size);
    if (cmp(hi, mid) < 0) swap_bytes(hi, mid, size);
    if (cmp(mid, lo) < 0) swap_bytes(mid, lo, size);
    swap_bytes(mid, a, size); /* pivot to the front */
    size_t i = 1, j = n - 1;
    for (;;) {
      while (i <= j && cmp(a + i * size, a) < 0) ++i;
      while (j >= i && cmp(a + j * size, a) > 0) --j;
      if (i >= j) break;
      swap_bytes(a + i * size, a + j * size, size);
      ++i, --j;
    }
    swap_bytes(a, a + j * size, size);
    /* recurse into the smaller part, loop on the larger */
    if (j < n - j - 1) {
      qsort(a, j, size, cmp);
      a += (j + 1) * size, n -= j + 1;
    } else {
      qsort(a + (j + 1) * size, n - j - 1, size, cmp);
      n = j;
    }
  }
  for (size_t i = 1; i < n; ++i)
    for (size_t k = i; k > 0 && cmp(a + (k - 1) * size, a + k * size) > 0; --k)
      swap_bytes(a + (k - 1) * size, a + k * size, size);
}

static uint64_t rand_state = 1;
void srand(unsigned seed) { rand_state = seed; }
int rand(void) {
  rand_state = rand_state * 6364136223846793005ull + 1442695040888963407ull;
  return (int)(rand_state >> 33);
}
