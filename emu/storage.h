// Absolute storage: sparse 4 KB frames (only frames stored into cost their 4 KB of host
// memory), and the frame allocator the control program uses for 4 KB and 1 MB frames.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emu/isa/insn.h"
#include "emu/tlb.h"

namespace emu {

constexpr uint64_t kPageSize = 4096;
constexpr uint64_t kPageMask = kPageSize - 1;
// The page boundary at or above / at or below `a`.
constexpr uint64_t page_up(uint64_t a) { return (a + kPageMask) & ~kPageMask; }
constexpr uint64_t page_down(uint64_t a) { return a & ~kPageMask; }
constexpr uint64_t kSegmentSize = 1ull << 20;  // a 1 MB frame / large page
constexpr unsigned kPagesPerSegment = unsigned(kSegmentSize / kPageSize);

namespace jit {
struct PageBlocks;  // the page's compiled blocks (emu/jit/block_cache.h)
struct PageBlocksDeleter {
  void operator()(PageBlocks* p) const;
};
}  // namespace jit

// Decoded instructions of one frame, one slot per halfword.
struct DecodedPage {
  Insn slot[kPageSize / 2];
  // ZTRAP EI samples by slot, allocated at the page's first sample (most pages get
  // none): kept out of Insn so that a decoded instruction fills one host cache line.
  std::unique_ptr<uint64_t[]> samples;
  uint64_t samples_at(unsigned k) const { return samples ? samples[k] : 0; }
  void add_sample(unsigned k) {
    if (!samples) samples = std::make_unique<uint64_t[]>(kPageSize / 2);
    ++samples[k];
  }
  // Blocks compiled from these slots (machine.engine: compile): they go with the page,
  // so whatever retires the decoded instructions retires them. Declared after `slot`:
  // destroyed first, it folds its blocks' pending counts into the slots.
  std::unique_ptr<jit::PageBlocks, jit::PageBlocksDeleter> compiled;
};

// A frame's bytes: kPageSize bytes of Storage's host arena, guest (big-endian) byte order.
// The pointer never changes (the CPUs' micro-TLBs hold it); the host gives the page its
// own memory at the first store (until then it reads as the host's shared zero page).
// get() and [] as the unique_ptr it replaced, so that code reading frames is unchanged.
struct FrameBytes {
  uint8_t* bytes = nullptr;
  uint8_t* get() const { return bytes; }
  uint8_t& operator[](uint64_t k) const { return bytes[k]; }
};

// A frame's storage-key bits (Principles of Operation, "Storage Key": the reference and
// change bits belong to the 4 KB block of absolute storage, not to a mapping of it) and
// the host's own bits, one byte per frame in Storage's key array: DAT's fill of a TLB
// entry reads and sets them there without touching the frame's Frame (a heap object,
// a host cache miss of its own per frame on a miss-heavy run).
enum FrameKey : uint8_t {
  kKeyReferenced = 2,  // the reference bit
  kKeyChanged = 4,     // the change bit
  kKeyStored = 8,      // stored into: holds a host page of its own (Storage::note_store)
  kKeyCode = 16,       // holds decoded instructions (Frame::code)
};

struct Frame {
  uint64_t number = 0;  // absolute address >> 12
  // Storers other than the CPU's own stores call Storage::note_store first (or
  // write_page / clear), so that the model's count of stored frames is exact.
  FrameBytes data;
  // Set once an instruction was fetched from the frame (set_code, take_code: the key
  // byte says whether it is set).
  std::unique_ptr<DecodedPage> code;
  uint8_t* key = nullptr;  // the frame's byte of Storage's key array (FrameKey bits)
  // The storage key's reference and change bits, as the machine's DAT sets them: on a
  // translation for a load or store (reference) and for a store (change), and on host
  // writes. The paging subsystem resets them (then CPUs must drop their micro-TLB
  // entries: Machine::purge_micro_tlbs) to see which pages are still used. The reference
  // bit is set only through Storage::reference, which logs the frame for paging.
  bool referenced() const { return *key & kKeyReferenced; }
  bool changed() const { return *key & kKeyChanged; }
  void clear_referenced() { set_key(kKeyReferenced, false); }
  void set_changed(bool on) { set_key(kKeyChanged, on); }
  // Whether the frame has had a store, so holds a host page of its own (4 KB): set by
  // the first store (Storage::note_store); until then it reads the host's zero page.
  bool stored() const { return *key & kKeyStored; }
  void set_code(std::unique_ptr<DecodedPage> c) { code = std::move(c), set_key(kKeyCode, code != nullptr); }
  std::unique_ptr<DecodedPage> take_code() { return set_key(kKeyCode, false), std::move(code); }
  uint64_t absolute() const { return number << 12; }
  void set_key(uint8_t bit, bool on) { *key = on ? uint8_t(*key | bit) : uint8_t(*key & ~bit); }
};

class Storage {
 public:
  // `placement_shift` (machine.placement_shift): bytes the allocator skips before the
  // first never-used 4 KB frame, and (rounded up to whole 1 MB frames) below the top
  // before the first 1 MB frame: the same run's storage at other absolute addresses,
  // so in other cache sets. 0: frame 1 and the top of storage.
  // `free_frame_host_bytes`: the host bytes free 4 KB frames may keep (free_4k; tests
  // take a smaller bound than kFreeFrameHostBytes).
  explicit Storage(uint64_t size, uint64_t placement_shift = 0, uint64_t free_frame_host_bytes = kFreeFrameHostBytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  uint64_t size() const { return size_; }
  uint64_t frames() const { return size_ / kPageSize; }

  // Host memory: what the frames stored into (4 KB each), every touched frame's Frame
  // and the decoded code live now (add_code_page, remove_code_page) take. Past `limit`
  // the callback runs once; the machine then ends its run. The count depends on the
  // model only, never on the host.
  void set_host_limit(uint64_t limit, std::function<void()> on_over) {
    host_limit_ = limit, on_over_limit_ = std::move(on_over);
  }
  uint64_t host_bytes() const { return host_bytes_; }
  uint64_t host_bytes_peak() const { return host_bytes_peak_; }  // the most host_bytes() has been
  uint64_t host_limit() const { return host_limit_; }
  bool over_host_limit() const { return host_bytes_ > host_limit_; }
  void add_code_page() { ++code_pages_, add_host_bytes(sizeof(DecodedPage)); }
  void remove_code_page() { --code_pages_, host_bytes_ -= sizeof(DecodedPage); }
  // The parts of host_bytes(): frames holding bytes, touched frames, live code pages.
  uint64_t stored_frames() const { return stored_frames_; }
  uint64_t code_pages() const { return code_pages_; }
  static constexpr uint64_t kFrameHostBytes = sizeof(Frame);  // its place in the chunk's Frame table
  static constexpr uint64_t kCodePageHostBytes = sizeof(DecodedPage);
  // The host bytes that free 4 KB frames stored into keep for the next allocations
  // (free_4k): above twice what `linux_probe munmap`'s two threads free and take again
  // (64 MB each), and far below the gigabytes paging's steal frees at full size.
  static constexpr uint64_t kFreeFrameHostBytes = 256ull << 20;
  uint64_t free_4k_host_bytes() const { return free_4k_stored_ * kPageSize; }

  // Auxiliary storage (the layer above's devices: SCM, page data sets) in the host-memory
  // figures beside real storage: the simulated bytes it holds and the host bytes they take.
  struct AuxiliaryCount {
    uint64_t simulated_bytes = 0, host_bytes = 0;
  };
  void add_auxiliary(std::function<AuxiliaryCount()> count) { auxiliary_.push_back(std::move(count)); }
  AuxiliaryCount auxiliary() const;
  // The host-memory figures as run.log shows them: bytes the host holds for real storage
  // (per simulated GB touched) and for auxiliary storage (per simulated GB held), from the
  // model's own counts, so the same on every host.
  std::vector<std::string> host_memory_lines() const;

  // The reference bit of frame `number` (its key byte `key`) goes on. The frames whose
  // bit went on are logged while the log is on (paging's aging reads them instead of
  // every frame's bit: issue 44, paging/aging_index.h); a bit already on logs nothing,
  // so the log holds each frame at most once between two resets of its bit.
  void reference(uint8_t& key, uint64_t number) {
    if (key & kKeyReferenced) return;
    key |= kKeyReferenced;
    if (log_references_) reference_log_.push_back(number);
  }
  void reference(Frame& f) { reference(*f.key, f.number); }
  // Logs the frame again if its bit is on (an entry starting to use a frame whose bit
  // was left on, which a reference through it then does not log).
  void relog_reference(uint64_t number) {
    if (log_references_ && (key(number) & kKeyReferenced)) reference_log_.push_back(number);
  }
  void set_reference_log(bool on) { log_references_ = on; }
  // The frames logged since the last call (in no particular order, some more than once).
  void take_reference_log(std::vector<uint64_t>& into) { into.swap(reference_log_), reference_log_.clear(); }

  // A store is about to reach the frame's bytes: from now on they cost 4 KB.
  void note_store(Frame& f) { note_store_key(*f.key); }
  void note_store_key(uint8_t& key) {
    if (!(key & kKeyStored)) key |= kKeyStored, ++stored_frames_, add_host_bytes(kPageSize);
  }
  // Frame `number`'s key byte (FrameKey) and its bytes in the host arena, without its
  // Frame: DAT's hot path (Cpu::fill_tlb) for a frame already touched.
  uint8_t& key(uint64_t number) { return chunk(number)[kKeysAt + number % kChunkFrames]; }
  // The rest of frame `number`'s storage key [Principles of Operation, "Storage Key"]:
  // its access-control bits (bits 0-3 of this byte) and fetch-protection bit (bit 4), as
  // SSKE sets and ISKE inserts them; the reference and change bits are the FrameKey
  // bits of key(number), which DAT sets. Zero (key 0, not fetch-protected) until system
  // mode's SSKE or PFMF sets it: nothing under a host control program reads it.
  uint8_t& access_key(uint64_t number) { return chunk(number)[kAccessKeysAt + number % kChunkFrames]; }
  uint8_t* host_page(uint64_t number) { return chunk(number) + number % kChunkFrames * kPageSize; }
  // The frame reads as zeros again (a frame stored into keeps its host page).
  void clear(Frame& f);
  // The frame's bytes become `src`'s kPageSize bytes (an all-zero page costs nothing).
  void write_page(Frame& f, const uint8_t* src);

  // The frame with this number, zero-filled on first touch (found through the arena
  // chunk's table of Frame pointers: no search).
  Frame& frame(uint64_t number) {
    Frame& f = frame_table(number)[number % kChunkFrames];
    return f.data.bytes ? f : touch(number);
  }
  uint64_t touched_frames() const { return touched_frames_; }
  bool is_touched(uint64_t number) const { return touched_frame(number) != nullptr; }
  // Frame `number` if it was touched, else null (without touching it).
  Frame* touched_frame(uint64_t number) const;

  // Frame allocation. 4 KB frames come from the bottom of storage, 1 MB frames
  // (256 contiguous 4 KB frames on a 1 MB boundary) from the top; freed frames are
  // reused last-in first-out (the user clears a reused frame: clear), so that the host
  // memory of freed 4 KB frames serves the next allocations instead of growing (up to
  // the constructor's bound: past it the oldest free frames give theirs back); a freed
  // 1 MB frame gives its bytes back to the host (it reads as zeros). nullopt when storage is exhausted (for 1 MB: when no
  // contiguous 1 MB frame is left; the caller may fall back to 4 KB frames).
  std::optional<uint64_t> allocate_4k();
  std::optional<uint64_t> allocate_1m();  // returns the first frame number
  void free_4k(uint64_t number);
  void free_1m(uint64_t first);
  uint64_t allocated_4k() const { return allocated_4k_; }
  uint64_t allocated_1m() const { return allocated_1m_; }
  // Frames 1 to end - 1 are set apart, before any is allocated: allocate_4k starts at
  // `end`, and a user of the range takes its frames by number (claim_4k), so that
  // where they lie depends on that user alone (the TPF program image: os/evm.cpp).
  // False if storage has no room for them.
  bool set_apart(uint64_t end);
  // Takes frame `number` of the range set apart (counted as allocated); false if it is
  // outside the range or taken already.
  bool claim_4k(uint64_t number);

  // The TLBs of the I-streams over this storage (each registers its own): a change of
  // any address space's tables that purges entries reaches all of them, as IPTE and
  // IDTE are broadcast to every CPU of the configuration.
  void add_tlb(TlbPurgeListener* t) { tlbs_.push_back(t); }
  void remove_tlb(TlbPurgeListener* t) { std::erase(tlbs_, t); }
  const std::vector<TlbPurgeListener*>& tlbs() const { return tlbs_; }

 private:
  uint8_t* arena_page(uint64_t number) { return host_page(number); }
  // The arena's chunk holding frame `number`, reserved at its first use.
  uint8_t* chunk(uint64_t number) {
    const uint64_t index = number / kChunkFrames;
    if (index < chunks_.size() && chunks_[index]) [[likely]] return chunks_[index];
    return map_chunk(index);  // (throws past the end of storage, as frame() did)
  }
  uint8_t* map_chunk(uint64_t index);
  Frame* frame_table(uint64_t number) { return reinterpret_cast<Frame*>(chunk(number) + kChunkBytes); }
  Frame& touch(uint64_t number);  // frame()'s first touch
  void add_host_bytes(uint64_t n) {
    const bool was_over = over_host_limit();
    host_bytes_ += n;
    host_bytes_peak_ = std::max(host_bytes_peak_, host_bytes_);
    if (!was_over && over_host_limit() && on_over_limit_) on_over_limit_();
  }

  uint64_t size_;
  uint64_t host_bytes_ = 0, host_bytes_peak_ = 0, host_limit_ = ~0ull;
  uint64_t stored_frames_ = 0, code_pages_ = 0;
  // The host arena: a reservation of address space per GB of absolute storage, made at
  // the first touch of a frame in it; pages never stored into take no host memory. The
  // GB's table of Frames (32 bytes a frame, each made at the frame's first touch: a
  // slot whose data pointer is null is a frame never touched), its key bytes and its
  // access-key bytes (one each a frame) follow its pages in the same reservation (host
  // memory only where touched). A Frame in a flat table, not a node of its own: at full
  // size (4 million frames) a heap object and a map node each took about 110 host bytes
  // a frame (issue 44).
  static constexpr uint64_t kChunkBytes = 1ull << 30;
  static constexpr uint64_t kChunkFrames = kChunkBytes / kPageSize;
  static constexpr uint64_t kKeysAt = kChunkBytes + kChunkFrames * sizeof(Frame);
  static constexpr uint64_t kAccessKeysAt = kKeysAt + kChunkFrames;
  static constexpr uint64_t kChunkReservation = kAccessKeysAt + kChunkFrames;
  std::vector<uint8_t*> chunks_;
  bool log_references_ = false;
  std::vector<uint64_t> reference_log_;
  std::vector<std::function<AuxiliaryCount()>> auxiliary_;
  std::function<void()> on_over_limit_;
  uint64_t touched_frames_ = 0;
  uint64_t shift_4k_;  // 4 KB frames skipped above frame 0 and the range set apart (placement_shift)
  uint64_t low_;       // next never-used 4 KB frame (frame 0 holds the prefix area)
  uint64_t apart_end_ = 1;        // frames [1, apart_end_) are set apart (set_apart)
  std::vector<bool> claimed_;     // of those, the ones taken
  uint64_t high_;      // first frame of the lowest 1 MB frame handed out so far
  std::vector<uint64_t> free_4k_, free_1m_;
  // free_4k_[0, free_4k_given_back_) gave their host pages back (give_back_free_4k);
  // free_4k_stored_ of the rest hold one (stored into), up to free_frame_host_bytes_.
  size_t free_4k_given_back_ = 0;
  uint64_t free_4k_stored_ = 0;
  uint64_t free_frame_host_bytes_;
  void give_back_free_4k();
  uint64_t allocated_4k_ = 0, allocated_1m_ = 0;
  std::vector<TlbPurgeListener*> tlbs_;
};

}  // namespace emu
