#include "emu/address_space.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace emu {

namespace {
uint64_t next_serial = 1;  // only compared for equality, so its values never reach a report
}

AddressSpace::AddressSpace(Storage& storage, uint64_t limit)
    : storage_(storage), limit_(limit), serial_(next_serial++) {}

// The frames go back in address order: the free lists hand them out again last in,
// first out, so this order decides which frames (and so which cache sets) the next
// spaces get; the hash table's order would make that the library's choice.
AddressSpace::~AddressSpace() {
  // Its ASCE is given up: every entry it formed leaves every TLB (the common entries
  // stay: the other spaces map those pages alike).
  if (!never_loaded_)
    for (TlbPurgeListener* t : storage_.tlbs()) t->purge_space(serial_);
  for (uint64_t vseg : sorted_segments()) {
    Segment& s = *segments_.at(vseg);
    if (s.large) {
      if (s.page[0].owned) storage_.free_1m(s.page[0].frame);
      continue;
    }
    for (unsigned k = 0; s.owned_pages && k < kPagesPerSegment; ++k)
      if (s.page[k].frame && s.page[k].owned) storage_.free_4k(s.page[k].frame), --s.owned_pages;
  }
}

// A valid page becomes invalid: purged from the TLBs, its frame returned if owned.
void AddressSpace::release(Segment& s, uint64_t vseg, unsigned k) {
  if (!s.page[k].frame) return;
  purge_page(s, vseg, k);
  if (s.page[k].owned) storage_.free_4k(s.page[k].frame), --s.owned_pages;
  s.page[k] = PageEntry{};
  log_page((vseg * kPagesPerSegment + k) * kPageSize);
}

// IPTE: the page's entry leaves every I-stream's TLB (and with it their host-side
// shortcuts to the page).
void AddressSpace::purge_page(const Segment& s, uint64_t vseg, unsigned k) {
  if (never_loaded_) return;
  forget_code_running_into(vseg * kPagesPerSegment + k);
  const uint64_t tag = s.page[k].common ? TlbModel::kCommon : serial_;
  for (TlbPurgeListener* t : storage_.tlbs()) t->purge_page(tag, vseg * kPagesPerSegment + k);
}

// IDTE of a segment: its 1 MB entry and any 4 KB entries formed in it.
void AddressSpace::purge_segment(const Segment& s, uint64_t vseg) {
  if (never_loaded_) return;
  forget_code_running_into(vseg * kPagesPerSegment);
  const uint64_t tag = s.page[0].common ? TlbModel::kCommon : serial_;
  for (TlbPurgeListener* t : storage_.tlbs()) t->purge_segment(tag, vseg);
}

// With IEP the CPU checks a page's rights when it enters it; an instruction decoded on
// the page before that runs into this one was fetched from it without that entry, so it
// must be fetched (and checked) again. Such instructions start in the last 3 slots.
void AddressSpace::forget_code_running_into(uint64_t vpage) {
  if (!execute_protection_ || vpage == 0) return;
  const uint64_t prev = vpage - 1;
  auto it = segments_.find(prev / kPagesPerSegment);
  if (it == segments_.end()) return;
  const uint64_t number = it->second->page[prev % kPagesPerSegment].frame;
  const Frame* f = number ? storage_.touched_frame(number) : nullptr;
  if (!f || !f->code) return;
  constexpr unsigned kSlots = kPageSize / 2;
  for (unsigned k = kSlots - 3; k < kSlots; ++k) {
    Insn& in = f->code->slot[k];
    if (in.fn && 2 * k + in.len > kPageSize) in = Insn{};
  }
}

bool AddressSpace::copy_into(AddressSpace& child) {
  child.reserved_ = reserved_;
  child.execute_protection_ = execute_protection_;
  for (uint64_t vseg : sorted_segments())
    if (!copy_segment_into(child, vseg, segments_.at(vseg))) return false;
  return true;
}

bool AddressSpace::copy_segment_into(AddressSpace& child, uint64_t vseg, const std::shared_ptr<Segment>& from) {
  const Segment& s = *from;
  const uint64_t base = vseg * kSegmentSize;
  if (!s.owned_pages) {  // nothing of its own: both map the same frames, one table until either changes it
    child.segments_.emplace(vseg, from), child.sorted_valid_ = false;
    return true;
  }
  if (s.large) {
    child.map_large(base, kSegmentSize, s.page[0].prot);
    for (unsigned k = 0; k < kPagesPerSegment; ++k) {
      if (!child.map(base + k * kPageSize, kPageSize, s.page[k].prot)) return false;  // rights per page
      copy_frame(s.page[k].frame, base + k * kPageSize, child);
    }
    return true;
  }
  for (unsigned k = 0; k < kPagesPerSegment; ++k) {
    if (!s.page[k].frame) continue;
    const uint64_t va = base + k * kPageSize;
    if (!s.page[k].owned) {
      child.map_shared(va, s.page[k].frame, s.page[k].prot, s.page[k].common);
      continue;
    }
    if (!child.map(va, kPageSize, s.page[k].prot)) return false;
    copy_frame(s.page[k].frame, va, child);
  }
  return true;
}

// A frame never touched holds zeros, as the child's new frame does: it is not copied.
void AddressSpace::copy_frame(uint64_t from, uint64_t to_vaddr, AddressSpace& child) {
  const Frame* f = storage_.touched_frame(from);
  if (!f) return;
  Translation t;
  child.translate(to_vaddr, t);
  storage_.write_page(*t.frame, f->data.get());
  if (t.frame->code) *t.frame->code = DecodedPage{};  // a reused frame's decoded instructions are not these
  t.frame->set_changed(f->changed());
  if (f->referenced()) storage_.reference(*t.frame);
  else t.frame->clear_referenced();
}

AddressSpace::Segment& AddressSpace::segment(uint64_t vseg) {
  CachedSegment& c = cached(vseg);
  if (vseg == c.vseg && c.at->use_count() == 1) return **c.at;
  auto& s = segments_[vseg];
  if (!s) s = std::make_shared<Segment>(), sorted_valid_ = false;
  c.vseg = vseg, c.at = &s;
  return writable(s);
}

AddressSpace::Segment& AddressSpace::writable(std::shared_ptr<Segment>& s) {
  if (s.use_count() > 1) s = std::make_shared<Segment>(*s);
  return *s;
}

void AddressSpace::share_segments_of(const AddressSpace& from) {
  for (const auto& [vseg, seg] : from.segments_)
    if (seg->owned_pages || !segments_.emplace(vseg, seg).second)
      throw std::logic_error("share_segments_of: a segment that is owned, or already here");
  sorted_valid_ = false;
}

AddressSpace::Segment* AddressSpace::find_segment(uint64_t vseg) {
  CachedSegment& c = cached(vseg);
  if (vseg == c.vseg) return c.at->get();
  auto it = segments_.find(vseg);
  if (it == segments_.end()) return nullptr;
  c.vseg = vseg, c.at = &it->second;
  return it->second.get();
}

// Sorted again only after a segment came or went (every insertion and erasure of
// segments_ clears sorted_valid_): paging's aging walks a space of 16,000 segments every
// millisecond of simulated time at full size (issue 44). A copy, since callers may
// change the space while they walk it.
std::vector<uint64_t> AddressSpace::sorted_segments() const {
  if (!sorted_valid_) {
    sorted_.clear();
    sorted_.reserve(segments_.size());
    for (const auto& kv : segments_) sorted_.push_back(kv.first);
    std::sort(sorted_.begin(), sorted_.end());
    sorted_valid_ = true;
  }
  return sorted_;
}

bool AddressSpace::map(uint64_t addr, uint64_t len, uint8_t prot) {
  if (len == 0) return true;
  uint64_t purged_segment = ~0ull;  // a large segment losing a right is purged once, not per page
  for (uint64_t vp = addr / kPageSize; vp <= (addr + len - 1) / kPageSize; ++vp) {
    Segment& s = segment(vp / kPagesPerSegment);
    unsigned k = unsigned(vp % kPagesPerSegment);
    if (s.large) {
      if ((s.page[k].prot & ~prot) && purged_segment != vp / kPagesPerSegment)
        purge_segment(s, purged_segment = vp / kPagesPerSegment);
      s.page[k].prot = prot;
      log_page(vp / kPagesPerSegment * kSegmentSize + 1);
      continue;
    }
    if (!s.page[k].frame) {
      auto f = storage_.allocate_4k();
      if (!f) return false;
      s.page[k].frame = uint32_t(*f), s.page[k].owned = true, ++s.owned_pages;
      // A frame never touched is created zeroed when first used; a reused one is cleared.
      if (storage_.is_touched(*f)) storage_.clear(storage_.frame(*f));
    } else if (s.page[k].prot & ~prot) {
      purge_page(s, vp / kPagesPerSegment, k);  // it loses a right
    }
    s.page[k].prot = prot;
    log_page(vp * kPageSize);
  }
  return true;
}

void AddressSpace::reserve(uint64_t addr, uint64_t len, uint8_t prot, bool first_reference_faults) {
  if (len == 0) return;
  const uint64_t begin = addr & ~kPageMask;
  const uint64_t end = ((addr + len - 1) & ~kPageMask) + kPageSize;
  // The list stays short: a range reserved again (a thread's stack slot used again) is
  // not added twice, and one that continues the last (a heap growing 1 MB at a time)
  // extends it.
  for (const Reservation& r : reserved_)
    if (r.begin <= begin && end <= r.end && r.prot == prot && r.first_reference_faults == first_reference_faults)
      return;
  if (!reserved_.empty()) {
    Reservation& last = reserved_.back();
    if (last.end == begin && last.prot == prot && last.first_reference_faults == first_reference_faults) {
      last.end = end;
      return;
    }
  }
  reserved_.push_back({begin, end, prot, first_reference_faults});
}

const AddressSpace::Reservation* AddressSpace::reservation_of(uint64_t vaddr) const {
  for (const Reservation& r : reserved_)
    if (vaddr >= r.begin && vaddr < r.end) return &r;
  return nullptr;
}

bool AddressSpace::map_reserved(uint64_t vaddr, bool guest) {
  const Reservation* r = reservation_of(vaddr);
  if (!r || (guest && r->first_reference_faults)) return false;
  return map(vaddr & ~kPageMask, kPageSize, r->prot);
}

bool AddressSpace::is_first_reference(uint64_t vaddr) const {
  const Reservation* r = reservation_of(vaddr);
  if (!r || !r->first_reference_faults) return false;
  auto it = segments_.find(vaddr / kSegmentSize);
  return it == segments_.end() || !it->second->page[(vaddr / kPageSize) % kPagesPerSegment].frame;
}

bool AddressSpace::map_first_reference(uint64_t vaddr) {
  return is_first_reference(vaddr) && map_reserved(vaddr, false);
}

unsigned AddressSpace::map_large(uint64_t addr, uint64_t len, uint8_t prot) {
  unsigned large = 0;
  if (len == 0) return 0;
  for (uint64_t vs = addr / kSegmentSize; vs <= (addr + len - 1) / kSegmentSize; ++vs) {
    Segment& s = segment(vs);
    bool empty = !s.large && std::all_of(s.page.begin(), s.page.end(), [](const PageEntry& e) { return e.frame == 0; });
    auto first = empty ? storage_.allocate_1m() : std::nullopt;
    if (!first) {
      map(vs * kSegmentSize, kSegmentSize, prot);  // fall back to 4 KB frames
      continue;
    }
    s.large = true;
    s.owned_pages = 1;  // the 1 MB frame, through its first page
    for (unsigned k = 0; k < kPagesPerSegment; ++k) {
      // Touched lazily: a 1 MB page costs host memory as used.
      s.page[k] = PageEntry{.frame = uint32_t(*first + k), .prot = prot, .owned = k == 0};
      if (storage_.is_touched(*first + k)) storage_.clear(storage_.frame(*first + k));
    }
    log_page(vs * kSegmentSize + 1);
    ++large;
  }
  return large;
}

void AddressSpace::map_shared(uint64_t vaddr, uint64_t frame_number, uint8_t prot, bool common) {
  uint64_t vp = vaddr / kPageSize;
  Segment& s = segment(vp / kPagesPerSegment);
  unsigned k = unsigned(vp % kPagesPerSegment);
  // The same frame with the same or more rights and the same sharing: nothing to purge.
  if (!(s.page[k].frame == frame_number && !s.page[k].owned && !(s.page[k].prot & ~prot) && s.page[k].common == common))
    release(s, vp / kPagesPerSegment, k);
  s.page[k].frame = uint32_t(frame_number), s.page[k].prot = prot, s.page[k].common = common;
}

void AddressSpace::map_shared_segment(uint64_t vaddr, const std::array<uint64_t, kPagesPerSegment>& frames,
                                      uint8_t prot) {
  const uint64_t vseg = vaddr / kSegmentSize;
  unmap(vseg * kSegmentSize, kSegmentSize);
  Segment& s = segment(vseg);
  s.large = true;
  for (unsigned k = 0; k < kPagesPerSegment; ++k) s.page[k] = PageEntry{.frame = uint32_t(frames[k]), .prot = prot};
  log_page(vseg * kSegmentSize + 1);
}

// The reservations lose the range: what is left either side stays.
void AddressSpace::unreserve(uint64_t begin, uint64_t end) {
  if (reserved_.empty()) return;
  std::vector<Reservation> kept;
  for (const Reservation& r : reserved_) {
    if (r.begin < begin) kept.push_back({r.begin, std::min(r.end, begin), r.prot, r.first_reference_faults});
    if (r.end > end) kept.push_back({std::max(r.begin, end), r.end, r.prot, r.first_reference_faults});
  }
  reserved_ = std::move(kept);
}

void AddressSpace::discard(uint64_t addr, uint64_t len) {
  if (len == 0) return;
  const uint64_t first = addr / kPageSize, last = (addr + len - 1) / kPageSize;
  std::vector<Reservation> dropped;  // runs of pages of one right
  for (uint64_t vp = first; vp <= last; ++vp) {
    const uint64_t vseg = vp / kPagesPerSegment;
    auto it = segments_.find(vseg);
    if (it != segments_.end() && it->second->large) {
      discard_large(vseg, first, last);  // whole: reserved at once; in part: demoted
      it = segments_.find(vseg);
    }
    if (it == segments_.end()) {
      vp = (vseg + 1) * kPagesPerSegment - 1;
      continue;
    }
    const unsigned k = unsigned(vp % kPagesPerSegment);
    if (!it->second->page[k].frame || !it->second->page[k].owned) continue;
    Segment& s = writable(it->second);
    const uint8_t prot = s.page[k].prot;
    release(s, vseg, k);
    const uint64_t va = vp * kPageSize;
    if (!dropped.empty() && dropped.back().end == va && dropped.back().prot == prot) dropped.back().end += kPageSize;
    else dropped.push_back({va, va + kPageSize, prot});
  }
  for (const Reservation& r : dropped) unreserve(r.begin, r.end), reserved_.push_back(r);
}

void AddressSpace::discard_large(uint64_t vseg, uint64_t first, uint64_t last) {
  const Segment& s = *segments_.at(vseg);
  if (!s.page[0].owned) return;
  const uint64_t base = vseg * kSegmentSize, vp0 = vseg * kPagesPerSegment;
  const bool whole = first <= vp0 && last >= vp0 + kPagesPerSegment - 1;
  if (whole && std::all_of(s.page.begin(), s.page.end(), [&](const PageEntry& e) { return e.prot == s.page[0].prot; })) {
    const uint8_t prot = s.page[0].prot;
    unmap(base, kSegmentSize);
    reserve(base, kSegmentSize, prot);
    return;
  }
  demote(base);
}

void AddressSpace::unmap(uint64_t addr, uint64_t len) {
  if (len == 0) return;
  unreserve(addr & ~kPageMask, ((addr + len - 1) & ~kPageMask) + kPageSize);
  for (uint64_t vp = addr / kPageSize; vp <= (addr + len - 1) / kPageSize; ++vp) {
    auto it = segments_.find(vp / kPagesPerSegment);
    if (it == segments_.end()) continue;
    Segment& s = *it->second;
    if (s.large) {
      purge_segment(s, it->first);
      if (s.page[0].owned) storage_.free_1m(s.page[0].frame);
      log_page(it->first * kSegmentSize + 1);
      if (cached(it->first).vseg == it->first) cached(it->first) = CachedSegment{};
      segments_.erase(it), sorted_valid_ = false;
      vp = (vp / kPagesPerSegment + 1) * kPagesPerSegment - 1;
      continue;
    }
    const unsigned k = unsigned(vp % kPagesPerSegment);
    if (s.page[k].frame) release(writable(it->second), it->first, k);
  }
}

Translate AddressSpace::translate_number(uint64_t vaddr, Translation& out) {
  if (vaddr >= limit_) return Translate::OutOfRange;
  Segment* found = find_segment(vaddr / kSegmentSize);
  if (!found) {
    if (reserved_.empty() || !map_reserved(vaddr)) return Translate::NotPresent;
    found = find_segment(vaddr / kSegmentSize);
  }
  Segment& s = *found;
  PageEntry& e = s.page[(vaddr / kPageSize) % kPagesPerSegment];
  if (!e.frame && (reserved_.empty() || !map_reserved(vaddr))) return Translate::NotPresent;
  if (!e.resolved) resolve(e);
  out = Translation{nullptr, e.frame, e.prot, s.large, e.common};
  return Translate::Ok;
}

Translate AddressSpace::translate(uint64_t vaddr, Translation& out) {
  const Translate r = translate_number(vaddr, out);
  if (r == Translate::Ok) out.frame = &storage_.frame(out.number);
  return r;
}

bool AddressSpace::is_mapped(uint64_t vaddr) {
  Translation t;
  return translate(vaddr, t) == Translate::Ok;
}

bool AddressSpace::host_translate(uint64_t vaddr, Translation& t) {
  const Translate r = translate(vaddr, t);
  if (r == Translate::Ok) return true;
  if (r != Translate::NotPresent) return false;
  if (host_fault_ && host_fault_(vaddr) && translate(vaddr, t) == Translate::Ok) return true;  // paged out
  // A page whose first guest reference is to fault: a host access backs it silently.
  return !reserved_.empty() && map_reserved(vaddr, false) && translate(vaddr, t) == Translate::Ok;
}

bool AddressSpace::segment_referenced(uint64_t vaddr, bool& changed, bool reset) {
  auto it = segments_.find(vaddr / kSegmentSize);
  bool referenced = false;
  changed = false;
  if (it == segments_.end() || !it->second->large) return false;
  // The key bytes by frame number (a resolved entry's frame is touched: Storage::key is
  // its Frame's key), 256 contiguous bytes for a 1 MB frame, no Frame fetched.
  for (const PageEntry& e : it->second->page)
    if (e.resolved) {
      uint8_t& key = storage_.key(e.frame);
      referenced |= (key & kKeyReferenced) != 0, changed |= (key & kKeyChanged) != 0;
      if (reset && (key & kKeyReferenced)) key = uint8_t(key & ~kKeyReferenced);  // no store where none is set
    }
  return referenced;
}

bool AddressSpace::demote(uint64_t vaddr) {
  const uint64_t base = vaddr & ~(kSegmentSize - 1);
  auto it = segments_.find(base / kSegmentSize);
  if (it == segments_.end() || !it->second->large) return false;
  const uint8_t prot = it->second->page[0].prot;
  std::vector<uint8_t> data(kSegmentSize);
  read_bytes(base, data.data(), kSegmentSize);
  unmap(base, kSegmentSize);
  if (!map(base, kSegmentSize, prot)) return false;
  return write_bytes(base, data.data(), kSegmentSize);
}

uint8_t* AddressSpace::own_page_key(uint64_t vaddr) {
  auto it = segments_.find(vaddr / kSegmentSize);
  if (it == segments_.end() || it->second->large) return nullptr;
  PageEntry& e = it->second->page[(vaddr / kPageSize) % kPagesPerSegment];
  if (!e.frame || !e.owned) return nullptr;
  if (!e.resolved) resolve(e);
  return &storage_.key(e.frame);
}

uint64_t AddressSpace::own_frame(uint64_t vaddr, bool large) const {
  auto it = segments_.find(vaddr / kSegmentSize);
  if (it == segments_.end() || it->second->large != large) return 0;
  const PageEntry& e = it->second->page[large ? 0 : (vaddr / kPageSize) % kPagesPerSegment];
  return e.frame && e.owned ? e.frame : 0;
}

uint8_t AddressSpace::prot_of(uint64_t vaddr) {
  Translation t;
  return translate(vaddr, t) == Translate::Ok ? t.prot : 0;
}

bool AddressSpace::write_bytes(uint64_t addr, const void* src, uint64_t len) {
  auto* s = static_cast<const uint8_t*>(src);
  while (len) {
    Translation t;
    if (!host_translate(addr, t)) return false;
    uint64_t off = addr & kPageMask, n = std::min(len, kPageSize - off);
    storage_.note_store(*t.frame);
    std::memcpy(t.frame->data.get() + off, s, n);
    t.frame->set_changed(true), storage_.reference(*t.frame);
    // Host writes into text forget its decoded instructions; the decode page stays,
    // because a CPU may hold a pointer to it.
    if (t.frame->code) *t.frame->code = DecodedPage{};
    addr += n, s += n, len -= n;
  }
  return true;
}

bool AddressSpace::read_bytes(uint64_t addr, void* dst, uint64_t len) {
  auto* d = static_cast<uint8_t*>(dst);
  while (len) {
    Translation t;
    if (!host_translate(addr, t)) return false;
    uint64_t off = addr & kPageMask, n = std::min(len, kPageSize - off);
    std::memcpy(d, t.frame->data.get() + off, n);
    addr += n, d += n, len -= n;
  }
  return true;
}

uint64_t AddressSpace::mapped_pages() const {
  uint64_t n = 0;
  for (const auto& kv : segments_)
    for (const PageEntry& e : kv.second->page) n += e.frame != 0;
  return n;
}

uint64_t AddressSpace::owned_frames() const {
  uint64_t n = 0;
  for (const auto& kv : segments_) n += kv.second->large ? (kv.second->page[0].owned ? kPagesPerSegment : 0) : kv.second->owned_pages;
  return n;
}

uint64_t AddressSpace::large_segments() const {
  uint64_t n = 0;
  for (const auto& kv : segments_) n += kv.second->large;
  return n;
}

}  // namespace emu
