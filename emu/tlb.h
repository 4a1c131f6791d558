// The translation-lookaside buffer as a timing model: set-associative, LRU, one per
// page size per I-stream. A miss costs a DAT table walk. (The CPU's micro-TLB of host
// pointers is kept a subset of it, so that its hits are this model's hits.)
#pragma once
#include <cstdint>
#include <vector>

namespace emu {

class TlbModel {
 public:
  static constexpr uint64_t kEmpty = ~0ull;

  void configure(unsigned entries, unsigned ways) {
    ways_ = ways ? ways : 1;
    sets_ = entries / ways_ ? entries / ways_ : 1;
    keys_.assign(size_t(sets_) * ways_, kEmpty);
    age_.assign(keys_.size(), 0);
    clock_ = 0;
  }
  // True on a hit. On a miss the key is installed in the set's least recently used
  // way; `evicted` gets the key it replaced (kEmpty if the way was free).
  bool access(uint64_t key, uint64_t& evicted) {
    size_t base = size_t(key % sets_) * ways_;
    ++clock_;
    size_t victim = base;
    for (size_t w = base; w < base + ways_; ++w) {
      if (keys_[w] == key) {
        age_[w] = clock_;
        ++hits;
        return true;
      }
      if (age_[w] < age_[victim]) victim = w;
    }
    ++misses;
    evicted = keys_[victim];
    keys_[victim] = key;
    age_[victim] = clock_;
    return false;
  }
  void flush() {
    std::fill(keys_.begin(), keys_.end(), kEmpty);
    std::fill(age_.begin(), age_.end(), 0);
  }
  bool configured() const { return !keys_.empty(); }

  uint64_t hits = 0, misses = 0;

 private:
  unsigned ways_ = 1, sets_ = 1;
  std::vector<uint64_t> keys_;
  std::vector<uint64_t> age_;
  uint64_t clock_ = 0;
};

}  // namespace emu
