// The SVC table: one line per service (number, name, cost, handler), the control
// program's own and those its subsystems add. Every SVC is charged here, in one
// place, before its handler runs: system.svc_cost for entry and exit, and
// system.service_cost on top for a service the host implements.
#pragma once
#include <cstdint>
#include <map>

#include "os/subsystem.h"

namespace os {

class SvcTable {
 public:
  SvcTable(uint64_t svc_cost, uint64_t service_cost) : svc_cost_(svc_cost), service_cost_(service_cost) {}
  // A second line for a number is a programming error (std::logic_error).
  void add(SvcLine line);
  // SVC `number` from the running ECB `e`: false if no line has it (the caller answers
  // ENOSYS). The entry cost is charged either way.
  bool call(emu::Cpu& cpu, Ecb& e, uint64_t number) const;
  const SvcLine* find(uint64_t number) const;

 private:
  uint64_t svc_cost_, service_cost_;
  std::map<uint64_t, SvcLine> lines_;
};

}  // namespace os
