/* tpfemu ipl's self-test kernel: the PSW and the interruptions (program, SVC, external
   through the SCLP's service signal), privileged instructions in the problem state,
   control registers, the prefix, and the SCLP console it prints through. One line a
   check, PASS or FAIL; the exit status (the disabled wait's code) is the failures. */
#include "system.h"

static uint64_t epsw(void) {
  uint32_t hi, lo;
  __asm__ volatile("epsw %0,%1" : "=d"(hi), "=d"(lo));
  return (uint64_t)hi << 32 | lo;
}

/* An operation exception (opcode 00): suppressed, the old PSW past the instruction, ILC 2. */
static void operation_exception(void) {
  extern char after_invalid_opcode[];
  unsigned before = last_program.count;
  __asm__ volatile(".short 0x0000\n\t.globl after_invalid_opcode\nafter_invalid_opcode:" ::: "memory");
  check(last_program.count == before + 1 && last_program.code == 0x0001 && last_program.ilc == 2 &&
            last_program.old_addr == (uint64_t)(uintptr_t)after_invalid_opcode,
        "operation exception: code 0001, ILC 2, old PSW past the instruction");
}

/* A specification exception of a misaligned LCTLG operand: ILC 6, suppressed. */
static void specification_exception(void) {
  static uint64_t words[3];
  unsigned before = last_program.count;
  uint64_t cr3_before, cr3_after;
  __asm__ volatile("stctg 3,3,%0" : "=Q"(cr3_before));
  __asm__ volatile("lctlg 3,3,%0" : : "Q"(*(uint64_t *)((char *)words + 4)) : "memory");
  __asm__ volatile("stctg 3,3,%0" : "=Q"(cr3_after));
  check(last_program.count == before + 1 && last_program.code == 0x0006 && last_program.ilc == 6 &&
            cr3_before == cr3_after,
        "specification exception: misaligned LCTLG suppressed, ILC 6");
}

/* A data exception (COMPARE AND TRAP, DXC FF): the DXC at lowcore 0x93, and in the FPC
   only with CR0 bit 45 (AFP-register control) on [PoO "Data-Exception Code (DXC)"].
   SFPC and EFPC run with it on (without it they are BFP instructions' data exceptions). */
static uint32_t fpc_dxc_after_trap(int afp) {
  const uint64_t afp_bit = 1ULL << (63 - 45);
  uint64_t cr0, cr0_afp, cr0_trap;
  uint32_t fpc = 0;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(cr0));
  cr0_afp = cr0 | afp_bit;
  cr0_trap = afp ? cr0_afp : cr0 & ~afp_bit;
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0_afp));
  __asm__ volatile("sfpc %0" : : "d"(fpc));
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0_trap));
  LC8(0x93) = 0;
  __asm__ volatile(".insn rrf,0xb9600000,%0,%0,8,0" : : "d"(0) : "memory"); /* CGRT equal: traps */
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0_afp));
  __asm__ volatile("efpc %0" : "=d"(fpc));
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0));
  return fpc >> 8 & 0xff;
}

static void data_exception_code(void) {
  unsigned before = last_program.count;
  uint32_t without_afp = fpc_dxc_after_trap(0);
  uint8_t lowcore_dxc = LC8(0x93);
  uint32_t with_afp = fpc_dxc_after_trap(1);
  check(last_program.count == before + 2 && last_program.code == 0x0007 && lowcore_dxc == 0xff && LC8(0x93) == 0xff &&
            without_afp == 0 && with_afp == 0xff,
        "data exception 0007: DXC FF at 0x93; in the FPC only with CR0's AFP-register control");
}

static void svc_interruption(void) {
  extern char after_svc[];
  unsigned before = last_svc.count;
  __asm__ volatile("svc 42\n\t.globl after_svc\nafter_svc:" ::: "memory");
  check(last_svc.count == before + 1 && last_svc.code == 42 && last_svc.ilc == 2 &&
            last_svc.old_addr == (uint64_t)(uintptr_t)after_svc && !(last_svc.old_mask & PSW_MASK_PROBLEM),
        "SVC 42: code 42, ILC 2, old PSW past the SVC");
}

static void problem_state(void) {
  unsigned programs = last_program.count;
  problem_state_round_trip();
  check(last_program.count == programs + 1 && last_program.code == 0x0002 && last_program.ilc == 4 &&
            (last_program.old_mask & PSW_MASK_PROBLEM),
        "STPX in the problem state: privileged-operation exception 0002");
  check(last_svc.code == 1 && (last_svc.old_mask & PSW_MASK_PROBLEM) && !(epsw() & PSW_MASK_PROBLEM),
        "SVC 1 from the problem state returns to the supervisor state");
}

static void early_psw_exception(void) {
  unsigned before = last_program.count;
  invalid_psw_round_trip();
  resume_after_invalid_psw = 0; /* (where a machine took no exception, the handler left it) */
  check(last_program.count == before + 1 && last_program.code == 0x0006 && last_program.ilc == 0 &&
            last_program.old_mask == invalid_psw[0],
        "LPSWE of an invalid PSW: early specification exception, ILC 0, the invalid PSW stored");
}

static void control_registers(void) {
  static uint64_t in[3] = {0x1111222233334444ULL, 0x5555666677778888ULL, 0x99990000aaaabbbbULL};
  static uint64_t out[3];
  static uint32_t word = 0xcafef00d, word_out;
  __asm__ volatile("lctlg 3,5,%0" : : "Q"(in) : "memory");
  __asm__ volatile("stctg 3,5,%0" : "=Q"(out) : : "memory");
  check(out[0] == in[0] && out[1] == in[1] && out[2] == in[2], "LCTLG/STCTG round trip of CR3-CR5");
  __asm__ volatile("lctl 4,4,%0" : : "Q"(word) : "memory");
  __asm__ volatile("stctg 3,5,%0" : "=Q"(out) : : "memory");
  __asm__ volatile("stctl 4,4,%0" : "=Q"(word_out) : : "memory");
  check(out[1] == 0x55556666cafef00dULL && word_out == 0xcafef00d && out[0] == in[0] && out[2] == in[2],
        "LCTL loads bits 32-63 only; STCTL stores them");
}

static void keys(void) {
  uint64_t r2;
  uint32_t hi;
  __asm__ volatile("spka 0x30\n\tepsw %1,0\n\tlghi %%r2,0\n\tipk\n\tlgr %0,%%r2\n\tspka 0"
                   : "=d"(r2), "=d"(hi) : : "r2");
  uint64_t key = (epsw() >> 52) & 0xf;
  check(((hi >> 20) & 0xf) == 3 && key == 0, "SPKA 3 sets the PSW key (EPSW), SPKA 0 restores key 0");
  check(r2 == 0x30, "IPK inserts the PSW key in bits 56-59 of GR2");
}

static void system_mask(void) {
  uint8_t old, now;
  __asm__ volatile("stnsm %0,0xfe" : "=Q"(old) : : "memory"); /* external off */
  __asm__ volatile("stosm %0,0x00" : "=Q"(now) : : "memory");
  __asm__ volatile("ssm %0" : : "Q"(old) : "memory");       /* back as it was */
  check((old & 0x01) && !(now & 0x01) && (epsw() & PSW_MASK_EXT), "STNSM/STOSM/SSM: the external mask off and on");
}

static void prefix(void) {
  enum { P = 0x80000 };
  uint32_t before, after, restored;
  __asm__ volatile("stpx %0" : "=Q"(before));
  memcpy((void *)(uintptr_t)P, (void *)0, 8192); /* the new lowcore: the same new PSWs */
  LC64(0x380) = 0xaaaaaaaaaaaaaaaaULL;           /* absolute 0x380 */
  LC64(P + 0x380) = 0xbbbbbbbbbbbbbbbbULL;       /* absolute P + 0x380 */
  uint32_t p = P;
  __asm__ volatile("spx %0" : : "Q"(p) : "memory");
  __asm__ volatile("stpx %0" : "=Q"(after));
  uint64_t low = LC64(0x380), high = LC64(P + 0x380);
  unsigned svcs = last_svc.count;
  __asm__ volatile("svc 7" ::: "memory");
  uint32_t zero = 0;
  __asm__ volatile("spx %0" : : "Q"(zero) : "memory");
  __asm__ volatile("stpx %0" : "=Q"(restored));
  check(before == 0 && after == P && restored == 0, "SPX/STPX: prefix 0, then 80000, then 0");
  check(low == 0xbbbbbbbbbbbbbbbbULL && high == 0xaaaaaaaaaaaaaaaaULL,
        "prefixing: real 0-8191 is the prefix area, and the prefix area is absolute 0-8191");
  check(last_svc.count == svcs + 1 && LC16(P + LC_SVC_CODE) == 7 && LC16(LC_SVC_CODE) != 7,
        "an SVC under prefix 80000 stores its code in that lowcore");
}


/* The clock comparator 10 microseconds ahead, then an enabled wait: its interruption
   (1004) ends the wait. */
static void clock_comparator(void) {
  static uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0102000180000000ULL, 0};
  uint64_t now, ckc, stored;
  uint8_t mask;
  unsigned before = last_external.count;
  /* External interruptions off until the wait PSW opens them: on a machine whose TOD
     clock is the host's (QEMU), the comparator may have passed by then. */
  __asm__ volatile("stnsm %0,0xfe" : "=Q"(mask) : : "memory");
  set_cr0_bit(52, 1);
  __asm__ volatile("stck %0" : "=Q"(now) : : "cc");
  ckc = now + 10 * 4096;
  __asm__ volatile("sckc %0" : : "Q"(ckc));
  __asm__ volatile("stckc %0" : "=Q"(stored));
  __asm__ volatile("larl %%r1,1f\n\tstg %%r1,8(%0)\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  set_cr0_bit(52, 0);
  check(stored == ckc && last_external.count == before + 1 && last_external.code == 0x1004 &&
            (last_external.old_mask & PSW_MASK_WAIT),
        "SCKC/STCKC; the clock-comparator interruption 1004 ends an enabled wait");
}

/* The CPU timer set to about a microsecond: its interruption (1005) while looping. */
static void cpu_timer(void) {
  uint64_t value = 4096, stored;
  unsigned before = last_external.count;
  __asm__ volatile("spt %0" : : "Q"(value));
  __asm__ volatile("stpt %0" : "=Q"(stored));
  set_cr0_bit(53, 1);
  for (volatile unsigned spins = 0; spins < 1000000 && last_external.count == before; ++spins) {
  }
  set_cr0_bit(53, 0);
  /* (Signed: on a machine whose CPU timer is host time, QEMU's, it may be negative already.) */
  check((int64_t)stored <= (int64_t)value && last_external.count == before + 1 && last_external.code == 0x1005,
        "SPT/STPT; the CPU-timer interruption 1005 when it goes negative");
}

/* I-stream 1: stopped until this one gives it a prefix and a restart new PSW and
   restarts it; it counts itself and sends an emergency signal back. */
static void signal_processor(unsigned cpus) {
  extern volatile uint32_t cpu1_started, cpu1_release;
  extern char cpu1_entry[];
  enum { P1 = 0x90000 };
  uint32_t status = 0;
  if (cpus < 2) {
    print("SKIP: SIGP (one CPU)\n");
    return;
  }
  int cc = sigp(1, 1, 0, &status); /* sense */
  check(cc == 1 && status == 0x40, "SIGP sense: I-stream 1 is stopped");
  check(sigp(cpus, 1, 0, &status) == 3, "SIGP to a CPU address not in the configuration: CC 3");
  memcpy((void *)(uintptr_t)P1, (void *)0, 8192);
  LC64(P1 + 0x1a0) = PSW_MASK_64; /* its restart new PSW */
  LC64(P1 + 0x1a8) = (uint64_t)(uintptr_t)cpu1_entry;
  static uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0102000180000000ULL, 0};
  uint8_t mask;
  /* External interruptions off until the wait PSW opens them, emergency signals in; the
     wait ends with I-stream 1's signal, however long it takes (QEMU's I-streams are host
     threads). */
  __asm__ volatile("stnsm %0,0xfe" : "=Q"(mask) : : "memory");
  set_cr0_bit(49, 1);
  unsigned before = last_external.count;
  int cc_prefix = sigp(1, 0x0d, P1, &status);
  int cc_restart = sigp(1, 0x06, 0, &status);
  __asm__ volatile("larl %%r1,1f\n\tstg %%r1,8(%0)\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  set_cr0_bit(49, 0);
  /* (Before any print: its service signal is an external interruption too.) */
  unsigned signals = last_external.count - before, code = last_external.code, from = last_external.cpu_address;
  cpu1_release = 1;
  check(cc_prefix == 0 && cc_restart == 0 && cpu1_started == 1, "SIGP set prefix and restart start I-stream 1");
  if (!(signals == 1 && code == 0x1201 && from == 1))
    print("emergency signal: %u external interruption(s), the last %x from CPU %u\n", signals, code, from);
  check(signals == 1 && code == 0x1201 && from == 1, "I-stream 1's emergency signal: external interruption 1201 from CPU 1");
}

static unsigned scp_cpus;
static uint64_t scp_storage;

static void scp_info(void) {
  static uint8_t block[4096] __attribute__((aligned(4096)));
  memset(block, 0, sizeof block);
  *(uint16_t *)block = 4096;
  int response = sclp_call(0x00020001, block);
  uint16_t rnmax = *(uint16_t *)(block + 8);
  uint8_t rnsize = block[10];
  uint16_t cpus = *(uint16_t *)(block + 16);
  print("READ SCP INFO: response %04x, storage %u MB, %u CPU(s)\n", response, (unsigned)rnmax * rnsize, cpus);
  check(response == 0x0010 && rnmax * rnsize > 0 && cpus >= 1, "READ SCP INFO");
  /* Byte 85 bit 6: the enhanced suppression-on-protection facility (its TEIDs), which
     kvm-unit-tests' edat test needs to read DAT protection's TEID. */
  check(block[85] & 0x02, "READ SCP INFO: enhanced suppression on protection (byte 85 bit 6)");
  /* An SCCB shorter than its 8-byte header, or in the lowcore's 8 KB: a specification
     exception, and no command (no service signal to wait for). Above 2 GB (with more
     storage than that: beyond storage it is an addressing exception) likewise. */
  static uint8_t short_sccb[8] __attribute__((aligned(8))) = {0, 4};
  unsigned before = last_program.count;
  __asm__ volatile(".insn rre,0xb2200000,%0,%1" : : "d"(0x00020001), "a"(short_sccb) : "cc", "memory");
  __asm__ volatile(".insn rre,0xb2200000,%0,%1" : : "d"(0x00020001), "a"(0x1000UL) : "cc", "memory");
  check(last_program.count == before + 2 && last_program.code == 0x0006,
        "SERVICE CALL: an SCCB shorter than 8 bytes, or in the lowcore, is exception 0006");
  if ((unsigned long)rnmax * rnsize > 2048) {
    before = last_program.count;
    *(volatile uint16_t *)0x80000000UL = 4096; /* a header that would be valid */
    __asm__ volatile(".insn rre,0xb2200000,%0,%1" : : "d"(0x00020001), "a"(0x80000000UL) : "cc", "memory");
    check(last_program.count == before + 1 && last_program.code == 0x0006,
          "SERVICE CALL: an SCCB above 2 GB is exception 0006");
  }
  scp_cpus = cpus;
  scp_storage = (uint64_t)rnmax * rnsize << 20;
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu system self-test\n");
  /* The kernel command line, where QEMU's -append and tpfemu ipl's -- put it. */
  const volatile char *parameters = (const volatile char *)0x10480;
  if (*parameters) print("parameters: %s\n", (const char *)parameters);
  /* Console input (tpfemu ipl --console-input): its first line, if there is one. */
  static char input[80];
  if (console_read_line(input, sizeof input) >= 0) print("console input: %s\n", input);
  check(last_external.count >= 1 && last_external.code == 0x2401, "service-signal external interruption 2401");
  check(!(epsw() & PSW_MASK_PROBLEM) && (epsw() & PSW_MASK_64) == PSW_MASK_64, "supervisor state, 64-bit mode");
  operation_exception();
  specification_exception();
  data_exception_code();
  svc_interruption();
  problem_state();
  keys();
  early_psw_exception();
  control_registers();
  system_mask();
  prefix();
  clock_comparator();
  cpu_timer();
  scp_info();
  signal_processor(scp_cpus);
  sigp_status_tests(scp_cpus, scp_storage);
  dat_tests();
  stsi_tests();
  sck_tests();
  storage_key_tests();
  low_address_tests();
  move_page_tests();
  print("%u failure(s)\n", failures);
  return (int)failures;
}
