/* Language Environment's stack (issue 25, item 3): the anchor page that LE-conforming
   programs' prologue check reads, shared by the host (le/le_stack.cpp writes the
   settings, the subsystem reads the figures) and the guest (le_dsa_check.S). Every field
   is a big-endian doubleword at an offset from TPF_EVM_LE_ANCHOR (tpf_evm.h), which lies
   below 512 KB so that the inline check reaches it with base register 0 (CLG's long
   displacement is 20 bits, signed). #defines only: the assembler includes it.

   The check cmake/le_prologue.py inserts at the entry of each function of an
   LE-conforming program that allocates a frame of F bytes (before its STMG; r0 and r1
   are free there by the s390x ELF ABI):

       lay   %r1,-F(%r15)            the new frame's lowest address
       clg   %r1,TPF_EVM_LE_ANCHOR   LE_A_TRIP
       jnl   .Lok                    not below the trip: nothing to do (3 instructions)
       brasl %r0,__le_dsa_check      returns to r0 + 4
       .long F
     .Lok:

   The trip is the lowest frame address seen so far when nothing else is to be done
   (only new depth calls out: the stack's high-water mark and its next segment), and the
   largest address when every frame needs the routine (a STORAGE dsa_alloc byte to fill
   each frame with; STACK's FREE, whose segments go back at the next check). A process
   whose program is not on LE storage has the page all zero: a trip of 0, never taken. */
#ifndef LE_STACK_H
#define LE_STACK_H
/* TPF_EVM_LE_ANCHOR: tpf_evm.h, which the includer includes (host and guest find it by different paths). */

#define LE_A_TRIP 0x00       /* the inline check's operand */
#define LE_A_LOWEST 0x08     /* the lowest frame address seen (main's SP until a frame) */
#define LE_A_FLOOR 0x10      /* the lowest address of the stack's lowest segment */
#define LE_A_EXT_TOP 0x18    /* the end of the lowest increment segment, 0 if none (FREE) */
#define LE_A_TOP 0x20        /* the stack's top: its usage is measured from here */
#define LE_A_AREA 0x28       /* the ECB stack area's lowest address (below: a thread's stack) */
#define LE_A_FILL 0x30       /* STORAGE's dsa_alloc byte, or LE_FILL_NONE */
#define LE_A_FLAGS 0x38      /* LE_FLAG_* */
#define LE_A_STARTED 0x40    /* 0 until the enclave's first check ran (CLEAR then) */
#define LE_A_CALLS 0x48      /* how many times the routine ran (not reported; for tests) */
#define LE_ANCHOR_BYTES 0x50

#define LE_FILL_NONE 0x100
#define LE_FLAG_CLEAR 1      /* STORAGE(,,CLEAR) */
#define LE_FLAG_FREE 2       /* STACK(,,,FREE) */

#define LE_STACK_EXTEND 1    /* TPF_SVC_LE_STACK's operations (r2) */
#define LE_STACK_FREE 2

/* The routine's save area: below the new frame, where the ABI keeps nothing (s390x has
   no red zone), so that threads on their own stacks need no lock. */
#define LE_SAVE_BYTES 64

#endif
