/* The control program's services as guest code calls them: SVC numbers and register
   conventions. One place for the ABI, shared by the host (os/control_program.cpp) and
   the guest runtime (os/guest/tpf/).

   Calling convention: arguments in r2, r3, r4 (and r5), result in r2, like a C call.
   Numbers 100..139 are the TPF services. The Linux-compatible numbers the C runtime
   uses are served too, so ordinary C runs inside an ECB:
     SVC 4  write(fd, buf, len)  -> appended to the run's log (fd 1 and 2)
     SVC 1 / SVC 248 exit        -> the ECB exits (same as TPF_SVC_EXIT)
     SVC 0 with r1 = 45, brk     -> grows the ECB's (or thread process's) private heap
                                    in its 31-bit heap area

   Program entry: an ECB starts at the entry of its program with
     r2 = the input message's address in the ECB's storage (0 if none),
     r3 = its length, r14 = the address of __tpf_ecb_return (returning from the
     program exits the ECB with the returned value), r15 = stack top - 160.
   A thread starts at its function with r2 = the argument, r3 = 0 and r14 = the
   address of __tpf_thread_return (returning exits the thread with r2).
   Writable static storage (.data, .bss) is the process's own: each ECB (with its
   threads) starts from the image's initial values. */
#ifndef TPF_SVC_H
#define TPF_SVC_H

#define TPF_SVC_EXIT 100          /* r2 = return code; does not return */
#define TPF_SVC_ENTER 101         /* r2 = program name (C string) -> r2 = entry address, 0 if unknown */
#define TPF_SVC_BACK 102          /* after an entered program returns (linkage accounting) */
#define TPF_SVC_CREATE 103        /* r2 = program name, r3 = message address, r4 = its length,
                                     r5 = TPF_CREATE_* -> r2 = new ECB number, or -1 */
#define TPF_SVC_DEFER 104         /* give up control: to the bottom of the deferred list */
#define TPF_SVC_DELAY 105         /* r2 = microseconds: give up control for at least that long */
#define TPF_SVC_GETSTOR 106       /* r2 = bytes -> r2 = address of zeroed system storage (4 KB
                                     multiples, in the ECB's 31-bit area), 0 if none left */
#define TPF_SVC_RELSTOR 107       /* r2 = address returned by GETSTOR */
#define TPF_SVC_THREAD_CREATE 108 /* r2 = function, r3 = argument -> r2 = thread id, or -1 */
#define TPF_SVC_THREAD_JOIN 109   /* r2 = thread id -> r2 = the thread's return value */
#define TPF_SVC_THREAD_EXIT 110   /* r2 = return value; does not return */
#define TPF_SVC_WAIT 111          /* r2 = event number: wait until it is posted (count > 0) */
#define TPF_SVC_POST 112          /* r2 = event number: post once (wakes one waiter) */
#define TPF_SVC_LOG 113           /* r2 = address, r3 = length: one line to the run's log */
#define TPF_SVC_ECB_INFO 114      /* r2 = TPF_INFO_* -> r2 = the value */
#define TPF_SVC_WORD_WAIT 115     /* r2 = address of a doubleword, r3 = expected value: if the
                                     word still holds it, give up control until a WORD_WAKE on
                                     that storage (r2 = 0); else return at once (r2 = 1). The
                                     check and the wait are one step: no wake-up is lost. */
#define TPF_SVC_WORD_WAKE 116     /* r2 = address, r3 = how many -> r2 = ECBs woken (oldest
                                     first; each to its own I-stream's ready list) */

#define TPF_SVC_HEAP_FRAME 117    /* r2 = 0: the 31-bit ECB heap area, 1: the 64-bit one -> r2 = the
                                     address of the area's next 1 MB (a 1 MB frame, or 4 KB frames if
                                     none is left), 0 if the area is full */
#define TPF_SVC_HEAP_ERROR 118    /* r2 = EHEAP_ERR_*, r3 = the address, r4 = where the heap was called
                                     from (0: unknown): ends the ECB with a dump */
#define TPF_SVC_HEAP_LOCK 119     /* the process's ECB heap lock: waits while another of its
                                     threads holds it */
#define TPF_SVC_HEAP_UNLOCK 120
#define TPF_SVC_EADM 121          /* r2 = address of an EADM AOB (devices/guest/eadm.h): starts it on
                                     the Flash Express SCM and gives up control until its completion;
                                     r2 = 0 done, else its status (EADM_* ; the AOB says which MSB) */
#define TPF_SVC_SDUMP 122         /* r2 = address of a title (NUL-terminated): an SVC dump of this
                                     ECB's process (paging/svc_dump.cpp); the process is not dispatched
                                     until its storage is captured. r2 = the dump's number, 0 if not taken */
#define TPF_SVC_GETSTOR_VIO 123   /* as TPF_SVC_GETSTOR, for virtual I/O storage (a temporary data set
                                     kept in virtual storage, as z/OS's VIO): its pages are paged out to
                                     page data sets on DASD only, never to SCM (paging/paging.cpp) */

/* Language Environment storage (le/, issue 25). */
#define TPF_SVC_LE_START 124      /* r2 = an enclave's block (struct le_enclave, le/guest/le_enclave.h; the
                                     process's first enclave's is followed by its heap pools' block,
                                     struct le_process_storage), r3 = 0 for the process's first enclave
                                     (its ECB's program), else the name of the program a LINK starts ->
                                     r2 = 1 and the blocks' options set (system.le) if that program runs
                                     on LE storage, else 0 */
#define TPF_SVC_LE_GETMAIN 125    /* r2 = bytes, r3 = 1 if below 16 MB -> r2 = the address of that
                                     much of the process's LE region (8-byte aligned, below 4 GB), 0 if
                                     the region (system.le.region) has no room */
#define TPF_SVC_LE_FREEMAIN 126   /* r2 = an address LE_GETMAIN returned, r3 = its bytes */
#define TPF_SVC_LE_STACK 127      /* r2 = LE_STACK_EXTEND, r3 = the new frame's lowest address: the
                                     stack's next segment, so that the frame fits (the process's LE
                                     anchor, le/guest/le_stack.h, gets the new floor); r2 =
                                     LE_STACK_FREE: the lowest segment goes back. Called only by
                                     __le_dsa_check (le/guest/le_dsa_check.S) */
#define TPF_SVC_LE_END 130        /* r2 = a LINKed enclave's block, before its storage goes: its statistics
                                     are read (RPTSTG) */
#define TPF_SVC_LE_AVAILABLE 131  /* r2 = 1 for below 16 MB -> r2 = bytes of the LE region this process
                                     can still get (system.le.region less what it holds) */

/* Program fetch from a load library (fetch/, issue 26): z/OS's LOAD, DELETE and BLDL, issued by
   the contents supervisor's guest code (fetch/guest/qcsv.c, issue 47) with r2 = its request block
   (fetch/guest/csv.h). Each returns r2 = the next step for the guest (CSV_DONE: the answer is in
   the request block); the ECB waits for each channel program. A name not in the library or a
   library that cannot be read ends the ECB with an abend dump (806, 106), as z/OS does. */
#define TPF_SVC_LOAD 132
#define TPF_SVC_DELETE 133
#define TPF_SVC_BLDL 134

#define TPF_SVC_GETSTOR64 135     /* as TPF_SVC_GETSTOR, in the ECB's 64-bit system area
                                     (TPF_EVM_SYSTEM64, above the bar); tpf_relstor returns it */

#define TPF_CREATE_IMMEDIATE 0    /* to this I-stream's ready list */
#define TPF_CREATE_DEFERRED 1     /* to this I-stream's deferred list */
#define TPF_CREATE_ANY 2          /* to the shared cross list: any I-stream takes it */

#define TPF_INFO_ECB 0            /* this ECB's number */
#define TPF_INFO_ISTREAM 1        /* the I-stream running it */
#define TPF_INFO_ISTREAMS 2       /* how many I-streams */
#define TPF_INFO_THREAD 3         /* thread id within its process (0: not a thread) */
#define TPF_INFO_TIME_US 4        /* simulated time in microseconds */
#define TPF_INFO_SHARED_SIZE 5    /* bytes of the shared system area */
#define TPF_INFO_HEAP_CLASS 6     /* 1: an SSL/Java ECB (system.ecb_heap.ssl_programs), 0: application */

/* System storage shared by every ECB (system.shared_size bytes, zeroed at start) is
   at TPF_EVM_SHARED: where system-wide structures live, such as the syslog buffer and
   its lock. The whole address map is tpf_evm.h. */
#include "tpf_evm.h"

#endif
