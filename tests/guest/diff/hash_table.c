/* An open-addressing hash table (linear probing, tombstones, growth by rehash) with
   string keys copied into an arena, and a separately chained table with integer
   keys; both are checked against each other over a deterministic stream of
   insert/update/delete/lookup operations. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct slot {
  char *key; /* NULL: empty; TOMB: deleted */
  uint32_t hash;
  int64_t value;
};
static char tomb_mark;
#define TOMB (&tomb_mark)
static struct slot *tab;
static size_t cap, used, tombs;
static unsigned probes, rehashes;

static uint32_t strhash(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}
static void oa_init(size_t c) {
  tab = calloc(c, sizeof *tab);
  cap = c, used = tombs = 0;
}
static struct slot *oa_find(const char *k, uint32_t h, int for_insert) {
  size_t i = h & (cap - 1);
  struct slot *first_tomb = 0;
  for (;;) {
    ++probes;
    struct slot *s = &tab[i];
    if (!s->key) return for_insert && first_tomb ? first_tomb : s;
    if (s->key == TOMB) {
      if (!first_tomb) first_tomb = s;
    } else if (s->hash == h && strcmp(s->key, k) == 0) {
      return s;
    }
    i = (i + 1) & (cap - 1);
  }
}
static void oa_put(const char *k, int64_t v);
static void oa_grow(void) {
  struct slot *old = tab;
  size_t oc = cap;
  oa_init(oc * 2);
  ++rehashes;
  for (size_t i = 0; i < oc; ++i)
    if (old[i].key && old[i].key != TOMB) {
      struct slot *s = oa_find(old[i].key, old[i].hash, 1);
      *s = old[i];
      ++used;
    }
  free(old);
}
static void oa_put(const char *k, int64_t v) {
  if ((used + tombs + 1) * 4 > cap * 3) oa_grow();
  uint32_t h = strhash(k);
  struct slot *s = oa_find(k, h, 1);
  if (s->key && s->key != TOMB) {
    s->value = v;
    return;
  }
  if (s->key == TOMB) --tombs;
  size_t n = strlen(k) + 1;
  s->key = malloc(n);
  memcpy(s->key, k, n);
  s->hash = h, s->value = v;
  ++used;
}
static int oa_get(const char *k, int64_t *v) {
  struct slot *s = oa_find(k, strhash(k), 0);
  if (!s->key) return 0;
  *v = s->value;
  return 1;
}
static int oa_del(const char *k) {
  struct slot *s = oa_find(k, strhash(k), 0);
  if (!s->key) return 0;
  free(s->key);
  s->key = TOMB;
  --used, ++tombs;
  return 1;
}

/* chained table keyed by the integer the string was made from */
struct cnode {
  uint32_t key;
  int64_t value;
  struct cnode *next;
};
static struct cnode *chains[97];
static struct cnode **ch_find(uint32_t k) {
  struct cnode **pp = &chains[k % 97];
  while (*pp && (*pp)->key != k) pp = &(*pp)->next;
  return pp;
}

int main(void) {
  oa_init(16);
  uint32_t x = 777;
  unsigned mismatches = 0, ops[4] = {0};
  char key[24];
  for (int step = 0; step < 30000; ++step) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    uint32_t k = x % 3000;
    snprintf(key, sizeof key, "key-%u-%x", k, k * 2654435761u);
    unsigned op = (x >> 20) % 4;
    ++ops[op];
    struct cnode **pp = ch_find(k);
    int64_t v = (int64_t)x - 0x7fffffff;
    if (op <= 1) {
      oa_put(key, v);
      if (*pp) (*pp)->value = v;
      else {
        struct cnode *n = malloc(sizeof *n);
        n->key = k, n->value = v, n->next = 0;
        *pp = n;
      }
    } else if (op == 2) {
      int a = oa_del(key), b = *pp != 0;
      if (*pp) {
        struct cnode *d = *pp;
        *pp = d->next;
        free(d);
      }
      mismatches += a != b;
    } else {
      int64_t got = 0;
      int a = oa_get(key, &got), b = *pp != 0;
      mismatches += a != b || (a && got != (*pp)->value);
    }
  }
  size_t chain_count = 0, longest = 0;
  for (int i = 0; i < 97; ++i) {
    size_t len = 0;
    for (struct cnode *n = chains[i]; n; n = n->next) ++len;
    chain_count += len;
    if (len > longest) longest = len;
  }
  int64_t total = 0;
  for (size_t i = 0; i < cap; ++i)
    if (tab[i].key && tab[i].key != TOMB) total += tab[i].value;
  printf("ops put=%u upd=%u del=%u get=%u\n", ops[0], ops[1], ops[2], ops[3]);
  printf("oa: cap=%u used=%u tombs=%u rehashes=%u probes=%u total=%lld\n", (unsigned)cap, (unsigned)used,
         (unsigned)tombs, rehashes, probes, (long long)total);
  printf("chained: count=%u longest=%u mismatches=%u\n", (unsigned)chain_count, (unsigned)longest, mismatches);
  return mismatches != 0 || chain_count != used;
}
