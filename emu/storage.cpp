#include "emu/storage.h"

#include <cstring>
#include <stdexcept>

namespace emu {

Storage::Storage(uint64_t size) : size_(size & ~(kSegmentSize - 1)), high_(size_ / kPageSize) {}

Frame& Storage::frame(uint64_t number) {
  auto& f = frames_[number];
  if (!f) {
    f = std::make_unique<Frame>();
    f->number = number;
    f->data = std::make_unique<uint8_t[]>(kPageSize);
    std::memset(f->data.get(), 0, kPageSize);
    add_host_bytes(kFrameHostBytes);
  }
  return *f;
}

std::optional<uint64_t> Storage::allocate_4k() {
  uint64_t n;
  if (!free_4k_.empty()) {
    n = free_4k_.back();
    free_4k_.pop_back();
  } else if (low_ < high_) {
    n = low_++;
  } else {
    return std::nullopt;
  }
  ++allocated_4k_;
  return n;
}

bool Storage::set_apart(uint64_t end) {
  if (low_ != 1 || !free_4k_.empty()) throw std::logic_error("Storage::set_apart after frames were allocated");
  if (end >= high_) return false;
  low_ = apart_end_ = end;
  claimed_.assign(end, false);
  return true;
}

bool Storage::claim_4k(uint64_t number) {
  if (number == 0 || number >= apart_end_ || claimed_[number]) return false;
  claimed_[number] = true;
  ++allocated_4k_;
  return true;
}

std::optional<uint64_t> Storage::allocate_1m() {
  uint64_t first;
  if (!free_1m_.empty()) {
    first = free_1m_.back();
    free_1m_.pop_back();
  } else {
    uint64_t candidate = high_ - kPagesPerSegment;
    if (high_ < kPagesPerSegment || candidate < low_) return std::nullopt;
    first = high_ = candidate;
  }
  ++allocated_1m_;
  return first;
}

void Storage::free_4k(uint64_t number) {
  free_4k_.push_back(number);
  --allocated_4k_;
}

void Storage::free_1m(uint64_t first) {
  free_1m_.push_back(first);
  --allocated_1m_;
}

}  // namespace emu
