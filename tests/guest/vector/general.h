/* What the tests of the z13-z15 general instructions (general_*.c) share: edge values
   and random ones as operands, a CC set to each of its four values before the
   instruction (SPM: bits 34-35 of the register; the program mask stays zero), and
   the CC read back by IPM in the same asm statement. */
#ifndef GENERAL_H
#define GENERAL_H
/* Loops stay scalar: these programs need no vector instruction besides what they test. */
#pragma GCC optimize("no-tree-vectorize")
#include "vtest.h"

static const uint64_t EDGE[] = {0,
                                1,
                                2,
                                0x7fffffffULL,
                                0x80000000ULL,
                                0xffffffffULL,
                                0x100000000ULL,
                                0x7fffffffffffffffULL,
                                0x8000000000000000ULL,
                                0xffffffffffffffffULL,
                                0xffffffff80000000ULL,
                                0x00000000ffff8000ULL,
                                0x0000000000010000ULL,
                                0xffffffff00000000ULL,
                                0x00000001ffffffffULL,
                                0x0123456789abcdefULL};
#define NEDGE (sizeof EDGE / sizeof EDGE[0])
/* Operand k of a run of n: the edge values, then random ones. */
static uint64_t operand(unsigned k) { return k < NEDGE ? EDGE[k] : rnd64(); }
/* The SPM operand that sets condition code cc. */
static uint64_t cc_word(unsigned cc) { return (uint64_t)cc << 28; }

#define Z15(text) ".machine push\n\t.machine z15\n\t" text "\n\t.machine pop"
#define IPM(out) "ipm " out "\n\tsrl " out ",28"
/* Expands X(m) for every 4-bit mask. */
#define MASKS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#endif
