/* Prints a line and exits 0; the smallest useful guest program. */
#include <stdio.h>
int main(int argc, char **argv) {
  printf("hello from s390x, argc=%d argv[0] ends with %s\n", argc, argv[0] + (__builtin_strlen(argv[0]) - 4));
  return 0;
}
