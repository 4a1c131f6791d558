// Fuzz target: the instruction decoder and the executor of one instruction (emu/cpu.h,
// emu/isa/) against a random CPU state: registers (some pointing into a mapped data
// area, so that storage operands reach both mapped and unmapped storage), floating
// point registers and FPC, the condition code and program mask, and the data area's
// contents (fuzz_insn.h gives the layout). Any outcome but a completed instruction
// or a program check is a finding; so are a written always-zero register and a
// condition code above 3. (An odd PSW address after a branch is no finding: the
// specification exception belongs to the next fetch.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "emu/address_space.h"
#include "emu/cpu.h"
#include "emu/storage.h"
#include "fuzz_insn.h"

namespace {

constexpr uint64_t kCode = 0x10000, kCodeSize = 0x2000;
constexpr uint64_t kDataArea = 0x40000, kDataSize = 0x10000;

uint64_t be64(const uint8_t* p) { return emu::Cpu::load_be<uint64_t>(p); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fuzz_insn;
  uint8_t in[kData] = {};  // a short input: the rest of the state is zero
  std::memcpy(in, data, std::min(size, kData));
  emu::Storage storage(1ull << 32);
  emu::AddressSpace space(storage);
  space.map(kCode, kCodeSize, emu::kProtRead | emu::kProtExec);
  space.map(kDataArea, kDataSize, emu::kProtRead | emu::kProtWrite | emu::kProtExec);
  if (size > kData) space.write_bytes(kDataArea, data + kData, std::min<size_t>(size - kData, kDataSize));
  // At the end of the mapping, the instruction's last bytes (if it is longer than 2)
  // lie in an unmapped page.
  const uint64_t at = (in[kPlacement] & 1) ? kCode + kCodeSize - 2 : kCode;
  space.write_bytes(at, in + kInsn, at == kCode ? 6 : 2);
  emu::Cpu cpu(space);
  const unsigned pointers = unsigned(in[kPointers]) << 8 | in[kPointers + 1];
  for (unsigned r = 0; r < 16; ++r) {
    const uint64_t raw = be64(in + kGr + 8 * r);
    cpu.gr[r] = (pointers >> r & 1) ? kDataArea + raw % kDataSize : raw;
    cpu.fpr(r) = be64(in + kFpr + 8 * r);
  }
  cpu.fpc = emu::Cpu::load_be<uint32_t>(in + kFpc);
  cpu.cc = in[kCc] & 3;
  cpu.prog_mask = in[kCc] >> 4;
  cpu.psw_addr = at;
  const emu::RunResult r = cpu.run(1);
  if (r.reason != emu::StopReason::ProgramCheck && (cpu.gr[16] != 0 || cpu.cc > 3))
    std::abort();
  return 0;
}
