// Host memory that grows with what is touched (issue 44): a frame only read costs no
// 4 KB, a store gives it its bytes, and the count is the model's (the same every run);
// auxiliary storage keeps its pages compressed and zero pages as nothing.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "emu/cpu.h"
#include "flashsim/scm.h"

namespace {

constexpr uint64_t kData = 0x20000;
constexpr uint8_t kRW = emu::kProtRead | emu::kProtWrite;

// A page of mostly zeros with a few words in it, as the E3 region's pages are.
std::vector<uint8_t> sparse_page(uint8_t seed) {
  std::vector<uint8_t> p(flashsim::kBlock4K, 0);
  for (unsigned k = 0; k < 8; ++k) p[k * 512 + seed % 64] = uint8_t(seed + k + 1);
  return p;
}

flashsim::Request one(flashsim::Op op, uint64_t address, uint8_t* data) {
  flashsim::Request r;
  r.blocks.push_back({op, address, flashsim::kBlock4K, data});
  return r;
}

}  // namespace

TEST_CASE("a frame only read costs no data bytes; the first store gives it its 4 KB", "[storage][host_memory]") {
  emu::Storage storage(64ull << 20);
  emu::AddressSpace space(storage);  // no change bits: a load's entry also takes stores
  REQUIRE(space.map(kData, 2 * emu::kPageSize, kRW));
  emu::Cpu cpu(space);

  CHECK(cpu.read<uint64_t>(kData + 8) == 0);
  CHECK(cpu.read<uint32_t>(kData + emu::kPageSize) == 0);
  CHECK(storage.touched_frames() == 2);
  CHECK(storage.stored_frames() == 0);
  CHECK(storage.host_bytes() == 2 * emu::Storage::kFrameHostBytes);

  // The store after the load takes the write right the load deferred: the frame is
  // counted now, its change bit stays as a store through the load's entry left it.
  cpu.write<uint64_t>(kData + 8, 0x0123456789ABCDEFull);
  emu::Translation t;
  REQUIRE(space.translate(kData, t) == emu::Translate::Ok);
  CHECK(storage.stored_frames() == 1);
  CHECK(t.frame->stored());
  CHECK_FALSE(t.frame->changed());
  CHECK(storage.host_bytes() == 2 * emu::Storage::kFrameHostBytes + emu::kPageSize);
  CHECK(cpu.read<uint64_t>(kData + 8) == 0x0123456789ABCDEFull);
  CHECK(cpu.read<uint64_t>(kData) == 0);
  uint8_t back[8];
  REQUIRE(space.read_bytes(kData + 8, back, sizeof back));
  CHECK(back[0] == 0x01);
  CHECK(back[7] == 0xEF);

  // A host-side write counts the other frame; its bytes read back through the CPU.
  const uint8_t word[4] = {0xDE, 0xAD, 0xBE, 0xEF};
  REQUIRE(space.write_bytes(kData + emu::kPageSize + 4, word, sizeof word));
  CHECK(storage.stored_frames() == 2);
  CHECK(cpu.read<uint32_t>(kData + emu::kPageSize + 4) == 0xDEADBEEF);
}

TEST_CASE("write_page: an all-zero page stays uncounted, clear makes a frame read zeros", "[storage][host_memory]") {
  emu::Storage storage(64ull << 20);
  emu::Frame& f = storage.frame(5);
  std::vector<uint8_t> zeros(emu::kPageSize, 0), page = sparse_page(3);
  storage.write_page(f, zeros.data());
  CHECK(storage.stored_frames() == 0);
  storage.write_page(f, page.data());
  CHECK(storage.stored_frames() == 1);
  CHECK(std::memcmp(f.data.get(), page.data(), emu::kPageSize) == 0);
  storage.clear(f);
  CHECK(std::all_of(f.data.get(), f.data.get() + emu::kPageSize, [](uint8_t b) { return b == 0; }));
}

TEST_CASE("decoded code leaves the host-memory count when it is retired", "[storage][host_memory]") {
  emu::Storage storage(64ull << 20);
  const uint64_t base = storage.host_bytes();
  for (int k = 0; k < 1000; ++k) storage.add_code_page(), storage.remove_code_page();
  CHECK(storage.host_bytes() == base);
  CHECK(storage.code_pages() == 0);
}

TEST_CASE("auxiliary storage: pages compressed, zero pages as no bytes, read back the same", "[flashsim][host_memory]") {
  flashsim::ScmDevice scm;
  std::vector<std::vector<uint8_t>> pages;
  for (unsigned i = 0; i < 256; ++i) {
    pages.push_back(sparse_page(uint8_t(i)));
    REQUIRE(scm.submit(i, one(flashsim::Op::Write, i * flashsim::kBlock4K, pages.back().data())).ok());
  }
  std::vector<uint8_t> zeros(flashsim::kBlock4K, 0);
  for (unsigned i = 256; i < 512; ++i)
    REQUIRE(scm.submit(i, one(flashsim::Op::Write, i * flashsim::kBlock4K, zeros.data())).ok());
  CHECK(scm.contents_written() == 512 * flashsim::kBlock4K);
  // 256 sparse pages take a fraction of their 1 MB; the zero pages only their map entries.
  CHECK(scm.contents_bytes() < 256 * 200);
  for (unsigned i = 0; i < 512; ++i) {
    std::vector<uint8_t> back(flashsim::kBlock4K, 0xFF);
    REQUIRE(scm.submit(1000, one(flashsim::Op::Read, i * flashsim::kBlock4K, back.data())).ok());
    CHECK(back == (i < 256 ? pages[i] : zeros));
  }
  // Written again with other contents: the old bytes go, the new ones read back.
  std::vector<uint8_t> other = sparse_page(200);
  REQUIRE(scm.submit(2000, one(flashsim::Op::Write, 0, other.data())).ok());
  std::vector<uint8_t> back(flashsim::kBlock4K);
  REQUIRE(scm.submit(2000, one(flashsim::Op::Read, 0, back.data())).ok());
  CHECK(back == other);
}

// Issue 44: E3's region writes every word of its pages with the word's own address;
// zstd took such a page to about 520 bytes (1.9 GB for the region's 14 GB at f = 1).
// Stored as its words' differences it takes less than half; pages that are almost so,
// and pages that are not, read back the same.
TEST_CASE("auxiliary storage: a page of evenly spaced words is kept as their differences, and reads back the same",
          "[flashsim][host_memory]") {
  const auto store_word = [](std::vector<uint8_t>& p, unsigned k, uint64_t w) {
    for (unsigned b = 0; b < 8; ++b) p[8 * k + b] = uint8_t(w >> (56 - 8 * b));  // big-endian, as the guest's
  };
  std::vector<uint8_t> own(flashsim::kBlock4K), almost(flashsim::kBlock4K), scattered(flashsim::kBlock4K);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (unsigned k = 0; k < flashsim::kBlock4K / 8; ++k) {
    store_word(own, k, 0x7F3A5000ull + 8 * k);
    store_word(almost, k, k % 64 == 5 ? ~0ull - k : 0x12345000ull - 16 * k);
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    store_word(scattered, k, k % 8 ? x >> 40 : 0);
  }
  std::vector<uint8_t>* pages[] = {&own, &almost, &scattered};
  flashsim::ScmDevice scm;
  for (unsigned i = 0; i < 3; ++i) {
    REQUIRE(scm.submit(i, one(flashsim::Op::Write, i * flashsim::kBlock4K, pages[i]->data())).ok());
    // RAID 10: a copy on each card, each 48 bytes of entry and its frame (453 bytes
    // for the two before the differences, 246 with them).
    if (i == 0) CHECK(scm.contents_bytes() < 2 * (48 + 100));
  }
  for (unsigned i = 0; i < 3; ++i) {
    std::vector<uint8_t> back(flashsim::kBlock4K, 0xFF);
    REQUIRE(scm.submit(10, one(flashsim::Op::Read, i * flashsim::kBlock4K, back.data())).ok());
    CHECK(back == *pages[i]);
  }
}

// Frames freed by paging's steal (their contents went to auxiliary storage) or by a
// munmap keep their host pages for the next allocations, up to a bound: past it the
// oldest free frames (the bottom of the last-in first-out list, reused last) give theirs
// back, in the model's own order and count, so a free list of gigabytes (E3 at f = 1)
// does not hold gigabytes of host memory.
TEST_CASE("free 4 KB frames past the bound give their host pages back, oldest first", "[storage][host_memory]") {
  // The bound is kFreeFrameHostBytes (256 MB); a storage of the test's own takes 1 MB.
  const uint64_t bound = 1ull << 20, bound_frames = bound / emu::kPageSize, count = bound_frames + 2;
  emu::Storage storage(64ull << 20, 0, bound);
  std::vector<uint64_t> frames;
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t n = *storage.allocate_4k();
    emu::Frame& f = storage.frame(n);
    storage.note_store(f);
    f.data.get()[7] = 0x5A;
    frames.push_back(n);
  }
  const uint64_t held = storage.host_bytes();
  CHECK(storage.stored_frames() == count);

  // Up to the bound the freed frames keep their bytes and their count.
  for (uint64_t k = 0; k < bound_frames; ++k) storage.free_4k(frames[k]);
  CHECK(storage.host_bytes() == held);
  CHECK(storage.free_4k_host_bytes() == bound);
  CHECK(storage.frame(frames[0]).stored());

  // One more: the oldest free frames give theirs back until half the bound is held.
  storage.free_4k(frames[bound_frames]);
  const uint64_t kept = bound_frames / 2;
  const uint64_t given = bound_frames + 1 - kept;
  CHECK(storage.free_4k_host_bytes() == kept * emu::kPageSize);
  CHECK(storage.stored_frames() == count - given);
  CHECK(storage.host_bytes() == held - given * emu::kPageSize);
  CHECK(storage.host_bytes_peak() == held);
  for (uint64_t k : {uint64_t(0), given - 1}) {
    const emu::Frame& f = storage.frame(frames[k]);
    CHECK_FALSE(f.stored());
    CHECK(f.data.get()[7] == 0);  // the host's zero page again
  }
  CHECK(storage.frame(frames[given]).stored());
  CHECK(storage.frame(frames[given]).data.get()[7] == 0x5A);

  // Reuse is last in, first out, as before: the frames that kept their bytes come first;
  // the ones given back are counted again at their first store.
  CHECK(*storage.allocate_4k() == frames[bound_frames]);
  CHECK(storage.free_4k_host_bytes() == (kept - 1) * emu::kPageSize);
  for (uint64_t k = 1; k < kept; ++k) storage.allocate_4k();
  CHECK(storage.free_4k_host_bytes() == 0);
  const uint64_t n = *storage.allocate_4k();
  CHECK(n == frames[given - 1]);
  emu::Frame& f = storage.frame(n);
  CHECK_FALSE(f.stored());
  storage.note_store(f);
  CHECK(storage.stored_frames() == count - given + 1);
}

// Issue 44: a frame's Frame is made in its slot of the arena chunk's flat table at the
// first touch (no heap object and map node a frame): found again without touching, the
// count of touched frames exact, a freed 1 MB frame's stored frames out of the count.
TEST_CASE("storage: frames are made in place at their first touch and found without touching",
          "[storage][host_memory]") {
  emu::Storage storage(64ull << 20);
  CHECK_FALSE(storage.is_touched(5));
  CHECK(storage.touched_frame(5) == nullptr);
  CHECK(storage.touched_frame(storage.frames() + 1) == nullptr);  // past the end: not touched, no throw
  emu::Frame& f = storage.frame(5);
  CHECK(f.number == 5);
  CHECK(&storage.frame(5) == &f);
  CHECK(storage.touched_frame(5) == &f);
  CHECK(storage.touched_frames() == 1);
  CHECK(storage.host_bytes() == emu::Storage::kFrameHostBytes);
  f.set_code(std::make_unique<emu::DecodedPage>());  // destroyed with the storage

  const auto first = storage.allocate_1m();
  REQUIRE(first);
  for (uint64_t k = 0; k < emu::kPagesPerSegment; k += 2) {
    emu::Frame& g = storage.frame(*first + k);
    storage.note_store(g);
    g.data[0] = 0xAB;
  }
  CHECK(storage.touched_frames() == 1 + emu::kPagesPerSegment / 2);
  CHECK(storage.stored_frames() == emu::kPagesPerSegment / 2);
  storage.free_1m(*first);
  CHECK(storage.stored_frames() == 0);
  CHECK(storage.host_bytes() == (1 + emu::kPagesPerSegment / 2) * emu::Storage::kFrameHostBytes);
  CHECK(storage.frame(*first).data[0] == 0);  // its bytes went back to the host: zeros
  CHECK(storage.touched_frames() == 1 + emu::kPagesPerSegment / 2);
}
