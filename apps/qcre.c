/* QCRE: creates three ECBs running QZZ2, one each way: immediate (this I-stream's
   ready list), deferred (its deferred list) and any (the shared cross list), each
   with the first 64 bytes of QCRE's own message. The control program copies the
   message at the create, so it can live on QCRE's stack. Logs the new ECBs'
   numbers; returns 0, or 1 if a create failed. */
#include <string.h>

#include "apps.h"

int QCRE(void *msg, long len) {
  struct qcre_msg m;
  memcpy(m.tag, "QCRE", 4);
  m.parent = (uint32_t)tpf_ecb_info(TPF_INFO_ECB);
  m.len = !msg || len < 0 ? 0 : len > (long)sizeof m.request ? sizeof m.request : (uint32_t)len;
  memcpy(m.request, msg, m.len);
  long size = (long)offsetof(struct qcre_msg, request) + m.len;

  static const int hows[3] = {TPF_CREATE_IMMEDIATE, TPF_CREATE_DEFERRED, TPF_CREATE_ANY};
  long ecb[3];
  int failed = 0;
  for (int k = 0; k < 3; ++k) {
    m.how = (uint32_t)hows[k];
    ecb[k] = tpf_create("QZZ2", &m, size, hows[k]);
    failed |= ecb[k] < 0;
  }
  tpf_log("QCRE created ECB %ld (immediate), ECB %ld (deferred), ECB %ld (any)", ecb[0], ecb[1], ecb[2]);
  return failed;
}
