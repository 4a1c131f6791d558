/* What the bare-metal test programs share: the lowcore's fields, the PSW bits, the
   interruption handlers' records, the SCLP console and a small printf. */
#ifndef TPFEMU_TESTS_SYSTEM_H
#define TPFEMU_TESTS_SYSTEM_H
#include <stdarg.h>
#include <stdint.h>

#define LC8(a) (*(volatile uint8_t *)(uintptr_t)(a))
#define LC16(a) (*(volatile uint16_t *)(uintptr_t)(a))
#define LC32(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define LC64(a) (*(volatile uint64_t *)(uintptr_t)(a))

/* Lowcore (real addresses), Principles of Operation "Assigned Storage Locations". */
#define LC_EXT_PARAM 0x080
#define LC_EXT_CODE 0x086
#define LC_SVC_ILC 0x089
#define LC_SVC_CODE 0x08a
#define LC_PGM_ILC 0x08d
#define LC_PGM_CODE 0x08e
#define LC_EXT_OLD_PSW 0x130
#define LC_SVC_OLD_PSW 0x140
#define LC_PGM_OLD_PSW 0x150
#define LC_EXT_NEW_PSW 0x1b0
#define LC_SVC_NEW_PSW 0x1c0
#define LC_PGM_NEW_PSW 0x1d0
#define LC_SUBSYSTEM_ID 0x0b8
#define LC_IO_PARAM 0x0bc
#define LC_IO_ID 0x0c0
#define LC_IO_OLD_PSW 0x170
#define LC_IO_NEW_PSW 0x1f0

#define PSW_MASK_IO 0x0200000000000000ULL
#define PSW_MASK_EXT 0x0100000000000000ULL
#define PSW_MASK_PROBLEM 0x0001000000000000ULL
#define PSW_MASK_WAIT 0x0002000000000000ULL
#define PSW_MASK_64 0x0000000180000000ULL

/* What the handlers saw last, and how often they ran. */
struct interruption {
  unsigned count;
  uint16_t code;
  uint16_t cpu_address; /* external: the CPU that signalled */
  uint8_t ilc;
  uint64_t old_mask, old_addr;
  uint64_t teid; /* program: the translation-exception identification (lowcore 0xa8) */
};
extern volatile struct interruption last_program, last_svc, last_external;
/* The last I/O interruption: its subsystem-identification word, parameter and
   interruption-identification word (lowcore 0xb8, 0xbc, 0xc0). */
struct io_interruption {
  unsigned count;
  uint32_t sid, parameter, id;
  uint64_t old_mask;
};
extern volatile struct io_interruption last_io;
/* The interruptions whose handlers ran while taken_recording was on, in the order they
   ran: kind P, S, E or I, the code (external, program, SVC), the old PSW. */
struct taken {
  char kind;
  uint16_t code;
  uint64_t old_mask, old_addr;
};
extern volatile struct taken taken_log[16];
extern volatile unsigned taken_count;
extern volatile int taken_recording;

void exit(int code) __attribute__((noreturn));
void setup_interruptions(void);
void problem_state_round_trip(void);
void invalid_psw_round_trip(void);
extern uint64_t invalid_psw[2];
extern uint64_t resume_after_invalid_psw;

/* probe_load(a): the doubleword at a, or ~0 when the load took a program interruption
   (its handler resumes after it); probe_store(a, v) likewise. probe_load_insn and
   probe_store_insn are the instructions' addresses (a nullified one's old PSW). */
uint64_t probe_load(uint64_t a);
void probe_store(uint64_t a, uint64_t v);
extern char probe_load_insn[], probe_store_insn[];
extern uint64_t resume_at;

/* One line a check, "PASS: what" or "FAIL: what" (a failure with the last program
   interruption's code, ILC, old PSW and TEID beside it), counted in `failures`: the
   kernels' exit status. */
extern unsigned failures;
void check(int ok, const char *what);
void dat_tests(void);
void stsi_tests(void);
void sck_tests(void);
void storage_key_tests(void);
void low_address_tests(void);
void move_page_tests(void);
void sigp_status_tests(unsigned cpus, uint64_t storage_bytes);

void sclp_setup(void);
int sclp_call(uint32_t command, void *sccb); /* the response code; -1 if SERVICE CALL's CC was not 0 */
void console_write(const char *s, unsigned n);
int console_read_line(char *buf, unsigned max);
void print(const char *fmt, ...);

void *memset(void *d, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);

/* SIGNAL PROCESSOR order `order` to CPU `cpu` with `parameter` (R1+1): the condition
   code, and the status R1 gets for CC 1 [Principles of Operation, "Signal Processor"].
   (unused: not every kernel signals; static, so each keeps its own copy as before.) */
__attribute__((unused)) static int sigp(unsigned cpu, unsigned order, uint64_t parameter, uint32_t *status) {
  register uint64_t r4 __asm__("r4") = 0;
  register uint64_t r5 __asm__("r5") = parameter;
  int cc;
  __asm__ volatile("sigp %%r4,%3,0(%4)\n\tipm %0\n\tsrl %0,28"
                   : "=d"(cc), "+d"(r4) : "d"(r5), "d"((uint64_t)cpu), "a"((uint64_t)order) : "cc", "memory");
  *status = (uint32_t)r4;
  return cc;
}

/* A doubleword of a DAT table (or any storage) at address `a`. */
#define TABLE(a) ((volatile uint64_t *)(uintptr_t)(a))

/* Control registers 0 and 1. */
__attribute__((unused)) static uint64_t get_cr0(void) {
  uint64_t v;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(v));
  return v;
}
/* The first 16 MB mapped to themselves: 16 page tables of 2 KB (256 entries) from
   `pages`, entered in the segment table `segments` and, when not 0, in a second space's
   segment table `also`. */
__attribute__((unused)) static void map_first_16mb(uint64_t pages, uint64_t segments, uint64_t also) {
  for (unsigned s = 0; s < 16; ++s) {
    for (unsigned p = 0; p < 256; ++p) TABLE(pages + s * 2048)[p] = ((uint64_t)s << 20) + ((uint64_t)p << 12);
    TABLE(segments)[s] = pages + s * 2048;
    if (also) TABLE(also)[s] = pages + s * 2048;
  }
}
__attribute__((unused)) static void set_cr0(uint64_t v) { __asm__ volatile("lctlg 0,0,%0" : : "Q"(v) : "memory"); }
/* CR0's bit `bit` (PoO numbering) on or off. */
__attribute__((unused)) static void set_cr0_bit(int bit, int on) {
  const uint64_t cr0 = get_cr0();
  set_cr0(on ? cr0 | 1ULL << (63 - bit) : cr0 & ~(1ULL << (63 - bit)));
}
__attribute__((unused)) static void set_cr1(uint64_t v) { __asm__ volatile("lctlg 1,1,%0" : : "Q"(v) : "memory"); }
__attribute__((unused)) static void set_cr7(uint64_t v) { __asm__ volatile("lctlg 7,7,%0" : : "Q"(v) : "memory"); }

/* DAT on and off: STOSM/STNSM of the PSW's bit 5. */
__attribute__((unused)) static void dat_on(void) {
  uint8_t old;
  __asm__ volatile("stosm %0,0x04" : "=Q"(old) : : "memory");
}
__attribute__((unused)) static void dat_off(void) {
  uint8_t old;
  __asm__ volatile("stnsm %0,0xfb" : "=Q"(old) : : "memory");
}

#endif
