// The input layout of the supervisor-state fuzz target (fuzz_system.cpp), shared with the
// program that writes its seeds (fuzz_system_seeds.cpp). All fields big-endian.
#pragma once
#include <cstddef>
#include <cstdint>

namespace fuzz_system {

constexpr size_t kPsw = 0;          // 16 bytes: the PSW I-stream 0 starts with (mask, address)
constexpr size_t kCr = 16;          // 16 x 8 bytes: I-stream 0's control registers
constexpr size_t kGr = kCr + 128;   // 16 x 8 bytes: its general registers
constexpr size_t kFlags = kGr + 128;  // 1 byte: bit 0 two I-streams (the second stopped)
constexpr size_t kStorage = kFlags + 1;  // the rest: absolute storage from address 0
constexpr size_t kStorageBytes = 0x20000;  // at most this much of it (128 KB)

// Where the seeds put things (the target reads any layout).
constexpr uint64_t kSeedCode = 0x6000;           // the instruction under test
constexpr uint64_t kSeedSegmentTable = 0x10000;  // DAT seeds: a segment table (2 KB)
constexpr uint64_t kSeedPageTable = 0x11000;     // and one page table: the first 1 MB, identity
constexpr uint64_t kSeedData = 0x8000;           // registers point here

}  // namespace fuzz_system
