/* Experiment E4 (issue 25, seed 003): LE heap tuning, as the document's test case does
   it, with malloc and free: a program on Language Environment storage
   (system.le.programs: QLE4) gets LE's user heap, any other the ECB heap; the code is
   the same.

   QLE4  "SEQUENCE N": sequence A (N random gets of 1 byte to 32 KB, then all freed)
         or B (N gets, 2N/5 of them freed and got again, then all freed), the request
         sizes of le/guest/e4_requests.h. The slots live in GETSTOR storage, so that the
         heap sees only the sequence's requests. Logs what it did; returns 0, or 1 if a
         get failed or the message is not understood. */
#include <e4_requests.h>
#include <stdlib.h>
#include <string.h>
#include <tpf.h>

#include "apps.h"

struct e4_counts {
  uint32_t failed;
};

static uint64_t e4_get(void *ctx, uint32_t bytes) {
  void *p = malloc(bytes);
  if (!p) ++((struct e4_counts *)ctx)->failed;
  return (uint64_t)(uintptr_t)p;
}

static void e4_free(void *ctx, uint64_t handle) {
  (void)ctx;
  free((void *)(uintptr_t)handle);
}

int QLE4(void *msg, long len) {
  char text[32];
  if (len <= 0 || len >= (long)sizeof text) return 1;
  memcpy(text, msg, (size_t)len);
  text[len] = 0;
  const char sequence = text[0];
  const long n = strtol(text + 1, 0, 10);
  if ((sequence != 'A' && sequence != 'B') || n <= 0 || n > 1000000) {
    tpf_log("QLE4: \"%s\" is not \"A N\" or \"B N\"", text);
    return 1;
  }
  uint64_t *slots = tpf_getstor((unsigned long)n * sizeof *slots);
  uint32_t *order = tpf_getstor((unsigned long)n * sizeof *order);
  if (!slots || !order) {
    tpf_log("QLE4: no GETSTOR storage for %ld slots", n);
    return 1;
  }
  struct e4_counts counts = {0};
  e4_run(sequence, (uint32_t)n, slots, order, e4_get, e4_free, &counts);
  tpf_log("QLE4: sequence %c, %ld requests, %u gets failed", sequence, n, counts.failed);
  return counts.failed != 0;
}
