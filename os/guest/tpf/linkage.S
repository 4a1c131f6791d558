/* Where the control program makes programs and threads return to: at entry it puts
   __tpf_ecb_return (an ECB's program) or __tpf_thread_return (a thread's function)
   in r14. The returning function's value is in r2, which is exactly the operand of
   the exit services, so each is a single SVC. Assembly, because no compiler-made
   prologue may run here: the stack belongs to a function that has already returned.
   Nothing is flushed: see tpf.h on printf. */
#include <tpf_svc.h>

	.text
	.align	8
	.globl	__tpf_ecb_return
	.type	__tpf_ecb_return, @function
__tpf_ecb_return:
	svc	TPF_SVC_EXIT		/* r2 = the program's return value */
	.short	0			/* not reached; an invalid opcode if it ever were */
	.size	__tpf_ecb_return, .-__tpf_ecb_return

	.align	8
	.globl	__tpf_thread_return
	.type	__tpf_thread_return, @function
__tpf_thread_return:
	svc	TPF_SVC_THREAD_EXIT	/* r2 = the thread function's value */
	.short	0			/* not reached */
	.size	__tpf_thread_return, .-__tpf_thread_return

	.section .note.GNU-stack,"",@progbits
