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

void syslog(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vsyslog(int priority, const char *fmt, va_list ap);

#endif
