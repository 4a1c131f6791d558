// dumps.txt: what an ECB that ended abnormally looked like (a program check, a
// CTL-10 timeout, a subsystem's check such as the ECB heap's), like a z/TPF dump:
// a header naming the ECB, the PSW or the address concerned, its registers.
#pragma once
#include <string>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "os/ecb.h"

namespace os {

class Dumps {
 public:
  const std::string& text() const { return text_; }
  void add(const std::string& lines) { text_ += lines; }
  // A program check of the running ECB (registers from the CPU).
  void program_check(const emu::Cpu& cpu, const emu::RunResult& r, const emu::SymbolTable& symbols, const Ecb& e);
  // The CTL-10 timeout of an ECB that used its CPU time limit (`where`: its PSW's symbol).
  void timeout(const Ecb& e, unsigned istream, double cpu_ms, const std::string& where);
  // `header` lines, then the saved registers of the ECB and a blank line.
  void with_registers(const std::string& header, const Ecb& e);

 private:
  std::string text_;
};

}  // namespace os
