// The cache hierarchy and coherence model: a pure timing/state model of absolute
// storage lines, with no knowledge of instructions. The CPU calls access() for
// every storage reference that misses its own last-line shortcut and adds the
// cycles it returns to the instruction's base cycles.
//
// Structure
//   Per I-stream a private L1 (data) and L2; one L3 shared by all I-streams;
//   memory behind it. Every level is set-associative with true LRU (an age stamp
//   per way; the victim is the first invalid way, else the oldest). Sets are
//   chosen by the low bits of the line number (modulo when the set count is not a
//   power of two). Inclusion: L1 is a subset of the same I-stream's L2, and every
//   private L2 is a subset of the L3. The L3 carries the coherence directory: for
//   each line, the mask of I-streams whose L2 holds it, and whether the holder (then
//   exactly one) holds it exclusive. The directory is exact: a private eviction
//   updates it (the write-back of a modified line costs nothing on the critical
//   path and is not charged).
//
// States (MESI-like, as z's read-only / exclusive with the L3 as point of coherence)
//   S  read-only: a load may use it; a store needs exclusivity first.
//   E  exclusive, not yet stored to ("conditional exclusive" fetch: a load miss on a
//      line no other I-stream holds is granted exclusive, so single-I-stream code
//      never pays for an upgrade).
//   M  exclusive and stored to. The model uses E versus M to know whether another
//      I-stream's request needs the line's data from the owner (M: a line
//      transfer) or can take it from the L3 (E: the L3 copy is current).
//
// Costs: the cycles returned are beyond an L1 hit (an L1 hit's latency is in the
// instruction's base cycles). All configured level latencies, memory_latency and
// transfer_latency are load-to-use totals, so each is charged minus l1.latency;
// invalidate_latency is an addition (the cross-invalidate round trip to the
// holders, once per request however many copies it removes).
//   L1 hit with the right state .......................... 0
//   L2 hit with the right state .......................... l2 - l1
//   L3 hit, no other holder or only read-only holders
//     (load), or held E by another I-stream (load) ....... l3 - l1
//   memory (L3 miss; fills L3, L2, L1) ................... memory - l1
//   another I-stream holds it M (load or store) .......... transfer - l1
//       load: the owner keeps a read-only copy (its data is written back);
//       store: the owner loses the line. Counts as a line transfer.
//   store, others hold read-only copies (or E, unmodified)  l3 - l1 + invalidate
//       every other copy is removed; each removed copy counts as an invalidation.
//   upgrade: store to a line this I-stream holds read-only
//       no other holder .................................. l3 - l1
//       other holders .................................... l3 - l1 + invalidate
//     Reasoning: on z the private caches cannot grant themselves exclusivity; the
//     exclusive request goes to the L3 directory (which also issues the
//     cross-invalidates), so an upgrade costs an L3 round trip without the data.
//   first store to an E line (held in L1 or L2) .......... as the hit: it only
//       marks the line modified.
//   Serialization (machine.coherence.serialize_lines): a line changes owner one
//   request at a time. Each L3 line keeps the time its last ownership change
//   completes; a request that moves ownership (a transfer, or an exclusive request
//   that invalidates other copies) and comes before that time first waits for it,
//   and the line is busy for the request's own latency after it starts. So N
//   I-streams retrying CSG on one line queue behind each other, and a holder's
//   releasing store waits behind the waiters' CSGs, as on a real machine. Loads
//   served from the L3 (shared) and hits do not wait. `now` is the requester's clock
//   at the access; I-streams interleave by quantum, so a request may be handled a
//   quantum out of time order (the error is at most a quantum, deterministic).
//   An interlocked update (CS, CSG, CDSG) or an SS destination is ONE access of kind
//   Store: it fetches the line exclusive (as z does), so it never pays a separate
//   upgrade after a read-only fetch.
// Consequences the DESIGN asks for, from the rules and not from special cases:
//   a CSG loop by N I-streams on one line is a line transfer per attempt (the line
//   is M in the previous I-stream); a read-only spin by N I-streams costs no
//   transfers (they share it read-only, each load an L1 hit) until somebody stores;
//   false sharing costs exactly what true sharing does (the unit is the line).
//
// Accounting: every access is counted in exactly one of l1_hits, l2_hits, l3_hits,
// memory, transfers_in, upgrades (so their sum is loads + stores).
// invalidations_sent counts the copies (in other I-streams) a request removed
// because of a store (not the owner's copy given up in a transfer).
// back_invalidations() counts private copies removed because the L3 evicted their
// line (these are not coherence invalidations and not in invalidations()).
//
// Listener: line_lost(istream, line) is called, exactly once per event, when
//   (a) the line leaves that I-stream's L1 for any reason: L1 eviction (the line may
//       still be in its L2), L2 eviction (inclusion), L3 eviction (back-invalidate),
//       a store by another I-stream (invalidation or transfer); or
//   (b) the line is in that I-stream's L1 and stops being exclusive there (another
//       I-stream loaded it).
// A line not in an I-stream's L1 never produces a call for it (a shortcut can only
// hold a line that is in L1, and was already told when it left). Calls for several
// I-streams in one event come in increasing I-stream order. The listener must not
// call back into the model.
//
// Shortcut contract: holds(i, line, Load) is true while the line is in i's L1;
// holds(i, line, Store) only while it is there in state M. A store to an E line
// must go through access() once (it is free) so that the model knows the line is
// modified; after that, stores may be skipped until line_lost() is called.
//
// Determinism: no randomness, no host clock; all iteration is over arrays and bit
// masks in index order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emu/lru.h"
#include "emu/machine_config.h"

namespace emu {

enum class AccessKind : uint8_t { Load, Store };

class CacheListener {
 public:
  virtual ~CacheListener() = default;
  virtual void line_lost(unsigned istream, uint64_t line) = 0;
};

class MemoryHierarchy {
 public:
  // Throws std::invalid_argument if a level has no sets (size < ways * kLineSize),
  // istreams is 0 or above kMaxIStreams, or a latency is below the L1's.
  explicit MemoryHierarchy(const MachineConfig& config);

  void set_listener(CacheListener* listener) { listener_ = listener; }

  // An access's cycles by cause; storage + coherence is what access() returns.
  //   coherence: what the line's use by other I-streams added: a line transfer (all
  //     of transfer - l1: the data had to come from the owner's cache), the
  //     cross-invalidate round trip (invalidate), and waiting for the line's previous
  //     ownership change (serialize_lines).
  //   storage: the rest, the levels and memory (an upgrade's L3 round trip included:
  //     it is paid with no other holder too).
  struct AccessCost {
    uint32_t storage = 0, coherence = 0;
  };

  // Extra cycles for `istream` to access absolute line number `line`
  // (= absolute address >> kLineShift), beyond an L1 hit; `now` is its clock (for
  // serialization; see above), waiting included. Without a time (kNoTime), the
  // access pays its latency only, as with serialization off. When `split` is given,
  // it receives the same cycles divided by cause (see AccessCost).
  static constexpr uint64_t kNoTime = ~uint64_t(0);
  // Inline: it is on the path of every storage reference that misses the CPU's
  // last-line shortcut.
  uint32_t access(unsigned istream, uint64_t line, AccessKind kind, uint64_t now = kNoTime,
                  AccessCost* split = nullptr) {
    now_ = now;
    coherence_ = 0;
    const uint32_t total = lookup(istream, line, kind);
    if (split) {
      // The coherence part can only exceed the total when owner_change() saturated it.
      split->coherence = coherence_ < total ? uint32_t(coherence_) : total;
      split->storage = total - split->coherence;
    }
    return total;
  }

  struct IStreamStats {
    uint64_t loads = 0, stores = 0;
    uint64_t l1_hits = 0, l2_hits = 0, l3_hits = 0, memory = 0;
    uint64_t transfers_in = 0;        // lines taken from another I-stream's private cache
    uint64_t invalidations_sent = 0;  // copies removed from other I-streams by this one's stores
    uint64_t upgrades = 0;            // stores to a line held read-only
    uint64_t queued = 0;              // ownership requests that waited for a line in flight
    uint64_t queued_cycles = 0;       // ... and the cycles they waited
  };
  const IStreamStats& stats(unsigned istream) const { return priv_[istream].stats; }
  uint64_t line_transfers() const { return line_transfers_; }
  uint64_t invalidations() const { return invalidations_; }
  uint64_t back_invalidations() const { return back_invalidations_; }
  void reset_stats();

  // Whether `istream` holds `line` in its L1 with the right for `kind` (see the
  // shortcut contract above).
  bool holds(unsigned istream, uint64_t line, AccessKind kind) const;

  // For tests and debugging: where the line is.
  bool in_l1(unsigned istream, uint64_t line) const;
  bool in_l2(unsigned istream, uint64_t line) const;
  bool in_l3(uint64_t line) const;
  uint64_t sharers(uint64_t line) const;  // directory mask (0 if not in L3)
  // Checks inclusion and directory consistency over every cache; returns an empty
  // string when all holds, else a description of the first violation. Slow.
  std::string check_invariants() const;

  unsigned istreams() const { return unsigned(priv_.size()); }

 private:
  static constexpr uint64_t kInvalid = ~uint64_t(0);
  enum : uint8_t { kS = 1, kE = 2, kM = 3 };

  // One set-associative array, flat: way (set * ways + w) has its tag word in `tags`
  // (line << 2 | state, or kInvalid), so that a set's tags and states are ways x 8
  // contiguous bytes; its replacement state (LRU ranks, free ways) is one small block
  // per set in `lru` (emu/lru.h: constant-time victims, the same choices as the age
  // stamps it replaced). The L3's directory entries are in MemoryHierarchy::dir_,
  // indexed by way. A way is named by that index.
  struct Level {
    unsigned ways = 0;
    unsigned way_shift = 0;  // log2(ways) when ways is a power of two
    bool ways_pow2 = true;
    uint64_t sets = 0;
    uint64_t set_mask = 0;  // sets - 1 when sets is a power of two
    bool pow2 = true;
    LineAlignedArray<uint64_t> tags;
    LruSets lru;

    void init(const CacheLevelConfig& c, const char* name);
    uint64_t set_of(uint64_t line) const { return pow2 ? (line & set_mask) : (line % sets); }
    uint64_t set_of_way(uint64_t way) const { return ways_pow2 ? way >> way_shift : way / ways; }
    unsigned index_in_set(uint64_t way) const { return unsigned(way - set_of_way(way) * ways); }
    uint64_t base(uint64_t line) const { return set_of(line) * ways; }
    // The way holding `line`, or -1. (An invalid tag, all ones, never matches: a line
    // number is below 2^56.)
    int64_t find(uint64_t line) const {
      const uint64_t b = base(line);
      const uint64_t* t = tags.data() + b;
      for (unsigned w = 0; w < ways; ++w)
        if ((t[w] >> 2) == line) return int64_t(b + w);
      return -1;
    }
    uint64_t tag(uint64_t way) const { return tags[way] == kInvalid ? kInvalid : tags[way] >> 2; }
    void invalidate(uint64_t way) {
      tags[way] = kInvalid;
      lru.release(set_of_way(way), index_in_set(way));
    }
    uint8_t state(uint64_t way) const { return uint8_t(tags[way] & 3); }
    void set_state(uint64_t way, uint8_t st) { tags[way] = (tags[way] & ~uint64_t(3)) | st; }
    void touch(uint64_t way) { lru.touch(set_of_way(way), index_in_set(way)); }
    // Install `line` in `way` with state `st`, as most recently used.
    void put(uint64_t way, uint64_t line, uint8_t st) {
      tags[way] = line << 2 | st;
      lru.fill(set_of_way(way), index_in_set(way));
    }
    // The way to replace in line's set: the first invalid way, else the LRU way.
    uint64_t victim(uint64_t line) const {
      const uint64_t s = set_of(line);
      return s * ways + lru.victim(s);
    }
    // Start bringing line's set (its tags and replacement state) into the host cache.
    void prefetch(uint64_t line) const {
      const uint64_t s = set_of(line);
      const char* t = reinterpret_cast<const char*>(tags.data() + s * ways);
      for (unsigned k = 0; k < ways * 8; k += 64) __builtin_prefetch(t + k);
      lru.prefetch(s);
    }
    template <class F> void for_each_valid(F f) const {
      for (uint64_t s = 0; s < sets; ++s)
        for (unsigned w = 0; w < ways; ++w) {
          const uint64_t way = s * ways + w;
          if (tags[way] != kInvalid) f(s, way);
        }
    }
  };

  // The L3's coherence directory, one entry per L3 way (16 bytes: four to a host line):
  // the mask of I-streams whose L2 holds the line, and the time its last ownership
  // change completes (serialize_lines).
  struct DirEntry {
    uint64_t mask = 0, ready = 0;
  };

  // One I-stream's caches and counters, on host lines of its own (no other I-stream's
  // references write them).
  struct alignas(64) Private {
    Level l1, l2;
    // For each L2 way, the L3 way holding the same line (the L3 includes the L2, and a
    // line keeps its L3 way until the L3 evicts it, which takes it from every L2 first):
    // an L2 eviction or an upgrade reaches the directory without searching the L3.
    std::vector<uint32_t> l3_way;
    IStreamStats stats;
  };

  void notify(unsigned istream, uint64_t line) {
    if (listener_) listener_->line_lost(istream, line);
  }
  // Remove `line` from istream's L1 and L2 (it must be in L2). Does not touch the
  // directory.
  void drop_private(unsigned istream, uint64_t line);
  // Make istream's copy of `line` read-only (in L2 and, if present, L1).
  void demote_private(unsigned istream, uint64_t line);
  // Set the state of istream's L2 copy (and L1 copy if present).
  void set_private_state(unsigned istream, uint64_t line, uint8_t st);
  // Put `line` in istream's L1 (it is in its L2), evicting as needed.
  void fill_l1(unsigned istream, uint64_t line, uint8_t st);
  // Put `line` in istream's L2 and L1 (it is in L3 way z), evicting as needed.
  void fill_private(unsigned istream, uint64_t line, uint8_t st, uint64_t z);
  // Allocate `line` in the L3 (back-invalidating the victim's holders); returns its index.
  uint64_t fill_l3(uint64_t line);
  // Remove every copy in `mask` (other I-streams) for a store; returns how many.
  unsigned invalidate_others(uint64_t mask, uint64_t line);
  uint32_t lookup(unsigned istream, uint64_t line, AccessKind kind);  // access() without the split
  uint32_t miss(unsigned istream, uint64_t line, AccessKind kind);
  // An ownership change of L3 way z costing `cost`: waits for the line's previous
  // change (if serialization is on) and marks the line busy until this one is done.
  uint32_t owner_change(unsigned istream, uint64_t z, uint32_t cost);
  // A store to a line istream holds read-only (in L2 way y; in_l1: in its L1 too).
  uint32_t upgrade(unsigned istream, uint64_t line, uint64_t y, bool in_l1);

  std::vector<Private> priv_;
  Level l3_;  // state: 1 when the single holder holds the line exclusive
  LineAlignedArray<DirEntry> dir_;  // by L3 way
  uint32_t c_l2_, c_l3_, c_mem_, c_xfer_, c_inval_;
  bool serialize_ = true;
  uint64_t now_ = 0;  // the requester's clock during access()
  uint64_t coherence_ = 0;  // the coherence part of the cycles of the access in progress
  uint64_t line_transfers_ = 0, invalidations_ = 0, back_invalidations_ = 0;
  CacheListener* listener_ = nullptr;
};

}  // namespace emu
