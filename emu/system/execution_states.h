// The state each executed instruction ran in under tpfemu ipl (supervisor, problem or
// both), for the ETIM report's state column [Principles of Operation, "Problem State"].
// The decode cache counts executions per address, not per state; so whenever an
// I-stream's problem-state bit is about to change, the executions counted since the last
// change are given the states the operating I-streams ran in meanwhile. One state for
// all of them: exact; I-streams in different states at once: the rows counted then get
// both (which of them ran which instruction is not recorded).
#pragma once
#include <cstdint>
#include <map>

#include "emu/address_space.h"

namespace emu {

class ExecutionStates {
 public:
  static constexpr uint8_t kSupervisor = 1, kProblem = 2;

  // Every address whose count in `space` grew since the last call ran in `states`.
  void attribute(AddressSpace& space, uint8_t states);
  // The states recorded for an address (0: none).
  uint8_t of(uint64_t address) const {
    const auto it = states_.find(address);
    return it == states_.end() ? 0 : it->second;
  }
  // The ETIM report's mark: S supervisor, P problem, B both.
  static char mark(uint8_t states) { return states == kProblem ? 'P' : states == kSupervisor ? 'S' : 'B'; }

 private:
  std::map<uint64_t, uint64_t> counted_;  // executions at the last call, by address
  std::map<uint64_t, uint8_t> states_;
};

}  // namespace emu
