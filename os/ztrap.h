// ZTRAP EI, the software profiler, as the operator commands drive it. While on, every
// I-stream samples the instruction it is executing every `interval` cycles of its
// clock (Cpu::set_sampling; time-weighted like the real EI's PSW sampling). At START
// it snapshots the decode slots' counters (executions, cycles, samples) of the shared
// program image; at STOP (or at the end of the run) the differences are the window's
// figures, added up over the windows, per (PROG, DISP, INST). PROG=name keeps only
// the instructions whose program (the ELF symbol they lie in) starts with name.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "emu/machine.h"
#include "emu/profiler.h"

namespace os {

// Besides the per-instruction counters, each sample is attributed to the program of the
// ECB the I-stream runs (the one it entered) and to the I-stream: the view by ECB
// program, inclusive of the code it calls (the heap, locks, the control program's
// library), and the P IS column.
class ZtrapEi : public emu::SampleSink {
 public:
  // `code` is the address space whose decoded frames hold the whole system's counts
  // (the program image, shared by every ECB); `running_program` names the program of
  // the ECB an I-stream runs ("" when none).
  ZtrapEi(emu::Machine& machine, emu::AddressSpace& code, const emu::SymbolTable& symbols, std::string object,
          uint64_t interval, std::function<std::string(unsigned istream)> running_program = {});
  void sample(unsigned istream, uint64_t address) override;

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

  // The samples by ECB program: its total and, under it, where they fell (segment,
  // source file, function), most first.
  struct Place {
    std::string segment, file, function;
    uint64_t samples = 0;
  };
  struct ProgramView {
    std::string program;
    uint64_t samples = 0;
    std::vector<uint64_t> by_istream;
    std::vector<Place> places;
  };
  std::vector<ProgramView> by_ecb_program() const;

 private:
  void set_sampling(bool on, uint64_t now);
  Place place_of(uint64_t address) const;
  void write_by_program(std::ostream& out, const std::vector<ProgramView>& view, uint64_t total) const;
  report_json::Json by_program_json(const std::vector<ProgramView>& view) const;

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
  std::function<std::string(unsigned)> running_program_;
  // Samples by (ECB program, I-stream, address), while on; PROG= keeps the ECBs whose
  // program starts with it, with everything they called.
  std::map<std::string, std::map<std::pair<unsigned, uint64_t>, uint64_t>> attributed_;
};

}  // namespace os
