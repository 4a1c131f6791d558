/* Vector floating-point comparisons and the operations without rounding: VFCE, VFCH,
   VFCHE (quiet, and signaling with SQ; with and without the CC of CS), WFC, WFK,
   VFTCI, VFPSO (z13, long; short and extended from vector-enhancements 1), VFMIN and
   VFMAX in every M6 mode (vector-enhancements 1), every element and single-element
   form, with random operands full of NaNs, infinities, zeros and subnormals; the
   results, the condition codes and the IEEE flags. Only element 0 of a single-element
   VFPSO and VFTCI is printed: the other elements are unpredictable, and QEMU leaves
   them as they were. */
#include "vfloat.h"

#define CMP(op, tag, fpf, m5, m6) DEF3CC(op##_##tag, #op " %[r],%[a],%[b]," #fpf "," #m5 "," #m6)
#define CMP_ALL(op)                                                               \
  CMP(op, s, 2, 0, 1) CMP(op, ws, 2, 8, 1) CMP(op, d, 3, 0, 1) CMP(op, wd, 3, 8, 1) \
  CMP(op, wx, 4, 8, 1) CMP(op, sq_s, 2, 4, 1) CMP(op, sq_d, 3, 4, 1) CMP(op, sq_wx, 4, 12, 1) \
  CMP(op, nocc_d, 3, 0, 0) CMP(op, nocc_ws, 2, 12, 0)
CMP_ALL(vfce)
CMP_ALL(vfch)
CMP_ALL(vfche)

#define SCALAR(op, tag, fpf)                                                        \
  static int op##_##tag(vb a, vb b) {                                               \
    int cc;                                                                         \
    __asm__ volatile(ASM_PROLOGUE #op " %[a],%[b]," #fpf ",0" CC_OUT ASM_EPILOGUE  \
                     : [cc] "=d"(cc) : [a] "v"(a), [b] "v"(b) : "cc");             \
    return cc;                                                                      \
  }
SCALAR(wfc, s, 2) SCALAR(wfc, d, 3) SCALAR(wfc, x, 4)
SCALAR(wfk, s, 2) SCALAR(wfk, d, 3) SCALAR(wfk, x, 4)

#define TCI(tag, i3, fpf, m5)                                                         \
  static vb vftci_##tag(vb a, int *cc) {                                              \
    vb r;                                                                             \
    __asm__ volatile(ASM_PROLOGUE "vftci %[r],%[a]," #i3 "," #fpf "," #m5 CC_OUT ASM_EPILOGUE \
                     : [r] "=&v"(r), [cc] "=d"(*cc) : [a] "v"(a) : "cc");            \
    return r;                                                                         \
  }
#define TCI_ALL(tag, i3) TCI(tag##_s, i3, 2, 0) TCI(tag##_ws, i3, 2, 8) TCI(tag##_d, i3, 3, 0) \
  TCI(tag##_wd, i3, 3, 8) TCI(tag##_wx, i3, 4, 8)
TCI_ALL(nan, 0x00F)      /* any NaN */
TCI_ALL(finite, 0xFF0)   /* zeros, normals, subnormals */
TCI_ALL(odd, 0x555)      /* the negative classes */
TCI_ALL(mix, 0x8A3)

#define PSO(tag, fpf, m4, m5) DEF2(vfpso_##tag, "vfpso %[r],%[a]," #fpf "," #m4 "," #m5)
#define PSO_ALL(op) PSO(s##op, 2, 0, op) PSO(ws##op, 2, 8, op) PSO(d##op, 3, 0, op) \
  PSO(wd##op, 3, 8, op) PSO(wx##op, 4, 8, op)
PSO_ALL(0) PSO_ALL(1) PSO_ALL(2)

#define MM(op, tag, fpf, m5, m6) DEF3(op##_##tag##_##m6, #op " %[r],%[a],%[b]," #fpf "," #m5 "," #m6)
#define MM_MODES(op, tag, fpf, m5) MM(op, tag, fpf, m5, 0) MM(op, tag, fpf, m5, 1) MM(op, tag, fpf, m5, 2) \
  MM(op, tag, fpf, m5, 3) MM(op, tag, fpf, m5, 4) MM(op, tag, fpf, m5, 8) MM(op, tag, fpf, m5, 9)      \
  MM(op, tag, fpf, m5, 10) MM(op, tag, fpf, m5, 11) MM(op, tag, fpf, m5, 12)
#define MM_ALL(op) MM_MODES(op, s, 2, 0) MM_MODES(op, ws, 2, 8) MM_MODES(op, d, 3, 0) \
  MM_MODES(op, wd, 3, 8) MM_MODES(op, wx, 4, 8)
MM_ALL(vfmin)
MM_ALL(vfmax)

typedef vb (*cmp_fn)(vb, vb, int *);
typedef int (*scalar_fn)(vb, vb);
typedef vb (*tci_fn)(vb, int *);
typedef vb (*op2_fn)(vb);
typedef vb (*op3_fn)(vb, vb);
struct form {
  const char *name;
  int es, single;
  cmp_fn ce, ch, che;
  tci_fn tci[4];
  op2_fn pso[3];
  op3_fn min[10], max[10];
};
#define MODES(op, tag) {op##_##tag##_0, op##_##tag##_1, op##_##tag##_2, op##_##tag##_3, op##_##tag##_4, \
  op##_##tag##_8, op##_##tag##_9, op##_##tag##_10, op##_##tag##_11, op##_##tag##_12}
#define FORM(tag, es, single) {#tag, es, single, vfce_##tag, vfch_##tag, vfche_##tag,             \
  {vftci_nan_##tag, vftci_finite_##tag, vftci_odd_##tag, vftci_mix_##tag},                         \
  {vfpso_##tag##0, vfpso_##tag##1, vfpso_##tag##2}, MODES(vfmin, tag), MODES(vfmax, tag)}
static const struct form forms[] = {FORM(s, 2, 0), FORM(ws, 2, 1), FORM(d, 3, 0), FORM(wd, 3, 1), FORM(wx, 4, 1)};
static const int mm_modes[10] = {0, 1, 2, 3, 4, 8, 9, 10, 11, 12};

/* Element 0 of a single-element result (all of an extended one). */
static vb first(vb v, int es) {
  union { vb v; uint32_t w[4]; uint64_t d[2]; } u = {v};
  if (es != 4) u.d[1] = 0;
  if (es == 2) u.w[1] = 0;
  return u.v;
}

/* Operands with shared elements, so that equal values (and equal zeros) meet. */
static vb mix_in(vb a, vb b) {
  union { vb v; uint32_t w[4]; } x = {a}, y = {b};
  uint64_t s = rnd64();
  for (int k = 0; k < 4; ++k)
    if (s >> k & 1) x.w[k] = y.w[k];
  return (s >> 4 & 3) == 0 ? b : x.v;
}

int main(void) {
  int cc;
  for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; ++f) {
    const struct form *x = &forms[f];
    printf("# %s\n", x->name);
    for (int t = 0; t < 150; ++t) {
      const vb a = rnd_fpv(x->es), b = mix_in(rnd_fpv(x->es), a);
      PUT("a", a), PUT("b", b);
      vb r = x->ce(a, b, &cc); put_fp_cc("vfce", r, cc);
      r = x->ch(a, b, &cc); put_fp_cc("vfch", r, cc);
      r = x->che(a, b, &cc); put_fp_cc("vfche", r, cc);
      for (int k = 0; k < 4; ++k) {
        r = x->tci[k](a, &cc);
        put_fp_cc("vftci", x->single ? first(r, x->es) : r, cc);
      }
      for (int k = 0; k < 3; ++k) put_fp("vfpso", x->single ? first(x->pso[k](a), x->es) : x->pso[k](a));
      for (int k = 0; k < 10; ++k) {
        printf("m6 %d ", mm_modes[k]), put_fp("vfmin", x->min[k](a, b));
        printf("m6 %d ", mm_modes[k]), put_fp("vfmax", x->max[k](a, b));
      }
    }
  }
  /* The signaling and no-CC forms, and the scalar compares. */
  for (int t = 0; t < 200; ++t) {
    const vb s = rnd_fpv(2), s2 = mix_in(rnd_fpv(2), s), d = rnd_fpv(3), d2 = mix_in(rnd_fpv(3), d);
    const vb q = rnd_fpv(4), q2 = (rnd64() & 3) ? rnd_fpv(4) : q;
    PUT("s", s), PUT("s2", s2), PUT("d", d), PUT("d2", d2), PUT("q", q), PUT("q2", q2);
    vb r = vfce_sq_s(s, s2, &cc); put_fp_cc("vfcesq_s", r, cc);
    r = vfch_sq_d(d, d2, &cc); put_fp_cc("vfchsq_d", r, cc);
    r = vfche_sq_wx(q, q2, &cc); put_fp_cc("vfchesq_wx", r, cc);
    r = vfch_nocc_d(d, d2, &cc); put_fp("vfch_nocc_d", r);
    r = vfce_nocc_ws(s, s2, &cc); put_fp("vfcesq_nocc_ws", r);
    printf("wfc cc%d %d %d\n", wfc_s(s, s2), wfc_d(d, d2), wfc_x(q, q2)), put_fp("fpc", (vb){0});
    printf("wfk cc%d %d %d\n", wfk_s(s, s2), wfk_d(d, d2), wfk_x(q, q2)), put_fp("fpc", (vb){0});
  }
  set_fpc(0);
  return 0;
}
