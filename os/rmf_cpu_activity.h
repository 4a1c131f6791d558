// RMF's CPU Activity report (the Postprocessor's CPU report, its "CPU Activity"
// section; z/OS RMF Report Analysis, "CPU - CPU Activity report") for every timeline
// interval (system.timeline): one row per I-stream (z/TPF's I-streams are the CPs of
// its LPAR) with the share of the interval it was online and busy, then
// TOTAL/AVERAGE. rmfcpu.txt in RMF's column layout; rmfcpu.json, its twin, adds each
// I-stream's instructions and busy cycles. Columns the model has no figure for (LPAR
// dispatch, parking, multithreading, I/O interrupts by CP) print RMF's "-----".
#pragma once
#include <cstdint>
#include <iosfwd>
#include <vector>

namespace emu {
class Machine;
}

namespace os {

class RmfCpuActivity {
 public:
  explicit RmfCpuActivity(const emu::Machine& machine) : machine_(machine) {}
  // The end of a timeline interval at `now` (cycles): each I-stream's busy share since the last.
  void interval_end(uint64_t now);
  void write_text(std::ostream& out) const;
  void write_json(std::ostream& out) const;

  struct IStream {
    uint64_t busy_cycles = 0, instructions = 0;  // in the interval
    double busy_percent = 0;                    // busy cycles over the interval's
  };
  struct Interval {
    uint64_t start = 0, end = 0;  // cycles
    std::vector<IStream> istreams;
    double average_busy_percent = 0;
  };
  const std::vector<Interval>& intervals() const { return intervals_; }

 private:
  const emu::Machine& machine_;
  std::vector<Interval> intervals_;
  uint64_t last_end_ = 0;
  std::vector<uint64_t> last_busy_, last_instructions_;
};

}  // namespace os
