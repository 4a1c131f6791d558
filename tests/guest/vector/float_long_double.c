/* tests/guest/diff/bfp_c.c again, compiled for the z15 at -O3: GCC then keeps long
   double in vector registers and does its arithmetic with the extended-format vector
   instructions (WFAXB, WFSXB, WFMXB, WFDXB, WFCXB, WFKXB, WFLRX, WFLLD), and float and
   double with the W forms (WFMADB, WFDDB, ...), besides the scalar BFP instructions. */
#pragma GCC optimize("O3")
#include "../diff/bfp_c.c"
