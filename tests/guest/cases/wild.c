/* A store through a wild pointer: an addressing exception at the failing address. */
int main(void) {
  volatile long *p = (long *)0x123450;
  *p = 1;
  return 0;
}
