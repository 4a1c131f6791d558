/* The TPF services as C calls (tpf.h), each one SVC with the ABI of tpf_svc.h.
   Nothing here keeps static data but tpf_process_threaded: programs are shared by
   every ECB, and a wrapper must not make an ECB touch writable storage it does not
   own. */
#include <stdio.h>
#include <tpf.h>

#include "svc.h"

void tpf_exit(int rc) {
  TPF_SVC1(TPF_SVC_EXIT, rc);
  __builtin_trap(); /* not reached: if the host ever returned, fail here, loudly */
}

int tpf_enter(const char *name, void *msg, long len) {
  tpf_program *prog = name ? (tpf_program *)TPF_SVC1(TPF_SVC_ENTER, name) : 0;
  if (!prog) {
    tpf_log("tpf_enter: %.32s is not a program", name ? name : "(null)");
    return -1;
  }
  int rc = prog(msg, len);
  /* BACK tells the control program the entered program has returned (its linkage
     accounting); it gets the return value in r2 for a trace to show. */
  TPF_SVC1(TPF_SVC_BACK, rc);
  return rc;
}

long tpf_create(const char *name, const void *msg, long len, int how) {
  if (!name) return -1;
  return TPF_SVC4(TPF_SVC_CREATE, name, msg, len, how);
}

void tpf_defrc(void) { TPF_SVC0(TPF_SVC_DEFER); }

void tpf_delay_us(unsigned long us) { TPF_SVC1(TPF_SVC_DELAY, us); }

void *tpf_getstor(unsigned long bytes) { return (void *)TPF_SVC1(TPF_SVC_GETSTOR, bytes); }

void *tpf_getstor_vio(unsigned long bytes) { return (void *)TPF_SVC1(TPF_SVC_GETSTOR_VIO, bytes); }

int tpf_relstor(void *block) { return (int)TPF_SVC1(TPF_SVC_RELSTOR, block); }

/* Static storage is the process's: set once it has threads (so the ECB heap knows
   whether it must serialize). Not in the rule above: it is written once per process. */
volatile int tpf_process_threaded;

long tpf_thread_create(void *(*fn)(void *), void *arg) {
  if (!fn) return -1;
  tpf_process_threaded = 1;
  return TPF_SVC2(TPF_SVC_THREAD_CREATE, fn, arg);
}

void *tpf_thread_join(long tid) { return (void *)TPF_SVC1(TPF_SVC_THREAD_JOIN, tid); }

void tpf_thread_exit(void *value) {
  TPF_SVC1(TPF_SVC_THREAD_EXIT, value);
  __builtin_trap(); /* not reached */
}

void tpf_wait(long event) { TPF_SVC1(TPF_SVC_WAIT, event); }

void tpf_post(long event) { TPF_SVC1(TPF_SVC_POST, event); }

int tpf_word_wait(volatile void *word, unsigned long expected) {
  return (int)TPF_SVC2(TPF_SVC_WORD_WAIT, word, expected);
}

long tpf_word_wake(volatile void *word, long n) { return TPF_SVC2(TPF_SVC_WORD_WAKE, word, n); }

unsigned long tpf_heap_frame(int area64) { return (unsigned long)TPF_SVC1(TPF_SVC_HEAP_FRAME, area64); }

int tpf_le_start(void *enclave, const char *program) { return (int)TPF_SVC2(TPF_SVC_LE_START, enclave, program); }
void tpf_le_end(void *enclave) { TPF_SVC1(TPF_SVC_LE_END, enclave); }
unsigned long tpf_le_available(int below) { return (unsigned long)TPF_SVC1(TPF_SVC_LE_AVAILABLE, below); }
void *tpf_le_getmain(unsigned long bytes, int below) { return (void *)TPF_SVC2(TPF_SVC_LE_GETMAIN, bytes, below); }
void tpf_le_freemain(void *address, unsigned long bytes) { TPF_SVC2(TPF_SVC_LE_FREEMAIN, address, bytes); }

void tpf_heap_error(int check, const void *address, const void *caller) {
  TPF_SVC4(TPF_SVC_HEAP_ERROR, check, address, caller, 0);
  __builtin_trap(); /* not reached */
}

void tpf_heap_lock(void) { TPF_SVC0(TPF_SVC_HEAP_LOCK); }

void tpf_heap_unlock(void) { TPF_SVC0(TPF_SVC_HEAP_UNLOCK); }

long tpf_ecb_info(int what) { return TPF_SVC1(TPF_SVC_ECB_INFO, what); }

/* Formats on the stack (no static buffer: ECBs on other I-streams log at the same
   time) and hands the line to the control program in one SVC. */
int tpf_vlog(const char *fmt, va_list ap) {
  char line[TPF_LOG_MAX];
  int n = vsnprintf(line, sizeof line, fmt, ap);
  if (n < 0) n = 0;
  if (n > (int)sizeof line - 1) n = (int)sizeof line - 1; /* vsnprintf truncated it */
  while (n > 0 && line[n - 1] == '\n') --n;
  TPF_SVC2(TPF_SVC_LOG, line, n);
  return n;
}

int tpf_log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = tpf_vlog(fmt, ap);
  va_end(ap);
  return n;
}
