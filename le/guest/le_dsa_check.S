/* __le_dsa_check: the out-of-line part of LE's prologue (issue 25, item 3; the inline
   part and the anchor's fields: le_stack.h). cmake/le_prologue.py appends this routine
   to each LE-conforming program's own assembly (a local symbol, in the program's slot),
   so that the TPF runtime, the heap and the locks, shared by every program, do not move
   and no other program's figures do.

   Called by `brasl %r0,__le_dsa_check` followed by `.long F`, with r1 = r15 - F (the new
   frame's lowest address), before the function's STMG. Returns to r0 + 4. Preserves
   every register but r0, r1 and the condition code (the ABI's free registers at a
   function's entry): r2-r9 go to the 64 bytes below the new frame.

   What it does, in order:
     - the enclave's first check (main's entry): STORAGE(,,CLEAR) clears the unused part
       of the initial stack segment, everything below main's SP but this save area, as
       LE does "just before the main program is given control" (seed 003);
     - STACK(,,,FREE): increment segments wholly below the new frame go back to the
       control program (TPF_SVC_LE_STACK, LE_STACK_FREE): the stack has returned out of
       them (ours: found at the next check, not at the return itself);
     - a frame below the stack's floor gets the next segment (LE_STACK_EXTEND); the
       segments are contiguous, so that incoming stack arguments stay addressable;
     - the lowest frame address, for RPTSTG's "Largest used by any thread";
     - STORAGE's dsa_alloc byte is stored into the F bytes of the new frame, by MVC
       propagation (PoO: MVC moves left to right one byte at a time, so a destination
       one byte past its source repeats the byte): F/256 + 1 MVCs, the cost growing
       with the frame, as LE's prologue fill does ("EXTREMELY HIGH OVERHEAD");
     - the trip for the next check.
   A frame outside the main stack (a thread's own stack) is only filled. */
#include <tpf_evm.h>
#include <le_stack.h>
#include <tpf_svc.h>

/* Stores byte r4 into [r2, r2 + r3), r3 > 0; r2, r3 change. */
.macro LE_FILL id
	stc	%r4,0(%r2)
	aghi	%r3,-1
	jz	.Lfill_done\id
.Lfill_loop\id:
	cghi	%r3,256
	jl	.Lfill_last\id
	mvc	1(256,%r2),0(%r2)
	la	%r2,256(%r2)
	aghi	%r3,-256
	jnz	.Lfill_loop\id
	j	.Lfill_done\id
.Lfill_last\id:
	aghi	%r3,-1
	exrl	%r3,.Lfill_mvc
.Lfill_done\id:
.endm

/* Zeroes [r2, r2 + r3), r3 > 0, by XC of the storage with itself; r2, r3 change. */
.macro LE_CLEAR id
.Lclear_loop\id:
	cghi	%r3,256
	jl	.Lclear_last\id
	xc	0(256,%r2),0(%r2)
	la	%r2,256(%r2)
	aghi	%r3,-256
	jnz	.Lclear_loop\id
	j	.Lclear_done\id
.Lclear_last\id:
	aghi	%r3,-1
	exrl	%r3,.Lclear_xc
.Lclear_done\id:
.endm

	.text
	.align	8
	.type	__le_dsa_check, @function
__le_dsa_check:
	/* Room for the save area below the new frame? Only r0 and r1 are free here, so the
	   anchor by absolute address. A frame past the end of the ECB's stack area (on the
	   main stack: a thread's SP is below the area) goes to LE_STACK, which ends the ECB
	   with a dump that names STACK and system.stack_size (r2, r3 need not survive). */
	clg	%r15,TPF_EVM_LE_ANCHOR+LE_A_AREA
	jl	.Lsave
	lay	%r1,-LE_SAVE_BYTES(%r1)
	clg	%r1,TPF_EVM_LE_ANCHOR+LE_A_AREA
	lay	%r1,LE_SAVE_BYTES(%r1)	/* LAY keeps the condition code */
	jnl	.Lsave
	lghi	%r2,LE_STACK_EXTEND
	lgr	%r3,%r1
	svc	TPF_SVC_LE_STACK
	j	.
.Lsave:
	stmg	%r2,%r9,-LE_SAVE_BYTES(%r1)
	lgr	%r6,%r0			/* r6: the .long F */
	lgr	%r7,%r1			/* r7: the new frame's lowest address */
	llgf	%r8,0(%r6)		/* r8: F */
	lgfi	%r9,TPF_EVM_LE_ANCHOR	/* r9: the anchor */
	lg	%r2,LE_A_CALLS(%r9)
	aghi	%r2,1
	stg	%r2,LE_A_CALLS(%r9)
	clg	%r15,LE_A_TOP(%r9)
	jh	.Lfill			/* not the main stack: a thread's */
	clg	%r7,LE_A_AREA(%r9)
	jl	.Lfill
	lg	%r2,LE_A_STARTED(%r9)
	ltgr	%r2,%r2
	jnz	.Lfree
	/* The enclave's first check: main is about to get control. */
	lghi	%r2,1
	stg	%r2,LE_A_STARTED(%r9)
	stg	%r15,LE_A_LOWEST(%r9)
	lg	%r2,LE_A_FLAGS(%r9)
	tmll	%r2,LE_FLAG_CLEAR
	jz	.Lfree
	lg	%r2,LE_A_FLOOR(%r9)	/* [floor, r7 - 64): below the save area */
	lay	%r3,-LE_SAVE_BYTES(%r7)
	sgr	%r3,%r2
	jnh	.Lclear_frame
	LE_CLEAR 1
.Lclear_frame:
	lgr	%r2,%r7			/* [r7, r15): main's own frame */
	lgr	%r3,%r8
	LE_CLEAR 2
.Lfree:
	lg	%r2,LE_A_FLAGS(%r9)
	tmll	%r2,LE_FLAG_FREE
	jz	.Lextend
.Lfree_loop:
	lg	%r2,LE_A_EXT_TOP(%r9)
	ltgr	%r2,%r2
	jz	.Lextend
	clgr	%r2,%r7
	jh	.Lextend		/* the lowest increment segment holds part of the new frame */
	lghi	%r2,LE_STACK_FREE
	svc	TPF_SVC_LE_STACK
	j	.Lfree_loop
.Lextend:
	clg	%r7,LE_A_FLOOR(%r9)
	jnl	.Llowest
	lghi	%r2,LE_STACK_EXTEND
	lgr	%r3,%r7
	svc	TPF_SVC_LE_STACK	/* the floor is at or below r7 after it (else the ECB ends) */
	j	.Lextend
.Llowest:
	clg	%r7,LE_A_LOWEST(%r9)
	jnl	.Lfill
	stg	%r7,LE_A_LOWEST(%r9)
.Lfill:
	lg	%r4,LE_A_FILL(%r9)
	cghi	%r4,LE_FILL_NONE
	jnl	.Ltrip
	lgr	%r2,%r7
	lgr	%r3,%r8
	LE_FILL 3
.Ltrip:
	lghi	%r2,-1			/* every check calls: a fill byte, or FREE */
	lg	%r3,LE_A_FILL(%r9)
	cghi	%r3,LE_FILL_NONE
	jl	.Lset_trip
	lg	%r3,LE_A_FLAGS(%r9)
	tmll	%r3,LE_FLAG_FREE
	jnz	.Lset_trip
	lg	%r2,LE_A_LOWEST(%r9)	/* else only new depth */
.Lset_trip:
	stg	%r2,LE_A_TRIP(%r9)
	lgr	%r1,%r7
	lgr	%r0,%r6
	lmg	%r2,%r9,-LE_SAVE_BYTES(%r1)
	lgr	%r1,%r0
	b	4(%r1)
/* The targets of EXRL: the last piece's length comes from r3. */
.Lfill_mvc:
	mvc	1(1,%r2),0(%r2)
.Lclear_xc:
	xc	0(1,%r2),0(%r2)
	.size	__le_dsa_check, .-__le_dsa_check
