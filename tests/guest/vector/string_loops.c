/* String functions written the way glibc's z13/z15 versions are: load up to the next
   4 KB boundary (VLBB, with LCBB for how many bytes are valid), then search with VFENE,
   VFAE, VFEE, VSTRC and VSTRS, over random strings placed so that they cross page
   boundaries. Every result is printed next to the scalar reference. */
#include "strtest.h"

static uint8_t buf[3 * 4096] __attribute__((aligned(4096)));

/* Bytes from p to the 4 KB boundary, at most 16 (LCBB), and the vector there (VLBB);
   the bytes past the boundary are unpredictable, so only `*n` of them count. */
static vb load_to_boundary(const uint8_t *p, unsigned *n) {
  *n = __builtin_s390_lcbb(p, 6);
  return vec_load_bndry(p, 4096);
}
static unsigned index_of(vb idx) { return vec_extract(idx, 7); }

static unsigned long v_strlen(const uint8_t *s) {
  for (unsigned long at = 0;;) {
    unsigned n;
    vb v = load_to_boundary(s + at, &n);
    int cc;
    unsigned k = index_of(vec_cmpne_or_0_idx_cc(v, v, &cc));  /* VFENEZBS: the first zero */
    if (k < n) return at + k;
    at += n;
  }
}
static long v_strchr(const uint8_t *s, uint8_t c) {
  vb cv = vec_splats(c);
  for (unsigned long at = 0;;) {
    unsigned n;
    vb v = load_to_boundary(s + at, &n);
    int cc;
    unsigned k = index_of(vec_find_any_eq_or_0_idx_cc(v, cv, &cc));  /* VFAEZBS */
    if (k < n) return s[at + k] == c ? (long)(at + k) : -1;
    at += n;
  }
}
static int v_strcmp(const uint8_t *a, const uint8_t *b) {
  for (unsigned long at = 0;;) {
    unsigned na, nb;
    vb va = load_to_boundary(a + at, &na), vb_ = load_to_boundary(b + at, &nb);
    unsigned n = na < nb ? na : nb;
    int cc;
    unsigned k = index_of(vec_cmpne_or_0_idx_cc(va, vb_, &cc));  /* VFENEZBS */
    if (k < n) return cc == 1 ? -1 : cc == 2 ? 1 : 0;
    at += n;
  }
}
/* The length of the leading run of lower-case letters (VSTRC). */
static unsigned long v_letters(const uint8_t *s) {
  vb range = {'a', 'z', 'a', 'z', 'a', 'z', 'a', 'z', 'a', 'z', 'a', 'z', 'a', 'z', 'a', 'z'};
  vb ctl = {0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0, 0xa0, 0xc0};
  for (unsigned long at = 0;;) {
    unsigned n;
    vb v = load_to_boundary(s + at, &n);
    unsigned k = index_of(vec_cmpnrg_idx(v, range, ctl));
    if (k < n) return at + k;
    at += n;
  }
}
/* The first position of a needle of at most 16 bytes (VSTRS; a partial match at the
   end of a window moves the window there). */
static long v_strstr(const uint8_t *s, const uint8_t *needle, unsigned len) {
  vb nv = vec_load_len(needle, len - 1), nl = with_element((vb){0}, 0, 7, len);
  unsigned long hay = v_strlen(s);
  for (unsigned long at = 0; at + len <= hay;) {
    unsigned n = hay - at < 16 ? (unsigned)(hay - at) : 16;
    vb v = vec_load_len(s + at, n - 1);
    int cc;
    unsigned k = index_of(vec_search_string_cc(v, nv, nl, &cc));
    if (cc == 2 && k + len <= n) return (long)(at + k);
    if (cc == 3 && k > 0) at += k;
    else at += (n > len ? n - len + 1 : 1);
  }
  return -1;
}

static unsigned long ref_strlen(const uint8_t *s) {
  unsigned long n = 0;
  while (s[n]) ++n;
  return n;
}
static long ref_strchr(const uint8_t *s, uint8_t c) {
  for (long k = 0;; ++k) {
    if (s[k] == c) return k;
    if (!s[k]) return -1;
  }
}
static int ref_strcmp(const uint8_t *a, const uint8_t *b) {
  unsigned long k = 0;
  while (a[k] && a[k] == b[k]) ++k;
  return a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : 0;
}
static unsigned long ref_letters(const uint8_t *s) {
  unsigned long n = 0;
  while (s[n] >= 'a' && s[n] <= 'z') ++n;
  return n;
}
static long ref_strstr(const uint8_t *s, const uint8_t *needle, unsigned len) {
  unsigned long hay = ref_strlen(s);
  for (unsigned long k = 0; k + len <= hay; ++k)
    if (memcmp(s + k, needle, len) == 0) return (long)k;
  return -1;
}

/* A string of `len` bytes from a small alphabet at `p`, zero-terminated. */
static void put_string(uint8_t *p, unsigned len) {
  for (unsigned k = 0; k < len; ++k) p[k] = (uint8_t)("abcdefgXYZ-9"[rnd64() % 12]);
  p[len] = 0;
}

int main(void) {
  for (int round = 0; round < 150; ++round) {
    unsigned len = (unsigned)(rnd64() % 70);
    /* Start within 40 bytes before a page boundary, so the string crosses it. */
    unsigned start = 4096 * (1 + round % 2) - (unsigned)(rnd64() % 40) - 1;
    uint8_t *s = buf + start;
    put_string(s, len);
    uint8_t c = (uint8_t)("abcXq"[rnd64() % 5]);
    printf("start %u len %u: strlen %lu/%lu strchr(%c) %ld/%ld letters %lu/%lu\n", start, len, v_strlen(s),
           ref_strlen(s), c, v_strchr(s, c), ref_strchr(s, c), v_letters(s), ref_letters(s));
    /* A second string equal for a while, at another alignment. */
    uint8_t *t = buf + 4096 * (1 + (round + 1) % 2) - (unsigned)(rnd64() % 40) - 1 + 100 * (round % 3);
    memcpy(t, s, len + 1);
    if (len && round % 4) t[rnd64() % len] = (uint8_t)("abcXq\0"[rnd64() % 6]);
    if (round % 7 == 0) t[len] = 'z', t[len + 1] = 0;
    printf("  strcmp %d/%d\n", v_strcmp(s, t), ref_strcmp(s, t));
    unsigned nlen = 1 + (unsigned)(rnd64() % 4);
    uint8_t needle[16];
    if (len >= nlen && round % 3) memcpy(needle, s + rnd64() % (len - nlen + 1), nlen);
    else put_string(needle, nlen);
    printf("  strstr(%.*s) %ld/%ld\n", (int)nlen, needle, v_strstr(s, needle, nlen), ref_strstr(s, needle, nlen));
  }
  return 0;
}
