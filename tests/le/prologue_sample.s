# GCC's s390x assembly (-O2 -march=z10 -fno-shrink-wrap), trimmed: one function per
# prologue form of cmake/le_prologue.py, and the functions that must get no check.
.text
	.align	8
.globl leaf
	.type	leaf, @function
leaf:
	ahi	%r2,1
	lgfr	%r2,%r2
	br	%r14
	.size	leaf, .-leaf
.globl small_aghi
	.type	small_aghi, @function
small_aghi:
	stmg	%r14,%r15,112(%r15)
	aghi	%r15,-168
	brasl	%r14,g@PLT
	lmg	%r14,%r15,280(%r15)
	br	%r14
	.size	small_aghi, .-small_aghi
.globl mid_lay
	.type	mid_lay, @function
mid_lay:
	stmg	%r14,%r15,112(%r15)
	lgr	%r1,%r2
	lay	%r15,-8160(%r15)
	brasl	%r14,g@PLT
	lmg	%r14,%r15,8272(%r15)
	br	%r14
	.size	mid_lay, .-mid_lay
.globl big_agfi
	.type	big_agfi, @function
big_agfi:
	stmg	%r14,%r15,112(%r15)
	agfi	%r15,-600000
	brasl	%r14,g@PLT
	br	%r14
	.size	big_agfi, .-big_agfi
.globl huge_slgfi
	.type	huge_slgfi, @function
huge_slgfi:
	stmg	%r13,%r15,104(%r15)
	larl	%r13,.L9
	slgfi	%r15,800160
	brasl	%r14,g@PLT
	br	%r14
	.size	huge_slgfi, .-huge_slgfi
.globl tail_only
	.type	tail_only, @function
tail_only:
	lgr	%r3,%r2
	jg	g@PLT
	.size	tail_only, .-tail_only
.globl late_frame
	.type	late_frame, @function
late_frame:
	cgije	%r2,0,.L5
	aghi	%r15,-200
.L5:
	br	%r14
	.size	late_frame, .-late_frame
