/* Experiment E4, enclaves (issue 25, seed 003: "Use dynamic calls rather than linking
   to next program"): a program on Language Environment storage reaches N programs deep
   by LINK (each a new enclave: its own control blocks, initial stack and heaps) or by
   dynamic call (the caller's enclave), and the last one asks how much of the LE region
   it can still get, above the 16 MB line and below it (after a __malloc24 of 1 KB,
   given back: below-the-line storage, as an old interface would want it).

   QLEL  "L N" or "C N": N LINKs or N dynamic calls (0 <= N <= 100), each to QLEL with
         N - 1. The last logs "QLEL: L reached: B bytes (KK) still obtainable, below
         16 MB B24" and returns 0; a LINK, call or __malloc24 that fails returns 1, as
         does a message not understood.
         "5 TEXT": LINKs to QLE5 (LE-conforming: its frames are checked by LE's prologue)
         with TEXT as its message, in a new enclave on its own stack. */
#include <le_alloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tpf.h>

#include "apps.h"

int QLEL(void *msg, long len) {
  char text[16];
  if (len <= 0 || len >= (long)sizeof text) return 1;
  memcpy(text, msg, (size_t)len);
  text[len] = 0;
  const char how = text[0];
  if (how == '5' && len > 2) return le_link("QLE5", text + 2, len - 2) != 0;
  char *end = 0;
  const long n = strtol(text + 1, &end, 10);
  if ((how != 'L' && how != 'C') || end == text + 1 || n < 0 || n > 100) {
    tpf_log("QLEL: \"%s\" is not \"L N\" or \"C N\"", text);
    return 1;
  }
  if (n > 0) {
    char next[16];
    const int k = snprintf(next, sizeof next, "%c %ld", how, n - 1);
    const int rc = how == 'L' ? le_link("QLEL", next, k) : tpf_enter("QLEL", next, k);
    return rc != 0;
  }
  char *below = __malloc24(1024);
  if (!below || (unsigned long)below >= 0x1000000ul) {
    tpf_log("QLEL: __malloc24 gave %p", (void *)below);
    return 1;
  }
  memset(below, 0x40, 1024);
  const unsigned long left = le_storage_available(0), left24 = le_storage_available(1);
  free(below);
  tpf_log("QLEL: %c reached: %lu bytes (%luK) still obtainable, below 16 MB %lu", how, left, left / 1024, left24);
  return 0;
}
