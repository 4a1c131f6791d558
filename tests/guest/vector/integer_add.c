/* Vector integer add, subtract and their carries (z13 vector facility): VA, VACC, VS,
   VSCBI of every element size, byte through quadword; the quadword-only VAC, VACCC,
   VSBI, VSBCBI with both carry-ins; VAVG, VAVGL; VLC, VLP; VMX, VMXL, VMN, VMNL; and the
   vector-extension builtins GCC compiles to VA/VS/VAQ/VSQ. Operands: every element
   size's edge values (integer.h) and random vectors. */
#include "integer.h"

int main(void) {
  make_ops();
  T3("va %[r],%[a],%[b],0");
  T3("va %[r],%[a],%[b],1");
  T3("va %[r],%[a],%[b],2");
  T3("va %[r],%[a],%[b],3");
  T3("va %[r],%[a],%[b],4");
  T3("vacc %[r],%[a],%[b],0");
  T3("vacc %[r],%[a],%[b],1");
  T3("vacc %[r],%[a],%[b],2");
  T3("vacc %[r],%[a],%[b],3");
  T3("vacc %[r],%[a],%[b],4");
  T3("vs %[r],%[a],%[b],0");
  T3("vs %[r],%[a],%[b],1");
  T3("vs %[r],%[a],%[b],2");
  T3("vs %[r],%[a],%[b],3");
  T3("vs %[r],%[a],%[b],4");
  T3("vscbi %[r],%[a],%[b],0");
  T3("vscbi %[r],%[a],%[b],1");
  T3("vscbi %[r],%[a],%[b],2");
  T3("vscbi %[r],%[a],%[b],3");
  T3("vscbi %[r],%[a],%[b],4");
  /* The carry in is bit 127 of V4: the operands' last bits vary, and the all-ones
     sums (where only the carry in carries out) are among the edges. */
  T4("vac %[r],%[a],%[b],%[c],4");
  T4("vaccc %[r],%[a],%[b],%[c],4");
  T4("vsbi %[r],%[a],%[b],%[c],4");
  T4("vsbcbi %[r],%[a],%[b],%[c],4");
  {
    vb ones = splat_es(0, 0xFF), zero = splat_es(0, 0), one = splat_es(3, 0);
    one = (vb)vec_insert(1ull, (vd)one, 1);
    PUT("vaccq ones+0+1", V4("vaccc %[r],%[a],%[b],%[c],4", ones, zero, one));
    PUT("vacq ones+0+1", V4("vac %[r],%[a],%[b],%[c],4", ones, zero, one));
    PUT("vsbcbiq 0-0-1", V4("vsbcbi %[r],%[a],%[b],%[c],4", zero, zero, zero));
    PUT("vsbcbiq 0-0", V4("vsbcbi %[r],%[a],%[b],%[c],4", zero, zero, one));
    PUT("vsbiq 0-0-1", V4("vsbi %[r],%[a],%[b],%[c],4", zero, zero, zero));
  }
  T3("vavg %[r],%[a],%[b],0");
  T3("vavg %[r],%[a],%[b],1");
  T3("vavg %[r],%[a],%[b],2");
  T3("vavg %[r],%[a],%[b],3");
  T3("vavgl %[r],%[a],%[b],0");
  T3("vavgl %[r],%[a],%[b],1");
  T3("vavgl %[r],%[a],%[b],2");
  T3("vavgl %[r],%[a],%[b],3");
  T2("vlc %[r],%[a],0");
  T2("vlc %[r],%[a],1");
  T2("vlc %[r],%[a],2");
  T2("vlc %[r],%[a],3");
  T2("vlp %[r],%[a],0");
  T2("vlp %[r],%[a],1");
  T2("vlp %[r],%[a],2");
  T2("vlp %[r],%[a],3");
  T3("vmx %[r],%[a],%[b],0");
  T3("vmx %[r],%[a],%[b],1");
  T3("vmx %[r],%[a],%[b],2");
  T3("vmx %[r],%[a],%[b],3");
  T3("vmxl %[r],%[a],%[b],0");
  T3("vmxl %[r],%[a],%[b],1");
  T3("vmxl %[r],%[a],%[b],2");
  T3("vmxl %[r],%[a],%[b],3");
  T3("vmn %[r],%[a],%[b],0");
  T3("vmn %[r],%[a],%[b],1");
  T3("vmn %[r],%[a],%[b],2");
  T3("vmn %[r],%[a],%[b],3");
  T3("vmnl %[r],%[a],%[b],0");
  T3("vmnl %[r],%[a],%[b],1");
  T3("vmnl %[r],%[a],%[b],2");
  T3("vmnl %[r],%[a],%[b],3");
  /* What GCC emits for the vector extension's operators and <vecintrin.h>. */
  for (int j = 0; j < NOPS; ++j) {
    vd a = (vd)op_a(j), b = (vd)op_b(j);
    vw aw = (vw)a, bw = (vw)b;
    PUT("+d", a + b);
    PUT("-w", aw - bw);
    PUT("vec_add_u128", vec_add_u128((vb)a, (vb)b));
    PUT("vec_sub_u128", vec_sub_u128((vb)a, (vb)b));
    PUT("vec_max", vec_max((__vector signed int)aw, (__vector signed int)bw));
    PUT("vec_min", vec_min(aw, bw));
    PUT("vec_avg", vec_avg((__vector signed short)a, (__vector signed short)b));
    PUT("vec_abs", vec_abs((__vector signed long long)a));
  }
  return 0;
}
