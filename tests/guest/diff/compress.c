/* Compression round trips: byte-oriented run-length encoding with an escape, and
   an LZ77-style compressor (hash-chain match finder over a 4 KB window, literal runs
   and (offset, length) copies, overlapping copies allowed) with its decompressor.
   Inputs: text, repetitive data, runs, and incompressible noise. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* RLE: runs of >= 4 equal bytes become ESC, byte, count (count <= 255); ESC itself
   is always escaped. */
#define ESC 0xfe
static size_t rle_enc(const unsigned char *in, size_t n, unsigned char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    size_t r = 1;
    while (i + r < n && in[i + r] == in[i] && r < 255) ++r;
    if (r >= 4 || in[i] == ESC) {
      out[o++] = ESC, out[o++] = in[i], out[o++] = (unsigned char)r;
    } else {
      for (size_t k = 0; k < r; ++k) out[o++] = in[i];
    }
    i += r;
  }
  return o;
}
static size_t rle_dec(const unsigned char *in, size_t n, unsigned char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (in[i] == ESC) {
      memset(out + o, in[i + 1], in[i + 2]);
      o += in[i + 2], i += 3;
    } else {
      out[o++] = in[i++];
    }
  }
  return o;
}

/* LZ: token byte: high bit 0 -> literal run of (t+1) bytes follows; high bit 1 ->
   match of length (t & 0x7f) + 3, followed by 2-byte offset (big-endian). */
#define WIN 4096
#define HBITS 12
static size_t lz_enc(const unsigned char *in, size_t n, unsigned char *out) {
  static int32_t head[1 << HBITS], prev[WIN];
  for (int i = 0; i < (1 << HBITS); ++i) head[i] = -1;
  size_t o = 0, lit_start = 0, i = 0;
#define FLUSH_LITS(upto)                                                   \
  while (lit_start < (upto)) {                                             \
    size_t run = (upto) - lit_start > 128 ? 128 : (upto) - lit_start;      \
    out[o++] = (unsigned char)(run - 1);                                   \
    memcpy(out + o, in + lit_start, run);                                  \
    o += run, lit_start += run;                                            \
  }
  while (i + 3 <= n) {
    uint32_t hv = ((uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2]) * 2654435761u >> (32 - HBITS);
    size_t best_len = 0, best_off = 0;
    int chain = 0;
    for (int32_t c = head[hv]; c >= 0 && i - (size_t)c < WIN && chain < 32; c = prev[c % WIN], ++chain) {
      size_t l = 0;
      while (i + l < n && l < 130 && in[(size_t)c + l] == in[i + l]) ++l;
      if (l > best_len) best_len = l, best_off = i - (size_t)c;
    }
    prev[i % WIN] = head[hv];
    head[hv] = (int32_t)i;
    if (best_len >= 3) {
      FLUSH_LITS(i);
      out[o++] = (unsigned char)(0x80 | (best_len - 3));
      out[o++] = (unsigned char)(best_off >> 8), out[o++] = (unsigned char)best_off;
      for (size_t k = 1; k < best_len && i + k + 3 <= n; ++k) { /* index the skipped positions */
        size_t p = i + k;
        uint32_t h2 = ((uint32_t)in[p] << 16 | (uint32_t)in[p + 1] << 8 | in[p + 2]) * 2654435761u >> (32 - HBITS);
        prev[p % WIN] = head[h2];
        head[h2] = (int32_t)p;
      }
      i += best_len;
      lit_start = i;
    } else {
      ++i;
    }
  }
  FLUSH_LITS(n);
  return o;
}
static size_t lz_dec(const unsigned char *in, size_t n, unsigned char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    unsigned t = in[i++];
    if (t & 0x80) {
      size_t len = (t & 0x7f) + 3, off = (size_t)in[i] << 8 | in[i + 1];
      i += 2;
      for (size_t k = 0; k < len; ++k, ++o) out[o] = out[o - off]; /* may overlap */
    } else {
      memcpy(out + o, in + i, t + 1);
      o += t + 1, i += t + 1;
    }
  }
  return o;
}

static uint32_t sum(const unsigned char *p, size_t n) {
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < n; ++i) a = (a + p[i]) % 65521, b = (b + a) % 65521;
  return b << 16 | a;
}

int main(void) {
  static unsigned char inputs[4][6000], enc[9000], dec[6000];
  static const size_t lens[4] = {5200, 6000, 4000, 3000};
  const char *words[] = {"the ", "emulator ", "runs ", "guest ", "code ", "and ", "compares ", "output. "};
  size_t k = 0;
  uint32_t x = 1;
  while (k < lens[0]) {
    x = x * 1103515245u + 12345u;
    const char *w = words[(x >> 16) % 8];
    while (*w && k < lens[0]) inputs[0][k++] = (unsigned char)*w++;
  }
  for (size_t i = 0; i < lens[1]; ++i) inputs[1][i] = (unsigned char)("abcabcabd"[i % 9] + (i / 900));
  for (size_t i = 0; i < lens[2]; ++i) inputs[2][i] = (unsigned char)(i / 37 % 3 == 0 ? ESC : (i / 300) * 11);
  for (size_t i = 0; i < lens[3]; ++i) x ^= x << 13, x ^= x >> 17, x ^= x << 5, inputs[3][i] = (unsigned char)x;
  int ok = 1;
  for (int t = 0; t < 4; ++t) {
    size_t n = lens[t];
    size_t r = rle_enc(inputs[t], n, enc);
    size_t rd = rle_dec(enc, r, dec);
    int rok = rd == n && memcmp(dec, inputs[t], n) == 0;
    uint32_t rsum = sum(enc, r);
    size_t l = lz_enc(inputs[t], n, enc);
    size_t ld = lz_dec(enc, l, dec);
    int lok = ld == n && memcmp(dec, inputs[t], n) == 0;
    printf("input %d: n=%u rle=%u ok=%d sum=%08x lz=%u ok=%d sum=%08x\n", t, (unsigned)n, (unsigned)r, rok, rsum,
           (unsigned)l, lok, sum(enc, l));
    ok &= rok && lok;
  }
  return !ok;
}
