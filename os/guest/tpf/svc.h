/* The SVC instruction with the control program's register convention (tpf_svc.h):
   arguments in r2..r5, result in r2. The host changes only r2, but these macros
   let r0..r5 change as in a C call, so the host stays free to use them; "memory"
   because services read and write guest storage and other ECBs or threads run
   while the caller has given up control. Internal to os/guest/tpf. */
#ifndef TPF_RT_SVC_H
#define TPF_RT_SVC_H
#include <tpf_svc.h>

#define TPF_SVC_CLOBBERS "r0", "r1", "memory", "cc"

#define TPF_SVC1(nr, a)                                                             \
  ({                                                                                \
    register long __r2 __asm__("r2") = (long)(a);                                   \
    __asm__ volatile("svc %[n]" : "+d"(__r2) : [n] "i"(nr)                          \
                     : "r3", "r4", "r5", TPF_SVC_CLOBBERS);                         \
    __r2;                                                                           \
  })

#define TPF_SVC2(nr, a, b)                                                          \
  ({                                                                                \
    register long __r2 __asm__("r2") = (long)(a);                                   \
    register long __r3 __asm__("r3") = (long)(b);                                   \
    __asm__ volatile("svc %[n]" : "+d"(__r2), "+d"(__r3) : [n] "i"(nr)              \
                     : "r4", "r5", TPF_SVC_CLOBBERS);                               \
    __r2;                                                                           \
  })

#define TPF_SVC4(nr, a, b, c, d)                                                    \
  ({                                                                                \
    register long __r2 __asm__("r2") = (long)(a);                                   \
    register long __r3 __asm__("r3") = (long)(b);                                   \
    register long __r4 __asm__("r4") = (long)(c);                                   \
    register long __r5 __asm__("r5") = (long)(d);                                   \
    __asm__ volatile("svc %[n]" : "+d"(__r2), "+d"(__r3), "+d"(__r4), "+d"(__r5)    \
                     : [n] "i"(nr) : TPF_SVC_CLOBBERS);                             \
    __r2;                                                                           \
  })

/* Services without arguments still get r2 = 0, so the host never sees garbage. */
#define TPF_SVC0(nr) TPF_SVC1(nr, 0)

#endif
