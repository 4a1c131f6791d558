/* Hand-written sorts: top-down merge sort (stable, checked on records with equal
   keys), bottom-up merge sort, heap sort, insertion sort and shell sort, all on the
   same pseudo-random data, with the results compared with each other. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 4000

struct item {
  uint32_t key;
  uint32_t seq;
};

static struct item tmp[N];

static void merge_sort(struct item *a, int lo, int hi) {
  if (hi - lo < 2) return;
  int mid = lo + (hi - lo) / 2;
  merge_sort(a, lo, mid);
  merge_sort(a, mid, hi);
  int i = lo, j = mid, k = lo;
  while (i < mid && j < hi) tmp[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
  while (i < mid) tmp[k++] = a[i++];
  while (j < hi) tmp[k++] = a[j++];
  memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof *a);
}

static void merge_bottom_up(uint32_t *a, uint32_t *buf, int n) {
  for (int width = 1; width < n; width *= 2) {
    for (int lo = 0; lo < n; lo += 2 * width) {
      int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) buf[k++] = a[i] <= a[j] ? a[i++] : a[j++];
      while (i < mid) buf[k++] = a[i++];
      while (j < hi) buf[k++] = a[j++];
    }
    memcpy(a, buf, (size_t)n * sizeof *a);
  }
}

static void sift(uint32_t *a, int start, int end) {
  int root = start;
  while (2 * root + 1 <= end) {
    int child = 2 * root + 1, sw = root;
    if (a[sw] < a[child]) sw = child;
    if (child + 1 <= end && a[sw] < a[child + 1]) sw = child + 1;
    if (sw == root) return;
    uint32_t t = a[root];
    a[root] = a[sw], a[sw] = t;
    root = sw;
  }
}
static void heap_sort(uint32_t *a, int n) {
  for (int s = (n - 2) / 2; s >= 0; --s) sift(a, s, n - 1);
  for (int end = n - 1; end > 0; --end) {
    uint32_t t = a[end];
    a[end] = a[0], a[0] = t;
    sift(a, 0, end - 1);
  }
}

static void insertion_sort(uint32_t *a, int n) {
  for (int i = 1; i < n; ++i) {
    uint32_t x = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > x) a[j + 1] = a[j], --j;
    a[j + 1] = x;
  }
}

static void shell_sort(uint32_t *a, int n) {
  static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (unsigned g = 0; g < 8; ++g) {
    int gap = gaps[g];
    for (int i = gap; i < n; ++i) {
      uint32_t x = a[i];
      int j = i;
      for (; j >= gap && a[j - gap] > x; j -= gap) a[j] = a[j - gap];
      a[j] = x;
    }
  }
}

int main(void) {
  static struct item items[N];
  static uint32_t a1[N], a2[N], a3[N], a4[N], buf[N];
  uint32_t s = 2463534242u;
  for (int i = 0; i < N; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    items[i].key = s % 1000; /* many equal keys: stability matters */
    items[i].seq = (uint32_t)i;
    a1[i] = a2[i] = a3[i] = s;
  }
  for (int i = 0; i < 600; ++i) a4[i] = a1[i];
  merge_sort(items, 0, N);
  int stable = 1, sorted = 1;
  for (int i = 1; i < N; ++i) {
    sorted &= items[i - 1].key <= items[i].key;
    if (items[i - 1].key == items[i].key) stable &= items[i - 1].seq < items[i].seq;
  }
  printf("merge sorted=%d stable=%d first=%u/%u last=%u/%u\n", sorted, stable, items[0].key, items[0].seq,
         items[N - 1].key, items[N - 1].seq);
  merge_bottom_up(a1, buf, N);
  heap_sort(a2, N);
  shell_sort(a3, N);
  insertion_sort(a4, 600);
  int same = memcmp(a1, a2, sizeof a1) == 0 && memcmp(a1, a3, sizeof a1) == 0;
  sorted = 1;
  for (int i = 1; i < N; ++i) sorted &= a1[i - 1] <= a1[i];
  for (int i = 1; i < 600; ++i) sorted &= a4[i - 1] <= a4[i];
  uint32_t h = 0;
  for (int i = 0; i < N; i += 97) h = h * 31 + a1[i];
  printf("bottom-up/heap/shell same=%d sorted=%d min=%08x max=%08x h=%08x ins=%08x..%08x\n", same, sorted, a1[0],
         a1[N - 1], h, a4[0], a4[599]);
  return !(same && sorted && stable);
}
