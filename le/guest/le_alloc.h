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
#endif
