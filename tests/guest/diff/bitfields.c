/* Bit-fields in structs: unsigned and signed fields of odd widths, fields that
   straddle bytes, a 64-bit base type, packing into a word and back, and
   read-modify-write of neighbours. The layout (big-endian, fields allocated from the
   most significant bit) is visible through memcpy and is printed. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct hdr {
  unsigned version : 4;
  unsigned ihl : 4;
  unsigned tos : 8;
  unsigned len : 16;
  unsigned flags : 3;
  unsigned frag : 13;
  signed delta : 7;
  unsigned pad : 1;
  unsigned ttl : 8;
};

struct wide {
  uint64_t a : 1;
  uint64_t b : 33;
  int64_t c : 20;
  uint64_t d : 10;
};

struct mixed {
  char tag;
  unsigned short s : 5;
  unsigned short t : 11;
  int neg : 3;
  unsigned u : 29;
};

static void dump(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; ++i) printf("%02x", b[i]);
  putchar('\n');
}

int main(void) {
  struct hdr h;
  memset(&h, 0, sizeof h);
  h.version = 4, h.ihl = 5, h.tos = 0xb8, h.len = 1500, h.flags = 2, h.frag = 0x1abc & 0x1fff, h.delta = -17;
  h.pad = 1, h.ttl = 64;
  printf("sizeof hdr %u: ", (unsigned)sizeof h);
  dump(&h, sizeof h);
  printf("v=%u ihl=%u tos=%u len=%u flags=%u frag=%u delta=%d pad=%u ttl=%u\n", h.version, h.ihl, h.tos, h.len,
         h.flags, h.frag, h.delta, h.pad, h.ttl);
  /* wrap on store: values are truncated to the field width */
  volatile unsigned big = 0x12345;
  volatile int sbig = 100;
  h.version = big, h.delta = sbig - 200, h.flags = big;
  printf("truncated v=%u delta=%d flags=%u\n", h.version, h.delta, h.flags);
  /* increment with wrap */
  unsigned sum = 0;
  for (int i = 0; i < 40; ++i) {
    h.ihl++;
    h.delta--;
    h.ttl += 7;
    sum += h.ihl * 1000 + (unsigned)(h.delta + 64) * 10 + h.ttl;
  }
  printf("after loop ihl=%u delta=%d ttl=%u sum=%u\n", h.ihl, h.delta, h.ttl, sum);
  dump(&h, sizeof h);

  struct wide w = {0};
  w.a = 1, w.b = 0x1fffffffeULL, w.c = -300000 & 0xfffff, w.d = 1023;
  printf("sizeof wide %u a=%llu b=%llx c=%lld d=%llu\n", (unsigned)sizeof w, (unsigned long long)w.a,
         (unsigned long long)w.b, (long long)w.c, (unsigned long long)w.d);
  w.c = -5;
  w.b += 3; /* wraps within 33 bits */
  printf("c=%lld b=%llx ", (long long)w.c, (unsigned long long)w.b);
  dump(&w, sizeof w);

  struct mixed m[3];
  memset(m, 0xff, sizeof m);
  for (int i = 0; i < 3; ++i) {
    m[i].tag = (char)('A' + i);
    m[i].s = (unsigned short)(i * 11);
    m[i].t = (unsigned short)(2047 - i);
    m[i].neg = i - 2;
    m[i].u = (unsigned)(0x1fffffff - i * 0x1000001);
  }
  printf("sizeof mixed %u\n", (unsigned)sizeof m[0]);
  for (int i = 0; i < 3; ++i) {
    printf("%c s=%u t=%u neg=%d u=%x ", m[i].tag, m[i].s, m[i].t, m[i].neg, m[i].u);
    dump(&m[i], sizeof m[i]);
  }
  /* round trip through a raw word */
  uint32_t raw;
  struct {
    unsigned hi : 12, mid : 8, lo : 12;
  } f = {0xabc, 0xde, 0xf01}, g;
  memcpy(&raw, &f, 4);
  printf("raw %08x\n", raw);
  raw ^= 0x00ff00ff;
  memcpy(&g, &raw, 4);
  printf("hi=%x mid=%x lo=%x\n", g.hi, g.mid, g.lo);
  return 0;
}
