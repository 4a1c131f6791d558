/* time(), clock_gettime, gettimeofday and nanosleep: only facts that hold on any
   clock are printed (time after 2020, monotonic time does not go back, a sleep of
   2 ms advances it by at least 2 ms). */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static long long ns(const struct timespec* t) { return t->tv_sec * 1000000000LL + t->tv_nsec; }

int main(void) {
  time_t now = time(NULL);
  printf("time after 2020: %s\n", now > 1577836800 ? "yes" : "no");
  struct timespec a, b, res;
  clock_gettime(CLOCK_MONOTONIC, &a);
  volatile long sink = 0;
  for (long k = 0; k < 100000; ++k) sink += k;
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("monotonic does not go back: %s\n", ns(&b) >= ns(&a) ? "yes" : "no");
  struct timespec two_ms = {0, 2000000};
  nanosleep(&two_ms, NULL);
  clock_gettime(CLOCK_MONOTONIC, &a);
  printf("a 2 ms sleep advances it: %s\n", ns(&a) - ns(&b) >= 2000000 ? "yes" : "no");
  struct timeval tv;
  gettimeofday(&tv, NULL);
  printf("gettimeofday agrees with time: %s\n", tv.tv_sec >= now && tv.tv_sec - now < 60 ? "yes" : "no");
  printf("clock_getres: %s\n", clock_getres(CLOCK_MONOTONIC, &res) == 0 && ns(&res) > 0 ? "ok" : "failed");
  struct tm tm;
  gmtime_r(&now, &tm);
  printf("gmtime year after 2020: %s\n", tm.tm_year + 1900 > 2020 ? "yes" : "no");
  return 0;
}
