/* Program fetch as guest code calls it (the service is fetch/, issue 26): z/OS's LOAD, DELETE and
   BLDL on system.fetch's load library. Inline, so that a program using them adds no
   code to the image's runtime (whose placement other programs' figures depend on).
   Register conventions: tpf_svc.h (TPF_SVC_LOAD, TPF_SVC_DELETE, TPF_SVC_BLDL). */
#ifndef TPF_FETCH_H
#define TPF_FETCH_H
#include <tpf_svc.h>

/* The program's entry point in this ECB's storage (*size its bytes); a name the library
   does not have ends the ECB (ABEND 806), as LOAD without ERRET does. */
static inline void *tpf_load(const char *name, unsigned long *size) {
  register long r2 __asm__("r2") = (long)name;
  register long r3 __asm__("r3") = 0;
  __asm__ volatile("svc %[n]" : "+d"(r2), "+d"(r3) : [n] "i"(TPF_SVC_LOAD) : "r0", "r1", "r4", "r5", "memory", "cc");
  if (size) *size = (unsigned long)r3;
  return (void *)r2;
}

/* 0, or 4 if this process has not loaded it. */
static inline long tpf_delete(const char *name) {
  register long r2 __asm__("r2") = (long)name;
  __asm__ volatile("svc %[n]" : "+d"(r2) : [n] "i"(TPF_SVC_DELETE) : "r0", "r1", "r3", "r4", "r5", "memory", "cc");
  return r2;
}

/* 1 if the library's directory has the name (*size its module's bytes), else 0. */
static inline long tpf_bldl(const char *name, unsigned long *size) {
  register long r2 __asm__("r2") = (long)name;
  register long r3 __asm__("r3") = 0;
  __asm__ volatile("svc %[n]" : "+d"(r2), "+d"(r3) : [n] "i"(TPF_SVC_BLDL) : "r0", "r1", "r4", "r5", "memory", "cc");
  if (size) *size = (unsigned long)r3;
  return r2;
}

#endif
