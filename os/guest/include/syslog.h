/* syslog() for guest programs: one line to the system log, which every ECB shares
   (a ring buffer in the shared system area, serialized by a simple lock; the
   control program writes it to the run's syslog.log). Lines are at most
   TPF_SYSLOG_TEXT_MAX - 1 bytes (longer ones are cut); a trailing newline is
   dropped. syslog may give up control (while waiting for the lock, or when the
   ring is full), never loses a line. */
#ifndef SYSLOG_H
#define SYSLOG_H
#include <stdarg.h>

#define LOG_EMERG 0
#define LOG_ALERT 1
#define LOG_CRIT 2
#define LOG_ERR 3
#define LOG_WARNING 4
#define LOG_NOTICE 5
#define LOG_INFO 6
#define LOG_DEBUG 7

/* Facilities (priority = facility | level), as in POSIX <syslog.h>. */
#define LOG_KERN (0 << 3)
#define LOG_USER (1 << 3)
#define LOG_DAEMON (3 << 3)
#define LOG_LOCAL0 (16 << 3)

/* openlog's ident names the lines of this ECB (default "tpf"), facility is used when a
   priority has none (default LOG_USER); option is accepted and ignored. The ident
   string must stay valid: it is kept as a pointer, per ECB. */
void openlog(const char *ident, int option, int facility);
void closelog(void);

/* Each line: "<PRI>TIMESTAMP IDENT[ECB]: message", the time stamp (RFC 3339, to the
   microsecond, UTC) taken under the lock so that the log is in time order. */
void syslog(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vsyslog(int priority, const char *fmt, va_list ap);

#endif
