// Instruction tracing from the console, in the manner of Hercules' `t+` (and z/TPF's
// ZSTRC): a bounded number of instructions of one I-stream, or of one ECB program on
// any I-stream, each with its address, bytes, mnemonic, where it lies, and the general
// registers after it executed. Written to itrace.txt in the run's output folder.
//
//   TRACE I=1,COUNT=500         the next 500 instructions I-stream 1 executes
//   TRACE PROG=QZZ1,COUNT=1000  the next 1000 that run for an ECB of program QZZ1
//   TRACE OFF                   ends the trace before its count
//
// It rides on the sampling ZTRAP EI uses (emu::Cpu::set_sampling, a sample every
// cycle: the instruction executing when the clock passes each cycle, once per
// instruction), which holds the host only: the model's figures are those of the run
// untraced. So one of them at a time: a TRACE while ZTRAP EI collects is refused.
#pragma once
#include <string>
#include <vector>

#include "os/subsystem.h"

namespace os {

class InstructionTrace : public Subsystem, public emu::SampleSink {
 public:
  static constexpr uint64_t kMaxCount = 100000;  // instructions a trace (a line each, and one a register row)

  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  OperatorGrammars operator_grammars() const override;
  void install(System& system) override;
  void sample(unsigned istream, uint64_t address) override;
  void run_ended() override;
  const std::string& text() const { return text_; }

 private:
  std::string command(const OperatorCommand& c, uint64_t now, uint64_t ns);
  void arm(bool on, uint64_t now);
  bool ztrap_on() const;  // ZTRAP EI collects (it samples the I-streams too)
  System* system_ = nullptr;
  bool on_ = false;
  int istream_ = -1;       // -1: every I-stream, filtered by program
  std::string program_;    // PROG=, or ""
  uint64_t left_ = 0;
  std::vector<uint64_t> last_cycles_;  // per I-stream: the clock of the instruction traced last
  std::string text_;
  unsigned traces_ = 0;
};

}  // namespace os
