/* exit(5) called from deep inside nested calls: the stack is abandoned, buffered
   output is flushed, and the status is 5. Output written after the call must never
   appear. */
#include <stdio.h>
#include <stdlib.h>

static void __attribute__((noinline)) level3(int v) {
  printf("level3 got %d, exiting with 5\n", v);
  if (v == 42) exit(5);
  printf("not reached\n");
}
static void __attribute__((noinline)) level2(int v) {
  printf("level2\n");
  level3(v * 2);
  printf("not reached either\n");
}
static void __attribute__((noinline)) level1(int v) {
  printf("level1\n");
  level2(v + 1);
}

int main(void) {
  /* enough output to need more than one buffer flush */
  for (int i = 0; i < 300; ++i) printf("line %03d of output before exit: %s\n", i, "................");
  level1(20);
  printf("main continues (wrong)\n");
  return 0;
}
