// The steal order without the walk (issue 44). z/OS's unreferenced interval count (UIC)
// as the walk kept it: at every aging pass each resident page the walk visits goes back
// to 0 if its reference bit was set (the bit is reset), else up by one if the pass is a
// tick (once a system.paging.uic_interval); a page the walk does not visit (out, unmapped,
// fixed) keeps its count. A pass steals the pages of highest count first (ties: process,
// then address).
//
// Walking every resident page to do that costs all of real storage a pass (4 million
// pages at full size, every millisecond). Here a page the walk would visit keeps, instead
// of its count, the tick at which its count was last 0 (`since`): its count is the ticks
// since, so a pass need only visit the pages whose bit was set or whose place in the walk
// changed (the machine logs those: Storage's reference log, AddressSpace's page log), and
// the candidates are kept in steal order (`since`, then process and address) in one
// ordered set, read from its start. Visiting a page the walk would have left unchanged
// changes nothing, so a spurious visit is harmless; a missed one is not.
#pragma once
#include <cstdint>
#include <set>
#include <tuple>

namespace paging {

struct AgingKey {  // a page in the steal order
  int64_t since;   // the tick at which its count was last 0: oldest first
  uint64_t pid, va;
  uint8_t kind;    // the caller's kind of page (4 KB, 1 MB, PLPA), for pages at one address
  friend bool operator<(const AgingKey& a, const AgingKey& b) {
    return std::tie(a.since, a.pid, a.va, a.kind) < std::tie(b.since, b.pid, b.va, b.kind);
  }
};

// A page's count, kept in its record: explicit while the walk does not visit the page,
// as `since` while it does (then the page is in the index's order).
struct AgingState {
  uint32_t uic = 0;
  bool aging = false;
  int64_t since = 0;
};

class AgingIndex {
 public:
  // A pass begins: its visits come next (visit, leave), then end_visits.
  void start_pass(bool tick) { ticks_ += tick, tick_ = tick, visiting_ = true; }
  void end_visits() { visiting_ = false; }
  uint64_t ticks() const { return ticks_; }

  // The page's count: as of the last pass (during a pass's visits: before this pass).
  uint32_t uic(const AgingState& s) const {
    return s.aging ? uint32_t(int64_t(ticks_) - (visiting_ ? int64_t(tick_) : 0) - s.since) : s.uic;
  }
  // The walk's visit of a resident page (a candidate): its count is 0 if `referenced`,
  // else one more if this pass is a tick.
  void visit(AgingState& s, uint64_t pid, uint64_t va, uint8_t kind, bool referenced) {
    const uint32_t uic = referenced ? 0 : this->uic(s) + uint32_t(tick_);
    const int64_t since = int64_t(ticks_) - int64_t(uic);
    if (s.aging && s.since == since) return;
    if (s.aging) order_.erase({s.since, pid, va, kind});
    order_.insert({since, pid, va, kind});
    s.aging = true, s.since = since;
  }
  // The page is no longer one the walk visits (during a pass's visits: not at this pass;
  // after them: taken by this pass): its count stays as it is.
  void leave(AgingState& s, uint64_t pid, uint64_t va, uint8_t kind) {
    if (!s.aging) return;
    s.uic = uic(s);
    order_.erase({s.since, pid, va, kind});
    s.aging = false;
  }
  // A count set by the caller for a page the walk does not visit now (one coming back,
  // a demoted 1 MB page's 4 KB pages).
  void set(AgingState& s, uint64_t pid, uint64_t va, uint8_t kind, uint32_t uic) {
    leave(s, pid, va, kind);
    s.uic = uic;
  }
  // The steal order: the candidate after `k` (the first with nullptr), or nullptr. Reading
  // by key, so pages leaving the order meanwhile (taken) do not disturb the reading.
  const AgingKey* next(const AgingKey* k) const {
    auto it = k ? order_.upper_bound(*k) : order_.begin();
    return it == order_.end() ? nullptr : &*it;
  }
  size_t size() const { return order_.size(); }
  // The count of a page in the order, from its key.
  uint32_t uic(const AgingKey& k) const { return uint32_t(int64_t(ticks_) - k.since); }

 private:
  uint64_t ticks_ = 0;
  bool tick_ = false, visiting_ = false;
  std::set<AgingKey> order_;
};

}  // namespace paging
