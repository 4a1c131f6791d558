// The channel subsystem of system mode (emu/system/css.h) and the ECKD 3390 behind it
// (emu/system/eckd.h): the CCW interpreter's chaining, TIC, data chaining, its checks
// (program, protection, incorrect length), the device's commands and unit checks, the
// status made pending at the device's time and the I/O interruption through the lowcore;
// the virtio-net-ccw device's commands (emu/system/virtio_ccw.h).
#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "emu/machine.h"
#include "emu/system/eckd.h"
#include "emu/system/storage_key.h"
#include "emu/system/system_machine.h"
#include "emu/system/virtio_ccw.h"

namespace {

using Bytes = std::vector<uint8_t>;

// The model's facts as app/ipl_command gives them, with round figures for the test: a
// record of KL + DL bytes takes 10 + (KL + DL) / 34 cells of 1,729, a revolution 1.729
// ms (1,000 ns a cell), seeks 1 ms a cylinder, 200 us to start.
emu::EckdModel test_model() {
  emu::EckdModel m;
  m.cylinders = 2, m.tracks_per_cylinder = 15, m.cells_per_track = 1729;
  m.records_per_track = 12, m.record_bytes = 4096;
  m.record_cells = [](uint32_t kl, uint32_t dl) { return 10 + (kl + dl) / 34; };
  m.seek_ns = [](uint32_t distance) { return uint64_t(distance) * 1'000'000; };
  m.revolution_ns = 1'729'000;
  m.start_io_ns = 200'000;
  return m;
}

constexpr uint64_t kOrb = 0x30000, kCcws = 0x31000, kBuffer = 0x40000, kParameters = 0x32000;

struct CssFixture {
  std::unique_ptr<emu::Machine> machine;
  std::unique_ptr<emu::SystemMachine> system;
  emu::EckdDevice* device = nullptr;
  CssFixture() {
    emu::MachineConfig c = emu::load_exec_machine_config({}, {"machine.storage=16M", "machine.istreams=1"});
    const uint64_t real = c.storage;
    c.storage = emu::RealStorage::storage_bytes(real);
    machine = std::make_unique<emu::Machine>(c, false);
    system = std::make_unique<emu::SystemMachine>(*machine, real, [](std::string_view) {});
    Bytes image(4096 * 12 * 15, 0);
    image[0] = 'V', image[1] = 'O', image[2] = 'L';
    auto d = std::make_unique<emu::EckdDevice>("test.3390", test_model(), image);
    device = d.get();
    system->css().attach(std::move(d));
    emu::Subchannel& s = system->css().subchannel(0);
    s.enabled = true, s.isc = 3;
    for (uint64_t a = 0; a < 0x50000; a += 4096) write(a, Bytes(4096, 0));  // mapped, zero
  }
  void write(uint64_t a, const Bytes& b) { system->real(0).space().write_bytes(a, b.data(), b.size()); }
  Bytes read(uint64_t a, size_t n) {
    Bytes b(n);
    system->real(0).space().read_bytes(a, b.data(), n);
    return b;
  }
  uint64_t peek(uint64_t a, unsigned n) {
    uint64_t v = 0;
    for (uint8_t x : read(a, n)) v = v << 8 | x;
    return v;
  }
  static Bytes ccw(uint8_t cmd, uint8_t flags, uint16_t count, uint32_t data) {
    return {cmd, flags, uint8_t(count >> 8), uint8_t(count), uint8_t(data >> 24), uint8_t(data >> 16),
            uint8_t(data >> 8), uint8_t(data)};
  }
  // The CCWs at kCcws, an ORB (format 1, `key`) at kOrb, START SUBCHANNEL's work; then the
  // machine's events until the status is pending. The CC of the start.
  unsigned start(const std::vector<Bytes>& ccws, uint8_t key = 0) {
    Bytes program;
    for (const Bytes& c : ccws) program.insert(program.end(), c.begin(), c.end());
    write(kCcws, program);
    write(kOrb, {0x12, 0x34, 0x56, 0x78, uint8_t(key << 4), 0x80, 0xFF, 0x00, 0, uint8_t(kCcws >> 16),
                 uint8_t(kCcws >> 8), uint8_t(kCcws)});
    const unsigned cc = system->css().start_subchannel(system->cpu(0), 0, kOrb);
    return cc;
  }
  void complete() {
    while (!machine->events().empty()) machine->events().fire_next();
  }
  emu::Subchannel& subchannel() { return system->css().subchannel(0); }
  // Test subchannel's IRB at kBuffer + 0x8000 and its CC.
  unsigned test() { return system->css().test_subchannel(system->cpu(0), 0, kBuffer + 0x8000); }
};

Bytes define_extent(uint8_t mask) {
  Bytes b(16, 0);
  b[0] = mask, b[15] = 14;  // cylinder 0, heads 0-14
  return b;
}
Bytes locate(uint8_t op, uint8_t count, uint8_t head, uint8_t r) {
  Bytes b(16, 0);
  b[0] = op, b[3] = count, b[7] = head, b[11] = head, b[12] = r;
  return b;
}

constexpr uint8_t kCD = 0x80, kCC = 0x40, kSLI = 0x20;

}  // namespace

TEST_CASE("a CCW command code's low bits give its kind", "[css]") {
  CHECK(emu::command_kind(0x08) == emu::CommandKind::Tic);
  CHECK(emu::command_kind(0x04) == emu::CommandKind::Sense);
  CHECK(emu::command_kind(0xE4) == emu::CommandKind::Sense);
  CHECK(emu::command_kind(0x05) == emu::CommandKind::Write);
  CHECK(emu::command_kind(0x86) == emu::CommandKind::Read);
  CHECK(emu::command_kind(0x63) == emu::CommandKind::Control);
  CHECK(emu::command_kind(0x00) == emu::CommandKind::Invalid);
  CHECK(emu::command_kind(0x0C) == emu::CommandKind::ReadBackward);
}

TEST_CASE("ECKD write then read: data chaining, command chaining, a TIC, the status at the device's time", "[css]") {
  CssFixture f;
  Bytes data(4096);
  for (size_t k = 0; k < data.size(); ++k) data[k] = uint8_t(k * 13 + 1);
  f.write(kBuffer, data);
  f.write(kParameters, define_extent(0xC0));
  f.write(kParameters + 16, locate(0x01, 1, 1, 3));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x05, kCD, 1000, kBuffer), CssFixture::ccw(0x05, 0, 3096, kBuffer + 1000)}) == 0);
  CHECK(f.subchannel().start_in_progress());
  CHECK(!f.subchannel().status_pending());
  CHECK(f.system->css().start_subchannel(f.system->cpu(0), 0, kOrb) == 2);  // busy
  const uint64_t started = f.machine->cpu(0).cycles;
  REQUIRE(!f.machine->events().empty());
  // 200 us to start, no seek (the arm is at cylinder 0), the rotation to record 3 of head
  // 1 (two 4 KB records of 130 cells before it: 260 us from the index point, the head at
  // 200 us of the revolution: 60 us), its 130 cells.
  CHECK(f.machine->events().next_time() - started ==
        uint64_t(double(200'000 + 60'000 + 130'000) * f.machine->cpu(0).clock_ghz));
  f.complete();
  CHECK(f.subchannel().status_pending());
  CHECK(f.subchannel().device_status == 0x0C);
  CHECK(f.subchannel().ccw_address == kCcws + 32);
  CHECK(f.test() == 0);
  CHECK(f.peek(kBuffer + 0x8000 + 2, 2) == 0x4007);  // start function; primary, secondary, status pending
  CHECK(f.test() == 1);

  f.write(kBuffer, Bytes(4096, 0));
  f.write(kParameters, define_extent(0x00));
  f.write(kParameters + 16, locate(0x06, 2, 1, 3));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x08, 0, 0, kCcws + 32), CssFixture::ccw(0, 0, 0, 0),  // TIC over a bad CCW
                   CssFixture::ccw(0x06, kCC, 4096, kBuffer), CssFixture::ccw(0x12, 0, 8, kBuffer + 8192)}) == 0);
  f.complete();
  CHECK(f.subchannel().device_status == 0x0C);
  CHECK(f.subchannel().subchannel_status == 0);
  CHECK(f.read(kBuffer, 4096) == data);
  CHECK(f.read(kBuffer + 8192, 8) == Bytes{0, 0, 0, 1, 4, 0, 0x10, 0});
  CHECK(f.device->records_read == 1);
  CHECK(f.device->records_written == 1);
}

TEST_CASE("unit check: an invalid command, a record not found; SENSE gives why", "[css]") {
  CssFixture f;
  REQUIRE(f.start({CssFixture::ccw(0xF3, 0, 1, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().device_status == 0x0E);
  CHECK((f.subchannel().status_control & emu::scsw::kAlert));
  f.test();
  REQUIRE(f.start({CssFixture::ccw(0x04, 0, 32, kBuffer)}) == 0);
  f.complete();
  CHECK(f.read(kBuffer, 2) == Bytes{0x80, 0x00});  // command reject
  f.test();

  f.write(kParameters, define_extent(0x00));
  f.write(kParameters + 16, locate(0x06, 1, 1, 99));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x06, 0, 4096, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().device_status == 0x0E);
  CHECK(f.subchannel().ccw_address == kCcws + 16);
  f.test();
  CHECK(f.device->sense()[1] == emu::eckd::kNoRecordFound);
  // A READ DATA with no LOCATE RECORD before it: rejected.
  REQUIRE(f.start({CssFixture::ccw(0x06, 0, 4096, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().device_status == 0x0E);
  CHECK(f.device->sense()[0] == emu::eckd::kCommandReject);
}

TEST_CASE("the channel's checks: TIC to TIC, a misaligned CCW, a zero count, incorrect length, protection", "[css]") {
  CssFixture f;
  REQUIRE(f.start({CssFixture::ccw(0x08, 0, 0, kCcws + 8), CssFixture::ccw(0x08, 0, 0, kCcws)}) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == emu::subchannel_status::kProgramCheck);
  f.test();
  REQUIRE(f.start({CssFixture::ccw(0x08, 0, 0, kCcws + 4)}) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == emu::subchannel_status::kProgramCheck);
  f.test();
  REQUIRE(f.start({CssFixture::ccw(0xE4, 0, 0, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == emu::subchannel_status::kProgramCheck);
  f.test();
  // SENSE ID's 7 bytes into 4: incorrect length; with SLI none, and the residual count.
  REQUIRE(f.start({CssFixture::ccw(0xE4, 0, 4, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == emu::subchannel_status::kIncorrectLength);
  f.test();
  REQUIRE(f.start({CssFixture::ccw(0xE4, kSLI, 100, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == 0);
  CHECK(f.subchannel().residual == 93);
  CHECK(f.read(kBuffer, 7) == Bytes{0xFF, 0x39, 0x90, 0xE9, 0x33, 0x90, 0x0C});
  f.test();
  // Key 5 into a block of key 0 (fetch from it is allowed: not fetch-protected).
  f.write(kBuffer, Bytes(8, 0xAA));
  REQUIRE(f.start({CssFixture::ccw(0xE4, kSLI, 100, kBuffer)}, 5) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == emu::subchannel_status::kProtectionCheck);
  CHECK(f.read(kBuffer, 8) == Bytes(8, 0xAA));
  f.test();
  // The block's key 5: the store is permitted.
  emu::storage_key::write(f.machine->storage(), emu::RealStorage::real_frame(kBuffer / emu::kPageSize), 0x50);
  REQUIRE(f.start({CssFixture::ccw(0xE4, kSLI, 100, kBuffer)}, 5) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == 0);
  CHECK(f.read(kBuffer, 1) == Bytes{0xFF});
}

TEST_CASE("an I/O interruption: pending until the I/O mask and CR6's subclass let it in, then through the lowcore",
          "[css]") {
  CssFixture f;
  emu::SystemCpu& cpu = f.system->cpu(0);
  constexpr uint64_t kIoNew = 0x0000000180000000ull, kEnabled = 0x0200000180000000ull;
  f.write(0x1F0, {0, 0, 0, 1, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x70, 0});  // I/O new PSW at 0x7000
  cpu.load_psw(emu::Psw{kEnabled, 0x20000});  // I/O mask on, CR6 all zero
  REQUIRE(f.start({CssFixture::ccw(0x03, 0, 0, 0)}) == 0);
  f.complete();
  CHECK(cpu.io_interruptions == 0);  // subclass 3 is not enabled
  cpu.cr[6] = 1ull << (63 - 35);
  cpu.control_changed();
  CHECK(cpu.io_interruptions == 1);
  CHECK(f.peek(0xB8, 4) == 0x00010000);
  CHECK(f.peek(0xBC, 4) == 0x12345678);
  CHECK(f.peek(0xC0, 4) == 3u << 27);
  CHECK(f.peek(0x170, 8) == kEnabled);
  CHECK(cpu.psw().addr == 0x7000);
  CHECK(cpu.psw().mask == kIoNew);
  CHECK(f.subchannel().status_pending());  // until TEST SUBCHANNEL
  CHECK(f.test() == 0);
}

TEST_CASE("WRITE COUNT KEY AND DATA formats a record; the rest of the track is erased", "[css]") {
  CssFixture f;
  Bytes record = {0, 0, 0, 2, 1, 3, 0, 5, 'K', 'E', 'Y', 1, 2, 3, 4, 5};
  f.write(kBuffer, record);
  f.write(kParameters, define_extent(0xC0));
  f.write(kParameters + 16, locate(0x03, 1, 2, 0));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x1D, 0, 16, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().device_status == 0x0C);
  f.test();
  f.write(kParameters, define_extent(0x00));
  f.write(kParameters + 16, locate(0x06, 1, 2, 1));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x1E, 0, 16, kBuffer + 4096)}) == 0);
  f.complete();
  CHECK(f.read(kBuffer + 4096, 16) == record);
  f.test();
  f.write(kParameters + 16, locate(0x06, 1, 2, 2));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x06, 0, 4096, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().device_status == 0x0E);
  CHECK(f.device->sense()[1] == emu::eckd::kNoRecordFound);
  // An extent that inhibits format writes refuses the LOCATE RECORD: file protected.
  f.test();
  f.write(kParameters, define_extent(0x80));
  f.write(kParameters + 16, locate(0x03, 1, 2, 0));
  REQUIRE(f.start({CssFixture::ccw(0x63, kCC, 16, kParameters), CssFixture::ccw(0x47, kCC, 16, kParameters + 16),
                   CssFixture::ccw(0x1D, 0, 16, kBuffer)}) == 0);
  f.complete();
  CHECK(f.device->sense()[1] == emu::eckd::kFileProtected);
}

TEST_CASE("CLEAR SUBCHANNEL ends a start in progress: the clear's status, the start's never comes", "[css]") {
  CssFixture f;
  REQUIRE(f.start({CssFixture::ccw(0xE4, kSLI, 100, kBuffer)}) == 0);
  CHECK(f.system->css().clear_subchannel(f.system->cpu(0), 0) == 0);
  CHECK(f.subchannel().status_pending());
  CHECK(f.subchannel().function == emu::scsw::kClear);
  CHECK(f.test() == 0);
  f.complete();  // the start's completion event: withdrawn
  CHECK(!f.subchannel().status_pending());
  CHECK(f.system->css().resume_subchannel(f.system->cpu(0), 0) == 2);
  CHECK(f.system->css().store_subchannel(f.system->cpu(0), 1, kBuffer) == 3);
}

namespace {
// SCM as a map of 4 KB blocks, 100 us a request; addresses from 1 GB on are not there.
struct FakeScm final : emu::EadmDevice {
  std::map<uint64_t, Bytes> blocks;
  std::string name() const override { return "fake SCM"; }
  emu::EadmAnswer move(uint64_t, std::vector<emu::EadmBlock>& request) override {
    emu::EadmAnswer a;
    a.ns = 100'000;
    for (size_t k = 0; k < request.size(); ++k)
      if (request[k].scm_address >= (1ull << 30)) return a.ok = false, a.failed_block = unsigned(k), a;
    for (emu::EadmBlock& b : request) {
      if (b.op == emu::EadmBlock::Op::Write) blocks[b.scm_address] = b.data;
      else if (b.op == emu::EadmBlock::Op::Read) b.data = blocks.count(b.scm_address) ? blocks[b.scm_address] : Bytes(b.data.size(), 0);
    }
    return a;
  }
};
Bytes be64(uint64_t v) {
  Bytes b(8);
  for (int k = 0; k < 8; ++k) b[k] = uint8_t(v >> (56 - 8 * k));
  return b;
}
// An AOB at kCcws (4 KB aligned): its ARQB (move, `msbs`) and MSBs of one block each.
void write_aob(CssFixture& f, const std::vector<std::array<uint64_t, 4>>& msbs) {  // op, size code, data, scm
  Bytes aob(128 + 32 * msbs.size(), 0);
  aob[11] = 1, aob[15] = uint8_t(msbs.size());
  for (size_t m = 0; m < msbs.size(); ++m) {
    uint8_t* p = aob.data() + 128 + 32 * m;
    p[0] = uint8_t(msbs[m][0]), p[3] = uint8_t(msbs[m][1]), p[7] = 1;
    const Bytes data = be64(msbs[m][2]), scm = be64(msbs[m][3]);
    std::copy(data.begin(), data.end(), p + 8), std::copy(scm.begin(), scm.end(), p + 16);
  }
  f.write(kCcws, aob);
}
}  // namespace

TEST_CASE("an EADM subchannel moves an AOB's blocks; a failing block fills the ARSB", "[css]") {
  CssFixture f;
  auto scm = std::make_unique<FakeScm>();
  FakeScm& device = *scm;
  const unsigned n = f.system->css().attach_eadm(std::move(scm));
  REQUIRE(n == 1);
  emu::Subchannel& s = f.system->css().subchannel(n);
  s.enabled = true;
  emu::SystemCpu& cpu = f.system->cpu(0);
  // STSCH: type 3 in PMCW word 6, no valid device number.
  CHECK(f.system->css().store_subchannel(cpu, n, kBuffer) == 0);
  CHECK((f.peek(kBuffer + 24, 4) >> 21 & 7) == 3);
  CHECK((f.peek(kBuffer + 5, 1) & 1) == 0);
  Bytes data(4096);
  for (size_t k = 0; k < data.size(); ++k) data[k] = uint8_t(k ^ 0x5A);
  f.write(kBuffer, data);
  write_aob(f, {{2, 0, kBuffer, 0x2000}});
  f.write(kOrb, {0, 0, 0, 1, 0, 0, 0, 0, 0, uint8_t(kCcws >> 16), uint8_t(kCcws >> 8), uint8_t(kCcws)});
  REQUIRE(f.system->css().start_subchannel(cpu, n, kOrb) == 0);
  CHECK(f.machine->events().next_time() - cpu.cpu().cycles == uint64_t(100'000.0 * cpu.cpu().clock_ghz));
  f.complete();
  CHECK(s.device_status == 0x0C);
  CHECK(s.ccw_address == kCcws);  // the SCSW's word 1: the AOB
  CHECK(device.blocks[0x2000] == data);
  CHECK(f.system->css().test_subchannel(cpu, n, kBuffer + 0x8000) == 0);
  write_aob(f, {{1, 0, kBuffer + 4096, 0x2000}});
  REQUIRE(f.system->css().start_subchannel(cpu, n, kOrb) == 0);
  f.complete();
  CHECK(f.read(kBuffer + 4096, 4096) == data);
  f.system->css().test_subchannel(cpu, n, kBuffer + 0x8000);
  // The second MSB's block is not there: unit check, the ARSB names it.
  write_aob(f, {{1, 0, kBuffer + 4096, 0x2000}, {1, 0, kBuffer + 4096, 2ull << 30}});
  REQUIRE(f.system->css().start_subchannel(cpu, n, kOrb) == 0);
  f.complete();
  CHECK(s.device_status == 0x0E);
  CHECK(f.peek(kCcws + 64 + 16, 8) == kCcws + 128 + 32);
  CHECK(f.peek(kCcws + 64 + 40, 8) == 2ull << 30);
  f.system->css().test_subchannel(cpu, n, kBuffer + 0x8000);
  // An MSB with a size code that is neither 4 KB nor 1 MB: program check.
  write_aob(f, {{1, 2, kBuffer, 0}});
  REQUIRE(f.system->css().start_subchannel(cpu, n, kOrb) == 0);
  f.complete();
  CHECK(s.subchannel_status == emu::subchannel_status::kProgramCheck);
}

TEST_CASE("skip: a read's data is not stored; HALT SUBCHANNEL with status pending is CC 1", "[css]") {
  CssFixture f;
  f.write(kBuffer, Bytes(8, 0xAA));
  REQUIRE(f.start({CssFixture::ccw(0xE4, kSLI | 0x10, 100, kBuffer)}) == 0);
  f.complete();
  CHECK(f.subchannel().subchannel_status == 0);
  CHECK(f.subchannel().residual == 93);
  CHECK(f.read(kBuffer, 8) == Bytes(8, 0xAA));
  CHECK(f.system->css().halt_subchannel(f.system->cpu(0), 0) == 1);  // the start's primary status
  CHECK(f.test() == 0);
  CHECK(f.system->css().halt_subchannel(f.system->cpu(0), 0) == 0);
  CHECK(f.subchannel().function == emu::scsw::kHalt);
}

TEST_CASE("virtio-net-ccw: SENSE ID, the transport's commands, command reject and its sense byte", "[css]") {
  namespace v = emu::virtio_ccw;
  emu::VirtioNetCcw device("virtio-net-ccw", {0x02, 0, 0, 0, 0, 7});
  auto run = [&](uint8_t code, uint32_t count, Bytes data = {}) {
    emu::DeviceCommand c;
    c.code = code, c.count = count, c.data = std::move(data);
    const emu::DeviceAnswer a = device.execute(c);
    return std::make_pair(a.status, c.data);
  };
  CHECK(run(v::kSenseId, 256) == std::make_pair(uint8_t(0), Bytes{0xFF, 0x38, 0x32, 0x01, 0, 0, 0, 0}));
  CHECK(run(v::kSenseId, 4).second == Bytes{0xFF, 0x38, 0x32, 0x01});  // at most the count
  // READ FEAT reads its area's index: index 0 offers the MAC feature (bit 5, little-endian).
  CHECK(device.reads_its_area(v::kReadFeat));
  CHECK_FALSE(device.reads_its_area(v::kReadConf));
  CHECK(run(v::kReadFeat, 5, {0xAA, 0xAA, 0xAA, 0xAA, 0}).second == Bytes{0x20, 0, 0, 0, 0});
  CHECK(run(v::kReadFeat, 5, {0xAA, 0xAA, 0xAA, 0xAA, 1}).second == Bytes{0, 0, 0, 0, 1});
  // WRITE FEAT keeps only what was offered.
  run(v::kWriteFeat, 5, {0xFF, 0xFF, 0xFF, 0xFF, 0});
  CHECK(device.driver_features() == 0x20);
  CHECK(run(v::kReadConf, 16).second == Bytes{0x02, 0, 0, 0, 0, 7});
  CHECK(run(v::kReadVqConf, 4, {0, 1, 0, 0}).second == Bytes{0, 1, 1, 0});
  CHECK(run(v::kReadVqConf, 4, {0, 2, 0xFF, 0xFF}).second == Bytes{0, 2, 0, 0});
  // SET VQ: the legacy block (address, alignment, index, size); a queue not there is rejected.
  CHECK(run(v::kSetVq, 16, {0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0x10, 0, 0, 1, 1, 0}).first == 0);
  CHECK(device.queue(1).address == 0x200000);
  CHECK(device.queue(1).size == 256);
  CHECK(run(v::kSetVq, 16, {0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0x10, 0, 0, 2, 1, 0}).first == emu::device_status::kUnitCheck);
  run(v::kSetInd, 8, {0, 0, 0, 0, 0, 0x30, 0, 0});
  CHECK(device.indicators() == 0x300000);
  run(v::kWriteStatus, 1, {0x07});
  CHECK(device.status() == 0x07);
  // Status zero resets the device: features, queues and indicators forgotten.
  run(v::kWriteStatus, 1, {0});
  CHECK(device.driver_features() == 0);
  CHECK(device.queue(1).size == 0);
  CHECK(device.indicators() == 0);
  // Revision 1 is not offered: command reject, which SENSE then gives (once).
  CHECK(run(v::kSetVirtioRev, 8, {0, 1, 0, 0, 0, 0, 0, 0}).first == emu::device_status::kUnitCheck);
  CHECK(run(v::kSense, 32).second[0] == 0x80);
  CHECK(run(v::kSense, 32).second[0] == 0);
}

TEST_CASE("RESET CHANNEL PATH: one report each, oldest first; past the bound the last has the overflow bit", "[css]") {
  CssFixture f;
  emu::ChannelSubsystem390& css = f.system->css();
  uint32_t crw = 0;
  CHECK_FALSE(css.take_channel_report(crw));
  CHECK(css.reset_channel_path(1) == 3);  // only CHPID 0 is installed
  CHECK(css.reset_channel_path(0) == 0);
  REQUIRE(css.take_channel_report(crw));
  CHECK(crw == 0x44020000u);  // solicited, channel path, initialized, CHPID 00
  CHECK_FALSE(css.take_channel_report(crw));
  for (int k = 0; k < 1000; ++k) CHECK(css.reset_channel_path(0) == 0);
  unsigned reports = 0;
  while (css.take_channel_report(crw)) ++reports;
  CHECK(reports == 64);
  CHECK(crw == 0x64020000u);  // the last kept: overflow
}
