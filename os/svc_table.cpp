#include "os/svc_table.h"

#include <fmt/format.h>
#include <stdexcept>

namespace os {

void SvcTable::add(SvcLine line) {
  const uint64_t n = line.number;
  if (!lines_.emplace(n, std::move(line)).second)
    throw std::logic_error(fmt::format("SVC {} has two lines in the SVC table", n));
}

const SvcLine* SvcTable::find(uint64_t number) const {
  auto it = lines_.find(number);
  return it == lines_.end() ? nullptr : &it->second;
}

bool SvcTable::call(emu::Cpu& cpu, Ecb& e, uint64_t number) const {
  cpu.charge(emu::Cause::Svc, svc_cost_);
  const SvcLine* line = find(number);
  if (!line) return false;
  if (line->cost == SvcCost::Service) cpu.charge(emu::Cause::Service, service_cost_);
  line->handler(cpu, e);
  return true;
}

}  // namespace os
