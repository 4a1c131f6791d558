// The z/Architecture PSW [Principles of Operation, chapter 4, "Program-Status Word"]:
// its bits, the 16-byte form interruptions and LPSWE use, and the 8-byte ESA/390 form
// LPSW and the IPL PSW use.
#pragma once
#include <cstdint>

namespace emu {

// Bit n of the PSW's first doubleword as the Principles of Operation numbers it (0 is
// the leftmost).
constexpr uint64_t psw_bit(unsigned n) { return 1ull << (63 - n); }

namespace psw {
constexpr uint64_t kPer = psw_bit(1);           // R: PER mask
constexpr uint64_t kDat = psw_bit(5);           // T: DAT mode
constexpr uint64_t kIo = psw_bit(6);            // IO: I/O mask
constexpr uint64_t kExternal = psw_bit(7);      // EX: external mask
constexpr unsigned kKeyShift = 52;              // bits 8-11: PSW key
constexpr uint64_t kKey = 0xFull << kKeyShift;
constexpr uint64_t kShortFormat = psw_bit(12);  // one in an ESA/390 (8-byte) PSW, zero here
constexpr uint64_t kMachineCheck = psw_bit(13); // M: machine-check mask
constexpr uint64_t kWait = psw_bit(14);         // W: wait state
constexpr uint64_t kProblem = psw_bit(15);      // P: problem state
constexpr unsigned kAscShift = 46;              // bits 16-17: address-space control
constexpr uint64_t kAsc = 3ull << kAscShift;
constexpr unsigned kCcShift = 44;               // bits 18-19: condition code
constexpr unsigned kProgramMaskShift = 40;      // bits 20-23: program mask
constexpr uint64_t kCcAndProgramMask = 0x3Full << kProgramMaskShift;
constexpr uint64_t kExtendedAddressing = psw_bit(31);  // EA
constexpr uint64_t kBasicAddressing = psw_bit(32);     // BA
constexpr uint64_t kAddressingMode = kExtendedAddressing | kBasicAddressing;
// Bits that must be zero in a z/Architecture PSW's first doubleword: 0, 2-4, 12,
// 24-30 and 33-63 [Principles of Operation, "Exceptions Associated with the PSW"].
constexpr uint64_t kMustBeZero = psw_bit(0) | psw_bit(2) | psw_bit(3) | psw_bit(4) | psw_bit(12) |
                                 (0x7Full << 33) | 0x7FFFFFFFull;
// The interruptions a PSW leaves open: I/O, external, machine check.
constexpr uint64_t kInterruptionMasks = kIo | kExternal | kMachineCheck;
}  // namespace psw

struct Psw {
  uint64_t mask = 0;  // bits 0-63
  uint64_t addr = 0;  // bits 64-127: the instruction address

  bool wait() const { return mask & psw::kWait; }
  // A wait no interruption can end: the I/O, external and machine-check masks all off.
  bool disabled_wait() const { return wait() && !(mask & psw::kInterruptionMasks); }
  bool mode64() const { return (mask & psw::kAddressingMode) == psw::kAddressingMode; }

  // Whether the PSW may be loaded [Principles of Operation, "Exceptions Associated
  // with the PSW"]: the bits that must be zero are, EA without BA is not a mode, and
  // the address fits the addressing mode (24 or 31 bits).
  bool valid() const {
    if (mask & psw::kMustBeZero) return false;
    const uint64_t mode = mask & psw::kAddressingMode;
    if (mode == psw::kExtendedAddressing) return false;
    if (mode == 0 && addr >> 24) return false;
    if (mode == psw::kBasicAddressing && addr >> 31) return false;
    return true;
  }
};

// An ESA/390 PSW (8 bytes: LPSW's operand, the IPL PSW at absolute 0) in z/Architecture
// form [Principles of Operation, "LOAD PSW"]: bits 0-32 carry over but bit 12 (one in
// the short form), the address is bits 33-63.
inline Psw psw_from_short(uint64_t s) {
  return Psw{(s & 0xFFFFFFFF80000000ull) & ~psw::kShortFormat, s & 0x7FFFFFFFull};
}

}  // namespace emu
