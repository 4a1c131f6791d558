/* The TPF application runtime: plain-C calls for the control program's services
   (os/guest/include/tpf_svc.h is the ABI underneath). Link os/guest/tpf with the
   programs; an application program is a C function with external linkage whose
   name is the program's (four characters, z/TPF style) and whose type is
   tpf_program:

       int QZZ0(void *msg, long len);

   It starts with msg/len = the input message in the ECB's storage (msg may be 0
   when len is 0). Returning from it exits the ECB, like tpf_exit(return value).

   Output: tpf_log writes one line to the run's log at once. printf's output is
   buffered by the C runtime and only flushed by exit(), fflush(stdout) or a full
   buffer; returning from the program or tpf_exit() do not flush it, so that an ECB
   that never prints never touches the C library's static data. */
#ifndef TPF_H
#define TPF_H
#include <stdarg.h>
#include <stddef.h>
#include <tpf_svc.h>

/* An application program (an ENTER target or an ECB's first program). */
typedef int tpf_program(void *msg, long len);

/* Ends the ECB with return code rc (z/TPF EXITC). Does not return. A thread ends
   itself with tpf_thread_exit instead. */
void tpf_exit(int rc) __attribute__((noreturn));

/* Calls program `name` (resolved by the control program) with msg/len and returns
   its return value, with ENTER/BACK linkage around the call. An unknown name is
   logged and returns -1. */
int tpf_enter(const char *name, void *msg, long len);

/* Creates a new ECB running program `name` on a copy of msg/len (the control
   program copies it before returning). how: TPF_CREATE_IMMEDIATE (this I-stream's
   ready list), TPF_CREATE_DEFERRED (its deferred list) or TPF_CREATE_ANY (the
   shared cross list). Returns the new ECB's number, or -1. */
long tpf_create(const char *name, const void *msg, long len, int how);

/* Gives up control: the ECB goes to the bottom of the deferred list (z/TPF DEFRC). */
void tpf_defrc(void);

/* Gives up control for at least `us` simulated microseconds. */
void tpf_delay_us(unsigned long us);

/* Zeroed system storage of at least `bytes` (whole 4 KB pages) in the ECB's 31-bit
   area, or 0 when none is left. tpf_relstor returns it (0, or negative for an
   address tpf_getstor did not give). */
void *tpf_getstor(unsigned long bytes);
/* The same for virtual I/O storage (a temporary data set kept in virtual storage, z/OS's
   VIO): when real storage runs out its pages go to page data sets on DASD only, never to
   Flash. tpf_relstor returns it too. */
void *tpf_getstor_vio(unsigned long bytes);
/* The same above the bar (the 64-bit system area, TPF_EVM_SYSTEM64): for storage larger
   than the 31-bit area holds (E3's night at full size). tpf_relstor returns it too.
   Inline, so that the runtime's code (and every image's layout) stays as it was. */
static inline void *tpf_getstor64(unsigned long bytes) {
  register long r2 __asm__("r2") = (long)bytes;
  __asm__ volatile("svc %[n]" : "+d"(r2) : [n] "i"(TPF_SVC_GETSTOR64) : "r0", "r1", "r3", "r4", "r5", "cc", "memory");
  return (void *)r2;
}
int tpf_relstor(void *block);

/* Threads of this ECB's process: they share its address space and heap and may
   run on any I-stream. A thread starts at fn(arg); returning from fn exits the
   thread with the returned value. tpf_thread_create returns the thread id (from 1),
   or -1; tpf_thread_join waits for the thread to end and returns its value. See
   also <pthread.h>. */
long tpf_thread_create(void *(*fn)(void *), void *arg);
void *tpf_thread_join(long tid);
void tpf_thread_exit(void *value) __attribute__((noreturn));

/* Event counters, system-wide by number: tpf_wait gives up control until the event
   has been posted (consuming one post); tpf_post posts it once (waking one waiter). */
void tpf_wait(long event);
void tpf_post(long event);

/* Waiting on a storage word (the control program's part of locks that give up
   control): tpf_word_wait gives up control while *word == expected, until a
   tpf_word_wake on the same storage (returns 0), or returns 1 at once if the word
   differs. tpf_word_wake wakes up to n of the ECBs waiting on it and returns how many. */
int tpf_word_wait(volatile void *word, unsigned long expected);

/* The ECB heap's services (heap/guest): the next 1 MB of an area (0: 31-bit, 1: 64-bit;
   returns its address or 0 when full), an error that ends the ECB with a dump, and
   the process's heap lock (an SVC each way: what baseline serializes with). */
unsigned long tpf_heap_frame(int area64);

/* Language Environment storage (le/guest, tpf_svc.h TPF_SVC_LE_*): whether this ECB's
   program runs on LE storage (its user heap's options set), and its region's storage. */
int tpf_le_start(void *enclave, const char *program);
void tpf_le_end(void *enclave);
unsigned long tpf_le_available(int below);
void *tpf_le_getmain(unsigned long bytes, int below);
void tpf_le_freemain(void *address, unsigned long bytes);
extern volatile int tpf_process_threaded; /* 1 once this process created a thread */
void tpf_heap_error(int check, const void *address, const void *caller) __attribute__((noreturn));
void tpf_heap_lock(void);
void tpf_heap_unlock(void);
long tpf_word_wake(volatile void *word, long n);

/* One line to the run's log, formatted as by printf (at most TPF_LOG_MAX - 1
   bytes; a trailing newline is dropped). Returns the bytes logged. */
#define TPF_LOG_MAX 256
int tpf_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tpf_vlog(const char *fmt, va_list ap);

/* What the control program knows about this ECB: TPF_INFO_ECB, TPF_INFO_ISTREAM,
   TPF_INFO_ISTREAMS, TPF_INFO_THREAD, TPF_INFO_TIME_US (simulated time; the only
   clock a program may read). */
long tpf_ecb_info(int what);

/* Where programs and threads return to (the control program puts these addresses
   in r14 at entry); not called from C. */
void __tpf_ecb_return(void);
void __tpf_thread_return(void);

#endif
