/* Arbitrary-precision unsigned integers with 32-bit limbs (little-endian limb
   order): add, subtract, multiply (schoolbook, 64-bit partial products), short and
   long division (Knuth algorithm D), decimal conversion. Computes 100!, 2^1000,
   Fibonacci(1000), checks (a*b)/b == a and a == q*b + r for generated values. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAXL 200
typedef struct {
  int n; /* limbs in use; no leading zero limbs */
  uint32_t d[MAXL];
} big;

static void norm(big *a) {
  while (a->n > 0 && a->d[a->n - 1] == 0) a->n--;
}
static void set_u64(big *a, uint64_t v) {
  a->n = 0;
  while (v) a->d[a->n++] = (uint32_t)v, v >>= 32;
}
static int cmp(const big *a, const big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; --i)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}
static void add(big *r, const big *a, const big *b) {
  uint64_t c = 0;
  int n = a->n > b->n ? a->n : b->n;
  for (int i = 0; i < n; ++i) {
    c += (uint64_t)(i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0);
    r->d[i] = (uint32_t)c;
    c >>= 32;
  }
  r->n = n;
  if (c) r->d[r->n++] = (uint32_t)c;
}
static void sub(big *r, const big *a, const big *b) { /* a >= b */
  int64_t br = 0;
  for (int i = 0; i < a->n; ++i) {
    int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - br;
    br = t < 0;
    r->d[i] = (uint32_t)(t + (br << 32));
  }
  r->n = a->n;
  norm(r);
}
static void mul(big *r, const big *a, const big *b) {
  uint32_t t[MAXL];
  memset(t, 0, sizeof t);
  for (int i = 0; i < a->n; ++i) {
    uint64_t c = 0;
    for (int j = 0; j < b->n; ++j) {
      c += (uint64_t)a->d[i] * b->d[j] + t[i + j];
      t[i + j] = (uint32_t)c;
      c >>= 32;
    }
    t[i + b->n] = (uint32_t)c;
  }
  r->n = a->n + b->n;
  memcpy(r->d, t, sizeof(uint32_t) * (size_t)r->n);
  norm(r);
}
static void mul_small(big *a, uint32_t m) {
  uint64_t c = 0;
  for (int i = 0; i < a->n; ++i) c += (uint64_t)a->d[i] * m, a->d[i] = (uint32_t)c, c >>= 32;
  if (c) a->d[a->n++] = (uint32_t)c;
}
static uint32_t div_small(big *a, uint32_t m) {
  uint64_t r = 0;
  for (int i = a->n - 1; i >= 0; --i) {
    r = r << 32 | a->d[i];
    a->d[i] = (uint32_t)(r / m);
    r %= m;
  }
  norm(a);
  return (uint32_t)r;
}
/* Knuth D: q = u / v, r = u % v, v->n >= 1 */
static void divmod(big *q, big *r, const big *u, const big *v) {
  if (cmp(u, v) < 0) {
    q->n = 0;
    *r = *u;
    return;
  }
  if (v->n == 1) {
    *q = *u;
    set_u64(r, div_small(q, v->d[0]));
    return;
  }
  int s = __builtin_clz(v->d[v->n - 1]);
  uint32_t un[MAXL + 1], vn[MAXL];
  int m = u->n, n = v->n;
  for (int i = n - 1; i > 0; --i) vn[i] = (v->d[i] << s) | (s ? v->d[i - 1] >> (32 - s) : 0);
  vn[0] = v->d[0] << s;
  un[m] = s ? u->d[m - 1] >> (32 - s) : 0;
  for (int i = m - 1; i > 0; --i) un[i] = (u->d[i] << s) | (s ? u->d[i - 1] >> (32 - s) : 0);
  un[0] = u->d[0] << s;
  q->n = m - n + 1;
  for (int j = m - n; j >= 0; --j) {
    uint64_t num = (uint64_t)un[j + n] << 32 | un[j + n - 1];
    uint64_t qhat = num / vn[n - 1], rhat = num % vn[n - 1];
    while (qhat >= (1ULL << 32) || qhat * vn[n - 2] > (rhat << 32 | un[j + n - 2])) {
      --qhat, rhat += vn[n - 1];
      if (rhat >= (1ULL << 32)) break;
    }
    int64_t borrow = 0;
    uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      uint64_t p = qhat * vn[i] + carry;
      carry = p >> 32;
      int64_t t = (int64_t)un[i + j] - borrow - (int64_t)(uint32_t)p;
      un[i + j] = (uint32_t)t;
      borrow = t < 0;
    }
    int64_t t = (int64_t)un[j + n] - borrow - (int64_t)carry;
    un[j + n] = (uint32_t)t;
    if (t < 0) { /* add back */
      --qhat;
      uint64_t c = 0;
      for (int i = 0; i < n; ++i) {
        c += (uint64_t)un[i + j] + vn[i];
        un[i + j] = (uint32_t)c;
        c >>= 32;
      }
      un[j + n] += (uint32_t)c;
    }
    q->d[j] = (uint32_t)qhat;
  }
  norm(q);
  r->n = n;
  for (int i = 0; i < n; ++i) r->d[i] = (un[i] >> s) | (s ? un[i + 1] << (32 - s) : 0);
  norm(r);
}
static void print_dec(const char *label, const big *a) {
  static char buf[2000];
  big t = *a;
  int k = 0;
  if (t.n == 0) buf[k++] = '0';
  while (t.n) {
    uint32_t chunk = div_small(&t, 1000000000u);
    for (int i = 0; i < 9; ++i) {
      buf[k++] = (char)('0' + chunk % 10);
      chunk /= 10;
      if (!t.n && !chunk) break;
    }
  }
  printf("%s (%d digits): ", label, k);
  while (k) putchar(buf[--k]);
  putchar('\n');
}
static uint32_t rs = 7;
static uint32_t rnd(void) { rs ^= rs << 13, rs ^= rs >> 17, rs ^= rs << 5; return rs; }

int main(void) {
  big f;
  set_u64(&f, 1);
  for (uint32_t k = 2; k <= 100; ++k) mul_small(&f, k);
  print_dec("100!", &f);
  big p;
  set_u64(&p, 1);
  for (int k = 0; k < 1000; ++k) add(&p, &p, &p);
  print_dec("2^1000", &p);
  big a, b, c;
  set_u64(&a, 0), set_u64(&b, 1);
  for (int k = 0; k < 1000; ++k) add(&c, &a, &b), a = b, b = c;
  print_dec("fib(1000)", &a);
  /* long divisions of the big values */
  big q, r;
  divmod(&q, &r, &p, &f);
  print_dec("2^1000 / 100!", &q);
  print_dec("2^1000 % 100!", &r);
  big q2;
  divmod(&q2, &r, &a, &q);
  print_dec("fib(1000) / (2^1000 / 100!)", &q2);
  print_dec("remainder", &r);
  unsigned bad = 0;
  for (int t = 0; t < 60; ++t) {
    big x, y, prod, qq, rr, back;
    x.n = 1 + (int)(rnd() % 12), y.n = 1 + (int)(rnd() % 8);
    for (int i = 0; i < x.n; ++i) x.d[i] = rnd();
    for (int i = 0; i < y.n; ++i) y.d[i] = rnd() >> (rnd() % 32);
    if (t % 5 == 0) y.d[y.n - 1] = 0xffffffffu;
    if (t % 7 == 0) y.d[y.n - 1] = 1;
    norm(&x), norm(&y);
    if (!y.n) set_u64(&y, 3);
    mul(&prod, &x, &y);
    divmod(&qq, &rr, &prod, &y);
    if (cmp(&qq, &x) != 0 || rr.n != 0) ++bad;
    add(&prod, &prod, &x); /* prod = x*y + x: divide again; r must be x mod y */
    divmod(&qq, &rr, &prod, &y);
    mul(&back, &qq, &y);
    add(&back, &back, &rr);
    if (cmp(&back, &prod) != 0 || cmp(&rr, &y) >= 0) ++bad;
    big d;
    if (cmp(&prod, &x) >= 0) {
      sub(&d, &prod, &x);
      add(&d, &d, &x);
      if (cmp(&d, &prod) != 0) ++bad;
    }
  }
  printf("random checks bad=%u\n", bad);
  return bad != 0;
}
