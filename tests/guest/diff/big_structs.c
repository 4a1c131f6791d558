/* Big structs passed and returned by value (the ABI passes them by reference to a
   copy and returns through a hidden pointer), arrays inside structs, nested structs,
   struct assignment in loops, and compound literals. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct vec8 {
  int64_t v[8];
};
struct matrix {
  int32_t m[6][6];
  char tag[20];
};
struct small {
  uint8_t a;
  uint16_t b;
};
struct odd {
  char c[7];
};
struct nested {
  struct small s[3];
  struct vec8 v;
  struct odd o;
  uint64_t tail;
};

static struct vec8 __attribute__((noinline)) vadd(struct vec8 a, struct vec8 b) {
  struct vec8 r;
  for (int i = 0; i < 8; ++i) r.v[i] = a.v[i] + b.v[i];
  a.v[0] = -999; /* modifies the callee's copy only */
  return r;
}
static struct vec8 __attribute__((noinline)) vscale(struct vec8 a, int64_t k) {
  for (int i = 0; i < 8; ++i) a.v[i] *= k;
  return a;
}
static struct matrix __attribute__((noinline)) transpose(struct matrix x) {
  struct matrix t;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) t.m[i][j] = x.m[j][i];
  memcpy(t.tag, x.tag, sizeof t.tag);
  t.tag[0] = 'T';
  return t;
}
static struct small __attribute__((noinline)) mk_small(int k) { return (struct small){(uint8_t)k, (uint16_t)(k * 1000)}; }
static struct odd __attribute__((noinline)) mk_odd(const char *s) {
  struct odd o;
  memset(&o, 0, sizeof o);
  for (int i = 0; i < 7 && s[i]; ++i) o.c[i] = s[i];
  return o;
}
static uint64_t __attribute__((noinline)) digest(struct nested n) {
  uint64_t h = n.tail;
  for (int i = 0; i < 3; ++i) h = h * 131 + n.s[i].a + n.s[i].b;
  for (int i = 0; i < 8; ++i) h = h * 131 + (uint64_t)n.v.v[i];
  for (int i = 0; i < 7; ++i) h = h * 131 + (unsigned char)n.o.c[i];
  return h;
}
static struct nested __attribute__((noinline)) build(int seed) {
  struct nested n;
  memset(&n, 0, sizeof n);
  for (int i = 0; i < 3; ++i) n.s[i] = mk_small(seed + i);
  for (int i = 0; i < 8; ++i) n.v.v[i] = (int64_t)seed * (i + 1) - 4;
  n.o = mk_odd("abcdefghij");
  n.tail = (uint64_t)seed << 40;
  return n;
}

int main(void) {
  struct vec8 a, b;
  for (int i = 0; i < 8; ++i) a.v[i] = i * 3 - 7, b.v[i] = (int64_t)1 << (i * 7);
  struct vec8 c = vadd(a, b);
  struct vec8 d = vscale(vadd(c, a), -3);
  printf("a0=%lld c:", (long long)a.v[0]);
  for (int i = 0; i < 8; ++i) printf(" %lld", (long long)c.v[i]);
  printf("\nd:");
  for (int i = 0; i < 8; ++i) printf(" %lld", (long long)d.v[i]);
  putchar('\n');
  struct matrix m;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) m.m[i][j] = i * 10 + j;
  strcpy(m.tag, "original");
  struct matrix t = transpose(m), tt = transpose(t);
  printf("t[1][4]=%d t[5][0]=%d tag=%s tt tag=%s same=%d\n", t.m[1][4], t.m[5][0], t.tag, tt.tag,
         memcmp(m.m, tt.m, sizeof m.m) == 0);
  uint64_t h = 0;
  struct nested arr[6];
  for (int k = 0; k < 6; ++k) arr[k] = build(k * 17 + 1);
  for (int k = 0; k < 6; ++k) h ^= digest(arr[k]) + (uint64_t)k;
  struct nested tmp = arr[0];
  for (int k = 0; k < 5; ++k) arr[k] = arr[k + 1];
  arr[5] = tmp;
  for (int k = 0; k < 6; ++k) h = h * 3 + digest(arr[k]);
  printf("nested size=%u h=%016llx o=%.7s s1.b=%u\n", (unsigned)sizeof(struct nested), (unsigned long long)h,
         arr[2].o.c, arr[2].s[1].b);
  struct odd odds[5];
  for (int k = 0; k < 5; ++k) odds[k] = mk_odd(k % 2 ? "xyz" : "1234567890");
  for (int k = 0; k < 5; ++k) printf("[%.7s]", odds[k].c);
  putchar('\n');
  return 0;
}
