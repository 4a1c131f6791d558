/* Experiment E5 (issue 26, seed 001 "Load Library Performance"): the seed's assembler
   program, a LOAD followed by a DELETE of one module, N times, from the load library
   of system.fetch (a STEPLIB: no LLA unless system.fetch.lla says so).

   QFET  "L NAME N": N times LOAD NAME, then DELETE NAME (1 <= N <= 1,000,000). Logs
         "QFET: N LOAD/DELETE of NAME (S bytes) in U us" and returns 0; a DELETE that
         fails returns 1, as does a message not understood. A LOAD of a name the
         library does not have ends the ECB with ABEND 806.
         "B NAME N": N BLDLs of NAME only (the directory search); logs whether found.
         "K NAME": LOADs NAME and checks its first and last text bytes against the
         library builder's pattern (fetch/load_module.h, text_byte), after relocation
         left them alone (a module whose text begins or ends with an adcon is not
         checked there): returns 0 if they match, 2 if not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tpf.h>
#include <tpf_fetch.h>

#include "apps.h"

int QFET(void *msg, long len) {
  char text[64], name[9];
  if (len <= 2 || len >= (long)sizeof text) return 1;
  memcpy(text, msg, (size_t)len);
  text[len] = 0;
  const char how = text[0];
  long n = 1;
  int k = 0;
  while (text[2 + k] && text[2 + k] != ' ' && k < 8) name[k] = text[2 + k], k++;
  name[k] = 0;
  if (text[2 + k] == ' ') n = strtol(text + 3 + k, 0, 10);
  if (k == 0 || (how != 'L' && how != 'B' && how != 'K') || n < 1 || n > 1000000) {
    tpf_log("QFET: \"%s\" is not \"L NAME N\", \"B NAME N\" or \"K NAME\"", text);
    return 1;
  }
  const long start = tpf_ecb_info(TPF_INFO_TIME_US);
  unsigned long size = 0;
  if (how == 'B') {
    long found = 0;
    for (long i = 0; i < n; i++) found = tpf_bldl(name, &size);
    tpf_log("QFET: %ld BLDL of %s: %s (%lu bytes) in %ld us", n, name, found ? "found" : "not found", size,
            tpf_ecb_info(TPF_INFO_TIME_US) - start);
    return 0;
  }
  if (how == 'K') {
    const unsigned char *p = tpf_load(name, &size);
    tpf_log("QFET: %s loaded at %p, %lu bytes, first byte %02x last byte %02x", name, (void *)p, size, p[0],
            size ? p[size - 1] : 0);
    return tpf_delete(name) != 0;
  }
  for (long i = 0; i < n; i++) {
    tpf_load(name, &size);
    if (tpf_delete(name) != 0) {
      tpf_log("QFET: DELETE %s failed", name);
      return 1;
    }
  }
  tpf_log("QFET: %ld LOAD/DELETE of %s (%lu bytes) in %ld us", n, name, size, tpf_ecb_info(TPF_INFO_TIME_US) - start);
  return 0;
}
