/* Data layout: sizeof/alignof/offsetof of structs with mixed members, packed
   structs and unaligned members, unions for type punning (GCC defines reading a
   different union member), big-endian byte order observed through memcpy and
   unsigned char pointers, flexible array members, and anonymous unions. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mixed {
  char c;
  int64_t l;
  short s;
  int i;
  char tail[3];
};
struct __attribute__((packed)) packed {
  char c;
  int64_t l;
  uint16_t s;
  uint32_t i;
};
union pun {
  uint64_t u64;
  uint32_t u32[2];
  uint16_t u16[4];
  uint8_t u8[8];
  int64_t s64;
};
struct msg {
  uint16_t type;
  uint16_t len;
  union {
    uint32_t word;
    uint8_t bytes[4];
  };
  uint8_t payload[];
};

static void dump(const char *label, const void *p, size_t n) {
  const unsigned char *b = p;
  printf("%s:", label);
  for (size_t i = 0; i < n; ++i) printf(" %02x", b[i]);
  putchar('\n');
}

int main(void) {
  printf("mixed size=%u align=%u off c=%u l=%u s=%u i=%u tail=%u\n", (unsigned)sizeof(struct mixed),
         (unsigned)_Alignof(struct mixed), (unsigned)offsetof(struct mixed, c), (unsigned)offsetof(struct mixed, l),
         (unsigned)offsetof(struct mixed, s), (unsigned)offsetof(struct mixed, i),
         (unsigned)offsetof(struct mixed, tail));
  printf("packed size=%u off l=%u s=%u i=%u\n", (unsigned)sizeof(struct packed), (unsigned)offsetof(struct packed, l),
         (unsigned)offsetof(struct packed, s), (unsigned)offsetof(struct packed, i));
  printf("sizes: short %u int %u long %u long long %u ptr %u size_t %u int128 %u align int128 %u\n",
         (unsigned)sizeof(short), (unsigned)sizeof(int), (unsigned)sizeof(long), (unsigned)sizeof(long long),
         (unsigned)sizeof(void *), (unsigned)sizeof(size_t), (unsigned)sizeof(__int128),
         (unsigned)_Alignof(__int128));
  /* packed members are accessed unaligned */
  static struct packed parr[4];
  for (int i = 0; i < 4; ++i) {
    parr[i].c = (char)('a' + i);
    parr[i].l = (int64_t)0x0102030405060708LL * (i + 1);
    parr[i].s = (uint16_t)(0xa0b0 + i);
    parr[i].i = 0xdeadbeefu ^ (uint32_t)i;
  }
  int64_t sum = 0;
  for (int i = 0; i < 4; ++i) sum += parr[i].l + parr[i].s + parr[i].i;
  printf("packed sum %lld\n", (long long)sum);
  dump("packed[1]", &parr[1], sizeof parr[1]);
  /* unions */
  union pun p;
  p.u64 = 0x0123456789abcdefULL;
  printf("u32 %08x %08x u16 %04x %04x %04x %04x u8[0]=%02x u8[7]=%02x\n", p.u32[0], p.u32[1], p.u16[0], p.u16[1],
         p.u16[2], p.u16[3], p.u8[0], p.u8[7]);
  p.u8[0] = 0xff;
  printf("s64 after setting byte 0: %lld\n", (long long)p.s64);
  p.u16[3] = 0x8000;
  printf("u64 now %016llx\n", (unsigned long long)p.u64);
  /* byte order via memcpy */
  uint32_t w = 0x11223344;
  unsigned char b[4];
  memcpy(b, &w, 4);
  printf("big-endian bytes %02x %02x %02x %02x\n", b[0], b[1], b[2], b[3]);
  uint16_t h;
  memcpy(&h, b + 1, 2);
  printf("middle halfword %04x\n", h);
  /* flexible array member */
  struct msg *m = malloc(sizeof *m + 10);
  m->type = 7, m->len = 10, m->word = 0xcafebabe;
  for (int i = 0; i < 10; ++i) m->payload[i] = (uint8_t)(i * i);
  printf("msg size=%u payload offset=%u bytes[0]=%02x bytes[3]=%02x\n", (unsigned)sizeof *m,
         (unsigned)offsetof(struct msg, payload), m->bytes[0], m->bytes[3]);
  dump("msg", m, sizeof *m + 10);
  free(m);
  /* struct with padding: zero it, fill members, dump bytes (padding stays zero) */
  struct mixed mx;
  memset(&mx, 0, sizeof mx);
  mx.c = 'X', mx.l = -2, mx.s = -3, mx.i = 0x7f000001, mx.tail[0] = 1, mx.tail[2] = 3;
  dump("mixed", &mx, sizeof mx);
  /* arrays of structs: element addresses differ by sizeof */
  struct mixed arr[3];
  printf("stride %d\n", (int)((char *)&arr[2] - (char *)&arr[0]));
  return 0;
}
