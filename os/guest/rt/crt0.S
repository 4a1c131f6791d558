# Process entry, as the Linux kernel (and qemu-s390x) start a static program:
# r15 points at argc, then argv[], NULL, envp[], NULL, auxv.
	.text
	.globl	_start
	.type	_start, @function
_start:
	lgr	%r2,%r15		# __rt_start(sp)
	aghi	%r15,-160		# register save area of the s390x ELF ABI
	xc	0(8,%r15),0(%r15)	# back chain ends here
	brasl	%r14,__rt_start
	.long	0			# not reached: __rt_start exits
	.size	_start, .-_start
	.section .note.GNU-stack,"",@progbits
