/* QSLG: the syslog workload of APAR PJ46800's measurements. Each message logs
   QSLG_LINES lines through syslog(), which serializes on the syslog simple lock; between
   lines it does a little work of its own (a CRC-32 of its input message, so
   workload.message_size sets how much). Each line carries the ECB number and a
   sequence number (0 .. QSLG_LINES-1) so a test can check that every line arrived
   once and whole. Returns 0. */
#include <syslog.h>

#include "apps.h"

int QSLG(void *msg, long len) {
  long ecb = tpf_ecb_info(TPF_INFO_ECB);
  uint32_t crc = 0;
  openlog("QSLG", 0, LOG_USER);
  for (int seq = 0; seq < QSLG_LINES; ++seq) {
    crc = app_crc32(crc, msg, msg ? (size_t)len : 0);
    syslog(LOG_INFO, "QSLG ECB %ld SEQ %d CRC %08x", ecb, seq, (unsigned)crc);
  }
  return 0;
}
