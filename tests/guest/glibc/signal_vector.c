/* A signal handler that overwrites all 32 vector registers must not change them for the
   interrupted program: the kernel saves them in the signal frame (_sigregs_ext, when
   AT_HWCAP has VXRS) and restores them on sigreturn. The handler also reports what the
   frame says (uc_flags' UC_VXRS, and one saved register). Built at -march=z10 like the
   other programs: the vector instructions are in inline assembly. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <ucontext.h>
#include <unistd.h>

static unsigned char before[32 * 16] __attribute__((aligned(16)));
static unsigned char after[32 * 16] __attribute__((aligned(16)));
static volatile unsigned long seen_flags, seen_v17_low, seen_v2_low;

#define ALL_VRS                                                                                       \
  "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", \
      "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", \
      "v30", "v31"

static void handler(int sig, siginfo_t *info, void *ctx) {
  (void)sig, (void)info;
  ucontext_t *uc = ctx;
  seen_flags = uc->uc_flags;
  /* _sigregs_ext follows the 128 bytes of uc_sigmask: vxrs_low[16], then vxrs_high[16]. */
  const unsigned char *ext = (const unsigned char *)&uc->uc_sigmask + 128;
  memcpy((void *)&seen_v2_low, ext + 8 * 2, 8);
  memcpy((void *)&seen_v17_low, ext + 128 + 16 * 1 + 8, 8);
  __asm__ volatile(".machine push\n.machine z13\n"
                   "vgbm %%v0,0xffff\n vlr %%v1,%%v0\n vlr %%v2,%%v0\n vlr %%v3,%%v0\n"
                   "vrepib %%v4,7\n vlr %%v5,%%v4\n vlr %%v6,%%v4\n vlr %%v7,%%v4\n"
                   "vlr %%v8,%%v4\n vlr %%v9,%%v4\n vlr %%v10,%%v4\n vlr %%v11,%%v4\n"
                   "vlr %%v12,%%v4\n vlr %%v13,%%v4\n vlr %%v14,%%v4\n vlr %%v15,%%v4\n"
                   "vgbm %%v16,0x1234\n vlr %%v17,%%v16\n vlr %%v18,%%v16\n vlr %%v19,%%v16\n"
                   "vlr %%v20,%%v16\n vlr %%v21,%%v16\n vlr %%v22,%%v16\n vlr %%v23,%%v16\n"
                   "vlr %%v24,%%v16\n vlr %%v25,%%v16\n vlr %%v26,%%v16\n vlr %%v27,%%v16\n"
                   "vlr %%v28,%%v16\n vlr %%v29,%%v16\n vlr %%v30,%%v16\n vlr %%v31,%%v16\n"
                   ".machine pop"
                   :
                   :
                   : ALL_VRS);
}

int main(void) {
  printf("VXRS in AT_HWCAP: %d\n", (getauxval(AT_HWCAP) & HWCAP_S390_VXRS) != 0);
  if (!(getauxval(AT_HWCAP) & HWCAP_S390_VXRS)) return 0;
  for (unsigned k = 0; k < sizeof before; ++k) before[k] = (unsigned char)(k * 7 + 3);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &sa, 0);
  long pid = getpid();
  /* Load every register, send the signal (kill, system call 37), store every register:
     no compiled code runs between, so only the kernel's frame can keep them. */
  __asm__ volatile(".machine push\n.machine z13\n"
                   "vlm %%v0,%%v15,0(%[b])\n vlm %%v16,%%v31,256(%[b])\n"
                   "lgr %%r2,%[pid]\n lghi %%r3,%[sig]\n svc 37\n"
                   "vstm %%v0,%%v15,0(%[a])\n vstm %%v16,%%v31,256(%[a])\n"
                   ".machine pop"
                   :
                   : [b] "a"(before), [a] "a"(after), [pid] "d"(pid), [sig] "i"(SIGUSR1)
                   : "r2", "r3", "memory", ALL_VRS);
  printf("uc_flags has UC_VXRS: %lu\n", seen_flags & 2);
  printf("frame: v2 bits 64-127 %016lx, v17 bits 64-127 %016lx\n", seen_v2_low, seen_v17_low);
  int same = memcmp(before, after, sizeof before) == 0;
  printf("vector registers kept across the handler: %s\n", same ? "yes" : "no");
  for (unsigned r = 0; r < 32 && !same; ++r)
    if (memcmp(before + 16 * r, after + 16 * r, 16)) printf("  v%u differs\n", r);
  return same ? 0 : 1;
}
