/* Vector floating-point conversions and roundings: VFI (load FP integer), VCDG, VCDLG,
   VCGD, VCLGD (z13, long; and the short forms VCEFB, VCELFB, VCFEB, VCLFEB of vector-
   enhancements 2), VFLL and VFLR (short and long; long to extended and extended to
   long from vector-enhancements 1), every element and single-element form, every
   rounding method of M5 (with the FPC's own in each of its modes) and the inexact-
   suppression control, with random operands full of NaNs, infinities, zeros,
   subnormals and values at the ends of the integer ranges; the results and flags.
   Only doubleword 0 of a WFLRX result is printed: the rest is unpredictable.
   float_convert.expected holds the output, for two places where QEMU 7.2 differs: with
   the inexact-suppression control (XxC) it still sets the inexact flag (it only keeps
   the exception from trapping), where the control means the exception is not
   recognized, as for the scalar M4 control; and a NaN operand of VCGD, VCLGD, VCFEB
   or VCLFEB sets the invalid flag alone, where the Principles of Operation (and later
   QEMU) set inexact as well, as for every other invalid conversion and as for the
   scalar CONVERT TO FIXED (which QEMU 7.2 gets wrong the same way: bfp_convert.c).
   Every other line is QEMU 7.2's. */
#include "vfloat.h"

#define R2(op, tag, fpf, m4, m5) DEF2(op##_##tag##_##m4##_##m5, #op " %[r],%[a]," #fpf "," #m4 "," #m5)
#define METHODS(op, tag, fpf, m4) R2(op, tag, fpf, m4, 0) R2(op, tag, fpf, m4, 1) R2(op, tag, fpf, m4, 3) \
  R2(op, tag, fpf, m4, 4) R2(op, tag, fpf, m4, 5) R2(op, tag, fpf, m4, 6) R2(op, tag, fpf, m4, 7)
#define VARIANTS(op, tag, fpf) METHODS(op, tag, fpf, 0) METHODS(op, tag, fpf, 4) METHODS(op, w##tag, fpf, 8) \
  METHODS(op, w##tag, fpf, 12)
#define TABLE(op, tag, m4) {op##_##tag##_##m4##_0, op##_##tag##_##m4##_1, op##_##tag##_##m4##_3, \
  op##_##tag##_##m4##_4, op##_##tag##_##m4##_5, op##_##tag##_##m4##_6, op##_##tag##_##m4##_7}
#define TABLES(op, tag) {TABLE(op, tag, 0), TABLE(op, tag, 4), TABLE(op, w##tag, 8), TABLE(op, w##tag, 12)}

VARIANTS(vfi, s, 2) VARIANTS(vfi, d, 3) R2(vfi, x, 4, 8, 0) R2(vfi, x, 4, 8, 1) R2(vfi, x, 4, 8, 3)
R2(vfi, x, 4, 8, 4) R2(vfi, x, 4, 8, 5) R2(vfi, x, 4, 8, 6) R2(vfi, x, 4, 8, 7)
R2(vfi, x, 4, 12, 0) R2(vfi, x, 4, 12, 1) R2(vfi, x, 4, 12, 3) R2(vfi, x, 4, 12, 4) R2(vfi, x, 4, 12, 5)
R2(vfi, x, 4, 12, 6) R2(vfi, x, 4, 12, 7)
VARIANTS(vcdg, s, 2) VARIANTS(vcdg, d, 3) VARIANTS(vcdlg, s, 2) VARIANTS(vcdlg, d, 3)
VARIANTS(vcgd, s, 2) VARIANTS(vcgd, d, 3) VARIANTS(vclgd, s, 2) VARIANTS(vclgd, d, 3)
VARIANTS(vflr, d, 3) R2(vflr, x, 4, 8, 0) R2(vflr, x, 4, 8, 1) R2(vflr, x, 4, 8, 3) R2(vflr, x, 4, 8, 4)
R2(vflr, x, 4, 8, 5) R2(vflr, x, 4, 8, 6) R2(vflr, x, 4, 8, 7) R2(vflr, x, 4, 12, 0) R2(vflr, x, 4, 12, 1)
R2(vflr, x, 4, 12, 3) R2(vflr, x, 4, 12, 4) R2(vflr, x, 4, 12, 5) R2(vflr, x, 4, 12, 6) R2(vflr, x, 4, 12, 7)

DEF2(vfll_s, "vfll %[r],%[a],2,0")
DEF2(vfll_ws, "vfll %[r],%[a],2,8")
DEF2(vfll_wd, "vfll %[r],%[a],3,8")

typedef vb (*op2_fn)(vb);
static const op2_fn vfi_s[4][7] = TABLES(vfi, s), vfi_d[4][7] = TABLES(vfi, d);
static const op2_fn vfi_x[2][7] = {TABLE(vfi, x, 8), TABLE(vfi, x, 12)};
static const op2_fn vcdg_s[4][7] = TABLES(vcdg, s), vcdg_d[4][7] = TABLES(vcdg, d);
static const op2_fn vcdlg_s[4][7] = TABLES(vcdlg, s), vcdlg_d[4][7] = TABLES(vcdlg, d);
static const op2_fn vcgd_s[4][7] = TABLES(vcgd, s), vcgd_d[4][7] = TABLES(vcgd, d);
static const op2_fn vclgd_s[4][7] = TABLES(vclgd, s), vclgd_d[4][7] = TABLES(vclgd, d);
static const op2_fn vflr_d[4][7] = TABLES(vflr, d);
static const op2_fn vflr_x[2][7] = {TABLE(vflr, x, 8), TABLE(vflr, x, 12)};
static const char *const variant[4] = {"", "xxc", "w", "wxxc"};
static const int method[7] = {0, 1, 3, 4, 5, 6, 7};

/* Random integers of every magnitude, and the ends of the ranges. */
static uint64_t rnd_int(int bits) {
  const uint64_t r = rnd64(), s = rnd64();
  const uint64_t top = bits == 64 ? ~0ull : (1ull << bits) - 1;
  switch (s & 7) {
    case 0: return (top >> 1) + (s >> 8 & 3) - 1;  /* around the signed maximum */
    case 1: return top - (s >> 8 & 3);
    case 2: return s >> 8 & 7;
    default: return (r >> (s >> 8 & 63)) & top;
  }
}
static vb rnd_ints(int es) {
  union { vb v; uint32_t w[4]; uint64_t d[2]; } u;
  if (es == 2) for (int k = 0; k < 4; ++k) u.w[k] = (uint32_t)rnd_int(32);
  else for (int k = 0; k < 2; ++k) u.d[k] = rnd_int(64);
  return u.v;
}
/* Values around the integer ranges' ends (2^31, 2^32, 2^63, 2^64), besides rnd_fp's. */
static vb rnd_for_fixed(int es) {
  union { vb v; uint32_t w[4]; uint64_t d[2]; } u;
  vb v = rnd_fpv(es);
  u.v = v;
  const uint64_t s = rnd64();
  for (int k = 0; k < (es == 2 ? 4 : 2); ++k) {
    if (s >> (2 * k) & 1) continue;
    const unsigned e = (s >> (8 + 4 * k) & 1) ? (es == 2 ? 31 : 63) : 32 + (es == 3 ? 31 : -1);
    const unsigned delta = s >> (20 + 2 * k) & 3;
    if (es == 2) u.w[k] = (u.w[k] & 0x807FFFFFu) | (uint32_t)(127 + e + delta - 1) << 23;
    else u.d[k] = (u.d[k] & 0x800FFFFFFFFFFFFFull) | (uint64_t)(1023 + e + delta - 1) << 52;
  }
  return u.v;
}

static void run(const char *name, const op2_fn (*table)[7], int variants, vb a) {
  for (int v = 0; v < variants; ++v)
    for (int m = 0; m < 7; ++m) {
      printf("%s%s m5 %d ", name, variant[v], method[m]);
      put_fp("", table[v][m](a));
    }
}

int main(void) {
  for (unsigned mode = 0; mode < sizeof fpc_modes / sizeof fpc_modes[0]; ++mode) {
    printf("# fpc mode %u\n", fpc_modes[mode]);
    set_fpc(fpc_modes[mode]);
    for (int t = 0; t < 25; ++t) {
      const vb s = rnd_fpv(2), d = rnd_fpv(3), x = rnd_fpv(4);
      PUT("s", s), PUT("d", d), PUT("x", x);
      run("vfi_s", vfi_s, 4, s);
      run("vfi_d", vfi_d, 4, d);
      run("vfi_x", vfi_x, 2, x);
      const vb is = rnd_ints(2), id = rnd_ints(3);
      PUT("is", is), PUT("id", id);
      run("vcefb", vcdg_s, 4, is);
      run("vcdgb", vcdg_d, 4, id);
      run("vcelfb", vcdlg_s, 4, is);
      run("vcdlgb", vcdlg_d, 4, id);
      const vb fs = rnd_for_fixed(2), fd = rnd_for_fixed(3);
      PUT("fs", fs), PUT("fd", fd);
      run("vcfeb", vcgd_s, 4, fs);
      run("vcgdb", vcgd_d, 4, fd);
      run("vclfeb", vclgd_s, 4, fs);
      run("vclgdb", vclgd_d, 4, fd);
      run("vflrd", vflr_d, 4, d);
      for (int v = 0; v < 2; ++v)
        for (int m = 0; m < 7; ++m) {
          union { vb v; uint64_t q[2]; } u = {vflr_x[v][m](x)};
          u.q[1] = 0;
          printf("wflrx%s m5 %d ", variant[2 + v], method[m]);
          put_fp("", u.v);
        }
      put_fp("vflls", vfll_s(s));
      put_fp("wflls", vfll_ws(s));
      put_fp("wflld", vfll_wd(d));
    }
  }
  set_fpc(0);
  return 0;
}
