/* Binary search: exact match, lower_bound and upper_bound on a sorted array with
   duplicates, on 64-bit keys near the extremes, a branchless variant, searching the
   answer space (integer square root, first bad version), and interpolation search. */
#include <stdint.h>
#include <stdio.h>

static int bsearch_eq(const int32_t *a, int n, int32_t key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) return mid;
    if (a[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
static int lower_bound(const int32_t *a, int n, int32_t key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (int)(((unsigned)lo + (unsigned)hi) >> 1);
    if (a[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
static int upper_bound(const int32_t *a, int n, int32_t key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
static size_t lb_branchless(const uint64_t *a, size_t n, uint64_t key) {
  const uint64_t *base = a;
  while (n > 1) {
    size_t half = n / 2;
    base = base[half - 1] < key ? base + half : base;
    n -= half;
  }
  return (size_t)(base - a) + (n == 1 && *base < key);
}
static int interp(const int32_t *a, int n, int32_t key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi && key >= a[lo] && key <= a[hi]) {
    if (a[hi] == a[lo]) return a[lo] == key ? lo : -1;
    int pos = lo + (int)((int64_t)(key - a[lo]) * (hi - lo) / ((int64_t)a[hi] - a[lo]));
    if (a[pos] == key) return pos;
    if (a[pos] < key) lo = pos + 1;
    else hi = pos - 1;
  }
  return -1;
}

int main(void) {
  static int32_t a[5000];
  for (int i = 0; i < 5000; ++i) a[i] = (i / 3) * 4 - 3000; /* each value three times */
  unsigned bad = 0;
  uint32_t h = 0;
  for (int32_t key = -3010; key < 3700; ++key) {
    int e = bsearch_eq(a, 5000, key), lb = lower_bound(a, 5000, key), ub = upper_bound(a, 5000, key);
    int present = (key + 3000) % 4 == 0 && key >= -3000 && key <= (4999 / 3) * 4 - 3000;
    if (present != (e >= 0) || (e >= 0 && a[e] != key)) ++bad;
    if (lb < 5000 && a[lb] < key) ++bad;
    if (lb > 0 && a[lb - 1] >= key) ++bad;
    if (ub - lb != (present ? (key == (4999 / 3) * 4 - 3000 ? 5000 - lb : 3) : 0)) ++bad;
    int ip = interp(a, 5000, key);
    if ((ip >= 0) != present || (ip >= 0 && a[ip] != key)) ++bad;
    h = h * 31 + (uint32_t)lb * 7 + (uint32_t)ub;
  }
  printf("int32 searches bad=%u hash=%08x\n", bad, h);
  static uint64_t b[1024];
  int sorted = 1;
  /* sorted: i * (2^54 - 1) up to i = 1000, then just below 2^64 */
  for (int i = 0; i < 1024; ++i) b[i] = i > 1000 ? 0xfff0000000000000ULL + (uint64_t)i * 3 : (uint64_t)i * 0x3fffffffffffffULL;
  for (int i = 1; i < 1024; ++i) sorted &= b[i - 1] < b[i];
  printf("sorted %d\n", sorted);
  static const uint64_t probes[] = {0, 1, 0x3fffffffffffffULL, 0x40000000000000ULL, 0x7fffffffffffffffULL,
                                    0xf000000000000000ULL, 0xfff0000000000bbbULL, 0xffffffffffffffffULL};
  for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; ++i) {
    size_t r = lb_branchless(b, 1024, probes[i]);
    size_t ref = 0;
    while (ref < 1024 && b[ref] < probes[i]) ++ref;
    printf("probe %016llx -> %u%s\n", (unsigned long long)probes[i], (unsigned)r, r == ref ? "" : " WRONG");
    bad += r != ref;
  }
  /* search the answer: largest x with x*x <= n */
  uint64_t n = 123456789012345678ULL, lo = 0, hi = 0xffffffffULL;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (mid * mid <= n) lo = mid;
    else hi = mid - 1;
  }
  printf("isqrt by search %llu\n", (unsigned long long)lo);
  /* first bad version among 2^40 */
  uint64_t first_bad = 0x123456789ULL, l = 1, r = 1ULL << 40;
  unsigned probes_used = 0;
  while (l < r) {
    uint64_t m = l + (r - l) / 2;
    ++probes_used;
    if (m >= first_bad) r = m;
    else l = m + 1;
  }
  printf("first bad %llx after %u probes\n", (unsigned long long)l, probes_used);
  return bad != 0;
}
