/* SipHash-2-4 (64-bit output) and a SipHash-1-3 variant, written from the
   published algorithm: ARX rounds on four 64-bit lanes with rotates, message read
   as little-endian words. Checked against the reference vector for key 00..0f and
   message 00..0e (a129ca6149be45e5) and printed for the first 64 message lengths. */
#include <stdint.h>
#include <stdio.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                         \
  do {                                                                   \
    v0 += v1, v1 = ROTL(v1, 13), v1 ^= v0, v0 = ROTL(v0, 32);            \
    v2 += v3, v3 = ROTL(v3, 16), v3 ^= v2;                               \
    v0 += v3, v3 = ROTL(v3, 21), v3 ^= v0;                               \
    v2 += v1, v1 = ROTL(v1, 17), v1 ^= v2, v2 = ROTL(v2, 32);            \
  } while (0)

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

static uint64_t siphash(const uint8_t *in, size_t len, const uint8_t k[16], int c, int d) {
  uint64_t k0 = le64(k), k1 = le64(k + 8);
  uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1;
  uint64_t v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
  const uint8_t *end = in + len - (len % 8);
  for (; in != end; in += 8) {
    uint64_t m = le64(in);
    v3 ^= m;
    for (int i = 0; i < c; ++i) SIPROUND;
    v0 ^= m;
  }
  uint64_t b = (uint64_t)len << 56;
  switch (len & 7) {
  case 7: b |= (uint64_t)in[6] << 48; /* fall through */
  case 6: b |= (uint64_t)in[5] << 40; /* fall through */
  case 5: b |= (uint64_t)in[4] << 32; /* fall through */
  case 4: b |= (uint64_t)in[3] << 24; /* fall through */
  case 3: b |= (uint64_t)in[2] << 16; /* fall through */
  case 2: b |= (uint64_t)in[1] << 8;  /* fall through */
  case 1: b |= (uint64_t)in[0];
  }
  v3 ^= b;
  for (int i = 0; i < c; ++i) SIPROUND;
  v0 ^= b;
  v2 ^= 0xff;
  for (int i = 0; i < d; ++i) SIPROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

int main(void) {
  uint8_t key[16], msg[64];
  for (int i = 0; i < 16; ++i) key[i] = (uint8_t)i;
  for (int i = 0; i < 64; ++i) msg[i] = (uint8_t)i;
  uint64_t v15 = siphash(msg, 15, key, 2, 4);
  printf("len15 %016llx %s\n", (unsigned long long)v15, v15 == 0xa129ca6149be45e5ULL ? "matches reference" : "WRONG");
  for (int n = 0; n < 64; ++n) {
    uint64_t h = siphash(msg, (size_t)n, key, 2, 4), g = siphash(msg, (size_t)n, key, 1, 3);
    if (n % 4 == 0 || n < 9) printf("%2d %016llx %016llx\n", n, (unsigned long long)h, (unsigned long long)g);
  }
  uint64_t acc = 0;
  for (int r = 0; r < 300; ++r) {
    key[r % 16] ^= (uint8_t)acc;
    acc ^= siphash(msg, (size_t)(r % 64), key, 2, 4);
  }
  printf("acc %016llx\n", (unsigned long long)acc);
  return v15 != 0xa129ca6149be45e5ULL;
}
