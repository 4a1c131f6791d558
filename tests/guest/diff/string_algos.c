/* String algorithms: Knuth-Morris-Pratt and Boyer-Moore-Horspool search compared
   with a naive search (all occurrences), Levenshtein distance with two rows, the
   longest common subsequence, the Z-function, palindromic substrings by expanding
   around centers, and in-place string reversal and word reversal. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned naive_all(const char *t, size_t n, const char *p, size_t m, uint32_t *h) {
  unsigned c = 0;
  for (size_t i = 0; i + m <= n; ++i)
    if (memcmp(t + i, p, m) == 0) ++c, *h = *h * 31 + (uint32_t)i;
  return c;
}
static unsigned kmp_all(const char *t, size_t n, const char *p, size_t m, uint32_t *h) {
  int fail[64];
  fail[0] = -1;
  for (size_t i = 1, k = 0; i <= m; ++i) {
    int f = fail[i - 1];
    while (f >= 0 && p[f] != p[i - 1]) f = fail[f];
    fail[i] = f + 1;
    (void)k;
  }
  unsigned c = 0;
  int q = 0;
  for (size_t i = 0; i < n; ++i) {
    while (q >= 0 && (q == (int)m || p[q] != t[i])) q = fail[q];
    ++q;
    if (q == (int)m) ++c, *h = *h * 31 + (uint32_t)(i + 1 - m);
  }
  return c;
}
static unsigned bmh_all(const char *t, size_t n, const char *p, size_t m, uint32_t *h) {
  size_t skip[256];
  for (int i = 0; i < 256; ++i) skip[i] = m;
  for (size_t i = 0; i + 1 < m; ++i) skip[(unsigned char)p[i]] = m - 1 - i;
  unsigned c = 0;
  for (size_t i = 0; i + m <= n; i += skip[(unsigned char)t[i + m - 1]]) {
    size_t j = m;
    while (j > 0 && t[i + j - 1] == p[j - 1]) --j;
    if (j == 0) ++c, *h = *h * 31 + (uint32_t)i;
  }
  return c;
}
static unsigned levenshtein(const char *a, const char *b) {
  unsigned row0[64], row1[64], *prev = row0, *cur = row1;
  size_t n = strlen(a), m = strlen(b);
  for (size_t j = 0; j <= m; ++j) prev[j] = (unsigned)j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = (unsigned)i;
    for (size_t j = 1; j <= m; ++j) {
      unsigned del = prev[j] + 1, ins = cur[j - 1] + 1, sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      cur[j] = del < ins ? (del < sub ? del : sub) : (ins < sub ? ins : sub);
    }
    unsigned *t = prev;
    prev = cur, cur = t;
  }
  return prev[m];
}
static unsigned lcs(const char *a, const char *b, char *out) {
  static unsigned short L[64][64];
  size_t n = strlen(a), m = strlen(b);
  for (size_t i = 0; i <= n; ++i)
    for (size_t j = 0; j <= m; ++j)
      L[i][j] = (unsigned short)(i == 0 || j == 0 ? 0
                                 : a[i - 1] == b[j - 1] ? L[i - 1][j - 1] + 1
                                 : L[i - 1][j] > L[i][j - 1] ? L[i - 1][j] : L[i][j - 1]);
  unsigned len = L[n][m];
  out[len] = 0;
  for (size_t i = n, j = m, k = len; i && j;) {
    if (a[i - 1] == b[j - 1]) out[--k] = a[i - 1], --i, --j;
    else if (L[i - 1][j] >= L[i][j - 1]) --i;
    else --j;
  }
  return len;
}
static void reverse(char *s, size_t n) {
  for (size_t i = 0, j = n; i + 1 < j; ++i, --j) {
    char t = s[i];
    s[i] = s[j - 1], s[j - 1] = t;
  }
}

int main(void) {
  static char text[20000];
  uint32_t x = 5;
  for (int i = 0; i < 19999; ++i) x = x * 1103515245u + 12345u, text[i] = "abcab"[(x >> 16) % 5];
  text[19999] = 0;
  const char *pats[] = {"a", "ab", "abc", "abcab", "cabca", "aaaa", "bcbcb", "abcabcabca", "zz", "babacabcabaab"};
  for (unsigned i = 0; i < sizeof pats / sizeof pats[0]; ++i) {
    uint32_t h1 = 0, h2 = 0, h3 = 0;
    size_t m = strlen(pats[i]);
    unsigned c1 = naive_all(text, 19999, pats[i], m, &h1), c2 = kmp_all(text, 19999, pats[i], m, &h2),
             c3 = bmh_all(text, 19999, pats[i], m, &h3);
    printf("%-14s naive=%u kmp=%u bmh=%u %s %08x\n", pats[i], c1, c2, c3,
           c1 == c2 && c2 == c3 && h1 == h2 && h2 == h3 ? "agree" : "DISAGREE", h1);
  }
  const char *pairs[][2] = {{"kitten", "sitting"}, {"flaw", "lawn"}, {"", "abc"}, {"intention", "execution"},
                            {"same", "same"}, {"AGGTAB", "GXTXAYB"}, {"the emulator", "a simulator"}};
  for (unsigned i = 0; i < 7; ++i) {
    char l[64];
    unsigned n = lcs(pairs[i][0], pairs[i][1], l);
    printf("lev(%s,%s)=%u lcs=%u \"%s\"\n", pairs[i][0], pairs[i][1], levenshtein(pairs[i][0], pairs[i][1]), n, l);
  }
  /* Z-function */
  const char *zs = "aabxaabxcaabxaabxay";
  size_t n = strlen(zs);
  unsigned z[32] = {0};
  for (size_t i = 1, l = 0, r = 0; i < n; ++i) {
    if (i < r) z[i] = (unsigned)(r - i) < z[i - l] ? (unsigned)(r - i) : z[i - l];
    while (i + z[i] < n && zs[z[i]] == zs[i + z[i]]) ++z[i];
    if (i + z[i] > r) l = i, r = i + z[i];
  }
  printf("z:");
  for (size_t i = 0; i < n; ++i) printf(" %u", z[i]);
  putchar('\n');
  /* palindromes */
  const char *ps = "abacdfgdcabaracecarxyzzyx";
  size_t pn = strlen(ps), best = 0, bstart = 0;
  unsigned count = 0;
  for (size_t c = 0; c < 2 * pn - 1; ++c) {
    size_t lo = c / 2, hi = lo + c % 2;
    while (hi < pn && ps[lo] == ps[hi]) {
      ++count;
      if (hi - lo + 1 > best) best = hi - lo + 1, bstart = lo;
      if (lo == 0) break;
      --lo, ++hi;
    }
  }
  printf("palindromic substrings=%u longest=%.*s\n", count, (int)best, ps + bstart);
  char sentence[] = "the quick brown fox jumps over the lazy dog";
  size_t sl = strlen(sentence);
  reverse(sentence, sl);
  for (size_t i = 0, s = 0; i <= sl; ++i)
    if (sentence[i] == ' ' || sentence[i] == 0) reverse(sentence + s, i - s), s = i + 1;
  printf("words reversed: %s\n", sentence);
  return 0;
}
