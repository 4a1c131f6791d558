// The workload driver: input messages arrive from terminals (closed: each terminal
// sends its next message a think time after the reply to its last one) or as a
// Poisson stream (open), each generated from the seed or the configured text, and
// go to an I-stream's input list (round-robin, or each terminal its own I-stream).
#pragma once
#include <cstdint>
#include <functional>
#include <random>

#include "emu/machine.h"
#include "os/cpu_loop.h"
#include "os/measurement.h"

namespace os {

struct WorkloadConfig;

class Workload {
 public:
  // Called after each completed message (host-side display only).
  using Progress = std::function<void(uint64_t done, uint64_t target, double simulated_s)>;
  Workload(emu::Machine& machine, const WorkloadConfig& workload, CpuLoop& loop, Measurement& measurement);
  void set_progress(Progress p) { progress_ = std::move(p); }
  // The first arrivals, from `now` on.
  void start(uint64_t now);
  // The ECB serving a message ended at `time`: the message is done.
  void message_done(const Ecb& e, uint64_t time);

 private:
  void arrive(unsigned terminal, uint64_t time);
  void schedule_arrival(unsigned terminal, uint64_t at);
  double uniform();
  uint64_t think_time();

  emu::Machine& machine_;
  const WorkloadConfig& workload_;
  CpuLoop& loop_;
  Measurement& measurement_;
  std::mt19937_64 rng_;
  uint64_t next_message_ = 1, next_input_istream_ = 0;
  Progress progress_;
};

}  // namespace os
