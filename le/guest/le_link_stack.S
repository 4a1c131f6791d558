/* LE's LINK runs the linked program on its enclave's own stack ("linked programs
   have separate stacks", seed 003): le_link (le_tpf.c) got the initial stack segment
   from the LE region; this switches to it for the call and back after.

   int le_enter_on_stack(const char *name, void *msg, long len, void *top)
   calls tpf_enter(name, msg, len) with %r15 = top - 160 (the callee's register save
   area, s390x ELF ABI), the back chain 0 (a new stack's first frame). */
	.text
	.globl	le_enter_on_stack
	.type	le_enter_on_stack, @function
le_enter_on_stack:
	stmg	%r11,%r15,88(%r15)	/* callee-saved registers this uses, and the return address */
	lgr	%r11,%r15		/* the caller's stack, kept in a callee-saved register */
	aghi	%r5,-160
	lgr	%r15,%r5
	xc	0(8,%r15),0(%r15)
	brasl	%r14,tpf_enter		/* name, msg, len are still in %r2-%r4 */
	lgr	%r15,%r11
	lmg	%r11,%r15,88(%r15)
	br	%r14
	.size	le_enter_on_stack, .-le_enter_on_stack
	.section .note.GNU-stack,"",@progbits
