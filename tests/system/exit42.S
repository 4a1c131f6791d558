/* A binary image (objcopy -O binary), not an ELF: the IPL PSW in its first 8 bytes
   (ESA/390 form, bit 12 on, 31-bit address 0x200), which loads a disabled wait PSW
   whose code, 42, is tpfemu ipl's exit status. */
	.text
	.globl	_start
_start:
	.long	0x00080000, 0x80000200
	.org	0x200
	lpswe	wait
	.balign	8
wait:	.quad	0x0002000180000000, 42
