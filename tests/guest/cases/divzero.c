/* Integer division by zero: a fixed-point-divide exception (Linux: SIGFPE). */
#include <stdio.h>
int main(void) {
  volatile long a = 42, b = 0;
  printf("dividing\n");
  return (int)(a / b);
}
