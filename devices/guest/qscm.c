/* QSCM: moves blocks to and from Flash Express SCM with EADM (TPF_SVC_EADM) and checks
   what comes back. Message text "N SIZE [AOBS]": N blocks of SIZE (4k or 1m) per AOB,
   AOBS requests (default 1). Each ECB uses its own SCM region (by its ECB number),
   writes every block with a pattern of its own, reads them back into a fresh buffer,
   compares, then releases them; it logs what it moved, the blocks that differ and the
   simulated time the requests took (the ECB waits for each; its I-stream runs others). */
#include <eadm.h>
#include <stdlib.h>
#include <string.h>
#include <tpf.h>

tpf_program QSCM;

static struct eadm_aob aob; /* per process: each ECB is a process of its own */

static uint32_t pattern(uint64_t ecb, uint64_t block, uint64_t word) {
  return (uint32_t)(ecb * 0x9E3779B1u ^ block * 0x85EBCA6Bu ^ word * 0xC2B2AE35u);
}

static long run(uint8_t op, uint8_t size, long n, uint64_t scm, uint8_t *buf, uint64_t bytes) {
  memset(&aob, 0, sizeof aob);
  aob.count = (uint32_t)n;
  for (long i = 0; i < n; ++i) {
    aob.msb[i].op = op;
    aob.msb[i].size = size;
    aob.msb[i].scm = scm + (uint64_t)i * bytes;
    aob.msb[i].data = (uint64_t)(buf + (uint64_t)i * bytes);
  }
  return tpf_eadm(&aob);
}

int QSCM(void *msg, long len) {
  char text[64];
  long k = len < 63 ? len : 63;
  memcpy(text, msg, (size_t)k);
  text[k] = 0;
  char *p = text;
  long n = strtol(p, &p, 10);
  while (*p == ' ') ++p;
  const int big = *p == '1';
  while (*p && *p != ' ') ++p;
  long aobs = strtol(p, &p, 10);
  if (aobs <= 0) aobs = 1;
  if (n <= 0 || n > EADM_MAX_MSBS) {
    tpf_log("QSCM: %ld blocks: 1 to %d a request", n, EADM_MAX_MSBS);
    return 1;
  }
  const uint64_t bytes = big ? 1u << 20 : 4096, ecb = (uint64_t)tpf_ecb_info(TPF_INFO_ECB);
  const uint8_t size = big ? EADM_1M : EADM_4K;
  uint8_t *out = malloc(n * bytes), *in = malloc(n * bytes);
  long bad = 0, status = 0;
  const long t0 = tpf_ecb_info(TPF_INFO_TIME_US);
  for (long a = 0; a < aobs && !status; ++a) {
    const uint64_t scm = (ecb * (uint64_t)aobs + (uint64_t)a) * (uint64_t)n * bytes;
    for (uint64_t w = 0; w < n * bytes / 4; ++w) ((uint32_t *)out)[w] = pattern(ecb, (uint64_t)a, w);
    memset(in, 0, n * bytes);
    status = run(EADM_WRITE, size, n, scm, out, bytes);
    if (!status) status = run(EADM_READ, size, n, scm, in, bytes);
    if (!status && memcmp(in, out, n * bytes) != 0)
      for (long i = 0; i < n; ++i) bad += memcmp(in + i * bytes, out + i * bytes, bytes) != 0;
    if (!status) status = run(EADM_RELEASE, size, n, scm, in, bytes);
  }
  const long t1 = tpf_ecb_info(TPF_INFO_TIME_US);
  if (status)
    tpf_log("QSCM: EADM status %ld at MSB %d", status, (int)aob.failed_msb);
  else
    tpf_log("QSCM: %ld requests of %ld blocks of %lu bytes written, read back and released, %ld bad, %ld us",
            aobs, n, (unsigned long)bytes, bad, t1 - t0);
  free(out);
  free(in);
  return 0;
}
