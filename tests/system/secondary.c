/* tpfemu ipl's test of secondary-space mode [Principles of Operation, chapter 3,
   "Address-Space Control": in the secondary-space mode operand addresses are secondary
   virtual addresses, translated through CR7's ASCE, and instruction addresses primary
   virtual addresses, translated through CR1's; chapter 6, "Translation-Exception
   Identification": bits 62-63 name the ASCE a translation used]. Two segment tables
   identity-map the first 16 MB alike (the kernel, its handlers and its data run on in
   either space) and map the test segment at 1 GB differently: its page 0 is a frame of
   code in the primary space and a frame of data in the secondary; page 1 is valid in
   the primary only, page 2 (code) in the secondary only. In the secondary-space mode, a
   branch to page 0 runs the primary's code, whose load reads the secondary's data; so
   does an EXECUTE of a target there; a branch to page 2 is a page-translation exception
   whose TEID names the primary space and the fetch, a load from page 1 one whose TEID
   names the secondary. One line a check, PASS or FAIL; the exit status is the failures. */
#include "system.h"

enum {
  PRIMARY_SEGMENTS = 0x800000,   /* 2048 entries: TL 3, 16 KB */
  IDENTITY_PAGES = 0x810000,     /* 16 page tables of 2 KB: the first 16 MB, both spaces */
  PRIMARY_TEST_PAGES = 0x818000, /* the test segment's page table in the primary space */
  SECONDARY_TEST_PAGES = 0x818800,
  SECONDARY_SEGMENTS = 0x820000,
  CODE_FRAME = 0x900000,         /* the test page in the primary space: code */
  DATA_FRAME = 0x901000,         /* the test page in the secondary space: data */
  SECONDARY_CODE_FRAME = 0x902000, /* page 2 in the secondary space only: code */
  PRIMARY_ONLY_FRAME = 0x903000, /* page 1 in the primary space only */
  TEST = 0x40000000,             /* the test segment (index 1024) */
};

#define PTE_INVALID 0x400ULL
#define STE_INVALID 0x20ULL
#define FETCH 0x800ULL /* the TEID's fetch indication (bits 52-53 10) */
#define SECONDARY_ID 2ULL /* the TEID's bits 62-63: the secondary space's ASCE */
#define HALF(a) (*(volatile uint16_t *)(uintptr_t)(a))
#define CR0_SECONDARY_SPACE (1ULL << (63 - 37))

static void secondary_mode(void) { __asm__ volatile("sacf 0x100" : : : "memory"); }
static void primary_mode(void) { __asm__ volatile("sacf 0" : : : "memory"); }

enum { OPERAND = 0x800, EXECUTE_TARGET = 0x10 };
enum { PRIMARY_VALUE = 0x1111, SECONDARY_VALUE = 0x2222, PRIMARY_ONLY_VALUE = 0x3333 };

static void build_tables(void) {
  for (unsigned k = 0; k < 2048; ++k) TABLE(PRIMARY_SEGMENTS)[k] = TABLE(SECONDARY_SEGMENTS)[k] = STE_INVALID;
  map_first_16mb(IDENTITY_PAGES, PRIMARY_SEGMENTS, SECONDARY_SEGMENTS);
  for (unsigned p = 0; p < 256; ++p) TABLE(PRIMARY_TEST_PAGES)[p] = TABLE(SECONDARY_TEST_PAGES)[p] = PTE_INVALID;
  TABLE(PRIMARY_TEST_PAGES)[0] = CODE_FRAME;
  TABLE(PRIMARY_TEST_PAGES)[1] = PRIMARY_ONLY_FRAME;
  TABLE(SECONDARY_TEST_PAGES)[0] = DATA_FRAME;
  TABLE(SECONDARY_TEST_PAGES)[2] = SECONDARY_CODE_FRAME;
  TABLE(PRIMARY_SEGMENTS)[1024] = PRIMARY_TEST_PAGES;
  TABLE(SECONDARY_SEGMENTS)[1024] = SECONDARY_TEST_PAGES;
}

/* The code frame: LG 2,0(3); BR 14 at its start, LGHI 2,0x77 (an EXECUTE's target) at
   +0x10, its own doubleword at +0x800. The data frame has zeros where the code frame has
   code (an operation exception, if it were fetched) and another doubleword at +0x800.
   The secondary's page 2: BR 14. */
static void put_code(void) {
  HALF(CODE_FRAME) = 0xe320, HALF(CODE_FRAME + 2) = 0x3000, HALF(CODE_FRAME + 4) = 0x0004;
  HALF(CODE_FRAME + 6) = 0x07fe;
  HALF(CODE_FRAME + EXECUTE_TARGET) = 0xa729, HALF(CODE_FRAME + EXECUTE_TARGET + 2) = 0x0077;
  TABLE(CODE_FRAME + OPERAND)[0] = PRIMARY_VALUE;
  TABLE(DATA_FRAME + OPERAND)[0] = SECONDARY_VALUE;
  TABLE(PRIMARY_ONLY_FRAME)[0] = PRIMARY_ONLY_VALUE;
  HALF(SECONDARY_CODE_FRAME) = 0x07fe;
}

/* BASR 14 to `target` with R3 = `r3`: R2 as the code left it; *taken 1 when the call
   took a program interruption (the handler resumes after it). */
static uint64_t call_at(uint64_t target, uint64_t r3, int *taken) {
  unsigned before = last_program.count;
  register uint64_t r2 __asm__("r2") = ~0ULL;
  register uint64_t arg __asm__("r3") = r3;
  __asm__ volatile("larl 1,0f\n\tstg 1,%[resume]\n\tbasr 14,%[t]\n\tmvghi %[resume],0\n0:"
                   : [resume] "+Q"(resume_at), "+d"(r2), "+d"(arg)
                   : [t] "a"(target)
                   : "1", "14", "cc", "memory");
  *taken = last_program.count != before;
  return r2;
}

/* EXECUTE of the instruction at `target`: R2 as it left it; *taken as call_at's. */
static uint64_t execute_at(uint64_t target, int *taken) {
  unsigned before = last_program.count;
  register uint64_t r2 __asm__("r2") = ~0ULL;
  __asm__ volatile("larl 1,0f\n\tstg 1,%[resume]\n\tex 0,0(%[t])\n\tmvghi %[resume],0\n0:"
                   : [resume] "+Q"(resume_at), "+d"(r2)
                   : [t] "a"(target)
                   : "1", "cc", "memory");
  *taken = last_program.count != before;
  return r2;
}

/* The last program interruption: one since `before`, code `code`, TEID `teid`, the old
   PSW at `at` (nullified). */
static int exception(unsigned before, unsigned code, uint64_t teid, uint64_t at) {
  return last_program.count == before + 1 && last_program.code == code && last_program.teid == teid &&
         last_program.old_addr == at;
}

static void tests(void) {
  int taken;
  dat_on();
  /* The primary-space mode: instructions and operands through CR1. */
  uint64_t seen = probe_load(TEST + OPERAND);
  uint64_t loaded = call_at(TEST, TEST + OPERAND, &taken);
  check(seen == PRIMARY_VALUE && !taken && loaded == PRIMARY_VALUE,
        "primary-space mode: the primary space's code runs, its load reads the primary space");

  secondary_mode();
  seen = probe_load(TEST + OPERAND);
  check(seen == SECONDARY_VALUE, "secondary-space mode: a load reads the secondary space (CR7)");
  loaded = call_at(TEST, TEST + OPERAND, &taken);
  check(!taken && loaded == SECONDARY_VALUE,
        "secondary-space mode: a branch runs the primary space's code (CR1), its load reads the secondary space");
  loaded = execute_at(TEST + EXECUTE_TARGET, &taken);
  check(!taken && loaded == 0x77, "secondary-space mode: EXECUTE fetches its target from the primary space");

  unsigned before = last_program.count;
  call_at(TEST + 0x2000, 0, &taken);
  check(taken && exception(before, 0x11, (TEST + 0x2000) | FETCH, TEST + 0x2000),
        "secondary-space mode: a branch to a page only the secondary space maps is 0011, its TEID the primary's");
  before = last_program.count;
  seen = probe_load(TEST + 0x1000);
  check(seen == ~0ULL && exception(before, 0x11, (TEST + 0x1000) | FETCH | SECONDARY_ID,
                                   (uint64_t)(uintptr_t)probe_load_insn),
        "secondary-space mode: a load from a page only the primary space maps is 0011, its TEID the secondary's");

  primary_mode();
  seen = probe_load(TEST + 0x1000);
  check(seen == PRIMARY_ONLY_VALUE, "back in the primary-space mode: that page loads from the primary space");
  before = last_program.count;
  call_at(TEST + 0x2000, 0, &taken);
  check(taken && exception(before, 0x11, (TEST + 0x2000) | FETCH, TEST + 0x2000),
        "and a branch to the secondary space's code page is 0011 still");

  /* CR7 the same ASCE as CR1: one space, but a fetch's TEID names the primary, a load's
     the secondary. */
  set_cr7(PRIMARY_SEGMENTS | 0x3);
  secondary_mode();
  before = last_program.count;
  call_at(TEST + 0x2000, 0, &taken);
  const int fetch_ok = taken && exception(before, 0x11, (TEST + 0x2000) | FETCH, TEST + 0x2000);
  before = last_program.count;
  seen = probe_load(TEST + 0x2000);
  const int load_ok = seen == ~0ULL && exception(before, 0x11, (TEST + 0x2000) | FETCH | SECONDARY_ID,
                                                 (uint64_t)(uintptr_t)probe_load_insn);
  primary_mode();
  set_cr7(SECONDARY_SEGMENTS | 0x3);
  check(fetch_ok && load_ok,
        "CR7 the same ASCE as CR1: a fetch's 0011 names the primary space, a load's the secondary");
  dat_off();
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu secondary-space mode test\n");
  build_tables();
  put_code();
  set_cr0(get_cr0() | CR0_SECONDARY_SPACE);
  set_cr1(PRIMARY_SEGMENTS | 0x3);
  set_cr7(SECONDARY_SEGMENTS | 0x3);
  tests();
  print("%u failure(s)\n", failures);
  return (int)failures;
}
