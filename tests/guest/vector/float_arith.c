/* Vector floating-point arithmetic: VFA, VFS, VFM, VFD, VFSQ, VFMA, VFMS (z13, long),
   their short and extended forms and VFNMA, VFNMS (vector-enhancements 1), every
   element and single-element (W) form, in every BFP rounding mode of the FPC, with
   random operands full of NaNs, infinities, zeros and subnormals; the results and the
   IEEE flags each leaves in the FPC.
   float_arith.expected holds the output. It differs from QEMU 7.2's (qemu-s390x-static)
   in two ways, both where QEMU 7.2 departs from the Principles of Operation:
   - the NaN of a multiply and add (fma, fms, fnma, fnms, fma_swapped, in any mode):
     QEMU 7.2 takes V2's first, a quiet one before a signaling one, where the PoO
     ("Results: MULTIPLY AND ADD") takes a signaling NaN first, then V3, V2, V4; QEMU
     9.2 does so (its commit "target/s390x: Fix the floating-point multiply-and-add NaN
     rules");
   - fnma and fnms in rounding modes 2 and 3 (toward +/- infinity): the PoO ("VECTOR FP
     NEGATIVE MULTIPLY AND ADD", "... AND SUBTRACT") negates the rounded result, QEMU
     7.2 negates before rounding, so where the sum is inexact its answer is one unit in
     the last place nearer zero; QEMU's softfloat commit "fpu: Process
     float_muladd_negate_result after rounding" (2025) does as the PoO.
   Every other line is QEMU 7.2's (tests/guest/vector/float_arith.expected; 623 lines
   differ: 175 of the NaN choice, 448 of the fnma and fnms rounding in modes 2 and 3). */
#include "vfloat.h"

#define ARITH(op, tag, fpf, m5)                                               \
  DEF3(op##_##tag, #op " %[r],%[a],%[b]," #fpf "," #m5)
#define ARITH_ALL(op)                                                         \
  ARITH(op, s, 2, 0) ARITH(op, ws, 2, 8) ARITH(op, d, 3, 0) ARITH(op, wd, 3, 8) ARITH(op, wx, 4, 8)
ARITH_ALL(vfa)
ARITH_ALL(vfs)
ARITH_ALL(vfm)
ARITH_ALL(vfd)

#define SQ(tag, fpf, m4) DEF2(vfsq_##tag, "vfsq %[r],%[a]," #fpf "," #m4)
SQ(s, 2, 0) SQ(ws, 2, 8) SQ(d, 3, 0) SQ(wd, 3, 8) SQ(wx, 4, 8)

#define FMA(op, tag, m5, fpf) DEF4(op##_##tag, #op " %[r],%[a],%[b],%[c]," #m5 "," #fpf)
#define FMA_ALL(op) FMA(op, s, 0, 2) FMA(op, ws, 8, 2) FMA(op, d, 0, 3) FMA(op, wd, 8, 3) FMA(op, wx, 8, 4)
FMA_ALL(vfma)
FMA_ALL(vfms)
FMA_ALL(vfnma)
FMA_ALL(vfnms)

typedef vb (*op3_fn)(vb, vb);
typedef vb (*op2_fn)(vb);
typedef vb (*op4_fn)(vb, vb, vb);
struct form { const char *name; int es; op3_fn a, s, m, d; op2_fn sq; op4_fn ma, ms, nma, nms; };
#define FORM(tag, es) {#tag, es, vfa_##tag, vfs_##tag, vfm_##tag, vfd_##tag, vfsq_##tag, \
                       vfma_##tag, vfms_##tag, vfnma_##tag, vfnms_##tag}
static const struct form forms[] = {FORM(s, 2), FORM(ws, 2), FORM(d, 3), FORM(wd, 3), FORM(wx, 4)};

int main(void) {
  for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; ++f) {
    const struct form *x = &forms[f];
    for (unsigned m = 0; m < sizeof fpc_modes / sizeof fpc_modes[0]; ++m) {
      printf("# %s mode %u\n", x->name, fpc_modes[m]);
      set_fpc(fpc_modes[m]);
      for (int t = 0; t < 40; ++t) {
        const vb a = rnd_fpv(x->es), b = rnd_fpv(x->es), c = rnd_fpv(x->es);
        PUT("a", a), PUT("b", b), PUT("c", c);
        put_fp("add", x->a(a, b));
        put_fp("sub", x->s(a, b));
        put_fp("mul", x->m(a, b));
        put_fp("div", x->d(a, b));
        put_fp("sqrt", x->sq(a));
        put_fp("fma", x->ma(a, b, c));
        put_fp("fms", x->ms(a, b, c));
        put_fp("fnma", x->nma(a, b, c));
        put_fp("fnms", x->nms(a, b, c));
        /* infinity times zero beside a NaN addend, and NaNs in every position */
        put_fp("fma_swapped", x->ma(c, a, b));
      }
    }
  }
  set_fpc(0);
  return 0;
}
