// Replacement state of a set-associative array (the cache levels, the TLBs) in
// constant time per decision: true LRU, and the first free way before any LRU way.
//
// What it reproduces: the models used to keep an age stamp per way (a level-wide tick,
// new on every fill and hit) and to take as victim the first invalid way, else the way
// with the oldest stamp. Only the order of the stamps within a set ever mattered, so
// each set keeps that order as ranks instead: rank 0 is the most recently used way,
// ways-1 the least. A fill or a hit moves its way to rank 0 and the ways above it down
// by one (move to front), which keeps the ranks a permutation. Once every way of a set
// was filled (the only time the LRU way is asked for: else a free way wins) the ranks
// are exactly the order of their last use, so the victim is the same way the stamps
// chose. A way made free (invalidated, purged) keeps its rank, as it kept its stamp.
//
// Layout: per set one small block, the ranks (one byte a way, padded to 16 with 0xFF,
// which is never below a rank and never the last rank of a set with padding) then the
// free-way bits, so that a decision reads one host cache line for up to 48 ways. The
// rank update and the search for the LRU way go 16 ways at a time (SSE2 on x86-64).
// Past 256 ways (a TLB may be fully associative: up to 65536) the ranks take two
// bytes a way and are updated one at a time.
#pragma once
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace emu {

// An array of T aligned to a host cache line (64 bytes), so that a set's block never
// straddles two lines more than its size needs. A large one (the L3's tags and
// directory: tens of MB, each access a different host page) is aligned to 2 MB and
// asks the host for transparent huge pages, so that the model's random accesses do not
// each take a host TLB miss as well (Linux; elsewhere, or if refused, 4 KB pages: only
// slower).
template <class T> class LineAlignedArray {
 public:
  void assign(size_t n, T value) {
    constexpr size_t kHuge = size_t(2) << 20;
    const size_t align = n * sizeof(T) >= kHuge ? kHuge : 64;
    const size_t bytes = (n * sizeof(T) + align - 1) / align * align;
    data_.reset(static_cast<T*>(std::aligned_alloc(align, bytes ? bytes : align)));
    if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == kHuge) madvise(data_.get(), bytes, MADV_HUGEPAGE);
#endif
    for (size_t k = 0; k < n; ++k) data_[k] = value;
    size_ = n;
  }
  T& operator[](size_t k) { return data_[k]; }
  const T& operator[](size_t k) const { return data_[k]; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  size_t size_ = 0;
};

class LruSets {
 public:
  // Every way of every set free; ranks in way order (any permutation would do: they
  // are all rewritten by the fills before the LRU way is first asked for).
  void init(uint64_t sets, unsigned ways) {
    ways_ = ways;
    wide_ = ways > 256;
    free_words_ = (ways + 63) / 64;
    rank_bytes_ = (ways * (wide_ ? 2 : 1) + 15) / 16 * 16;
    const unsigned need = free_words_ * 8 + rank_bytes_;
    block_ = 16;
    while (block_ < need) block_ *= 2;  // a power of two: blocks never straddle lines needlessly
    blocks_.assign(sets * block_ / 8, 0);
    for (uint64_t s = 0; s < sets; ++s) {
      uint64_t* f = free_bits(s);
      for (unsigned w = 0; w < ways; ++w) f[w / 64] |= uint64_t(1) << (w % 64);
      if (wide_) {
        uint16_t* r = wide_ranks(s);
        for (unsigned w = 0; w < ways; ++w) r[w] = uint16_t(w);
        continue;
      }
      uint8_t* r = ranks(s);
      for (unsigned w = 0; w < rank_bytes_; ++w) r[w] = w < ways ? uint8_t(w) : 0xFF;
    }
  }
  // Way w of `set` was filled: it is in use and the most recently used.
  void fill(uint64_t set, unsigned w) {
    free_bits(set)[w / 64] &= ~(uint64_t(1) << (w % 64));
    touch(set, w);
  }
  // Way w was used (a hit): the most recently used.
  void touch(uint64_t set, unsigned w) {
    if (wide_) [[unlikely]] {
      uint16_t* r = wide_ranks(set);
      const uint16_t was = r[w];
      for (unsigned k = 0; k < ways_; ++k) r[k] += r[k] < was;
      r[w] = 0;
      return;
    }
    uint8_t* r = ranks(set);
    const uint8_t was = r[w];
    if (was == 0) return;
#if defined(__SSE2__)
    const __m128i limit = _mm_set1_epi8(char(was));
    for (unsigned k = 0; k < rank_bytes_; k += 16) {
      __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(r + k));
      // below = 0xFF where v < was (unsigned): max(v, was) != v.
      const __m128i at_least = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), v);
      v = _mm_add_epi8(v, _mm_andnot_si128(at_least, _mm_set1_epi8(1)));
      _mm_store_si128(reinterpret_cast<__m128i*>(r + k), v);
    }
#else
    for (unsigned k = 0; k < ways_; ++k) r[k] += r[k] < was;
#endif
    r[w] = 0;
  }
  // Way w no longer holds anything (its rank stays, as a stamp did).
  void release(uint64_t set, unsigned w) { free_bits(set)[w / 64] |= uint64_t(1) << (w % 64); }
  bool is_free(uint64_t set, unsigned w) const { return (free_bits(set)[w / 64] >> (w % 64)) & 1; }
  // Every way of every set free (ranks stay).
  void release_all() {
    const uint64_t sets = blocks_.size() * 8 / block_;
    for (uint64_t s = 0; s < sets; ++s) {
      uint64_t* f = free_bits(s);
      for (unsigned w = 0; w < ways_; ++w) f[w / 64] |= uint64_t(1) << (w % 64);
    }
  }
  // The way to fill next: the first free way, else the least recently used.
  unsigned victim(uint64_t set) const {
    const uint64_t* f = free_bits(set);
    for (unsigned k = 0; k < free_words_; ++k)
      if (f[k]) return k * 64 + unsigned(std::countr_zero(f[k]));
    if (wide_) [[unlikely]] {
      const uint16_t* r = wide_ranks(set);
      for (unsigned k = 0;; ++k)
        if (r[k] == ways_ - 1) return k;
    }
    const uint8_t* r = ranks(set);
    const uint8_t last = uint8_t(ways_ - 1);
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8(char(last));
    for (unsigned k = 0;; k += 16) {
      const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(r + k));
      const unsigned m = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, want)));
      if (m) return k + unsigned(std::countr_zero(m));
    }
#else
    for (unsigned k = 0;; ++k)
      if (r[k] == last) return k;
#endif
  }
  // Start bringing the set's block into the host cache (a miss path computes the set
  // long before it needs the victim).
  void prefetch(uint64_t set) const { __builtin_prefetch(ranks(set)); }
  // For tests: way w's place in the recency order (0: most recent).
  unsigned rank(uint64_t set, unsigned w) const { return wide_ ? wide_ranks(set)[w] : ranks(set)[w]; }

 private:
  // The ranks first: 16-byte aligned for the vector loads (blocks are at least 16 bytes).
  uint8_t* ranks(uint64_t set) { return reinterpret_cast<uint8_t*>(blocks_.data() + set * (block_ / 8)); }
  const uint8_t* ranks(uint64_t set) const {
    return reinterpret_cast<const uint8_t*>(blocks_.data() + set * (block_ / 8));
  }
  uint16_t* wide_ranks(uint64_t set) { return reinterpret_cast<uint16_t*>(ranks(set)); }
  const uint16_t* wide_ranks(uint64_t set) const { return reinterpret_cast<const uint16_t*>(ranks(set)); }
  uint64_t* free_bits(uint64_t set) { return reinterpret_cast<uint64_t*>(ranks(set) + rank_bytes_); }
  const uint64_t* free_bits(uint64_t set) const {
    return reinterpret_cast<const uint64_t*>(ranks(set) + rank_bytes_);
  }

  unsigned ways_ = 1, free_words_ = 1, rank_bytes_ = 16, block_ = 32;
  bool wide_ = false;  // more than 256 ways: two-byte ranks
  LineAlignedArray<uint64_t> blocks_;
};

}  // namespace emu
