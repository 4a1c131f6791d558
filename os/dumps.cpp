#include "os/dumps.h"

#include <fmt/format.h>

#include "emu/program_check.h"

namespace os {
namespace {

// A dump's general registers, as the ECB's saved state holds them.
std::string register_lines(const Ecb& e) {
  std::string out;
  for (unsigned r = 0; r < 16; r += 4)
    out += fmt::format("  GR{:<2}-{:<2}     {:016X} {:016X} {:016X} {:016X}\n", r, r + 3, e.gr[r], e.gr[r + 1],
                       e.gr[r + 2], e.gr[r + 3]);
  return out;
}

}  // namespace

void Dumps::program_check(const emu::Cpu& cpu, const emu::RunResult& r, const emu::SymbolTable& symbols,
                          const Ecb& e) {
  const std::string who = fmt::format("ECB {} (program {}, I-stream {})", e.id, e.program, cpu.istream());
  text_ += emu::format_program_check(cpu, r.check, &symbols, who) + "\n";
}

// Like z/TPF's CTL-10: an ECB that used its CPU time limit without ending is ended
// with a dump; the rest of the system keeps running.
void Dumps::timeout(const Ecb& e, unsigned istream, double cpu_ms, const std::string& where) {
  with_registers(fmt::format("CTL-10 PROGRAM TIMEOUT: ECB {} (program {}, I-stream {}) used {:.3f} ms of CPU\n"
                             "  PSW ADDRESS  {:016X}  {}\n",
                             e.id, e.program, istream, cpu_ms, e.psw, where),
                 e);
}

void Dumps::with_registers(const std::string& header, const Ecb& e) { text_ += header + register_lines(e) + "\n"; }

}  // namespace os
