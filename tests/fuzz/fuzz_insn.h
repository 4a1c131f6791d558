// The input layout of the instruction fuzz target (fuzz_insn.cpp), shared with the
// program that writes its seeds (fuzz_insn_seeds.cpp).
#pragma once
#include <cstddef>

namespace fuzz_insn {

constexpr size_t kInsn = 0;         // 6 bytes: the instruction (as much of it as its length needs)
constexpr size_t kPlacement = 6;    // 1 byte: bit 0 set puts it at the end of the code mapping
constexpr size_t kPointers = 7;     // 2 bytes: bit i set makes gr[i] an address in the data area
constexpr size_t kGr = 9;           // 16 x 8 bytes
constexpr size_t kFpr = kGr + 128;  // 16 x 8 bytes
constexpr size_t kFpc = kFpr + 128; // 4 bytes
constexpr size_t kCc = kFpc + 4;    // 1 byte: the condition code (low 2 bits), the program mask (high 4)
constexpr size_t kData = kCc + 1;   // the rest: the data area's first bytes

}  // namespace fuzz_insn
