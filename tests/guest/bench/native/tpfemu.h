/* tpfemu.h for the benchmark built natively for the host (scripts/bench's physical
   reference, bench_alloc_native): one I-stream, as under Linux or QEMU. */
#ifndef TPFEMU_H
#define TPFEMU_H
static inline int tpf_istream(void) { return 0; }
static inline int tpf_istreams(void) { return 1; }
#endif
