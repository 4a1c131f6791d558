/* System calls of the Linux-compatible mode (s390x numbers). Numbers below 256 go
   in the SVC instruction itself, as glibc does; larger ones use SVC 0 with r1. */
#ifndef TPFEMU_SYSCALL_H
#define TPFEMU_SYSCALL_H

#define SYS_exit 1
#define SYS_write 4
#define SYS_brk 45
#define SYS_exit_group 248

#define __tpf_svc3(nr, a, b, c)                                                  \
  ({                                                                             \
    register long __r2 __asm__("r2") = (long)(a);                                \
    register long __r3 __asm__("r3") = (long)(b);                                \
    register long __r4 __asm__("r4") = (long)(c);                                \
    __asm__ volatile("svc %[n]" : "+d"(__r2) : [n] "i"(nr), "d"(__r3), "d"(__r4) \
                     : "memory", "cc");                                          \
    __r2;                                                                        \
  })

static inline long tpf_syscall_r1(long nr, long a, long b, long c) {
  register long r1 __asm__("r1") = nr;
  register long r2 __asm__("r2") = a;
  register long r3 __asm__("r3") = b;
  register long r4 __asm__("r4") = c;
  __asm__ volatile("svc 0" : "+d"(r2) : "d"(r1), "d"(r3), "d"(r4) : "memory", "cc");
  return r2;
}

#endif
