/* Non-cryptographic hashes: FNV-1 and FNV-1a (32 and 64 bit), Murmur3 32-bit and
   its 64-bit finalizer, a 64-bit multiply-xorshift mixer (splitmix), Jenkins
   one-at-a-time and djb2, over fixed strings and a generated buffer read at every
   alignment (little-endian block reads assembled by hand). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t fnv1a32(const void *p, size_t n) {
  const unsigned char *b = p;
  uint32_t h = 2166136261u;
  while (n--) h = (h ^ *b++) * 16777619u;
  return h;
}
static uint32_t fnv1_32(const void *p, size_t n) {
  const unsigned char *b = p;
  uint32_t h = 2166136261u;
  while (n--) h = (h * 16777619u) ^ *b++;
  return h;
}
static uint64_t fnv1a64(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t h = 14695981039346656037ULL;
  while (n--) h = (h ^ *b++) * 1099511628211ULL;
  return h;
}
static uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
static uint32_t murmur3_32(const void *key, size_t len, uint32_t seed) {
  const unsigned char *d = key;
  uint32_t h = seed, c1 = 0xcc9e2d51, c2 = 0x1b873593;
  size_t nb = len / 4;
  for (size_t i = 0; i < nb; ++i) {
    const unsigned char *q = d + 4 * i;
    uint32_t k = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    k *= c1, k = rotl32(k, 15), k *= c2;
    h ^= k, h = rotl32(h, 13), h = h * 5 + 0xe6546b64;
  }
  const unsigned char *tail = d + nb * 4;
  uint32_t k = 0;
  switch (len & 3) {
  case 3: k ^= (uint32_t)tail[2] << 16; /* fall through */
  case 2: k ^= (uint32_t)tail[1] << 8;  /* fall through */
  case 1: k ^= tail[0]; k *= c1; k = rotl32(k, 15); k *= c2; h ^= k;
  }
  h ^= (uint32_t)len;
  h ^= h >> 16, h *= 0x85ebca6b, h ^= h >> 13, h *= 0xc2b2ae35, h ^= h >> 16;
  return h;
}
static uint64_t fmix64(uint64_t k) {
  k ^= k >> 33, k *= 0xff51afd7ed558ccdULL, k ^= k >> 33, k *= 0xc4ceb9fe1a85ec53ULL, k ^= k >> 33;
  return k;
}
static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static uint32_t oaat(const char *s) {
  uint32_t h = 0;
  for (; *s; ++s) h += (unsigned char)*s, h += h << 10, h ^= h >> 6;
  h += h << 3, h ^= h >> 11, h += h << 15;
  return h;
}
static uint32_t djb2(const char *s) {
  uint32_t h = 5381;
  for (; *s; ++s) h = h * 33 + (unsigned char)*s;
  return h;
}

int main(void) {
  const char *strs[] = {"", "a", "foobar", "The quick brown fox jumps over the lazy dog", "\xff\xfe\x80\x00tail"};
  for (unsigned i = 0; i < 5; ++i) {
    size_t n = strlen(strs[i]);
    printf("%u fnv1a32=%08x fnv1_32=%08x fnv1a64=%016llx mm3=%08x mm3s=%08x oaat=%08x djb2=%08x\n", i,
           fnv1a32(strs[i], n), fnv1_32(strs[i], n), (unsigned long long)fnv1a64(strs[i], n), murmur3_32(strs[i], n, 0),
           murmur3_32(strs[i], n, 0x9747b28c), oaat(strs[i]), djb2(strs[i]));
  }
  static unsigned char buf[1100];
  uint64_t s = 0;
  for (unsigned i = 0; i < sizeof buf; ++i) buf[i] = (unsigned char)splitmix(&s);
  uint32_t acc = 0;
  for (unsigned off = 0; off < 8; ++off)
    for (unsigned len = 0; len < 1024; len += 61) acc = acc * 31 + murmur3_32(buf + off, len, off) + fnv1a32(buf + off, len);
  printf("buffer acc %08x fnv64 %016llx\n", acc, (unsigned long long)fnv1a64(buf, sizeof buf));
  uint64_t m = 0;
  for (uint64_t k = 0; k < 1000; ++k) m ^= fmix64(k * 0x100000001ULL) + (m << 1);
  printf("fmix64 %016llx %016llx %016llx\n", (unsigned long long)fmix64(0), (unsigned long long)fmix64(1),
         (unsigned long long)m);
  /* distribution check: bucket counts of 64 buckets for 6400 keys */
  unsigned buckets[64] = {0};
  for (uint32_t k = 0; k < 6400; ++k) buckets[murmur3_32(&k, 4, 1) & 63]++;
  unsigned mn = ~0u, mx = 0;
  for (int i = 0; i < 64; ++i) mn = buckets[i] < mn ? buckets[i] : mn, mx = buckets[i] > mx ? buckets[i] : mx;
  printf("buckets min %u max %u\n", mn, mx);
  return 0;
}
