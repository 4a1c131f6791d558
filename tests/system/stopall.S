/* Stops its own I-stream with SIGNAL PROCESSOR stop, as kvm-unit-tests' exit() does:
   with every I-stream stopped the run ends, exit status 0. */
	.section .text.start, "ax"
	.globl	_start
_start:	stap	cpuaddr
	lh	%r2, cpuaddr
	sigp	%r0, %r2, 5		/* order 5: stop */
	j	_start
	.balign	2
cpuaddr: .short	0
