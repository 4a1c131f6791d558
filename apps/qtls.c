/* The TLS workload of APAR PJ47265's measurement (seed 000): a driver exchanging
   messages over TLS through shared SSL, threaded, heavy ECB heap use.

   QTLS  one application ECB per input message; its message text is
         "WORK THREADS MESSAGES": WORK is the path length outside the heap (iterations
         of a small loop: the calibrated business logic and everything else the
         document's driver does that the ECB heap does not), THREADS the SSL server's
         threads and MESSAGES the messages per TLS connection. It uses the heap as an
         application does (a copy of its message and two small work buffers), hands
         the message to the SSL server and waits for its reply.
   QSSL  the shared SSL server: a thread process (an SSL ECB class, see
         system.ecb_heap.ssl_programs) that the first QTLS creates; its threads take
         requests from a queue in the shared area and, for each, replay against the ECB
         heap what OpenSSL 3 allocates and frees for one TLS 1.3 record exchange on the
         server (heap/traces, mapped at TPF_EVM_DATA by workload.data_file): a
         connection's handshake before its first message and its close after the last.

   Replaying a malloc writes the first 256 bytes of the buffer (or all of a smaller
   one), as the code that asked for it initializes it; a realloc keeps the data. */
#include <simplelock.h>
#include <stdlib.h>
#include <string.h>
#include <tls_trace.h>

#include <pthread.h>
#include <stdio.h>

#include "apps.h"

#define TLSQ_SLOTS 256
#define REQUEST_EVENT 0x544C53L /* "TLS": requests for the server's threads */
#define REPLY_EVENT(ecb) (0x544C5200000000L | (ecb))

struct tls_queue {
  simplelock_t lock;
  uint64_t head, tail;       /* requests taken, requests put */
  uint64_t server;           /* 1 once a QTLS created the server */
  uint64_t replies[TLSQ_SLOTS];
};
#define TLSQ ((struct tls_queue *)(TPF_EVM_SHARED + TPF_SHARED_APPS))
_Static_assert(TPF_SHARED_APPS + sizeof(struct tls_queue) <= TPF_SHARED_APPS_END, "the queue in its part");

static long number(const char **s) {
  char *end;
  long v = strtol(*s, &end, 10);
  *s = end;
  return v;
}

/* The application's own work: a loop the configuration calibrates. */
static unsigned long business(long work) {
  unsigned long x = 17;
  for (long k = 0; k < work; ++k) x = x * 31 + (unsigned long)k;
  return x;
}

int QTLS(void *msg, long len) {
  char text[64] = {0};
  memcpy(text, msg, len < 63 ? (size_t)len : 63);
  const char *at = text;
  const long work = number(&at);
  const long threads = number(&at), per_connection = number(&at);

  char *copy = malloc((size_t)len + 1), *a = malloc(64), *b = malloc(48);
  memcpy(copy, msg, (size_t)len);
  copy[len] = 0;
  memset(a, 0, 64);
  memset(b, 0, 48);
  *(unsigned long *)b = business(work);

  struct tls_queue *q = TLSQ;
  if (q->server == 0 && __sync_bool_compare_and_swap(&q->server, 0, 1)) {
    char args[32];
    int n = snprintf(args, sizeof args, "%ld %ld", threads > 0 ? threads : 4, per_connection > 0 ? per_connection : 20);
    tpf_create("QSSL", args, n, TPF_CREATE_ANY);
  }
  const long me = tpf_ecb_info(TPF_INFO_ECB);
  simple_lock(&q->lock);
  if (q->tail - q->head >= TLSQ_SLOTS) { /* cannot happen with fewer terminals than slots */
    simple_unlock(&q->lock);
    return 2;
  }
  q->replies[q->tail++ % TLSQ_SLOTS] = (uint64_t)REPLY_EVENT(me);
  simple_unlock(&q->lock);
  tpf_post(REQUEST_EVENT);
  tpf_wait(REPLY_EVENT(me));

  free(b);
  free(a);
  free(copy);
  return 0;
}

struct connection {
  void **buffers;  /* by trace id */
  long messages;   /* exchanged so far */
};

static void replay(void **buffers, const struct tls_trace_event *e, uint32_t n) {
  for (uint32_t k = 0; k < n; ++k, ++e) {
    void **b = &buffers[e->id];
    if (e->op == 'm') {
      *b = malloc(e->size);
      memset(*b, 0x5A, e->size < 256 ? e->size : 256);
    } else if (e->op == 'r') {
      *b = realloc(*b, e->size);
    } else {
      free(*b);
      *b = 0;
    }
  }
}

struct server {
  long per_connection;
};

static void *ssl_thread(void *arg) {
  const struct server *s = arg;
  const struct tls_trace_image *t = (const struct tls_trace_image *)TPF_EVM_DATA;
  const struct tls_trace_event *events = (const struct tls_trace_event *)((const char *)t + t->events_offset);
  const uint32_t *first = (const uint32_t *)(t + 1), *count = first + t->messages;
  struct connection c = {0, 0};
  struct tls_queue *q = TLSQ;
  for (;;) {
    tpf_wait(REQUEST_EVENT);
    simple_lock(&q->lock);
    const uint64_t reply = q->replies[q->head++ % TLSQ_SLOTS];
    simple_unlock(&q->lock);
    if (!c.buffers) { /* a new connection: its handshake */
      c.buffers = calloc(t->buffers, sizeof(void *));
      replay(c.buffers, events + t->handshake_first, t->handshake_count);
    }
    const uint32_t m = (uint32_t)(c.messages % t->messages);
    replay(c.buffers, events + first[m], count[m]);
    if (++c.messages == s->per_connection) { /* the connection closes */
      replay(c.buffers, events + t->close_first, t->close_count);
      free(c.buffers);
      c.buffers = 0;
      c.messages = 0;
    }
    tpf_post((long)reply);
  }
  return 0;
}

int QSSL(void *msg, long len) {
  const struct tls_trace_image *t = (const struct tls_trace_image *)TPF_EVM_DATA;
  if (t->magic != TLS_TRACE_MAGIC) {
    tpf_log("QSSL: no TLS trace in the data area (set workload.data_file)");
    return 2;
  }
  char text[32] = {0};
  memcpy(text, msg, len < 31 ? (size_t)len : 31);
  const char *at = text;
  long threads = number(&at);
  struct server *s = malloc(sizeof *s);
  s->per_connection = number(&at);
  if (threads < 1 || threads > 32) threads = 4;
  pthread_t tid;
  for (long k = 0; k < threads; ++k) pthread_create(&tid, 0, ssl_thread, s);
  for (;;) tpf_wait(0x544C5345L); /* the process stays: its threads serve the connections */
  return 0;
}
