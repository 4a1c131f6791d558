/* I-stream 1's routines for sigp.c, each entered through its restart new PSW (SIGP
   restart); each sets cpu1_flag when it is where I-stream 0 wants it. */
	.machine z13
	.text

/* A marker in GR2, then a loop: SIGP stop and store status catches it there. */
	.globl	cpu1_mark_spin
	.globl	cpu1_mark_spin_loop
cpu1_mark_spin:
	llihf	%r2, 0x01234567
	iilf	%r2, 0x89abcdef
	larl	%r1, cpu1_flag
	mvhi	0(%r1), 1
cpu1_mark_spin_loop:
	j	cpu1_mark_spin_loop

/* The 32 vector registers from vector_pattern (CR0 bit 46, the vector enablement
   control, on first), then a loop: for SIGP store additional status. */
	.globl	cpu1_vectors
cpu1_vectors:
	larl	%r1, cr0_save
	stctg	%c0, %c0, 0(%r1)
	oi	5(%r1), 0x02
	lctlg	%c0, %c0, 0(%r1)
	larl	%r1, vector_pattern
	vlm	%v0, %v15, 0(%r1)
	vlm	%v16, %v31, 256(%r1)
	larl	%r1, cpu1_flag
	mvhi	0(%r1), 1
0:	j	0b

/* CR0 bit 54 (the service-signal subclass) on, then an enabled wait: a service signal
   floating in the configuration is this I-stream's to take. */
	.globl	cpu1_service_wait
cpu1_service_wait:
	larl	%r1, cr0_save
	stctg	%c0, %c0, 0(%r1)
	oi	6(%r1), 0x02
	lctlg	%c0, %c0, 0(%r1)
	larl	%r1, cpu1_flag
	mvhi	0(%r1), 1
	larl	%r1, cpu1_enabled_wait
	lpswe	0(%r1)

/* I-stream 1's external new PSW (disabled): the code from its lowcore, counted. */
	.globl	cpu1_external
cpu1_external:
	larl	%r1, cpu1_ext_code
	mvc	0(2,%r1), 0x86
	larl	%r1, cpu1_ext_count
	asi	0(%r1), 1
0:	j	0b

	.section .data
	.balign	8
cpu1_enabled_wait:	.quad	0x0102000180000000, 0
cr0_save:	.quad	0
	.globl	cpu1_flag
cpu1_flag:	.long	0
	.globl	cpu1_ext_count
cpu1_ext_count:	.long	0
	.globl	cpu1_ext_code
cpu1_ext_code:	.short	0
