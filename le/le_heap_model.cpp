#include "le/le_heap_model.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "le/guest/e4_requests.h"

namespace le {

HeapModel::HeapModel(const HeapOptions& o) : o_(o) {
  c_.init_size = leheap_segment_option(o.init);
  c_.incr_size = leheap_segment_option(o.incr);
  add_segment(c_.init_size);
  note_high_water();
}

HeapModel::Segment& HeapModel::add_segment(uint32_t length) {
  auto s = std::make_unique<Segment>();
  s->number = uint32_t(++c_.segs_alloc);
  s->length = length;
  s->pos = chain_.size();
  add_free(*s, LEHEAP_SEG_HEADER, length - LEHEAP_SEG_HEADER);
  Segment& r = *s;
  chain_.push_back(&r);
  largest_.push_back(r.largest());
  segments_[r.number] = std::move(s);
  return r;
}

void HeapModel::add_free(Segment& s, uint32_t off, uint32_t len) {
  s.free[off] = len;
  s.by_length.insert({len, off});
}

void HeapModel::remove_free(Segment& s, uint32_t off) {
  auto it = s.free.find(off);
  s.by_length.erase({it->second, off});
  s.free.erase(it);
}

void HeapModel::note_high_water() {
  c_.total_used = std::max(c_.total_used, c_.in_use + uint64_t(LEHEAP_SEG_HEADER) * (c_.segs_alloc - c_.segs_freed));
}

std::optional<Place> HeapModel::get(uint32_t n) {
  if (n == 0 || n > LEHEAP_MAX_REQUEST) {
    ++c_.get_failures;
    return std::nullopt;
  }
  const uint32_t need = leheap_element_length(n);
  // The first segment in chain order with a free element that fits.
  auto at = std::find_if(largest_.begin(), largest_.end(), [&](uint32_t l) { return l >= need; });
  Segment& s = at != largest_.end() ? *chain_[size_t(at - largest_.begin())]
                                    : add_segment(leheap_new_segment_length(need, c_.incr_size));
  // Inside it: the lowest-addressed element that fits, or the shortest (lowest address
  // among equals: the set orders (length, offset)).
  uint32_t off = 0, len = 0;
  if (o_.fit == LEHEAP_BEST_FIT) {
    auto b = s.by_length.lower_bound({need, 0});
    len = b->first, off = b->second;
  } else {
    auto f = std::find_if(s.free.begin(), s.free.end(), [&](const auto& e) { return e.second >= need; });
    off = f->first, len = f->second;
  }
  remove_free(s, off);
  // The low part is the element; a remainder too small to be a free element goes with it.
  if (len - need >= LEHEAP_MIN_ELEMENT) {
    add_free(s, off + need, len - need);
    len = need;
  }
  s.used[off] = len;
  s.in_use += len;
  largest_[s.pos] = s.largest();
  c_.in_use += len;
  ++c_.gets;
  note_high_water();
  return Place{s.number, off + LEHEAP_PREFIX};
}

int HeapModel::free(Place p) {
  auto sit = segments_.find(p.segment);
  if (sit == segments_.end() || p.offset < LEHEAP_SEG_HEADER + LEHEAP_PREFIX) {
    ++c_.errors;
    return LEHEAP_ERR_PREFIX;
  }
  Segment& s = *sit->second;
  const uint32_t off = p.offset - LEHEAP_PREFIX;
  auto u = s.used.find(off);
  if (u == s.used.end()) {
    ++c_.errors;
    if (off >= s.length) return LEHEAP_ERR_RANGE;
    // Inside a free element: freed already.
    auto f = s.free.upper_bound(off);
    if (f != s.free.begin() && std::prev(f)->first + std::prev(f)->second > off) return LEHEAP_ERR_DOUBLE_FREE;
    return LEHEAP_ERR_PREFIX;
  }
  uint32_t start = off, len = u->second;
  s.used.erase(u);
  s.in_use -= len;
  c_.in_use -= len;
  ++c_.frees;
  // Coalesce with the free elements that touch it on either side.
  auto next = s.free.find(off + len);
  if (next != s.free.end()) {
    const uint32_t nlen = next->second;
    remove_free(s, off + len);
    len += nlen;
  }
  auto after = s.free.upper_bound(off);
  if (after != s.free.begin()) {
    auto prev = std::prev(after);
    if (prev->first + prev->second == off) {
      start = prev->first;
      len += prev->second;
      remove_free(s, start);
    }
  }
  add_free(s, start, len);
  largest_[s.pos] = s.largest();
  if (s.in_use == 0 && s.number != 1 && o_.disposition == LEHEAP_FREE) {
    const size_t pos = s.pos;
    chain_.erase(chain_.begin() + ptrdiff_t(pos));
    largest_.erase(largest_.begin() + ptrdiff_t(pos));
    for (size_t i = pos; i < chain_.size(); ++i) chain_[i]->pos = i;
    segments_.erase(sit);
    ++c_.segs_freed;
  }
  return LEHEAP_OK;
}

std::vector<uint32_t> HeapModel::chain() const {
  std::vector<uint32_t> r;
  for (const Segment* s : chain_) r.push_back(s->number);
  return r;
}

std::map<uint32_t, uint32_t> HeapModel::free_elements(uint32_t segment) const {
  auto it = segments_.find(segment);
  return it == segments_.end() ? std::map<uint32_t, uint32_t>{} : it->second->free;
}

PoolsHeapModel::PoolsHeapModel(const HeapOptions& h, const PoolsOptions& p) : heap_(h), on_(p.on) {
  if (!on_) return;
  for (auto [cell, percent] : p.pools) {
    PoolCounters pc;
    pc.cell_size = cell;
    pc.percent = percent;
    pc.element_size = cell + LEPOOLS_PREFIX;
    pc.cells_per_extent = lepools_cells_per_extent(h.init, percent, pc.element_size);
    c_.pools.push_back(pc);
  }
  pools_.resize(c_.pools.size());
}

std::optional<Place> PoolsHeapModel::get(uint32_t n) {
  if (!on_ || c_.pools.empty() || n == 0 || n > c_.pools.back().cell_size) {
    if (on_ && n) ++c_.big_requests;
    return heap_.get(n);
  }
  size_t i = 0;
  while (c_.pools[i].cell_size < n) ++i;
  PoolCounters& pc = c_.pools[i];
  Pool& pool = pools_[i];
  Place cell;
  if (!pool.free.empty()) {
    cell = pool.free.back();
    pool.free.pop_back();
  } else {
    if (pool.carve_left == 0) {
      auto x = heap_.get(pc.cells_per_extent * pc.element_size);
      if (!x) {
        ++c_.extent_failures;
        return std::nullopt;
      }
      pool.carve = *x;  // the element's bytes: the first cell's prefix
      pool.carve_left = pc.cells_per_extent;
      ++pc.extents;
    }
    cell = Place{pool.carve.segment, pool.carve.offset + LEPOOLS_PREFIX};
    pool.carve.offset += pc.element_size;
    --pool.carve_left;
  }
  cells_[key(cell)] = {uint32_t(i), true};
  ++pc.gets;
  pc.max_used = std::max(pc.max_used, ++pc.in_use);
  return cell;
}

void PoolsHeapModel::free(Place p) {
  auto it = cells_.find(key(p));
  if (it == cells_.end()) {
    heap_.free(p);
    return;
  }
  if (!it->second.second) {
    ++c_.errors;
    return;
  }
  it->second.second = false;
  PoolCounters& pc = c_.pools[it->second.first];
  pools_[it->second.first].free.push_back(p);
  --pc.in_use;
  ++pc.frees;
}

namespace {

// A handle for e4_run: the place, segment number high, offset low (0: a failed get).
struct E4Context {
  PoolsHeapModel heap;
  uint64_t placement = E4_PLACEMENT_INIT;
};

uint64_t e4_get(void* ctx, uint32_t bytes) {
  auto& c = *static_cast<E4Context*>(ctx);
  auto p = c.heap.get(bytes);
  if (!p) return 0;
  c.placement = e4_placement(c.placement, p->segment, p->offset);
  return uint64_t(p->segment) << 32 | p->offset;
}

void e4_free(void* ctx, uint64_t handle) {
  if (handle) static_cast<E4Context*>(ctx)->heap.free(Place{uint32_t(handle >> 32), uint32_t(handle)});
}

}  // namespace

E4Result run_e4(char sequence, uint32_t n, const HeapOptions& o, const PoolsOptions& p) {
  E4Context ctx{PoolsHeapModel(o, p)};
  std::vector<uint64_t> slots(n);
  std::vector<uint32_t> order(n);
  e4_run(sequence, n, slots.data(), order.data(), e4_get, e4_free, &ctx);
  return {ctx.heap.heap().counters(), ctx.heap.pools(), ctx.placement};
}

std::string e4_report(char sequence, uint32_t n, const HeapOptions& o, const HeapCounters& c,
                      const uint64_t* placement, const PoolsCounters* pools) {
  std::string r = fmt::format(
      "sequence={}\nrequests={}\ninit_size={}\nincr_size={}\ndisposition={}\nfit={}\n"
      "get_requests={}\nfree_requests={}\nsegments_allocated={}\nsegments_freed={}\n"
      "total_heap_used={}\nbytes_in_use={}\nerrors={}\nget_failures={}\n",
      sequence, n, c.init_size, c.incr_size, o.disposition == LEHEAP_FREE ? "FREE" : "KEEP",
      o.fit == LEHEAP_BEST_FIT ? "BEST" : "FIRST", c.gets, c.frees, c.segs_alloc, c.segs_freed, c.total_used,
      c.in_use, c.errors, c.get_failures);
  if (placement) r += fmt::format("placement={:016x}\n", *placement);
  if (pools) {
    r += fmt::format("pools={}\nbig_requests={}\npool_errors={}\nextent_failures={}\n", pools->pools.size(),
                     pools->big_requests, pools->errors, pools->extent_failures);
    for (size_t i = 0; i < pools->pools.size(); ++i) {
      const PoolCounters& q = pools->pools[i];
      r += fmt::format("pool{}={} {} {} {} gets={} frees={} extents={} max_used={} in_use={}\n", i + 1, q.cell_size,
                       q.percent, q.element_size, q.cells_per_extent, q.gets, q.frees, q.extents, q.max_used, q.in_use);
    }
  }
  return r;
}

}  // namespace le
