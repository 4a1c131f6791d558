/* Atomic builtins on one I-stream: __atomic_* (fetch_add/sub/and/or/xor,
   add_fetch, exchange, compare_exchange strong and weak, load/store with every
   memory order) at 8, 16, 32 and 64 bits, the legacy __sync_* family, and 128-bit
   __sync_bool/val_compare_and_swap on a 16-byte aligned unsigned __int128, which
   GCC emits as CDSG. Results (old values, new values, success flags) are printed. */
#include <stdint.h>
#include <stdio.h>

typedef unsigned __int128 u128;

static uint8_t a8 = 250;
static uint16_t a16 = 65530;
static uint32_t a32 = 0xfffffff0u;
static uint64_t a64 = 0x7ffffffffffffff0ULL;
static int32_t s32 = -5;
static _Alignas(16) u128 a128;
static struct {
  uint32_t lo;
  _Alignas(16) u128 pair;
} holder;

static void p128(const char *what, u128 v) {
  printf("%s %016llx%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void) {
  /* fetch-op at each width; the narrow ones wrap */
  for (int i = 0; i < 3; ++i) {
    uint8_t o8 = __atomic_fetch_add(&a8, 3, __ATOMIC_SEQ_CST);
    uint16_t o16 = __atomic_fetch_add(&a16, 3, __ATOMIC_RELAXED);
    uint32_t o32 = __atomic_fetch_add(&a32, 7, __ATOMIC_ACQ_REL);
    uint64_t o64 = __atomic_fetch_add(&a64, 9, __ATOMIC_SEQ_CST);
    printf("fetch_add old %u %u %08x %016llx new %u %u %08x %016llx\n", o8, o16, o32, (unsigned long long)o64, a8, a16,
           a32, (unsigned long long)a64);
  }
  int32_t os = __atomic_fetch_sub(&s32, 10, __ATOMIC_SEQ_CST);
  printf("fetch_sub %d -> %d\n", os, s32);
  printf("sub_fetch %d\n", __atomic_sub_fetch(&s32, -100, __ATOMIC_SEQ_CST));
  uint32_t o = __atomic_fetch_and(&a32, 0x0ff00ff0u, __ATOMIC_SEQ_CST);
  printf("fetch_and %08x -> %08x\n", o, a32);
  o = __atomic_fetch_or(&a32, 0x80000001u, __ATOMIC_SEQ_CST);
  printf("fetch_or %08x -> %08x\n", o, a32);
  o = __atomic_fetch_xor(&a32, 0xffffffffu, __ATOMIC_SEQ_CST);
  printf("fetch_xor %08x -> %08x\n", o, a32);
  o = __atomic_fetch_nand(&a8, 0x0f, __ATOMIC_SEQ_CST);
  printf("fetch_nand %02x -> %02x\n", o, a8);
  unsigned of16 = __atomic_or_fetch(&a16, 0x8000, __ATOMIC_SEQ_CST);
  uint64_t af64 = __atomic_and_fetch(&a64, 0xff00ff00ff00ff00ULL, __ATOMIC_SEQ_CST);
  uint64_t xf64 = __atomic_xor_fetch(&a64, 1, __ATOMIC_SEQ_CST);
  printf("or_fetch16 %04x and_fetch64 %016llx xor_fetch64 %016llx\n", of16, (unsigned long long)af64,
         (unsigned long long)xf64);
  uint64_t ox = __atomic_exchange_n(&a64, 42, __ATOMIC_SEQ_CST);
  printf("exchange %016llx -> %016llx\n", (unsigned long long)ox, (unsigned long long)a64);
  unsigned ox8 = __atomic_exchange_n(&a8, 7, __ATOMIC_SEQ_CST);
  printf("exchange8 %u -> %u\n", ox8, a8);
  /* compare-exchange: success and failure, with the expected value updated */
  uint64_t exp64 = 41;
  int ok = __atomic_compare_exchange_n(&a64, &exp64, 100, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  printf("cas64 fail ok=%d expected now %llu value %llu\n", ok, (unsigned long long)exp64, (unsigned long long)a64);
  ok = __atomic_compare_exchange_n(&a64, &exp64, 100, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  printf("cas64 success ok=%d value %llu\n", ok, (unsigned long long)a64);
  uint32_t exp32 = a32;
  while (!__atomic_compare_exchange_n(&a32, &exp32, exp32 * 3 + 1, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
  }
  printf("cas32 weak loop value %08x\n", a32);
  uint16_t exp16 = 1;
  ok = __atomic_compare_exchange_n(&a16, &exp16, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  printf("cas16 ok=%d expected %04x\n", ok, exp16);
  uint8_t exp8 = 7;
  ok = __atomic_compare_exchange_n(&a8, &exp8, 0xee, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  printf("cas8 ok=%d value %02x\n", ok, a8);
  /* load/store */
  __atomic_store_n(&a32, 0x12345678u, __ATOMIC_RELEASE);
  __atomic_store_n(&a64, 0xdeadbeefcafef00dULL, __ATOMIC_SEQ_CST);
  printf("load %08x %016llx\n", __atomic_load_n(&a32, __ATOMIC_ACQUIRE),
         (unsigned long long)__atomic_load_n(&a64, __ATOMIC_SEQ_CST));
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  /* __sync family */
  o = __sync_fetch_and_add(&a32, 1);
  printf("sync_fetch_and_add %u -> %u\n", o, a32);
  printf("sync_add_and_fetch %llu\n", (unsigned long long)__sync_add_and_fetch(&a64, 3));
  printf("sync_fetch_and_or %04x\n", __sync_fetch_and_or(&a16, 0x0101));
  int b1 = __sync_bool_compare_and_swap(&a32, 0, 1);
  int b2 = __sync_bool_compare_and_swap(&a32, 0x12345679u, 0xabcdu);
  printf("sync_bool_cas32 %d %d value %08x\n", b1, b2, a32);
  uint64_t cur64 = a64;
  printf("sync_val_cas64 %016llx", (unsigned long long)__sync_val_compare_and_swap(&a64, cur64, 5));
  printf(" -> %llu\n", (unsigned long long)a64);
  printf("sync_lock_test_and_set %u\n", __sync_lock_test_and_set(&a8, 1));
  __sync_lock_release(&a8);
  __sync_synchronize();
  printf("after release %u\n", a8);
  /* 128-bit compare and swap (CDSG) */
  a128 = ((u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
  u128 want = ((u128)1 << 127) | 5;
  ok = __sync_bool_compare_and_swap(&a128, (u128)0, want);
  printf("cas128 wrong expected ok=%d\n", ok);
  p128("value", a128);
  ok = __sync_bool_compare_and_swap(&a128, a128, want);
  printf("cas128 right expected ok=%d\n", ok);
  p128("value", a128);
  u128 old = __sync_val_compare_and_swap(&holder.pair, (u128)0, ~(u128)0);
  p128("val_cas128 old", old);
  p128("val_cas128 new", holder.pair);
  old = __sync_val_compare_and_swap(&holder.pair, (u128)1, (u128)2);
  p128("val_cas128 failed, old", old);
  /* a counter updated by a CAS loop on 128 bits: {count, checksum} */
  for (int i = 0; i < 100; ++i) {
    u128 cur, nxt;
    do {
      cur = holder.pair;
      uint64_t cnt = (uint64_t)(cur >> 64) + 1, sum = (uint64_t)cur * 31 + (uint64_t)i;
      nxt = ((u128)cnt << 64) | sum;
    } while (!__sync_bool_compare_and_swap(&holder.pair, cur, nxt));
  }
  p128("cas loop", holder.pair);
  return 0;
}
