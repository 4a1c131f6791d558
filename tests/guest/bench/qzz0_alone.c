/* Benchmark: the demo transaction's own code (apps/qzz0.c, qzz1.c) without
   the control program. The TPF services it calls are plain functions here: storage
   from a static block, ENTER a direct call, DEFRC and LOG nothing. Its host time per
   message is what the machine alone costs; `tpfemu run` of the demo with the same
   messages shows what the control program adds (scripts/bench). */
#include <stdio.h>
#include <string.h>
#include <tpf.h>

tpf_program QZZ0, QZZ1;

static unsigned char block[8192] __attribute__((aligned(256)));
static long ecb = 1;

/* The control program hands out zeroed frames without guest instructions; QZZ0 writes
   every byte it reads, so the block is not cleared here either. */
void *tpf_getstor(unsigned long bytes) { return bytes > sizeof block ? 0 : block; }
int tpf_relstor(void *p) { return p == block ? 0 : -14; }
int tpf_enter(const char *name, void *msg, long len) { return strcmp(name, "QZZ1") == 0 ? QZZ1(msg, len) : -1; }
void tpf_defrc(void) {}
int tpf_log(const char *fmt, ...) { (void)fmt; return 0; }
long tpf_ecb_info(int what) { return what == TPF_INFO_ECB ? ecb : 0; }

int main(void) {
  /* Messages like the demo's: 256 bytes, a header then letters from a generator;
     16 of them made once, so the loop below is QZZ0's work. */
  static unsigned char msgs[16][256];
  unsigned long long x = 1;
  for (int m = 0; m < 16; ++m) {
    int n = snprintf((char *)msgs[m], sizeof msgs[m], "MSG%08d T%04d ", m + 1, m);
    for (int k = n; k < (int)sizeof msgs[m]; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      msgs[m][k] = (unsigned char)('A' + (x >> 33) % 26);
    }
  }
  long bad = 0;
  for (long m = 0; m < 10000; ++m, ++ecb) bad += QZZ0(msgs[m % 16], sizeof msgs[0]) != 0;
  printf("qzz0 alone: 10000 messages, %ld not OK\n", bad);
  return bad != 0;
}
