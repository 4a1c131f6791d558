/* pthread.h over the thread services. A thread function has exactly the shape the
   control program starts (r2 = arg, value returned in r2, r14 = __tpf_thread_return),
   so no trampoline or per-thread block is needed. */
#include <pthread.h>
#include <tpf.h>

int pthread_create(pthread_t *thread, const void *attr, void *(*start)(void *), void *arg) {
  if (attr || !start) return EINVAL;
  long tid = tpf_thread_create(start, arg);
  if (tid <= 0) return EAGAIN; /* the process has system.max_threads threads already */
  if (thread) *thread = (pthread_t)tid;
  return 0;
}

int pthread_join(pthread_t thread, void **value) {
  if (thread == 0) return ESRCH; /* the ECB itself is not a joinable thread */
  void *v = tpf_thread_join((long)thread);
  if (value) *value = v;
  return 0;
}

void pthread_exit(void *value) { tpf_thread_exit(value); }

pthread_t pthread_self(void) { return (pthread_t)tpf_ecb_info(TPF_INFO_THREAD); }
