// The constant-time replacement state (emu/lru.h) makes the same choices as the age
// stamps it replaced (issue 44: the model does not change): driven by random streams
// beside a reference that keeps a stamp per way and scans the set, as the TLB and cache
// models did before.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "emu/lru.h"
#include "emu/tlb.h"

namespace {

// The old rule: a level-wide tick stamped on every fill and hit; the victim is the first
// invalid way, else the way with the oldest stamp.
struct StampedSets {
  unsigned ways;
  std::vector<uint64_t> stamp;
  std::vector<bool> valid;
  uint64_t tick = 0;
  StampedSets(uint64_t sets, unsigned w) : ways(w), stamp(sets * w, 0), valid(sets * w, false) {}
  void fill(uint64_t s, unsigned w) { valid[s * ways + w] = true, stamp[s * ways + w] = ++tick; }
  void touch(uint64_t s, unsigned w) { stamp[s * ways + w] = ++tick; }
  void release(uint64_t s, unsigned w) { valid[s * ways + w] = false; }
  unsigned victim(uint64_t s) const {
    unsigned best = 0;
    for (unsigned w = 0; w < ways; ++w) {
      if (!valid[s * ways + w]) return w;
      if (stamp[s * ways + w] < stamp[s * ways + best]) best = w;
    }
    return best;
  }
};

// The TLB model as it was: entries with an age stamp, the victim the first way of the
// least age (empty entries have age 0).
struct StampedTlb {
  struct Entry {
    uint64_t key = ~0ull, tag = 0, age = 0;
  };
  unsigned ways, sets;
  std::vector<Entry> e;
  uint64_t clock = 0;
  StampedTlb(unsigned entries, unsigned w) : ways(w), sets(entries / w), e(entries) {}
  bool access(uint64_t key, uint64_t tag, Entry& evicted) {
    Entry* set = &e[(key % sets) * ways];
    ++clock;
    Entry* victim = set;
    for (Entry* w = set; w < set + ways; ++w) {
      if (w->key == key && w->tag == tag) return w->age = clock, true;
      if (w->age < victim->age) victim = w;
    }
    evicted = *victim;
    *victim = Entry{key, tag, clock};
    return false;
  }
  bool purge(uint64_t key, uint64_t tag) {
    bool found = false;
    Entry* set = &e[(key % sets) * ways];
    for (Entry* w = set; w < set + ways; ++w)
      if (w->key == key && w->tag == tag) *w = Entry{}, found = true;
    return found;
  }
  void purge_tag(uint64_t tag) {
    for (Entry& w : e)
      if (w.key != ~0ull && w.tag == tag) w = Entry{};
  }
  void flush() {
    for (Entry& w : e) w = Entry{};
  }
};

}  // namespace

TEST_CASE("LRU ranks choose the victim the age stamps chose, on random streams", "[lru]") {
  for (unsigned ways : {1u, 2u, 3u, 8u, 16u, 17u, 32u, 64u, 100u, 256u, 300u}) {
    const uint64_t sets = 5;
    emu::LruSets lru;
    lru.init(sets, ways);
    StampedSets ref(sets, ways);
    std::mt19937_64 rng(ways);
    for (int step = 0; step < 20000; ++step) {
      const uint64_t s = rng() % sets;
      const unsigned op = unsigned(rng() % 10);
      const unsigned w = unsigned(rng() % ways);
      if (op < 4) {  // a miss: fill the victim
        const unsigned v = lru.victim(s);
        REQUIRE(v == ref.victim(s));
        lru.fill(s, v), ref.fill(s, v);
      } else if (op < 8) {  // a hit on a way in use
        if (!ref.valid[s * ways + w]) continue;
        lru.touch(s, w), ref.touch(s, w);
      } else if (op < 9 || ways == 1) {  // an invalidation
        lru.release(s, w), ref.release(s, w);
      }
      REQUIRE(lru.is_free(s, w) == !ref.valid[s * ways + w]);
    }
    for (uint64_t s = 0; s < sets; ++s) REQUIRE(lru.victim(s) == ref.victim(s));
  }
}

TEST_CASE("after every way was filled the ranks are the order of last use", "[lru]") {
  emu::LruSets lru;
  lru.init(1, 4);
  for (unsigned w : {2u, 0u, 3u, 1u}) lru.fill(0, w);
  lru.touch(0, 0);
  CHECK(lru.rank(0, 0) == 0);
  CHECK(lru.rank(0, 1) == 1);
  CHECK(lru.rank(0, 3) == 2);
  CHECK(lru.rank(0, 2) == 3);
  CHECK(lru.victim(0) == 2);
  lru.release(0, 3);
  CHECK(lru.victim(0) == 3);  // a free way before the LRU way
}

TEST_CASE("the TLB model hits, misses and evicts as its age-stamped version did", "[lru][tlb]") {
  for (auto [entries, ways] : {std::pair{64u, 4u}, {2048u, 8u}, {48u, 3u}, {128u, 128u}, {600u, 600u}}) {
    emu::TlbModel m;
    m.configure(entries, ways);
    StampedTlb ref(entries, ways);
    std::mt19937_64 rng(entries * 7 + ways);
    for (int step = 0; step < 40000; ++step) {
      const unsigned op = unsigned(rng() % 100);
      const uint64_t key = rng() % (entries * 3);
      const uint64_t tag = rng() % 4;  // 0 is kCommon
      if (op < 90) {
        emu::TlbModel::Entry out{};
        StampedTlb::Entry ref_out{};
        const bool hit = m.access(key, tag, out);
        REQUIRE(hit == ref.access(key, tag, ref_out));
        if (!hit) {
          REQUIRE(out.key == ref_out.key);
          if (out.key != emu::TlbModel::kEmpty) REQUIRE(out.tag == ref_out.tag);
        }
      } else if (op < 97) {
        REQUIRE(m.purge(key, tag) == ref.purge(key, tag));
      } else if (op < 99) {
        m.purge_tag(tag), ref.purge_tag(tag);
      } else {
        m.flush(), ref.flush();
      }
    }
  }
}
