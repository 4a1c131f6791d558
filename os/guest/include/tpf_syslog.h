/* The syslog ring buffer in the shared system area: its layout, shared by the guest
   (lock/guest/syslog.c, which appends) and the host (lock/syslog_drain.cpp, the
   control program's side, which drains it into the run's syslog.log). Plain C with
   fixed-size fields; the guest is big-endian, the host converts.

   Protocol. A writer takes the syslog simple lock (at TPF_SYSLOG_LOCK_OFFSET),
   formats its line into record producer % TPF_SYSLOG_RECORDS and, as its last
   store before the unlock, advances producer. The host runs only between guest instructions, so every record below
   producer is whole; it drains records consumer..producer-1 and then advances
   consumer (only the host writes consumer). When producer - consumer reaches
   TPF_SYSLOG_RECORDS the ring is full: the writer releases the lock, gives up
   control and tries again, so no line is ever lost.

   The syslog's part of the shared area (TPF_EVM_SHARED + TPF_SHARED_SYSLOG, see
   tpf_evm.h) holds the lock, the indexes and the ring. */
#ifndef TPF_SYSLOG_H
#define TPF_SYSLOG_H
#include <stdint.h>

#include "tpf_evm.h"

#define TPF_SYSLOG_LOCK_OFFSET (TPF_SHARED_SYSLOG + 0x0000UL) /* simplelock_t: 16 bytes */
#define TPF_SYSLOG_CTL_OFFSET (TPF_SHARED_SYSLOG + 0x0010UL)  /* struct tpf_syslog_ctl: the writers' part shares the
                                                                 lock's line, as a C struct { lock; data } lays them out */
#define TPF_SYSLOG_RECORDS_OFFSET (TPF_SHARED_SYSLOG + 0x1000UL) /* the ring of records */
#define TPF_SYSLOG_RECORD_SIZE 256 /* a line each: successive writers share no line */
#define TPF_SYSLOG_TEXT_MAX (TPF_SYSLOG_RECORD_SIZE - 16) /* bytes of text in a record */
#define TPF_SYSLOG_RECORDS 512
#define TPF_SYSLOG_END (TPF_SYSLOG_RECORDS_OFFSET + TPF_SYSLOG_RECORDS * TPF_SYSLOG_RECORD_SIZE)
TPF_EVM_ASSERT(TPF_SYSLOG_END <= TPF_SHARED_SYSLOG_END, "the syslog ring in its part of the shared area");

struct tpf_syslog_ctl {
  /* line: written by writers, under the lock */
  uint64_t producer;    /* records committed since the start */
  uint64_t full_waits;  /* times a writer found the ring full (released, deferred, retried) */
  uint64_t checked;     /* incremented under the lock by every acquisition (mutual exclusion check) */
  uint8_t pad0[256 - 24];
  /* line: written by the host only */
  uint64_t consumer;    /* records drained by the host */
  uint8_t pad1[256 - 8];
};

struct tpf_syslog_record {
  uint16_t length;      /* bytes of text */
  uint8_t priority;     /* LOG_EMERG .. LOG_DEBUG */
  uint8_t reserved[5];
  uint64_t tod;         /* STCKF when committed */
  char text[TPF_SYSLOG_TEXT_MAX];
};

#endif
