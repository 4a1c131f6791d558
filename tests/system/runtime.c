/* The bare-metal runtime of the tests: the interruption handlers, the SCLP console
   (VT220 events, waiting for the service signal as a program of the real machine does)
   and print. */
#include "system.h"

volatile struct interruption last_program, last_svc, last_external;

unsigned failures;

void check(int ok, const char *what) {
  print("%s: %s\n", ok ? "PASS" : "FAIL", what);
  if (!ok)
    print("  (the last program interruption: code %x, ILC %u, old PSW %lx, TEID %lx)\n", last_program.code,
          last_program.ilc, last_program.old_addr, last_program.teid);
  failures += !ok;
}
volatile struct io_interruption last_io;
static volatile int sclp_busy;
static uint8_t sccb[4096] __attribute__((aligned(4096)));

void program_entry(void), svc_entry(void), external_entry(void), io_entry(void);

void *memset(void *d, int c, unsigned long n) {
  volatile uint8_t *p = d;
  while (n--) *p++ = (uint8_t)c;
  return d;
}
void *memcpy(void *d, const void *s, unsigned long n) {
  volatile uint8_t *p = d;
  const uint8_t *q = s;
  while (n--) *p++ = *q++;
  return d;
}

volatile struct taken taken_log[16];
volatile unsigned taken_count;
volatile int taken_recording;

/* The handlers' order of running (priority.c), while taken_recording is on. */
static void log_taken(char kind, uint16_t code, uint64_t old_psw) {
  if (!taken_recording || taken_count >= sizeof taken_log / sizeof taken_log[0]) return;
  volatile struct taken *t = &taken_log[taken_count++];
  t->kind = kind, t->code = code, t->old_mask = LC64(old_psw), t->old_addr = LC64(old_psw + 8);
}

static void record(volatile struct interruption *r, uint16_t code, uint8_t ilc, uint64_t old_psw) {
  log_taken(old_psw == LC_PGM_OLD_PSW ? 'P' : old_psw == LC_SVC_OLD_PSW ? 'S' : 'E', code, old_psw);
  r->count++;
  r->code = code;
  r->ilc = ilc;
  r->old_mask = LC64(old_psw);
  r->old_addr = LC64(old_psw + 8);
}

void program_handler(void) {
  record(&last_program, LC16(LC_PGM_CODE), LC8(LC_PGM_ILC), LC_PGM_OLD_PSW);
  last_program.teid = LC64(0xa8);
  /* A probe's access exception: go on after it. */
  if (resume_at) {
    LC64(LC_PGM_OLD_PSW + 8) = resume_at;
    resume_at = 0;
  }
  /* An early PSW exception of the test's invalid PSW: go on where the test said. */
  if (last_program.code == 6 && last_program.ilc == 0 && resume_after_invalid_psw) {
    LC64(LC_PGM_OLD_PSW) = PSW_MASK_64 | PSW_MASK_EXT; /* as the test ran */
    LC64(LC_PGM_OLD_PSW + 8) = resume_after_invalid_psw;
    resume_after_invalid_psw = 0;
  }
}

void svc_handler(void) {
  record(&last_svc, LC16(LC_SVC_CODE), LC8(LC_SVC_ILC), LC_SVC_OLD_PSW);
  if (last_svc.code == 1) LC64(LC_SVC_OLD_PSW) &= ~PSW_MASK_PROBLEM; /* back to the supervisor state */
}

void external_handler(void) {
  record(&last_external, LC16(LC_EXT_CODE), 0, LC_EXT_OLD_PSW);
  last_external.cpu_address = LC16(0x084);
  if (last_external.code == 0x2401) sclp_busy = 0;
  if (last_external.code == 0x1004 || last_external.code == 0x1005) {
    /* Conditions, not events: end them, or they interrupt again at once. */
    uint64_t never = ~0ULL, far = 0x7fffffffffffffffULL;
    if (last_external.code == 0x1004) __asm__ volatile("sckc %0" : : "Q"(never));
    else __asm__ volatile("spt %0" : : "Q"(far));
    LC64(LC_EXT_OLD_PSW) &= ~PSW_MASK_WAIT; /* a wait it ended goes on after the wait */
  }
  if (last_external.code == 0x1201) LC64(LC_EXT_OLD_PSW) &= ~PSW_MASK_WAIT;
}

void io_handler(void) {
  log_taken('I', 0, LC_IO_OLD_PSW);
  last_io.count++;
  last_io.sid = LC32(LC_SUBSYSTEM_ID);
  last_io.parameter = LC32(LC_IO_PARAM);
  last_io.id = LC32(LC_IO_ID);
  last_io.old_mask = LC64(LC_IO_OLD_PSW);
  LC64(LC_IO_OLD_PSW) &= ~PSW_MASK_WAIT; /* a wait it ended goes on after the wait */
}

static void set_new_psw(uint64_t at, void (*entry)(void)) {
  LC64(at) = PSW_MASK_64;
  LC64(at + 8) = (uint64_t)(uintptr_t)entry;
}

void setup_interruptions(void) {
  set_new_psw(LC_PGM_NEW_PSW, program_entry);
  set_new_psw(LC_SVC_NEW_PSW, svc_entry);
  set_new_psw(LC_EXT_NEW_PSW, external_entry);
  set_new_psw(LC_IO_NEW_PSW, io_entry);
}

/* The service-signal subclass mask (CR0 bit 54) and the PSW's external mask. */
static void enable_service_signal(void) {
  uint64_t cr0;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(cr0));
  cr0 |= 1ULL << (63 - 54);
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0));
  uint8_t old;
  __asm__ volatile("stosm %0,0x01" : "=Q"(old) : : "memory");
}

int sclp_call(uint32_t command, void *block) {
  int cc;
  sclp_busy = 1;
  __asm__ volatile(".insn rre,0xb2200000,%1,%2\n\tipm %0\n\tsrl %0,28"
                   : "=d"(cc) : "d"(command), "a"(block) : "cc", "memory");
  if (cc) return -1;
  while (sclp_busy) {
  }
  return *(volatile uint16_t *)((uint8_t *)block + 6);
}

void sclp_setup(void) {
  enable_service_signal();
  memset(sccb, 0, 28);
  *(uint16_t *)sccb = 28;
  *(uint16_t *)(sccb + 10) = 4;             /* mask length */
  *(uint32_t *)(sccb + 16) = 0x80000000u >> (0x1a - 1); /* we send VT220 events */
  sclp_call(0x00780005, sccb);
}

/* One line of console input (without its newline) into buf, NUL-terminated: the program
   receives VT220 events (WRITE EVENT MASK), then READ EVENT DATA. -1 when there is none. */
int console_read_line(char *buf, unsigned max) {
  memset(sccb, 0, 28);
  *(uint16_t *)sccb = 28;
  *(uint16_t *)(sccb + 10) = 4;
  *(uint32_t *)(sccb + 12) = 0x80000000u >> (0x1a - 1); /* we receive VT220 events */
  *(uint32_t *)(sccb + 16) = 0x80000000u >> (0x1a - 1); /* and send them */
  sclp_call(0x00780005, sccb);
  memset(sccb, 0, sizeof sccb);
  *(uint16_t *)sccb = sizeof sccb;
  sccb[5] = 0x80; /* variable-length response */
  int response = sclp_call(0x00770005, sccb);
  if (response != 0x0020 || sccb[10] != 0x1a) return -1;
  unsigned n = *(uint16_t *)(sccb + 8) - 7, k = 0; /* event buffer header, a type byte, the data */
  for (; k < n && k + 1 < max && sccb[15 + k] != '\n'; ++k) buf[k] = (char)sccb[15 + k];
  buf[k] = 0;
  return (int)k;
}

void console_write(const char *s, unsigned n) {
  while (n) {
    unsigned part = n > 2000 ? 2000 : n;
    memset(sccb, 0, 14);
    *(uint16_t *)sccb = (uint16_t)(14 + part);
    *(uint16_t *)(sccb + 8) = (uint16_t)(6 + part);
    sccb[10] = 0x1a; /* VT220 */
    memcpy(sccb + 14, s, part);
    sclp_call(0x00760005, sccb);
    s += part, n -= part;
  }
}

/* print: %s %c %d %u %x %lx %lu %ld %llx %016llx-style zero padding and widths. */
static char line[512];
static unsigned used;

static void put(char c) {
  if (used < sizeof line) line[used++] = c;
}

static void number(unsigned long long v, unsigned base, int negative, int width, char pad) {
  char digits[24];
  int n = 0;
  do digits[n++] = "0123456789abcdef"[v % base], v /= base;
  while (v);
  if (negative) digits[n++] = '-';
  while (width-- > n) put(pad);
  while (n) put(digits[--n]);
}

void print(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  used = 0;
  for (; *fmt; ++fmt) {
    if (*fmt != '%') {
      put(*fmt);
      continue;
    }
    ++fmt;
    char pad = ' ';
    int width = 0, longs = 0;
    if (*fmt == '0') pad = '0', ++fmt;
    while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    while (*fmt == 'l') ++longs, ++fmt;
    switch (*fmt) {
      case 's': for (const char *s = va_arg(ap, const char *); *s; ++s) put(*s); break;
      case 'c': put((char)va_arg(ap, int)); break;
      case 'd': {
        long long v = longs ? va_arg(ap, long long) : va_arg(ap, int);
        number(v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, v < 0, width, pad);
        break;
      }
      case 'u': number(longs ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 10, 0, width, pad); break;
      case 'x': number(longs ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), 16, 0, width, pad); break;
      case '%': put('%'); break;
      default: put('?'); break;
    }
  }
  va_end(ap);
  console_write(line, used);
}
