/* The C allocator of a program that runs on Language Environment storage
   (system.le.programs, issue 25): the ECB heap's entry points (heap/guest/eheap_core.c)
   hand such a program's malloc, calloc, realloc and free here, so that a program runs
   on LE's heaps or on the ECB heap by configuration, with no change to its code. */
#ifndef LE_ALLOC_H
#define LE_ALLOC_H
#include <stddef.h>

/* 1 if this process's program runs on LE storage: asked of the control program once
   (TPF_SVC_LE_START), then a load and a compare. */
extern int le_state; /* 0: not asked yet, 1: the ECB heap, 2: LE storage */
int le_start(void);
static inline int le_program(void) { return __builtin_expect(le_state == 0, 0) ? le_start() : le_state == 2; }

void *le_malloc(size_t n);
void *le_calloc(size_t n, size_t size);
void *le_realloc(void *p, size_t n);
void le_free(void *p);
void *le_malloc24(size_t n);

/* For programs (z/OS C and LE spell them so):
   __malloc24   storage below the 16 MB line (HEAP24, or the user heap if it is BELOW),
                freed by free; 0 for a program not on LE storage.
   le_link      LE's LINK: program `name` runs in a new enclave (its own heaps and
                initial stack, from the region), which ends when it returns; a program
                not on LE storage just enters it (tpf_enter). A dynamic call is tpf_enter.
   le_storage_available  bytes of the LE region the process can still get (below 16 MB
                if `below`); 0 off LE storage. */
void *__malloc24(size_t n);
int le_link(const char *name, void *msg, long len);
unsigned long le_storage_available(int below);
#endif
