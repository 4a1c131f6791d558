/* tpfemu's own calls for guest programs in exec mode, for programs that every
   I-stream runs from the start (tpfemu exec --istreams N --all-istreams-start). Under
   Linux (or QEMU) they fail with ENOSYS and a program behaves as if it ran alone on
   one I-stream. */
#ifndef TPFEMU_H
#define TPFEMU_H
#include <tpfemu_syscall.h>

#define SYS_tpf_istream 2016
#define SYS_tpf_istreams 2017

/* The number of the I-stream running the caller, from 0. */
static inline int tpf_istream(void) {
  long r = tpf_syscall_r1(SYS_tpf_istream, 0, 0, 0);
  return r < 0 ? 0 : (int)r;
}
/* How many I-streams run this program. */
static inline int tpf_istreams(void) {
  long r = tpf_syscall_r1(SYS_tpf_istreams, 0, 0, 0);
  return r < 0 ? 1 : (int)r;
}
#endif
