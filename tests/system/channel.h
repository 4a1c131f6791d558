/* The channel subsystem's control blocks and I/O instructions as the test kernels drive
 * them [Principles of Operation, chapters 15 and 16: "Subchannel-Information Block",
 * "Operation-Request Block", "Channel-Command Word", "Interruption-Response Block"]:
 * one copy, shared by css.c and allinone.c. */
#ifndef TPFEMU_TESTS_SYSTEM_CHANNEL_H
#define TPFEMU_TESTS_SYSTEM_CHANNEL_H
#include <stdint.h>

struct scsw {
  uint8_t key_cc, flags;
  uint16_t ctrl; /* function (bits 17-19), activity (20-26), status (27-31) control */
  uint32_t cpa;
  uint8_t dstat, cstat;
  uint16_t count;
};
struct schib {
  uint32_t intparm;
  uint8_t isc, flags; /* ISC in bits 2-4; E V and the rest */
  uint16_t devno;
  uint8_t lpm, pnom, lpum, pim;
  uint16_t mbi;
  uint8_t pom, pam;
  uint8_t chpid[8];
  uint32_t word6;
  struct scsw scsw;
  uint8_t model[12];
} __attribute__((aligned(4)));
struct orb {
  uint32_t intparm, ctrl, cpa, reserved[5];
} __attribute__((aligned(4)));
struct ccw {
  uint8_t cmd, flags;
  uint16_t count;
  uint32_t cda;
} __attribute__((aligned(8)));
struct irb {
  struct scsw scsw;
  uint8_t esw[20], ecw[32];
} __attribute__((aligned(4)));

/* Subchannel 0's id (SID: bit 15 one, subchannel set 0), a CCW's suppress-length
   flag, and the ORB's format-1 bit and logical-path mask (all paths). */
#define SID0 0x00010000u
#define SLI 0x20
#define ORB_FORMAT1 0x00800000u /* bit 8 */
#define ORB_LPM 0x0000ff00u

/* An I/O instruction whose GR1 is the subsystem identification and whose operand is a
 * control block (STSCH, MSCH, SSCH, TSCH): `IO_SID(ssch)` defines `int ssch(sid, block)`,
 * returning the condition code. A kernel instantiates the ones it uses. */
#define IO_SID(name)                                                                          \
  static int name(uint32_t sid, void *a) {                                                    \
    register unsigned long r1 __asm__("1") = sid;                                             \
    int cc;                                                                                   \
    __asm__ volatile(#name " 0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "d"(r1), "a"(a) : "cc", "memory"); \
    return cc;                                                                                \
  }

#endif
