// The cache hierarchy and coherence model; the rules are in cache.h.
#include "emu/cache.h"

#include <bit>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace emu {

namespace {

inline uint64_t bit(unsigned istream) { return uint64_t(1) << istream; }

uint32_t extra(unsigned latency, unsigned l1, const char* name) {
  if (latency < l1)
    throw std::invalid_argument(std::string("cache model: ") + name + " latency is below the L1 latency");
  return latency - l1;
}

}  // namespace

void MemoryHierarchy::Level::init(const CacheLevelConfig& c, const char* name) {
  ways = c.ways;
  sets = ways ? c.size / (uint64_t(kLineSize) * ways) : 0;
  if (sets == 0)
    throw std::invalid_argument(std::string("cache model: ") + name +
                                " has no sets (size must be at least ways x 256 bytes)");
  pow2 = (sets & (sets - 1)) == 0;
  set_mask = sets - 1;
  ways_pow2 = (ways & (ways - 1)) == 0;
  way_shift = unsigned(std::countr_zero(ways));
  tags.assign(sets * ways, kInvalid);
  lru.init(sets, ways);
}

MemoryHierarchy::MemoryHierarchy(const MachineConfig& config) {
  if (config.istreams == 0 || config.istreams > kMaxIStreams)
    throw std::invalid_argument("cache model: istreams must be 1 to 64");
  const unsigned l1 = config.l1.latency;
  c_l2_ = extra(config.l2.latency, l1, "L2");
  c_l3_ = extra(config.l3.latency, l1, "L3");
  c_mem_ = extra(config.memory_latency, l1, "memory");
  c_xfer_ = extra(config.transfer_latency, l1, "transfer");
  c_inval_ = config.invalidate_latency;
  serialize_ = config.serialize_lines;
  priv_.resize(config.istreams);
  for (auto& p : priv_) {
    p.l1.init(config.l1, "L1");
    p.l2.init(config.l2, "L2");
  }
  l3_.init(config.l3, "L3");
  if (l3_.sets * l3_.ways > (uint64_t(1) << 32))
    throw std::invalid_argument("cache model: the L3 has more than 2^32 lines");
  for (auto& p : priv_) p.l3_way.assign(p.l2.sets * p.l2.ways, 0);
  dir_.assign(l3_.sets * l3_.ways, DirEntry{});
}

void MemoryHierarchy::reset_stats() {
  for (auto& p : priv_) p.stats = IStreamStats{};
  line_transfers_ = invalidations_ = back_invalidations_ = 0;
}

uint32_t MemoryHierarchy::owner_change(unsigned istream, uint64_t z, uint32_t cost) {
  if (!serialize_ || now_ == kNoTime) return cost;
  uint64_t& ready = dir_[z].ready;
  const uint64_t start = ready > now_ ? ready : now_;
  const uint64_t wait = start - now_;
  ready = start + cost;
  if (wait) {
    ++priv_[istream].stats.queued;
    priv_[istream].stats.queued_cycles += wait;
    coherence_ += wait;
  }
  return uint32_t(wait > 0xFFFFFFFFu - cost ? 0xFFFFFFFFu : wait + cost);
}

uint32_t MemoryHierarchy::lookup(unsigned istream, uint64_t line, AccessKind kind) {
  Private& p = priv_[istream];
  const bool store = kind == AccessKind::Store;
  if (store)
    ++p.stats.stores;
  else
    ++p.stats.loads;

  const int64_t x = p.l1.find(line);
  if (x >= 0) {
    p.l1.touch(uint64_t(x));
    const uint8_t st = p.l1.state(uint64_t(x));
    if (!store || st == kM) {
      ++p.stats.l1_hits;
      return 0;
    }
    if (st == kE) {  // first store to an exclusive line: only mark it modified
      p.l1.set_state(uint64_t(x), kM);
      p.l2.set_state(uint64_t(p.l2.find(line)), kM);
      ++p.stats.l1_hits;
      return 0;
    }
    return upgrade(istream, line, uint64_t(p.l2.find(line)), true);
  }

  // Past the L1 the L3's set is likely needed (on an L2 miss, which the miss-heavy
  // workloads take most of the time): its host lines load while the L2 is searched.
  l3_.prefetch(line);
  const int64_t y = p.l2.find(line);
  if (y >= 0) {
    p.l2.touch(uint64_t(y));
    uint8_t st = p.l2.state(uint64_t(y));
    if (!store || st != kS) {
      if (store) p.l2.set_state(uint64_t(y), st = kM);
      fill_l1(istream, line, st);
      ++p.stats.l2_hits;
      return c_l2_;
    }
    return upgrade(istream, line, uint64_t(y), false);
  }
  return miss(istream, line, kind);
}

uint32_t MemoryHierarchy::upgrade(unsigned istream, uint64_t line, uint64_t y, bool in_l1) {
  Private& p = priv_[istream];
  const uint64_t z = p.l3_way[y];
  l3_.touch(z);
  uint32_t cost = c_l3_;
  const uint64_t others = dir_[z].mask & ~bit(istream);
  if (others) {
    p.stats.invalidations_sent += invalidate_others(others, line);
    coherence_ += c_inval_;
    cost = owner_change(istream, z, cost + c_inval_);
  }
  dir_[z].mask = bit(istream);
  l3_.set_state(z, 1);
  set_private_state(istream, line, kM);
  if (!in_l1) fill_l1(istream, line, kM);
  ++p.stats.upgrades;
  return cost;
}

uint32_t MemoryHierarchy::miss(unsigned istream, uint64_t line, AccessKind kind) {
  Private& p = priv_[istream];
  const bool store = kind == AccessKind::Store;
  const uint64_t me = bit(istream);
  uint32_t cost;
  uint8_t st;
  const int64_t zi = l3_.find(line);
  const uint64_t z = zi < 0 ? fill_l3(line) : uint64_t(zi);
  if (zi < 0) {
    dir_[z].mask = me;
    l3_.set_state(z, 1);
    cost = c_mem_;
    st = store ? kM : kE;
    ++p.stats.memory;
  } else {
    l3_.touch(z);
    const uint64_t others = dir_[z].mask;  // `me` is not in it: the line is not in my L2
    if (l3_.state(z)) {  // one other I-stream holds it exclusive
      const unsigned owner = unsigned(std::countr_zero(others));
      const Level& ol2 = priv_[owner].l2;
      const bool modified = ol2.state(uint64_t(ol2.find(line))) == kM;
      if (modified) {  // the data is in the owner's cache: a line transfer
        cost = c_xfer_;
        coherence_ += c_xfer_;
        ++p.stats.transfers_in;
        ++line_transfers_;
      } else {  // the L3 copy is current; the owner only changes state
        cost = c_l3_;
        ++p.stats.l3_hits;
      }
      if (store) {
        drop_private(owner, line);
        if (!modified) {
          cost += c_inval_;
          coherence_ += c_inval_;
          ++p.stats.invalidations_sent;
          ++invalidations_;
        }
        dir_[z].mask = me;
        st = kM;
      }
      if (store || modified) cost = owner_change(istream, z, cost);
      if (!store) {
        demote_private(owner, line);
        dir_[z].mask = others | me;
        l3_.set_state(z, 0);
        st = kS;
      }
    } else {
      cost = c_l3_;
      ++p.stats.l3_hits;
      if (others == 0) {  // nobody else has it: granted exclusive
        dir_[z].mask = me;
        l3_.set_state(z, 1);
        st = store ? kM : kE;
      } else if (store) {
        p.stats.invalidations_sent += invalidate_others(others, line);
        coherence_ += c_inval_;
        cost = owner_change(istream, z, cost + c_inval_);
        dir_[z].mask = me;
        l3_.set_state(z, 1);
        st = kM;
      } else {
        dir_[z].mask = others | me;
        st = kS;
      }
    }
  }
  fill_private(istream, line, st, z);
  return cost;
}

unsigned MemoryHierarchy::invalidate_others(uint64_t mask, uint64_t line) {
  unsigned n = 0;
  for (uint64_t m = mask; m; m &= m - 1) {
    drop_private(unsigned(std::countr_zero(m)), line);
    ++n;
  }
  invalidations_ += n;
  return n;
}

void MemoryHierarchy::drop_private(unsigned istream, uint64_t line) {
  Private& p = priv_[istream];
  const int64_t x = p.l1.find(line);
  if (x >= 0) {
    p.l1.invalidate(uint64_t(x));
    notify(istream, line);
  }
  const int64_t y = p.l2.find(line);
  if (y >= 0) p.l2.invalidate(uint64_t(y));
}

void MemoryHierarchy::demote_private(unsigned istream, uint64_t line) {
  Private& p = priv_[istream];
  p.l2.set_state(uint64_t(p.l2.find(line)), kS);
  const int64_t x = p.l1.find(line);
  if (x >= 0) {
    p.l1.set_state(uint64_t(x), kS);
    notify(istream, line);
  }
}

void MemoryHierarchy::set_private_state(unsigned istream, uint64_t line, uint8_t st) {
  Private& p = priv_[istream];
  p.l2.set_state(uint64_t(p.l2.find(line)), st);
  const int64_t x = p.l1.find(line);
  if (x >= 0) p.l1.set_state(uint64_t(x), st);
}

void MemoryHierarchy::fill_l1(unsigned istream, uint64_t line, uint8_t st) {
  Level& l1 = priv_[istream].l1;
  const uint64_t x = l1.victim(line);
  const uint64_t v = l1.tag(x);
  l1.put(x, line, st);
  if (v != kInvalid) notify(istream, v);  // still in the L2, with the same state
}

void MemoryHierarchy::fill_private(unsigned istream, uint64_t line, uint8_t st, uint64_t z_line) {
  Private& p = priv_[istream];
  const uint64_t y = p.l2.victim(line);
  const uint64_t v = p.l2.tag(y);
  if (v != kInvalid) {
    const int64_t x = p.l1.find(v);
    if (x >= 0) {
      p.l1.invalidate(uint64_t(x));
      notify(istream, v);
    }
    const uint64_t z = p.l3_way[y];
    dir_[z].mask &= ~bit(istream);
    if (p.l2.state(y) != kS) l3_.set_state(z, 0);  // the exclusive holder left (write-back if M)
  }
  p.l2.put(y, line, st);
  p.l3_way[y] = uint32_t(z_line);
  fill_l1(istream, line, st);
}

uint64_t MemoryHierarchy::fill_l3(uint64_t line) {
  const uint64_t z = l3_.victim(line);
  const uint64_t v = l3_.tag(z);
  if (v != kInvalid) {
    for (uint64_t m = dir_[z].mask; m; m &= m - 1) {
      drop_private(unsigned(std::countr_zero(m)), v);
      ++back_invalidations_;
    }
  }
  l3_.put(z, line, 0);
  dir_[z].mask = 0;
  dir_[z].ready = 0;
  return z;
}

bool MemoryHierarchy::holds(unsigned istream, uint64_t line, AccessKind kind) const {
  const Level& l1 = priv_[istream].l1;
  const int64_t x = l1.find(line);
  if (x < 0) return false;
  return kind == AccessKind::Load || l1.state(uint64_t(x)) == kM;
}

bool MemoryHierarchy::in_l1(unsigned istream, uint64_t line) const {
  return priv_[istream].l1.find(line) >= 0;
}
bool MemoryHierarchy::in_l2(unsigned istream, uint64_t line) const {
  return priv_[istream].l2.find(line) >= 0;
}
bool MemoryHierarchy::in_l3(uint64_t line) const { return l3_.find(line) >= 0; }
uint64_t MemoryHierarchy::sharers(uint64_t line) const {
  const int64_t z = l3_.find(line);
  return z < 0 ? 0 : dir_[uint64_t(z)].mask;
}

std::string MemoryHierarchy::check_invariants() const {
  auto hex = [](uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return std::string(buf);
  };
  std::string err;
  auto fail = [&](const std::string& e) {
    if (err.empty()) err = e;
  };
  auto placement = [&](const Level& lv, const std::string& name) {
    lv.for_each_valid([&](uint64_t s, uint64_t way) {
      const uint64_t t = lv.tag(way);
      if (lv.set_of(t) != s) fail(name + ": line " + hex(t) + " in the wrong set");
      if (lv.find(t) != int64_t(way)) fail(name + ": line " + hex(t) + " twice in its set");
    });
  };
  placement(l3_, "L3");
  for (unsigned i = 0; i < priv_.size(); ++i) {
    const Private& p = priv_[i];
    const std::string who = "I-stream " + std::to_string(i);
    placement(p.l1, who + " L1");
    placement(p.l2, who + " L2");
    p.l1.for_each_valid([&](uint64_t, uint64_t x) {
      const uint64_t t = p.l1.tag(x);
      const int64_t y = p.l2.find(t);
      if (y < 0)
        fail(who + ": line " + hex(t) + " in L1 but not in L2");
      else if (p.l2.state(uint64_t(y)) != p.l1.state(x))
        fail(who + ": line " + hex(t) + " L1/L2 states differ");
    });
    p.l2.for_each_valid([&](uint64_t, uint64_t y) {
      const uint64_t t = p.l2.tag(y);
      const uint8_t st = p.l2.state(y);
      const int64_t z = l3_.find(t);
      if (st != kS && st != kE && st != kM)
        fail(who + ": line " + hex(t) + " bad state");
      else if (z < 0)
        fail(who + ": line " + hex(t) + " in L2 but not in L3");
      else if (p.l3_way[y] != uint64_t(z))
        fail(who + ": line " + hex(t) + " has a stale L3 way");
      else if (!(dir_[uint64_t(z)].mask & bit(i)))
        fail(who + ": line " + hex(t) + " missing from the directory");
      else if (st != kS && (!l3_.state(uint64_t(z)) || dir_[uint64_t(z)].mask != bit(i)))
        fail(who + ": line " + hex(t) + " exclusive but the directory disagrees");
      else if (st == kS && l3_.state(uint64_t(z)))
        fail(who + ": line " + hex(t) + " read-only but the directory says exclusive");
    });
  }
  l3_.for_each_valid([&](uint64_t, uint64_t z) {
    const uint64_t t = l3_.tag(z);
    const uint64_t m = dir_[z].mask;
    if (priv_.size() < 64 && (m >> priv_.size())) fail("L3: line " + hex(t) + " has sharers beyond the I-streams");
    if (l3_.state(z) && std::popcount(m) != 1)
      fail("L3: line " + hex(t) + " exclusive with " + std::to_string(std::popcount(m)) + " holders");
    for (uint64_t r = m; r; r &= r - 1)
      if (priv_[std::countr_zero(r)].l2.find(t) < 0)
        fail("L3: line " + hex(t) + " directory names I-stream " + std::to_string(std::countr_zero(r)) +
             " which does not hold it");
  });
  return err;
}

}  // namespace emu
