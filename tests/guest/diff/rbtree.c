/* A red-black tree with parent pointers (insert and delete with the classic
   fix-ups, as in CLRS, with a sentinel nil node). Invariants checked periodically:
   root black, no red node with a red child, equal black height on every path,
   BST order, parent links consistent, size matching a shadow array. */
#include <stdint.h>
#include <stdio.h>

#define MAXN 3000
enum { RED, BLACK };
struct rb {
  uint32_t key;
  int color;
  struct rb *l, *r, *p;
};
static struct rb nil_node = {0, BLACK, 0, 0, 0};
#define NIL (&nil_node)
static struct rb pool[MAXN], *freel;
static struct rb *root = NIL;

static void rot_left(struct rb *x) {
  struct rb *y = x->r;
  x->r = y->l;
  if (y->l != NIL) y->l->p = x;
  y->p = x->p;
  if (x->p == NIL) root = y;
  else if (x == x->p->l) x->p->l = y;
  else x->p->r = y;
  y->l = x, x->p = y;
}
static void rot_right(struct rb *x) {
  struct rb *y = x->l;
  x->l = y->r;
  if (y->r != NIL) y->r->p = x;
  y->p = x->p;
  if (x->p == NIL) root = y;
  else if (x == x->p->r) x->p->r = y;
  else x->p->l = y;
  y->r = x, x->p = y;
}
static struct rb *search(uint32_t k) {
  struct rb *n = root;
  while (n != NIL && n->key != k) n = k < n->key ? n->l : n->r;
  return n;
}
static int insert(uint32_t k) {
  struct rb *y = NIL, *x = root;
  while (x != NIL) {
    y = x;
    if (k == x->key) return 0;
    x = k < x->key ? x->l : x->r;
  }
  struct rb *z = freel;
  freel = z->r;
  z->key = k, z->l = z->r = NIL, z->p = y, z->color = RED;
  if (y == NIL) root = z;
  else if (k < y->key) y->l = z;
  else y->r = z;
  while (z->p->color == RED) {
    struct rb *g = z->p->p;
    if (z->p == g->l) {
      struct rb *u = g->r;
      if (u->color == RED) {
        z->p->color = BLACK, u->color = BLACK, g->color = RED, z = g;
      } else {
        if (z == z->p->r) z = z->p, rot_left(z);
        z->p->color = BLACK, z->p->p->color = RED, rot_right(z->p->p);
      }
    } else {
      struct rb *u = g->l;
      if (u->color == RED) {
        z->p->color = BLACK, u->color = BLACK, g->color = RED, z = g;
      } else {
        if (z == z->p->l) z = z->p, rot_right(z);
        z->p->color = BLACK, z->p->p->color = RED, rot_left(z->p->p);
      }
    }
  }
  root->color = BLACK;
  return 1;
}
static void transplant(struct rb *u, struct rb *v) {
  if (u->p == NIL) root = v;
  else if (u == u->p->l) u->p->l = v;
  else u->p->r = v;
  v->p = u->p;
}
static int erase(uint32_t k) {
  struct rb *z = search(k);
  if (z == NIL) return 0;
  struct rb *y = z, *x;
  int yc = y->color;
  if (z->l == NIL) x = z->r, transplant(z, z->r);
  else if (z->r == NIL) x = z->l, transplant(z, z->l);
  else {
    y = z->r;
    while (y->l != NIL) y = y->l;
    yc = y->color;
    x = y->r;
    if (y->p == z) x->p = y;
    else transplant(y, y->r), y->r = z->r, y->r->p = y;
    transplant(z, y);
    y->l = z->l, y->l->p = y, y->color = z->color;
  }
  if (yc == BLACK) {
    while (x != root && x->color == BLACK) {
      if (x == x->p->l) {
        struct rb *w = x->p->r;
        if (w->color == RED) w->color = BLACK, x->p->color = RED, rot_left(x->p), w = x->p->r;
        if (w->l->color == BLACK && w->r->color == BLACK) w->color = RED, x = x->p;
        else {
          if (w->r->color == BLACK) w->l->color = BLACK, w->color = RED, rot_right(w), w = x->p->r;
          w->color = x->p->color, x->p->color = BLACK, w->r->color = BLACK, rot_left(x->p), x = root;
        }
      } else {
        struct rb *w = x->p->l;
        if (w->color == RED) w->color = BLACK, x->p->color = RED, rot_right(x->p), w = x->p->l;
        if (w->r->color == BLACK && w->l->color == BLACK) w->color = RED, x = x->p;
        else {
          if (w->l->color == BLACK) w->r->color = BLACK, w->color = RED, rot_left(w), w = x->p->l;
          w->color = x->p->color, x->p->color = BLACK, w->l->color = BLACK, rot_right(x->p), x = root;
        }
      }
    }
    x->color = BLACK;
  }
  z->r = freel, freel = z;
  return 1;
}
static unsigned bad;
static int check(struct rb *n, uint64_t lo, uint64_t hi, unsigned *count) {
  if (n == NIL) return 1;
  if (n->key < lo || n->key > hi) ++bad;
  if (n->color == RED && (n->l->color == RED || n->r->color == RED)) ++bad;
  if (n->l != NIL && n->l->p != n) ++bad;
  if (n->r != NIL && n->r->p != n) ++bad;
  ++*count;
  int bl = check(n->l, lo, (uint64_t)n->key - 1, count), br = check(n->r, (uint64_t)n->key + 1, hi, count);
  if (bl != br) ++bad;
  return bl + (n->color == BLACK);
}
static int depth(struct rb *n) {
  if (n == NIL) return 0;
  int a = depth(n->l), b = depth(n->r);
  return 1 + (a > b ? a : b);
}

int main(void) {
  for (int i = 0; i < MAXN - 1; ++i) pool[i].r = &pool[i + 1];
  freel = pool;
  static uint32_t keys[MAXN];
  unsigned nkeys = 0;
  uint64_t s = 1;
  unsigned ins = 0, del = 0;
  for (int step = 0; step < 13000; ++step) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    uint32_t r = (uint32_t)(s >> 33);
    int want_insert = (step / 2000) % 2 == 0 ? r % 3 != 0 : r % 3 == 0;
    if (want_insert && nkeys < MAXN - 1) {
      uint32_t k = r % 20000;
      if (insert(k)) keys[nkeys++] = k, ++ins;
    } else if (nkeys) {
      unsigned idx = (r >> 8) % nkeys;
      if (!erase(keys[idx])) ++bad;
      keys[idx] = keys[--nkeys], ++del;
    }
    if (step % 1500 == 1499) {
      unsigned count = 0;
      if (root->color != BLACK) ++bad;
      int bh = check(root, 0, 0xffffffffu, &count);
      if (count != nkeys) ++bad;
      printf("step %5d: size=%u black-height=%d depth=%d ins=%u del=%u bad=%u\n", step + 1, count, bh, depth(root),
             ins, del, bad);
    }
  }
  unsigned hits = 0;
  for (uint32_t k = 0; k < 20000; k += 3) hits += search(k) != NIL;
  printf("hits %u bad %u\n", hits, bad);
  return bad != 0;
}
