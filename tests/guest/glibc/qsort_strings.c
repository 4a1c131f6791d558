/* qsort and bsearch from the C library over integers and strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}
static int cmp_str(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

int main(void) {
  enum { N = 5000 };
  static int v[N];
  unsigned x = 12345;
  for (int k = 0; k < N; ++k) x = x * 1103515245u + 12345u, v[k] = (int)(x >> 8) % 100000 - 50000;
  qsort(v, N, sizeof v[0], cmp_int);
  long check = 0;
  for (int k = 0; k < N; ++k) {
    if (k && v[k - 1] > v[k]) return printf("not sorted at %d\n", k), 1;
    check = check * 31 + v[k];
  }
  printf("ints: first=%d last=%d check=%ld\n", v[0], v[N - 1], check);
  int key = v[N / 3];
  int* hit = bsearch(&key, v, N, sizeof v[0], cmp_int);
  printf("bsearch found %d: %s\n", key, hit && *hit == key ? "yes" : "no");

  const char* words[] = {"pear", "apple", "fig", "banana", "cherry", "kiwi", "date", "grape", "lemon", "mango"};
  enum { W = sizeof words / sizeof words[0] };
  char* copy[W];
  for (int k = 0; k < W; ++k) copy[k] = strdup(words[k]);
  qsort(copy, W, sizeof copy[0], cmp_str);
  for (int k = 0; k < W; ++k) printf("%s%s", copy[k], k + 1 < W ? " " : "\n");
  for (int k = 0; k < W; ++k) free(copy[k]);
  return 0;
}
