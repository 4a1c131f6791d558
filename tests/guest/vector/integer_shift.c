/* Vector shifts and rotates (z13 vector facility; VSLD and VSRD from
   vector-enhancements facility 2): VESL, VESRA, VESRL, VERLL with counts from the
   displacement and from a base register (modulo the element size), their per-element
   forms VESLV, VESRAV, VESRLV, VERLLV, VERIM, the whole-register VSL, VSRA, VSRL (equal
   and, as facility 2 defines, differing counts in each byte), VSLB, VSRAB, VSRLB,
   VSLDB of every byte count, VSLD and VSRD of every bit count, and the builtins GCC
   compiles to them. */
#include "integer.h"

#define SHIFT_ADDR(t, k)                                                                  \
  for (int j = 0; j < NOPS; ++j) {                                                        \
    vb r_;                                                                                \
    __asm__(PRE t POST : [r] "=v"(r_) : [a] "v"(op_a(j)), [n] "a"((long)(k) + j));        \
    PUT(t, r_);                                                                           \
  }

/* The same three-bit count in every byte (the only form before facility 2). */
static vb uniform_count(int j) { return splat_es(0, (uint64_t)(j * 37 + 5)); }

#define SLDB(n) PUT("vsldb " #n, V3("vsldb %[r],%[a],%[b]," #n, op_a(j), op_b(j)))
#define SLD(n) PUT("vsld " #n, V3("vsld %[r],%[a],%[b]," #n, op_a(j), op_b(j)))
#define SRD(n) PUT("vsrd " #n, V3("vsrd %[r],%[a],%[b]," #n, op_a(j), op_b(j)))
#define ERIM(n, es) PUT("verim " #n "," #es, V3IN("verim %[r],%[a],%[b]," #n "," #es, op_c(j), op_a(j), op_b(j)))

int main(void) {
  make_ops();
  /* Counts from the displacement alone, beyond the element size too. */
  T2("vesl %[r],%[a],3,0");
  T2("vesl %[r],%[a],13,1");
  T2("vesl %[r],%[a],31,2");
  T2("vesl %[r],%[a],100,3");
  T2("vesra %[r],%[a],9,0");
  T2("vesra %[r],%[a],5,1");
  T2("vesra %[r],%[a],31,2");
  T2("vesra %[r],%[a],63,3");
  T2("vesrl %[r],%[a],7,0");
  T2("vesrl %[r],%[a],15,1");
  T2("vesrl %[r],%[a],33,2");
  T2("vesrl %[r],%[a],1,3");
  T2("verll %[r],%[a],3,0");
  T2("verll %[r],%[a],17,1");
  T2("verll %[r],%[a],31,2");
  T2("verll %[r],%[a],65,3");
  /* Counts from a base register (the effective address) plus a displacement. */
  SHIFT_ADDR("vesl %[r],%[a],0(%[n]),0", 0);
  SHIFT_ADDR("vesl %[r],%[a],1(%[n]),1", 3);
  SHIFT_ADDR("vesl %[r],%[a],0(%[n]),2", 17);
  SHIFT_ADDR("vesl %[r],%[a],0(%[n]),3", 40);
  SHIFT_ADDR("vesra %[r],%[a],0(%[n]),0", 0);
  SHIFT_ADDR("vesra %[r],%[a],0(%[n]),1", 5);
  SHIFT_ADDR("vesra %[r],%[a],2(%[n]),2", 20);
  SHIFT_ADDR("vesra %[r],%[a],0(%[n]),3", 50);
  SHIFT_ADDR("vesrl %[r],%[a],0(%[n]),0", 1);
  SHIFT_ADDR("vesrl %[r],%[a],0(%[n]),1", 7);
  SHIFT_ADDR("vesrl %[r],%[a],0(%[n]),2", 9);
  SHIFT_ADDR("vesrl %[r],%[a],4(%[n]),3", 33);
  SHIFT_ADDR("verll %[r],%[a],0(%[n]),0", 2);
  SHIFT_ADDR("verll %[r],%[a],0(%[n]),1", 11);
  SHIFT_ADDR("verll %[r],%[a],0(%[n]),2", 25);
  SHIFT_ADDR("verll %[r],%[a],0(%[n]),3", 60);
  /* Per-element counts (random elements: every count modulo the size). */
  T3("veslv %[r],%[a],%[b],0");
  T3("veslv %[r],%[a],%[b],1");
  T3("veslv %[r],%[a],%[b],2");
  T3("veslv %[r],%[a],%[b],3");
  T3("vesrav %[r],%[a],%[b],0");
  T3("vesrav %[r],%[a],%[b],1");
  T3("vesrav %[r],%[a],%[b],2");
  T3("vesrav %[r],%[a],%[b],3");
  T3("vesrlv %[r],%[a],%[b],0");
  T3("vesrlv %[r],%[a],%[b],1");
  T3("vesrlv %[r],%[a],%[b],2");
  T3("vesrlv %[r],%[a],%[b],3");
  T3("verllv %[r],%[a],%[b],0");
  T3("verllv %[r],%[a],%[b],1");
  T3("verllv %[r],%[a],%[b],2");
  T3("verllv %[r],%[a],%[b],3");
  for (int j = 0; j < NOPS; ++j) {
    ERIM(0, 0); ERIM(3, 0); ERIM(9, 0);
    ERIM(1, 1); ERIM(15, 1);
    ERIM(7, 2); ERIM(31, 2);
    ERIM(33, 3); ERIM(255, 3);
  }
  /* Whole-register shifts. */
  for (int j = 0; j < NOPS; ++j) {
    vb a = op_a(j), n = uniform_count(j), m = op_b(j);
    PUT("vsl", V3("vsl %[r],%[a],%[b]", a, n));
    PUT("vsra", V3("vsra %[r],%[a],%[b]", a, n));
    PUT("vsrl", V3("vsrl %[r],%[a],%[b]", a, n));
    PUT("vsl bytes", V3("vsl %[r],%[a],%[b]", a, m));
    PUT("vsra bytes", V3("vsra %[r],%[a],%[b]", a, m));
    PUT("vsrl bytes", V3("vsrl %[r],%[a],%[b]", a, m));
    PUT("vslb", V3("vslb %[r],%[a],%[b]", a, m));
    PUT("vsrab", V3("vsrab %[r],%[a],%[b]", a, m));
    PUT("vsrlb", V3("vsrlb %[r],%[a],%[b]", a, m));
    PUT("vslb n", V3("vslb %[r],%[a],%[b]", a, n));
    PUT("vsrab n", V3("vsrab %[r],%[a],%[b]", a, n));
    PUT("vsrlb n", V3("vsrlb %[r],%[a],%[b]", a, n));
    SLDB(0); SLDB(1); SLDB(2); SLDB(3); SLDB(4); SLDB(5); SLDB(6); SLDB(7);
    SLDB(8); SLDB(9); SLDB(10); SLDB(11); SLDB(12); SLDB(13); SLDB(14); SLDB(15);
    SLD(0); SLD(1); SLD(2); SLD(3); SLD(4); SLD(5); SLD(6); SLD(7);
    SRD(0); SRD(1); SRD(2); SRD(3); SRD(4); SRD(5); SRD(6); SRD(7);
  }
  /* What GCC emits for the vector extension's operators and the builtins. */
  for (int j = 0; j < NOPS; ++j) {
    vw a = (vw)op_a(j), b = (vw)op_b(j);
    PUT("<<w", a << (unsigned)(j % 32));
    PUT(">>h", (vh)a >> (vh)b);
    PUT(">>sd", (__vector signed long long)a >> 5);
    PUT("vec_rli", vec_rli((vd)a, 13));
    PUT("vec_rl", vec_rl(a, b));
    PUT("vec_rl_mask", vec_rl_mask(a, b, 7));
    PUT("vec_sll", vec_sll((vb)a, (vb)uniform_count(j)));
    PUT("vec_slb", vec_slb((vd)a, (vd)b));
    PUT("vec_sld", vec_sld(a, b, 5));
    PUT("vec_sldb", vec_sldb(a, b, 3));
    PUT("vec_srdb", vec_srdb(a, b, 6));
    PUT("vec_sral", vec_sral((__vector signed int)a, (vb)uniform_count(j)));
    PUT("vec_srb", vec_srb(a, b));
  }
  return 0;
}
