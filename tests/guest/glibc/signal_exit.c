/* A signal without a handler ends the program with status 128+signal (abort:
   SIGABRT, 134), after what it flushed is out. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  printf("before abort\n");
  fflush(stdout);
  abort();
}
