/* Function pointers: a table of operations indexed at run time, callbacks with
   context pointers, pointers returned from functions, a struct of function pointers
   (a vtable), comparison callbacks, and pointers to static functions in other
   positions of the call chain (BASR/BALR through registers). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int64_t (*binop)(int64_t, int64_t);
static int64_t op_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t op_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t op_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t op_min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t op_max(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t op_xor(int64_t a, int64_t b) { return a ^ b; }
static const binop ops[] = {op_add, op_sub, op_mul, op_min, op_max, op_xor};
static const char *const names[] = {"add", "sub", "mul", "min", "max", "xor"};

static int64_t fold(const int64_t *v, int n, binop f, int64_t init) {
  for (int i = 0; i < n; ++i) init = f(init, v[i]);
  return init;
}

static binop pick(const char *name) {
  for (unsigned i = 0; i < 6; ++i) {
    const char *a = names[i], *b = name;
    while (*a && *a == *b) ++a, ++b;
    if (!*a && !*b) return ops[i];
  }
  return 0;
}

struct shape;
struct shape_vt {
  int64_t (*area)(const struct shape *);
  int64_t (*perimeter)(const struct shape *);
  const char *(*name)(void);
};
struct shape {
  const struct shape_vt *vt;
  int64_t a, b;
};
static int64_t rect_area(const struct shape *s) { return s->a * s->b; }
static int64_t rect_per(const struct shape *s) { return 2 * (s->a + s->b); }
static const char *rect_name(void) { return "rect"; }
static int64_t sq_area(const struct shape *s) { return s->a * s->a; }
static int64_t sq_per(const struct shape *s) { return 4 * s->a; }
static const char *sq_name(void) { return "square"; }
static int64_t tri_area2(const struct shape *s) { return s->a * s->b; } /* twice the area */
static int64_t tri_per(const struct shape *s) { return s->a + s->b + s->a; }
static const char *tri_name(void) { return "triangle"; }
static const struct shape_vt rect_vt = {rect_area, rect_per, rect_name}, sq_vt = {sq_area, sq_per, sq_name},
                             tri_vt = {tri_area2, tri_per, tri_name};

struct counter {
  int calls;
  int64_t total;
};
static void visit(const int64_t *v, int n, void (*cb)(void *, int64_t), void *ctx) {
  for (int i = 0; i < n; ++i) cb(ctx, v[i]);
}
static void count_cb(void *ctx, int64_t x) {
  struct counter *c = ctx;
  c->calls++;
  c->total += x;
}
static void count_odd_cb(void *ctx, int64_t x) {
  struct counter *c = ctx;
  if (x & 1) c->calls++, c->total += x;
}

static int cmp_abs(const void *a, const void *b) {
  int x = abs(*(const int *)a), y = abs(*(const int *)b);
  return x < y ? -1 : x > y;
}

typedef int (*intfn)(int);
static int twice(int x) { return 2 * x; }
static int inc(int x) { return x + 1; }
static int sq(int x) { return x * x; }
static int compose_apply(const intfn *fs, int n, int x) {
  for (int i = n - 1; i >= 0; --i) x = fs[i](x);
  return x;
}

int main(void) {
  int64_t v[] = {5, -3, 12, 7, -100, 0x7fffffff, 42, 1, -1, 9};
  for (unsigned i = 0; i < 6; ++i) printf("%s=%lld ", names[i], (long long)fold(v, 10, ops[i], i == 2 ? 1 : 0));
  putchar('\n');
  const char *prog[] = {"add", "mul", "max", "nope", "xor", "sub"};
  int64_t acc = 3;
  for (unsigned i = 0; i < 6; ++i) {
    binop f = pick(prog[i]);
    if (!f) {
      printf("no op %s\n", prog[i]);
      continue;
    }
    acc = f(acc, (int64_t)i * 11 + 2);
  }
  printf("acc=%lld\n", (long long)acc);
  struct shape shapes[] = {{&rect_vt, 3, 4}, {&sq_vt, 5, 0}, {&tri_vt, 6, 8}, {&rect_vt, 10, 1}};
  for (unsigned i = 0; i < 4; ++i)
    printf("%s area=%lld per=%lld\n", shapes[i].vt->name(), (long long)shapes[i].vt->area(&shapes[i]),
           (long long)shapes[i].vt->perimeter(&shapes[i]));
  struct counter c1 = {0, 0}, c2 = {0, 0};
  visit(v, 10, count_cb, &c1);
  visit(v, 10, count_odd_cb, &c2);
  printf("visit all %d %lld odd %d %lld\n", c1.calls, (long long)c1.total, c2.calls, (long long)c2.total);
  int w[] = {-9, 3, -1, 7, 0, -4, 5, 2, -8, 6};
  qsort(w, 10, sizeof w[0], cmp_abs);
  for (int i = 0; i < 10; ++i) printf("%d ", w[i]);
  putchar('\n');
  intfn chain[] = {twice, inc, sq, inc};
  printf("compose %d %d\n", compose_apply(chain, 4, 3), compose_apply(chain + 1, 2, -4));
  volatile intfn vf = sq;
  printf("volatile fnptr %d\n", vf(vf(3)));
  return 0;
}
