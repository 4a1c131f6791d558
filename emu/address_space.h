// DAT: a virtual address space mapping 4 KB pages and 1 MB segments (large pages)
// to absolute frames of Storage. A page that is not present is a page-translation
// exception for the layer above to resolve; an address beyond the space's limit is
// an addressing exception.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "emu/storage.h"

namespace emu {

enum Prot : uint8_t { kProtRead = 1, kProtWrite = 2, kProtExec = 4 };
constexpr uint8_t kProtReadWrite = kProtRead | kProtWrite;

struct Translation {
  Frame* frame = nullptr;
  uint64_t number = 0;  // the frame's number (DAT's hot path reads no Frame: Storage::key)
  uint8_t prot = 0;
  bool large = false;   // translated through a 1 MB segment
  bool common = false;  // through a page every ECB's space maps alike: its TLB entry serves all
};

enum class Translate : uint8_t { Ok, NotPresent, OutOfRange };

class AddressSpace {
 public:
  static constexpr uint64_t kDefaultLimit = 1ull << 53;

  explicit AddressSpace(Storage& storage, uint64_t limit = kDefaultLimit);
  ~AddressSpace();  // returns the frames it allocated
  AddressSpace(const AddressSpace&) = delete;
  AddressSpace& operator=(const AddressSpace&) = delete;

  Storage& storage() { return storage_; }
  // Never reused, unlike the object's address: the tag of the TLB entries this space
  // forms (its ASCE), never TlbModel::kCommon.
  uint64_t serial() const { return serial_; }
  // The tag a TLB entry formed through `t` carries.
  uint64_t tlb_tag(const Translation& t) const { return t.common ? TlbModel::kCommon : serial_; }
  uint64_t limit() const { return limit_; }
  // Whether references through this space are translated by DAT, so that the modelled
  // TLBs hold them and a miss costs a walk. Every space is, but system mode's real space
  // (DAT off: real addresses are not translated [Principles of Operation, "Translation-
  // Lookaside Buffer": entries are formed by DAT]).
  bool translated() const { return translated_; }
  void set_translated(bool on) { translated_ = on; }

  // Maps every 4 KB page touching [addr, addr+len) to a new zero-filled frame with
  // `prot`; pages already mapped keep their frames and get `prot`. Returns false when
  // storage has no frames left (the pages mapped so far stay).
  //
  // TLBs: making a page valid, or giving it a right, purges nothing (no TLB holds an
  // invalid page, and a missing right is looked up again). A page that becomes invalid
  // or loses a right is purged from every I-stream's TLB (IPTE; a 1 MB segment: IDTE);
  // the space's destruction purges its entries (IDTE by ASCE).
  bool map(uint64_t addr, uint64_t len, uint8_t prot);
  // Demand-zero: each page of [addr, addr+len) that is not mapped gets a new zero-filled
  // frame with `prot` at its first translation, as Linux maps a program's bss, so that a
  // large range costs only the pages used. unmap ends the reservation of its range; a
  // page whose first touch finds storage out of frames is not present.
  // `first_reference_faults`: the guest's first reference to each of the range's pages
  // is not present (a page fault, for the control program to back the page and charge
  // for it: paging/, map_first_reference) instead of a frame mapped at no cost; host
  // accesses (loaders, services, reports) still map it silently.
  void reserve(uint64_t addr, uint64_t len, uint8_t prot, bool first_reference_faults = false);
  // A page of a first_reference_faults range not mapped yet: maps it to a new zero frame
  // and returns true (false if it is no such page, or storage has no frame left).
  bool is_first_reference(uint64_t vaddr) const;
  bool map_first_reference(uint64_t vaddr);
  // MADV_DONTNEED's drop: each owned page of the range that is present gives its frame
  // back and becomes demand-zero with the rights it had (as reserve); pages this space
  // does not own (shared storage) and pages not present stay as they are. A large segment
  // only partly in the range is demoted first.
  void discard(uint64_t addr, uint64_t len);
  // Maps the 1 MB segments covering the range with 1 MB frames, each falling back to
  // 4 KB frames when no 1 MB frame is left. Returns how many segments got a 1 MB frame.
  unsigned map_large(uint64_t addr, uint64_t len, uint8_t prot);
  // Maps one page to an existing frame that this space does not own (shared storage).
  // `common`: every space that maps the page maps it to this frame with these rights
  // (the control program's promise, as z's common-segment bit is), so one TLB entry
  // serves them all.
  void map_shared(uint64_t vaddr, uint64_t frame_number, uint8_t prot, bool common = false);
  // Maps the 1 MB segment at `vaddr` as a large segment (one 1 MB TLB entry) to existing
  // frames this space does not own, `frames[k]` for its page k: system mode's EDAT
  // frames, which prefixing may scatter. What the segment mapped before is unmapped
  // (purged) first.
  void map_shared_segment(uint64_t vaddr, const std::array<uint64_t, kPagesPerSegment>& frames, uint8_t prot);
  // Takes every segment of `from` as it is, shared until either space changes it (then
  // the one changing it gets a copy): what mapping each of from's pages into this space
  // with map_shared would give, for the cost of one table per segment. This space must
  // have none of those segments yet, and `from` must own none of its pages.
  void share_segments_of(const AddressSpace& from);
  // A space no I-stream ever loads (a pattern other spaces share segments of): its
  // changes purge nothing from the TLBs, since none holds an entry it formed, and its
  // common pages' entries belong to the spaces that load them.
  void set_never_loaded() { never_loaded_ = true; }
  // Removes the mappings of the range (whole 1 MB segments for large pages), purges them
  // from the TLBs and returns owned frames.
  void unmap(uint64_t addr, uint64_t len);
  // Change bits exact for this space (its pages paged): a CPU's micro-TLB then takes a
  // page's write right only on a store, so that the store sets the change bit. Off, a
  // load's translation also grants stores (no change bit is needed).
  void set_track_changes(bool on) { track_changes_ = on; }
  bool tracks_changes() const { return track_changes_; }
  // Instruction-execution protection (IEP, z14, STFLE bit 130; Principles of Operation,
  // "Instruction-Execution Protection"): a page without kProtExec has its page-table
  // entry's IEP bit on, and an instruction fetch from it (or of an EXECUTE target) is a
  // protection exception. Off, as the TPF side runs, every readable page executes. The
  // CPU checks it when it enters a code page (not per instruction); a page losing a
  // right is purged (IPTE), which makes the CPU enter it again, and instructions decoded
  // on the page before that run into it are forgotten, so that they are fetched again.
  void set_execute_protection(bool on) { execute_protection_ = on; }
  bool execute_protection() const { return execute_protection_; }

  // Makes `child` (new, empty) a copy of this space, as fork needs: each owned page gets
  // a new frame of the child with the same contents and rights (a large segment a 1 MB
  // frame when storage has one, else 256 4 KB frames), pages this space does not own
  // (shared storage) map the same frames in both, segments with no owned page are shared
  // as share_segments_of shares them, and reservations are carried over. Frames never
  // touched stay untouched in the child (zero either way). Host work: one 4 KB copy per
  // touched owned page. False if storage ran out (the child then holds what was copied).
  bool copy_into(AddressSpace& child);

  Translate translate(uint64_t vaddr, Translation& out);
  // translate without out.frame (nullptr): the frame's number only, for DAT's hot path
  // (Cpu::fill_tlb), which reads the frame's key and bytes through Storage by number.
  Translate translate_number(uint64_t vaddr, Translation& out);
  bool is_mapped(uint64_t vaddr);

  // Host-side access for loaders and services; false if a page is not mapped (and the
  // host fault handler, if any, does not bring it back).
  bool write_bytes(uint64_t addr, const void* src, uint64_t len);
  bool read_bytes(uint64_t addr, void* dst, uint64_t len);
  // What brings back a page a host-side access finds not present (a paged-out page:
  // the paging subsystem puts it back at once, without simulated time); true if the
  // page is mapped now.
  void set_host_fault_handler(std::function<bool(uint64_t vaddr)> h) { host_fault_ = std::move(h); }

  // The 4 KB pages this space owns outside large segments (what paging may steal), in
  // address order: f(vaddr, frame).
  template <class F> void for_each_own_page(F&& f) {
    for (uint64_t seg : sorted_segments()) {
      Segment& s = *segments_.at(seg);
      if (s.large) continue;
      for (unsigned k = 0; k < kPagesPerSegment; ++k)
        if (s.page[k].frame && s.page[k].owned) f(seg * kSegmentSize + k * kPageSize, resolve(s.page[k]));
    }
  }
  // for_each_own_page's walk, giving each page's storage-key byte (its reference and
  // change bits, FrameKey) instead of its Frame: paging's aging reads only those, from
  // Storage's key array, without fetching a Frame object a page (issue 44: 4 million of
  // them a steal pass at full size). Resolves each entry as that walk does.
  template <class F> void for_each_own_page_key(F&& f) {
    for (uint64_t seg : sorted_segments()) {
      Segment& s = *segments_.at(seg);
      if (s.large || !s.owned_pages) continue;
      for (unsigned k = 0; k < kPagesPerSegment; ++k) {
        PageEntry& e = s.page[k];
        if (!e.frame || !e.owned) continue;
        if (!e.resolved) resolve(e);
        f(seg * kSegmentSize + k * kPageSize, storage_.key(e.frame));
      }
    }
  }
  // Paging's log of the pages whose mapping changed (issue 44: its aging visits those and
  // the ones whose reference bit went on, not every page): each 4 KB page given a frame,
  // new rights or released, as its address; each large segment mapped or unmapped, as
  // its address + 1. In no particular order, some more than once. Off until turned on.
  void set_page_log(bool on) { log_pages_ = on; }
  void take_page_log(std::vector<uint64_t>& into) { into.swap(page_log_), page_log_.clear(); }
  // The key byte of the 4 KB page at `vaddr` if it is one for_each_own_page_key visits
  // (owned, outside large segments; resolved as that walk resolves it), else nullptr.
  uint8_t* own_page_key(uint64_t vaddr);
  // The frame number of the owned 4 KB page at `vaddr` (outside large segments), or of
  // the 1 MB frame of the owned large segment at `vaddr` if `large`; 0 if none.
  uint64_t own_frame(uint64_t vaddr, bool large) const;

  // The protection of a mapped page (0 if not mapped).
  uint8_t prot_of(uint64_t vaddr);

  // The large segments (1 MB frames) this space owns, in address order: f(vaddr).
  template <class F> void for_each_large_segment(F&& f) {
    for (uint64_t seg : sorted_segments()) {
      const Segment& s = *segments_.at(seg);
      if (s.large && s.page[0].owned) f(seg * kSegmentSize);
    }
  }
  // Whether any 4 KB frame of the large segment at `vaddr` was referenced (and changed)
  // since its bits were reset; `reset` clears the reference bits. Frames never touched
  // (not yet resolved) count as neither.
  bool segment_referenced(uint64_t vaddr, bool& changed, bool reset);
  // The large segment at `vaddr` becomes 256 4 KB pages of frames of their own, with the
  // same contents and protection, all changed (a demoted 1 MB page). False if it is not
  // a large segment or storage has no frames.
  bool demote(uint64_t vaddr);

  // Every mapped page in address order (resolving its frame), for reports.
  template <class F> void for_each_page(F&& f) {
    for (uint64_t seg : sorted_segments())
      for (unsigned k = 0; k < kPagesPerSegment; ++k) {
        uint64_t va = seg * kSegmentSize + k * kPageSize;
        Translation t;
        if (translate(va, t) == Translate::Ok) f(va, *t.frame);
      }
  }
  uint64_t mapped_pages() const;
  // The frames this space owns, in 4 KB frames: its own 4 KB pages and 256 for each
  // large segment (a count per segment, no walk of the pages: for reports each interval).
  uint64_t owned_frames() const;
  uint64_t large_segments() const;

 private:
  // One page's entry of a segment's table, 8 bytes, so that DAT's translation reads one
  // host word (the four arrays it replaces were four host lines per translation).
  // Frame numbers fit 32 bits: machine.storage is at most 16 TB.
  struct PageEntry {
    uint32_t frame = 0;  // frame number; 0 = not present
    uint8_t prot = 0;
    bool owned = false;
    bool common = false;
    bool resolved = false;  // the frame was touched through this entry (Storage::frame)
  };
  struct Segment {
    bool large = false;
    std::array<PageEntry, kPagesPerSegment> page{};
    unsigned owned_pages = 0;  // how many owned are set: a segment of shared pages only frees nothing
  };
  // The entry's frame, touched (created) at its first use through the entry. A bit left
  // on (a reused frame's) is logged again: from now on segment_referenced counts it.
  Frame& resolve(PageEntry& e) {
    Frame& f = storage_.frame(e.frame);
    e.resolved = true;
    storage_.relog_reference(e.frame);
    return f;
  }
  void log_page(uint64_t vaddr) {
    if (log_pages_) page_log_.push_back(vaddr);
  }
  bool log_pages_ = false;
  std::vector<uint64_t> page_log_;
  Segment& segment(uint64_t vseg);
  Segment* find_segment(uint64_t vseg);  // nullptr when the segment has no table
  // The segments looked up last, direct-mapped by segment number (their places in
  // segments_, which a rehash does not move): runs of pages (a process's shared image, a
  // range being mapped, the pages DAT translates) mostly fall in one segment, and the
  // I-streams running a process's threads each keep to a few of their own (a one-entry
  // cache missed on every switch: 1.5% of 16 I-streams' host time in the hash table).
  // An erased segment's entry is reset.
  static constexpr unsigned kSegmentCache = 16;
  struct CachedSegment {
    uint64_t vseg = ~0ull;
    std::shared_ptr<Segment>* at = nullptr;
  };
  std::array<CachedSegment, kSegmentCache> cached_{};
  CachedSegment& cached(uint64_t vseg) { return cached_[vseg % kSegmentCache]; }
  bool never_loaded_ = false;
  Segment& writable(std::shared_ptr<Segment>& s);  // *s, copied first if another space shares it
  std::vector<uint64_t> sorted_segments() const;
  void release(Segment& s, uint64_t vseg, unsigned k);
  void purge_page(const Segment& s, uint64_t vseg, unsigned k);  // from every I-stream's TLB
  void purge_segment(const Segment& s, uint64_t vseg);
  void forget_code_running_into(uint64_t vpage);
  bool copy_segment_into(AddressSpace& child, uint64_t vseg, const std::shared_ptr<Segment>& s);
  void copy_frame(uint64_t from, uint64_t to_vaddr, AddressSpace& child);

  Storage& storage_;
  uint64_t limit_;
  std::unordered_map<uint64_t, std::shared_ptr<Segment>> segments_;  // lookup; iterate sorted
  mutable std::vector<uint64_t> sorted_;  // segments_'s keys in order, while sorted_valid_
  mutable bool sorted_valid_ = false;     // cleared by every insertion into and erasure from segments_
  struct Reservation {
    uint64_t begin, end;  // page-aligned
    uint8_t prot;
    bool first_reference_faults = false;
  };
  std::vector<Reservation> reserved_;  // few (one per large bss): searched in order
  // `guest`: a DAT translation, which leaves first_reference_faults pages not present.
  bool map_reserved(uint64_t vaddr, bool guest = true);
  const Reservation* reservation_of(uint64_t vaddr) const;
  void unreserve(uint64_t begin, uint64_t end);  // page-aligned
  void discard_large(uint64_t vseg, uint64_t first, uint64_t last);
  bool track_changes_ = false;
  bool execute_protection_ = false;
  std::function<bool(uint64_t)> host_fault_;
  bool host_translate(uint64_t vaddr, Translation& t);
  uint64_t serial_;
  bool translated_ = true;
};

}  // namespace emu
