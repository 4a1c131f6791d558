/* A TLS allocation trace as guest code reads it: the control program turns a text
   trace of heap/traces (made by heap/tools/tls_trace) into this image and maps it
   read-only at TPF_EVM_DATA in every ECB (workload.data_file). Big-endian, like all
   guest data; the host writes it (heap/tls_replay.cpp).

     struct tls_trace_image            at TPF_EVM_DATA
     uint32_t message_first[messages]  first event of each message phase
     uint32_t message_count[messages]
     struct tls_trace_event events[events]

   Event ids are the trace's buffer ids (1..buffers-1): a replay keeps a table of
   `buffers` pointers per connection. */
#ifndef TLS_TRACE_H
#define TLS_TRACE_H
#include <stdint.h>

#include "tpf_evm.h"

#define TLS_TRACE_MAGIC 0x544C535452414345ULL /* "TLSTRACE" */

struct tls_trace_image {
  uint64_t magic;
  uint32_t buffers;         /* the largest id + 1 */
  uint32_t events;
  uint32_t handshake_first, handshake_count;
  uint32_t close_first, close_count;
  uint32_t messages;        /* message phases in the trace */
  uint32_t events_offset;   /* bytes from the image's start to events[0] */
};

struct tls_trace_event {
  uint32_t op; /* 'm' malloc, 'r' realloc, 'f' free */
  uint32_t id;
  uint32_t size;
};

#endif
