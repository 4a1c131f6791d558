#include "emu/io.h"

#include <algorithm>

#include "emu/machine.h"

namespace emu {

unsigned ChannelSubsystem::attach(IoDevice& device) {
  devices_.push_back(&device);
  return unsigned(devices_.size() - 1);
}

bool ChannelSubsystem::start(unsigned subchannel, uint64_t now, std::shared_ptr<IoOperation> op, uint64_t parameter) {
  if (subchannel >= devices_.size() || !op) return false;
  IoResult r = devices_[subchannel]->start(now, *op);
  ++started_;
  IoInterruption i{subchannel, parameter, now, std::max(r.done_at, now), r.status, std::move(r.detail), std::move(op)};
  const uint64_t at = i.time;
  events_.schedule(at, [this, i = std::move(i)] {
    ++completed_;
    if (handler_) handler_->io_interruption(i);
  });
  return true;
}

}  // namespace emu
