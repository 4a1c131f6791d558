// ZTRAP EI, the software profiler, as the operator commands drive it. While on, every
// I-stream samples the instruction it is executing every `interval` cycles of its
// clock (Cpu::set_sampling; time-weighted like the real EI's PSW sampling). At START
// it snapshots the decode slots' counters (executions, cycles, samples) of the shared
// program image; at STOP (or at the end of the run) the differences are the window's
// figures, added up over the windows, per (PROG, DISP, INST). PROG=name keeps only
// the instructions whose program (the ELF symbol they lie in) starts with name.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "emu/machine.h"
#include "emu/profiler.h"

namespace os {

class ZtrapEi {
 public:
  // `code` is the address space whose decoded frames hold the whole system's counts
  // (the program image, shared by every ECB).
  ZtrapEi(emu::Machine& machine, emu::AddressSpace& code, const emu::SymbolTable& symbols, std::string object,
          uint64_t interval);

  // At the machine's event time `now` (cycles); `at_ns` is for the report's window line.
  void start(const std::string& prog, uint64_t now, uint64_t at_ns);
  void stop(uint64_t at_ns);
  bool on() const { return on_; }
  bool started() const { return !windows_.empty(); }

  // The collected rows (closed windows, plus the open one up to now), address order.
  std::vector<emu::ProfileRow> rows();
  // The open window's rows alone (since the START that opened it), address order, and
  // when it opened.
  std::vector<emu::ProfileRow> window_rows();
  uint64_t window_start_ns() const { return window_start_ns_; }
  emu::EtimHeader header(const std::vector<emu::ProfileRow>& rows) const;
  void write(std::ostream& text, std::ostream& json, size_t top_n = 20);

 private:
  void set_sampling(bool on, uint64_t now);

  emu::Machine& machine_;
  emu::AddressSpace& code_;
  const emu::SymbolTable& symbols_;
  std::string object_;
  uint64_t interval_;
  bool on_ = false;
  uint64_t window_start_ns_ = 0;
  std::string prog_;                       // the open window's filter
  std::vector<emu::SlotCounts> base_;      // counters at START, address order
  std::map<uint64_t, emu::ProfileRow> acc_;  // closed windows, by address
  std::vector<std::string> windows_, filters_;
};

}  // namespace os
