// The translation-lookaside buffer as a timing model: set-associative, LRU, one per
// page size per I-stream. A miss costs a DAT table walk. (The CPU's micro-TLB of host
// pointers is kept a subset of it, so that its hits are this model's hits.)
//
// Entries are tagged with the address space that formed them, as z's are with the
// ASCE (Principles of Operation, chapter 3, "Translation-Lookaside Buffer"): a switch
// of address space purges nothing, and the spaces share the capacity. An entry formed
// through a common segment (one every ECB's space maps alike: the programs, the system
// areas) is tagged kCommon and serves every space (the segment-table entry's
// common-segment bit). Entries leave by LRU replacement or by a purge: one page
// (INVALIDATE PAGE TABLE ENTRY), one segment (INVALIDATE DAT TABLE ENTRY), one space's
// entries (IDTE's clearing by ASCE) or all of them (PURGE TLB) (chapter 10).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace emu {

class TlbModel {
 public:
  static constexpr uint64_t kEmpty = ~0ull;
  static constexpr uint64_t kCommon = 0;  // the tag of an entry formed through a common segment

  struct Entry {
    uint64_t key = kEmpty;  // virtual page (4 KB TLB) or segment (1 MB TLB) number
    uint64_t tag = kCommon; // the address space that formed it (AddressSpace::serial), or kCommon
    uint64_t age = 0;
  };

  void configure(unsigned entries, unsigned ways) {
    ways_ = ways ? ways : 1;
    sets_ = entries / ways_ ? entries / ways_ : 1;
    entries_.assign(size_t(sets_) * ways_, Entry{});
    clock_ = 0;
  }
  // True on a hit. The set is chosen by the virtual address alone, as hardware's is; a
  // way matches on address and tag. On a miss the entry is installed in the set's least
  // recently used way; `evicted` gets the entry it replaced (key kEmpty if the way was free).
  bool access(uint64_t key, uint64_t tag, Entry& evicted) {
    Entry* set = &entries_[set_of(key)];
    ++clock_;
    Entry* victim = set;
    for (Entry* w = set; w < set + ways_; ++w) {
      if (w->key == key && w->tag == tag) {
        w->age = clock_;
        ++hits;
        return true;
      }
      if (w->age < victim->age) victim = w;
    }
    ++misses;
    evicted = *victim;
    *victim = Entry{key, tag, clock_};
    return false;
  }
  bool holds(uint64_t key, uint64_t tag) const {
    const Entry* set = &entries_[set_of(key)];
    return std::any_of(set, set + ways_, [&](const Entry& w) { return w.key == key && w.tag == tag; });
  }
  // The entry for (key, tag), if there is one; true if it was there.
  bool purge(uint64_t key, uint64_t tag) {
    bool found = false;
    Entry* set = &entries_[set_of(key)];
    for (Entry* w = set; w < set + ways_; ++w)
      if (w->key == key && w->tag == tag) *w = Entry{}, found = true, ++purged;
    return found;
  }
  // Every entry an address space formed (its ASCE is given up).
  void purge_tag(uint64_t tag) {
    for (Entry& w : entries_)
      if (w.key != kEmpty && w.tag == tag) w = Entry{}, ++purged;
  }
  void flush() { std::fill(entries_.begin(), entries_.end(), Entry{}); }
  bool configured() const { return !entries_.empty(); }

  uint64_t hits = 0, misses = 0;
  uint64_t purged = 0;  // entries removed by a purge of a page, segment or space

 private:
  size_t set_of(uint64_t key) const { return size_t(key % sets_) * ways_; }
  unsigned ways_ = 1, sets_ = 1;
  std::vector<Entry> entries_;
  uint64_t clock_ = 0;
};

// What a change of an address space's DAT tables tells every I-stream sharing the
// storage (the broadcast of IPTE and IDTE); the I-streams register with Storage.
class TlbPurgeListener {
 public:
  virtual ~TlbPurgeListener() = default;
  virtual void purge_page(uint64_t tag, uint64_t vpage) = 0;  // a 4 KB page became invalid or lost a right
  virtual void purge_segment(uint64_t tag, uint64_t vseg) = 0;  // a 1 MB segment did
  virtual void purge_space(uint64_t tag) = 0;  // the space is gone
};

}  // namespace emu
