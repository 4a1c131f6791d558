/* Program fetch as guest code calls it (issue 26): z/OS's LOAD, DELETE and BLDL on
   system.fetch's load library. Their CPU paths are guest code (fetch/guest/qcsv.c, the
   contents supervisor: issue 47), which issues the SVCs (tpf_svc.h: TPF_SVC_LOAD,
   TPF_SVC_DELETE, TPF_SVC_BLDL) for the channel programs the fetch subsystem runs. */
#ifndef TPF_FETCH_H
#define TPF_FETCH_H
#include <tpf_svc.h>

void *csv_load(const char *name, unsigned long *size);
long csv_delete(const char *name);
long csv_bldl(const char *name, unsigned long *size);

/* The program's entry point in this ECB's storage (*size its bytes); a name the library
   does not have ends the ECB (ABEND 806), as LOAD without ERRET does. */
static inline void *tpf_load(const char *name, unsigned long *size) { return csv_load(name, size); }

/* 0, or 4 if this process has not loaded it. */
static inline long tpf_delete(const char *name) { return csv_delete(name); }

/* 1 if the library's directory has the name (*size its module's bytes), else 0. */
static inline long tpf_bldl(const char *name, unsigned long *size) { return csv_bldl(name, size); }

#endif
