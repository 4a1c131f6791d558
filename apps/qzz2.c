/* QZZ2: the program of the ECBs that QCRE creates. Prices the request it carries by
   entering QZZ1, as QZZ0 does, and logs who created it and how, so a test can see
   each created ECB run. Given any other message (as a workload's program), it
   prices the whole message. Returns 0, or 1 if QZZ1 could not be entered. */
#include <string.h>

#include "apps.h"

static const char *how_name(uint32_t how) {
  return how == TPF_CREATE_IMMEDIATE ? "immediate" : how == TPF_CREATE_DEFERRED ? "deferred"
                                                   : how == TPF_CREATE_ANY      ? "any"
                                                                                : "?";
}

int QZZ2(void *msg, long len) {
  const struct qcre_msg *m = msg;
  if (m && len >= (long)offsetof(struct qcre_msg, request) && memcmp(m->tag, "QCRE", 4) == 0) {
    long n = m->len;
    if (n > len - (long)offsetof(struct qcre_msg, request)) n = len - (long)offsetof(struct qcre_msg, request);
    int fare = tpf_enter("QZZ1", (void *)m->request, n);
    tpf_log("QZZ2 created by ECB %u (%s) on I-stream %ld: fare %d", m->parent, how_name(m->how),
            tpf_ecb_info(TPF_INFO_ISTREAM), fare);
    return fare < 0;
  }
  int fare = tpf_enter("QZZ1", msg, len);
  tpf_log("QZZ2 fare %d", fare);
  return fare < 0;
}
