/* Recursion: Ackermann (small arguments, deep call chains), naive and memoized
   Fibonacci, Tower of Hanoi (move count and a checksum of the moves), mutual
   recursion, permutations by recursive swapping, and the McCarthy 91 function. */
#include <stdint.h>
#include <stdio.h>

static unsigned long calls;

static unsigned ack(unsigned m, unsigned n) {
  ++calls;
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static uint64_t fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint64_t memo[94];
static uint64_t fib_memo(unsigned n) {
  if (n < 2) return n;
  if (memo[n]) return memo[n];
  return memo[n] = fib_memo(n - 1) + fib_memo(n - 2);
}

static uint64_t hanoi_moves, hanoi_sum;
static int pegs[3][20], top[3];
static int hanoi_ok = 1;
static void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  int disk = pegs[from][--top[from]];
  if (top[to] && pegs[to][top[to] - 1] < disk) hanoi_ok = 0;
  pegs[to][top[to]++] = disk;
  ++hanoi_moves;
  hanoi_sum = hanoi_sum * 3 + (uint64_t)(from * 3 + to) + (uint64_t)disk;
  hanoi(n - 1, via, to, from);
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static unsigned perm_count;
static uint32_t perm_hash;
static void permute(char *s, int k, int n) {
  if (k == n) {
    ++perm_count;
    for (int i = 0; i < n; ++i) perm_hash = perm_hash * 31 + (unsigned char)s[i];
    return;
  }
  for (int i = k; i < n; ++i) {
    char t = s[k]; s[k] = s[i]; s[i] = t;
    permute(s, k + 1, n);
    t = s[k]; s[k] = s[i]; s[i] = t;
  }
}

static int mc91(int n) { return n > 100 ? n - 10 : mc91(mc91(n + 11)); }

int main(void) {
  for (unsigned m = 0; m <= 3; ++m) {
    for (unsigned n = 0; n <= (m < 3 ? 6u : 5u); ++n) {
      calls = 0;
      unsigned r = ack(m, n);
      printf("ack(%u,%u)=%u calls=%lu\n", m, n, r, calls);
    }
  }
  printf("fib(27)=%llu fib(90)=%llu\n", (unsigned long long)fib(27), (unsigned long long)fib_memo(90));
  for (int d = 0; d < 16; ++d) pegs[0][d] = 16 - d;
  top[0] = 16;
  hanoi(16, 0, 2, 1);
  printf("hanoi moves=%llu ok=%d top=%d,%d,%d sum=%016llx\n", (unsigned long long)hanoi_moves, hanoi_ok, top[0],
         top[1], top[2], (unsigned long long)hanoi_sum);
  printf("even(1001)=%d odd(777)=%d\n", is_even(1001), is_odd(777));
  char s[] = "abcdefg";
  permute(s, 0, 7);
  printf("perms=%u hash=%08x s=%s\n", perm_count, perm_hash, s);
  int m91 = 0;
  for (int n = -50; n <= 150; ++n) m91 += mc91(n);
  printf("mc91 sum=%d\n", m91);
  return 0;
}
