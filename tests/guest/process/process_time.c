// Time and signals as Linux gives them: alarm, setitimer/getitimer, POSIX timers
// (SIGEV_SIGNAL, SIGEV_THREAD_ID, glibc's SIGEV_THREAD), and a signal that arrives during
// a blocking call: read, waitpid, nanosleep, sigsuspend, pause and sigtimedwait end with
// EINTR, or go on after the handler with SA_RESTART. Run under tpfemu exec (simulated
// time) and under qemu-s390x-static (the host's): the same output. Every wait is long
// against what it waits for, so that the order of events is the same on both.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "say.h"

static const char* err(void) { return strerrorname_np(errno); }

static volatile sig_atomic_t alarms, last_code, last_value, handler_tid;
static void on_alarm(int s) { (void)s; alarms++; }
static void on_info(int s, siginfo_t* si, void* uc) {
  (void)s, (void)uc;
  alarms++;
  last_code = si->si_code;
  last_value = si->si_value.sival_int;
  handler_tid = (int)syscall(SYS_gettid);
}

static void handle(int signo, void (*fn)(int), int flags) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sa.sa_flags = flags;
  sigaction(signo, &sa, NULL);
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static void alarms_and_itimers(void) {
  handle(SIGALRM, on_alarm, 0);
  say("alarm(5) first: %u; alarm(0) then: %u\n", alarm(5), alarm(0));
  alarms = 0;
  alarm(1);
  pause();
  say("pause ended by the alarm: alarms %d\n", (int)alarms);

  struct itimerval it = {{0, 20000}, {0, 20000}}, old;
  alarms = 0;
  say("setitimer: %d\n", setitimer(ITIMER_REAL, &it, NULL));
  sigset_t none;
  sigemptyset(&none);
  while (alarms < 5) sigsuspend(&none);
  memset(&it, 0, sizeof it);
  setitimer(ITIMER_REAL, &it, &old);
  say("five SIGALRMs from an interval timer; its interval was %ld us\n", (long)old.it_interval.tv_usec);
  getitimer(ITIMER_REAL, &old);
  say("disarmed: %ld %ld\n", (long)old.it_value.tv_sec, (long)old.it_value.tv_usec);

  // A signal reaches a thread that makes no system call (a busy loop), as an interrupt.
  struct itimerval fast = {{0, 1000}, {0, 1000}};
  alarms = 0;
  setitimer(ITIMER_REAL, &fast, NULL);
  volatile unsigned long spins = 0;
  while (alarms < 10) spins++;
  memset(&fast, 0, sizeof fast);
  setitimer(ITIMER_REAL, &fast, NULL);
  say("ten SIGALRMs reached a busy loop: %s\n", alarms >= 10 ? "yes" : "no");
}

static void* sleeper(void* arg) {
  (void)arg;
  *(volatile int*)arg = (int)syscall(SYS_gettid);
  sleep_ms(300);
  return NULL;
}

static int thread_fired;
static pthread_mutex_t fired_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fired_cond = PTHREAD_COND_INITIALIZER;
static void on_expiry(union sigval v) {
  pthread_mutex_lock(&fired_lock);
  thread_fired = v.sival_int;
  pthread_cond_signal(&fired_cond);
  pthread_mutex_unlock(&fired_lock);
}

static void posix_timers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_info;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGRTMIN, &sa, NULL);
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGRTMIN;
  ev.sigev_value.sival_int = 42;
  timer_t t;
  say("timer_create: %d\n", timer_create(CLOCK_MONOTONIC, &ev, &t));
  struct itimerspec its = {{0, 0}, {0, 30000000}}, cur;
  alarms = 0;
  timer_settime(t, 0, &its, NULL);
  timer_gettime(t, &cur);
  say("armed: value set %s, interval %ld\n", cur.it_value.tv_nsec > 0 || cur.it_value.tv_sec > 0 ? "yes" : "no",
      (long)cur.it_interval.tv_nsec);
  while (!alarms) pause();
  say("fired: si_code SI_TIMER %s, value %d\n", last_code == SI_TIMER ? "yes" : "no", (int)last_value);
  timer_gettime(t, &cur);
  say("after: value %ld %ld, overrun %d\n", (long)cur.it_value.tv_sec, (long)cur.it_value.tv_nsec, timer_getoverrun(t));
  // Absolute time on CLOCK_REALTIME.
  timer_t r;
  ev.sigev_value.sival_int = 7;
  timer_create(CLOCK_REALTIME, &ev, &r);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  its.it_value.tv_sec = now.tv_sec, its.it_value.tv_nsec = now.tv_nsec + 20000000;
  if (its.it_value.tv_nsec >= 1000000000) its.it_value.tv_sec++, its.it_value.tv_nsec -= 1000000000;
  alarms = 0;
  timer_settime(r, TIMER_ABSTIME, &its, NULL);
  while (!alarms) pause();
  say("absolute CLOCK_REALTIME timer fired, value %d\n", (int)last_value);
  say("timer_delete: %d %d\n", timer_delete(t), timer_delete(r));
  errno = 0;
  say("timer_settime of a deleted timer: %d %s\n", timer_settime(t, 0, &its, NULL), err());

  // SIGEV_THREAD_ID: the signal goes to the thread named.
  volatile int tid = 0;
  pthread_t th;
  pthread_create(&th, NULL, sleeper, (void*)&tid);
  while (!tid) sleep_ms(1);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev._sigev_un._tid = tid;
  ev.sigev_value.sival_int = 9;
  timer_create(CLOCK_MONOTONIC, &ev, &t);
  its.it_value.tv_sec = 0, its.it_value.tv_nsec = 20000000;
  alarms = 0;
  timer_settime(t, 0, &its, NULL);
  pthread_join(th, NULL);
  say("SIGEV_THREAD_ID: fired %d, in the named thread %s\n", (int)alarms, handler_tid == tid ? "yes" : "no");
  timer_delete(t);

  // glibc's SIGEV_THREAD: the function runs in a thread of glibc's.
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = on_expiry;
  ev.sigev_value.sival_int = 77;
  say("SIGEV_THREAD timer_create: %d\n", timer_create(CLOCK_MONOTONIC, &ev, &t));
  timer_settime(t, 0, &its, NULL);
  pthread_mutex_lock(&fired_lock);
  while (!thread_fired) pthread_cond_wait(&fired_cond, &fired_lock);
  pthread_mutex_unlock(&fired_lock);
  say("SIGEV_THREAD ran with value %d\n", thread_fired);
  timer_delete(t);
}

static void interrupted_calls(void) {
  int p[2];
  pipe(p);
  char b[8];
  // No SA_RESTART: a blocking read ends with EINTR.
  handle(SIGALRM, on_alarm, 0);
  alarms = 0;
  alarm(1);
  errno = 0;
  ssize_t n = read(p[0], b, sizeof b);
  say("read interrupted: %zd %s, handler ran %d\n", n, err(), (int)alarms);

  // SA_RESTART: the read goes on and gets the child's bytes.
  handle(SIGALRM, on_alarm, SA_RESTART);
  alarms = 0;
  pid_t c = fork();
  if (c == 0) {
    sleep_ms(1500);
    write(p[1], "late", 4);
    _exit(0);
  }
  alarm(1);
  n = read(p[0], b, sizeof b);
  say("read restarted: %zd '%.4s', handler ran %d\n", n, b, (int)alarms);
  waitpid(c, NULL, 0);

  // waitpid: EINTR, then restarted.
  handle(SIGALRM, on_alarm, 0);
  c = fork();
  if (c == 0) {
    sleep_ms(1500);
    _exit(3);
  }
  alarm(1);
  int st;
  errno = 0;
  say("waitpid interrupted: %d %s\n", (int)waitpid(c, &st, 0), err());
  handle(SIGALRM, on_alarm, SA_RESTART);
  c = fork();
  if (c == 0) {
    sleep_ms(1500);
    _exit(4);
  }
  alarm(1);
  say("waitpid restarted: ok %s, status %d\n", waitpid(c, &st, 0) == c ? "yes" : "no", WEXITSTATUS(st));
  while (waitpid(-1, NULL, 0) > 0) {}

  // nanosleep: EINTR with the time left, whatever SA_RESTART says.
  alarm(1);
  struct timespec ts = {3, 0}, rem = {0, 0};
  errno = 0;
  int r = nanosleep(&ts, &rem);
  say("nanosleep interrupted: %d %s, time left between 1 and 3 s: %s\n", r, err(),
      rem.tv_sec >= 1 && rem.tv_sec < 3 ? "yes" : "no");

  // sigsuspend and sigtimedwait.
  sigset_t usr1, old;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_BLOCK, &usr1, &old);
  c = fork();
  if (c == 0) {
    sleep_ms(100);
    kill(getppid(), SIGUSR1);
    _exit(0);
  }
  siginfo_t si;
  r = sigwaitinfo(&usr1, &si);
  say("sigwaitinfo: %s, from the child %s, code SI_USER %s\n", r == SIGUSR1 ? "SIGUSR1" : "other",
      si.si_pid == c ? "yes" : "no", si.si_code == SI_USER ? "yes" : "no");
  waitpid(c, NULL, 0);
  struct timespec short_wait = {0, 50000000};
  errno = 0;
  say("sigtimedwait times out: %d %s\n", sigtimedwait(&usr1, &si, &short_wait), err());
  raise(SIGUSR1);
  sigset_t pending;
  sigpending(&pending);
  say("raised while blocked: pending %d\n", sigismember(&pending, SIGUSR1));
  handle(SIGUSR1, on_alarm, 0);
  alarms = 0;
  errno = 0;
  r = sigsuspend(&old);
  say("sigsuspend: %d %s, handler ran %d, mask back: %d\n", r, err(), (int)alarms,
      (sigprocmask(SIG_BLOCK, NULL, &pending), sigismember(&pending, SIGUSR1)));
  sigprocmask(SIG_SETMASK, &old, NULL);
  close(p[0]), close(p[1]);
}

int main(void) {
  alarms_and_itimers();
  posix_timers();
  interrupted_calls();
  return 0;
}
