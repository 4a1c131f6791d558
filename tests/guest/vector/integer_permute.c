/* Vector logical, select, permute, merge, pack and unpack instructions (z13 vector
   facility; VNN, VNX, VOC and VBPERM from vector-enhancements facility 1): VN, VNC,
   VO, VX, VNO, VNN, VNX, VOC, VSEL, VPERM, VPDI (every M4), VBPERM, VMRH, VMRL, VPK,
   VPKS and VPKLS with and without the CS bit, VUPH, VUPL, VUPLH, VUPLL, VSEG, and the
   builtins GCC compiles to them. */
#include "integer.h"

/* Pack operands that saturate nowhere (CC 0) or everywhere (CC 3). */
static vb small(vb v, int es) { return (vb)((vd)v & (vd)splat_es(es, (1ull << ((4 << es) - 2)) - 1)); }

int main(void) {
  make_ops();
  T3("vn %[r],%[a],%[b]");
  T3("vnc %[r],%[a],%[b]");
  T3("vo %[r],%[a],%[b]");
  T3("vx %[r],%[a],%[b]");
  T3("vno %[r],%[a],%[b]");
  T3("vnn %[r],%[a],%[b]");
  T3("vnx %[r],%[a],%[b]");
  T3("voc %[r],%[a],%[b]");
  T4("vsel %[r],%[a],%[b],%[c]");
  T4("vperm %[r],%[a],%[b],%[c]");
  T3("vpdi %[r],%[a],%[b],0");
  T3("vpdi %[r],%[a],%[b],1");
  T3("vpdi %[r],%[a],%[b],4");
  T3("vpdi %[r],%[a],%[b],5");
  T3("vbperm %[r],%[a],%[b]");
  for (int j = 0; j < NOPS; ++j) {
    vb idx = (vb)((vd)op_b(j) & (vd)splat_es(0, 0x7F));
    PUT("vbperm <128", V3("vbperm %[r],%[a],%[b]", op_a(j), idx));
  }
  T3("vmrh %[r],%[a],%[b],0");
  T3("vmrh %[r],%[a],%[b],1");
  T3("vmrh %[r],%[a],%[b],2");
  T3("vmrh %[r],%[a],%[b],3");
  T3("vmrl %[r],%[a],%[b],0");
  T3("vmrl %[r],%[a],%[b],1");
  T3("vmrl %[r],%[a],%[b],2");
  T3("vmrl %[r],%[a],%[b],3");
  T3("vpk %[r],%[a],%[b],1");
  T3("vpk %[r],%[a],%[b],2");
  T3("vpk %[r],%[a],%[b],3");
  T3("vpks %[r],%[a],%[b],1,0");
  T3("vpks %[r],%[a],%[b],2,0");
  T3("vpks %[r],%[a],%[b],3,0");
  T3("vpkls %[r],%[a],%[b],1,0");
  T3("vpkls %[r],%[a],%[b],2,0");
  T3("vpkls %[r],%[a],%[b],3,0");
  T3CC("vpkshs %[r],%[a],%[b]");
  T3CC("vpksfs %[r],%[a],%[b]");
  T3CC("vpksgs %[r],%[a],%[b]");
  T3CC("vpklshs %[r],%[a],%[b]");
  T3CC("vpklsfs %[r],%[a],%[b]");
  T3CC("vpklsgs %[r],%[a],%[b]");
  for (int j = 0; j < 8; ++j) {
    int cc;
    vb a = op_a(j), b = op_b(j);
    put_vec("vpksfs small", V3CC("vpksfs %[r],%[a],%[b]", small(a, 2), small(b, 2), cc));
    printf("cc %d\n", cc);
    put_vec("vpklshs small", V3CC("vpklshs %[r],%[a],%[b]", small(a, 1), small(b, 1), cc));
    printf("cc %d\n", cc);
    vb big = splat_es(3, 0x4000000000000000ull + j);
    put_vec("vpksgs big", V3CC("vpksgs %[r],%[a],%[b]", big, big, cc));
    printf("cc %d\n", cc);
    put_vec("vpklsgs big", V3CC("vpklsgs %[r],%[a],%[b]", big, big, cc));
    printf("cc %d\n", cc);
  }
  T2("vuph %[r],%[a],0");
  T2("vuph %[r],%[a],1");
  T2("vuph %[r],%[a],2");
  T2("vupl %[r],%[a],0");
  T2("vupl %[r],%[a],1");
  T2("vupl %[r],%[a],2");
  T2("vuplh %[r],%[a],0");
  T2("vuplh %[r],%[a],1");
  T2("vuplh %[r],%[a],2");
  T2("vupll %[r],%[a],0");
  T2("vupll %[r],%[a],1");
  T2("vupll %[r],%[a],2");
  T2("vseg %[r],%[a],0");
  T2("vseg %[r],%[a],1");
  T2("vseg %[r],%[a],2");
  /* Registers 16-31 in every field position of each format (RXB bits). */
  for (int j = 0; j < 4; ++j) {
    register vb ha __asm__("v17") = op_a(j);
    register vb hb __asm__("v26") = op_b(j);
    register vb hc __asm__("v31") = op_c(j);
    register vb hr __asm__("v20");
    __asm__(PRE "va %[r],%[a],%[b],2" POST : [r] "=v"(hr) : [a] "v"(ha), [b] "v"(hb));
    PUT("high va", hr);
    __asm__(PRE "vacq %[r],%[a],%[b],%[c]" POST : [r] "=v"(hr) : [a] "v"(ha), [b] "v"(hb), [c] "v"(hc));
    PUT("high vacq", hr);
    __asm__(PRE "vperm %[r],%[a],%[b],%[c]" POST : [r] "=v"(hr) : [a] "v"(ha), [b] "v"(hb), [c] "v"(hc));
    PUT("high vperm", hr);
    __asm__(PRE "vuphh %[r],%[a]" POST : [r] "=v"(hr) : [a] "v"(ha));
    PUT("high vuph", hr);
    __asm__(PRE "vsldb %[r],%[a],%[b],5" POST : [r] "=v"(hr) : [a] "v"(ha), [b] "v"(hb));
    PUT("high vsldb", hr);
    __asm__(PRE "veslg %[r],%[a],3" POST : [r] "=v"(hr) : [a] "v"(hc));
    PUT("high vesl", hr);
    __asm__(PRE "vchfs %[r],%[a],%[b]" POST : [r] "=v"(hr) : [a] "v"(ha), [b] "v"(hb) : "cc");
    PUT("high vch", hr);
  }
  /* What GCC emits for the vector extension's operators and the builtins. */
  for (int j = 0; j < NOPS; ++j) {
    vd a = (vd)op_a(j), b = (vd)op_b(j), c = (vd)op_c(j);
    PUT("&", a & b);
    PUT("|", a | b);
    PUT("^", a ^ b);
    PUT("&~", a & ~b);
    PUT("~|", ~(a | b));
    PUT("vec_sel", vec_sel(a, b, c));
    PUT("vec_perm", vec_perm((vb)a, (vb)b, (vb)c));
    PUT("vec_permi", vec_permi(a, b, 2));
    PUT("vec_mergeh", vec_mergeh((vw)a, (vw)b));
    PUT("vec_mergel", vec_mergel((vh)a, (vh)b));
    PUT("vec_pack", vec_pack((vw)a, (vw)b));
    PUT("vec_packs", vec_packs((__vector signed short)a, (__vector signed short)b));
    PUT("vec_packsu", vec_packsu((vd)a, (vd)b));
    PUT("vec_unpackh", vec_unpackh((__vector signed char)a));
    PUT("vec_unpackl", vec_unpackl((vh)a));
    PUT("vec_bperm_u128", vec_bperm_u128((vb)a, (vb)b));
  }
  return 0;
}
