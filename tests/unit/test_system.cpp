// System mode (tpfemu ipl): the privileged instructions of the table in the problem
// state, semiprivileged authority, and what a host control program's I-streams see.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <initializer_list>
#include <string>
#include <vector>

#include "emu/isa/table.h"
#include "emu/machine.h"
#include "emu/system/storage_key.h"
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
  explicit SystemFixture(const std::string& engine = "compile") {
    emu::MachineConfig c = emu::load_exec_machine_config(
        {}, {"machine.storage=16M", "machine.istreams=1", "machine.engine=" + engine});
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
  emu::SystemRunResult run(const uint8_t* code, unsigned n, uint64_t mask, uint64_t limit = 5) {
    system->real(0).space().write_bytes(kCode, code, n);
    system->cpu(0).load_psw(Psw{mask, kCode});
    machine->set_state(0, emu::IStreamState::Running);
    return system->run(limit);
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

// --- Storage keys [Principles of Operation, "Storage Key", "Key-Controlled Protection",
// "Fetch Protection", "Reference Recording", "Change Recording"] ---------------------------

namespace {

constexpr uint64_t kKey2 = 0x0020000000000000ull;  // PSW key 2
constexpr uint64_t kData = 0x30000;
// Each program ends on an operation exception (00 00): the run's disabled wait 0x99.
constexpr uint8_t kEnd[2] = {0x00, 0x00};

std::vector<uint8_t> program(std::initializer_list<std::vector<uint8_t>> insns) {
  std::vector<uint8_t> out;
  for (const auto& i : insns) out.insert(out.end(), i.begin(), i.end());
  out.insert(out.end(), kEnd, kEnd + 2);
  return out;
}
const std::vector<uint8_t> kStgR1AtR2 = {0xE3, 0x12, 0x00, 0x00, 0x00, 0x24};
const std::vector<uint8_t> kLgR1AtR2 = {0xE3, 0x12, 0x00, 0x00, 0x00, 0x04};
const std::vector<uint8_t> kIskeR3R2 = {0xB2, 0x29, 0x00, 0x32};
std::vector<uint8_t> sske(unsigned m3) { return {0xB2, 0x2B, uint8_t(m3 << 4), 0x12}; }

uint8_t key_of(SystemFixture& f, uint64_t absolute) {
  return emu::storage_key::read(f.machine->storage(), emu::RealStorage::real_frame(absolute / emu::kPageSize));
}
void set_key(SystemFixture& f, uint64_t absolute, uint8_t key) {
  emu::storage_key::write(f.machine->storage(), emu::RealStorage::real_frame(absolute / emu::kPageSize), key);
}
emu::SystemRunResult run(SystemFixture& f, const std::vector<uint8_t>& code, uint64_t mask, uint64_t limit = 5) {
  return f.run(code.data(), unsigned(code.size()), mask, limit);
}

}  // namespace

TEST_CASE("SSKE sets the key ISKE inserts; RRBE gives R and C as its CC and resets R", "[system][keys]") {
  SystemFixture f;
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[1] = 0xFFFFFFFFFFFFFF3Full, gr[2] = kData + 0x123, gr[3] = 0xAAAAAAAAAAAAAAAAull;
  const auto r = run(f, program({sske(0), kIskeR3R2, {0xB2, 0x2A, 0x00, 0x02}, {0xB2, 0x29, 0x00, 0x42}}), kSupervisor);
  CHECK(r.psw.addr == 0x99);
  CHECK(gr[3] == 0xAAAAAAAAAAAAAA3Eull);  // ACC 3, F, R, C; bit 63 zero; bits 0-55 kept
  CHECK((f.peek(0x150, 8) >> 44 & 3) == 3);  // RRBE's CC 3: R and C were one
  CHECK((gr[4] & 0xFF) == 0x3A);           // R reset, C kept
  CHECK(key_of(f, kData) == 0x3A);
}

TEST_CASE("key-controlled protection: a store with another key is a protection exception, nothing stored", "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x10);  // ACC 1, not fetch-protected
  f.poke64(kData, 0x1111);
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[1] = 0x2222, gr[2] = kData + 8;
  const auto r = run(f, program({kLgR1AtR2, kStgR1AtR2}), kSupervisor | kKey2);
  CHECK(r.psw.addr == 0x99);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0x158, 8) == kCode + 12);   // the store's old PSW: past it (the load ran)
  CHECK(f.peek(kData + 8, 8) == 0);        // nothing stored
  CHECK(gr[1] == 0);                       // the load was permitted: no fetch protection
  // ESOP-2's TEID: the page, the store indication, key-controlled protection (bit 60).
  CHECK(f.peek(0xA8, 8) == (kData | 0x400 | 0x8));
  CHECK(f.peek(0x150, 8) == (kSupervisor | kKey2));  // the interruption stored with key 0
}

TEST_CASE("fetch protection: a load with another key is a protection exception; key 0 and the block's key pass",
          "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x18);  // ACC 1, fetch-protected
  f.poke64(kData, 0x1234);
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[2] = kData;
  run(f, program({kLgR1AtR2}), kSupervisor | kKey2);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0xA8, 8) == (kData | 0x800 | 0x8));  // the fetch indication
  CHECK(gr[1] == 0);
  SystemFixture g;
  set_key(g, kData, 0x18);
  g.poke64(kData, 0x1234);
  g.system->cpu(0).cpu().gr[2] = kData;
  run(g, program({kLgR1AtR2, kStgR1AtR2}), kSupervisor | 0x0010000000000000ull);  // PSW key 1
  CHECK(g.peek(0x8E, 2) == 0x0001);  // the end, not a protection exception
  CHECK(g.system->cpu(0).cpu().gr[1] == 0x1234);
  SystemFixture h;
  set_key(h, kData, 0xF8);
  h.poke64(kData, 0x5678);
  h.system->cpu(0).cpu().gr[2] = kData;
  run(h, program({kLgR1AtR2, kStgR1AtR2}), kSupervisor);  // PSW key 0 matches every key
  CHECK(h.peek(0x8E, 2) == 0x0001);
  CHECK(h.system->cpu(0).cpu().gr[1] == 0x5678);
}

TEST_CASE("the storage-protection override lets any key into blocks of key 9", "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x98);
  f.system->cpu(0).cr[0] |= emu::kCr0StorageProtectionOverride;
  f.system->cpu(0).cpu().gr[2] = kData;
  run(f, program({kLgR1AtR2, kStgR1AtR2}), kSupervisor | kKey2);
  CHECK(f.peek(0x8E, 2) == 0x0001);
}

TEST_CASE("SPKA's new key applies to the next access, though the page was accessed under the old one", "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x10);
  f.system->cpu(0).cpu().gr[2] = kData;
  // STG (key 0: permitted), SPKA 0x20, STG again: now a protection exception.
  run(f, program({kStgR1AtR2, {0xB2, 0x0A, 0x00, 0x20}, kStgR1AtR2}), kSupervisor);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0x158, 8) == kCode + 16);
}

TEST_CASE("reference and change recording: a load sets R, a store after it C", "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x00);
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[2] = kData;
  // LG, ISKE into r3; STG, ISKE into r4.
  run(f, program({kLgR1AtR2, kIskeR3R2, kStgR1AtR2, {0xB2, 0x29, 0x00, 0x42}}), kSupervisor);
  CHECK((gr[3] & 0xFF) == 0x04);
  CHECK((gr[4] & 0xFF) == 0x06);
  // SSKE resets them: the next store records the change again.
  SystemFixture g;
  auto& h = g.system->cpu(0).cpu().gr;
  h[2] = kData, h[1] = 0;
  run(g, program({kStgR1AtR2, sske(0), kStgR1AtR2, {0xB2, 0x29, 0x00, 0x42}}), kSupervisor);
  CHECK((h[4] & 0xFF) == 0x06);
}

TEST_CASE("conditional SSKE leaves an equal key alone and returns the original in R1 bits 48-55", "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x36);
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[1] = 0x30, gr[2] = kData;  // ACC 3, R and C zero: equal but for R and C
  run(f, program({sske(4 | 2)}), kSupervisor);  // MR and MC
  CHECK(key_of(f, kData) == 0x36);
  CHECK(gr[1] == 0x3630);
  gr[1] = 0x40;  // another ACC: set, R and C kept (MR, MC)
  run(f, program({sske(4 | 2)}), kSupervisor);
  CHECK(key_of(f, kData) == 0x46);
  gr[1] = 0x40;  // MC alone: R compared (1 against 0): set, C kept
  run(f, program({sske(2)}), kSupervisor);
  CHECK(key_of(f, kData) == 0x42);
}

TEST_CASE("SSKE's multiple-block control sets the keys up to the 1 MB boundary and updates R2", "[system][keys]") {
  SystemFixture f;
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[1] = 0x50, gr[2] = 0x1FE000 + 0x12;
  run(f, program({sske(1)}), kSupervisor);
  CHECK(key_of(f, 0x1FD000) == 0);
  CHECK(key_of(f, 0x1FE000) == 0x50);
  CHECK(key_of(f, 0x1FF000) == 0x50);
  CHECK(key_of(f, 0x200000) == 0);
  CHECK(gr[2] == 0x200012);
}

TEST_CASE("PFMF clears a 4 KB frame and sets its key; a 1 MB frame; its reserved bits", "[system][keys]") {
  SystemFixture f;
  f.poke64(kData + 0x800, 0x77);
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[1] = 0x30000 | 0x60, gr[2] = kData + 0x10;  // SK, CF, FSC 0, key 6
  const std::vector<uint8_t> pfmf = {0xB9, 0xAF, 0x00, 0x12};
  run(f, program({pfmf}), kSupervisor);
  CHECK(f.peek(0x8E, 2) == 0x0001);
  CHECK(f.peek(kData + 0x800, 8) == 0);
  CHECK(key_of(f, kData) == 0x60);
  CHECK(gr[2] == kData + 0x10);  // FSC 0: R2 unchanged
  gr[1] = 0x20000 | 0x1000 | 0x70, gr[2] = 0x300000;  // SK, FSC 1 (1 MB), key 7
  run(f, program({pfmf}), kSupervisor);
  CHECK(key_of(f, 0x300000) == 0x70);
  CHECK(key_of(f, 0x3FF000) == 0x70);
  CHECK(key_of(f, 0x400000) == 0);
  CHECK(gr[2] == 0x400000);
  gr[1] = 0x100;  // reserved bit 55
  run(f, program({pfmf}), kSupervisor);
  CHECK(f.peek(0x8E, 2) == 0x0006);
}

TEST_CASE("TPROT reads the block's key: CC 0, 1 or 2", "[system][keys]") {
  const std::vector<uint8_t> tprot = {0xE5, 0x01, 0x20, 0x00, 0x40, 0x00};  // TPROT 0(r2),0(r4)
  const std::vector<uint8_t> ipm = {0xB2, 0x22, 0x00, 0x50};                 // IPM r5
  struct Case { uint8_t block, access; unsigned cc; } cases[] = {
      {0x10, 0x10, 0}, {0x10, 0x00, 0}, {0x10, 0x20, 1}, {0x18, 0x20, 2}, {0x18, 0x10, 0}};
  for (const Case& k : cases) {
    SystemFixture f;
    set_key(f, kData, k.block);
    auto& gr = f.system->cpu(0).cpu().gr;
    gr[2] = kData, gr[4] = k.access;
    run(f, program({tprot, ipm}), kSupervisor);
    INFO(int(k.block) << " " << int(k.access));
    CHECK((gr[5] >> 28 & 3) == k.cc);
  }
}

TEST_CASE("IVSK needs DAT on: a special-operation exception without it", "[system][keys]") {
  SystemFixture f;
  run(f, program({{0xB2, 0x23, 0x00, 0x12}}), kSupervisor);
  CHECK(f.peek(0x8E, 2) == 0x0013);
}

TEST_CASE("IVSK in the problem state needs CR0's extraction-authority control", "[system][keys]") {
  SystemFixture f;
  run(f, program({{0xB2, 0x23, 0x00, 0x12}}), kProblem);
  CHECK(f.peek(0x8E, 2) == 0x0002);
}

TEST_CASE("under a host control program the storage-key instructions are privileged operations", "[system][keys]") {
  for (const test::Bytes& insn : {test::Bytes{0xB2, 0x2B, 0x00, 0x12}, test::Bytes{0xB2, 0x29, 0x00, 0x12},
                                  test::Bytes{0xB2, 0x2A, 0x00, 0x12}, test::Bytes{0xB9, 0xAF, 0x00, 0x12},
                                  test::Bytes{0xB2, 0x23, 0x00, 0x12}}) {
    test::TestMachine m;
    const auto r = m.run(insn);
    REQUIRE(r.reason == emu::StopReason::ProgramCheck);
    CHECK(r.check.interrupt.code == emu::Pic::PrivilegedOperation);
  }
}

TEST_CASE("fetch protection applies to instruction fetches", "[system][keys]") {
  SystemFixture f;
  set_key(f, kCode, 0x18);
  const auto r = run(f, program({{0x07, 0x00}}), kSupervisor | kKey2);
  CHECK(r.psw.addr == 0x99);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0xA8, 8) == (kCode | 0x800 | 0x8));
  SystemFixture g;
  set_key(g, kCode, 0x28);  // the PSW's key: fetched
  run(g, program({{0x07, 0x00}}), kSupervisor | kKey2);
  CHECK(g.peek(0x8E, 2) == 0x0001);
}

TEST_CASE("LURA and STURA are subject to key-controlled protection", "[system][keys]") {
  SystemFixture f;
  set_key(f, kData, 0x18);
  auto& gr = f.system->cpu(0).cpu().gr;
  gr[1] = 0x12345678, gr[2] = kData;
  run(f, program({{0xB2, 0x46, 0x00, 0x12}}), kSupervisor | kKey2);  // STURA r1,r2
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(kData, 4) == 0);
  SystemFixture g;
  set_key(g, kData, 0x18);
  g.system->cpu(0).cpu().gr[2] = kData;
  run(g, program({{0xB2, 0x4B, 0x00, 0x12}}), kSupervisor | kKey2);  // LURA r1,r2: fetch-protected
  CHECK(g.peek(0x8E, 2) == 0x0004);
  SystemFixture h;
  set_key(h, kData, 0x20);
  h.system->cpu(0).cpu().gr[1] = 0x12345678, h.system->cpu(0).cpu().gr[2] = kData;
  run(h, program({{0xB2, 0x46, 0x00, 0x12}}), kSupervisor | kKey2);  // the block's key: stored
  CHECK(h.peek(0x8E, 2) == 0x0001);
  CHECK(h.peek(kData, 4) == 0x12345678);
  CHECK(key_of(h, kData) == 0x26);  // referenced and changed
}

// --- MOVE WITH KEY, MOVE TO PRIMARY, MOVE TO SECONDARY [Principles of Operation, chapter
// 10]: their exceptions; the moves themselves are tests/system/movekey.c's ----------------

namespace {
// MVCK/MVCP/MVCS 0(R1,R2),0(R4),R3: R1 the true length, R3 the key.
std::vector<uint8_t> move_insn(uint8_t opcode) { return {opcode, 0x13, 0x20, 0x00, 0x40, 0x00}; }
constexpr uint8_t kMvck = 0xD9, kMvcp = 0xDA, kMvcs = 0xDB;
constexpr uint64_t kCr0SecondarySpace = 1ull << (63 - 37);
}  // namespace

TEST_CASE("MVCK in the problem state: a key outside the PSW-key mask is a privileged-operation exception",
          "[system][movekey]") {
  SystemFixture f;
  auto& gr = f.system->cpu(0).cpu().gr;
  f.poke64(kData, 0x1122334455667788ull);
  gr[1] = 8, gr[2] = kData + 0x100, gr[4] = kData, gr[3] = 0x30;
  run(f, program({move_insn(kMvck)}), kProblem);
  CHECK(f.peek(0x8E, 2) == 0x0002);
  CHECK(f.peek(0x158, 8) == kCode + 6);  // suppressed
  CHECK(f.peek(kData + 0x100, 8) == 0);
  SystemFixture g;
  auto& gg = g.system->cpu(0).cpu().gr;
  g.poke64(kData, 0x1122334455667788ull);
  gg[1] = 8, gg[2] = kData + 0x100, gg[4] = kData, gg[3] = 0x30;
  g.system->cpu(0).cr[3] = 1ull << (31 - 3);  // key 3's bit of the PSW-key mask
  run(g, program({move_insn(kMvck)}), kProblem);
  CHECK(g.peek(0x8E, 2) == 0x0001);  // MVCK ran; the end's operation exception
  CHECK(g.peek(kData + 0x100, 8) == 0x1122334455667788ull);
}

TEST_CASE("MVCK: more than 256 bytes moves 256 with CC 3; a fetch-protected source under another key moves nothing",
          "[system][movekey]") {
  SystemFixture f;
  auto& gr = f.system->cpu(0).cpu().gr;
  for (uint64_t a = 0; a < 512; a += 8) f.poke64(kData + a, 0x4141414141414141ull);
  gr[1] = 300, gr[2] = kData + 0x1000, gr[4] = kData, gr[3] = 0;
  run(f, program({move_insn(kMvck)}), kSupervisor);
  CHECK((f.peek(0x150, 8) >> 44 & 3) == 3);
  CHECK(f.peek(kData + 0x1000 + 248, 8) == 0x4141414141414141ull);
  CHECK(f.peek(kData + 0x1000 + 256, 8) == 0);
  SystemFixture g;
  auto& gg = g.system->cpu(0).cpu().gr;
  set_key(g, kData, 0x18);  // ACC 1, fetch-protected
  g.poke64(kData, 0x4141414141414141ull);
  gg[1] = 8, gg[2] = kData + 0x1000, gg[4] = kData, gg[3] = 0x20;  // key 2
  run(g, program({move_insn(kMvck)}), kSupervisor);
  CHECK(g.peek(0x8E, 2) == 0x0004);
  CHECK(g.peek(kData + 0x1000, 8) == 0);
  CHECK(g.peek(0xA8, 8) == (kData | 0x800 | 0x8));  // the source's fetch, key-controlled
  CHECK(g.system->cpu(0).key() == 0);               // the PSW key as it was
}

TEST_CASE("MVCP and MVCS need DAT on and CR0's secondary-space control: special-operation exceptions first",
          "[system][movekey]") {
  for (const uint8_t opcode : {kMvcp, kMvcs}) {
    INFO(int(opcode));
    SystemFixture f;
    f.system->cpu(0).cr[0] |= kCr0SecondarySpace;
    f.system->cpu(0).cpu().gr[3] = 0x30;  // a key the problem state may not use
    run(f, program({move_insn(opcode)}), kProblem);  // DAT off
    CHECK(f.peek(0x8E, 2) == 0x0013);  // before the key's privileged-operation exception
    SystemFixture g;
    run(g, program({move_insn(opcode)}), kSupervisor);  // no secondary-space control
    CHECK(g.peek(0x8E, 2) == 0x0013);
  }
}

TEST_CASE("under a host control program MVCK, MVCP and MVCS are privileged operations", "[system][movekey]") {
  for (const uint8_t opcode : {kMvck, kMvcp, kMvcs}) {
    test::TestMachine m;
    const auto r = m.run(move_insn(opcode));
    REQUIRE(r.reason == emu::StopReason::ProgramCheck);
    CHECK(r.check.interrupt.code == emu::Pic::PrivilegedOperation);
  }
}

// Instruction-execution protection (facility 130) [Principles of Operation, chapter 3,
// "Instruction-Execution Protection"]: DAT through a segment table whose first page
// table identity-maps the first 1 MB, the page after the code's with the IEP bit, the
// next DAT-protected.
namespace {
constexpr uint64_t kDatOn = 0x0400000000000000ull;
constexpr uint64_t kSegmentTable = 0x80000, kPageTable = 0x84000;  // in the identity-mapped 1 MB
constexpr uint64_t kIepPage = kCode + 0x1000, kProtectedPage = kCode + 0x2000;
constexpr uint64_t kCr0Iep = 1ull << (63 - 43);
void iep_tables(SystemFixture& f, bool control) {
  f.poke64(kSegmentTable, kPageTable);
  for (uint64_t k = 1; k < 2048; ++k) f.poke64(kSegmentTable + 8 * k, 0x20);  // invalid
  for (uint64_t p = 0; p < 256; ++p) f.poke64(kPageTable + 8 * p, p << 12);
  f.poke64(kPageTable + 8 * (kIepPage >> 12), kIepPage | 0x100);
  f.poke64(kPageTable + 8 * (kProtectedPage >> 12), kProtectedPage | 0x200);
  emu::SystemCpu& s = f.system->cpu(0);
  s.cr[1] = kSegmentTable | 3;
  s.cr[0] = control ? s.cr[0] | kCr0Iep : s.cr[0] & ~kCr0Iep;
}
const std::vector<uint8_t> kBranchToR1 = {0x07, 0xF1};  // BCR 15,1
}  // namespace

TEST_CASE("IEP: with CR0's control a fetch from a page whose entry has the IEP bit is a protection exception",
          "[system][dat][iep]") {
  const std::string engine = GENERATE("interpret", "compile");
  INFO("machine.engine=" << engine);
  SystemFixture f(engine);
  iep_tables(f, true);
  f.system->cpu(0).cpu().gr[1] = kIepPage + 0x10;
  const auto r = run(f, program({kBranchToR1}), kSupervisor | kDatOn);
  CHECK(r.psw.addr == 0x99);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  // ESOP-2's TEID: the page, the fetch indication (10), protection code 101 (bits 56 and
  // 61), the primary space.
  CHECK(f.peek(0xA8, 8) == (kIepPage | 0x800 | 0x84));
  // Suppressed: the old PSW past the fetch by its ILC (2, as QEMU gives).
  CHECK(f.peek(0x8D, 1) == 2);
  CHECK(f.peek(0x158, 8) == kIepPage + 0x12);
}

TEST_CASE("IEP: without CR0's control the page runs; with it, its data are loaded and stored", "[system][dat][iep]") {
  const std::string engine = GENERATE("interpret", "compile");
  INFO("machine.engine=" << engine);
  SystemFixture f(engine);
  iep_tables(f, false);
  f.system->cpu(0).cpu().gr[1] = kIepPage;  // its bytes 00 00: the operation exception there
  run(f, program({kBranchToR1}), kSupervisor | kDatOn);
  CHECK(f.peek(0x8E, 2) == 0x0001);
  CHECK(f.peek(0x158, 8) == kIepPage + 2);

  SystemFixture g(engine);
  iep_tables(g, true);
  g.system->cpu(0).cpu().gr[1] = 0x1122334455667788ull;
  g.system->cpu(0).cpu().gr[2] = kIepPage + 0x100;
  run(g, program({kStgR1AtR2, kLgR1AtR2}), kSupervisor | kDatOn);
  CHECK(g.peek(0x8E, 2) == 0x0001);  // the program's end, not a protection exception
  CHECK(g.peek(kIepPage + 0x100, 8) == 0x1122334455667788ull);
}

TEST_CASE("IEP: a store to a DAT-protected page keeps DAT protection's TEID", "[system][dat][iep]") {
  SystemFixture f;
  iep_tables(f, true);
  f.system->cpu(0).cpu().gr[2] = kProtectedPage + 0x10;
  run(f, program({kStgR1AtR2}), kSupervisor | kDatOn);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0xA8, 8) == (kProtectedPage | 0x400 | 0x4));  // store indication, code 001
}

TEST_CASE("IEP: LCTLG turning the control on is seen by the next fetch from the page", "[system][dat][iep]") {
  const std::string engine = GENERATE("interpret", "compile");
  INFO("machine.engine=" << engine);
  SystemFixture f(engine);
  iep_tables(f, false);
  // In the IEP page: LCTLG 0,0,0(2), then BCR 15,14. Run once with CR0 as it is (so
  // that the BCR is decoded, and compiled, while the control is off), then with the
  // control on: the BCR's fetch is refused though it was decoded before.
  const uint8_t code[] = {0xEB, 0x00, 0x20, 0x00, 0x00, 0x2F, 0x07, 0xFE};
  f.system->real(0).space().write_bytes(kIepPage, code, sizeof code);
  f.poke64(0x30000, f.system->cpu(0).cr[0]);
  f.poke64(0x30008, f.system->cpu(0).cr[0] | kCr0Iep);
  emu::Cpu& c = f.system->cpu(0).cpu();
  c.gr[1] = kIepPage, c.gr[2] = 0x30000, c.gr[3] = 0x30008;
  const std::vector<uint8_t> basr = {0x0D, 0xE1}, lgr_2_3 = {0xB9, 0x04, 0x00, 0x23};
  run(f, program({basr, lgr_2_3, basr}), kSupervisor | kDatOn, 20);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0xA8, 8) == (kIepPage | 0x800 | 0x84));
  CHECK(f.peek(0x158, 8) == kIepPage + 8);  // the BCR at +6, past it by the ILC
}

TEST_CASE("IEP: after IPTE the page's new entry with the IEP bit is seen", "[system][dat][iep]") {
  const std::string engine = GENERATE("interpret", "compile");
  INFO("machine.engine=" << engine);
  SystemFixture f(engine);
  iep_tables(f, true);
  const uint64_t plain = kCode + 0x3000;  // identity-mapped, no IEP bit: BCR 15,14 there
  const uint8_t back[] = {0x07, 0xFE};
  f.system->real(0).space().write_bytes(plain, back, sizeof back);
  emu::Cpu& c = f.system->cpu(0).cpu();
  c.gr[1] = plain, c.gr[3] = kPageTable, c.gr[4] = plain;
  c.gr[5] = plain | 0x100, c.gr[6] = kPageTable + 8 * (plain >> 12);
  // BASR 14,1 (runs the page, comes back); IPTE 3,4; STG 5,0(6) (the new entry, IEP);
  // BASR 14,1 again.
  const std::vector<uint8_t> basr = {0x0D, 0xE1};
  run(f, program({basr, {0xB2, 0x21, 0x00, 0x34}, {0xE3, 0x50, 0x60, 0x00, 0x00, 0x24}, basr}), kSupervisor | kDatOn, 20);
  CHECK(f.peek(0x8E, 2) == 0x0004);
  CHECK(f.peek(0xA8, 8) == (plain | 0x800 | 0x84));
  CHECK(f.peek(0x158, 8) == plain + 2);
}

TEST_CASE("the CPACF queries in system mode: PCKMO in the supervisor state, the parameter block's access "
          "exceptions",
          "[system][msa]") {
  // PCKMO (privileged, no operand registers): the status word at GR1, CC 0.
  {
    SystemFixture f;
    f.system->cpu(0).cpu().gr[0] = 0, f.system->cpu(0).cpu().gr[1] = 0x30000;
    const auto r = run(f, program({{0xB9, 0x28, 0x00, 0x00}}), kSupervisor);
    CHECK(r.psw.addr == 0x99);
    CHECK(f.peek(0x8E, 2) == 0x0001);  // the end's operation exception, after PCKMO
    CHECK(f.peek(0x30000, 8) == 0x8000000000000000ull);
    CHECK(f.peek(0x30008, 8) == 0);
    CHECK((f.peek(0x150, 8) >> 44 & 3) == 0);  // CC 0
  }
  // KIMD's parameter block at 8 under low-address protection (CR0 bit 35): protection;
  // beyond the configuration's storage (DAT off): addressing. Nothing is stored.
  for (const auto& [gr1, code] : {std::pair<uint64_t, uint64_t>{8, 0x0004}, {~0ull, 0x0005}}) {
    INFO(gr1);
    SystemFixture f;
    f.system->cpu(0).cr[0] |= emu::kCr0LowAddressProtection;
    f.poke64(8, 0x1122334455667788ull);
    f.system->cpu(0).cpu().gr[0] = 0, f.system->cpu(0).cpu().gr[1] = gr1;
    const auto r = run(f, program({{0xB9, 0x3E, 0x00, 0x02}}), kSupervisor);  // KIMD
    CHECK(r.psw.addr == 0x99);
    CHECK(f.peek(0x8E, 2) == code);
    CHECK(f.peek(8, 8) == 0x1122334455667788ull);
  }
}
