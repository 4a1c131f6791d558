/* An AVL tree with insert and delete (recursive, with rotations), nodes from a
   static pool with a free list. After every batch of operations the invariants are
   checked: BST order, stored heights correct, balance factor in -1..1, node count
   matching a shadow bitmap of present keys. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAXN 4096
#define KEYS 8192
struct node {
  int key, height;
  struct node *l, *r;
  uint32_t val;
};
static struct node pool[MAXN], *free_nodes;
static unsigned char present[KEYS];
static unsigned rotations;

static int h(struct node *n) { return n ? n->height : 0; }
static void fix(struct node *n) { n->height = 1 + (h(n->l) > h(n->r) ? h(n->l) : h(n->r)); }
static struct node *rot_right(struct node *y) {
  struct node *x = y->l;
  y->l = x->r, x->r = y;
  fix(y), fix(x);
  ++rotations;
  return x;
}
static struct node *rot_left(struct node *x) {
  struct node *y = x->r;
  x->r = y->l, y->l = x;
  fix(x), fix(y);
  ++rotations;
  return y;
}
static struct node *balance(struct node *n) {
  fix(n);
  int bf = h(n->l) - h(n->r);
  if (bf > 1) {
    if (h(n->l->l) < h(n->l->r)) n->l = rot_left(n->l);
    return rot_right(n);
  }
  if (bf < -1) {
    if (h(n->r->r) < h(n->r->l)) n->r = rot_right(n->r);
    return rot_left(n);
  }
  return n;
}
static struct node *insert(struct node *n, int key, uint32_t val) {
  if (!n) {
    struct node *m = free_nodes;
    free_nodes = m->l;
    m->key = key, m->val = val, m->l = m->r = 0, m->height = 1;
    return m;
  }
  if (key < n->key) n->l = insert(n->l, key, val);
  else if (key > n->key) n->r = insert(n->r, key, val);
  else n->val = val;
  return balance(n);
}
static struct node *remove_min(struct node *n, struct node **min) {
  if (!n->l) {
    *min = n;
    return n->r;
  }
  n->l = remove_min(n->l, min);
  return balance(n);
}
static struct node *erase(struct node *n, int key) {
  if (!n) return 0;
  if (key < n->key) n->l = erase(n->l, key);
  else if (key > n->key) n->r = erase(n->r, key);
  else {
    struct node *l = n->l, *r = n->r;
    n->l = free_nodes, free_nodes = n;
    if (!r) return l;
    struct node *m;
    r = remove_min(r, &m);
    m->l = l, m->r = r;
    return balance(m);
  }
  return balance(n);
}
static int check(struct node *n, int lo, int hi, unsigned *count, unsigned *bad) {
  if (!n) return 0;
  if (n->key <= lo || n->key >= hi) ++*bad;
  int hl = check(n->l, lo, n->key, count, bad), hr = check(n->r, n->key, hi, count, bad);
  if (n->height != 1 + (hl > hr ? hl : hr)) ++*bad;
  if (hl - hr > 1 || hr - hl > 1) ++*bad;
  if (!present[n->key]) ++*bad;
  ++*count;
  return n->height;
}
static struct node *find(struct node *n, int key) {
  while (n && n->key != key) n = key < n->key ? n->l : n->r;
  return n;
}

int main(void) {
  for (int i = 0; i < MAXN - 1; ++i) pool[i].l = &pool[i + 1];
  free_nodes = &pool[0];
  struct node *root = 0;
  unsigned live = 0, bad = 0;
  uint32_t x = 2463534242u;
  for (int round = 0; round < 8; ++round) {
    for (int op = 0; op < 3000; ++op) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      int key = (int)(x % KEYS);
      int do_insert = round < 4 ? (x >> 20) % 4 != 0 : (x >> 20) % 4 == 0;
      if (do_insert && live < MAXN - 1) {
        if (!present[key]) ++live;
        present[key] = 1;
        root = insert(root, key, x);
      } else if (!do_insert) {
        if (present[key]) --live;
        present[key] = 0;
        root = erase(root, key);
      }
    }
    unsigned count = 0;
    int height = check(root, -1, KEYS, &count, &bad);
    if (count != live) ++bad;
    unsigned found = 0;
    for (int k = 0; k < KEYS; k += 7) found += find(root, k) != 0;
    printf("round %d: size=%u height=%d found=%u rotations=%u bad=%u\n", round, count, height, found, rotations, bad);
  }
  /* in-order walk checksum with an explicit stack */
  struct node *stack[64];
  int sp = 0;
  uint32_t hsum = 0;
  int prev = -1;
  for (struct node *n = root; n || sp;) {
    while (n) stack[sp++] = n, n = n->l;
    n = stack[--sp];
    if (n->key <= prev) ++bad;
    prev = n->key;
    hsum = hsum * 31 + (uint32_t)n->key + n->val;
    n = n->r;
  }
  printf("inorder hash %08x bad=%u\n", hsum, bad);
  return bad != 0;
}
