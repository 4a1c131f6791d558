/* Vector integer compares, counts and sums (z13 vector facility; VPOPCT of halfwords
   and wider from vector-enhancements facility 1): VCEQ, VCH, VCHL with and without the
   CS bit (results and condition codes, every element size), VEC, VECL, VTM, VCLZ, VCTZ,
   VPOPCT, VSUM, VSUMG, VSUMQ, and the <vecintrin.h> compares GCC emits. */
#include "integer.h"

int main(void) {
  make_ops();
  T3("vceq %[r],%[a],%[b],0,0");
  T3("vceq %[r],%[a],%[b],1,0");
  T3("vceq %[r],%[a],%[b],2,0");
  T3("vceq %[r],%[a],%[b],3,0");
  T3("vch %[r],%[a],%[b],0,0");
  T3("vch %[r],%[a],%[b],1,0");
  T3("vch %[r],%[a],%[b],2,0");
  T3("vch %[r],%[a],%[b],3,0");
  T3("vchl %[r],%[a],%[b],0,0");
  T3("vchl %[r],%[a],%[b],1,0");
  T3("vchl %[r],%[a],%[b],2,0");
  T3("vchl %[r],%[a],%[b],3,0");
  T3CC("vceqbs %[r],%[a],%[b]");
  T3CC("vceqhs %[r],%[a],%[b]");
  T3CC("vceqfs %[r],%[a],%[b]");
  T3CC("vceqgs %[r],%[a],%[b]");
  T3CC("vchbs %[r],%[a],%[b]");
  T3CC("vchhs %[r],%[a],%[b]");
  T3CC("vchfs %[r],%[a],%[b]");
  T3CC("vchgs %[r],%[a],%[b]");
  T3CC("vchlbs %[r],%[a],%[b]");
  T3CC("vchlhs %[r],%[a],%[b]");
  T3CC("vchlfs %[r],%[a],%[b]");
  T3CC("vchlgs %[r],%[a],%[b]");
  /* All equal (CC 0) and all high (CC 0 for VCH) on purpose. */
  for (int j = 0; j < 4; ++j) {
    int cc;
    put_vec("vceqgs same", V3CC("vceqgs %[r],%[a],%[b]", op_a(j), op_a(j), cc));
    printf("cc %d\n", cc);
    put_vec("vchlfs a+1>a", V3CC("vchlfs %[r],%[a],%[b]", (vb)((vw)op_a(j) | 1), (vb)((vw)op_a(j) & ~1u), cc));
    printf("cc %d\n", cc);
  }
  TCC2("vec %[a],%[b],0");
  TCC2("vec %[a],%[b],1");
  TCC2("vec %[a],%[b],2");
  TCC2("vec %[a],%[b],3");
  TCC2("vecl %[a],%[b],0");
  TCC2("vecl %[a],%[b],1");
  TCC2("vecl %[a],%[b],2");
  TCC2("vecl %[a],%[b],3");
  for (int j = 0; j < 8; ++j) printf("vecg equal cc %d\n", CC2("vec %[a],%[b],3", op_a(j), op_a(j)));
  TCC2("vtm %[a],%[b]");
  for (int j = 0; j < NOPS; ++j) {
    printf("vtm ones cc %d\n", CC2("vtm %[a],%[b]", (vb)((vd)op_a(j) | (vd)op_b(j)), op_b(j)));
    printf("vtm zeros cc %d\n", CC2("vtm %[a],%[b]", (vb)((vd)op_a(j) & ~(vd)op_b(j)), op_b(j)));
    printf("vtm mask0 cc %d\n", CC2("vtm %[a],%[b]", op_a(j), splat_es(0, 0)));
  }
  T2("vclz %[r],%[a],0");
  T2("vclz %[r],%[a],1");
  T2("vclz %[r],%[a],2");
  T2("vclz %[r],%[a],3");
  T2("vctz %[r],%[a],0");
  T2("vctz %[r],%[a],1");
  T2("vctz %[r],%[a],2");
  T2("vctz %[r],%[a],3");
  T2("vpopct %[r],%[a],0");
  T2("vpopct %[r],%[a],1");
  T2("vpopct %[r],%[a],2");
  T2("vpopct %[r],%[a],3");
  T3("vsum %[r],%[a],%[b],0");
  T3("vsum %[r],%[a],%[b],1");
  T3("vsumg %[r],%[a],%[b],1");
  T3("vsumg %[r],%[a],%[b],2");
  T3("vsumq %[r],%[a],%[b],2");
  T3("vsumq %[r],%[a],%[b],3");
  /* What GCC emits for the builtins. */
  for (int j = 0; j < NOPS; ++j) {
    vw a = (vw)op_a(j), b = (vw)op_b(j);
    PUT("vec_cmpeq", vec_cmpeq(a, b));
    PUT("vec_cmpgt", vec_cmpgt((__vector signed short)a, (__vector signed short)b));
    PUT("vec_cmplt", vec_cmplt((vd)a, (vd)b));
    printf("vec_all_eq %d\n", vec_all_eq(a, b));
    printf("vec_any_gt %d\n", vec_any_gt((__vector signed char)a, (__vector signed char)b));
    PUT("vec_cntlz", vec_cntlz((vd)a));
    PUT("vec_popcnt", vec_popcnt((vh)a));
    PUT("vec_sum2", vec_sum2((vh)a, (vh)b));
  }
  return 0;
}
