/* volatile accesses: every load and store of a volatile object must happen, in
   order, at its declared width. A fake device register block (a struct of volatile
   fields of 8, 16, 32 and 64 bits) is driven by a command protocol; read-modify-
   write through volatile pointers, volatile loop counters, and volatile arrays of
   each width. The results are deterministic because there is no real device. */
#include <stdint.h>
#include <stdio.h>

struct regs {
  volatile uint8_t status;
  volatile uint8_t ctrl;
  volatile uint16_t count;
  volatile uint32_t data;
  volatile uint64_t addr;
  volatile int32_t sdata;
};

static struct regs dev;
static volatile uint64_t log_[64];
static volatile unsigned log_n;

static void __attribute__((noinline)) device_step(struct regs *r) {
  /* the "hardware": consume ctrl commands */
  uint8_t c = r->ctrl;
  if (c & 1) r->data = r->data * 3 + 1, r->count++;
  if (c & 2) r->addr += r->data;
  if (c & 4) r->sdata = -r->sdata / 2;
  r->status = (uint8_t)((r->count & 0xf) << 4 | (c & 0xf));
  r->ctrl = 0;
  log_[log_n++ & 63] = (uint64_t)r->status << 56 | r->addr;
}

int main(void) {
  dev.data = 7, dev.addr = 0x1000, dev.sdata = -1000000;
  for (int i = 0; i < 40; ++i) {
    dev.ctrl = (uint8_t)(i % 8);
    dev.ctrl |= 1; /* a volatile read-modify-write */
    device_step(&dev);
  }
  printf("status=%02x count=%u data=%08x addr=%016llx sdata=%d log_n=%u\n", dev.status, dev.count, dev.data,
         (unsigned long long)dev.addr, dev.sdata, log_n);
  uint64_t h = 0;
  for (unsigned i = 0; i < 40; ++i) h = h * 31 + log_[i];
  printf("log hash %016llx\n", (unsigned long long)h);
  /* volatile arrays of each width, including sign extension on load */
  static volatile int8_t b8[16];
  static volatile int16_t b16[16];
  static volatile int32_t b32[16];
  static volatile uint64_t b64[16];
  for (int i = 0; i < 16; ++i) b8[i] = (int8_t)(i * 37 - 300), b16[i] = (int16_t)(i * 7919 - 60000), b32[i] = i * -123456789, b64[i] = ~(uint64_t)i << i;
  uint64_t s = 0; /* unsigned: the sum wraps */
  for (int i = 0; i < 16; ++i) s += (uint64_t)(b8[i] + b16[i] + (int64_t)b32[i]) + (b64[i] >> 3);
  printf("sum %016llx\n", (unsigned long long)s);
  /* volatile loop counter and repeated reads */
  volatile unsigned n = 0;
  while (n < 1000) n += 3;
  volatile uint32_t cell = 5;
  uint32_t t = cell + cell + cell; /* three reads */
  cell = t, cell = cell * 2, cell = cell + 1;
  printf("n=%u cell=%u\n", n, cell);
  /* volatile pointer to non-volatile data, and pointer arithmetic through volatile */
  uint32_t arr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint32_t *volatile vp = arr;
  uint32_t acc = 0;
  for (int i = 0; i < 8; ++i) acc = acc * 10 + vp[i], vp = vp;
  volatile uint16_t *hp = (volatile uint16_t *)&dev.count;
  *hp = (uint16_t)(*hp + 0x8000);
  printf("acc=%u count=%04x\n", acc, dev.count);
  return 0;
}
