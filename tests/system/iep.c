/* tpfemu ipl's test of instruction-execution protection (facility 130) [Principles of
   Operation, chapter 3, "Instruction-Execution Protection"; "Translation Tables": the
   IEP bit, bit 55, of a page-table entry and, with EDAT-1 and EDAT-2, of a segment- or
   region-third-table entry that designates a frame; chapter 6, "Suppression on
   Protection": its TEID]. A segment table identity-maps the first 16 MB (the kernel and
   its handlers), the test segment at 1 GB maps page 0 with the IEP bit and page 1
   without; code is put in their frames and branched to. With CR0's IEP control (bit 43)
   on, an instruction fetch from a page whose entry has the IEP bit is a protection
   exception with ESOP-2's protection code 101; data accesses are not affected, nor are
   fetches with the control off or DAT off. Changing the control is seen by the next
   fetch; IPTE and PTLB make a new entry's bit seen. One line a check, PASS or FAIL; the
   exit status is the failures. */
#include "system.h"

enum {
  SEGMENT_TABLE = 0x800000,      /* 2048 entries: TL 3, 16 KB */
  IDENTITY_PAGES = 0x810000,     /* 16 page tables of 2 KB: the first 16 MB */
  TEST_PAGES = 0x818000,         /* the test segment's page table */
  REGION_THIRD_TABLE = 0x820000, /* 2048 entries, 16 KB */
  IEP_FRAME = 0x900000,          /* the test segment's page 0: its entry has the IEP bit */
  PLAIN_FRAME = 0x901000,        /* page 1: no IEP bit */
  LARGE_FRAME = 0xa00000,        /* an EDAT-1 1 MB frame with the IEP bit */
  TEST = 0x40000000,             /* the test segment (index 1024) */
  LARGE = 0x40100000,            /* segment 1025: LARGE_FRAME */
  HUGE = 0x100000000,            /* region-third entry 2: an EDAT-2 2 GB frame at 0, IEP */
};

#define STE_INVALID 0x20ULL
#define FC 0x400ULL  /* format control: the entry designates a frame (EDAT) */
#define IEP 0x100ULL /* bit 55 */
#define FETCH 0x800ULL /* the TEID's fetch indication (bits 52-53 10) */
#define TEID_IEP 0x84ULL /* ESOP-2's protection code 101: bits 56 and 61 */
#define CR0_EDAT (1ULL << (63 - 40))
#define CR0_IEP (1ULL << (63 - 43))
#define HALF(a) (*(volatile uint16_t *)(uintptr_t)(a))

static void iep_control(int on) { set_cr0(on ? get_cr0() | CR0_IEP : get_cr0() & ~CR0_IEP); }

static void build_tables(void) {
  for (unsigned k = 0; k < 2048; ++k) TABLE(SEGMENT_TABLE)[k] = STE_INVALID;
  map_first_16mb(IDENTITY_PAGES, SEGMENT_TABLE, 0);
  for (unsigned p = 0; p < 256; ++p) TABLE(TEST_PAGES)[p] = 0x400; /* invalid */
  TABLE(TEST_PAGES)[0] = IEP_FRAME | IEP;
  TABLE(TEST_PAGES)[1] = PLAIN_FRAME;
  TABLE(SEGMENT_TABLE)[1024] = TEST_PAGES;
  TABLE(SEGMENT_TABLE)[1025] = LARGE_FRAME | FC | IEP;
  /* A region-third table: entry 0 the segment table (TT 01, TL 3), entry 2 a 2 GB frame. */
  for (unsigned k = 0; k < 2048; ++k) TABLE(REGION_THIRD_TABLE)[k] = STE_INVALID | 0x4;
  TABLE(REGION_THIRD_TABLE)[0] = SEGMENT_TABLE | 0x4 | 0x3;
  TABLE(REGION_THIRD_TABLE)[2] = 0x0 | FC | IEP | 0x4;
}

/* The code put in the frames: BR 14 at each page's start; at IEP_FRAME + 0x200, LCTLG
   0,0,0(2) then BR 14 (the control turned on from within the page); at + 0x300 the
   target of an EXECUTE, BCR 0,0. */
enum { LCTLG_AT = 0x200, AFTER_LCTLG = 0x206, EXECUTE_TARGET = 0x300 };
static void put_code(void) {
  HALF(IEP_FRAME) = HALF(PLAIN_FRAME) = HALF(LARGE_FRAME) = 0x07fe;
  HALF(IEP_FRAME + LCTLG_AT) = 0xeb00, HALF(IEP_FRAME + LCTLG_AT + 2) = 0x2000, HALF(IEP_FRAME + LCTLG_AT + 4) = 0x002f;
  HALF(IEP_FRAME + AFTER_LCTLG) = 0x07fe;
  HALF(IEP_FRAME + EXECUTE_TARGET) = 0x0700;
}

/* BASR 14 to `target` with R2 = `r2`: 0 when it came back, 1 when it took a program
   interruption (the handler resumes after the call). */
static int call_at(uint64_t target, uint64_t r2) {
  unsigned before = last_program.count;
  register uint64_t arg __asm__("r2") = r2;
  __asm__ volatile("larl 1,0f\n\tstg 1,%[resume]\n\tbasr 14,%[t]\n\tmvghi %[resume],0\n0:"
                   : [resume] "+Q"(resume_at), "+d"(arg)
                   : [t] "a"(target)
                   : "1", "14", "cc", "memory");
  return last_program.count != before;
}
/* EXECUTE of the instruction at `target`; 1 when it took a program interruption.
   `past`: the address after the EXECUTE. */
static int execute_at(uint64_t target, uint64_t *past) {
  unsigned before = last_program.count;
  uint64_t after;
  __asm__ volatile("larl 1,0f\n\tstg 1,%[resume]\n\tlarl %[after],1f\n\tex 0,0(%[t])\n1:\tmvghi %[resume],0\n0:"
                   : [resume] "+Q"(resume_at), [after] "=&a"(after)
                   : [t] "a"(target)
                   : "1", "cc", "memory");
  *past = after;
  return last_program.count != before;
}

/* The program interruption of an instruction fetch at `at` refused by IEP: code 0004,
   the TEID of its page (fetch, code 101, the primary space). */
static int refused(uint64_t at) {
  return last_program.code == 4 && last_program.teid == ((at & ~0xfffULL) | FETCH | TEID_IEP);
}

static int facility_130(void) {
  uint64_t list[4] = {0, 0, 0, 0};
  register uint64_t r0 __asm__("r0") = 3;
  __asm__ volatile("stfle %0" : "=Q"(list), "+d"(r0) : : "cc", "memory");
  return (list[2] >> (63 - (130 - 128))) & 1;
}

static void page_tests(void) {
  iep_control(1);
  check(call_at(IEP_FRAME, 0) == 0, "DAT off: the test page's frame runs, the control on");
  dat_on();
  iep_control(0);
  check(call_at(TEST, 0) == 0, "IEP control off: a branch into a page whose entry has the IEP bit runs there");
  iep_control(1);
  int taken = call_at(TEST, 0);
  check(taken && last_program.code == 4, "IEP control on: a branch into that page is protection exception 0004");
  const unsigned ilc = last_program.ilc;
  check(taken && (ilc == 2 || ilc == 4 || ilc == 6) && last_program.old_addr == TEST + ilc,
        "its old PSW: the branch target plus the ILC's halfwords");
  check(taken && refused(TEST), "its TEID: the page, the fetch indication, protection code 101 (IEP), the primary space");

  uint64_t seen = probe_load(TEST + 0x100);
  probe_store(TEST + 0x108, 0x1122334455667788ULL);
  check(seen == 0 && TABLE(IEP_FRAME + 0x108)[0] == 0x1122334455667788ULL && probe_load(TEST + 0x108) == 0x1122334455667788ULL,
        "a load and a store in that page: data accesses are not protected");
  check(call_at(TEST + 0x1000, 0) == 0, "a page of the same segment without the IEP bit runs");
  uint64_t past_execute;
  taken = execute_at(TEST + EXECUTE_TARGET, &past_execute);
  /* (tpfemu: ILC 4, past the EXECUTE; QEMU 7.2: ILC 2, as for any code fetch) */
  check(taken && refused(TEST + EXECUTE_TARGET) && last_program.old_addr == past_execute - 4 + last_program.ilc,
        "EXECUTE of a target in that page: 0004, the target's TEID, the old PSW the EXECUTE's plus the ILC");

  /* The control turned on by LCTLG in the page (reached with the control off): the next
     instruction's fetch is refused, though it ran (and was decoded) before, when the
     same LCTLG left the control off. */
  iep_control(0);
  uint64_t off = get_cr0(), on = off | CR0_IEP;
  taken = call_at(TEST + LCTLG_AT, (uint64_t)(uintptr_t)&off);
  check(!taken && !(get_cr0() & CR0_IEP), "LCTLG leaving the control off in that page: it runs on");
  taken = call_at(TEST + LCTLG_AT, (uint64_t)(uintptr_t)&on);
  check(taken && refused(TEST + AFTER_LCTLG) && last_program.old_addr == TEST + AFTER_LCTLG + last_program.ilc,
        "LCTLG turning the control on in that page: the next instruction's fetch is 0004");
  iep_control(0);
  check(call_at(TEST, 0) == 0, "the control off again: the page runs, no purge needed");
  iep_control(1);

  /* A new entry for page 1 with the IEP bit: IPTE first, then the new entry. */
  __asm__ volatile("ipte %0,%1" : : "a"((uint64_t)TEST_PAGES), "a"((uint64_t)TEST + 0x1000) : "memory");
  TABLE(TEST_PAGES)[1] = PLAIN_FRAME | IEP;
  taken = call_at(TEST + 0x1000, 0);
  check(taken && refused(TEST + 0x1000), "after IPTE, the page's new entry with the IEP bit: a branch into it is 0004");
  TABLE(TEST_PAGES)[1] = PLAIN_FRAME;
  TABLE(TEST_PAGES)[0] = IEP_FRAME;
  __asm__ volatile("ptlb" : : : "memory");
  check(call_at(TEST + 0x1000, 0) == 0 && call_at(TEST, 0) == 0, "the IEP bits cleared, after PTLB: both pages run");
  dat_off();
}

static void frame_tests(void) {
  set_cr0(get_cr0() | CR0_EDAT | CR0_IEP);
  dat_on();
  int taken = call_at(LARGE, 0);
  check(taken && refused(LARGE),
        "EDAT-1: a branch into a segment-table entry's 1 MB frame with the IEP bit is 0004, its TEID");
  set_cr1(REGION_THIRD_TABLE | 0x4 | 0x3);
  taken = call_at(HUGE + PLAIN_FRAME, 0);
  check(taken && refused(HUGE + PLAIN_FRAME),
        "EDAT-2: a branch into a region-third-table entry's 2 GB frame with the IEP bit is 0004, its TEID");
  set_cr1(SEGMENT_TABLE | 0x3);
  dat_off();
  set_cr0(get_cr0() & ~(CR0_EDAT | CR0_IEP));
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu instruction-execution-protection test\n");
  if (!facility_130()) {
    check(0, "STFLE: facility 130, instruction-execution protection");
    return (int)failures;
  }
  check(1, "STFLE: facility 130, instruction-execution protection");
  build_tables();
  put_code();
  set_cr1(SEGMENT_TABLE | 0x3);
  page_tests();
  frame_tests();
  print("%u failure(s)\n", failures);
  return (int)failures;
}
