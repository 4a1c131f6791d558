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

#include "emu/lru.h"

namespace emu {

class TlbModel {
 public:
  static constexpr uint64_t kEmpty = ~0ull;
  static constexpr uint64_t kCommon = 0;  // the tag of an entry formed through a common segment

  struct Entry {
    uint64_t key = kEmpty;  // virtual page (4 KB TLB) or segment (1 MB TLB) number
    uint64_t tag = kCommon; // the address space that formed it (AddressSpace::serial), or kCommon
  };

  void configure(unsigned entries, unsigned ways) {
    ways_ = ways ? ways : 1;
    sets_ = entries / ways_ ? entries / ways_ : 1;
    set_mask_ = (sets_ & (sets_ - 1)) == 0 ? sets_ - 1 : 0;
    pow2_ = (sets_ & (sets_ - 1)) == 0;
    entries_.assign(size_t(sets_) * ways_, Entry{});
    lru_.init(sets_, ways_);
  }
  // True on a hit. The set is chosen by the virtual address alone, as hardware's is; a
  // way matches on address and tag. On a miss the entry is installed in the set's first
  // free way, else its least recently used (emu/lru.h); `evicted` gets the entry it
  // replaced (key kEmpty if the way was free).
  bool access(uint64_t key, uint64_t tag, Entry& evicted) {
    const uint64_t s = set_index(key);
    Entry* set = &entries_[s * ways_];
    for (unsigned w = 0; w < ways_; ++w)
      if (set[w].key == key && set[w].tag == tag) {
        lru_.touch(s, w);
        ++hits;
        return true;
      }
    ++misses;
    const unsigned v = lru_.victim(s);
    evicted = set[v];
    set[v] = Entry{key, tag};
    lru_.fill(s, v);
    return false;
  }
  bool holds(uint64_t key, uint64_t tag) const {
    const Entry* set = &entries_[set_index(key) * ways_];
    return std::any_of(set, set + ways_, [&](const Entry& w) { return w.key == key && w.tag == tag; });
  }
  // The entry for (key, tag), if there is one; true if it was there.
  bool purge(uint64_t key, uint64_t tag) {
    bool found = false;
    const uint64_t s = set_index(key);
    Entry* set = &entries_[s * ways_];
    for (unsigned w = 0; w < ways_; ++w)
      if (set[w].key == key && set[w].tag == tag) {
        set[w] = Entry{}, lru_.release(s, w), found = true, ++purged;
      }
    return found;
  }
  // Every entry an address space formed (its ASCE is given up).
  void purge_tag(uint64_t tag) {
    for (size_t k = 0; k < entries_.size(); ++k)
      if (entries_[k].key != kEmpty && entries_[k].tag == tag) {
        entries_[k] = Entry{}, lru_.release(k / ways_, unsigned(k % ways_)), ++purged;
      }
  }
  void flush() {
    std::fill(entries_.begin(), entries_.end(), Entry{});
    lru_.release_all();
  }
  bool configured() const { return !entries_.empty(); }

  uint64_t hits = 0, misses = 0;
  uint64_t purged = 0;  // entries removed by a purge of a page, segment or space

 private:
  uint64_t set_index(uint64_t key) const { return pow2_ ? key & set_mask_ : key % sets_; }
  unsigned ways_ = 1, sets_ = 1;
  uint64_t set_mask_ = 0;
  bool pow2_ = true;
  std::vector<Entry> entries_;
  LruSets lru_;
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
