// The steal pass's order over its candidates, read one at a time and sorted only as far
// as the pass reads (issue 44): a pass that steals 256 pages of 4 million resident ones
// sorts a few hundred, not all of them. The order is total (the caller's comparison ends
// in the order the candidates were visited), so what comes out is exactly what sorting
// the whole vector (std::stable_sort by the rest of the key) would give.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace paging {

template <class T, class Less>
class InOrder {
 public:
  // `items` is reordered in place; `less` must be a strict total order over them.
  InOrder(std::vector<T>& items, Less less) : items_(items), less_(less) {}

  // The next candidate in order, or nullptr when all have been read.
  T* next() {
    if (next_ == sorted_end_ && !sort_more()) return nullptr;
    return &items_[next_++];
  }

 private:
  // Puts the next smallest ones in order after those already read: the first 64, then as
  // many again as were read so far (doubling), so a pass that reads everything sorts in
  // O(n log n) overall and one that reads k sorts O(n + k log k).
  bool sort_more() {
    const size_t size = items_.size();
    if (sorted_end_ >= size) return false;
    const size_t chunk = std::max<size_t>(64, sorted_end_);
    const size_t end = std::min(size, sorted_end_ + chunk);
    const auto first = items_.begin() + std::ptrdiff_t(sorted_end_), last = items_.begin() + std::ptrdiff_t(end);
    if (end < size) std::nth_element(first, last, items_.end(), less_);
    std::sort(first, last, less_);
    sorted_end_ = end;
    return true;
  }

  std::vector<T>& items_;
  Less less_;
  size_t next_ = 0, sorted_end_ = 0;
};

}  // namespace paging
