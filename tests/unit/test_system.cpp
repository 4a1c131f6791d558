// System mode (tpfemu ipl): the privileged instructions of the table in the problem
// state, semiprivileged authority, and what a host control program's I-streams see.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>

#include "emu/isa/table.h"
#include "emu/machine.h"
#include "emu/system/system_machine.h"
#include "harness.h"

namespace {

using emu::Psw;

unsigned format_length(emu::Format f) {
  using F = emu::Format;
  switch (f) {
    case F::E: case F::I: case F::RR: return 2;
    case F::RRE: case F::RRF: case F::RRD: case F::RX: case F::RS: case F::RSI: case F::RI: case F::SI: case F::S: return 4;
    default: return 6;
  }
}

// The bytes of a table line with every operand field zero (as test_table.cpp's).
std::array<uint8_t, 6> encode(const emu::InsnDef& d) {
  std::array<uint8_t, 6> b{};
  if (d.opcode <= 0xFF) b[0] = uint8_t(d.opcode);
  // (SSE's second opcode byte is its second byte, as a 4-byte instruction's: TPROT E501.)
  else if (format_length(d.format) == 6 && d.format != emu::Format::SSE) b[0] = uint8_t(d.opcode >> 8), b[5] = uint8_t(d.opcode);
  else b[0] = uint8_t(d.opcode >> 8), b[1] = uint8_t(d.opcode);
  return b;
}

constexpr uint64_t kCode = 0x20000;
constexpr uint64_t kProblem = 0x0001000180000000ull, kSupervisor = 0x0000000180000000ull;
constexpr uint64_t kWait = 0x0002000180000000ull;

// One I-stream in system mode over 16 MB, the program-new PSW a disabled wait with code
// 0x99, so that the first program interruption ends the run.
struct SystemFixture {
  std::unique_ptr<emu::Machine> machine;
  std::unique_ptr<emu::SystemMachine> system;
  std::string console;
  SystemFixture() {
    emu::MachineConfig c = emu::load_exec_machine_config({}, {"machine.storage=16M", "machine.istreams=1"});
    const uint64_t real = c.storage;
    c.storage = emu::RealStorage::storage_bytes(real);
    machine = std::make_unique<emu::Machine>(c, false);
    system = std::make_unique<emu::SystemMachine>(*machine, real, [this](std::string_view s) { console += s; });
    poke64(0x1D0, kWait), poke64(0x1D8, 0x99);
  }
  void poke64(uint64_t a, uint64_t v) {
    uint8_t b[8];
    for (int k = 0; k < 8; ++k) b[k] = uint8_t(v >> (56 - 8 * k));
    system->real(0).space().write_bytes(a, b, 8);
  }
  uint64_t peek(uint64_t a, unsigned n) {
    uint8_t b[8] = {};
    system->real(0).space().read_bytes(a, b, n);
    uint64_t v = 0;
    for (unsigned k = 0; k < n; ++k) v = v << 8 | b[k];
    return v;
  }
  emu::SystemRunResult run(const uint8_t* code, unsigned n, uint64_t mask) {
    system->real(0).space().write_bytes(kCode, code, n);
    system->cpu(0).load_psw(Psw{mask, kCode});
    machine->set_state(0, emu::IStreamState::Running);
    return system->run(5);
  }
};

}  // namespace

TEST_CASE("every privileged line of the table is a privileged-operation exception in the problem state", "[system]") {
  unsigned privileged = 0;
  for (const emu::InsnDef& d : emu::instruction_table()) {
    if (d.privilege != emu::Privilege::Privileged) continue;
    ++privileged;
    INFO(d.mnemonic);
    SystemFixture f;
    const auto bytes = encode(d);
    const auto r = f.run(bytes.data(), format_length(d.format), kProblem);
    CHECK(r.end == emu::SystemRunResult::End::DisabledWait);
    CHECK(r.psw.addr == 0x99);
    CHECK(f.peek(0x8E, 2) == 0x0002);                    // the interruption code
    CHECK(f.peek(0x8D, 1) == format_length(d.format));   // ILC, in bytes
    CHECK(f.peek(0x150, 8) == kProblem);                 // the program old PSW: problem state
    CHECK(f.peek(0x158, 8) == kCode + format_length(d.format));  // suppressed: past the instruction
  }
  // LPSW, LPSWE, LCTL(G), STCTL/STCTG, SSM, STNSM, STOSM, SPX, STPX, STAP, STIDP, ...
  CHECK(privileged >= 20);
}

TEST_CASE("IPK in the problem state needs CR0's extraction-authority control", "[system]") {
  const uint8_t ipk[4] = {0xB2, 0x0B, 0, 0};
  SystemFixture f;
  auto r = f.run(ipk, 4, kProblem);
  CHECK(f.peek(0x8E, 2) == 0x0002);
  SystemFixture g;
  g.system->cpu(0).cr[0] |= emu::kCr0ExtractionAuthority;
  const uint8_t ipk_then_wait[] = {0xB2, 0x0B, 0, 0, 0x00, 0x00};  // IPK, then an operation exception
  r = g.run(ipk_then_wait, sizeof ipk_then_wait, kProblem);
  CHECK(g.peek(0x8E, 2) == 0x0001);  // IPK ran; the next instruction's exception ended it
}

TEST_CASE("an SVC in system mode is an interruption through the lowcore", "[system]") {
  const uint8_t svc[2] = {0x0A, 0x2A};
  SystemFixture f;
  f.poke64(0x1C0, kWait), f.poke64(0x1C8, 0x42);  // SVC new PSW: a disabled wait
  const auto r = f.run(svc, 2, kSupervisor);
  CHECK(r.end == emu::SystemRunResult::End::DisabledWait);
  CHECK(r.psw.addr == 0x42);
  CHECK(f.peek(0x8A, 2) == 0x2A);
  CHECK(f.peek(0x89, 1) == 2);
  CHECK(f.peek(0x140, 8) == kSupervisor);
  CHECK(f.peek(0x148, 8) == kCode + 2);
}

TEST_CASE("a program-new PSW that is not valid stops the run instead of looping", "[system]") {
  const uint8_t bad[2] = {0x00, 0x00};
  SystemFixture f;
  f.poke64(0x1D0, 0x8000000180000000ull);  // bit 0: not valid
  const auto r = f.run(bad, 2, kSupervisor);
  CHECK(r.end == emu::SystemRunResult::End::Halted);
  CHECK_THAT(r.reason, Catch::Contains("program-interruption loop"));
  // A valid program-new PSW at an opcode that is not one: the operation exception is
  // not counted as an instruction, so --max-instructions would never end it (found by
  // random images: the run hung).
  SystemFixture g;
  g.poke64(0x1D0, kSupervisor), g.poke64(0x1D8, 0x30000);  // zeros there
  const auto s = g.run(bad, 2, kSupervisor);
  CHECK(s.end == emu::SystemRunResult::End::Halted);
  CHECK_THAT(s.reason, Catch::Contains("0001 (operation exception) by the first instruction"));
}

TEST_CASE("under a host control program the new privileged instructions need a supervisor state it does not give",
          "[system]") {
  test::TestMachine m;
  CHECK(m.cpu.psw_mask() == 0x0705000180000000ull);  // run's and exec's PSW, as before
  auto r = m.run(test::Bytes{0xB2, 0x11, 0x00, 0x00});  // STPX
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::PrivilegedOperation);
  test::TestMachine n;
  n.cpu.gr[1] = test::TestMachine::kData;
  r = n.run(test::Bytes{0xB2, 0x12, 0x10, 0x00});  // STAP 0(r1): the lock code's I-stream number
  CHECK(r.reason != emu::StopReason::ProgramCheck);
}

TEST_CASE("SERVICE CALL's WRITE EVENT DATA prints a line-mode message's EBCDIC text", "[system]") {
  SystemFixture f;
  const uint8_t sccb[] = {
      0, 41, 0, 0, 0, 0, 0, 0,                             // SCCB header: length 41
      0, 33, 0x02, 0, 0, 0,                                // event buffer: a message (line mode)
      0, 27, 0, 1, 0xD4, 0xC4, 0xC2, 0x40, 0, 0, 0, 1,     // message data block header
      0, 15, 0, 4, 0x10, 0, 0, 0, 0, 0,                    // message text object
      0xC8, 0xC5, 0xD3, 0xD3, 0xD6};                       // "HELLO" in EBCDIC
  f.system->real(0).space().write_bytes(0x30000, sccb, sizeof sccb);
  f.system->cpu(0).cpu().gr[1] = 0x00760005;  // WRITE EVENT DATA
  f.system->cpu(0).cpu().gr[2] = 0x30000;
  const uint8_t servc_then_stop[] = {0xB2, 0x20, 0x00, 0x12, 0x00, 0x00};  // SERVC r1,r2; an operation exception
  const auto r = f.run(servc_then_stop, sizeof servc_then_stop, kSupervisor);
  CHECK(r.end == emu::SystemRunResult::End::DisabledWait);
  CHECK(f.console == "HELLO\n");
  CHECK(f.peek(0x30000 + 6, 2) == 0x0020);  // normal completion
  CHECK(f.peek(0x30000 + 11, 1) == 0x80);   // the buffer marked processed
}

TEST_CASE("an external-new PSW enabled for a condition still pending stops the run instead of recursing", "[system]") {
  // The clock comparator is 0 after reset: the TOD clock is past it from the start. With
  // its subclass mask on and an external-new PSW that enables external interruptions,
  // each interruption would take the next before any instruction (random images found
  // it: the host's stack overflowed).
  SystemFixture f;
  f.system->cpu(0).cr[0] |= emu::kCr0ClockComparator;
  f.poke64(0x1B0, 0x0100000180000000ull), f.poke64(0x1B8, kCode);
  const uint8_t nop[2] = {0x07, 0x00};
  const auto r = f.run(nop, 2, 0x0100000180000000ull);
  CHECK(r.end == emu::SystemRunResult::End::Halted);
  CHECK_THAT(r.reason, Catch::Contains("an interruption loop"));
}
