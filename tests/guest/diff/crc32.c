/* CRC-32 (IEEE, reflected) by a 256-entry table, by slicing-by-4, and bit by bit;
   CRC-32C (Castagnoli) bitwise; CRC-16/CCITT; Adler-32. The three CRC-32
   implementations must agree; the standard check value of "123456789" is 0xCBF43926
   (CRC-32) and 0xE3069283 (CRC-32C). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t table[4][256];

static void make_tables(void) {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; ++i)
    for (int t = 1; t < 4; ++t) table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

static uint32_t crc_table(const unsigned char *p, size_t n) {
  uint32_t c = 0xffffffffu;
  while (n--) c = table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
  return ~c;
}
static uint32_t crc_slice4(const unsigned char *p, size_t n) {
  uint32_t c = 0xffffffffu;
  while (n >= 4) {
    c ^= (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    c = table[3][c & 0xff] ^ table[2][(c >> 8) & 0xff] ^ table[1][(c >> 16) & 0xff] ^ table[0][c >> 24];
    p += 4, n -= 4;
  }
  while (n--) c = table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
  return ~c;
}
static uint32_t crc_bitwise(const unsigned char *p, size_t n, uint32_t poly) {
  uint32_t c = 0xffffffffu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (poly & (0u - (c & 1)));
  }
  return ~c;
}
static uint16_t crc16_ccitt(const unsigned char *p, size_t n) {
  uint16_t c = 0xffff;
  while (n--) {
    c ^= (uint16_t)(*p++ << 8);
    for (int k = 0; k < 8; ++k) c = (uint16_t)(c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1);
  }
  return c;
}
static uint32_t adler32(const unsigned char *p, size_t n) {
  uint32_t a = 1, b = 0;
  while (n--) a = (a + *p++) % 65521, b = (b + a) % 65521;
  return b << 16 | a;
}

int main(void) {
  make_tables();
  const unsigned char *check = (const unsigned char *)"123456789";
  printf("crc32 %08x %08x %08x crc32c %08x crc16 %04x adler %08x\n", crc_table(check, 9), crc_slice4(check, 9),
         crc_bitwise(check, 9, 0xedb88320u), crc_bitwise(check, 9, 0x82f63b78u), crc16_ccitt(check, 9),
         adler32(check, 9));
  static unsigned char data[20000];
  uint32_t x = 1;
  for (unsigned i = 0; i < sizeof data; ++i) x = x * 1103515245u + 12345u, data[i] = (unsigned char)(x >> 16);
  unsigned bad = 0;
  uint32_t acc = 0;
  for (unsigned off = 0; off < 4; ++off) {
    for (unsigned n = 0; n < 3000; n += 331) {
      uint32_t a = crc_table(data + off, n), b = crc_slice4(data + off, n), c = crc_bitwise(data + off, n, 0xedb88320u);
      if (a != b || a != c) ++bad;
      acc ^= a + n;
    }
  }
  printf("agree bad=%u acc=%08x\n", bad, acc);
  printf("big crc32 %08x crc32c %08x crc16 %04x adler %08x\n", crc_slice4(data, sizeof data),
         crc_bitwise(data, sizeof data, 0x82f63b78u), crc16_ccitt(data, sizeof data), adler32(data, sizeof data));
  return bad != 0 || crc_table(check, 9) != 0xcbf43926u;
}
