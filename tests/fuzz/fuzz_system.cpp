// Fuzz target: the machine in supervisor state (tpfemu ipl, emu/system/): a random PSW,
// control registers and general registers for I-stream 0 (sometimes a second I-stream,
// stopped, for SIGP to reach), and the first 128 KB of absolute storage from the input:
// the lowcore's new PSWs, the code, DAT's tables wherever CR1, CR7 and CR13 point, SCCBs.
// Issue 46: random PSWs, control registers and tables never crash the host. The run is
// bounded by an instruction limit; each input runs twice and the two runs must end the
// same way with the same registers, PSW and storage (the model is deterministic), and
// the run must end inside its bound. Anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "emu/machine.h"
#include "emu/system/real_storage.h"
#include "emu/system/system_machine.h"
#include "fuzz_system.h"

namespace {

constexpr uint64_t kRealStorage = 16ull << 20;
constexpr uint64_t kMaxInstructions = 3000;

uint64_t be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v = v << 8 | p[k];
  return v;
}

// What a run leaves that a second run must repeat.
struct Outcome {
  emu::SystemRunResult::End end{};
  emu::Psw psw;
  std::string reason, console;
  uint64_t gr[16] = {}, cr[16] = {}, instructions = 0, cycles = 0;
  std::vector<uint8_t> storage;

  bool operator==(const Outcome& o) const {
    return end == o.end && psw.mask == o.psw.mask && psw.addr == o.psw.addr && reason == o.reason &&
           console == o.console && std::memcmp(gr, o.gr, sizeof gr) == 0 && std::memcmp(cr, o.cr, sizeof cr) == 0 &&
           instructions == o.instructions && cycles == o.cycles && storage == o.storage;
  }
};

emu::MachineConfig machine_config(unsigned istreams) {
  emu::MachineConfig c = emu::load_exec_machine_config(
      // Small caches: building the z15's 256 MB L3 model is most of a short run's time,
      // and the fuzzing is of the machine's supervisor state, not of the cache model.
      {}, {"machine.storage=16M", "machine.istreams=" + std::to_string(istreams), "machine.cache.l2.size=256K",
           "machine.cache.l3.size=1M"});
  c.storage = emu::RealStorage::storage_bytes(kRealStorage);
  return c;
}

Outcome run_once(const uint8_t* in, const uint8_t* storage, size_t storage_size, bool full_timing) {
  using namespace fuzz_system;
  const bool two = in[kFlags] & 1;
  // The configuration is read once (reading it is most of a short run's time).
  static const emu::MachineConfig configs[2] = {machine_config(1), machine_config(2)};
  emu::Machine machine(configs[two], full_timing);
  Outcome out;
  emu::SystemMachine system(machine, kRealStorage, [&out](std::string_view s) {
    if (out.console.size() < 4096) out.console += s;
  });
  system.real(0).space().write_bytes(0, storage, storage_size);
  emu::SystemCpu& cpu = system.cpu(0);
  for (unsigned r = 0; r < 16; ++r) cpu.cr[r] = be64(in + kCr + 8 * r), machine.cpu(0).gr[r] = be64(in + kGr + 8 * r);
  machine.set_state(0, emu::IStreamState::Running);
  cpu.load_psw(emu::Psw{be64(in + kPsw), be64(in + kPsw + 8)});
  const emu::SystemRunResult r = system.run(kMaxInstructions);
  out.end = r.end, out.psw = r.psw, out.reason = r.reason;
  for (unsigned k = 0; k < 16; ++k) out.gr[k] = machine.cpu(0).gr[k], out.cr[k] = cpu.cr[k];
  out.instructions = machine.instructions(), out.cycles = machine.elapsed_cycles();
  out.storage.resize(kStorageBytes);
  system.real(0).space().read_bytes(0, out.storage.data(), kStorageBytes);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fuzz_system;
  uint8_t in[kStorage] = {};  // a short input: the rest of the state is zero
  std::memcpy(in, data, std::min(size, kStorage));
  const uint8_t* storage = size > kStorage ? data + kStorage : data;
  const size_t storage_size = size > kStorage ? std::min(size - kStorage, kStorageBytes) : 0;
  const bool full_timing = in[kFlags] & 2;
  const Outcome a = run_once(in, storage, storage_size, full_timing);
  // The run stays inside its bound: an instruction or two past the limit (the one that
  // reached it may end an I-stream's slice), never more.
  if (a.instructions > kMaxInstructions + 64) std::abort();
  // TPFEMU_FUZZ_VERBOSE: how each input ended (for reading a finding or the seeds).
  if (std::getenv("TPFEMU_FUZZ_VERBOSE"))
    std::fprintf(stderr, "end %d psw %016llX %016llX instructions %llu program code %02X%02X %s\n", int(a.end),
                 static_cast<unsigned long long>(a.psw.mask), static_cast<unsigned long long>(a.psw.addr),
                 static_cast<unsigned long long>(a.instructions), a.storage[0x8E], a.storage[0x8F], a.reason.c_str());
  const Outcome b = run_once(in, storage, storage_size, full_timing);
  if (!(a == b)) std::abort();
  return 0;
}
