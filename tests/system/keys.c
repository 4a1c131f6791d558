/* Storage keys [Principles of Operation, chapter 3, "Storage Key", "Key-Controlled
   Protection", "Fetch Protection", "Reference Recording", "Change Recording"; chapter 10,
   SSKE, ISKE, RRBE, IVSK, PFMF, TPROT]: a test block's key set and inserted, its
   reference and change bits, stores and loads under another PSW key (the protection
   exception and its TEID), the storage-protection override, SSKE's conditional and
   multiple-block forms, PFMF, IVSK through the DAT tests' identity map. Each block's key
   is 0 again at the end. */
#include "system.h"

enum {
  BLOCK = 0xc00000,      /* the test block (4 KB) */
  MB_BLOCKS = 0xdfe000,  /* the last two blocks of a 1 MB frame */
  LARGE = 0xe00000,      /* a 1 MB frame for PFMF */
  SEGMENT_TABLE = 0x800000, /* dat.c's, identity-mapping the first 16 MB */
};

#define KEY_TEID_FETCH 0x800ULL
#define KEY_TEID_STORE 0x400ULL
#define KEY_TEID_KEY 0x8ULL /* ESOP-2: bit 60, key-controlled protection */

/* keyed_load(a, key): the doubleword at a loaded under PSW key `key` (SPKA), ~0 when the
   load took a program interruption; keyed_store(a, v, key) likewise. The handler resumes
   after the access (resume_at), where the key goes back to 0. */
uint64_t keyed_load(uint64_t a, uint64_t key);
void keyed_store(uint64_t a, uint64_t v, uint64_t key);
extern char keyed_load_insn[], keyed_store_insn[];
__asm__(".text\n"
        ".globl keyed_load\n"
        "keyed_load:\n"
        "  larl %r4,resume_at\n"
        "  larl %r5,1f\n"
        "  stg %r5,0(%r4)\n"
        "  lgr %r1,%r2\n"
        "  lghi %r2,-1\n"
        "  sllg %r3,%r3,4\n"
        "  spka 0(%r3)\n"
        ".globl keyed_load_insn\n"
        "keyed_load_insn:\n"
        "  lg %r2,0(%r1)\n"
        "1: spka 0\n"
        "  mvghi 0(%r4),0\n"
        "  br %r14\n"
        ".globl keyed_store\n"
        "keyed_store:\n"
        "  larl %r5,resume_at\n"
        "  larl %r1,2f\n"
        "  stg %r1,0(%r5)\n"
        "  sllg %r4,%r4,4\n"
        "  spka 0(%r4)\n"
        ".globl keyed_store_insn\n"
        "keyed_store_insn:\n"
        "  stg %r3,0(%r2)\n"
        "2: spka 0\n"
        "  mvghi 0(%r5),0\n"
        "  br %r14\n");

/* keyed_load_after(a, b, key): the doubleword at b loaded under PSW key `key` right after
   one at a under the same key (so through the micro-TLB entry a's load left), ~0 when a
   load took a program interruption. */
uint64_t keyed_load_after(uint64_t a, uint64_t b, uint64_t key);
extern char keyed_load_after_insn[];
__asm__(".text\n"
        ".globl keyed_load_after\n"
        "keyed_load_after:\n"
        "  larl %r5,resume_at\n"
        "  larl %r0,1f\n"
        "  stg %r0,0(%r5)\n"
        "  lgr %r1,%r2\n"
        "  lghi %r2,-1\n"
        "  sllg %r4,%r4,4\n"
        "  spka 0(%r4)\n"
        "  lg %r0,0(%r1)\n"
        ".globl keyed_load_after_insn\n"
        "keyed_load_after_insn:\n"
        "  lg %r2,0(%r3)\n"
        "1: spka 0\n"
        "  mvghi 0(%r5),0\n"
        "  br %r14\n");

static void sske(uint64_t a, uint64_t key) { __asm__ volatile("sske %0,%1" : : "d"(key), "a"(a) : "memory"); }
static uint64_t sske_m3(uint64_t *a, uint64_t key, int mr_mc_mb) {
  switch (mr_mc_mb) {
    case 6: __asm__ volatile("sske %0,%1,6" : "+d"(key), "+a"(*a) : : "memory"); break;
    case 2: __asm__ volatile("sske %0,%1,2" : "+d"(key), "+a"(*a) : : "memory"); break;
    case 1: __asm__ volatile("sske %0,%1,1" : "+d"(key), "+a"(*a) : : "memory"); break;
  }
  return key;
}
static unsigned iske(uint64_t a) {
  uint64_t k = 0;
  __asm__ volatile("iske %0,%1" : "+d"(k) : "a"(a) : "memory");
  return (unsigned)(k & 0xff);
}
static int rrbe(uint64_t a) {
  int cc;
  __asm__ volatile("rrbe 0,%1\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a) : "cc", "memory");
  return cc;
}
static int tprot(uint64_t a, unsigned key) {
  int cc;
  __asm__ volatile("tprot 0(%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a), "a"((uint64_t)key << 4) : "cc");
  return cc;
}
static void pfmf(uint64_t controls, uint64_t a) {
  __asm__ volatile("pfmf %0,%1" : : "d"(controls), "a"(a) : "memory");
}
static void pfmf_frame(uint64_t controls, uint64_t *a) {
  uint64_t r2 = *a;
  __asm__ volatile("pfmf %1,%0" : "+a"(r2) : "d"(controls) : "memory");
  *a = r2;
}

static int protection(uint64_t teid, const char *insn, unsigned before) {
  const int ok = last_program.count == before + 1 && last_program.code == 4 && last_program.teid == teid &&
                 last_program.old_addr == (uint64_t)(uintptr_t)insn + 6;
  if (!ok)
    print("program interruption(s) %u, code %x, TEID %lx, old PSW %lx (want 4, %lx at %lx)\n",
          last_program.count - before, last_program.code, last_program.teid, last_program.old_addr, teid,
          (uint64_t)(uintptr_t)insn + 6);
  return ok;
}

void storage_key_tests(void) {
  volatile uint64_t *block = (volatile uint64_t *)(uintptr_t)BLOCK;

  sske(BLOCK, 0x3e);
  check(iske(BLOCK) == 0x3e, "SSKE and ISKE: the key set (ACC 3, F, R, C) is the key inserted");
  int cc = rrbe(BLOCK);
  check(cc == 3 && iske(BLOCK) == 0x3a, "RRBE: CC 3 for R and C one; R reset, C kept");

  sske(BLOCK, 0x30);
  (void)*block;
  const unsigned after_load = iske(BLOCK);
  *block = 1;
  check(after_load == 0x34 && iske(BLOCK) == 0x36, "reference and change recording: a load sets R, a store C");

  sske(BLOCK, 0x10);
  *block = 0x1111;
  unsigned before = last_program.count;
  keyed_store(BLOCK, 0x2222, 2);
  check(*block == 0x1111 && last_program.count == before + 1 && last_program.code == 4,
        "key-controlled protection: a store under another PSW key is exception 0004, nothing stored");
  check(protection(BLOCK | KEY_TEID_STORE | KEY_TEID_KEY, keyed_store_insn, before),
        "its TEID: the block, the store indication, key-controlled protection (ESOP-2)");
  before = last_program.count;
  keyed_store(BLOCK, 0x3333, 1);
  const uint64_t with_its_key = *block;
  const uint64_t loaded = keyed_load(BLOCK, 2);
  check(last_program.count == before && with_its_key == 0x3333 && loaded == 0x3333,
        "a store with the block's key; a load with another key from a block not fetch-protected");

  sske(BLOCK, 0x18);
  before = last_program.count;
  const uint64_t fetched = keyed_load(BLOCK, 2);
  check(fetched == ~0ULL && protection(BLOCK | KEY_TEID_FETCH | KEY_TEID_KEY, keyed_load_insn, before),
        "fetch protection: a load under another PSW key is exception 0004, with its TEID");
  before = last_program.count;
  check(keyed_load(BLOCK, 1) == 0x3333 && last_program.count == before, "fetch protection: the block's key loads");

  sske(BLOCK, 0x98);
  set_cr0(get_cr0() | 1ULL << (63 - 39));
  before = last_program.count;
  keyed_store(BLOCK, 0x4444, 2);
  set_cr0(get_cr0() & ~(1ULL << (63 - 39)));
  check(last_program.count == before && *block == 0x4444,
        "the storage-protection override (CR0 bit 39): any key stores into a block of key 9");

  /* The fetch-protection override [Principles of Operation, "Fetch-Protection
     Override"]: with CR0 bit 38 on, fetch protection does not apply to effective
     addresses 0-2047 (here with DAT off: the real page 0, this CPU's lowcore through its
     prefix), whatever the block's fetch-protection bit; 2048 on stays protected, and
     stores are not affected. */
  volatile uint64_t *low = (volatile uint64_t *)0x100;
  const uint64_t at_0x100 = *low, at_2040 = *(volatile uint64_t *)2040;
  sske(0, 0x18);
  before = last_program.count;
  const uint64_t without = keyed_load(0x100, 2);
  const int fetch_protected = without == ~0ULL &&
                              protection(0 | KEY_TEID_FETCH | KEY_TEID_KEY, keyed_load_insn, before);
  set_cr0(get_cr0() | 1ULL << (63 - 38));
  before = last_program.count;
  const uint64_t with = keyed_load(0x100, 2), with_last = keyed_load(2040, 2);
  const int overridden = last_program.count == before && with == at_0x100 && with_last == at_2040;
  const uint64_t beyond = keyed_load(2048, 2);
  const int beyond_protected = beyond == ~0ULL &&
                               protection(0 | KEY_TEID_FETCH | KEY_TEID_KEY, keyed_load_insn, before);
  const uint64_t beyond_after = keyed_load_after(0x100, 2048, 2);
  const int beyond_after_protected =
      beyond_after == ~0ULL && protection(0 | KEY_TEID_FETCH | KEY_TEID_KEY, keyed_load_after_insn, before + 1);
  const unsigned override_tprot = tprot(0x100, 2), beyond_tprot = tprot(2048, 2);
  before = last_program.count;
  keyed_store(0x7f0, 0x6666, 2);
  const int store_protected = last_program.count == before + 1 && last_program.code == 4;
  set_cr0(get_cr0() & ~(1ULL << (63 - 38)));
  const unsigned plain_tprot = tprot(0x100, 2);
  sske(0, 0);
  if (!(fetch_protected && overridden && beyond_protected && beyond_after_protected && store_protected))
    print("fetch-protection override: %d %d %d %d %d\n", fetch_protected, overridden, beyond_protected,
          beyond_after_protected, store_protected);
  check(fetch_protected, "fetch protection applies to locations 0-2047 with CR0 bit 38 off");
  check(overridden && beyond_protected && beyond_after_protected && store_protected,
        "the fetch-protection override (CR0 bit 38): loads from 0-2047 permitted, 2048 and stores not");
  if (!(override_tprot == 1 && beyond_tprot == 2 && plain_tprot == 2))
    print("TPROT under the override: %u %u %u\n", override_tprot, beyond_tprot, plain_tprot);
  check(override_tprot == 1 && beyond_tprot == 2 && plain_tprot == 2,
        "TPROT with the fetch-protection override: CC 1 below 2048, CC 2 from 2048 and without it");

  sske(BLOCK, 0x10);
  const int t0 = tprot(BLOCK, 1), t1 = tprot(BLOCK, 2);
  sske(BLOCK, 0x18);
  const int t2 = tprot(BLOCK, 2), t3 = tprot(BLOCK, 0);
  if (!(t0 == 0 && t1 == 1 && t2 == 2 && t3 == 0)) print("TPROT's CCs %d %d %d %d\n", t0, t1, t2, t3);
  check(t0 == 0 && t1 == 1 && t2 == 2 && t3 == 0, "TPROT reads the block's key: CC 0, 1 and 2");

  /* Conditional SSKE: MR and MC, the ACC and F the same: the key stays, the original in
     R1 bits 48-55. */
  sske(BLOCK, 0x36);
  uint64_t a = BLOCK;
  const uint64_t r1 = sske_m3(&a, 0x30, 6);
  check(iske(BLOCK) == 0x36 && r1 == 0x3630, "conditional SSKE (MR, MC): an equal ACC and F leave the key");
  a = BLOCK;
  sske_m3(&a, 0x40, 2);
  check(iske(BLOCK) == 0x42, "conditional SSKE (MC): a new key, the change bit kept");

  a = MB_BLOCKS;
  sske_m3(&a, 0x50, 1);
  check(iske(MB_BLOCKS - 0x1000) == 0 && iske(MB_BLOCKS) == 0x50 && iske(MB_BLOCKS + 0x1000) == 0x50 &&
            iske(MB_BLOCKS + 0x2000) == 0 && a == MB_BLOCKS + 0x2000,
        "SSKE's multiple-block control: the blocks up to the 1 MB boundary, R2 past them");

  *block = 0x5555;
  pfmf(0x30000 | 0x60, BLOCK); /* set key, clear frame, 4 KB, key 6 */
  const unsigned pfmf_key = iske(BLOCK); /* (before the load below sets R) */
  if (!(*block == 0 && pfmf_key == 0x60))
    print("PFMF: %lx, key %x, last program interruption %x\n", *block, pfmf_key, last_program.code);
  check(*block == 0 && pfmf_key == 0x60, "PFMF: a 4 KB frame cleared and its key set");
  a = LARGE;
  pfmf_frame(0x20000 | 0x1000 | 0x70, &a); /* set key, 1 MB, key 7 */
  check(iske(LARGE) == 0x70 && iske(LARGE + 0xff000) == 0x70 && a == LARGE + 0x100000,
        "PFMF: a 1 MB frame's keys, R2 past it");

  /* IVSK through dat.c's identity map (its tables are still there, CR1 designates them). */
  sske(BLOCK, 0x5e);
  uint64_t ivsk = 0xff;
  uint8_t old;
  __asm__ volatile("stosm %0,0x04" : "=Q"(old) : : "memory");
  __asm__ volatile("ivsk %0,%1" : "+d"(ivsk) : "a"((uint64_t)BLOCK));
  __asm__ volatile("stnsm %0,0xfb" : "=Q"(old) : : "memory");
  if (ivsk != 0x58) print("IVSK gave %lx\n", ivsk);
  check(ivsk == 0x58, "IVSK: the ACC and F of the block a virtual address translates to");

  sske(BLOCK, 0);
  for (uint64_t k = MB_BLOCKS; k < MB_BLOCKS + 0x2000; k += 0x1000) sske(k, 0);
  a = LARGE;
  pfmf_frame(0x20000 | 0x1000, &a);
}
