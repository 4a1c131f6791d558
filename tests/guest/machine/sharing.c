/* Runs on every I-stream (tpfemu exec --istreams N --all-istreams-start); argv[1] picks the pattern.
   The figures come from the machine model's counters, read by the test.

   shared    every I-stream increments one counter with COMPARE AND SWAP (CSG)
   separate  each I-stream increments its own counter, each on its own 256-byte line
   false     each I-stream increments its own counter, all counters in one line
   readspin  I-stream 0 works on private data, then sets a flag; the others wait
             for it reading the flag (loads only)
   csgspin   as readspin, but the waiters poll the flag with CSG
   sweep     I-stream 0 touches every 256-byte line of a 64 MB array once */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tpfemu.h>

#define INCREMENTS 2000

static volatile uint64_t shared_counter __attribute__((aligned(256)));
static struct {
  volatile uint64_t value;
  char pad[248];
} separate_counters[64] __attribute__((aligned(256)));
static volatile uint64_t packed_counters[32] __attribute__((aligned(256)));
static volatile uint64_t flag __attribute__((aligned(256)));
static volatile uint64_t ready __attribute__((aligned(256)));

static void csg_increment(volatile uint64_t *p) {
  uint64_t old;
  do {
    old = *p;
  } while (!__sync_bool_compare_and_swap(p, old, old + 1));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "shared";
  int id = tpf_istream(), n = tpf_istreams();
  if (!strcmp(mode, "shared")) {
    for (int k = 0; k < INCREMENTS; ++k) csg_increment(&shared_counter);
  } else if (!strcmp(mode, "separate")) {
    for (int k = 0; k < INCREMENTS; ++k) csg_increment(&separate_counters[id].value);
  } else if (!strcmp(mode, "false")) {
    for (int k = 0; k < INCREMENTS; ++k) csg_increment(&packed_counters[id % 32]);
  } else if (!strcmp(mode, "readspin") || !strcmp(mode, "csgspin")) {
    if (id == 0) {
      static uint64_t private_data[512];
      uint64_t acc = 0;
      for (int k = 0; k < 20000; ++k) acc += private_data[k & 511] += (uint64_t)k;
      flag = acc | 1;
    } else if (mode[0] == 'r') {
      while (flag == 0) {
      }
    } else {
      while (__sync_val_compare_and_swap(&flag, 0, 0) == 0) {
      }
    }
  } else if (!strcmp(mode, "sweep")) {
    if (id == 0) {
      size_t size = 64u << 20;
      char *raw = malloc(size + (1u << 20));
      char *a = (char *)(((uintptr_t)raw + (1u << 20) - 1) & ~(uintptr_t)((1u << 20) - 1));
      uint64_t sum = 0;
      for (size_t off = 0; off < size; off += 256) sum += (unsigned char)a[off];
      printf("sweep sum %llu\n", (unsigned long long)sum);
    }
  } else {
    printf("unknown mode %s\n", mode);
    return 2;
  }
  if (id == 0 && mode[0] == 's' && mode[1] != 'w') {
    /* I-stream 0 reports once everyone is done (the others exit on their own). */
    __sync_fetch_and_add(&ready, 1);
    while (ready != (uint64_t)n) {
    }
    uint64_t total = 0;
    if (!strcmp(mode, "shared")) total = shared_counter;
    else for (int k = 0; k < n; ++k) total += separate_counters[k].value;
    printf("%s: %d I-streams, total %llu\n", mode, n, (unsigned long long)total);
  } else if (mode[0] == 's' && mode[1] != 'w') {
    __sync_fetch_and_add(&ready, 1);
  }
  return 0;
}
