/* Experiment E4's STORAGE run (issue 25, seed 003: "Simple program that makes lots of
   calls", STORAGE(,,NONE) against STORAGE(,,00) and STORAGE(,,CLEAR)), and the checks of
   LE's stack. QLE5 is LE-conforming (os/guest/CMakeLists.txt, LE_CONFORMING): each of
   its functions that has a frame starts with LE's prologue check (le/guest/le_stack.h).
   Its functions are noipa so that each call is a real call with its own frame, as in a
   program of separately compiled routines.

   QLE5  "CALLS N": N items, each a small call tree: process_item (a 32-word histogram)
         builds two records (build_record: a 32-byte name and 16 fields), formatting
         three fields each in decimal (format_field: a 24-byte buffer) and summing the
         record (checksum, a leaf without a frame). 9 calls with a frame per item.
         "PROBE": a function fills its 1 KB local buffer with 0xAB and returns; the next,
         at the same depth, logs three bytes of its own buffer, never written by it:
         with STORAGE(,,xx) they are xx, with NONE the 0xAB left there.
         "DEEP N": a recursion N deep (frames of about 1.2 KB), twice, then one call:
         STACK's segments (RPTSTG: allocated, freed, the largest used).
   Logs what it did; returns 0, or 1 if the message is not understood. */
#include <stdlib.h>
#include <string.h>
#include <tpf.h>

#include "apps.h"

#define NOIPA __attribute__((noipa))

struct record {
  char name[32];
  unsigned fields[16];
};

NOIPA static unsigned checksum(const unsigned char *p, unsigned n) {
  unsigned s = 0;
  for (unsigned i = 0; i < n; ++i) s = (s << 1 | s >> 31) ^ p[i];
  return s;
}

/* v in decimal at out (at most 10 digits and a NUL); returns the digits. */
NOIPA static int format_field(char *out, unsigned v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (int i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  out[n] = 0;
  return n;
}

NOIPA static unsigned build_record(unsigned key) {
  struct record r;
  for (int i = 0; i < 16; ++i) r.fields[i] = key * 2654435761u + (unsigned)i;
  int at = 0;
  for (int i = 0; i < 3 && at < 20; ++i) at += format_field(r.name + at, r.fields[i] & 0xFFF);
  memset(r.name + at, ' ', sizeof r.name - (size_t)at);
  return checksum((const unsigned char *)&r, sizeof r);
}

NOIPA static unsigned process_item(unsigned i) {
  unsigned hist[32];
  for (int k = 0; k < 32; ++k) hist[k] = 0;
  const unsigned a = build_record(i), b = build_record(i ^ 0x5A5A);
  hist[a & 31]++;
  hist[b & 31]++;
  return a ^ b ^ checksum((const unsigned char *)hist, sizeof hist);
}

NOIPA static void dirty(void) {
  unsigned char buf[1024];
  for (int i = 0; i < 1024; ++i) ((volatile unsigned char *)buf)[i] = 0xAB;
}

NOIPA static void peek(const unsigned char *p, unsigned char out[3]) {
  out[0] = p[8];
  out[1] = p[512];
  out[2] = p[1016];
}

/* Reads what its frame holds before anything is written there: the point of the probe. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
NOIPA static void probe(unsigned char out[3]) {
  unsigned char buf[1024];
  peek(buf, out);
}
#pragma GCC diagnostic pop

NOIPA static unsigned recurse(unsigned n) {
  volatile unsigned char buf[1024];
  buf[0] = (unsigned char)n;
  return n ? recurse(n - 1) + buf[0] : 0;
}

NOIPA static unsigned settle(unsigned v) {
  volatile unsigned char buf[64];
  buf[0] = (unsigned char)v;
  return buf[0];
}

int QLE5(void *msg, long len) {
  char text[32];
  if (len <= 0 || len >= (long)sizeof text) return 1;
  memcpy(text, msg, (size_t)len);
  text[len] = 0;
  if (strncmp(text, "CALLS ", 6) == 0) {
    const long n = strtol(text + 6, 0, 10);
    if (n <= 0 || n > 100000000) return 1;
    unsigned sum = 0;
    for (long i = 0; i < n; ++i) sum += process_item((unsigned)i);
    tpf_log("QLE5: %ld items, checksum %08x", n, sum);
    return 0;
  }
  if (strcmp(text, "PROBE") == 0) {
    unsigned char b[3];
    dirty();
    probe(b);
    tpf_log("QLE5: frame bytes %02X %02X %02X", b[0], b[1], b[2]);
    return 0;
  }
  if (strncmp(text, "DEEP ", 5) == 0) {
    const long n = strtol(text + 5, 0, 10);
    if (n <= 0 || n > 10000) return 1;
    unsigned s = recurse((unsigned)n);
    s += recurse((unsigned)n);
    s += settle(s);
    tpf_log("QLE5: recursion %ld deep twice, %u", n, s);
    return 0;
  }
  tpf_log("QLE5: \"%s\" is not \"CALLS N\", \"PROBE\" or \"DEEP N\"", text);
  return 1;
}
