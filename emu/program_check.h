// Program interruptions: how a guest error stops an instruction, and the
// dump-style report that tells a user what happened and where.
#pragma once
#include <cstdint>
#include <string>

namespace emu {

// Interruption codes of the Principles of Operation, chapter 6.
enum class Pic : uint16_t {
  Operation = 0x0001,
  PrivilegedOperation = 0x0002,
  Execute = 0x0003,
  Protection = 0x0004,
  Addressing = 0x0005,
  Specification = 0x0006,
  Data = 0x0007,
  FixedPointOverflow = 0x0008,
  FixedPointDivide = 0x0009,
  PageTranslation = 0x0011,
  VectorProcessing = 0x001B,
};
const char* pic_name(Pic code);

// Thrown by a handler or a storage access; the run loop catches it, so it never
// leaves the CPU core. `address` is the failing storage address when `has_address`.
struct ProgramInterrupt {
  Pic code;
  uint64_t address = 0;
  bool has_address = false;
  uint8_t dxc = 0;  // data-exception code (Pic::Data), or vector-exception code (Pic::VectorProcessing)
};

[[noreturn]] inline void program_check(Pic code) { throw ProgramInterrupt{code}; }
[[noreturn]] inline void program_check(Pic code, uint64_t address) {
  throw ProgramInterrupt{code, address, true};
}
// A data exception with its code (DXC): FF for compare and trap, the IEEE flags for
// floating point. The CPU also places it in byte 2 of the FPC.
[[noreturn]] inline void data_exception(uint8_t dxc) { throw ProgramInterrupt{Pic::Data, 0, false, dxc}; }
// A vector-processing exception (an IEEE exception of a vector floating-point
// instruction) with its code (VXC): the element index in bits 0-3, the exception in
// 4-7 (1 invalid, 2 divide, 3 overflow, 4 underflow, 5 inexact). It lands in byte 2 of
// the FPC like a DXC [Principles of Operation, "Vector-Processing Exception"].
[[noreturn]] inline void vector_exception(uint8_t vxc) {
  throw ProgramInterrupt{Pic::VectorProcessing, 0, false, vxc};
}

}  // namespace emu

namespace emu {
class Cpu;
class SymbolTable;
struct ProgramCheckInfo;
// Dump-style report: interruption, PSW, the instruction (bytes, mnemonic, where it
// lies), failing address, condition code and registers.
std::string format_program_check(const Cpu& cpu, const ProgramCheckInfo& info,
                                 const SymbolTable* symbols, const std::string& object);
}  // namespace emu
