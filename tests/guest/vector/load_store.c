/* Vector loads, stores, element moves and generates (z13 vector facility): VL, VST,
   VLM, VSTM, VLL, VSTL, VLBB, VLREP, VLLEZ, VLE*, VSTE*, VLEI*, VLGV, VLVG, VLVGP, VGBM,
   VGM, VREPI, VREP, VGEF, VGEG, VSCEF, VSCEG (and HFP LDER), with random data, every
   element index and every length. */
#include "vtest.h"

static uint8_t buf[4096 * 2] __attribute__((aligned(4096)));

int main(void) {
  for (unsigned k = 0; k < sizeof buf; ++k) buf[k] = (uint8_t)rnd64();
  /* Loads and stores at every offset around a page boundary. */
  for (int off = 4096 - 20; off < 4096 + 4; ++off) {
    vb v = vec_xl(0, buf + off);
    PUT("vl", v);
    vec_xst(vec_xor(v, rnd_vec()), 0, buf + off + 3);
  }
  for (unsigned n = 0; n < 20; ++n) {
    vb v = vec_load_len(buf + 100 + n, n);
    PUT("vll", v);
    vec_store_len(rnd_vec(), buf + 300, n);
    PUT("after_vstl", vec_xl(0, buf + 300));
  }
  /* Load to block boundary: every block size, addresses near the boundary. */
  for (int off = 4096 - 18; off < 4096; ++off) {
    PUT("vlbb64", vec_load_bndry(buf + off, 64));
    PUT("vlbb4k", vec_load_bndry(buf + off, 4096));
    printf("lcbb %u\n", __builtin_s390_lcbb(buf + off, 0));
  }
  /* Element moves: every element of every size. */
  for (int r = 0; r < 8; ++r) {
    vb v = rnd_vec();
    vd d = (vd)v;
    vw w = (vw)v;
    vh h = (vh)v;
    for (int k = 0; k < 2; ++k) printf("vlgvg %d %016llx\n", k, (unsigned long long)vec_extract(d, k));
    for (int k = 0; k < 4; ++k) printf("vlgvf %d %08x\n", k, vec_extract(w, k));
    for (int k = 0; k < 8; ++k) printf("vlgvh %d %04x\n", k, vec_extract(h, k));
    for (int k = 0; k < 16; ++k) printf("vlgvb %d %02x\n", k, vec_extract(v, k));
    uint64_t g = rnd64();
    for (int k = 0; k < 4; ++k) PUT("vlvgf", vec_insert((unsigned)g, w, k));
    for (int k = 0; k < 16; ++k) PUT("vlvgb", vec_insert((unsigned char)g, v, k));
    PUT("vlvgp", vec_insert((unsigned long long)g, vec_splats((unsigned long long)rnd64()), 1));
    PUT("vlrep", vec_splats(*(uint32_t *)(buf + 8 * r)));
    PUT("vlrepg", vec_splats(*(unsigned long long *)(buf + 8 * r)));
    PUT("vrepb", vec_splat(v, 13));
    PUT("vreph", vec_splat(h, 5));
    PUT("vrepf", vec_splat(w, 3));
    PUT("vllez", vec_insert_and_zero((const unsigned short *)(buf + 2 * r)));
    PUT("vlef", vec_insert(*(uint32_t *)(buf + 4 * r), w, 2));
    PUT("vleb", vec_insert(buf[r], v, 7));
    vec_xst(v, 0, buf + 512);
    *(uint16_t *)(buf + 520) = vec_extract(h, 6);
    buf[530] = vec_extract(v, 9);
    PUT("vste", vec_xl(0, buf + 512));
  }
  PUT("vgbm", vec_genmask(0xA5C3));
  PUT("vgm", vec_genmasks_32(3, 29));
  PUT("vgm_wrap", vec_genmasks_32(29, 3));
  PUT("vgmg", vec_genmasks_64(60, 2));
  PUT("vgmb", vec_genmasks_8(6, 1));
  PUT("vrepi", vec_splat_s16(-300));
  PUT("vrepib", vec_splat_s8(-7));
  /* VLM/VSTM of three registers through inline assembly. */
  __asm__ volatile(".machine push\n.machine z13\n"
                   "vlm %%v16,%%v18,0(%0)\n"
                   "vstm %%v16,%%v18,48(%0)\n.machine pop"
                   : : "a"(buf + 1024) : "v16", "v17", "v18", "memory");
  for (int k = 0; k < 6; ++k) PUT("vlm/vstm", vec_xl(0, buf + 1024 + 16 * k));
  /* Element immediates and stores GCC does not pick here, written out; LDER (HFP
     lengthening: zeros into bits 32-63). */
  for (int r = 0; r < 4; ++r) {
    vb v = rnd_vec();
    vb w;
    __asm__ volatile(".machine push\n.machine z13\n"
                     "vlr %%v16,%[v]\n vleih %%v16,-1234,3\n vleif %%v16,-5678,2\n"
                     "vstef %%v16,0(%[p]),1\n vlr %[w],%%v16\n.machine pop"
                     : [w] "=v"(w)
                     : [v] "v"(v), [p] "a"(buf + 2048)
                     : "v16", "memory");
    PUT("vleih/vleif", w);
    printf("vstef %08x\n", *(uint32_t *)(buf + 2048));
    double d = 0;
    uint64_t bits = rnd64();
    __asm__ volatile("ldgr %%f2,%[b]\n lder %[d],%%f2" : [d] "=f"(d) : [b] "d"(bits) : "f2");
    uint64_t out;
    memcpy(&out, &d, 8);
    printf("lder %016llx\n", (unsigned long long)out);
  }
  /* Gather and scatter: each element of an offset vector picks its own address. */
  for (int r = 0; r < 8; ++r) {
    vw offw = {(unsigned)(rnd64() % 4000) & ~3u, (unsigned)(rnd64() % 4000) & ~3u,
               (unsigned)(rnd64() % 4000) & ~3u, (unsigned)(rnd64() % 4000) & ~3u};
    vd offd = {(unsigned long long)(rnd64() % 4000) & ~7ull, (unsigned long long)(rnd64() % 4000) & ~7ull};
    vw gw = (vw)rnd_vec();
    vd gd = (vd)rnd_vec();
    gw = vec_gather_element(gw, offw, (const unsigned int *)buf, 1);
    gw = vec_gather_element(gw, offw, (const unsigned int *)buf, 3);
    gd = vec_gather_element(gd, offd, (const unsigned long long *)buf, 0);
    PUT("vgef", gw);
    PUT("vgeg", gd);
    vec_scatter_element((vw)rnd_vec(), offw, (unsigned int *)(buf + 4096), 2);
    vec_scatter_element((vd)rnd_vec(), offd, (unsigned long long *)(buf + 4096), 1);
    PUT("vscef", vec_xl(0, buf + 4096 + offw[2]));
    PUT("vsceg", vec_xl(0, buf + 4096 + offd[1]));
  }
  return 0;
}
