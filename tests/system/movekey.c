/* tpfemu ipl's test of the moves across keys and spaces and of secondary-space mode
   [Principles of Operation, chapter 10, "MOVE WITH KEY", "MOVE TO PRIMARY", "MOVE TO
   SECONDARY", "SET ADDRESS SPACE CONTROL"; chapter 3, "Address-Space Control"]. The
   primary (CR1) and secondary (CR7) segment tables both identity-map the first 16 MB
   (the kernel and its handlers), and map the test segment at 1 GB to different frames:
   MVCP and MVCS move between them, SAC 256 makes the test segment's loads and stores
   the secondary frame's. The exceptions: the 256-byte rule's CC 3, the special-
   operation exception with DAT off and without CR0's secondary-space control, the
   privileged-operation exception for a key outside the PSW-key mask in the problem
   state, a secondary page-translation exception's TEID, and MVCK's source key against a
   fetch-protected block. One line a check, PASS or FAIL; the exit status is the
   failures. */
#include "system.h"

enum {
  PRIMARY_SEGMENTS = 0x800000,   /* 2048 entries each: TL 3 */
  SECONDARY_SEGMENTS = 0x804000,
  IDENTITY_PAGES = 0x810000,     /* 16 page tables of 2 KB: the first 16 MB */
  PRIMARY_TEST_PAGES = 0x818000, /* the test segment's, one per space */
  SECONDARY_TEST_PAGES = 0x818800,
  PRIMARY_FRAME = 0x900000,
  SECONDARY_FRAME = 0x901000,
  KEYED_BLOCK = 0x902000, /* storage key 3, fetch-protected */
  TEST = 0x40000000,      /* the test segment (index 1024) */
};

#define STE_INVALID 0x20ULL
#define PTE_INVALID 0x400ULL
#define CR0_SECONDARY_SPACE (1ULL << (63 - 37))
#define BYTES(a) ((volatile uint8_t *)(uintptr_t)(a))

static void set_cr3(uint64_t v) { __asm__ volatile("lctlg 3,3,%0" : : "Q"(v) : "memory"); }
static void build_tables(void) {
  for (unsigned k = 0; k < 2048; ++k) TABLE(PRIMARY_SEGMENTS)[k] = TABLE(SECONDARY_SEGMENTS)[k] = STE_INVALID;
  map_first_16mb(IDENTITY_PAGES, PRIMARY_SEGMENTS, SECONDARY_SEGMENTS);
  for (unsigned p = 0; p < 256; ++p) TABLE(PRIMARY_TEST_PAGES)[p] = TABLE(SECONDARY_TEST_PAGES)[p] = PTE_INVALID;
  TABLE(PRIMARY_TEST_PAGES)[0] = PRIMARY_FRAME;
  TABLE(SECONDARY_TEST_PAGES)[0] = SECONDARY_FRAME;
  TABLE(PRIMARY_SEGMENTS)[1024] = PRIMARY_TEST_PAGES;
  TABLE(SECONDARY_SEGMENTS)[1024] = SECONDARY_TEST_PAGES;
  for (unsigned k = 0; k < 4096; ++k) BYTES(PRIMARY_FRAME)[k] = 'p', BYTES(SECONDARY_FRAME)[k] = 's';
}

/* The moves: the CC, or -1 when the instruction took a program interruption (its
   handler resumes after it). R1 the true length, R3's bits 56-59 the key. */
#define MOVE(name)                                                                              \
  static int name(uint64_t to, uint64_t from, uint64_t length, uint64_t key) {                  \
    unsigned before = last_program.count;                                                       \
    int cc = -1;                                                                                \
    __asm__ volatile("larl 1,0f\n\tstg 1,%[resume]\n\t" #name " 0(%[l],%[to]),0(%[from]),%[key]\n\t" \
                     "ipm %[cc]\n\tsrl %[cc],28\n\tmvghi %[resume],0\n0:"                   \
                     : [cc] "+d"(cc), [resume] "+Q"(resume_at)                                  \
                     : [l] "d"(length), [to] "a"(to), [from] "a"(from), [key] "d"(key)          \
                     : "1", "cc", "memory");                                                    \
    return last_program.count != before ? -1 : cc;                                              \
  }
MOVE(mvck)
MOVE(mvcp)
MOVE(mvcs)

/* SAC and SACF: the mode in bits 52-55 of the address (0 primary, 1 secondary); 1 when
   it took a program interruption. (QEMU 7.2's TCG has SACF but not SAC.) */
#define SET_ASC(name)                                                                     \
  static int name(unsigned mode) {                                                        \
    unsigned before = last_program.count;                                                 \
    __asm__ volatile("larl 1,0f\n\tstg 1,%[resume]\n\t" #name " 0(%[m])\n\tmvghi %[resume],0\n0:" \
                     : [resume] "+Q"(resume_at)                                           \
                     : [m] "a"((uint64_t)mode << 8)                                       \
                     : "1", "memory");                                                    \
    return last_program.count != before;                                                  \
  }
SET_ASC(sac)
SET_ASC(sacf)

static int all(uint64_t a, uint8_t v, unsigned n) {
  for (unsigned k = 0; k < n; ++k)
    if (BYTES(a)[k] != v) return 0;
  return 1;
}

static uint8_t buffer[512];

static void move_with_key(void) {
  /* A fetch-protected block of key 3 (SSKE: ACC 3, F). */
  __asm__ volatile("sske %0,%1" : : "d"(0x38), "a"((uint64_t)KEYED_BLOCK) : "memory");
  for (unsigned k = 0; k < 300; ++k) BYTES(KEYED_BLOCK)[k] = 'k';
  memset(buffer, 0, sizeof buffer);
  int cc = mvck((uint64_t)buffer, KEYED_BLOCK, 16, 0x30);
  check(cc == 0 && all((uint64_t)buffer, 'k', 16) && buffer[16] == 0, "MVCK with the block's key: 16 bytes, CC 0");
  memset(buffer, 0, sizeof buffer);
  cc = mvck((uint64_t)buffer, KEYED_BLOCK, 300, 0x30);
  check(cc == 3 && all((uint64_t)buffer, 'k', 256) && buffer[256] == 0, "MVCK of 300 bytes: 256 moved, CC 3");
  cc = mvck((uint64_t)buffer + 300, KEYED_BLOCK, 0, 0x30);
  check(cc == 0 && buffer[300] == 0, "MVCK of 0 bytes: nothing moved, CC 0");
  memset(buffer, 0, sizeof buffer);
  cc = mvck((uint64_t)buffer, KEYED_BLOCK, 16, 0x50);
  check(cc == -1 && last_program.code == 4 && buffer[0] == 0,
        "MVCK with another key from a fetch-protected block: protection exception 0004, nothing moved");
  __asm__ volatile("sske %0,%1" : : "d"(0), "a"((uint64_t)KEYED_BLOCK) : "memory");
}

/* The problem state's checks run there (problem_call); their results are printed after. */
static int problem_cc_denied, problem_code_denied, problem_cc_allowed;
static void in_problem_state(void) {
  unsigned before = last_program.count;
  problem_cc_denied = mvcp((uint64_t)buffer, TEST, 8, 0x30);
  problem_code_denied = last_program.count != before ? last_program.code : 0;
  problem_cc_allowed = mvcp((uint64_t)buffer, TEST, 8, 0x00);
}
/* problem_call(fn): fn runs in the problem state (DAT on, key 0), then SVC 1 brings the
   supervisor state back (runtime.c's handler). */
void problem_call(void (*fn)(void));
__asm__(".globl problem_call\n"
        "problem_call:\n"
        "\tstmg %r6,%r15,48(%r15)\n"
        "\tlgr %r6,%r2\n"
        "\tlarl %r1,problem_call_psw\n"
        "\tlarl %r3,1f\n"
        "\tstg %r3,8(%r1)\n"
        "\tlpswe 0(%r1)\n"
        "1:\taghi %r15,-160\n"
        "\tbasr %r14,%r6\n"
        "\taghi %r15,160\n"
        "\tsvc 1\n"
        "\tlmg %r6,%r15,48(%r15)\n"
        "\tbr %r14\n"
        "\t.section .data\n"
        "\t.balign 8\n"
        "problem_call_psw:\t.quad 0x0501000180000000, 0\n"
        "\t.previous\n");

static void cross_space(void) {
  set_cr1(PRIMARY_SEGMENTS | 0x3);
  set_cr7(SECONDARY_SEGMENTS | 0x3);
  set_cr0(get_cr0() | CR0_SECONDARY_SPACE);

  memset(buffer, 0, sizeof buffer);
  int cc = mvcp((uint64_t)buffer, TEST, 64, 0);
  check(cc == -1 && last_program.code == 0x13, "MVCP with DAT off: special-operation exception 0013");
  dat_on();
  cc = mvcp((uint64_t)buffer, TEST, 64, 0);
  check(cc == 0 && all((uint64_t)buffer, 's', 64) && buffer[64] == 0,
        "MVCP: 64 bytes from the secondary space's test page, CC 0");
  memset(buffer, 'm', sizeof buffer);
  cc = mvcs(TEST + 0x100, (uint64_t)buffer, 300, 0);
  check(cc == 3 && all(SECONDARY_FRAME + 0x100, 'm', 256) && BYTES(SECONDARY_FRAME + 0x200)[0] == 's' &&
            BYTES(PRIMARY_FRAME + 0x100)[0] == 'p',
        "MVCS of 300 bytes: 256 into the secondary frame, CC 3, the primary frame unchanged");
  cc = mvcp((uint64_t)buffer, TEST + 0x1000, 8, 0);
  check(cc == -1 && last_program.code == 0x11 && (last_program.teid & ~0xfffULL) == TEST + 0x1000 &&
            (last_program.teid & 3) == 2,
        "MVCP from an invalid secondary page: page-translation exception 0011, TEID the secondary space's");

  /* Secondary-space mode: the test segment's loads and stores are the secondary's. */
  check(sacf(1) == 0, "SACF 256: secondary-space mode");
  uint8_t seen = BYTES(TEST)[0x10];
  BYTES(TEST)[0x20] = 'S';
  sacf(0);
  check(seen == 's' && BYTES(SECONDARY_FRAME + 0x20)[0] == 'S' && BYTES(PRIMARY_FRAME + 0x20)[0] == 'p' &&
            BYTES(TEST)[0x10] == 'p',
        "secondary-space mode: a load and a store through CR7; back in primary mode, CR1's frame");

  int sac_ok = sac(1) == 0;
  seen = BYTES(TEST)[0x10];
  sac(0);
  check(sac_ok && seen == 's', "SAC 256 with DAT on: secondary-space mode, as SACF");

  /* The problem state: R3's key needs its bit of the PSW-key mask (CR3 bits 32-47). */
  set_cr3(0x80000000ULL); /* key 0 only */
  problem_call(in_problem_state);
  check(problem_cc_denied == -1 && problem_code_denied == 2 && problem_cc_allowed == 0,
        "MVCP in the problem state: a key outside the PSW-key mask is exception 0002, key 0 moves");

  set_cr0(get_cr0() & ~CR0_SECONDARY_SPACE);
  cc = mvcs(TEST, (uint64_t)buffer, 8, 0);
  check(cc == -1 && last_program.code == 0x13,
        "MVCS without CR0's secondary-space control: special-operation exception 0013");
  check(sacf(1) == 1 && last_program.code == 0x13,
        "SACF 256 without CR0's secondary-space control: special-operation exception 0013");
  dat_off();
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu move-with-key and secondary-space test\n");
  build_tables();
  move_with_key();
  cross_space();
  print("%u failure(s)\n", failures);
  return (int)failures;
}
