/* syslog(): as the C library does it, the whole line is made under the syslog lock:
   take the time, format the header (priority, RFC 3339 time stamp, ident and ECB
   number) and the message straight into the next record of the shared ring, and
   commit it (see tpf_syslog.h for the protocol the host relies on). Taking the time
   under the lock keeps the log in time order; formatting in place keeps the line in
   one copy. So the lock is held for most of the call, and with ECBs logging on
   several I-streams they queue for it: how they wait is what the simple lock
   algorithm decides. */
#include <simplelock.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <tpf.h>
#include <tpf_syslog.h>

_Static_assert(sizeof(struct tpf_syslog_record) == TPF_SYSLOG_RECORD_SIZE, "record size");
_Static_assert(sizeof(struct tpf_syslog_ctl) == 512, "control lines");
_Static_assert(TPF_SYSLOG_LOCK_OFFSET + sizeof(simplelock_t) <= TPF_SYSLOG_CTL_OFFSET, "lock fits");

/* Per ECB (static storage is the process's own). */
static const char *syslog_ident;
static int syslog_facility = LOG_USER;
static long syslog_ecb = -1;

void openlog(const char *ident, int option, int facility) {
  (void)option;
  syslog_ident = ident;
  if (facility & ~0x3f8) facility = LOG_USER;
  syslog_facility = facility ? facility : LOG_USER;
}

void closelog(void) { syslog_ident = 0; }

/* Civil date from days since 1970-01-01 (proleptic Gregorian; H. Hinnant's method). */
static void civil(long z, int *y, int *m, int *d) {
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const long doe = z - era * 146097;
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = (int)(yoe + era * 400 + (*m <= 2));
}

/* "<PRI>YYYY-MM-DDThh:mm:ss.uuuuuuZ IDENT[ECB]: " from a TOD clock value. */
static int syslog_header(char *out, size_t size, int priority, uint64_t tod) {
  const uint64_t us = (tod >> 12) - 2208988800ULL * 1000000ULL; /* TOD epoch 1900 -> 1970 */
  const uint64_t secs = us / 1000000;
  const long days = (long)(secs / 86400);
  const unsigned sod = (unsigned)(secs % 86400);
  int y, mo, d;
  civil(days, &y, &mo, &d);
  if (!(priority & ~7)) priority |= syslog_facility;
  if (syslog_ecb < 0) syslog_ecb = tpf_ecb_info(TPF_INFO_ECB);
  return snprintf(out, size, "<%d>%04d-%02d-%02dT%02u:%02u:%02u.%06luZ %s[%ld]: ", priority, y, mo, d, sod / 3600,
                  sod / 60 % 60, sod % 60, (unsigned long)(us % 1000000), syslog_ident ? syslog_ident : "tpf",
                  syslog_ecb);
}

#define SYSLOG_LOCK ((simplelock_t *)(TPF_EVM_SHARED + TPF_SYSLOG_LOCK_OFFSET))
#define SYSLOG_CTL ((struct tpf_syslog_ctl *)(TPF_EVM_SHARED + TPF_SYSLOG_CTL_OFFSET))
#define SYSLOG_RECORD(i) \
  ((struct tpf_syslog_record *)(TPF_EVM_SHARED + TPF_SYSLOG_RECORDS_OFFSET) + (i) % TPF_SYSLOG_RECORDS)

void vsyslog(int priority, const char *fmt, va_list ap) {
  volatile struct tpf_syslog_ctl *ctl = SYSLOG_CTL;
  for (;;) {
    simple_lock(SYSLOG_LOCK);
    ctl->checked = ctl->checked + 1;
    uint64_t p = ctl->producer;
    if (p - ctl->consumer < TPF_SYSLOG_RECORDS) {
      struct tpf_syslog_record *r = SYSLOG_RECORD(p);
      const uint64_t now = slock_tod();
      int h = syslog_header(r->text, sizeof r->text, priority, now);
      if (h < 0) h = 0;
      if (h > (int)sizeof r->text - 1) h = (int)sizeof r->text - 1;
      int n = vsnprintf(r->text + h, sizeof r->text - (size_t)h, fmt, ap);
      if (n < 0) n = 0;
      n += h;
      if (n > (int)sizeof r->text - 1) n = (int)sizeof r->text - 1; /* truncated */
      while (n > 0 && r->text[n - 1] == '\n') --n;
      r->length = (uint16_t)n;
      r->priority = (uint8_t)(priority & 7);
      r->tod = now;
      __sync_synchronize(); /* the record before the index that commits it */
      ctl->producer = p + 1;
      simple_unlock(SYSLOG_LOCK);
      return;
    }
    ctl->full_waits = ctl->full_waits + 1;
    simple_unlock(SYSLOG_LOCK);
    tpf_defrc(); /* the ring is full: let the control program drain it */
  }
}

void syslog(int priority, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsyslog(priority, fmt, ap);
  va_end(ap);
}
