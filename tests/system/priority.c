/* Interruption priorities [Principles of Operation, chapter 6, "Priority of
   Interruptions"]: with several interruption conditions pending at an instruction
   boundary, they are taken in the order supervisor call, program, (machine check: none
   are generated), external, I/O, restart; each taken interruption's new PSW decides
   whether the next is taken at once, so the handlers run in the reverse of the order the
   new PSWs were fetched. Among external conditions: emergency signal, external call,
   clock comparator, CPU timer, service signal (the first three checked here). One CPU and one virtio-net-ccw device
   (tpfemu ipl --device virtio-net-ccw, or QEMU's -device virtio-net-ccw), whose SENSE ID
   gives the I/O interruption; run under both with the same console. */
#include "channel.h"
#include "system.h"

IO_SID(stsch)
IO_SID(msch)
IO_SID(ssch)
IO_SID(tsch)


static struct schib schib;
static struct orb orb;
static struct ccw ccw;
static struct irb irb;
static uint8_t sense_id[256] __attribute__((aligned(8)));
extern void external_entry(void), io_entry(void), program_entry(void), svc_entry(void);

static void set_cr6(uint64_t v) { __asm__ volatile("lctlg 6,6,%0" : : "Q"(v) : "memory"); }
static void sckc(uint64_t v) { __asm__ volatile("sckc %0" : : "Q"(v) : "memory"); }
static uint64_t stck(void) {
  uint64_t v;
  __asm__ volatile("stck %0" : "=Q"(v) : : "cc");
  return v;
}
static void spt(uint64_t v) { __asm__ volatile("spt %0" : : "Q"(v) : "memory"); }
static uint16_t cpu_address(void) {
  uint16_t a;
  __asm__ volatile("stap %0" : "=Q"(a));
  return a;
}

/* The clock-comparator condition pending, the CPU disabled for it: the comparator at
   the TOD clock's value now, then an enabled wait (external only, with only the CPU-timer
   subclass on) until the CPU timer, set 1 ms ahead, interrupts it. QEMU makes its
   timers' conditions pending from host timers, in the order of their times: when the
   CPU timer's is taken, the clock comparator's is there too; tpfemu's hold at once. */
static void clock_comparator_now(void) {
  static uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0102000180000000ULL, 0};
  set_cr0_bit(52, 0);
  set_cr0_bit(53, 1);
  sckc(stck());
  spt(1000ULL << 12);
  __asm__ volatile("larl %%r1,1f\n\tstg %%r1,8(%0)\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  uint8_t old;
  __asm__ volatile("stnsm %0,0xfc" : "=Q"(old) : : "memory");
  set_cr0_bit(53, 0);
  set_cr0_bit(52, 1);
}

/* The PSW's I/O and external masks off (STNSM) and on (STOSM). */
static void disable(void) {
  uint8_t old;
  __asm__ volatile("stnsm %0,0xfc" : "=Q"(old) : : "memory");
}
/* The external mask on again (the console waits for its service signal). */
static void external_on(void) {
  uint8_t old;
  __asm__ volatile("stosm %0,0x01" : "=Q"(old) : : "memory");
}
/* Enables both with one STOSM; returns the address after it (every old PSW of an
   interruption taken at that boundary). */
static uint64_t enable_both(void) {
  uint8_t old;
  uint64_t after;
  __asm__ volatile("larl %1,1f\n\tstosm %0,0x03\n1:" : "=Q"(old), "=&a"(after) : : "memory");
  return after;
}

/* An I/O interruption made pending while the CPU is disabled for it: SENSE ID on the
   virtio-net-ccw subchannel (enabled, ISC 3), then STSCH until it is status pending. */
static int make_io_pending(void) {
  ccw.cmd = 0xe4, ccw.flags = SLI, ccw.count = sizeof sense_id, ccw.cda = (uint32_t)(uintptr_t)sense_id;
  memset(&orb, 0, sizeof orb);
  orb.intparm = 0x10;
  orb.ctrl = ORB_FORMAT1 | ORB_LPM;
  orb.cpa = (uint32_t)(uintptr_t)&ccw;
  if (ssch(SID0, &orb) != 0) return 0;
  for (unsigned spins = 0; spins < 1000000; ++spins) {
    stsch(SID0, &schib);
    if (schib.scsw.ctrl & 0x0001) return 1;
  }
  return 0;
}

static void set_new_psw(uint64_t at, uint64_t mask, void (*entry)(void)) {
  LC64(at) = mask;
  LC64(at + 8) = (uint64_t)(uintptr_t)entry;
}
static void standard_new_psws(void) {
  set_new_psw(LC_EXT_NEW_PSW, PSW_MASK_64, external_entry);
  set_new_psw(LC_IO_NEW_PSW, PSW_MASK_64, io_entry);
  set_new_psw(LC_PGM_NEW_PSW, PSW_MASK_64, program_entry);
  set_new_psw(LC_SVC_NEW_PSW, PSW_MASK_64, svc_entry);
}

static void start_recording(void) {
  taken_count = 0;
  taken_recording = 1;
}
static void stop_recording(void) {
  taken_recording = 0;
  disable();
  tsch(SID0, &irb); /* (status pending left by a failed check: cleared) */
  standard_new_psws();
  external_on();
}
static void show_log(const char *what) {
  print("%s:", what);
  for (unsigned k = 0; k < taken_count; ++k)
    print(" %c%x@%lx", taken_log[k].kind, taken_log[k].code, taken_log[k].old_addr);
  print("\n");
}
static int taken(unsigned k, char kind, uint16_t code, uint64_t old_addr) {
  return taken_count > k && taken_log[k].kind == kind && taken_log[k].code == code && taken_log[k].old_addr == old_addr;
}

/* External before I/O: a clock-comparator condition and an I/O interruption pending,
   both masks opened by one STOSM. The external new PSW is disabled, so the I/O
   interruption waits for its handler's return to the enabled old PSW. */
static void external_before_io(void) {
  disable();
  set_cr0_bit(52, 1);
  const int io_pending = make_io_pending();
  clock_comparator_now(); /* pending, the CPU disabled */
  start_recording();
  const uint64_t after = enable_both();
  stop_recording();
  const int ok = io_pending && taken_count == 2 && taken(0, 'E', 0x1004, after) && taken(1, 'I', 0, after);
  if (!ok) show_log("taken");
  check(ok, "external and I/O pending, enabled at once: the external interruption first, then the I/O");
}

/* The external new PSW enabled for I/O: the I/O interruption is taken right after the
   external one, before any instruction, its old PSW the external new PSW; the I/O
   handler runs first, then the external one. */
static void new_psw_enables_the_next(void) {
  disable();
  const int io_pending = make_io_pending();
  clock_comparator_now();
  set_new_psw(LC_EXT_NEW_PSW, PSW_MASK_64 | PSW_MASK_IO, external_entry);
  start_recording();
  const uint64_t after = enable_both();
  stop_recording();
  const int ok = io_pending && taken_count == 2 && taken(0, 'I', 0, (uint64_t)(uintptr_t)external_entry) &&
                 (taken_log[0].old_mask & PSW_MASK_IO) && taken(1, 'E', 0x1004, after);
  if (!ok) show_log("taken");
  check(ok, "an external new PSW enabled for I/O: the I/O interruption next, its old PSW the external new PSW");
}

/* The supervisor-call interruption before the external one: an external condition
   pending (the CPU disabled) and an SVC new PSW enabled for it. */
static void svc_before_external(void) {
  disable();
  clock_comparator_now();
  set_new_psw(LC_SVC_NEW_PSW, PSW_MASK_64 | PSW_MASK_EXT, svc_entry);
  start_recording();
  __asm__ volatile("svc 9" ::: "memory");
  stop_recording();
  const int ok = taken_count == 2 && taken(0, 'E', 0x1004, (uint64_t)(uintptr_t)svc_entry) && taken_log[1].kind == 'S' &&
                 taken_log[1].code == 9;
  if (!ok) show_log("taken");
  check(ok, "SVC with an external condition pending: the SVC interruption first, then the external (old PSW the SVC new PSW)");
}

/* The program interruption of an instruction before the external one: an addressing
   exception with the clock comparator pending and a program new PSW enabled for it. */
static void program_before_external(void) {
  disable();
  clock_comparator_now();
  set_new_psw(LC_PGM_NEW_PSW, PSW_MASK_64 | PSW_MASK_EXT, program_entry);
  start_recording();
  const uint64_t v = probe_load(0x7ffffffffff000ULL);
  stop_recording();
  const int ok = v == ~0ULL && taken_count == 2 && taken(0, 'E', 0x1004, (uint64_t)(uintptr_t)program_entry) &&
                 taken(1, 'P', 0x0005, (uint64_t)(uintptr_t)probe_load_insn + 6);
  if (!ok) show_log("taken");
  check(ok, "a program interruption with an external condition pending: the program interruption first");
}

/* Among external conditions: emergency signal, external call, clock comparator, made
   pending while disabled (the two signals by SIGP to itself), taken one after the other
   as each handler returns. */
static void external_subclasses(void) {
  disable();
  set_cr0_bit(49, 1);
  set_cr0_bit(50, 1);
  clock_comparator_now();
  uint32_t status;
  const int cc_call = sigp(cpu_address(), 0x02, 0, &status);      /* external call */
  const int cc_emergency = sigp(cpu_address(), 0x03, 0, &status); /* emergency signal */
  start_recording();
  const uint64_t after = enable_both();
  stop_recording();
  const int ok = cc_call == 0 && cc_emergency == 0 && taken_count == 3 && taken(0, 'E', 0x1201, after) &&
                 taken(1, 'E', 0x1202, after) && taken(2, 'E', 0x1004, after);
  if (!ok) show_log("taken");
  check(ok, "external call, emergency signal, clock comparator pending: taken as emergency signal, external call, clock comparator");
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu interruption-priority test\n");
  if (stsch(SID0, &schib) != 0) {
    print("no subchannel: run with a virtio-net-ccw device\n");
    return 1;
  }
  schib.isc = 3 << 3, schib.flags |= 0x80, schib.intparm = 0x10;
  msch(SID0, &schib);
  set_cr6(1ULL << (63 - 35));
  external_before_io();
  new_psw_enables_the_next();
  svc_before_external();
  program_before_external();
  external_subclasses();
  print("%u failure(s)\n", failures);
  return (int)failures;
}
