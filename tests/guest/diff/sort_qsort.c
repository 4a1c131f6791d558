/* qsort from the runtime on ints (including duplicates and extremes), 64-bit keys,
   strings, and structs with a two-level key; every result is checked for order and
   for being a permutation of the input (by a sum and xor of elements). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int cmp_u64_desc(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x < y) - (x > y);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

struct emp {
  char dept[8];
  int salary;
  unsigned id;
};
static int cmp_emp(const void *a, const void *b) {
  const struct emp *x = a, *y = b;
  int c = strcmp(x->dept, y->dept);
  if (c) return c;
  if (x->salary != y->salary) return x->salary > y->salary ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

int main(void) {
  static int v[3000];
  srand(12345);
  for (int n = 0; n <= 3000; n = n ? n * 3 : 1) {
    if (n > 3000) break;
    uint64_t sum = 0, xr = 0;
    for (int i = 0; i < n; ++i) {
      int r = rand();
      v[i] = (i % 7 == 0) ? INT_MIN + (r % 3) : (i % 11 == 0) ? INT_MAX : (r % 200) - 100;
      sum += (uint64_t)(int64_t)v[i], xr ^= (uint64_t)(uint32_t)v[i];
    }
    qsort(v, (size_t)n, sizeof v[0], cmp_int);
    int ok = 1;
    for (int i = 1; i < n; ++i) ok &= v[i - 1] <= v[i];
    for (int i = 0; i < n; ++i) sum -= (uint64_t)(int64_t)v[i], xr ^= (uint64_t)(uint32_t)v[i];
    printf("n=%4d sorted=%d perm=%d first=%d last=%d median=%d\n", n, ok, sum == 0 && xr == 0, n ? v[0] : 0,
           n ? v[n - 1] : 0, n ? v[n / 2] : 0);
  }
  /* already sorted, reversed, all equal */
  for (int i = 0; i < 1000; ++i) v[i] = i;
  qsort(v, 1000, sizeof v[0], cmp_int);
  int ok = 1;
  for (int i = 0; i < 1000; ++i) ok &= v[i] == i;
  for (int i = 0; i < 1000; ++i) v[i] = 1000 - i;
  qsort(v, 1000, sizeof v[0], cmp_int);
  for (int i = 0; i < 1000; ++i) ok &= v[i] == i + 1;
  for (int i = 0; i < 1000; ++i) v[i] = 42;
  qsort(v, 1000, sizeof v[0], cmp_int);
  for (int i = 0; i < 1000; ++i) ok &= v[i] == 42;
  printf("special orders ok=%d\n", ok);
  /* 64-bit keys, descending */
  static uint64_t k[500];
  uint64_t s = 1;
  for (int i = 0; i < 500; ++i) s = s * 6364136223846793005ULL + 1442695040888963407ULL, k[i] = s;
  qsort(k, 500, sizeof k[0], cmp_u64_desc);
  ok = 1;
  for (int i = 1; i < 500; ++i) ok &= k[i - 1] >= k[i];
  printf("u64 desc ok=%d top=%016llx bottom=%016llx\n", ok, (unsigned long long)k[0], (unsigned long long)k[499]);
  /* strings */
  const char *words[] = {"pear", "apple", "fig", "banana", "Cherry", "apple", "date", "", "elderberry", "\xc3\xa9" "clair",
                         "grape", "apricot", "app"};
  unsigned nw = sizeof words / sizeof words[0];
  qsort(words, nw, sizeof words[0], cmp_str);
  for (unsigned i = 0; i < nw; ++i) printf("[%s]", words[i]);
  putchar('\n');
  /* structs */
  static struct emp e[200];
  const char *depts[] = {"ops", "dev", "qa", "hr", "dev2"};
  for (unsigned i = 0; i < 200; ++i) {
    strcpy(e[i].dept, depts[rand() % 5]);
    e[i].salary = 1000 + rand() % 50 * 100;
    e[i].id = i;
  }
  qsort(e, 200, sizeof e[0], cmp_emp);
  ok = 1;
  for (unsigned i = 1; i < 200; ++i) ok &= cmp_emp(&e[i - 1], &e[i]) < 0;
  printf("emp ok=%d", ok);
  for (unsigned i = 0; i < 200; i += 25) printf(" %s/%d/%u", e[i].dept, e[i].salary, e[i].id);
  putchar('\n');
  return 0;
}
