/* QZZ0: the demo transaction, the program every input message of the demo workload
   enters. It does what a z/TPF booking transaction does, in miniature:

   1. gets a work block of system storage (GETSTOR, as a program gets a core block)
      and copies the request into it, with the request's CRC-32;
   2. ENTERs QZZ1, a separate program, to price the request against the shared
      fare table;
   3. gives up control once (DEFRC, as a program does while it waits for a file
      record): the ECB goes to the bottom of the deferred list and the I-stream
      serves other work;
   4. checks that its work block came back intact (the copy still equals the input
      message), builds the reply line, logs it for every 1000th ECB (by ECB number),
      and releases the block.

   Returns 0, or 8 (no storage) or 12 (the work block or the fare was wrong).

   Size: about 2,300 + 30 guest instructions per message byte (CRC 11, QZZ1 11, the
   check after the DEFRC 6, the copy and the rest 2), so the default 256-byte
   message runs about 10,000 instructions: the "message that runs 10,000 guest
   instructions" of the control program's speed criterion. Measured with
   tpfemu run, 3,000 messages on 4 I-streams: 9,995 per message, SVCs included. */
#include <stdio.h>
#include <string.h>

#include "apps.h"

#define LOG_EVERY 1000

struct work {
  long len;      /* bytes of the request copied into data */
  uint32_t crc;  /* CRC-32 of the input message (the reply carries it) */
  int fare;      /* QZZ1's answer, in cents */
  char label[24];
  char reply[96];
  unsigned char data[]; /* the copy of the request */
};

int QZZ0(void *msg, long len) {
  if (!msg || len < 0) len = 0;
  unsigned long need = sizeof(struct work) + (unsigned long)len;
  struct work *w = tpf_getstor(need);
  if (!w) {
    tpf_log("QZZ0: no system storage for a %lu-byte work block", need);
    return 8;
  }
  w->len = len;
  memcpy(w->data, msg, (size_t)len);
  w->crc = app_crc32(0, msg, (size_t)len);
  app_label(w->label, sizeof w->label, w->data, w->len);

  w->fare = tpf_enter("QZZ1", w->data, w->len);

  tpf_defrc();

  /* Control is back after other ECBs have run: the work block and the input
     message must both be as they were. */
  int rc = 0;
  if (memcmp(w->data, msg, (size_t)w->len) != 0 || w->fare < 0) {
    tpf_log("QZZ0 %s: work block changed while deferred (fare %d)", w->label, w->fare);
    rc = 12;
  }
  snprintf(w->reply, sizeof w->reply, "%s %s FARE %d.%02d LEGS %ld CRC %08X", w->label, rc ? "ERROR" : "OK",
           w->fare / 100, w->fare % 100, (w->len + LEG_BYTES - 1) / LEG_BYTES, w->crc);
  if (tpf_ecb_info(TPF_INFO_ECB) % LOG_EVERY == 0) tpf_log("QZZ0 %s", w->reply);
  tpf_relstor(w);
  return rc;
}
