/* Linked lists: a singly linked list built by malloc (push, reverse in place,
   merge sort of the list, remove by predicate with a pointer-to-pointer), a doubly
   linked circular list with a sentinel (insert, unlink, splice, rotate), and an
   intrusive LRU cache built on it with a small hash index. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct sn {
  int v;
  struct sn *next;
};
static struct sn *push(struct sn *h, int v) {
  struct sn *n = malloc(sizeof *n);
  n->v = v, n->next = h;
  return n;
}
static struct sn *reverse(struct sn *h) {
  struct sn *prev = 0;
  while (h) {
    struct sn *nx = h->next;
    h->next = prev, prev = h, h = nx;
  }
  return prev;
}
static struct sn *merge(struct sn *a, struct sn *b) {
  struct sn head, *t = &head;
  while (a && b) {
    if (a->v <= b->v) t->next = a, a = a->next;
    else t->next = b, b = b->next;
    t = t->next;
  }
  t->next = a ? a : b;
  return head.next;
}
static struct sn *msort(struct sn *h) {
  if (!h || !h->next) return h;
  struct sn *slow = h, *fast = h->next;
  while (fast && fast->next) slow = slow->next, fast = fast->next->next;
  struct sn *b = slow->next;
  slow->next = 0;
  return merge(msort(h), msort(b));
}
static unsigned remove_if(struct sn **pp, int (*pred)(int)) {
  unsigned n = 0;
  while (*pp) {
    if (pred((*pp)->v)) {
      struct sn *d = *pp;
      *pp = d->next;
      free(d);
      ++n;
    } else {
      pp = &(*pp)->next;
    }
  }
  return n;
}
static int is_mult3(int v) { return v % 3 == 0; }
static void print_list(const char *label, struct sn *h, int max) {
  printf("%s:", label);
  for (int i = 0; h && i < max; h = h->next, ++i) printf(" %d", h->v);
  putchar('\n');
}

/* doubly linked, intrusive */
struct dl {
  struct dl *prev, *next;
};
static void dl_init(struct dl *s) { s->prev = s->next = s; }
static void dl_insert_after(struct dl *pos, struct dl *n) {
  n->next = pos->next, n->prev = pos;
  pos->next->prev = n, pos->next = n;
}
static void dl_unlink(struct dl *n) {
  n->prev->next = n->next, n->next->prev = n->prev;
  n->next = n->prev = n;
}
#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))

struct entry {
  uint32_t key, value;
  struct dl lru;
  struct entry *hnext;
};
#define CAP 64
#define HB 32
static struct entry slots[CAP], *buckets[HB];
static struct dl lru_head;
static unsigned used, hits, misses, evictions;

static uint32_t compute(uint32_t k) { return k * 2654435761u ^ (k >> 3); }
static uint32_t cache_get(uint32_t key) {
  struct entry **bp = &buckets[key % HB];
  for (struct entry *e = *bp; e; e = e->hnext)
    if (e->key == key) {
      ++hits;
      dl_unlink(&e->lru);
      dl_insert_after(&lru_head, &e->lru);
      return e->value;
    }
  ++misses;
  struct entry *e;
  if (used < CAP) {
    e = &slots[used++];
  } else {
    e = container_of(lru_head.prev, struct entry, lru); /* least recently used */
    dl_unlink(&e->lru);
    struct entry **pp = &buckets[e->key % HB];
    while (*pp != e) pp = &(*pp)->hnext;
    *pp = e->hnext;
    ++evictions;
  }
  e->key = key, e->value = compute(key);
  e->hnext = *bp, *bp = e;
  dl_insert_after(&lru_head, &e->lru);
  return e->value;
}

int main(void) {
  struct sn *h = 0;
  uint32_t x = 99;
  for (int i = 0; i < 1000; ++i) x = x * 1103515245u + 12345u, h = push(h, (int)(x >> 16) % 1000 - 500);
  print_list("pushed", h, 8);
  h = reverse(h);
  print_list("reversed", h, 8);
  h = msort(h);
  print_list("sorted", h, 8);
  int ok = 1, n = 0;
  for (struct sn *p = h; p; p = p->next, ++n)
    if (p->next && p->v > p->next->v) ok = 0;
  printf("sorted ok=%d n=%d removed=%u\n", ok, n, remove_if(&h, is_mult3));
  n = 0;
  long sum = 0;
  for (struct sn *p = h; p; p = p->next) ++n, sum += p->v;
  printf("after remove n=%d sum=%ld\n", n, sum);
  while (h) {
    struct sn *d = h;
    h = h->next;
    free(d);
  }
  /* LRU cache */
  dl_init(&lru_head);
  uint32_t acc = 0;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1103515245u + 12345u;
    uint32_t key = (x >> 16) % ((i / 5000 + 1) * 40); /* working set grows past the capacity */
    acc = acc * 31 + cache_get(key);
  }
  unsigned len = 0;
  for (struct dl *p = lru_head.next; p != &lru_head; p = p->next) ++len;
  struct entry *mru = container_of(lru_head.next, struct entry, lru);
  printf("lru hits=%u misses=%u evictions=%u len=%u mru=%u acc=%08x\n", hits, misses, evictions, len, mru->key, acc);
  return !ok;
}
