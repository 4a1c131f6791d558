#include "emu/storage.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <new>
#include <stdexcept>
#include <sys/mman.h>

namespace emu {

Storage::Storage(uint64_t size, uint64_t placement_shift, uint64_t free_frame_host_bytes)
    : size_(size & ~(kSegmentSize - 1)),
      chunks_((size_ + kChunkBytes - 1) / kChunkBytes),
      shift_4k_(placement_shift / kPageSize),
      low_(1 + shift_4k_),
      high_((size_ - std::min(size_, (placement_shift + kSegmentSize - 1) & ~(kSegmentSize - 1))) / kPageSize),
      free_frame_host_bytes_(free_frame_host_bytes) {}

Storage::~Storage() {
  for (uint8_t* c : chunks_) {
    if (!c) continue;
    Frame* table = reinterpret_cast<Frame*>(c + kChunkBytes);
    for (uint64_t k = 0; k < kChunkFrames; ++k)
      if (table[k].data.bytes) table[k].~Frame();  // (its decoded code)
    ::munmap(c, kChunkReservation);
  }
}

Frame* Storage::touched_frame(uint64_t number) const {
  const uint64_t index = number / kChunkFrames;
  if (index >= chunks_.size() || !chunks_[index]) return nullptr;
  Frame& f = reinterpret_cast<Frame*>(chunks_[index] + kChunkBytes)[number % kChunkFrames];
  return f.data.bytes ? &f : nullptr;
}

// The host maps a page never written to its shared zero page (with huge pages, its
// shared 2 MB zero page), and gives a page its own memory at the first store: frames
// only read cost nothing. The chunk asks for transparent huge pages: the frame allocator
// hands out 4 KB frames densely from the bottom of storage and 1 MB frames from the top,
// so a 2 MB host page mostly holds frames in use, and a miss-heavy run (E4's heap chain,
// a new guest page per element) no longer takes a host TLB miss per guest page (E4:
// about 15% less host CPU time, for 60% more resident size; E3 at f = 64: 5% more;
// docs/speed.md). A freed 1 MB frame's MADV_DONTNEED splits its huge page.
uint8_t* Storage::map_chunk(uint64_t index) {
  uint8_t*& chunk = chunks_.at(index);
  void* p = ::mmap(nullptr, kChunkReservation, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  ::madvise(p, kChunkReservation, MADV_HUGEPAGE);
  chunk = static_cast<uint8_t*>(p);
  return chunk;
}

// The frame's slot of its chunk's Frame table reads as zeros (never touched) until the
// Frame is made in it here.
Frame& Storage::touch(uint64_t number) {
  Frame* f = new (&frame_table(number)[number % kChunkFrames]) Frame{};
  f->number = number;
  f->data.bytes = arena_page(number);
  f->key = &key(number);
  ++touched_frames_;
  add_host_bytes(kFrameHostBytes);
  return *f;
}

Storage::AuxiliaryCount Storage::auxiliary() const {
  AuxiliaryCount total;
  for (const auto& count : auxiliary_) {
    const AuxiliaryCount c = count();
    total.simulated_bytes += c.simulated_bytes, total.host_bytes += c.host_bytes;
  }
  return total;
}

namespace {
constexpr double kGB = double(1ull << 30);
std::string per_gb(uint64_t host, uint64_t simulated) {
  return simulated ? fmt::format("{:.0f} bytes a simulated GB", double(host) * kGB / double(simulated)) : "no simulated bytes";
}
}  // namespace

std::vector<std::string> Storage::host_memory_lines() const {
  const uint64_t touched = touched_frames() * kPageSize;
  const AuxiliaryCount aux = auxiliary();
  return {
      fmt::format("HOST MEMORY REAL STORAGE {} BYTES TOUCHED ({} FRAMES, {} STORED INTO, {} DECODED CODE PAGES): "
                  "{} HOST BYTES AT THE END, {} AT MOST, {}",
                  touched, touched_frames(), stored_frames_, code_pages_, host_bytes_, host_bytes_peak_,
                  per_gb(host_bytes_peak_, touched)),
      fmt::format("HOST MEMORY AUXILIARY STORAGE {} BYTES HELD: {} HOST BYTES, {}", aux.simulated_bytes,
                  aux.host_bytes, per_gb(aux.host_bytes, aux.simulated_bytes)),
  };
}

// A frame never stored into holds zeros already. One that was keeps its host page for
// its next use (up to free_4k's bound): giving it back at once (MADV_DONTNEED) made the
// next store fault it in again, which made a loop of 64 MB mmap, stores and munmap 5.6
// times slower (docs/speed.md).
void Storage::clear(Frame& f) {
  if (f.stored()) std::memset(f.data.get(), 0, kPageSize);
}

void Storage::write_page(Frame& f, const uint8_t* src) {
  if (std::all_of(src, src + kPageSize, [](uint8_t b) { return b == 0; })) return clear(f);
  note_store(f);
  std::memcpy(f.data.get(), src, kPageSize);
}

std::optional<uint64_t> Storage::allocate_4k() {
  uint64_t n;
  if (!free_4k_.empty()) {
    n = free_4k_.back();
    free_4k_.pop_back();
    free_4k_given_back_ = std::min(free_4k_given_back_, free_4k_.size());
    if (key(n) & kKeyStored) --free_4k_stored_;  // (a frame given back is not stored)
  } else if (low_ < high_) {
    n = low_++;
  } else {
    return std::nullopt;
  }
  ++allocated_4k_;
  return n;
}

bool Storage::set_apart(uint64_t end) {
  if (low_ != 1 + shift_4k_ || !free_4k_.empty())
    throw std::logic_error("Storage::set_apart after frames were allocated");
  if (end + shift_4k_ >= high_) return false;
  apart_end_ = end;
  low_ = end + shift_4k_;
  claimed_.assign(end, false);
  return true;
}

bool Storage::claim_4k(uint64_t number) {
  if (number == 0 || number >= apart_end_ || claimed_[number]) return false;
  claimed_[number] = true;
  ++allocated_4k_;
  return true;
}

std::optional<uint64_t> Storage::allocate_1m() {
  uint64_t first;
  if (!free_1m_.empty()) {
    first = free_1m_.back();
    free_1m_.pop_back();
  } else {
    uint64_t candidate = high_ - kPagesPerSegment;
    if (high_ < kPagesPerSegment || candidate < low_) return std::nullopt;
    first = high_ = candidate;
  }
  ++allocated_1m_;
  return first;
}

void Storage::free_4k(uint64_t number) {
  free_4k_.push_back(number);
  --allocated_4k_;
  if ((key(number) & kKeyStored) && ++free_4k_stored_ * kPageSize > free_frame_host_bytes_) give_back_free_4k();
}

// Free frames keep their host pages for the next allocations (last in, first out), but
// not without bound: paging's steal at full size (E3 at f = 1) frees gigabytes whose
// contents went to auxiliary storage, and the night's end frees its 12 GB. Past the
// bound the oldest free frames, the ones reused last, give their pages back until half
// the bound is held: each freed frame is visited once, the frames are chosen by the
// model's own order (the same every run), the count drops by their 4 KB, and the
// munmap-heavy loop that giving back every page slowed 5.6 times stays under the bound.
void Storage::give_back_free_4k() {
  std::vector<uint64_t> given;
  while (free_4k_stored_ * kPageSize > free_frame_host_bytes_ / 2 && free_4k_given_back_ < free_4k_.size()) {
    const uint64_t number = free_4k_[free_4k_given_back_++];
    uint8_t& frame_key = key(number);
    if (!(frame_key & kKeyStored)) continue;
    frame_key = uint8_t(frame_key & ~kKeyStored);
    --free_4k_stored_, --stored_frames_, host_bytes_ -= kPageSize;
    given.push_back(number);
  }
  // One madvise per run of adjacent frames (within one arena chunk: a chunk is a
  // reservation of its own).
  std::sort(given.begin(), given.end());
  for (size_t k = 0; k < given.size();) {
    size_t end = k + 1;
    while (end < given.size() && given[end] == given[end - 1] + 1 && given[end] % kChunkFrames != 0) ++end;
    ::madvise(host_page(given[k]), (end - k) * kPageSize, MADV_DONTNEED);
    k = end;
  }
}

// A 1 MB frame's bytes go back to the host at once (one call for its 256 pages): the
// frames of a large page paged out whole would otherwise stay held beside the 4 KB
// frames that serve meanwhile (E3's region: host memory for both at the same time).
void Storage::free_1m(uint64_t first) {
  bool any = false;
  for (uint64_t number = first; number < first + kPagesPerSegment; ++number)
    if (Frame* f = touched_frame(number); f && f->stored()) {
      f->set_key(kKeyStored, false), --stored_frames_, host_bytes_ -= kPageSize;
      any = true;
    }
  if (any) ::madvise(arena_page(first), kSegmentSize, MADV_DONTNEED);
  free_1m_.push_back(first);
  --allocated_1m_;
}

}  // namespace emu
