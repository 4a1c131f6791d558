/* tpfemu ipl's channel-subsystem test kernel (run with --dasd VOLUME, ipl_test.py makes
   the volume): STSCH enumerates the subchannels, MSCH enables one, SSCH runs ECKD channel
   programs on the 3390 behind it (DEFINE EXTENT, LOCATE RECORD, WRITE and READ DATA with
   data and command chaining and a TIC, READ COUNT, WRITE and READ COUNT KEY DATA, SENSE
   ID, NOP), the I/O interruption ends an enabled wait, TPI and TSCH take the status,
   SENSE says why a bad command and a missing record ended in unit check, CSCH, HSCH,
   RSCH and STCRW, and the program-interruption conditions of a bad subsystem-
   identification word and a misaligned operand; then, on the EADM subchannel (--scm),
   an AOB writing and reading a 4 KB and a 1 MB block of Flash Express; then, on the
   virtio-net-ccw device (--device virtio-net-ccw), SENSE ID and the virtio-ccw
   transport's commands, channel-subsystem monitoring (SCHM, format-0 and format-1
   measurement blocks), CHSC's store channel-subsystem characteristics, RESET CHANNEL
   PATH's channel report and MSCH ignoring PMCW word 1 bit 5. One line a
   check, PASS or FAIL; the exit status is the failures. [Principles of Operation,
   chapters 14-16.] */
#include "channel.h"
#include "system.h"

#define CD 0x80
#define CC 0x40

IO_SID(stsch)
IO_SID(msch)
IO_SID(ssch)
IO_SID(tsch)
#define IO_SID_ONLY(name)                                                                      \
  static int name(uint32_t sid) {                                                              \
    register unsigned long r1 __asm__("1") = sid;                                              \
    int cc;                                                                                    \
    __asm__ volatile(#name "\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "d"(r1) : "cc", "memory"); \
    return cc;                                                                                 \
  }
IO_SID_ONLY(csch)
IO_SID_ONLY(hsch)
IO_SID_ONLY(rsch)

static int tpi(void *a) {
  int cc;
  __asm__ volatile("tpi 0(%1)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a) : "cc", "memory");
  return cc;
}
static int tpi_lowcore(void) {
  int cc;
  __asm__ volatile("tpi 0\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : : "cc", "memory");
  return cc;
}
static int stcrw(void *a) {
  int cc;
  __asm__ volatile("stcrw 0(%1)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a) : "cc", "memory");
  return cc;
}
static uint64_t stck(void) {
  uint64_t t;
  __asm__ volatile("stck %0" : "=Q"(t) : : "cc");
  return t;
}
/* The I/O mask off again (STNSM): interruptions are taken where the test waits only. */
static void io_off(void) {
  uint8_t old;
  __asm__ volatile("stnsm %0,0xfd" : "=Q"(old) : : "memory");
}

static struct schib schib;
static struct orb orb;
static struct irb irb;
static struct ccw ccws[16], more[4];
static uint8_t wbuf[4096] __attribute__((aligned(4096))), rbuf[4096] __attribute__((aligned(4096)));
static uint8_t de[16], lr[16], sense[32], count[8], ckd[120];

static uint32_t addr(const void *p) { return (uint32_t)(uintptr_t)p; }
static void set_ccw(unsigned k, uint8_t cmd, uint8_t flags, uint16_t n, const void *data) {
  ccws[k].cmd = cmd, ccws[k].flags = flags, ccws[k].count = n, ccws[k].cda = addr(data);
}
/* DEFINE EXTENT: file mask, cylinder 0 heads 0-14. */
static void define_extent(uint8_t mask) {
  memset(de, 0, sizeof de);
  de[0] = mask;
  de[15] = 14;
}
/* LOCATE RECORD: operation, records, seek CC HH, search CC HH R. */
static void locate(uint8_t op, uint8_t n, uint16_t head, uint8_t r) {
  memset(lr, 0, sizeof lr);
  lr[0] = op, lr[3] = n;
  lr[7] = (uint8_t)head, lr[11] = (uint8_t)head, lr[12] = r;
}

/* The subchannel the helpers start and test, and what its ORB designates: the CCWs, or
   an EADM subchannel's AOB. */
static uint32_t sid = SID0;
static const void *program = ccws;

static int start(uint32_t intparm, uint8_t key) {
  memset(&orb, 0, sizeof orb);
  orb.intparm = intparm;
  orb.ctrl = (uint32_t)key << 28 | ORB_FORMAT1 | ORB_LPM;
  orb.cpa = addr(program);
  return ssch(sid, &orb);
}

/* An enabled wait (I/O and external masks on) until an I/O interruption. */
static void wait_for_io(unsigned before) {
  static uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0302000180000000ULL, 0};
  while (last_io.count == before)
    __asm__ volatile("larl %%r1,1f\n\tstg %%r1,8(%0)\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  io_off();
}

/* Runs ccws[] to its I/O interruption; TEST SUBCHANNEL's CC (irb holds the status). */
static int run(uint32_t intparm, uint8_t key) {
  unsigned before = last_io.count;
  if (start(intparm, key) != 0) return -1;
  wait_for_io(before);
  return tsch(sid, &irb);
}

/* The subchannels STSCH finds (CC 3 past them), printed. */
static unsigned subchannels(void) {
  unsigned n = 0;
  for (uint32_t id = SID0; n < 16; ++id, ++n) {
    if (stsch(id, &schib) != 0) break;
    print("subchannel %u: type %u, device %04x%s, %s, path masks %02x %02x %02x\n", id & 0xffff,
          schib.word6 >> 21 & 7, schib.devno, schib.flags & 0x01 ? "" : " (not valid)",
          schib.flags & 0x80 ? "enabled" : "not enabled", schib.pim, schib.pam, schib.pom);
  }
  return n;
}

static void enumerate(unsigned n) {
  check(n == 3, "STSCH: three subchannels (the 3390's, an EADM one, a virtio-net-ccw), CC 3 past them");
  stsch(SID0, &schib);
  check((schib.flags & 0x01) && schib.devno == 0 && !(schib.flags & 0x80) && schib.pim == 0x80 && schib.lpm == 0x80,
        "the PMCW: device number 0000 valid, not enabled, one path");
  unsigned before = last_program.count;
  stsch(0, &schib);
  check(last_program.count == before + 1 && last_program.code == 0x0015 && last_program.ilc == 4,
        "STSCH with a bad subsystem-identification word: operand exception 0015");
  stsch(SID0, (char *)&schib + 2);
  check(last_program.count == before + 2 && last_program.code == 0x0006, "STSCH of a misaligned SCHIB: specification exception");
}

/* CR6: I/O-interruption subclass 3 (bit 35). */
static void subclass_3(void) {
  uint64_t cr6 = 1ULL << (63 - 35);
  __asm__ volatile("lctlg 6,6,%0" : : "Q"(cr6));
}

static void modify(void) {
  stsch(SID0, &schib);
  schib.intparm = 0x12345678;
  schib.isc = 3 << 3;
  schib.flags |= 0x80;
  int cc = msch(SID0, &schib);
  memset(&schib, 0, sizeof schib);
  stsch(SID0, &schib);
  check(cc == 0 && (schib.flags & 0x80) && schib.isc == 3 << 3 && schib.intparm == 0x12345678,
        "MSCH: enabled, ISC 3, the interruption parameter");
  unsigned before = last_program.count;
  schib.isc |= 0x01;
  msch(SID0, &schib);
  check(last_program.count == before + 1 && last_program.code == 0x0015, "MSCH with a reserved PMCW bit: operand exception");
  subclass_3();
  memset(&orb, 0, sizeof orb);
  check(ssch(SID0 + 2, &orb) == 3, "SSCH to a subchannel not provided: CC 3");
}

static void sense_id(void) {
  set_ccw(0, 0x03, CC, 0, 0);                  /* NOP */
  set_ccw(1, 0xe4, SLI, sizeof rbuf, rbuf);     /* SENSE ID */
  memset(rbuf, 0, 16);
  int cc = run(0x5e45e1d0, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0c && irb.scsw.cstat == 0 && rbuf[0] == 0xff && rbuf[1] == 0x39 &&
            rbuf[2] == 0x90 && rbuf[4] == 0x33 && rbuf[5] == 0x90 && irb.scsw.count == sizeof rbuf - 7,
        "NOP, SENSE ID: control unit 3990, device 3390; the residual count");
}

static void write_record(void) {
  for (unsigned k = 0; k < sizeof wbuf; ++k) wbuf[k] = (uint8_t)(k * 7 + 3);
  define_extent(0xc0);
  locate(0x01, 1, 1, 3); /* write data, cylinder 0 head 1 record 3 */
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x05, CD, 2048, wbuf); /* data chaining: the record's two halves */
  set_ccw(3, 0x05, 0, 2048, wbuf + 2048);
  unsigned before = last_io.count;
  uint64_t t0 = stck();
  int cc = start(0xfeed0001, 0);
  int busy = start(0xfeed0002, 0);
  int active = tsch(SID0, &irb);
  check(cc == 0 && busy == 2 && active == 1 && (irb.scsw.ctrl & 0x4000) && (irb.scsw.ctrl & 0x0080),
        "SSCH: CC 0, again CC 2 (busy); TSCH while active: CC 1, start function, subchannel active");
  wait_for_io(before);
  uint64_t t1 = stck();
  check(last_io.sid == SID0 && last_io.parameter == 0xfeed0001 && (last_io.id >> 27 & 7) == 3 &&
            (last_io.old_mask & PSW_MASK_IO) && (last_io.old_mask & PSW_MASK_WAIT),
        "the I/O interruption ends the enabled wait: subsystem ID, parameter, ISC 3 at 0xb8-0xc0");
  stsch(SID0, &schib);
  check(msch(SID0, &schib) == 1, "MSCH with status pending: CC 1");
  cc = tsch(SID0, &irb);
  check(cc == 0 && irb.scsw.dstat == 0x0c && irb.scsw.cstat == 0 && irb.scsw.ctrl == 0x4007 &&
            irb.scsw.cpa == addr(&ccws[4]) && irb.scsw.count == 0,
        "TSCH: CC 0, channel end and device end, start function, primary and secondary status, CCW address");
  check(tsch(SID0, &irb) == 1, "TSCH again: CC 1, no status pending");
  print("write of a 4096-byte record: I/O interruption after %u us\n", (unsigned)((t1 - t0) >> 12));
}

static void read_back(void) {
  static uint32_t code[2];
  define_extent(0x00);
  locate(0x06, 2, 1, 3); /* read, two records from cylinder 0 head 1 record 3 */
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x08, 0, 0, more); /* TIC */
  more[0] = (struct ccw){0x86, CC, sizeof rbuf, addr(rbuf)};
  more[1] = (struct ccw){0x92, 0, 8, addr(count)};
  memset(rbuf, 0, sizeof rbuf);
  check(tpi(code) == 0, "TPI with nothing pending: CC 0");
  int cc = start(0xfeed0003, 0);
  unsigned spins = 0;
  while (tpi(code) == 0 && spins < 10000000) ++spins;
  check(cc == 0 && code[0] == SID0 && code[1] == 0xfeed0003, "TPI: CC 1, the subsystem ID and parameter at its operand");
  cc = tsch(SID0, &irb);
  int same = 1;
  for (unsigned k = 0; k < sizeof rbuf; ++k) same &= rbuf[k] == wbuf[k];
  check(cc == 0 && irb.scsw.dstat == 0x0c && same, "READ DATA after a TIC: the record written");
  check(count[0] == 0 && count[1] == 0 && count[2] == 0 && count[3] == 1 && count[4] == 4 && count[5] == 0 &&
            count[6] == 0x10 && count[7] == 0,
        "READ COUNT, command chained: the next record's count, 0000 0001 04 00 1000");

  /* TPI to the lowcore: the three words of the interruption's code. */
  set_ccw(0, 0x03, 0, 0, 0);
  start(0xfeed0004, 0);
  spins = 0;
  while (tpi_lowcore() == 0 && spins < 10000000) ++spins;
  check(LC32(LC_SUBSYSTEM_ID) == SID0 && LC32(LC_IO_PARAM) == 0xfeed0004 && (LC32(LC_IO_ID) >> 27 & 7) == 3,
        "TPI with operand 0: the code at 0xb8-0xc3");
  tsch(SID0, &irb);

  /* The image's first record, as ipl_test.py wrote it. */
  locate(0x06, 1, 0, 1);
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x06, 0, sizeof rbuf, rbuf);
  cc = run(0xfeed0005, 0);
  const char *label = "TPFEMU 3390 VOLUME";
  same = 1;
  for (unsigned k = 0; label[k]; ++k) same &= rbuf[k] == (uint8_t)label[k];
  check(cc == 0 && irb.scsw.dstat == 0x0c && same, "READ DATA of cylinder 0 head 0 record 1: the image's first bytes");
}

static void unit_checks(void) {
  set_ccw(0, 0xf3, 0, 1, rbuf); /* a control command the 3390 does not have */
  int cc = run(0xbad0001, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0e && (irb.scsw.ctrl & 0x0010) && irb.scsw.cpa == addr(&ccws[1]),
        "an invalid command: unit check, alert status");
  set_ccw(0, 0x04, 0, sizeof sense, sense);
  memset(sense, 0xff, sizeof sense);
  cc = run(0xbad0002, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0c && sense[0] == 0x80 && sense[1] == 0, "SENSE: byte 0 command reject");

  define_extent(0x00);
  locate(0x06, 1, 1, 99);
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x06, 0, sizeof rbuf, rbuf);
  cc = run(0xbad0003, 0);
  int located = cc == 0 && irb.scsw.dstat == 0x0e && irb.scsw.cpa == addr(&ccws[2]);
  set_ccw(0, 0x04, 0, sizeof sense, sense);
  cc = run(0xbad0004, 0);
  check(located && cc == 0 && sense[1] == 0x08, "LOCATE RECORD of a record not there: unit check, sense no record found");

  define_extent(0x40); /* inhibit all writes */
  locate(0x01, 1, 1, 3);
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x05, 0, sizeof wbuf, wbuf);
  cc = run(0xbad0005, 0);
  set_ccw(0, 0x04, 0, sizeof sense, sense);
  run(0xbad0006, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0c && sense[1] == 0x04, "a write the file mask inhibits: unit check, file protected");

  set_ccw(0, 0x00, 0, 8, rbuf); /* command code 00: not valid */
  cc = run(0xbad0007, 0);
  check(cc == 0 && irb.scsw.cstat == 0x20, "command code 00: program check");

  set_ccw(0, 0xe4, SLI, sizeof rbuf, rbuf);
  cc = run(0xbad0008, 5); /* key 5 into key-0 storage */
  check(cc == 0 && irb.scsw.cstat == 0x10, "a store under an ORB key the storage key forbids: protection check");

  set_ccw(0, 0xe4, 0, 4, rbuf); /* SENSE ID's 7 bytes into 4, no SLI */
  cc = run(0xbad0009, 0);
  check(cc == 0 && irb.scsw.cstat == 0x40, "a count shorter than the data without SLI: incorrect length");
}

static void count_key_data(void) {
  define_extent(0xc0);
  locate(0x03, 1, 2, 0); /* format write at cylinder 0 head 2, after record 0 */
  memset(ckd, 0, sizeof ckd);
  ckd[3] = 2, ckd[4] = 1, ckd[5] = 4, ckd[7] = 100; /* CC 0000 HH 0002 R 1 KL 4 DL 100 */
  memcpy(ckd + 8, "KEY1", 4);
  for (unsigned k = 0; k < 100; ++k) ckd[12 + k] = (uint8_t)(100 - k);
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x1d, 0, 112, ckd);
  int cc = run(0xc0de0001, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0c, "WRITE COUNT KEY AND DATA: record 1 of head 2, key 4, data 100");
  locate(0x06, 1, 2, 1);
  set_ccw(2, 0x1e, 0, 112, rbuf);
  cc = run(0xc0de0002, 0);
  int same = 1;
  for (unsigned k = 0; k < 112; ++k) same &= rbuf[k] == ckd[k];
  check(cc == 0 && irb.scsw.dstat == 0x0c && same, "READ COUNT KEY AND DATA: the count, key and data written");
  locate(0x06, 1, 2, 2);
  set_ccw(2, 0x06, 0, sizeof rbuf, rbuf);
  cc = run(0xc0de0003, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0e, "the format write erased the rest of the track: record 2 not found");
}

static void clear_halt_resume(void) {
  static uint32_t crw = 0xffffffff;
  define_extent(0x00);
  locate(0x06, 1, 1, 3);
  set_ccw(0, 0x63, CC, 16, de);
  set_ccw(1, 0x47, CC, 16, lr);
  set_ccw(2, 0x06, 0, sizeof rbuf, rbuf);
  static uint32_t code[2];
  int started = start(0xc1ea0001, 0);
  int cc = csch(SID0);
  int taken = tpi(code);
  int tested = tsch(SID0, &irb);
  check(started == 0 && cc == 0 && taken == 1 && code[1] == 0xc1ea0001 && tested == 0 && (irb.scsw.ctrl & 0x7000) == 0x1000 &&
            (irb.scsw.ctrl & 1),
        "CSCH of a start in progress: CC 0, the clear function's status pending");
  cc = hsch(SID0);
  taken = tpi(code);
  tested = tsch(SID0, &irb);
  check(cc == 0 && taken == 1 && tested == 0 && (irb.scsw.ctrl & 0x7000) == 0x2000, "HSCH: CC 0, the halt function's status");
  check(rsch(SID0) == 2, "RSCH with no suspended channel program: CC 2");
  check(stcrw(&crw) == 1 && crw == 0, "STCRW: no channel report pending, CC 1, zeros stored");
  check(tsch(SID0 + 5, &irb) == 3, "TSCH of a subchannel not provided: CC 3");
}

/* EADM: an AOB on the EADM subchannel moves a 4 KB and a 1 MB block to SCM and back. */
static uint8_t aob[4096] __attribute__((aligned(4096)));
static uint8_t big[1 << 20] __attribute__((aligned(4096)));

static void put64(uint8_t *p, uint64_t v) {
  for (int k = 0; k < 8; ++k) p[k] = (uint8_t)(v >> (56 - 8 * k));
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v = v << 8 | p[k];
  return v;
}
/* MSB m: operation (1 read, 2 write), size (0 4 KB, 1 1 MB), one block. */
static void msb(unsigned m, uint8_t op, uint8_t size, const void *data, uint64_t scm) {
  uint8_t *p = aob + 128 + 32 * m;
  memset(p, 0, 32);
  p[0] = op, p[3] = size, p[7] = 1;
  put64(p + 8, addr(data));
  put64(p + 16, scm);
}
static void arqb(unsigned msbs) {
  memset(aob, 0, 128);
  aob[11] = 1; /* move */
  aob[15] = (uint8_t)msbs;
}

static void eadm(void) {
  sid = SID0 + 1, program = aob;
  stsch(sid, &schib);
  check((schib.word6 >> 21 & 7) == 3 && !(schib.flags & 0x01), "the EADM subchannel: type 3, no device number");
  schib.isc = 3 << 3, schib.flags |= 0x80, schib.intparm = 0xead0;
  msch(sid, &schib);
  for (unsigned k = 0; k < sizeof wbuf; ++k) wbuf[k] = (uint8_t)(k * 5 + 11);
  put64(big, 0x0123456789abcdefULL), put64(big + sizeof big - 8, 0xfedcba9876543210ULL);
  arqb(2);
  msb(0, 2, 0, wbuf, 0x1000);
  msb(1, 2, 1, big, 3ULL << 20);
  uint64_t t0 = stck();
  int cc = run(0xead00001, 0);
  uint64_t t1 = stck();
  check(cc == 0 && irb.scsw.dstat == 0x0c && irb.scsw.cstat == 0 && irb.scsw.cpa == addr(aob) &&
            last_io.parameter == 0xead00001 && last_io.sid == SID0 + 1,
        "an AOB of two MSBs writes a 4 KB and a 1 MB block to SCM: channel end, device end");
  print("EADM write of 4 KB and 1 MB: I/O interruption after %u us\n", (unsigned)((t1 - t0) >> 12));
  memset(rbuf, 0, sizeof rbuf);
  put64(big, 0), put64(big + sizeof big - 8, 0);
  arqb(2);
  msb(0, 1, 0, rbuf, 0x1000);
  msb(1, 1, 1, big, 3ULL << 20);
  cc = run(0xead00002, 0);
  int same = 1;
  for (unsigned k = 0; k < sizeof rbuf; ++k) same &= rbuf[k] == wbuf[k];
  check(cc == 0 && irb.scsw.dstat == 0x0c && same && get64(big) == 0x0123456789abcdefULL &&
            get64(big + sizeof big - 8) == 0xfedcba9876543210ULL,
        "reading them back: the same 4 KB and the 1 MB block's first and last bytes");
  arqb(1);
  msb(0, 1, 0, rbuf, 70ULL << 30); /* 70G: in an offline increment (64G online) */
  cc = run(0xead00003, 0);
  check(cc == 0 && irb.scsw.dstat == 0x0e && get64(aob + 64 + 16) == addr(aob + 128) && get64(aob + 64 + 40) == 70ULL << 30,
        "a block beyond the online increments: unit check, the ARSB names the MSB and its SCM address");
  sid = SID0, program = ccws;
}

/* The virtio-net-ccw device on subchannel 2 [virtio specification, "Virtio Over Channel
   I/O"; Principles of Operation, chapters 14-17]. */
static uint8_t mba[64] __attribute__((aligned(64))), mb1[64] __attribute__((aligned(64)));
static uint8_t chsc_block[4096] __attribute__((aligned(4096)));

static int one_ccw(uint8_t cmd, uint8_t flags, uint16_t n, const void *data) {
  set_ccw(0, cmd, flags, n, data);
  return run(0x7e770000 | cmd, 0);
}
static void schm(uint32_t flags, uint64_t origin) {
  register unsigned long r1 __asm__("1") = flags;
  register unsigned long r2 __asm__("2") = origin;
  __asm__ volatile("schm" : : "d"(r1), "d"(r2) : "memory");
}
static int rchp(uint32_t chpid) {
  register unsigned long r1 __asm__("1") = chpid;
  int cc;
  __asm__ volatile("rchp\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "d"(r1) : "cc", "memory");
  return cc;
}
static int chsc(void *block) {
  int cc;
  __asm__ volatile(".insn rre,0xb25f0000,%1,0\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(block) : "cc", "memory");
  return cc;
}
static unsigned get16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* The checks below hold for QEMU's virtio-net-ccw as for ours (ipl_test.py runs them
   under qemu-system-s390x with -device virtio-net-ccw alone): what the two devices offer
   beyond them (more features, a control queue, revision 1 before other commands) is
   test_css.cpp's to check on ours. */
static void virtio_net(uint32_t device_sid) {
  sid = device_sid, program = ccws;
  stsch(sid, &schib);
  check((schib.word6 >> 21 & 7) == 0 && (schib.flags & 0x01) && schib.devno == (sid & 0xffff),
        "the virtio-net-ccw subchannel: type 0, its device number valid");
  schib.isc = 3 << 3, schib.flags |= 0x80, schib.intparm = 0x7e77;
  msch(sid, &schib);
  memset(rbuf, 0, 16);
  int cc = one_ccw(0xe4, SLI, 256, rbuf);
  check(cc == 0 && irb.scsw.dstat == 0x0c && rbuf[0] == 0xff && rbuf[1] == 0x38 && rbuf[2] == 0x32 && rbuf[3] == 1 &&
            rbuf[4] == 0 && rbuf[5] == 0 && rbuf[6] == 0 && irb.scsw.count <= 256 - 8,
        "SENSE ID: FF, control unit 3832 model 01 (virtio, network), at least 8 bytes");
  memset(rbuf, 0, 16);
  cc = one_ccw(0x12, 0, 5, rbuf); /* READ FEAT, index 0 */
  check(cc == 0 && irb.scsw.dstat == 0x0c && irb.scsw.count == 0 && (rbuf[0] & 0x20) && rbuf[4] == 0,
        "READ FEAT index 0: the MAC feature (bit 5), little-endian");
  wbuf[0] = 0x20, wbuf[1] = wbuf[2] = wbuf[3] = wbuf[4] = 0;
  check(one_ccw(0x11, 0, 5, wbuf) == 0 && irb.scsw.dstat == 0x0c, "WRITE FEAT: accepted");
  memset(rbuf, 0xee, 16);
  cc = one_ccw(0x22, SLI, 16, rbuf);
  check(cc == 0 && irb.scsw.count <= 10 && !(rbuf[0] & 1) && (rbuf[0] | rbuf[1] | rbuf[2] | rbuf[3] | rbuf[4] | rbuf[5]),
        "READ CONF: a unicast MAC address, at least 6 bytes");
  rbuf[0] = 0, rbuf[1] = 1, rbuf[2] = rbuf[3] = 0;
  cc = one_ccw(0x32, 0, 4, rbuf);
  check(cc == 0 && get16(rbuf) == 1 && get16(rbuf + 2) == 256, "READ VQ CONF: queue 1 holds 256");
  memset(wbuf, 0, 16);
  /* The legacy block: address, alignment 4 KB, queue 1, 256 entries. */
  put64(wbuf, 0x200000), wbuf[10] = 0x10, wbuf[13] = 1, wbuf[14] = 1;
  check(one_ccw(0x13, 0, 16, wbuf) == 0 && irb.scsw.dstat == 0x0c, "SET VQ: queue 1 at 2 MB");
  wbuf[0] = 0x03; /* acknowledge, driver */
  check(one_ccw(0x31, 0, 1, wbuf) == 0 && irb.scsw.dstat == 0x0c, "WRITE STATUS: acknowledge, driver");
  wbuf[0] = 0, wbuf[1] = 1, wbuf[2] = wbuf[3] = 0; /* revision 1 */
  cc = one_ccw(0x83, 0, 4, wbuf); /* revision 1, no data: 4 bytes */
  /* Unit check: ours ends the command with channel end and device end too (0E), QEMU's
     presents it alone (02); either ends the chain. */
  int rejected = cc == 0 && (irb.scsw.dstat & 0x02);
  cc = one_ccw(0x04, SLI, 32, rbuf);
  check(rejected && cc == 0 && rbuf[0] == 0x80,
        "SET VIRTIO REV after other commands (revision 0 in use): unit check, SENSE command reject");
}

static void monitoring(void) {
  unsigned before = last_program.count;
  schm(2, (uint64_t)addr(mba) + 1);
  check(last_program.count == before + 1 && last_program.code == 0x0015, "SCHM with an origin off 32 bytes: operand exception");
  schm(0xfffffffc, 0);
  check(last_program.count == before + 2 && last_program.code == 0x0015, "SCHM with GR1 bits 36-61: operand exception");
  memset(mba, 0, sizeof mba);
  schm(2, addr(mba));
  stsch(sid, &schib);
  schib.flags |= 0x10, schib.mbi = 1; /* measurement-block update, block 1 of the area */
  check(msch(sid, &schib) == 0, "MSCH: measurement-block update enabled, index 1");
  for (int k = 0; k < 3; ++k) one_ccw(0xe4, SLI, 256, rbuf);
  check(get16(mba + 32) == 3 && get16(mba) == 0, "format 0: three starts counted in block 1 of SCHM's area");
  stsch(sid, &schib);
  schib.word6 |= 4, put64(schib.model, (uint64_t)addr(mb1) + 8);
  msch(sid, &schib);
  check(last_program.count == before + 3 && last_program.code == 0x0015,
        "MSCH of a format-1 block off 64 bytes: operand exception");
  memset(mb1, 0, sizeof mb1);
  put64(schib.model, addr(mb1));
  int cc = msch(sid, &schib);
  for (int k = 0; k < 2; ++k) one_ccw(0xe4, SLI, 256, rbuf);
  memset(&schib, 0, sizeof schib);
  stsch(sid, &schib);
  check(cc == 0 && get32(mb1) == 2 && get16(mba + 32) == 3 && (schib.word6 & 4) && get64(schib.model) == addr(mb1),
        "format 1: two starts counted in the subchannel's own block; STSCH gives its origin");
  schib.flags &= ~0x10, schib.word6 &= ~4u;
  msch(sid, &schib);
  schm(0, 0);
  one_ccw(0xe4, SLI, 256, rbuf);
  check(get32(mb1) == 2, "measurement off: no count");
}

static void channel_subsystem_calls(void) {
  stsch(sid, &schib);
  schib.isc |= 0x04; /* word 1 bit 5 */
  int cc = msch(sid, &schib);
  stsch(sid, &schib);
  check(cc == 0 && !(schib.isc & 0x04), "MSCH ignores PMCW word 1 bit 5; STSCH stores it zero");
  memset(chsc_block, 0xff, sizeof chsc_block);
  chsc_block[0] = 0, chsc_block[1] = 0x10, chsc_block[2] = 0, chsc_block[3] = 0x10;
  memset(chsc_block + 4, 0, 12);
  cc = chsc(chsc_block);
  check(cc == 0 && get16(chsc_block + 18) == 1 && ((chsc_block + 24)[6] & 0x80),
        "CHSC store channel-subsystem characteristics: response code 1, bit 48 (extended measurement blocks)");
  chsc_block[3] = 0x99;
  cc = chsc(chsc_block);
  check(cc == 0 && get16(chsc_block + 18) == 4, "CHSC of a command not installed: response code 4");
  unsigned before = last_program.count;
  chsc(chsc_block + 8);
  check(last_program.count == before + 1 && last_program.code == 0x0006, "CHSC of a block off 4 KB: specification exception");
  uint32_t crw = 0xfeedc0fe;
  cc = rchp(0);
  int stored = stcrw(&crw);
  uint32_t second = 1;
  check(cc == 0 && stored == 0 && crw == 0x44020000 && stcrw(&second) == 1 && second == 0,
        "RCHP 0: CC 0; STCRW: a solicited channel-path report, initialized, CHPID 00; then none");
  check(rchp(0x42) == 3, "RCHP of a CHPID not installed: CC 3");
  rchp(0x100);
  check(last_program.count == before + 2 && last_program.code == 0x0015, "RCHP with GR1 bits 32-55: operand exception");
  sid = SID0, program = ccws;
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu channel-subsystem test\n");
  unsigned n = subchannels();
  if (n == 1) {
    /* A virtio-net-ccw device alone (tpfemu ipl --device virtio-net-ccw, or QEMU's
       -device virtio-net-ccw): the checks that hold on both. */
    check(1, "STSCH: one subchannel, CC 3 past it");
    subclass_3();
    virtio_net(SID0);
    monitoring();
    channel_subsystem_calls();
    print("%u failure(s)\n", failures);
    return (int)failures;
  }
  enumerate(n);
  modify();
  sense_id();
  write_record();
  read_back();
  unit_checks();
  count_key_data();
  clear_halt_resume();
  eadm();
  virtio_net(SID0 + 2);
  monitoring();
  channel_subsystem_calls();
  print("%u failure(s)\n", failures);
  return (int)failures;
}
