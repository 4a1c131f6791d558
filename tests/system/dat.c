/* DAT through the kernel's own tables [Principles of Operation, chapter 3, "Dynamic
   Address Translation"]: a segment table identity-maps the first 16 MB (the kernel runs
   on with DAT on), 1 GB up a test segment maps pages elsewhere, and the checks read and
   write through it: translation, the translation exceptions with their TEIDs and
   nullification, IPTE's purge, DAT protection, LRAG, TPROT, EDAT-1 and -2 frames, a
   region-third table, home-space mode through SACF, PTLB, LURA/STURA and CSPG. The
   interruption handlers run with DAT off (their new PSWs) and return to it. */
#include "system.h"

enum {
  SEGMENT_TABLE = 0x800000,      /* 2048 entries: TL 3, 16 KB */
  PAGE_TABLES = 0x810000,        /* 16 page tables of 2 KB for the identity map */
  TEST_PAGE_TABLE = 0x818000,    /* the test segment's */
  HOME_PAGE_TABLE = 0x818800,    /* the home space's test segment */
  REGION_THIRD_TABLE = 0x820000, /* 2048 entries, 16 KB */
  HOME_SEGMENT_TABLE = 0x840000,
  FRAMES = 0x900000,             /* the test pages' frames */
  LARGE_FRAME = 0xa00000,        /* a 1 MB frame */
  TEST = 0x40000000,             /* the test segment (index 1024) */
};

#define STE_INVALID 0x20ULL
#define PTE_INVALID 0x400ULL
#define PROTECT 0x200ULL
#define FC 0x400ULL
#define FETCH 0x800ULL /* the TEID's fetch indication (bits 52-53 10) */
#define STORE 0x400ULL /* and its store indication (01) */

static void set_cr(int r, uint64_t v) {
  switch (r) {
    case 0: __asm__ volatile("lctlg 0,0,%0" : : "Q"(v)); break;
    case 1: __asm__ volatile("lctlg 1,1,%0" : : "Q"(v)); break;
    case 13: __asm__ volatile("lctlg 13,13,%0" : : "Q"(v)); break;
  }
}

static void build_tables(void) {
  for (unsigned k = 0; k < 2048; ++k) TABLE(SEGMENT_TABLE)[k] = STE_INVALID;
  for (unsigned s = 0; s < 16; ++s) {
    for (unsigned p = 0; p < 256; ++p)
      TABLE(PAGE_TABLES + s * 2048)[p] = ((uint64_t)s << 20) + ((uint64_t)p << 12);
    TABLE(SEGMENT_TABLE)[s] = PAGE_TABLES + s * 2048;
  }
  for (unsigned p = 0; p < 256; ++p) TABLE(TEST_PAGE_TABLE)[p] = PTE_INVALID;
  TABLE(TEST_PAGE_TABLE)[0] = FRAMES;
  TABLE(TEST_PAGE_TABLE)[2] = FRAMES + 0x2000;
  TABLE(TEST_PAGE_TABLE)[3] = (FRAMES + 0x3000) | PROTECT;
  TABLE(SEGMENT_TABLE)[1024] = TEST_PAGE_TABLE;
  TABLE(SEGMENT_TABLE)[1026] = LARGE_FRAME | FC; /* EDAT-1: only with CR0 bit 40 */
  /* The home space: the same but for its test segment, whose page 0 is another frame. */
  for (unsigned k = 0; k < 2048; ++k) TABLE(HOME_SEGMENT_TABLE)[k] = TABLE(SEGMENT_TABLE)[k];
  for (unsigned p = 0; p < 256; ++p) TABLE(HOME_PAGE_TABLE)[p] = PTE_INVALID;
  TABLE(HOME_PAGE_TABLE)[0] = FRAMES + 0x4000;
  TABLE(HOME_SEGMENT_TABLE)[1024] = HOME_PAGE_TABLE;
  /* A region-third table: entry 0 the segment table (TT 01, TL 3), entry 2 an EDAT-2
     2 GB frame at 0, the others invalid. */
  for (unsigned k = 0; k < 2048; ++k) TABLE(REGION_THIRD_TABLE)[k] = STE_INVALID | 0x4;
  TABLE(REGION_THIRD_TABLE)[0] = SEGMENT_TABLE | 0x4 | 0x3;
  TABLE(REGION_THIRD_TABLE)[2] = 0x0 | FC | 0x4;
  for (unsigned k = 0; k < 0x5000 / 8; ++k) TABLE(FRAMES)[k] = FRAMES + k * 8;
  for (unsigned k = 0; k < 16; ++k) TABLE(LARGE_FRAME + 0x1000)[k] = 0x1a2b3c4d00000000ULL + k;
  /* A doubleword in each of the 1 MB frame's first 16 pages but page 1 (its 16 above). */
  for (unsigned p = 0; p < 16; ++p)
    if (p != 1) TABLE(LARGE_FRAME + p * 0x1000 + 0x800)[0] = 0x5a5a000000000000ULL + p;
}

static int lrag(uint64_t a, uint64_t *out) {
  uint64_t r = 0;
  int cc;
  __asm__ volatile("lrag %1,0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc), "=d"(r) : "a"(a) : "cc");
  *out = r;
  return cc;
}

static int tprot(uint64_t a, unsigned key) {
  int cc;
  __asm__ volatile("tprot 0(%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a), "a"((uint64_t)key << 4) : "cc");
  return cc;
}

static int exception(unsigned code, uint64_t teid, const char *insn, unsigned before) {
  if (!(last_program.count == before + 1 && last_program.code == code && last_program.teid == teid &&
        last_program.old_addr == (uint64_t)(uintptr_t)insn))
    print("program interruption(s) %u, code %x, TEID %lx, old PSW %lx (want %x, %lx at %lx)\n",
          last_program.count - before, last_program.code, last_program.teid, last_program.old_addr, code, teid,
          (uint64_t)(uintptr_t)insn);
  return last_program.count == before + 1 && last_program.code == code && last_program.teid == teid &&
         last_program.old_addr == (uint64_t)(uintptr_t)insn;
}

/* MOVE PAGE through DAT (R4 to, R5 from): its CC, or 3 when it took a program
   interruption (the handler resumes after it: a page-translation exception nullifies). */
static int move_page_dat(uint64_t r0, uint64_t to, uint64_t from) {
  register uint64_t gr0 __asm__("0") = r0;
  register uint64_t gr4 __asm__("4") = to;
  register uint64_t gr5 __asm__("5") = from;
  int cc = 3;
  __asm__ volatile("larl 1,1f\n\tstgrl 1,resume_at\n\tmvpg 4,5\n\tipm %0\n\tsrl %0,28\n1:"
                   : "+d"(cc) : "d"(gr0), "d"(gr4), "d"(gr5) : "1", "cc", "memory");
  resume_at = 0;
  return cc;
}

void dat_tests(void) {
  build_tables();
  set_cr(1, SEGMENT_TABLE | 0x3); /* a segment-table designation, TL 3 */
  dat_on();
  uint64_t first = probe_load(TEST), pattern_written = 0;
  probe_store(TEST + 8, 0x5555aaaa5555aaaaULL);
  dat_off();
  pattern_written = TABLE(FRAMES)[1];
  check(first == FRAMES && pattern_written == 0x5555aaaa5555aaaaULL,
        "DAT: the kernel runs identity-mapped; a load and a store through a page of the test segment");

  /* The exception-access identification (real 160) of each exception below that stores a
     TEID: 0xFF before it, what the interruption stored after [Principles of Operation,
     "Exception-Access Identification": the access register's number in the access-
     register mode; tpfemu, in the primary-space mode, zero]. */
  int access_id_zero = 1;
  unsigned before = last_program.count;
  LC8(0xa0) = 0xff;
  dat_on();
  uint64_t v = probe_load(TEST + 0x1000);
  dat_off();
  access_id_zero &= LC8(0xa0) == 0;
  check(v == ~0ULL && exception(0x11, TEST + 0x1000 + FETCH, probe_load_insn, before),
        "page-translation exception 0011: TEID, the instruction nullified");
  before = last_program.count;
  dat_on();
  probe_store(TEST + 0x1000, 1);
  dat_off();
  check(exception(0x11, TEST + 0x1000 + STORE, probe_store_insn, before),
        "a store's page-translation exception: the TEID's store indication");

  /* MOVE PAGE to the invalid page: the exception, with the operand-access identification
     (R1 and R2, 0x45) at 0xA2; with the condition-code option, CC 1 (the first operand)
     or 2 (the second) instead. */
  before = last_program.count;
  LC8(0xa2) = 0;
  dat_on();
  const int cc_exception = move_page_dat(0, TEST + 0x1000, TEST);
  dat_off();
  check(cc_exception == 3 && last_program.count == before + 1 && last_program.code == 0x11 && LC8(0xa2) == 0x45,
        "MVPG to a page DAT cannot translate: exception 0011, the operand-access identification at 0xA2");
  dat_on();
  const int cc_to = move_page_dat(0x100, TEST + 0x1000, TEST), cc_from = move_page_dat(0x100, TEST, TEST + 0x1000);
  dat_off();
  check(cc_to == 1 && cc_from == 2 && last_program.count == before + 1,
        "MVPG's condition-code option: CC 1 for the first operand's page, CC 2 for the second's");

  before = last_program.count;
  LC8(0xa0) = 0xff;
  dat_on();
  probe_load(TEST + 0x100000);
  dat_off();
  access_id_zero &= LC8(0xa0) == 0;
  check(exception(0x10, TEST + 0x100000 + FETCH, probe_load_insn, before), "segment-translation exception 0010 with its TEID");

  before = last_program.count;
  LC8(0xa0) = 0xff;
  dat_on();
  probe_load(0x80000000ULL);
  dat_off();
  access_id_zero &= LC8(0xa0) == 0;
  check(exception(0x38, 0x80000000ULL + FETCH, probe_load_insn, before),
        "ASCE-type exception 0038: an address past a segment table's 2 GB");

  /* IPTE: page 2 translates, then its entry is invalidated, and the TLB with it. */
  dat_on();
  uint64_t before_ipte = probe_load(TEST + 0x2000);
  __asm__ volatile("ipte %0,%1" : : "a"((uint64_t)TEST_PAGE_TABLE), "a"((uint64_t)TEST + 0x2000) : "memory");
  before = last_program.count;
  uint64_t after_ipte = probe_load(TEST + 0x2000);
  dat_off();
  check(before_ipte == FRAMES + 0x2000 && after_ipte == ~0ULL && (TABLE(TEST_PAGE_TABLE)[2] & PTE_INVALID) &&
            exception(0x11, TEST + 0x2000 + FETCH, probe_load_insn, before),
        "IPTE sets the invalid bit and purges the TLB: the next reference is a page-translation exception");

  before = last_program.count;
  dat_on();
  uint64_t readable = probe_load(TEST + 0x3000);
  LC8(0xa0) = 0xff;
  probe_store(TEST + 0x3000, 1);
  dat_off();
  access_id_zero &= LC8(0xa0) == 0;
  check(readable == FRAMES + 0x3000 && last_program.count == before + 1 && last_program.code == 0x04 &&
            TABLE(FRAMES + 0x3000)[0] == FRAMES + 0x3000,
        "DAT protection: a load passes, a store is a protection exception 0004");
  check(last_program.teid == ((TEST + 0x3000) | STORE | 0x4),
        "DAT protection's TEID: the page, the store indication, DAT protection (ESOP-2: bit 61)");
  check(access_id_zero,
        "the exception-access identification at 0xA0: 0 for page, segment, ASCE-type and DAT protection in the primary-space mode");

  uint64_t r0, r1, r2, r3;
  dat_on(); /* (LRAG translates with DAT off too; QEMU's gives the address back then) */
  int cc0 = lrag(TEST + 0x10, &r0), cc1 = lrag(TEST + 0x100000, &r1), cc2 = lrag(TEST + 0x1000, &r2),
      cc3 = lrag(0x80000000ULL, &r3);
  dat_off();
  if (!(cc0 == 0 && r0 == FRAMES + 0x10 && cc3 == 3 && (uint32_t)r3 == 0x80000038u && cc1 == 1 &&
        r1 == SEGMENT_TABLE + 1025 * 8 && cc2 == 2 && r2 == TEST_PAGE_TABLE + 8))
    print("LRAG: %d %lx, %d %lx, %d %lx, %d %lx\n", cc0, r0, cc1, r1, cc2, r2, cc3, r3);
  check(cc0 == 0 && r0 == FRAMES + 0x10 && cc3 == 3 && (uint32_t)r3 == 0x80000038u,
        "LRAG: CC 0 and the real address; CC 3 and the code of an ASCE-type exception");
  check(cc1 == 1 && r1 == SEGMENT_TABLE + 1025 * 8 && cc2 == 2 && r2 == TEST_PAGE_TABLE + 8,
        "LRAG: CC 1 an invalid segment-table entry, CC 2 an invalid page-table entry, R1 the entry's address");

  dat_on();
  int t0 = tprot(TEST, 0), t1 = tprot(TEST + 0x3000, 0), t3 = tprot(TEST + 0x1000, 0);
  dat_off();
  check(t0 == 0 && t1 == 1 && t3 == 3, "TPROT: CC 0 writable, 1 DAT-protected, 3 no translation");

  /* EDAT-1: the segment entry with FC designates a 1 MB frame. Loads from 16 of its
     pages: tpfemu holds it as one entry of the modelled 1 MB TLB (ipl_test.py checks
     the 1 MB TLB's hits). */
  set_cr(0, get_cr0() | 1ULL << (63 - 40));
  dat_on();
  uint64_t large = probe_load(TEST + 0x200000 + 0x1008);
  int pages_ok = 1;
  for (unsigned p = 0; p < 16; ++p)
    if (p != 1) pages_ok &= probe_load(TEST + 0x200000 + p * 0x1000 + 0x800) == 0x5a5a000000000000ULL + p;
  dat_off();
  if (large != 0x1a2b3c4d00000001ULL || !pages_ok) print("EDAT-1: %lx %d\n", large, pages_ok);
  check(large == 0x1a2b3c4d00000001ULL && pages_ok, "EDAT-1 (CR0 bit 40): a segment-table entry's 1 MB frame");

  /* A region-third table over the segment table; its entry 2 an EDAT-2 2 GB frame at 0. */
  set_cr(1, REGION_THIRD_TABLE | 0x4 | 0x3);
  before = last_program.count;
  dat_on();
  uint64_t through_region = probe_load(TEST + 8);
  uint64_t huge = probe_load(0x100000000ULL + FRAMES + 0x10);
  probe_load(0x80000000ULL);
  dat_off();
  if (!(through_region == 0x5555aaaa5555aaaaULL && huge == FRAMES + 0x10))
    print("region-third: %lx %lx\n", through_region, huge);
  check(through_region == 0x5555aaaa5555aaaaULL && exception(0x3b, 0x80000000ULL + FETCH, probe_load_insn, before),
        "a region-third table: translation through it, region-third-translation exception 003B");
  check(huge == FRAMES + 0x10, "EDAT-2: a region-third-table entry's 2 GB frame");
  set_cr(0, get_cr0() & ~(1ULL << (63 - 40)));
  set_cr(1, SEGMENT_TABLE | 0x3);

  /* Home-space mode (SACF 0x300): CR13's tables; the TEID names the home space (3). */
  set_cr(13, HOME_SEGMENT_TABLE | 0x3);
  before = last_program.count;
  dat_on();
  __asm__ volatile("sacf 0x300" ::: "memory");
  uint64_t home = probe_load(TEST);
  probe_load(TEST + 0x1000);
  __asm__ volatile("sacf 0" ::: "memory");
  uint64_t primary = probe_load(TEST);
  dat_off();
  check(home == FRAMES + 0x4000 && primary == FRAMES && exception(0x11, TEST + 0x1000 + FETCH + 3, probe_load_insn, before),
        "SACF to home-space mode translates through CR13, its TEID names the home space");

  /* PTLB: an entry changed in storage takes effect after the purge. */
  dat_on();
  probe_load(TEST);
  TABLE(TEST_PAGE_TABLE)[0] = FRAMES + 0x4000;
  __asm__ volatile("ptlb" ::: "memory");
  uint64_t moved = probe_load(TEST);
  dat_off();
  TABLE(TEST_PAGE_TABLE)[0] = FRAMES;
  __asm__ volatile("ptlb" ::: "memory");
  check(moved == FRAMES + 0x4000, "PTLB: a page-table entry changed in storage is used after the purge");

  /* CSPG with the purge bit: swaps the page-table entry and purges every TLB. */
  dat_on();
  probe_load(TEST);
  uint64_t old = FRAMES, replacement = FRAMES + 0x2000;
  register uint64_t even __asm__("r2") = old;
  register uint64_t odd __asm__("r3") = replacement;
  int cc;
  __asm__ volatile("cspg %1,%3\n\tipm %0\n\tsrl %0,28"
                   : "=d"(cc), "+d"(even) : "d"(odd), "a"((uint64_t)TEST_PAGE_TABLE | 1) : "cc", "memory");
  uint64_t swapped = probe_load(TEST);
  dat_off();
  TABLE(TEST_PAGE_TABLE)[0] = FRAMES;
  __asm__ volatile("ptlb" ::: "memory");
  check(cc == 0 && swapped == FRAMES + 0x2000, "CSPG: the entry swapped, CC 0, the TLBs purged");

  /* LURA/STURA: real storage, whatever DAT's mode. */
  dat_on();
  uint32_t word = 0xfeedf00d, back = 0;
  __asm__ volatile("stura %1,%2\n\tlura %0,%2" : "=&d"(back) : "d"(word), "a"((uint64_t)FRAMES + 0x100) : "memory");
  uint64_t through_dat = probe_load(TEST + 0x100);
  dat_off();
  check(back == 0xfeedf00d && (through_dat >> 32) == 0xfeedf00d, "STURA/LURA: real storage with DAT on");
}
