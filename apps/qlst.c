/* QLST: shows the order in which the CPU loop dispatches ECBs. It logs a line each
   time it gets control (its label, ECB number, I-stream, pass and simulated time)
   and defers in between, twice: the run's log then holds the dispatch order, pass
   by pass, which a test compares with the list order z/TPF defines (cross, ready,
   input, deferred; add at the bottom, take from the top). Returns 0. */
#include "apps.h"

int QLST(void *msg, long len) {
  char label[24];
  app_label(label, sizeof label, msg, len);
  long ecb = tpf_ecb_info(TPF_INFO_ECB);
  for (int pass = 0; pass < 3; ++pass) {
    tpf_log("QLST %s ECB %ld I-stream %ld pass %d at %ld us", label, ecb, tpf_ecb_info(TPF_INFO_ISTREAM), pass,
            tpf_ecb_info(TPF_INFO_TIME_US));
    if (pass < 2) tpf_defrc();
  }
  return 0;
}
