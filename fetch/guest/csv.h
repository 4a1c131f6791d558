/* The contents supervisor's guest side and the fetch subsystem's host side agree on
   this (issue 47): where a process's contents supervisor work area lies, the request
   block the guest hands each LOAD, BLDL and DELETE SVC, and the steps the host asks the
   guest to do between its channel programs. C for the guest (fetch/guest/qcsv.c) and
   C++ for the host (fetch/fetch_subsystem.cpp); all fields big-endian, as the guest
   stores them.

   The host does what the channel and the device do (the channel programs, their bytes
   placed in guest storage: a directory block or page, a member's records) and keeps the
   books (fetch.txt); the guest does what z/OS's contents supervisor and program fetch
   do with the CPU (comparing member names, processing control and RLD records,
   relocating the adcons in the loaded text, building and releasing the contents
   directory entries), so that their CPU is what it executes. */
#ifndef FETCH_GUEST_CSV_H
#define FETCH_GUEST_CSV_H
#ifdef __cplusplus
#include "os/guest/include/tpf_evm.h"
#else
#include <tpf_evm.h>
#endif

/* The work area at the start of the process's fetched-programs area (mapped by the host
   when the process starts, demand-zero): its anchor, the CDE pool, LLA's directory as
   the process sees it, the buffer the channel programs' records land in. Modules after. */
#define CSV_AREA TPF_EVM_FETCHED
#define CSV_AREA_CDES (CSV_AREA + 0x1000UL)
#define CSV_AREA_CDES_END (CSV_AREA + 0x20000UL)
#define CSV_AREA_LLA (CSV_AREA + 0x20000UL)
#define CSV_AREA_LLA_END (CSV_AREA + 0x40000UL)
#define CSV_AREA_BUFFER (CSV_AREA + 0x40000UL)
#define CSV_AREA_BUFFER_END (CSV_AREA + 0x140000UL)
#define CSV_AREA_END (CSV_AREA + 0x200000UL)
#define CSV_LLA_ENTRY_BYTES 16 /* name (8), LLA's index (4), 4 zero; in name order */
#define CSV_CDE_BYTES 48

/* What the host asks of the guest (r2 when the SVC returns, and the request's step). */
#define CSV_DONE 0       /* LOAD: module/size/entry set; BLDL: count = found, size */
#define CSV_FIND_CDE 1   /* the process's CDE chain searched for the name: answer = the CDE (use count raised) or 0 */
#define CSV_LLA 2        /* data: count LLA entries; answer = the index of the name's, or -1 */
#define CSV_PDS_BLOCK 3  /* data: a 256-byte PDS directory block; answer = the offset of the name's entry, or -1 */
#define CSV_PDSE_PAGE 4  /* data: a 4 KB PDSE directory page; answer = the entry to follow, or -1 */
#define CSV_RECORDS 5    /* data: count load module records (each: length (4), its bytes, to a 4-byte boundary),
                            the text records already in the module: control records checked, RLD items relocated;
                            answer = the adcons relocated */
#define CSV_PDSE_RLD 6   /* data: count B_RLD items of 16 bytes (offset (4), flags (1), 11 zero): the adcons in the
                            loaded part (size) relocated; answer = the adcons relocated */
#define CSV_BUILD_CDE 7  /* a CDE for the module built and chained: answer = the CDE, or 0 if the pool is full */

/* Byte offsets of the request block (on the caller's stack, 8-aligned). */
#define CSV_RQ_NAME 0    /* 8: the name, EBCDIC-free: as the caller gives it, NUL padded */
#define CSV_RQ_STEP 8    /* 4 */
#define CSV_RQ_COUNT 12  /* 4 */
#define CSV_RQ_DATA 16   /* 8 */
#define CSV_RQ_MODULE 24 /* 8: the module's load address */
#define CSV_RQ_SIZE 32   /* 4: its bytes */
#define CSV_RQ_ENTRY 36  /* 4: its entry point's offset */
#define CSV_RQ_ANSWER 40 /* 8 */
#define CSV_RQ_BYTES 48

/* DELETE's answer (the request's answer when the guest issues the SVC). */
#define CSV_DELETE_NOT_LOADED 0
#define CSV_DELETE_LOWERED 1 /* the use count went down */
#define CSV_DELETE_RELEASED 2 /* it reached 0: the CDE freed; the host gives the storage back */

#ifndef __cplusplus
#include <stdint.h>
struct csv_request {
  char name[8];
  uint32_t step, count;
  uint64_t data, module;
  uint32_t size, entry;
  int64_t answer;
};
struct csv_cde {
  uint64_t next;
  char name[8];
  uint64_t address;
  uint32_t size, entry;
  uint64_t uses;
  uint64_t spare;
};
struct csv_anchor {
  uint64_t cdes;      /* the chain of this process's loaded modules */
  uint64_t free;      /* CDEs given back */
  uint64_t next;      /* the pool's first never-used CDE (0: CSV_AREA_CDES) */
};
_Static_assert(sizeof(struct csv_request) == CSV_RQ_BYTES, "the request block's layout");
_Static_assert(__builtin_offsetof(struct csv_request, answer) == CSV_RQ_ANSWER, "the request block's layout");
_Static_assert(sizeof(struct csv_cde) == CSV_CDE_BYTES, "a CDE's size");
#endif
#endif
