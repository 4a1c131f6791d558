#include "emu/system/execution_states.h"

#include "emu/profiler.h"

namespace emu {

void ExecutionStates::attribute(AddressSpace& space, uint8_t states) {
  for (const SlotCounts& slot : slot_counts(space)) {
    uint64_t& counted = counted_[slot.address];
    // (Fewer than before: the page was decoded again, its counts from 0, and ran since.)
    if (slot.count != counted) states_[slot.address] |= states;
    counted = slot.count;
  }
}

}  // namespace emu
