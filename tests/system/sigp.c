/* SIGNAL PROCESSOR's status orders and the floating service signal, on two I-streams
   (after selftest.c's signal_processor, which left I-stream 1 in a disabled wait with
   prefix 90000): stop and store status, store status at address, store additional
   status, conditional emergency signal [Principles of Operation, "Signal-Processor
   Orders"; "Store Status" in chapter 4 for the save area], and the service signal taken
   by whichever I-stream is enabled for it ["Service Signal"]. */
#include "system.h"

enum { P1 = 0x90000 };
extern volatile uint32_t cpu1_flag, cpu1_ext_count;
extern volatile uint16_t cpu1_ext_code;
extern char cpu1_mark_spin[], cpu1_mark_spin_loop[], cpu1_vectors[], cpu1_service_wait[], cpu1_external[];
uint8_t vector_pattern[512] __attribute__((aligned(8)));

enum { SENSE = 0x01, STOP = 0x05, RESTART = 0x06, STOP_AND_STORE_STATUS = 0x09, INITIAL_CPU_RESET = 0x0b,
       SET_PREFIX = 0x0d, STORE_STATUS_AT_ADDRESS = 0x0e, CONDITIONAL_EMERGENCY_SIGNAL = 0x13,
       SENSE_RUNNING_STATUS = 0x15, STORE_ADDITIONAL_STATUS = 0x17 };
enum { INCORRECT_STATE = 0x200, INVALID_PARAMETER = 0x100, STOPPED = 0x40, NOT_RUNNING = 0x400 };
static const uint64_t kMarker = 0x0123456789abcdefULL;

static uint64_t be64(const uint8_t *p) { return *(const uint64_t *)p; }
static uint32_t be32(const uint8_t *p) { return *(const uint32_t *)p; }
static int all_ff(const uint8_t *p, unsigned n) {
  for (unsigned k = 0; k < n; ++k)
    if (p[k] != 0xff) return 0;
  return 1;
}

/* I-stream 1 stopped, then restarted at `routine`; back once it set cpu1_flag. */
static void run_on_cpu1(char *routine) {
  uint32_t status;
  sigp(1, STOP, 0, &status);
  LC64(P1 + 0x1a0) = PSW_MASK_64;
  LC64(P1 + 0x1a8) = (uint64_t)(uintptr_t)routine;
  cpu1_flag = 0;
  sigp(1, RESTART, 0, &status);
  for (unsigned spins = 0; !cpu1_flag && spins < 10000000; ++spins) {
  }
}

/* Stop and store status catches I-stream 1 in its loop: stopped, and its status at
   absolute 4608 (this I-stream's prefix is 0), the architectural-mode id 1 at 163. */
static void stop_and_store_status(void) {
  uint32_t status = 0;
  run_on_cpu1(cpu1_mark_spin);
  memset((void *)0x1200, 0, 512);
  LC8(163) = 0;
  int cc = sigp(1, STOP_AND_STORE_STATUS, 0, &status);
  int sensed = sigp(1, SENSE, 0, &status);
  const uint8_t *area = (const uint8_t *)0x1200;
  check(cc == 0 && sensed == 1 && status == STOPPED, "SIGP stop and store status: CC 0, I-stream 1 stopped");
  check(be32(area + 0x118) == P1 && be64(area + 0x80 + 8 * 2) == kMarker &&
            be64(area + 0x108) == (uint64_t)(uintptr_t)cpu1_mark_spin_loop && (be64(area + 0x100) & PSW_MASK_64) &&
            LC8(163) == 1,
        "SIGP stop and store status: prefix, GR2, PSW at absolute 4608; mode id 1 at 163");
  cc = sigp(1, STOP_AND_STORE_STATUS, 0, &status);
  check(cc == 0, "SIGP stop and store status of a stopped I-stream: CC 0");
}

/* Store status at address: incorrect state while I-stream 1 runs (nothing stored),
   the 512 bytes when stopped, invalid parameter beyond storage; after an initial CPU
   reset the reset values [Principles of Operation, "Initial CPU Reset"]. */
static void store_status_at_address(uint64_t storage_bytes) {
  static uint8_t area[1024] __attribute__((aligned(512)));
  uint32_t status = 0;
  run_on_cpu1(cpu1_mark_spin);
  memset(area, 0xff, sizeof area);
  int cc = sigp(1, STORE_STATUS_AT_ADDRESS, (uintptr_t)area, &status);
  check(cc == 1 && status == INCORRECT_STATE && all_ff(area, sizeof area),
        "SIGP store status at address, I-stream 1 running: CC 1, incorrect state, nothing stored");
  sigp(1, STOP, 0, &status);
  cc = sigp(1, STORE_STATUS_AT_ADDRESS, (uintptr_t)area + 0x1ff, &status); /* bits 55-63 ignored */
  check(cc == 0 && be32(area + 0x118) == P1 && be64(area + 0x80 + 8 * 2) == kMarker &&
            be64(area + 0x108) == (uint64_t)(uintptr_t)cpu1_mark_spin_loop && all_ff(area + 512, 512),
        "SIGP store status at address, I-stream 1 stopped: its prefix, GR2 and PSW, 512 bytes only");
  const uint64_t beyond = 0x7ffffe00;
  cc = sigp(1, STORE_STATUS_AT_ADDRESS, beyond, &status);
  check(beyond + 512 > storage_bytes ? cc == 1 && status == INVALID_PARAMETER : cc == 0,
        "SIGP store status at address beyond storage: CC 1, invalid parameter");
  cc = sigp(1, INITIAL_CPU_RESET, 0, &status);
  memset(area, 0xff, sizeof area);
  int stored = sigp(1, STORE_STATUS_AT_ADDRESS, (uintptr_t)area, &status);
  check(cc == 0 && stored == 0 && be64(area + 0x100) == 0 && be64(area + 0x108) == 0 && be32(area + 0x118) == 0 &&
            be32(area + 0x11c) == 0 && be64(area + 0x180) == 0xe0 && be64(area + 0x180 + 8 * 14) == 0xc2000000ULL &&
            be64(area + 0x180 + 8 * 1) == 0,
        "SIGP initial CPU reset: PSW, prefix, FPC zero, CR0 E0, CR14 C2000000 in the stored status");
  sigp(1, SET_PREFIX, P1, &status); /* its own lowcore again */
}

/* Store additional status: the vector registers, 512 bytes of a 1 KB area. */
static void store_additional_status(void) {
  static uint8_t area[2048] __attribute__((aligned(1024)));
  uint32_t status = 0;
  for (unsigned k = 0; k < sizeof vector_pattern; ++k) vector_pattern[k] = (uint8_t)(7 * k + 1);
  run_on_cpu1(cpu1_vectors);
  memset(area, 0xff, sizeof area);
  int cc = sigp(1, STORE_ADDITIONAL_STATUS, (uintptr_t)area, &status);
  check(cc == 1 && status == INCORRECT_STATE && all_ff(area, sizeof area),
        "SIGP store additional status, I-stream 1 running: CC 1, incorrect state");
  sigp(1, STOP, 0, &status);
  int unaligned = sigp(1, STORE_ADDITIONAL_STATUS, (uintptr_t)area + 256, &status);
  uint32_t unaligned_status = status;
  int lc11 = sigp(1, STORE_ADDITIONAL_STATUS, (uintptr_t)area | 11, &status);
  check(unaligned == 1 && unaligned_status == INVALID_PARAMETER && lc11 == 1 && status == INVALID_PARAMETER &&
            all_ff(area, sizeof area),
        "SIGP store additional status: not on 1 KB, or length characteristic 11 without guarded storage: invalid parameter");
  cc = sigp(1, STORE_ADDITIONAL_STATUS, (uintptr_t)area, &status);
  int same = 1;
  for (unsigned k = 0; k < sizeof vector_pattern; ++k) same = same && area[k] == vector_pattern[k];
  check(cc == 0 && same && all_ff(area + 512, sizeof area - 512),
        "SIGP store additional status: the 32 vector registers, nothing else");
}

/* Conditional emergency signal to an operating I-stream (this one): the signal. */
static void conditional_emergency_signal(void) {
  uint32_t status = 0;
  unsigned before = last_external.count;
  set_cr0_bit(49, 1);
  int cc = sigp(0, CONDITIONAL_EMERGENCY_SIGNAL, 0, &status);
  set_cr0_bit(49, 0);
  unsigned taken = last_external.count - before, code = last_external.code, from = last_external.cpu_address;
  check(cc == 0 && taken == 1 && code == 0x1201 && from == 0,
        "SIGP conditional emergency signal to an operating I-stream: external interruption 1201");
}

/* The service signal floats: with this I-stream's subclass mask off and I-stream 1 in
   an enabled wait for it, I-stream 1 takes the one interruption, and this one none when
   it opens its mask afterwards. */
static void floating_service_signal(void) {
  static uint8_t block[4096] __attribute__((aligned(4096)));
  uint32_t status = 0;
  LC64(P1 + 0x1b0) = PSW_MASK_64; /* I-stream 1's external new PSW */
  LC64(P1 + 0x1b8) = (uint64_t)(uintptr_t)cpu1_external;
  cpu1_ext_count = 0, cpu1_ext_code = 0;
  run_on_cpu1(cpu1_service_wait);
  for (unsigned spins = 0; sigp(1, SENSE_RUNNING_STATUS, 0, &status) == 0 && spins < 1000000; ++spins) {
  }
  int waiting = status == NOT_RUNNING;
  set_cr0_bit(54, 0);
  unsigned before = last_external.count;
  memset(block, 0, sizeof block);
  *(uint16_t *)block = 4096;
  int cc;
  __asm__ volatile(".insn rre,0xb2200000,%1,%2\n\tipm %0\n\tsrl %0,28"
                   : "=d"(cc) : "d"(0x00020001), "a"(block) : "cc", "memory");
  for (unsigned spins = 0; cpu1_ext_count == 0 && spins < 10000000; ++spins) {
  }
  set_cr0_bit(54, 1);
  unsigned mine = last_external.count - before;
  check(cc == 0 && waiting && cpu1_ext_count == 1 && cpu1_ext_code == 0x2401 && mine == 0,
        "the service signal floats: I-stream 1, enabled and waiting, takes it once; I-stream 0 never");
  sigp(1, STOP, 0, &status);
}

void sigp_status_tests(unsigned cpus, uint64_t storage_bytes) {
  if (cpus < 2) return;
  stop_and_store_status();
  store_status_at_address(storage_bytes);
  store_additional_status();
  conditional_emergency_signal();
  floating_service_signal();
}
