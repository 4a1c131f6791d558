/* The exit status of main's return value: prints, then returns 3. The output
   buffered by printf must be flushed before the process exits. */
#include <stdio.h>

static int __attribute__((noinline)) compute(int n) {
  int s = 0;
  for (int i = 1; i <= n; ++i) s += i % 3 == 0 ? i : 0;
  return s;
}

int main(void) {
  int s = compute(100);
  printf("sum of multiples of 3 up to 100: %d\n", s);
  printf("returning %d from main\n", s == 1683 ? 3 : 1);
  return s == 1683 ? 3 : 1;
}
