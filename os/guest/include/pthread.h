/* POSIX-style threads over the control program's thread services (tpf.h): the
   subset application programs use. Threads share the ECB's address space and heap;
   the C runtime's malloc is not thread-safe, so threads that allocate concurrently
   must serialize their calls (QTHR shows how). */
#ifndef TPFEMU_PTHREAD_H
#define TPFEMU_PTHREAD_H

typedef unsigned long pthread_t; /* the control program's thread id; 0 is the ECB itself */

/* attr must be 0: stack size and the like are the control program's settings
   (system.stack_size, system.max_threads). Returns 0, EAGAIN (no thread left) or
   EINVAL (attr given). */
int pthread_create(pthread_t *thread, const void *attr, void *(*start)(void *), void *arg);
/* Waits for the thread to end; its value (returned or given to pthread_exit) goes
   to *value when value is not 0. Returns 0, or ESRCH for thread 0. */
int pthread_join(pthread_t thread, void **value);
void pthread_exit(void *value) __attribute__((noreturn));
pthread_t pthread_self(void);
static inline int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

#ifndef EAGAIN
#define ESRCH 3
#define EAGAIN 11
#define EINVAL 22
#endif
#endif
