/* QSPN: a program that never ends, as a looping application does: it never gives
   up control, so the control program must time-slice it and, past the CPU time
   limit (system.timeout_ms), end it with a CTL-10-style dump while every other ECB
   keeps running. The counter is volatile so the loop does storage work each turn
   (a load and a store on the ECB's stack) rather than being a bare branch. */
#include "apps.h"

int QSPN(void *msg, long len) {
  (void)msg, (void)len;
  tpf_log("QSPN: looping until the control program ends this ECB");
  volatile unsigned long turns = 0;
  for (;;) turns = turns + 1;
}
