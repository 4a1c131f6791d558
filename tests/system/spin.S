/* Spins forever: --max-instructions stops it (exit status 124). */
	.section .text.start, "ax"
	.globl	_start
_start:	j	_start
