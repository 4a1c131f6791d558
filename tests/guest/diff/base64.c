/* Base64 (RFC 4648) encode and decode, with the RFC test vectors, a URL-safe
   alphabet variant, rejection of malformed input, and round trips of every length
   0..300 of generated binary data. Also hex encode/decode. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char STD[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static size_t b64_encode(const unsigned char *in, size_t n, char *out, const char *alpha, int pad) {
  size_t o = 0, i = 0;
  for (; i + 2 < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
    out[o++] = alpha[v >> 18], out[o++] = alpha[(v >> 12) & 63], out[o++] = alpha[(v >> 6) & 63],
    out[o++] = alpha[v & 63];
  }
  if (n - i == 1) {
    uint32_t v = (uint32_t)in[i] << 16;
    out[o++] = alpha[v >> 18], out[o++] = alpha[(v >> 12) & 63];
    if (pad) out[o++] = '=', out[o++] = '=';
  } else if (n - i == 2) {
    uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
    out[o++] = alpha[v >> 18], out[o++] = alpha[(v >> 12) & 63], out[o++] = alpha[(v >> 6) & 63];
    if (pad) out[o++] = '=';
  }
  out[o] = 0;
  return o;
}

/* returns decoded length, or -1 on malformed input */
static long b64_decode(const char *in, unsigned char *out, const char *alpha) {
  signed char rev[256];
  memset(rev, -1, sizeof rev);
  for (int i = 0; i < 64; ++i) rev[(unsigned char)alpha[i]] = (signed char)i;
  size_t n = strlen(in);
  while (n && in[n - 1] == '=') --n;
  if (strlen(in) - n > 2 || n % 4 == 1) return -1;
  long o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    int v = rev[(unsigned char)in[i]];
    if (v < 0) return -1;
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (unsigned char)(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  if (acc != 0) return -1; /* non-canonical trailing bits */
  return o;
}

static void hex(const unsigned char *p, size_t n, char *out) {
  static const char d[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) out[2 * i] = d[p[i] >> 4], out[2 * i + 1] = d[p[i] & 15];
  out[2 * n] = 0;
}

int main(void) {
  const char *vec[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  char enc[512];
  unsigned char dec[400];
  for (int i = 0; i < 7; ++i) {
    b64_encode((const unsigned char *)vec[i], strlen(vec[i]), enc, STD, 1);
    long n = b64_decode(enc, dec, STD);
    printf("\"%s\" -> \"%s\" -> %ld \"%.*s\"\n", vec[i], enc, n, (int)n, (const char *)dec);
  }
  unsigned char bin[300];
  uint32_t x = 0xdeadbeef;
  for (int i = 0; i < 300; ++i) x ^= x << 13, x ^= x >> 17, x ^= x << 5, bin[i] = (unsigned char)x;
  unsigned bad = 0;
  uint32_t h = 0;
  for (size_t n = 0; n <= 300; ++n) {
    size_t el = b64_encode(bin, n, enc, n % 2 ? URL : STD, 1);
    if (el != (n + 2) / 3 * 4) ++bad;
    long dl = b64_decode(enc, dec, n % 2 ? URL : STD);
    if (dl != (long)n || memcmp(dec, bin, n) != 0) ++bad;
    for (size_t k = 0; k < el; ++k) h = h * 31 + (unsigned char)enc[k];
  }
  b64_encode(bin, 32, enc, URL, 0);
  printf("url nopad: %s\n", enc);
  b64_encode(bin, 32, enc, STD, 1);
  printf("std: %s\n", enc);
  const char *badin[] = {"Zg=", "Zh==", "Z===", "Zm9v!", "A", "Zm9vYg=", "Zm9vYmFy"};
  for (int i = 0; i < 7; ++i) printf("decode \"%s\" -> %ld\n", badin[i], b64_decode(badin[i], dec, STD));
  char hx[80];
  hex(bin, 16, hx);
  printf("hex %s roundtrip bad=%u hash=%08x\n", hx, bad, h);
  return bad != 0;
}
