/* A Language Environment enclave's storage (issue 25, items 1 and 5): the control
   blocks of its four heaps, in one block the guest keeps and the host reads.

   Every program on LE storage runs in an enclave. Its first program's enclave is the
   process's (static storage of the image, one per process); a program started by
   le_link (LE's LINK: "every link is a new enclave", seed 003) gets a new one, its
   block got from the LE region as LE gets an enclave's control blocks, with its own
   heaps and initial stack, and all of it given back when the program returns. A
   dynamic call (tpf_enter) runs in the caller's enclave.

   The heaps, as LE has them:
     heap       the user heap: malloc, calloc, realloc, free (HEAP's init, incr)
     heap24     the user heap's part below 16 MB, for __malloc24 when HEAP is ANYWHERE
                (HEAP's init24, incr24); its initial segment is got at its first request
     anyheap    LE's own storage anywhere (ANYHEAP): the enclave's LINK blocks
     belowheap  LE's own storage below 16 MB (BELOWHEAP): nothing of ours asks for it
                (seed 003's simple example shows none used either); its initial segment
                is got at the enclave's start, as for ANYHEAP

   Plain C with fixed-width fields: the host reads it (le/le_subsystem.cpp). */
#ifndef LE_ENCLAVE_H
#define LE_ENCLAVE_H
#include <stdint.h>

#include "leheap.h"
#include "lepools.h"

#define LE_ENCLAVE_EYE 0x4C454E43u /* "LENC" */
#define LE_PROGRAM_NAME 8u          /* a TPF program name: 4 characters, room for 8 */

struct le_enclave {
  uint32_t eye;          /* LE_ENCLAVE_EYE, set by the control program at the enclave's start */
  uint32_t depth;        /* 0 for the process's first enclave, 1 for one it LINKs to, ... */
  char program[LE_PROGRAM_NAME]; /* the enclave's first program, NUL-padded */
  uint32_t stack_init;   /* STACK's init: the initial stack segment a LINKed enclave gets */
  uint32_t stack_fill;   /* STORAGE's dsa_alloc byte for its frames, or LE_FILL_NONE (le_stack.h) */
  uint32_t stack_flags;  /* LE_FLAG_CLEAR or 0 (a LINKed enclave's stack is never extended, so no FREE) */
  uint32_t reserved;
  struct leheap_cb heap, heap24, anyheap, belowheap;
};

/* What LE_START's r2 points to for the process's first enclave: its block, then the
   heap pools' (HEAPPOOLS serves the first enclave only: ours). */
struct le_process_storage {
  struct le_enclave enclave;
  struct lepools_cb pools;
};

#ifdef __cplusplus
static_assert(sizeof(le_enclave) == 32 + 4 * sizeof(leheap_cb));
#else
_Static_assert(sizeof(struct le_enclave) == 32 + 4 * sizeof(struct leheap_cb), "enclave block");
#endif
#endif
