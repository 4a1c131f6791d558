/* Vector integer multiplies (z13 vector facility; VMSL from vector-enhancements
   facility 1): VML, VMH, VMLH, VME, VMLE, VMO, VMLO and the multiply-and-add forms
   VMAL, VMAH, VMALH, VMAE, VMALE, VMAO, VMALO, for bytes, halfwords and words; VMSL
   with each M6 doubling; VGFM and VGFMA of every element size; and the builtins
   GCC compiles to them. */
#include "integer.h"

int main(void) {
  make_ops();
  T3("vml %[r],%[a],%[b],0");
  T3("vml %[r],%[a],%[b],1");
  T3("vml %[r],%[a],%[b],2");
  T3("vmh %[r],%[a],%[b],0");
  T3("vmh %[r],%[a],%[b],1");
  T3("vmh %[r],%[a],%[b],2");
  T3("vmlh %[r],%[a],%[b],0");
  T3("vmlh %[r],%[a],%[b],1");
  T3("vmlh %[r],%[a],%[b],2");
  T3("vme %[r],%[a],%[b],0");
  T3("vme %[r],%[a],%[b],1");
  T3("vme %[r],%[a],%[b],2");
  T3("vmle %[r],%[a],%[b],0");
  T3("vmle %[r],%[a],%[b],1");
  T3("vmle %[r],%[a],%[b],2");
  T3("vmo %[r],%[a],%[b],0");
  T3("vmo %[r],%[a],%[b],1");
  T3("vmo %[r],%[a],%[b],2");
  T3("vmlo %[r],%[a],%[b],0");
  T3("vmlo %[r],%[a],%[b],1");
  T3("vmlo %[r],%[a],%[b],2");
  T4("vmal %[r],%[a],%[b],%[c],0");
  T4("vmal %[r],%[a],%[b],%[c],1");
  T4("vmal %[r],%[a],%[b],%[c],2");
  T4("vmah %[r],%[a],%[b],%[c],0");
  T4("vmah %[r],%[a],%[b],%[c],1");
  T4("vmah %[r],%[a],%[b],%[c],2");
  T4("vmalh %[r],%[a],%[b],%[c],0");
  T4("vmalh %[r],%[a],%[b],%[c],1");
  T4("vmalh %[r],%[a],%[b],%[c],2");
  T4("vmae %[r],%[a],%[b],%[c],0");
  T4("vmae %[r],%[a],%[b],%[c],1");
  T4("vmae %[r],%[a],%[b],%[c],2");
  T4("vmale %[r],%[a],%[b],%[c],0");
  T4("vmale %[r],%[a],%[b],%[c],1");
  T4("vmale %[r],%[a],%[b],%[c],2");
  T4("vmao %[r],%[a],%[b],%[c],0");
  T4("vmao %[r],%[a],%[b],%[c],1");
  T4("vmao %[r],%[a],%[b],%[c],2");
  T4("vmalo %[r],%[a],%[b],%[c],0");
  T4("vmalo %[r],%[a],%[b],%[c],1");
  T4("vmalo %[r],%[a],%[b],%[c],2");
  T4("vmsl %[r],%[a],%[b],%[c],3,0");
  T4("vmsl %[r],%[a],%[b],%[c],3,8");
  T4("vmsl %[r],%[a],%[b],%[c],3,4");
  T4("vmsl %[r],%[a],%[b],%[c],3,12");
  T3("vgfm %[r],%[a],%[b],0");
  T3("vgfm %[r],%[a],%[b],1");
  T3("vgfm %[r],%[a],%[b],2");
  T3("vgfm %[r],%[a],%[b],3");
  T4("vgfma %[r],%[a],%[b],%[c],0");
  T4("vgfma %[r],%[a],%[b],%[c],1");
  T4("vgfma %[r],%[a],%[b],%[c],2");
  T4("vgfma %[r],%[a],%[b],%[c],3");
  /* What GCC emits for the vector extension's operators and the builtins. */
  for (int j = 0; j < NOPS; ++j) {
    vw a = (vw)op_a(j), b = (vw)op_b(j), c = (vw)op_c(j);
    PUT("*w", a * b);
    PUT("*h", (vh)a * (vh)b);
    PUT("vec_mule", vec_mule((__vector signed int)a, (__vector signed int)b));
    PUT("vec_mulo", vec_mulo((vh)a, (vh)b));
    PUT("vec_mulh", vec_mulh(a, b));
    PUT("vec_meadd", vec_meadd((vh)a, (vh)b, c));
    PUT("vec_moadd", vec_moadd((__vector signed char)a, (__vector signed char)b, (__vector signed short)c));
    PUT("vec_mhadd", vec_mhadd(a, b, c));
    PUT("vec_gfmsum", vec_gfmsum((vh)a, (vh)b));
    PUT("vec_msum_u128", vec_msum_u128((vd)a, (vd)b, (vb)c, 4));
  }
  return 0;
}
