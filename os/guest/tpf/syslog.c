/* syslog(): under the syslog simple lock, format the message straight into the next
   record of the shared ring and commit it (see tpf_syslog.h for the protocol the
   host relies on). Formatting in place keeps the line in one copy, but it is the
   longest part of the call, so the lock is held for most of it: with ECBs logging
   on several I-streams, they queue for the lock, and how they wait for it is what
   the simple lock algorithm decides. */
#include <simplelock.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <tpf.h>
#include <tpf_syslog.h>

_Static_assert(sizeof(struct tpf_syslog_record) == TPF_SYSLOG_RECORD_SIZE, "record size");
_Static_assert(sizeof(struct tpf_syslog_ctl) == 512, "control lines");
_Static_assert(TPF_SYSLOG_LOCK_OFFSET + sizeof(simplelock_t) <= TPF_SYSLOG_CTL_OFFSET, "lock fits");
_Static_assert(TPF_SYSLOG_END <= SLOCK_QNODE_OFFSET, "syslog ring below the lock nodes");

#define SYSLOG_LOCK ((simplelock_t *)(TPF_SHARED_AREA + TPF_SYSLOG_LOCK_OFFSET))
#define SYSLOG_CTL ((struct tpf_syslog_ctl *)(TPF_SHARED_AREA + TPF_SYSLOG_CTL_OFFSET))
#define SYSLOG_RECORD(i) \
  ((struct tpf_syslog_record *)(TPF_SHARED_AREA + TPF_SYSLOG_RECORDS_OFFSET) + (i) % TPF_SYSLOG_RECORDS)

void vsyslog(int priority, const char *fmt, va_list ap) {
  volatile struct tpf_syslog_ctl *ctl = SYSLOG_CTL;
  for (;;) {
    simple_lock(SYSLOG_LOCK);
    ctl->checked = ctl->checked + 1;
    uint64_t p = ctl->producer;
    if (p - ctl->consumer < TPF_SYSLOG_RECORDS) {
      struct tpf_syslog_record *r = SYSLOG_RECORD(p);
      int n = vsnprintf(r->text, sizeof r->text, fmt, ap);
      if (n < 0) n = 0;
      if (n > (int)sizeof r->text - 1) n = (int)sizeof r->text - 1; /* truncated */
      while (n > 0 && r->text[n - 1] == '\n') --n;
      r->length = (uint16_t)n;
      r->priority = (uint8_t)(priority & 7);
      r->tod = slock_tod();
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
