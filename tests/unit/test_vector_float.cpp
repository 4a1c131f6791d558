#include <catch2/catch.hpp>

#include "harness.h"
#include "linux/linux_abi.h"
#include "linux/linux_process.h"

using namespace test;

namespace {

// A VRR-c instruction (0xE7, V1 V2 V3 M6 M5 M4, RXB 0): VFA and its kin.
Bytes VRRc(uint8_t op, unsigned v1, unsigned v2, unsigned v3, unsigned m4, unsigned m5 = 0, unsigned m6 = 0) {
  return {0xE7, uint8_t(v1 << 4 | v2), uint8_t(v3 << 4), uint8_t(m6 << 4 | m5), uint8_t(m4 << 4), op};
}
constexpr uint64_t kOne = 0x3FF0000000000000ull, kTwo = 0x4000000000000000ull;
constexpr uint32_t kMaskDivide = 0x40000000u;

}  // namespace

TEST_CASE("VFD: an enabled divide-by-zero is a vector-processing exception naming the element",
          "[vector][vfloat]") {
  TestMachine m;
  m.cpu.fpc = kMaskDivide;
  m.cpu.vr[1] = {kOne, kOne};
  m.cpu.vr[2] = {kTwo, 0};  // element 1 divides by zero
  m.cpu.vr[3] = {0x1234, 0x5678};
  auto r = m.run(VRRc(0xE5, 3, 1, 2, 3));  // VFDDB v3,v1,v2
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::VectorProcessing);
  CHECK(r.check.interrupt.dxc == 0x12);  // element 1, divide by zero
  CHECK(((m.cpu.fpc >> 8) & 0xFF) == 0x12);  // the VXC in the FPC, as for a DXC
  CHECK(((m.cpu.fpc >> 16) & 0xFF) == 0);  // no flag set: the instruction is suppressed
  CHECK(m.cpu.vr[3].hi == 0x1234);
  CHECK(m.cpu.vr[3].lo == 0x5678);
  const auto s = linux_user::linux_signal_for(r.check, false);
  CHECK(s.info.signo == linux_user::linux_abi::kSigfpe);
  CHECK(s.info.code == linux_user::linux_abi::kFpeFltdiv);  // as the kernel's vector_exception
}

TEST_CASE("VFD: the divide-by-zero flag when the mask is off", "[vector][vfloat]") {
  TestMachine m;
  m.cpu.vr[1] = {kOne, kOne};
  m.cpu.vr[2] = {kTwo, 0};
  m.run(VRRc(0xE5, 3, 1, 2, 3));
  CHECK(m.cpu.vr[3].hi == 0x3FE0000000000000ull);
  CHECK(m.cpu.vr[3].lo == 0x7FF0000000000000ull);
  CHECK(((m.cpu.fpc >> 16) & 0xFF) == 0x40);
}

TEST_CASE("VFA: a bad format or reserved M5 bits are specification exceptions", "[vector][vfloat]") {
  TestMachine m;
  auto r = m.run(VRRc(0xE3, 3, 1, 2, 5));  // format 5
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  r = m.run(VRRc(0xE3, 3, 1, 2, 3, 1));  // M5 bit 3
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("VFMIN: M6 modes 5-7 and 13-15 are specification exceptions", "[vector][vfloat]") {
  TestMachine m;
  for (unsigned mode : {5u, 6u, 7u, 13u, 15u}) {
    auto r = m.run(VRRc(0xEE, 3, 1, 2, 3, 0, mode));
    REQUIRE(r.reason == emu::StopReason::ProgramCheck);
    CHECK(r.check.interrupt.code == emu::Pic::Specification);
  }
}

TEST_CASE("VFM: a tiny result is an underflow exception when its mask is on, even exact", "[vector][vfloat]") {
  TestMachine m;
  m.cpu.vr[1] = {0x3FF0000000000000ull, 0x0170000000000000ull};  // 1, 2^-1000
  m.cpu.vr[2] = {0x3FF0000000000000ull, 0x3E10000000000000ull};  // 1, 2^-30
  m.run(VRRc(0xE7, 3, 1, 2, 3));  // VFMDB: element 1 is 2^-1030, exact and subnormal
  CHECK(m.cpu.vr[3].lo == 0x0000100000000000ull);  // 2^44 * 2^-1074
  CHECK(((m.cpu.fpc >> 16) & 0xFF) == 0);  // exact: no underflow flag with the mask off
  m.cpu.fpc = 0x10000000u;  // underflow mask
  m.cpu.vr[3] = {0, 0};
  auto r = m.run(VRRc(0xE7, 3, 1, 2, 3));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::VectorProcessing);
  CHECK(r.check.interrupt.dxc == 0x14);  // element 1, underflow
  CHECK(m.cpu.vr[3].lo == 0);
}

namespace {
// A VRR-e instruction (0xE7, V1 V2 V3 M6 M5 V4, RXB 0): VFMA and its kin.
Bytes VRRe(uint8_t op, unsigned v1, unsigned v2, unsigned v3, unsigned v4, unsigned m6, unsigned m5 = 0) {
  return {0xE7, uint8_t(v1 << 4 | v2), uint8_t(v3 << 4 | m6), uint8_t(m5), uint8_t(v4 << 4), op};
}
}  // namespace

// 1 * 1 + 2^-60 is 1 + 2^-60, inexact in the long format. Rounded toward +infinity
// (FPC mode 2) it is 1 + 2^-52; VFNMA negates that [Principles of Operation, "VECTOR FP
// NEGATIVE MULTIPLY AND ADD"]: -(1 + 2^-52). Negating first and rounding -(1 + 2^-60)
// toward +infinity (QEMU 7.2) would give -1. Toward -infinity (3) the other way round.
TEST_CASE("VFNMA and VFNMS negate the rounded result in the directed rounding modes", "[vector][vfloat]") {
  constexpr uint64_t kTiny = 0x3C30000000000000ull;  // 2^-60
  constexpr uint64_t kMinusOneUlpUp = 0xBFF0000000000001ull, kMinusOne = 0xBFF0000000000000ull;
  TestMachine m;
  m.cpu.vr[1] = {kOne, kOne};
  m.cpu.vr[2] = {kOne, kOne};
  m.cpu.vr[4] = {kTiny, kTiny | 0x8000000000000000ull};  // +2^-60, -2^-60
  m.cpu.fpc = 2;  // round toward +infinity
  m.run(VRRe(0x9F, 3, 1, 2, 4, 3));  // VFNMADB v3,v1,v2,v4
  CHECK(m.cpu.vr[3].hi == kMinusOneUlpUp);  // -(1 + 2^-60 rounded up)
  CHECK(m.cpu.vr[3].lo == kMinusOne);  // 1 - 2^-60 rounds up to 1
  CHECK(((m.cpu.fpc >> 16) & 0xFF) == 0x08);  // inexact
  m.run(VRRe(0x8F, 5, 1, 2, 4, 3));  // VFMADB v5: the same sums, not negated
  CHECK(m.cpu.vr[5].hi == (kMinusOneUlpUp & ~0x8000000000000000ull));
  CHECK(m.cpu.vr[5].lo == kOne);
  m.cpu.fpc = 3;  // round toward -infinity
  m.run(VRRe(0x9E, 3, 1, 2, 4, 3));  // VFNMSDB v3: -(1 * 1 - v4)
  CHECK(m.cpu.vr[3].hi == 0xBFEFFFFFFFFFFFFFull);  // -(1 - 2^-60 rounded down to 1 - 2^-53)
  CHECK(m.cpu.vr[3].lo == kMinusOne);  // -(1 + 2^-60 rounded down to 1); negated first: -(1 + 2^-52)
}
