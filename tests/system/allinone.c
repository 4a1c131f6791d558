/* tpfemu ipl's multi-I-stream test kernel (issue 46): I-stream 0 builds DAT tables in
   its own storage (the first 16 MB identity-mapped; a segment at 1 GB whose page k maps
   I-stream k's buffer frame), starts every other I-stream with SIGP (set prefix to an
   8 KB area of its own, then restart), and each of them turns DAT on, takes a
   clock-comparator interruption from an enabled wait, fills its buffer through the 1 GB
   segment, and writes it (one at a time, under a lock) to the 3390 with SSCH (record
   k+1 of track 0) and to Flash Express with an EADM AOB (the 4 KB block k), testing the
   subchannel with TSCH until it is status pending. I-stream 0 then reads every record and
   block back (its own I/O interruptions ending enabled waits) and checks them. The
   console (SCLP) says what happened, in the same words on any number of I-streams up to
   four; without the devices (QEMU) the I/O is skipped with a line that says so.
   [Principles of Operation: "Signal-Processor Orders", "Clock Comparator", "Dynamic
   Address Translation", chapters 14-16.] */
#include "channel.h"
#include "system.h"

enum {
  MAX_CPUS = 4,
  SEGMENTS = 0x800000,      /* 2048 entries, TL 3 */
  IDENTITY_PAGES = 0x810000, /* 16 page tables of 2 KB */
  BUFFER_PAGES = 0x818000,  /* the 1 GB segment's */
  PREFIXES = 0x880000,      /* I-stream k's 8 KB prefix area at PREFIXES + k * 0x2000 */
  BUFFERS = 0x900000,       /* I-stream k's 4 KB buffer frame at BUFFERS + k * 0x1000 */
  READ_BACK = 0x910000,
  AOBS = 0x920000,          /* I-stream k's AOB at AOBS + k * 0x1000 */
  BUFFER_SEGMENT = 0x40000000,
};

#define STE_INVALID 0x20ULL
#define PTE_INVALID 0x400ULL
#define BYTES(a) ((volatile uint8_t *)(uintptr_t)(a))
#define SID_3390 0x00010000u
#define SID_EADM 0x00010001u

static void build_tables(void) {
  for (unsigned k = 0; k < 2048; ++k) TABLE(SEGMENTS)[k] = STE_INVALID;
  map_first_16mb(IDENTITY_PAGES, SEGMENTS, 0);
  for (unsigned p = 0; p < 256; ++p) TABLE(BUFFER_PAGES)[p] = p < MAX_CPUS ? BUFFERS + p * 0x1000 : PTE_INVALID;
  TABLE(SEGMENTS)[1024] = BUFFER_PAGES;
}

static uint64_t stck(void) {
  uint64_t t;
  __asm__ volatile("stck %0" : "=Q"(t) : : "cc");
  return t;
}
static int signal_processor(unsigned cpu, unsigned order, uint64_t parameter) {
  register uint64_t r1 __asm__("1") = parameter;
  int cc;
  __asm__ volatile("sigp %1,%2,0(%3)\n\tipm %0\n\tsrl %0,28" : "=d"(cc), "+d"(r1) : "d"((uint64_t)cpu), "a"((uint64_t)order)
                   : "cc", "memory");
  return cc;
}

/* --- The channel subsystem (its control blocks: channel.h) -------------------------- */

IO_SID(stsch)
IO_SID(msch)
IO_SID(ssch)
IO_SID(tsch)

static uint32_t addr(const volatile void *p) { return (uint32_t)(uintptr_t)p; }

/* One I/O at a time: a lock taken with COMPARE AND SWAP. */
static volatile uint32_t io_lock;
static void lock(void) {
  for (;;) {
    uint32_t old = 0;
    __asm__ volatile("cs %0,%2,%1" : "+d"(old), "+Q"(io_lock) : "d"(1) : "cc", "memory");
    if (old == 0) return;
  }
}
static void unlock(void) {
  __asm__ volatile("" : : : "memory");
  io_lock = 0;
}

/* Each I-stream's channel program: DEFINE EXTENT, LOCATE RECORD, then WRITE DATA or
   READ DATA of record r (4 KB) on cylinder 0 head 0. */
struct chain {
  struct ccw ccw[3];
  uint8_t de[16], lr[16];
  struct orb orb;
  struct irb irb;
} __attribute__((aligned(8)));
static struct chain chains[MAX_CPUS];

static void build_chain(struct chain *c, int write, uint8_t record, volatile void *data) {
  memset(c, 0, sizeof *c);
  c->de[0] = write ? 0xc0 : 0x00; /* the file mask: writes allowed (css.c's) or not */
  c->de[15] = 14;
  c->lr[0] = write ? 0x01 : 0x06, c->lr[3] = 1, c->lr[12] = record;
  c->ccw[0] = (struct ccw){0x63, 0x40, 16, addr(c->de)};
  c->ccw[1] = (struct ccw){0x47, 0x40, 16, addr(c->lr)};
  c->ccw[2] = (struct ccw){write ? 0x05 : 0x06, 0, 4096, addr(data)};
  c->orb.intparm = record;
  c->orb.ctrl = 0x0080ff00u; /* format 1, LPM ff */
  c->orb.cpa = addr(c->ccw);
}

/* An EADM AOB (as css.c's): the request block (a move of one MSB), then the MSB: a
   4 KB block at `scm` from or to `data`. */
static void build_aob(volatile uint8_t *aob, int write, uint64_t scm, volatile void *data) {
  for (unsigned k = 0; k < 4096; ++k) aob[k] = 0;
  aob[11] = 1, aob[15] = 1;
  volatile uint8_t *msb = aob + 128;
  msb[0] = write ? 2 : 1, msb[3] = 0, msb[7] = 1; /* operation, 4 KB, one block */
  *(volatile uint64_t *)(msb + 8) = (uint64_t)(uintptr_t)data;
  *(volatile uint64_t *)(msb + 16) = scm;
}

/* Starts `sid` with the ORB and tests it until it is status pending (I/O interruptions
   stay disabled here): TSCH's CC and the IRB. */
static int start_and_test(uint32_t sid, struct orb *orb, struct irb *irb) {
  if (ssch(sid, orb) != 0) return -1;
  int cc;
  while ((cc = tsch(sid, irb)) == 1) {
  }
  return cc;
}

/* --- The other I-streams ------------------------------------------------------------ */

static volatile unsigned started, ticks[MAX_CPUS], done[MAX_CPUS], wrote[MAX_CPUS];
static unsigned cpus = 1;
static int with_devices;
static uint64_t asce;

/* The secondary I-streams' entry (the restart new PSW of each prefix area): a stack of
   its own (STAP: the CPU address), then cpu_main(address). Their external interruptions
   (the clock comparator) are taken by cpu_external: count the tick in the lowcore's
   0x380 (per I-stream), the comparator off again, the wait it ended left. */
void cpu_main(unsigned cpu);
extern char cpu_entry[], cpu_external[];
uint8_t cpu_stacks[MAX_CPUS][16384] __attribute__((aligned(16)));
__asm__(".globl cpu_entry\n"
        "cpu_entry:\n"
        "\tstap 0x384\n"
        "\tllgh %r2,0x384\n"
        "\tlgr %r3,%r2\n"
        "\tsllg %r3,%r3,14\n"
        "\tlarl %r15,cpu_stacks\n"
        "\tagr %r15,%r3\n"
        "\taghi %r15,16384-160\n"
        "\tbrasl %r14,cpu_main\n"
        "\tlarl %r1,cpu_stopped_psw\n"
        "\tlpswe 0(%r1)\n"
        ".globl cpu_external\n"
        "cpu_external:\n"
        "\tasi 0x380,1\n"
        "\tstg %r1,0x388\n"
        "\tlarl %r1,cpu_never\n"
        "\tsckc 0(%r1)\n"
        "\tlg %r1,0x388\n"
        "\tni 0x131,0xfd\n"
        "\tlpswe 0x130\n"
        "\t.section .data\n"
        "\t.balign 8\n"
        "cpu_stopped_psw:\t.quad 0x0002000180000000, 0x77\n"
        "cpu_never:\t.quad 0xffffffffffffffff\n"
        "\t.previous\n");

void cpu_main(unsigned cpu) {
  __sync_fetch_and_add(&started, 1);
  /* The comparator first (I-stream 0 runs enabled for external interruptions: the
     reset's comparator, 0, would interrupt at once), then CR0's clock-comparator
     subclass (bit 52), CR1 the kernel's tables, DAT on. */
  uint64_t when = stck() + ((uint64_t)(100 * cpu + 100) << 12); /* 100 us more per CPU address */
  __asm__ volatile("sckc %0" : : "Q"(when));
  uint64_t cr0;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(cr0));
  cr0 |= 1ULL << (63 - 52);
  __asm__ volatile("lctlg 0,0,%0\n\tlctlg 1,1,%1" : : "Q"(cr0), "Q"(asce) : "memory");
  uint8_t old;
  __asm__ volatile("stosm %0,0x04" : "=Q"(old) : : "memory");
  /* The clock-comparator interruption, from an enabled wait. */
  static const uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0502000180000000ULL, 0};
  while (LC32(0x380) == 0)
    __asm__ volatile("larl %%r1,1f\n\tstg %%r1,8(%0)\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  ticks[cpu] = LC32(0x380);
  /* Its buffer through DAT: page `cpu` of the 1 GB segment. */
  volatile uint8_t *buffer = (volatile uint8_t *)(uintptr_t)(BUFFER_SEGMENT + cpu * 0x1000);
  for (unsigned k = 0; k < 4096; ++k) buffer[k] = (uint8_t)(cpu * 37 + k);
  if (with_devices) {
    lock();
    build_chain(&chains[cpu], 1, (uint8_t)(cpu + 1), (volatile void *)(uintptr_t)(BUFFERS + cpu * 0x1000));
    int cc = start_and_test(SID_3390, &chains[cpu].orb, &chains[cpu].irb);
    int ok = cc == 0 && chains[cpu].irb.scsw.dstat == 0x0c;
    volatile uint8_t *aob = (volatile uint8_t *)(uintptr_t)(AOBS + cpu * 0x1000);
    build_aob(aob, 1, (uint64_t)cpu << 12, (volatile void *)(uintptr_t)(BUFFERS + cpu * 0x1000));
    struct orb orb = {0, 0x0080ff00u, addr(aob), {0}};
    struct irb irb;
    cc = start_and_test(SID_EADM, &orb, &irb);
    ok &= cc == 0 && irb.scsw.dstat == 0x0c;
    wrote[cpu] = ok;
    unlock();
  }
  done[cpu] = 1;
  if (cpu) signal_processor(cpu, 0x05, 0); /* SIGP stop, itself: the run ends when I-stream 0 is done */
}

/* Starts I-stream `cpu`: its prefix area gets the new PSWs, the restart new PSW its
   entry; SIGP set prefix, then restart. */
static int start_cpu(unsigned cpu) {
  volatile uint8_t *area = (volatile uint8_t *)(uintptr_t)(PREFIXES + cpu * 0x2000);
  for (unsigned k = 0; k < 0x2000; ++k) area[k] = 0;
  for (unsigned k = 0x1a0; k < 0x200; ++k) area[k] = BYTES(k)[0]; /* I-stream 0's new PSWs */
  *(volatile uint64_t *)(area + 0x1a0) = PSW_MASK_64;
  *(volatile uint64_t *)(area + 0x1a8) = (uint64_t)(uintptr_t)cpu_entry;
  *(volatile uint64_t *)(area + 0x1b0) = PSW_MASK_64;
  *(volatile uint64_t *)(area + 0x1b8) = (uint64_t)(uintptr_t)cpu_external;
  *(volatile uint64_t *)(area + 0x1d0) = 0x0002000180000000ULL; /* a program check: wait 0x66 */
  *(volatile uint64_t *)(area + 0x1d8) = 0x66;
  if (signal_processor(cpu, 0x0d, PREFIXES + cpu * 0x2000) != 0) return 0;
  return signal_processor(cpu, 0x06, 0) == 0;
}

static void wait_io(unsigned before) {
  static const uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0302000180000000ULL, 0};
  while (last_io.count == before)
    __asm__ volatile("larl %%r1,1f\n\tstg %%r1,8(%0)\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  uint8_t old;
  __asm__ volatile("stnsm %0,0xfd" : "=Q"(old) : : "memory");
}

/* I-stream 0 reads back what I-stream `cpu` wrote: the 3390 record and the SCM block,
   each ending with an I/O interruption. */
static int read_back(unsigned cpu) {
  struct chain *c = &chains[0];
  volatile uint8_t *data = (volatile uint8_t *)(uintptr_t)READ_BACK;
  int same = 1;
  for (unsigned k = 0; k < 4096; ++k) data[k] = 0;
  build_chain(c, 0, (uint8_t)(cpu + 1), data);
  unsigned before = last_io.count;
  if (ssch(SID_3390, &c->orb) != 0) return 0;
  wait_io(before);
  int ok = tsch(SID_3390, &c->irb) == 0 && c->irb.scsw.dstat == 0x0c;
  for (unsigned k = 0; k < 4096; ++k) same &= data[k] == (uint8_t)(cpu * 37 + k);
  for (unsigned k = 0; k < 4096; ++k) data[k] = 0;
  volatile uint8_t *aob = (volatile uint8_t *)(uintptr_t)AOBS;
  build_aob(aob, 0, (uint64_t)cpu << 12, data);
  struct orb orb = {0, 0x0080ff00u, addr(aob), {0}};
  struct irb irb;
  before = last_io.count;
  if (ssch(SID_EADM, &orb) != 0) return 0;
  wait_io(before);
  ok &= tsch(SID_EADM, &irb) == 0 && irb.scsw.dstat == 0x0c;
  for (unsigned k = 0; k < 4096; ++k) same &= data[k] == (uint8_t)(cpu * 37 + k);
  return ok && same;
}

/* The 3390 (a valid device) on subchannel 0 and an EADM subchannel (type 3) on 1, both
   enabled for I/O-interruption subclass 3. */
static int find_devices(void) {
  struct schib schib;
  if (stsch(SID_3390, &schib) != 0 || !(schib.flags & 0x01) || (schib.word6 >> 21 & 7) != 0) return 0;
  schib.isc = 3 << 3, schib.flags |= 0x80;
  if (msch(SID_3390, &schib) != 0) return 0;
  if (stsch(SID_EADM, &schib) != 0 || (schib.word6 >> 21 & 7) != 3) return 0;
  schib.isc = 3 << 3, schib.flags |= 0x80;
  if (msch(SID_EADM, &schib) != 0) return 0;
  uint64_t cr6 = 1ULL << (63 - 35);
  __asm__ volatile("lctlg 6,6,%0" : : "Q"(cr6));
  return 1;
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu all-in-one multi-I-stream test kernel\n");
  build_tables();
  asce = SEGMENTS | 0x3;
  __asm__ volatile("lctlg 1,1,%0" : : "Q"(asce) : "memory");
  with_devices = find_devices();
  if (!with_devices) print("SKIP: no 3390 on subchannel 0 and EADM subchannel on 1 (tpfemu ipl --dasd FILE --scm)\n");
  while (cpus < MAX_CPUS && signal_processor(cpus, 0x01, 0) != 3) ++cpus; /* SIGP sense: CC 3 past the last */
  int all_started = 1;
  for (unsigned k = 1; k < cpus; ++k) all_started &= start_cpu(k);
  check(all_started, "SIGP set prefix and restart: every other I-stream started");
  /* I-stream 0 does its share too, its clock-comparator interruption counted by
     cpu_external in its lowcore's 0x380 as the others'. */
  uint64_t external_new[2] = {LC64(LC_EXT_NEW_PSW), LC64(LC_EXT_NEW_PSW + 8)};
  LC64(LC_EXT_NEW_PSW + 8) = (uint64_t)(uintptr_t)cpu_external;
  cpu_main(0);
  LC64(LC_EXT_NEW_PSW) = external_new[0], LC64(LC_EXT_NEW_PSW + 8) = external_new[1];
  for (unsigned k = 1; k < cpus; ++k)
    while (!done[k]) {
    }
  int ticked = 1;
  for (unsigned k = 0; k < cpus; ++k) ticked &= ticks[k] == 1;
  check(started == cpus && ticked,
        "each I-stream took one clock-comparator interruption from an enabled wait, with DAT on");
  if (with_devices) {
    int wrote_all = 1, read_all = 1;
    for (unsigned k = 0; k < cpus; ++k) wrote_all &= wrote[k];
    check(wrote_all, "each I-stream wrote its buffer (filled through DAT) to the 3390 with SSCH and to SCM with EADM");
    for (unsigned k = 0; k < cpus; ++k) read_all &= read_back(k);
    check(read_all, "I-stream 0 read every record and block back, I/O interruptions ending its waits: the same bytes");
  }
  print("%u failure(s)\n", failures);
  return (int)failures;
}
