// A one-CPU test machine and instruction encoders, for unit tests that check the
// result and condition code of single instructions on edge values. Encoders take
// the opcode as the Principles of Operation writes it (0x1A, 0xB908, 0xA7B, 0xE304).
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "emu/cpu.h"

namespace test {

// How many times `needle` stands in `hay` (overlapping ones too), e.g. log lines.
inline size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

using Bytes = std::vector<uint8_t>;

inline Bytes operator+(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// --- encoders ----------------------------------------------------------------------
inline Bytes E(uint16_t op) { return {uint8_t(op >> 8), uint8_t(op)}; }
inline Bytes I(uint8_t op, uint8_t i) { return {op, i}; }
inline Bytes RR(uint8_t op, unsigned r1, unsigned r2) { return {op, uint8_t(r1 << 4 | r2)}; }
inline Bytes RRE(uint16_t op, unsigned r1, unsigned r2) {
  return {uint8_t(op >> 8), uint8_t(op), 0, uint8_t(r1 << 4 | r2)};
}
// RRF: bits 16-19 (R3 or M3) and 20-23 (M4).
inline Bytes RRF(uint16_t op, unsigned r1, unsigned r2, unsigned r3_or_m3, unsigned m4 = 0) {
  return {uint8_t(op >> 8), uint8_t(op), uint8_t(r3_or_m3 << 4 | m4), uint8_t(r1 << 4 | r2)};
}
inline Bytes RX(uint8_t op, unsigned r1, unsigned x2, unsigned b2, unsigned d2) {
  return {op, uint8_t(r1 << 4 | x2), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2)};
}
inline Bytes RXY(uint16_t op, unsigned r1, unsigned x2, unsigned b2, int d2) {
  uint32_t d = uint32_t(d2) & 0xFFFFF;
  return {uint8_t(op >> 8), uint8_t(r1 << 4 | x2), uint8_t(b2 << 4 | ((d >> 8) & 0xF)), uint8_t(d),
          uint8_t(d >> 12), uint8_t(op)};
}
inline Bytes RXE(uint16_t op, unsigned r1, unsigned x2, unsigned b2, unsigned d2, unsigned m3 = 0) {
  return {uint8_t(op >> 8), uint8_t(r1 << 4 | x2), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2),
          uint8_t(m3 << 4), uint8_t(op)};
}
inline Bytes RS(uint8_t op, unsigned r1, unsigned r3, unsigned b2, unsigned d2) {
  return {op, uint8_t(r1 << 4 | r3), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2)};
}
inline Bytes RSY(uint16_t op, unsigned r1, unsigned r3, unsigned b2, int d2) {
  uint32_t d = uint32_t(d2) & 0xFFFFF;
  return {uint8_t(op >> 8), uint8_t(r1 << 4 | r3), uint8_t(b2 << 4 | ((d >> 8) & 0xF)), uint8_t(d),
          uint8_t(d >> 12), uint8_t(op)};
}
inline Bytes RI(uint16_t op3, unsigned r1, int i2) {  // op3 like 0xA7B
  return {uint8_t(op3 >> 4), uint8_t(r1 << 4 | (op3 & 0xF)), uint8_t(uint16_t(i2) >> 8), uint8_t(i2)};
}
inline Bytes RIL(uint16_t op3, unsigned r1, int64_t i2) {  // op3 like 0xC0F
  uint32_t v = uint32_t(i2);
  return {uint8_t(op3 >> 4), uint8_t(r1 << 4 | (op3 & 0xF)), uint8_t(v >> 24), uint8_t(v >> 16),
          uint8_t(v >> 8), uint8_t(v)};
}
// RIE: byte 1 = (hi << 4 | lo), bytes 2-3 = i16, byte 4 = b4; used for every variant:
// RIE-b CRJ: (r1, r2, ri4, m3 << 4); RIE-c CIJ: (r1, m3, ri4, i2); RIE-d AHIK: (r1, r3, i2, 0);
// RIE-f RISBG: use RIEf below.
inline Bytes RIE(uint16_t op, unsigned hi, unsigned lo, int i16, uint8_t b4) {
  return {uint8_t(op >> 8), uint8_t(hi << 4 | lo), uint8_t(uint16_t(i16) >> 8), uint8_t(i16), b4, uint8_t(op)};
}
inline Bytes RIEf(uint16_t op, unsigned r1, unsigned r2, uint8_t i3, uint8_t i4, uint8_t i5) {
  return {uint8_t(op >> 8), uint8_t(r1 << 4 | r2), i3, i4, i5, uint8_t(op)};
}
inline Bytes SI(uint8_t op, uint8_t i2, unsigned b1, unsigned d1) {
  return {op, i2, uint8_t(b1 << 4 | (d1 >> 8)), uint8_t(d1)};
}
inline Bytes SIY(uint16_t op, uint8_t i2, unsigned b1, int d1) {
  uint32_t d = uint32_t(d1) & 0xFFFFF;
  return {uint8_t(op >> 8), i2, uint8_t(b1 << 4 | ((d >> 8) & 0xF)), uint8_t(d), uint8_t(d >> 12), uint8_t(op)};
}
inline Bytes SIL(uint16_t op, unsigned b1, unsigned d1, int i2) {
  return {uint8_t(op >> 8), uint8_t(op), uint8_t(b1 << 4 | (d1 >> 8)), uint8_t(d1), uint8_t(uint16_t(i2) >> 8),
          uint8_t(i2)};
}
// SS: `l` is the whole length byte (L-1 for SS-a, L1-1 << 4 | L2-1 for SS-b, R1 << 4 | R3 for SS-d/e).
inline Bytes SS(uint8_t op, uint8_t l, unsigned b1, unsigned d1, unsigned b2, unsigned d2) {
  return {op, l, uint8_t(b1 << 4 | (d1 >> 8)), uint8_t(d1), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2)};
}
inline Bytes SSE(uint16_t op, unsigned b1, unsigned d1, unsigned b2, unsigned d2) {
  return {uint8_t(op >> 8), uint8_t(op), uint8_t(b1 << 4 | (d1 >> 8)), uint8_t(d1), uint8_t(b2 << 4 | (d2 >> 8)),
          uint8_t(d2)};
}
inline Bytes S(uint16_t op, unsigned b2, unsigned d2) {
  return {uint8_t(op >> 8), uint8_t(op), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2)};
}

// --- the machine ---------------------------------------------------------------------
class TestMachine {
 public:
  static constexpr uint64_t kCode = 0x10000;  // code page(s), read/execute
  static constexpr uint64_t kData = 0x40000;  // 64 KB of data, read/write

  emu::Storage storage{1ull << 30};
  emu::AddressSpace space{storage};
  emu::Cpu cpu{space};

  TestMachine() {
    space.map(kCode, 0x4000, emu::kProtRead | emu::kProtExec);
    space.map(kData, 0x10000, emu::kProtRead | emu::kProtWrite);
  }

  // Places `code` at kCode and runs it until the PSW leaves it (falls off the end or
  // branches elsewhere), a program check, or `max_steps` instructions.
  emu::RunResult run(const Bytes& code, uint64_t max_steps = 10000) {
    space.write_bytes(kCode, code.data(), code.size());
    cpu.psw_addr = kCode;
    uint64_t end = kCode + code.size();
    for (uint64_t n = 0; n < max_steps; ++n) {
      emu::RunResult r = cpu.run(1);
      if (r.reason == emu::StopReason::ProgramCheck) return r;
      if (cpu.psw_addr < kCode || cpu.psw_addr >= end) return r;
    }
    return emu::RunResult{emu::StopReason::Limit, {}};
  }

  template <class T> void poke(uint64_t a, T v) {
    uint8_t b[sizeof(T)];
    emu::Cpu::store_be<T>(b, v);
    space.write_bytes(a, b, sizeof b);
  }
  template <class T> T peek(uint64_t a) {
    uint8_t b[sizeof(T)];
    space.read_bytes(a, b, sizeof b);
    return emu::Cpu::load_be<T>(b);
  }
};

// Runs `code` and returns the program-interruption code it must raise.
inline emu::Pic check_of(TestMachine& m, const Bytes& code) {
  emu::RunResult r = m.run(code);
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  return r.check.interrupt.code;
}

}  // namespace test

// Runs `code` and requires that no program check happened.
#define EXEC(m, code) REQUIRE((m).run(code).reason != emu::StopReason::ProgramCheck)
