/* QDLY: gives up control for 100 microseconds (DELAY) and logs the simulated time
   before and after, so a test can see the ECB wait while its I-stream idles. */
#include "apps.h"

int QDLY(void *msg, long len) {
  (void)msg, (void)len;
  long before = tpf_ecb_info(TPF_INFO_TIME_US);
  tpf_delay_us(100);
  long after = tpf_ecb_info(TPF_INFO_TIME_US);
  tpf_log("QDLY waited %ld us", after - before);
  return 0;
}
