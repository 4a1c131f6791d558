/* A binary image: DIAGNOSE X'308' subcode 1 (load normal) resets the configuration and
   IPLs again from what is in storage, the PSW at absolute 0 (as QEMU does for a
   -kernel image, and kvm-unit-tests' diag308 test expects). The program puts its own
   IPL PSW there first: the second IPL goes on at `again`, where CR0 must hold its
   initial value (0xE0) again. Exit status (the disabled wait's code): 7 when that is so,
   8 when CR0 was not reset, 9 when DIAGNOSE returned. */
	.text
	.globl	_start
_start:
	.long	0x00080000, 0x80000200
	.org	0x200
	lctlg	%c0, %c0, cr0_set	/* something the reset must undo */
	lg	%r1, reipl_psw
	stg	%r1, 0			/* the IPL PSW the second IPL loads */
	lghi	%r2, 1			/* subcode 1: load normal */
	diag	%r0, %r2, 0x308
	lpswe	wait9
again:	stctg	%c0, %c0, cr0_now
	clc	cr0_now(8), cr0_initial
	jne	1f
	lpswe	wait7
1:	lpswe	wait8
	.balign	8
reipl_psw:	.long	0x00080000, 0x80000000 + again
cr0_set:	.quad	0x00000000000400E0
cr0_initial:	.quad	0x00000000000000E0
cr0_now:	.quad	0
wait7:	.quad	0x0002000180000000, 7
wait8:	.quad	0x0002000180000000, 8
wait9:	.quad	0x0002000180000000, 9
