// Paging's records of a process's 4 KB pages, by virtual address: a flat array of
// records for each 1 MB segment with a page paging has seen, and a bit a page saying
// which it has seen. It replaces a std::map of records: at full size (E3 at f = 1,
// 26 GB of the region's and the night's pages) a map node of its own beside each record
// (about 56 host bytes a page) was a quarter of the heap (issue 44). The interface is
// the map's, so the callers read as before: find, at, [], and a walk in address order
// (the order reports and steal passes depend on).
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "emu/storage.h"

namespace paging {

template <class Record> class PageTable {
  static constexpr uint64_t kPages = emu::kPagesPerSegment;
  struct Segment {
    std::array<Record, kPages> records{};
    std::bitset<kPages> seen;  // the records in use (a page paging has seen)
  };
  using Segments = std::map<uint64_t, std::unique_ptr<Segment>>;  // by segment number

 public:
  // The record of the page at `va` (a page boundary), or null if paging never saw it.
  Record* find(uint64_t va) {
    auto s = segments_.find(va / emu::kSegmentSize);
    const unsigned k = index(va);
    return s != segments_.end() && s->second->seen[k] ? &s->second->records[k] : nullptr;
  }
  Record& at(uint64_t va) {
    if (Record* r = find(va)) return *r;
    throw std::out_of_range("paging: no record of the page");
  }
  // The record of the page at `va`, made (a default Record) if paging never saw it.
  Record& operator[](uint64_t va) {
    std::unique_ptr<Segment>& s = segments_[va / emu::kSegmentSize];
    if (!s) s = std::make_unique<Segment>();
    const unsigned k = index(va);
    s->seen[k] = true;
    return s->records[k];
  }

  // The pages seen, in address order: (va, record).
  class iterator {
   public:
    iterator(typename Segments::const_iterator at, typename Segments::const_iterator end) : at_(at), end_(end) {
      settle();
    }
    std::pair<uint64_t, Record&> operator*() const {
      return {at_->first * emu::kSegmentSize + k_ * emu::kPageSize, at_->second->records[k_]};
    }
    iterator& operator++() {
      ++k_;
      settle();
      return *this;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_ && k_ == o.k_; }

   private:
    void settle() {  // onto the next record in use, from k_ in at_'s segment
      for (; at_ != end_; ++at_, k_ = 0)
        for (; k_ < kPages; ++k_)
          if (at_->second->seen[k_]) return;
      k_ = 0;
    }
    typename Segments::const_iterator at_, end_;
    unsigned k_ = 0;
  };
  iterator begin() const { return {segments_.begin(), segments_.end()}; }
  iterator end() const { return {segments_.end(), segments_.end()}; }

 private:
  static unsigned index(uint64_t va) { return unsigned(va % emu::kSegmentSize / emu::kPageSize); }
  Segments segments_;
};

}  // namespace paging
