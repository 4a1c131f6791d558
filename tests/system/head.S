/* The start of a bare-metal test program: a stack, then start_c; its return value is the
   code of the disabled wait PSW that ends the run (tpfemu ipl's exit status). The
   interruption handlers' entries save the registers in the lowcore (real 0x200-0x27f,
   free for programs), run the C handler on a stack of their own and load the old PSW. */
	.section .text.start, "ax"
	.globl	_start
_start:
	larl	%r15, stack_top
	aghi	%r15, -160
	brasl	%r14, start_c
	.globl	exit
exit:				/* exit(code): a disabled wait PSW with the code as its address */
	larl	%r1, wait_psw
	stg	%r2, 8(%r1)
	lpswe	0(%r1)

	.macro	ENTRY name, handler, old
	.globl	\name
\name:
	stmg	%r0, %r15, 0x200
	larl	%r15, irq_stack_top
	aghi	%r15, -160
	brasl	%r14, \handler
	lmg	%r0, %r15, 0x200
	lpswe	\old
	.endm

	ENTRY	program_entry, program_handler, 0x150
	ENTRY	svc_entry, svc_handler, 0x140
	ENTRY	external_entry, external_handler, 0x130
	ENTRY	io_entry, io_handler, 0x170

/* problem_state_round_trip(): into the problem state, a privileged instruction there
   (STPX: a privileged-operation exception the handler counts), and back through SVC 1,
   whose handler clears the problem-state bit of the SVC old PSW. */
	.globl	problem_state_round_trip
problem_state_round_trip:
	larl	%r1, problem_psw
	larl	%r2, 1f
	stg	%r2, 8(%r1)
	lpswe	0(%r1)
1:	stpx	0x380
	svc	1
	br	%r14

/* invalid_psw_round_trip(): LPSWE of a PSW with bit 0 on: an early specification
   exception (ILC 0, the invalid PSW the program old PSW); the handler resumes at
   resume_after_invalid_psw. */
	.globl	invalid_psw_round_trip
invalid_psw_round_trip:
	larl	%r1, resume_after_invalid_psw
	larl	%r2, 2f
	stg	%r2, 0(%r1)
	larl	%r1, invalid_psw
	larl	%r2, 2f
	stg	%r2, 8(%r1)
	lpswe	0(%r1)
2:	br	%r14

/* probe_load(a), probe_store(a, v): one access that may take a program interruption;
   the handler resumes at probe_resume (resume_at), else resume_at is cleared after. */
	.globl	probe_load
probe_load:
	larl	%r3, probe_resume
	larl	%r4, resume_at
	stg	%r3, 0(%r4)
	lgr	%r1, %r2
	lghi	%r2, -1
	.globl	probe_load_insn
probe_load_insn:
	lg	%r2, 0(%r1)
	j	probe_done
	.globl	probe_store
probe_store:
	larl	%r1, probe_resume
	larl	%r4, resume_at
	stg	%r1, 0(%r4)
	.globl	probe_store_insn
probe_store_insn:
	stg	%r3, 0(%r2)
probe_done:
	larl	%r4, resume_at
	mvghi	0(%r4), 0
probe_resume:
	br	%r14

/* I-stream 1's start, through its restart new PSW (selftest.c's sigp check): count
   itself in cpu1_started, send I-stream 0 an emergency signal, and once I-stream 0 let
   it go (cpu1_release), wait, disabled. */
	.globl	cpu1_entry
cpu1_entry:
	larl	%r15, cpu1_stack_top
	larl	%r1, cpu1_started
	asi	0(%r1), 1
	lghi	%r3, 0
	sigp	%r4, %r3, 3
	larl	%r1, cpu1_release	/* wait, running, until I-stream 0 had it (QEMU ends */
3:	lt	%r2, 0(%r1)		/* the run when every CPU it has is in a wait) */
	jz	3b
	larl	%r1, cpu1_wait_psw
	lpswe	0(%r1)

	.section .data
	.balign	8
cpu1_wait_psw:	.quad	0x0002000180000000, 0
	.globl	cpu1_started
cpu1_started:	.long	0
	.globl	cpu1_release
cpu1_release:	.long	0
	.balign	8
wait_psw:	.quad	0x0002000180000000, 0
problem_psw:	.quad	0x0101000180000000, 0	/* external mask on, as the caller runs */
	.globl	invalid_psw
invalid_psw:	.quad	0x8100000180000000, 0	/* bit 0 on; external mask on, as the caller runs */
	.globl	resume_at
resume_at:	.quad	0
	.globl	resume_after_invalid_psw
resume_after_invalid_psw: .quad 0

	.section .bss
	.balign	4096
	.space	65536
stack_top:
	.space	16384
irq_stack_top:
	.space	8192
cpu1_stack_top:
