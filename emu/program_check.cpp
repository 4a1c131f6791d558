#include "emu/program_check.h"

#include <fmt/format.h>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "emu/isa/table.h"

namespace emu {

const char* pic_name(Pic code) {
  switch (code) {
    case Pic::Operation: return "operation exception";
    case Pic::PrivilegedOperation: return "privileged-operation exception";
    case Pic::Execute: return "execute exception";
    case Pic::Protection: return "protection exception";
    case Pic::Addressing: return "addressing exception";
    case Pic::Specification: return "specification exception";
    case Pic::Data: return "data exception";
    case Pic::FixedPointOverflow: return "fixed-point-overflow exception";
    case Pic::FixedPointDivide: return "fixed-point-divide exception";
    case Pic::PageTranslation: return "page-translation exception";
    case Pic::VectorProcessing: return "vector-processing exception";
  }
  return "program interruption";
}

std::string format_program_check(const Cpu& cpu, const ProgramCheckInfo& info,
                                 const SymbolTable* symbols, const std::string& object) {
  const ProgramInterrupt& pi = info.interrupt;
  std::string where;
  if (symbols)
    if (const Symbol* s = symbols->find(info.insn_address))
      where = fmt::format("{}+{:#x}", s->name, info.insn_address - s->address);
  uint64_t mask = cpu.psw_mask();
  std::string out = fmt::format("PROGRAM CHECK {:04X} ({}) in {}\n", uint16_t(pi.code), pic_name(pi.code), object);
  out += fmt::format("  PSW          {:016X} {:016X}\n", mask, cpu.psw_addr);
  std::string bytes;
  for (unsigned k = 0; k < info.insn_length; ++k) bytes += fmt::format("{:02X}", info.insn_bytes[k]);
  out += fmt::format("  INSTRUCTION  {:016X}  {:<12}  {:<8}  {}\n", info.insn_address,
                     bytes.empty() ? "(no fetch)" : bytes,
                     info.mnemonic.empty() ? (bytes.empty() ? "?" : "(not implemented)") : info.mnemonic,
                     where);
  // An instruction the table has, of a facility this machine.arch has not: say so, since
  // the fix is a configuration key, not a missing instruction.
  if (pi.code == Pic::Operation && info.insn_length) {
    const uint16_t id = lookup_opcode(info.insn_bytes);
    if (id != kNoInsn && !facility_installed(instruction_table()[id].facility, cpu.arch())) {
      const FacilityDef& f = facility_def(instruction_table()[id].facility);
      out += fmt::format("  NOT INSTALLED {} is of the {} facility ({} and later); machine.arch is {}: "
                         "--set machine.arch={} (or later) installs it\n",
                         mnemonic(id), f.name, generation_name(f.first), generation_name(cpu.arch()),
                         generation_name(f.first));
    }
  }
  if (pi.has_address) out += fmt::format("  FAILING ADDR {:016X}\n", pi.address);
  if (pi.code == Pic::Data) out += fmt::format("  DXC {:02X}   FPC {:08X}\n", pi.dxc, cpu.fpc);
  if (pi.code == Pic::VectorProcessing) out += fmt::format("  VXC {:02X}   FPC {:08X}\n", pi.dxc, cpu.fpc);
  out += fmt::format("  CC {}   INSTRUCTIONS {}   CYCLES {}\n", cpu.cc, cpu.instructions, cpu.cycles);
  for (unsigned r = 0; r < 16; r += 4)
    out += fmt::format("  GR{:<2}-{:<2}     {:016X} {:016X} {:016X} {:016X}\n", r, r + 3, cpu.gr[r],
                       cpu.gr[r + 1], cpu.gr[r + 2], cpu.gr[r + 3]);
  return out;
}

}  // namespace emu
