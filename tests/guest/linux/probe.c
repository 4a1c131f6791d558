/* Facts of tpfemu's Linux personality that QEMU does not share (so no differential
   test): argv[1] picks what to print, tests/unit/test_linux_exec.cpp checks it.

   auxv      the auxiliary vector, the environment and AT_RANDOM's bytes
   escape    opens that must stay inside --root (argv[2]: a path to try)
   create    mkdir argv[2], a file in it written, read back, removed, the directory
             removed (each step's result)
   protect   mprotect and munmap seen through SIGSEGV's si_code
   enosys    an unsupported system call, twice
   random    8 bytes of getrandom
   timedwait a condition wait that times out after 5 ms of simulated time
   deadlock  a thread that locks a mutex it holds: it waits for ever
   leave     exit while another thread waits with a 10 s timeout
   munmap    2 threads, each 100 times: mmap 64 MB, store to every page, run a
             function copied into 16 of them, munmap (issue 48: what munmap frees
             must leave the host-memory accounting, as QEMU's munmap-pthread needs) */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char** environ;
static sigjmp_buf env;
static volatile int code;
static void on_segv(int sig, siginfo_t* si, void* uc) {
  (void)uc;
  code = si->si_code;
  siglongjmp(env, sig);
}

/* Stores to p; returns 0, or the si_code of the SIGSEGV it took. */
static int store(volatile char* p) {
  code = 0;
  if (sigsetjmp(env, 1) == 0) *p = 1;
  return code;
}
static int load(volatile char* p) {
  code = 0;
  if (sigsetjmp(env, 1) == 0) (void)*p;
  return code;
}

/* One round of "munmap": the mapping's pages stored to, 16 of them executed from. */
enum { kRoundBytes = 64 << 20, kRounds = 100, kCodePages = 16 };
static const unsigned char return_r14[] = {0x07, 0xfe};  /* BR 14 */
static void* map_touch_unmap(void* arg) {
  long failed = 0;
  for (int round = 0; round < kRounds; ++round) {
    char* p = mmap(NULL, kRoundBytes, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return (void*)1;
    for (long off = 0; off < kRoundBytes; off += 4096) p[off] = (char)round;
    for (int k = 0; k < kCodePages; ++k) {
      char* code = p + (long)k * (kRoundBytes / kCodePages);
      memcpy(code, return_r14, sizeof return_r14);
      ((void (*)(void))code)();
    }
    for (long off = 0; off < kRoundBytes; off += 4096 * 61)  /* the code pages' first bytes are code */
      if (off % (kRoundBytes / kCodePages) != 0 && p[off] != (char)round) failed = 1;
    if (munmap(p, kRoundBytes)) return (void*)1;
  }
  (void)arg;
  return (void*)failed;
}

static void* wait_long(void* arg) {
  (void)arg;
  static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  pthread_mutex_lock(&m);
  pthread_cond_timedwait(&cv, &m, &until);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "auxv";
  if (!strcmp(mode, "auxv")) {
    printf("pagesz=%lu hwcap=%#lx clktck=%lu uid=%lu euid=%lu gid=%lu egid=%lu secure=%lu\n",
           getauxval(AT_PAGESZ), getauxval(AT_HWCAP), getauxval(AT_CLKTCK), getauxval(AT_UID), getauxval(AT_EUID),
           getauxval(AT_GID), getauxval(AT_EGID), getauxval(AT_SECURE));
    printf("phnum=%lu phent=%lu phdr_set=%d entry_set=%d\n", getauxval(AT_PHNUM), getauxval(AT_PHENT),
           getauxval(AT_PHDR) != 0, getauxval(AT_ENTRY) != 0);
    printf("platform=%s execfn=%s\n", (const char*)getauxval(AT_PLATFORM), (const char*)getauxval(AT_EXECFN));
    const unsigned char* r = (const unsigned char*)getauxval(AT_RANDOM);
    printf("random=");
    for (int k = 0; k < 16; ++k) printf("%02x", r[k]);
    printf("\n");
    for (char** e = environ; *e; ++e) printf("env %s\n", *e);
    return 0;
  }
  if (!strcmp(mode, "escape")) {
    int fd = open(argv[2], O_RDONLY);
    char buf[64] = {0};
    if (fd < 0) return printf("open %s: %s\n", argv[2], strerror(errno)), 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    printf("open %s: read %zd: %s\n", argv[2], n, buf);
    return 0;
  }
  if (!strcmp(mode, "create")) {
    char file[256];
    snprintf(file, sizeof file, "%s/f.txt", argv[2]);
    printf("mkdir %d", mkdir(argv[2], 0755));
    FILE* f = fopen(file, "w");
    printf(" fopen %s", f ? "ok" : strerror(errno));
    if (f) fputs("made here\n", f), fclose(f);
    char buf[32] = {0};
    f = fopen(file, "r");
    if (f) fgets(buf, sizeof buf, f), fclose(f);
    printf(" read \"%.9s\" access %d", buf, access(file, R_OK));
    printf(" unlink %d rmdir %d access %d\n", unlink(file), rmdir(argv[2]), access(file, F_OK));
    return 0;
  }
  if (!strcmp(mode, "protect")) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    char* p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("rw store %d\n", store(p));
    mprotect(p, 4096, PROT_READ);
    printf("read-only store %d load %d\n", store(p), load(p));
    mprotect(p + 4096, 4096, PROT_NONE);
    printf("none store %d load %d\n", store(p + 4096), load(p + 4096));
    mprotect(p + 4096, 4096, PROT_READ | PROT_WRITE);
    printf("rw again store %d, kept %d\n", store(p + 4096), p[4096]);
    munmap(p + 2 * 4096, 4096);
    printf("unmapped load %d\n", load(p + 2 * 4096));
    return 0;
  }
  if (!strcmp(mode, "enosys")) {
    long a = syscall(999), b = syscall(999);
    printf("syscall 999: %ld %ld errno %s\n", a, b, errno == ENOSYS ? "ENOSYS" : "other");
    return 0;
  }
  if (!strcmp(mode, "random")) {
    unsigned char b[8];
    getrandom(b, sizeof b, 0);
    for (int k = 0; k < 8; ++k) printf("%02x", b[k]);
    printf("\n");
    return 0;
  }
  if (!strcmp(mode, "timedwait")) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    struct timespec before, until, after;
    clock_gettime(CLOCK_REALTIME, &before);
    until = before;
    until.tv_nsec += 5000000;
    if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
    pthread_mutex_lock(&m);
    int rc = pthread_cond_timedwait(&cv, &m, &until);
    pthread_mutex_unlock(&m);
    clock_gettime(CLOCK_REALTIME, &after);
    long long waited = (after.tv_sec - before.tv_sec) * 1000000000LL + (after.tv_nsec - before.tv_nsec);
    printf("timedwait: %s, waited at least 5 ms: %d, less than 6 ms: %d\n", rc == ETIMEDOUT ? "ETIMEDOUT" : "other",
           waited >= 5000000, waited < 6000000);
    return 0;
  }
  if (!strcmp(mode, "leave")) {
    pthread_t t;
    pthread_create(&t, NULL, wait_long, NULL);
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);  /* it is waiting now */
    printf("leaving\n");
    return 3;
  }
  if (!strcmp(mode, "munmap")) {
    pthread_t t[2];
    void* r[2];
    for (int k = 0; k < 2; ++k) pthread_create(&t[k], NULL, map_touch_unmap, NULL);
    for (int k = 0; k < 2; ++k) pthread_join(t[k], &r[k]);
    printf("munmap: %d rounds of 64 MB in 2 threads: %s\n", kRounds, r[0] || r[1] ? "FAILED" : "ok");
    return 0;
  }
  if (!strcmp(mode, "deadlock")) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    printf("locking twice\n");
    fflush(stdout);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    printf("not reached\n");
    return 0;
  }
  return 1;
}
