// RMF's Workload Activity view (the Postprocessor's WLMGL report, here by ECB program,
// z/TPF's unit of work: a report class a program) and an SMF type 30-like step record
// for the run. Both over the whole run, from what the control program counts exactly.
//
// rmfwlm.txt / rmfwlm.json: per program, the transactions (ECBs that ended, threads
// not counted: their CPU is their program's), their response times (simulated time
// from the ECB's creation to its exit: mean, max and a distribution in fixed buckets;
// the model has no WLM goal to make RMF's goal-relative buckets from), and the CPU a
// transaction (the CPU its ECBs and threads used, over its transactions).
//
// smf30.txt / smf30.json: the run as one job step (SMF30's subtype 4, step total): CPU
// (the I-streams' busy time), EXCPs (I/O started on the machine's subchannels),
// elapsed (simulated), and the fields the model has no figure for, marked so.
#pragma once
#include <array>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>

#include "os/subsystem.h"

namespace os {

class RmfWorkloadActivity : public Subsystem {
 public:
  void declare(cfg::Schema&) const override {}
  void configure(const cfg::Config&) override {}
  void install(System& system) override;
  void ecb_ending(Ecb& e, uint64_t now) override;

  // The response-time buckets' upper bounds in microseconds (the last is open).
  static constexpr std::array<uint64_t, 8> kBucketsUs = {100, 500, 1000, 5000, 10000, 50000, 100000, 500000};
  struct Program {
    uint64_t transactions = 0, threads = 0;
    uint64_t cpu_cycles = 0;                 // its ECBs' and threads'
    uint64_t response_cycles = 0, response_max = 0;
    std::array<uint64_t, kBucketsUs.size() + 1> buckets{};
  };
  const std::map<std::string, Program>& programs() const { return programs_; }
  void write_text(std::ostream& out) const;
  void write_json(std::ostream& out) const;
  void write_smf30_text(std::ostream& out) const;
  void write_smf30_json(std::ostream& out) const;

 private:
  // The step's figures, at the end of the run.
  struct Step {
    uint64_t elapsed = 0, cpu = 0, excps = 0, ecbs = 0, instructions = 0;  // cycles, counts
  };
  Step step() const;
  double ghz() const;
  System* system_ = nullptr;
  std::map<std::string, Program> programs_;  // by ECB program, in name order
};

}  // namespace os
