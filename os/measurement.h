// The measurement window: it opens when the warm-up messages have completed and
// closes with the last message measured (or after workload.duration); the run's
// figures (throughput, CPU per message, response times, per-I-stream busy and idle
// cycles) are taken over it.
#pragma once
#include <functional>
#include <cstdint>
#include <vector>

#include "emu/machine.h"
#include "os/summary.h"

namespace os {

struct WorkloadConfig;

// The window's bounds, in cycles of simulated time: it opened at `start` and closed at
// `end` (end == start: no window, nothing measured).
struct MeasurementWindow {
  uint64_t start = 0, end = 0;
};

class Measurement {
 public:
  Measurement(emu::Machine& machine, const WorkloadConfig& workload);
  // When the messages begin, at `now` (a window without warm-up opens then).
  void start(uint64_t now);
  // A message that arrived at `arrival` completed at `time` (cycles).
  void completed(uint64_t arrival, uint64_t time);
  uint64_t completed_total() const { return completed_; }
  // Response times of every completed message, warm-up included (the timeline's).
  double response_ms_total() const { return response_ms_total_; }
  bool target_reached() const;
  // The window as it stands (final once the run is over).
  MeasurementWindow window() const;
  // The window's figures into `s` (its counters are already there).
  void figures(RunSummary& s) const;
  // Runs each `fn` when the window opens, at its time.
  void on_open(std::function<void(uint64_t)> fn) { on_open_.push_back(std::move(fn)); }

 private:
  void open(uint64_t time);
  void end_after(uint64_t time);

  emu::Machine& machine_;
  const WorkloadConfig& workload_;
  uint64_t completed_ = 0, measured_ = 0, window_start_ = 0, last_completion_ = 0;
  bool window_open_ = false;
  std::vector<uint64_t> busy0_, insns0_;  // each I-stream's counters when the window opened
  std::vector<emu::CyclesByCause> causes0_;
  std::vector<double> responses_ms_;
  double response_ms_total_ = 0;
  std::vector<std::function<void(uint64_t)>> on_open_;
};

}  // namespace os
