/* The application programs of tpf_apps.elf and the helpers they share. Each program
   is its own source file named after it; the control program finds a program by its
   ELF symbol, so a program is a function with external linkage and everything else
   in these files is static or lower case. */
#ifndef TPF_APPS_H
#define TPF_APPS_H
#include <stddef.h>
#include <stdint.h>
#include <tpf.h>

tpf_program QZZ0; /* the demo transaction: prices a request, defers once */
tpf_program QZZ1; /* entered by QZZ0 and QZZ2: the fare of a request */
tpf_program QZZ2; /* the program of ECBs that QCRE creates */
tpf_program QCRE; /* creates ECBs: immediate, deferred and on the cross list */
tpf_program QLST; /* logs its dispatches, deferring between them (list order) */
tpf_program QSPN; /* never ends: for the time slice and CTL-10 timeout */
tpf_program QPCK; /* takes a program check on every message */
tpf_program QTHR;
tpf_program QDLY; /* delays 100 us and logs how long it waited */ /* four threads sharing the process's heap under a spin lock */
tpf_program QSLG; /* logs QSLG_LINES lines through syslog(), a little work between them */
tpf_program QTLS; /* an application ECB of the TLS workload: heap use, then a request to QSSL */
tpf_program QSSL; /* the shared SSL server: threads replaying OpenSSL's allocations (heap/traces) */
tpf_program QHTT; /* ECB heap torture: threads making random heap operations, checked */
tpf_program QHTG; /* ECB heap tags: tag N buffers, locate M, log the cost of a locate */
tpf_program QHE1, QHE2, QHE3, QHE4; /* one ECB heap error each (the ECB must end with a dump) */
tpf_program QLE4; /* E4: LE heap tuning, sequence A or B of random gets and frees (le/guest/e4_requests.h) */
tpf_program QLEL; /* E4: LE's LINK against a dynamic call, N deep: what the last program can still get */
tpf_program QLE5; /* E4: LE's stack, LE-conforming: a program making many calls, STORAGE's dsa_alloc and STACK's segments */

/* Lines QSLG logs per message. */
#define QSLG_LINES 20

/* QZZ1 prices a request leg by leg: a leg is this many bytes of it. */
#define LEG_BYTES 16

/* The message from QCRE to the ECBs it creates. */
struct qcre_msg {
  char tag[4];      /* "QCRE" */
  uint32_t parent;  /* the creating ECB's number */
  uint32_t how;     /* TPF_CREATE_* it was created with */
  uint32_t len;     /* bytes of request that follow */
  unsigned char request[64];
};

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of n bytes, continuing from crc
   (0 to start). Half-byte table: 64 bytes of constants instead of 1 KB. */
uint32_t app_crc32(uint32_t crc, const void *p, size_t n);

/* The message's first word (up to the first blank, at most size - 1 bytes) as a
   printable string for the log: other bytes become '.'. */
void app_label(char *out, size_t size, const void *msg, long len);

#endif
