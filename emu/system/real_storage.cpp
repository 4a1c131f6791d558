#include "emu/system/real_storage.h"

namespace emu {

namespace {
constexpr uint64_t kPrefixAreaBytes = 8192;  // the 8 KB prefix area [Principles of Operation, "Prefixing"]
}

RealStorage::RealStorage(Storage& storage, uint64_t size) : size_(size), space_(storage, size) {
  space_.set_host_fault_handler([this](uint64_t real) { return map(real); });
  // Change recording [Principles of Operation, "Change Recording"]: a store after a load
  // sets the change bit, so a load does not give the micro-TLB entry the write right.
  space_.set_track_changes(true);
  // Real addresses are not translated: no TLB entry, no walk.
  space_.set_translated(false);
}

uint64_t RealStorage::absolute(uint64_t real) const {
  if (real < kPrefixAreaBytes) return real + prefix_;
  if (real >= prefix_ && real < prefix_ + kPrefixAreaBytes) return real - prefix_;
  return real;
}

bool RealStorage::map(uint64_t real) {
  if (real >= size_) return false;
  const uint64_t page = page_down(real);
  space_.map_shared(page, real_frame(absolute(page) / kPageSize), kProtRead | kProtWrite | kProtExec);
  return true;
}

PageFaultHandler::Action RealStorage::page_fault(Cpu&, uint64_t address) {
  return map(address) ? Action::Retry : Action::Fail;
}

void RealStorage::unmap_low_and_prefix() {
  space_.unmap(0, kPrefixAreaBytes);
  if (prefix_) space_.unmap(prefix_, kPrefixAreaBytes);
}

void RealStorage::set_prefix(uint32_t prefix) {
  unmap_low_and_prefix();
  prefix_ = prefix;
  unmap_low_and_prefix();
}

}  // namespace emu
