/* EADM requests to Flash Express storage-class memory, as a guest program builds them
   (TPF_SVC_EADM): an AOB (asynchronous operation block) of up to 124 MSBs (move
   specification blocks), each moving one 4 KB or 1 MB block between the ECB's storage
   and an SCM address, or clearing or releasing an SCM block. The ECB gives up control
   until the request completes; its I-stream runs other work meanwhile.

   Plain C with fixed-size fields: the host reads the same layout (devices/devices.cpp;
   the guest is big-endian, the host converts). */
#ifndef EADM_H
#define EADM_H
#include <stdint.h>
#ifdef __cplusplus
#include "os/guest/include/tpf_svc.h"
#else
#include <tpf_svc.h>
#endif

#define EADM_MAX_MSBS 124

#define EADM_READ 0    /* SCM -> storage */
#define EADM_WRITE 1   /* storage -> SCM */
#define EADM_CLEAR 2   /* the SCM block reads as zeroes */
#define EADM_RELEASE 3 /* the SCM block holds nothing (its increment may go offline) */

#define EADM_4K 0
#define EADM_1M 1

/* r2 and aob.status: 0 done; else one of flashsim's statuses plus 1 (devices.cpp), or: */
#define EADM_BAD_AOB 100 /* the AOB or an MSB's storage could not be read or written */
#define EADM_NO_SCM 101  /* the machine has no Flash Express (machine.scm.card_pairs: 0) */

struct eadm_msb {
  uint8_t op;        /* EADM_READ, ... */
  uint8_t size;      /* EADM_4K, EADM_1M */
  uint16_t flags;
  uint32_t reserved;
  uint64_t scm;      /* SCM address, a multiple of the block size */
  uint64_t data;     /* the storage address (read: into; write: from) */
  uint64_t reserved2;
};

struct eadm_aob {
  uint32_t count;      /* MSBs that follow, 1..EADM_MAX_MSBS */
  uint32_t status;     /* set at completion: 0 or the status */
  int32_t failed_msb;  /* set at completion: the MSB that failed, or -1 */
  uint32_t reserved;
  uint64_t time_us;    /* set at completion: the simulated time it completed */
  uint64_t reserved2;
  struct eadm_msb msb[EADM_MAX_MSBS];
};

#ifndef __cplusplus
_Static_assert(sizeof(struct eadm_msb) == 32, "MSB");
_Static_assert(__builtin_offsetof(struct eadm_aob, msb) == 32, "AOB header");

static inline long tpf_eadm(struct eadm_aob *aob) {
  register long r2 __asm__("r2") = (long)aob;
  __asm__ volatile("svc %[n]" : "+d"(r2) : [n] "i"(TPF_SVC_EADM) : "r0", "r1", "r3", "r4", "r5", "cc", "memory");
  return r2;
}
#endif

#endif
