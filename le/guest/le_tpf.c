/* Language Environment storage in the TPF image (issue 25): the environment the LE
   heap asks for (le_getmain, le_freemain: services of the control program,
   le/le_subsystem.cpp) and the C allocator of a program that runs on LE storage
   (le_alloc.h). The process's user heap is its static storage (each ECB's process has
   its own copy), so the host finds it where LE_START said it is, for RPTSTG's report.
   The heap has no latch: an LE program's threads must not allocate at once (ours: E4's
   programs are single-threaded; LE serializes its heap for threads, not modelled). */
#include <eheap.h>
#include <string.h>
#include <tpf.h>

#include "le_alloc.h"
#include "leheap.h"

int le_state;
static struct leheap_cb le_user_heap;

void *le_getmain(uint32_t bytes, int below) { return tpf_le_getmain(bytes, below); }
void le_freemain(void *address, uint32_t bytes) { tpf_le_freemain(address, bytes); }

/* The control program sets the heap's options (system.le) if the program runs on LE
   storage; the initial segment is got now, as LE gets it at the enclave's start. */
int le_start(void) {
  le_state = tpf_le_start(&le_user_heap) ? 2 : 1;
  if (le_state == 2 && le_heap_init(&le_user_heap) != 0)
    tpf_heap_error(EHEAP_ERR_EXHAUSTED, 0, __builtin_return_address(0));
  return le_state == 2;
}

void *le_malloc(size_t n) { return n > LEHEAP_MAX_REQUEST ? 0 : le_heap_get(&le_user_heap, (uint32_t)n); }

void *le_calloc(size_t n, size_t size) {
  if (size && n > LEHEAP_MAX_REQUEST / size) return 0;
  void *p = le_malloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

/* A new element when the old one is too short (LE does the same: its elements do not
   grow in place). */
void *le_realloc(void *p, size_t n) {
  if (!p) return le_malloc(n);
  if (!n) {
    le_free(p);
    return 0;
  }
  const struct leheap_prefix *pre = (const struct leheap_prefix *)((char *)p - LEHEAP_PREFIX);
  const size_t have = pre->length - LEHEAP_PREFIX;
  if (n <= have) return p;
  void *q = le_malloc(n);
  if (q) {
    memcpy(q, p, have);
    le_free(p);
  }
  return q;
}

/* A free the heap's checks refuse ends the ECB with a dump, as a bad ECB heap free does
   (ours: LE would end the enclave with CEE0802C; the dump names the address). */
void le_free(void *p) {
  const int rc = le_heap_free(&le_user_heap, p);
  if (rc != LEHEAP_OK)
    tpf_heap_error(rc == LEHEAP_ERR_DOUBLE_FREE ? EHEAP_ERR_DOUBLE_FREE : EHEAP_ERR_NOT_OURS, p,
                   __builtin_return_address(0));
}
