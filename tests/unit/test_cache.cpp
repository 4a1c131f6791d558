// The cache hierarchy and coherence model (emu/cache.h), driven directly.
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "emu/cache.h"

namespace {

using emu::AccessKind;
using emu::MachineConfig;
using emu::MemoryHierarchy;
constexpr AccessKind L = AccessKind::Load;
constexpr AccessKind S = AccessKind::Store;

// Small caches so that sets fill quickly; the latencies are the defaults.
//   L1: 2 sets x 2 ways (set = line & 1)
//   L2: 4 sets x 4 ways (set = line & 3)
//   L3: 16 sets x 4 ways (set = line & 15)
MachineConfig small(unsigned istreams) {
  MachineConfig c = emu::default_machine_config();
  c.istreams = istreams;
  c.l1 = {4 * 256, 2, 4};
  c.l2 = {16 * 256, 4, 16};
  c.l3 = {64 * 256, 4, 50};
  c.memory_latency = 350;
  c.transfer_latency = 110;
  c.invalidate_latency = 40;
  return c;
}
constexpr uint32_t kL2 = 16 - 4, kL3 = 50 - 4, kMem = 350 - 4, kXfer = 110 - 4, kInv = 40;

struct Recorder : emu::CacheListener {
  std::vector<std::pair<unsigned, uint64_t>> calls;
  void line_lost(unsigned istream, uint64_t line) override { calls.emplace_back(istream, line); }
  std::vector<std::pair<unsigned, uint64_t>> take() { return std::exchange(calls, {}); }
};
using Calls = std::vector<std::pair<unsigned, uint64_t>>;

uint64_t classified(const MemoryHierarchy::IStreamStats& s) {
  return s.l1_hits + s.l2_hits + s.l3_hits + s.memory + s.transfers_in + s.upgrades;
}

}  // namespace

TEST_CASE("each level costs its latency beyond the L1's; a repeated access is an L1 hit", "[cache]") {
  MemoryHierarchy m(small(2));
  Recorder rec;
  m.set_listener(&rec);
  CHECK(m.access(0, 0, L) == kMem);  // memory
  CHECK(m.access(0, 0, L) == 0);     // L1
  CHECK(m.access(0, 0, L) == 0);
  // Lines 2 and 4 share L1 set 0 with line 0 and push it out of the L1 (not the L2).
  CHECK(m.access(0, 2, L) == kMem);
  CHECK(m.access(0, 4, L) == kMem);
  CHECK(rec.take() == Calls{{0, 0}});
  CHECK(!m.in_l1(0, 0));
  CHECK(m.in_l2(0, 0));
  CHECK(m.access(0, 0, L) == kL2);  // L2
  CHECK(m.access(0, 0, L) == 0);
  // Another I-stream finds line 0 in the L3 (I-stream 0 holds it unmodified).
  CHECK(m.access(1, 0, L) == kL3);
  CHECK(m.access(1, 0, L) == 0);

  const auto& s0 = m.stats(0);
  CHECK(s0.loads == 7);
  CHECK(s0.stores == 0);
  CHECK(s0.memory == 3);
  CHECK(s0.l1_hits == 3);
  CHECK(s0.l2_hits == 1);
  CHECK(s0.l3_hits == 0);
  const auto& s1 = m.stats(1);
  CHECK(s1.loads == 2);
  CHECK(s1.l3_hits == 1);
  CHECK(s1.l1_hits == 1);
  CHECK(m.line_transfers() == 0);
  CHECK(m.invalidations() == 0);
  CHECK(m.check_invariants() == "");

  m.reset_stats();
  CHECK(m.stats(0).loads == 0);
  CHECK(classified(m.stats(0)) == 0);
}

TEST_CASE("the default configuration: z15-sized caches, costs from the configured latencies", "[cache]") {
  MachineConfig c = emu::default_machine_config();  // L1 128K/8, L2 4M/8, L3 256M/32
  c.istreams = 2;
  MemoryHierarchy m(c);
  const uint32_t l1 = c.l1.latency;
  CHECK(m.access(0, 0x12345, L) == c.memory_latency - l1);
  CHECK(m.access(0, 0x12345, S) == 0);  // granted exclusive by the load: the store is free
  CHECK(m.holds(0, 0x12345, S));
  CHECK(m.access(1, 0x12345, L) == c.transfer_latency - l1);  // modified in I-stream 0
  CHECK(m.access(1, 0x12345, L) == 0);
  // 512 L1 lines = 64 sets x 8 ways: 9 lines 64 apart overflow one L1 set but not the L2's.
  for (uint64_t k = 0; k < 9; ++k) CHECK(m.access(0, 0x100000 + 64 * k, L) == c.memory_latency - l1);
  CHECK(m.access(0, 0x100000, L) == c.l2.latency - l1);
  CHECK(m.check_invariants() == "");
}

TEST_CASE("a working set larger than the L1 but smaller than the L2 hits in the L2", "[cache]") {
  MemoryHierarchy m(small(1));
  Recorder rec;
  m.set_listener(&rec);
  uint64_t cost = 0;
  for (uint64_t line = 0; line < 8; ++line) cost += m.access(0, line, L);
  CHECK(cost == 8 * kMem);
  // 8 lines cycle through 2 L1 sets of 2 ways in LRU order: every access misses the L1.
  for (int pass = 0; pass < 3; ++pass)
    for (uint64_t line = 0; line < 8; ++line) CHECK(m.access(0, line, L) == kL2);
  const auto& s = m.stats(0);
  CHECK(s.memory == 8);
  CHECK(s.l2_hits == 24);
  CHECK(s.l1_hits == 0);
  CHECK(rec.calls.size() == 32 - 4);  // every L1 fill after the first four evicts a line
  CHECK(m.check_invariants() == "");

  // Four lines fit the L1: after the first pass, only L1 hits.
  MemoryHierarchy fit(small(1));
  for (uint64_t line = 0; line < 4; ++line) fit.access(0, line, L);
  for (int pass = 0; pass < 5; ++pass)
    for (uint64_t line = 0; line < 4; ++line) CHECK(fit.access(0, line, L) == 0);
  CHECK(fit.stats(0).l1_hits == 20);
}

TEST_CASE("inclusion: an L2 eviction removes the line from the L1", "[cache]") {
  MemoryHierarchy m(small(1));
  Recorder rec;
  m.set_listener(&rec);
  // Lines 0, 4, 8, 12, 16 share L2 set 0 and L1 set 0. Line 0 stays in the L1 by
  // L1 hits, which do not refresh its age in the L2, so it is the L2's LRU victim.
  m.access(0, 0, L);
  m.access(0, 4, L);
  CHECK(m.access(0, 0, L) == 0);
  m.access(0, 8, L);
  CHECK(rec.take() == Calls{{0, 4}});
  CHECK(m.access(0, 0, L) == 0);
  m.access(0, 12, L);
  CHECK(rec.take() == Calls{{0, 8}});
  CHECK(m.access(0, 0, L) == 0);
  CHECK(m.in_l1(0, 0));
  CHECK(m.access(0, 16, L) == kMem);  // L2 set full: evicts line 0, from the L1 too
  CHECK(rec.take() == Calls{{0, 0}});
  CHECK(!m.in_l1(0, 0));
  CHECK(!m.in_l2(0, 0));
  CHECK(m.in_l1(0, 12));
  CHECK(m.in_l1(0, 16));
  CHECK(m.in_l3(0));
  CHECK(m.sharers(0) == 0);  // the directory forgot I-stream 0
  CHECK(m.access(0, 0, L) == kL3);
  CHECK(m.check_invariants() == "");
}

TEST_CASE("inclusion: an L3 eviction back-invalidates the private copies", "[cache]") {
  MemoryHierarchy m(small(2));
  Recorder rec;
  m.set_listener(&rec);
  // Lines 0, 16, 32, 48, 64 share L3 set 0 (4 ways).
  m.access(0, 0, S);
  m.access(1, 16, L);
  m.access(1, 32, L);
  m.access(1, 48, L);
  CHECK(rec.take() == Calls{{1, 16}});  // I-stream 1's L1 set 0 has two ways
  CHECK(m.access(1, 64, L) == kMem);  // L3 victim: line 0, modified in I-stream 0
  CHECK(rec.take() == Calls{{0, 0}, {1, 32}});  // order: back-invalidate, then I-stream 1's L1 fill
  CHECK(m.back_invalidations() == 1);
  CHECK(!m.in_l2(0, 0));
  CHECK(!m.in_l3(0));
  CHECK(!m.holds(0, 0, S));
  // Line 0 again: from memory; the L3 victim is line 16, which I-stream 1 holds in
  // its L2 only, so it loses it without a notification.
  CHECK(m.access(0, 0, L) == kMem);
  CHECK(rec.take().empty());
  CHECK(m.back_invalidations() == 2);
  CHECK(!m.in_l2(1, 16));
  CHECK(m.in_l2(1, 32));
  CHECK(m.invalidations() == 0);
  CHECK(m.line_transfers() == 0);
  CHECK(m.check_invariants() == "");
}

TEST_CASE("interlocked updates by N I-streams on one line: every attempt is a line transfer", "[cache]") {
  constexpr unsigned N = 4;
  constexpr int rounds = 50;
  MemoryHierarchy shared(small(N));
  Recorder rec;
  shared.set_listener(&rec);
  uint64_t cost = 0;
  for (int r = 0; r < rounds; ++r)
    for (unsigned i = 0; i < N; ++i) {
      const uint32_t c = shared.access(i, 7, S);  // CSG: one exclusive access
      CHECK(c == (r == 0 && i == 0 ? kMem : kXfer));
      cost += c;
      CHECK(shared.holds(i, 7, S));
      CHECK(!shared.holds((i + N - 1) % N, 7, L));
    }
  CHECK(cost == kMem + (N * rounds - 1) * uint64_t(kXfer));
  CHECK(shared.line_transfers() == N * rounds - 1);
  CHECK(shared.invalidations() == 0);  // the owner gives the line up in the transfer
  CHECK(shared.stats(0).transfers_in == rounds - 1);
  CHECK(shared.stats(0).memory == 1);
  CHECK(shared.stats(1).transfers_in == rounds);
  CHECK(rec.calls.size() == N * rounds - 1);  // each transfer tells the previous owner
  CHECK(rec.calls.front() == std::pair<unsigned, uint64_t>{0, 7});
  CHECK(rec.calls.back() == std::pair<unsigned, uint64_t>{N - 2, 7});

  // The same updates on N separate lines: after the first fill, only L1 hits.
  MemoryHierarchy separate(small(N));
  uint64_t cost_sep = 0;
  for (int r = 0; r < rounds; ++r)
    for (unsigned i = 0; i < N; ++i) {
      const uint32_t c = separate.access(i, 16 + i, S);
      CHECK(c == (r == 0 ? kMem : 0));
      cost_sep += c;
    }
  CHECK(cost_sep == N * uint64_t(kMem));
  CHECK(separate.line_transfers() == 0);
  for (unsigned i = 0; i < N; ++i) CHECK(separate.stats(i).l1_hits == rounds - 1);
  CHECK(cost > 10 * cost_sep);
  CHECK(shared.check_invariants() == "");
  CHECK(separate.check_invariants() == "");
}

TEST_CASE("a load then a store by N I-streams in turn: a transfer, then an upgrade", "[cache]") {
  constexpr unsigned N = 3;
  MemoryHierarchy m(small(N));
  Recorder rec;
  m.set_listener(&rec);
  CHECK(m.access(0, 5, L) == kMem);  // exclusive, unmodified
  CHECK(m.access(0, 5, S) == 0);     // now modified
  CHECK(rec.take().empty());
  for (int r = 0; r < 10; ++r)
    for (unsigned i = (r == 0 ? 1 : 0); i < N; ++i) {
      const unsigned prev = (i + N - 1) % N;
      CHECK(m.access(i, 5, L) == kXfer);  // modified in the previous I-stream
      CHECK(rec.take() == Calls{{prev, 5}});  // it keeps a read-only copy
      CHECK(m.holds(prev, 5, L));
      CHECK(!m.holds(prev, 5, S));
      CHECK(m.access(i, 5, S) == kL3 + kInv);  // upgrade, invalidating that copy
      CHECK(rec.take() == Calls{{prev, 5}});
      CHECK(!m.holds(prev, 5, L));
    }
  CHECK(m.line_transfers() == 29);
  CHECK(m.invalidations() == 29);
  CHECK(m.stats(1).transfers_in == 10);
  CHECK(m.stats(1).upgrades == 10);
  CHECK(m.stats(1).invalidations_sent == 10);
  CHECK(m.check_invariants() == "");
}

TEST_CASE("false sharing costs what true sharing costs; separate lines cost nothing", "[cache]") {
  // Two I-streams store in turn: to the same doubleword, to two doublewords of one
  // 256-byte line, and to two lines.
  auto run = [](uint64_t addr0, uint64_t addr1) {
    MemoryHierarchy m(small(2));
    uint64_t cost = 0;
    for (int r = 0; r < 100; ++r) {
      cost += m.access(0, addr0 >> emu::kLineShift, S);
      cost += m.access(1, addr1 >> emu::kLineShift, S);
    }
    return std::pair{cost, m.line_transfers()};
  };
  const auto truly = run(0x4000, 0x4000);
  const auto falsely = run(0x4000, 0x40F8);
  const auto apart = run(0x4000, 0x4100);
  CHECK(truly == std::pair<uint64_t, uint64_t>{kMem + 199 * uint64_t(kXfer), 199});
  CHECK(falsely == truly);
  CHECK(apart == std::pair<uint64_t, uint64_t>{2 * uint64_t(kMem), 0});
}

TEST_CASE("read-only sharing costs no transfers; the first store invalidates the other copies", "[cache]") {
  constexpr unsigned N = 4;
  MemoryHierarchy m(small(N));
  Recorder rec;
  m.set_listener(&rec);
  CHECK(m.access(0, 9, L) == kMem);  // exclusive, unmodified
  CHECK(m.access(1, 9, L) == kL3);   // from the L3; I-stream 0 goes read-only
  CHECK(rec.take() == Calls{{0, 9}});
  CHECK(m.access(2, 9, L) == kL3);
  CHECK(m.access(3, 9, L) == kL3);
  CHECK(rec.take().empty());
  CHECK(m.sharers(9) == 0xF);
  for (int r = 0; r < 100; ++r)  // the read-only spin
    for (unsigned i = 0; i < N; ++i) CHECK(m.access(i, 9, L) == 0);
  CHECK(m.line_transfers() == 0);
  CHECK(m.invalidations() == 0);
  CHECK(rec.calls.empty());

  CHECK(m.access(2, 9, S) == kL3 + kInv);  // upgrade: one cross-invalidate round for 3 copies
  CHECK(rec.take() == Calls{{0, 9}, {1, 9}, {3, 9}});
  CHECK(m.invalidations() == N - 1);
  CHECK(m.stats(2).invalidations_sent == N - 1);
  CHECK(m.stats(2).upgrades == 1);
  CHECK(m.sharers(9) == 0x4);
  CHECK(m.holds(2, 9, S));
  for (unsigned i : {0u, 1u, 3u}) CHECK(!m.holds(i, 9, L));
  // The spinners come back: the first takes the modified line from I-stream 2, the
  // others find it in the L3.
  CHECK(m.access(0, 9, L) == kXfer);
  CHECK(rec.take() == Calls{{2, 9}});
  CHECK(m.access(1, 9, L) == kL3);
  CHECK(m.access(3, 9, L) == kL3);
  CHECK(m.line_transfers() == 1);
  CHECK(m.check_invariants() == "");
}

TEST_CASE("upgrades, and stores to lines others hold unmodified", "[cache]") {
  MemoryHierarchy m(small(2));
  Recorder rec;
  m.set_listener(&rec);
  // A store to a line held exclusive but unmodified elsewhere: from the L3, and that
  // copy is invalidated (not a transfer).
  m.access(0, 3, L);
  CHECK(m.access(1, 3, S) == kL3 + kInv);
  CHECK(rec.take() == Calls{{0, 3}});
  CHECK(m.line_transfers() == 0);
  CHECK(m.invalidations() == 1);
  CHECK(m.stats(1).l3_hits == 1);
  CHECK(m.stats(1).invalidations_sent == 1);

  // A store to a line held read-only with no other holder left: an upgrade at L3 cost.
  m.access(0, 3, L);  // transfer; I-stream 1 keeps a read-only copy
  CHECK(rec.take() == Calls{{1, 3}});
  // I-stream 0 loses its copy from the L2 (lines 7, 11, 15, 19 share L2 set 3).
  for (uint64_t line : {7, 11, 15, 19}) m.access(0, line, L);
  CHECK(!m.in_l2(0, 3));
  CHECK(m.sharers(3) == 0x2);
  rec.take();
  CHECK(m.access(1, 3, S) == kL3);  // upgrade, nobody to invalidate
  CHECK(rec.take().empty());
  CHECK(m.stats(1).upgrades == 1);

  // An upgrade of a line that is in the L2 but not the L1 also refills the L1.
  m.access(0, 3, L);  // I-stream 1 read-only again
  m.access(1, 1, L);
  m.access(1, 5, L);  // lines 1 and 5 push line 3 out of I-stream 1's L1 set 1
  CHECK(!m.in_l1(1, 3));
  CHECK(m.in_l2(1, 3));
  rec.take();
  CHECK(m.access(1, 3, S) == kL3 + kInv);
  CHECK(rec.take() == Calls{{0, 3}, {1, 1}});  // invalidate I-stream 0, then the L1 fill evicts line 1
  CHECK(m.holds(1, 3, S));
  CHECK(m.stats(1).upgrades == 2);

  // A store that hits the L2 on an exclusive line is an L2 hit.
  MemoryHierarchy e(small(1));
  e.access(0, 0, L);
  e.access(0, 2, L);
  e.access(0, 4, L);  // line 0 out of the L1, still exclusive in the L2
  CHECK(!e.holds(0, 0, L));
  CHECK(e.access(0, 0, S) == kL2);
  CHECK(e.holds(0, 0, S));
  CHECK(e.stats(0).l2_hits == 1);
  CHECK(m.check_invariants() == "");
  CHECK(e.check_invariants() == "");
}

TEST_CASE("holds: loads while in the L1, stores only once the line is modified", "[cache]") {
  MemoryHierarchy m(small(2));
  CHECK(!m.holds(0, 1, L));
  m.access(0, 1, L);
  CHECK(m.holds(0, 1, L));
  CHECK(!m.holds(0, 1, S));  // exclusive but unmodified: the first store must be seen
  CHECK(m.access(0, 1, S) == 0);
  CHECK(m.holds(0, 1, S));
  CHECK(m.stats(0).l1_hits == 1);
  CHECK(m.stats(0).upgrades == 0);
}

TEST_CASE("a long mixed run keeps inclusion and the directory exact, notifies exactly, and repeats", "[cache]") {
  // A deterministic pseudo-random mix over a small footprint, with a shadow of what
  // each I-stream's shortcut could believe. After every access, a line that left an
  // I-stream's L1 must have been notified during that access; a notification must
  // name a line the I-stream had accessed and not lost since, and come once.
  struct Shadow : emu::CacheListener {
    std::vector<std::map<uint64_t, bool>> held;  // line -> notified during this access
    uint64_t spurious = 0;
    void line_lost(unsigned istream, uint64_t line) override {
      auto it = held[istream].find(line);
      if (it == held[istream].end() || it->second) ++spurious;
      else it->second = true;
    }
  };
  constexpr unsigned N = 5;
  auto run = [&](bool check) {
    MemoryHierarchy m(small(N));
    Shadow sh;
    sh.held.resize(N);
    m.set_listener(&sh);
    uint64_t x = 12345, total = 0, violations = 0, demotes = 0;
    for (int k = 0; k < 20000; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const unsigned i = unsigned((x >> 33) % N);
      const uint64_t line = (x >> 40) % 97;
      const AccessKind kind = ((x >> 20) & 3) == 0 ? S : L;
      total += m.access(i, line, kind);
      for (unsigned j = 0; j < N; ++j)
        for (auto it = sh.held[j].begin(); it != sh.held[j].end();) {
          if (!m.holds(j, it->first, L)) {
            violations += !it->second;  // left the L1 without a call
            it = sh.held[j].erase(it);
          } else {
            if (it->second) {  // still there: lost exclusivity
              ++demotes;
              violations += m.holds(j, it->first, S);
            }
            it->second = false;
            ++it;
          }
        }
      sh.held[i][line] = false;
      if (check && k % 97 == 0 && !m.check_invariants().empty()) ++violations;
    }
    CHECK(demotes > 0);
    uint64_t sum = 0, accesses = 0;
    for (unsigned i = 0; i < N; ++i) {
      sum += classified(m.stats(i));
      accesses += m.stats(i).loads + m.stats(i).stores;
    }
    CHECK(m.check_invariants() == "");
    CHECK(sum == accesses);
    CHECK(accesses == 20000);
    CHECK(violations == 0);
    CHECK(sh.spurious == 0);
    CHECK(m.line_transfers() > 0);
    CHECK(m.invalidations() > 0);
    CHECK(m.back_invalidations() > 0);
    return std::tuple{total, m.line_transfers(), m.invalidations(), m.back_invalidations()};
  };
  const auto a = run(true);
  const auto b = run(false);
  CHECK(a == b);
}

TEST_CASE("the model rejects geometries it cannot build", "[cache]") {
  MachineConfig c = small(1);
  c.l1 = {256, 2, 4};  // less than one set
  CHECK_THROWS_AS(MemoryHierarchy(c), std::invalid_argument);
  c = small(0);
  CHECK_THROWS_AS(MemoryHierarchy(c), std::invalid_argument);
  c = small(65);
  CHECK_THROWS_AS(MemoryHierarchy(c), std::invalid_argument);
  c = small(1);
  c.transfer_latency = 2;  // below the L1's
  CHECK_THROWS_AS(MemoryHierarchy(c), std::invalid_argument);
  c = small(64);
  c.l2 = {12 * 256, 4, 16};  // 3 sets: not a power of two, still works
  MemoryHierarchy m(c);
  for (uint64_t line = 0; line < 40; ++line) m.access(unsigned(line % 64), line, line % 3 ? L : S);
  CHECK(m.check_invariants() == "");
}

TEST_CASE("serialized lines: an ownership change waits for the one in flight; loads from the L3 do not",
          "[cache][coherence]") {
  MemoryHierarchy m(small(3));
  CHECK(m.access(0, 5, S, 1000) == kMem);  // a fill from memory is not an ownership change
  // I-stream 1 takes the modified line at 1000: busy until 1000 + kXfer.
  CHECK(m.access(1, 5, S, 1000) == kXfer);
  // I-stream 2 asks at 1010, while it is in flight: it waits until 1000 + kXfer, then
  // pays its own transfer.
  CHECK(m.access(2, 5, S, 1010) == (1000 + kXfer - 1010) + kXfer);
  CHECK(m.stats(2).queued == 1);
  CHECK(m.stats(2).queued_cycles == 1000 + kXfer - 1010);
  // After the line has settled, a request pays only its latency.
  CHECK(m.access(0, 5, L, 5000) == kXfer);  // load of a modified line: a transfer (it settles at 5000+kXfer)
  CHECK(m.access(1, 5, L, 5000 + kXfer) == kL3);  // shared now: served by the L3, never waits
  // A store that invalidates copies is an ownership change too.
  CHECK(m.access(2, 5, S, 5000 + kXfer) == kL3 + kInv);
  CHECK(m.access(0, 5, S, 5000 + kXfer + 1) == (kL3 + kInv - 1) + kXfer);

  // Off (machine.coherence.serialize_lines: false), or without a time: latencies only.
  MachineConfig c = small(3);
  c.serialize_lines = false;
  MemoryHierarchy off(c);
  off.access(0, 5, S, 1000);
  CHECK(off.access(1, 5, S, 1000) == kXfer);
  CHECK(off.access(2, 5, S, 1010) == kXfer);
  MemoryHierarchy untimed(small(3));
  untimed.access(0, 5, S);
  CHECK(untimed.access(1, 5, S) == kXfer);
  CHECK(untimed.access(2, 5, S) == kXfer);
}
