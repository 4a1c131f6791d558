// DAT's walk through the program's tables (emu/system/dat.h) on a storage of a few
// doublewords: the region-first and -second levels the self-test kernel does not
// reach, table offsets and lengths, the translation-specification exception.
#include <catch2/catch.hpp>

#include <map>

#include "emu/system/dat.h"

namespace {

struct FakeStorage final : emu::AbsoluteReader {
  std::map<uint64_t, uint64_t> words;  // absolute address -> doubleword
  bool read64(uint64_t a, uint64_t& v) override {
    if (a >= (1ull << 30)) return false;  // 1 GB of storage
    auto it = words.find(a);
    v = it == words.end() ? 0 : it->second;
    return true;
  }
};

constexpr uint64_t kRegionFirst = 0x10000, kRegionSecond = 0x20000, kRegionThird = 0x30000;
constexpr uint64_t kSegment = 0x40000, kPage = 0x50000;
// Region entries: TT (bits 60-61) the level of their table, TF 0, TL 3.
constexpr uint64_t region(uint64_t origin, unsigned level) { return origin | level << 2 | 3; }

// 0x0020'0000'0000'0000 + 0x12345: region-first index 1, the others 0 but the page.
constexpr uint64_t kVaddr = (1ull << 53) | 0x12345;

FakeStorage tables() {
  FakeStorage s;
  s.words[kRegionFirst + 8] = region(kRegionSecond, 3);  // an entry's TT: its table's level
  s.words[kRegionSecond] = region(kRegionThird, 2);
  s.words[kRegionThird] = region(kSegment, 1);
  s.words[kSegment] = kPage;
  s.words[kPage + 0x12 * 8] = 0x777000;
  return s;
}

}  // namespace

TEST_CASE("DAT walks region-first, -second and -third, segment and page tables", "[system][dat]") {
  FakeStorage s = tables();
  const uint64_t asce = kRegionFirst | 3 << 2 | 3;  // a region-first designation, TL 3
  emu::DatWalk w = emu::dat_walk(asce, kVaddr, {}, s);
  CHECK(w.code == 0);
  CHECK(w.real == 0x777345);
  CHECK(w.entry == kPage + 0x12 * 8);

  SECTION("an invalid region-second entry: region-second-translation exception") {
    s.words[kRegionSecond] |= 0x20;
    w = emu::dat_walk(asce, kVaddr, {}, s);
    CHECK(w.code == emu::dat_code::kRegionSecondTranslation);
    CHECK(w.invalid_entry);
  }
  SECTION("a region-first index past the ASCE's table length") {
    w = emu::dat_walk(kRegionFirst | 3 << 2 | 0, kVaddr | 1ull << 62, {}, s);  // index 0x201 > TL 0
    CHECK(w.code == emu::dat_code::kRegionFirstTranslation);
    CHECK_FALSE(w.invalid_entry);
  }
  SECTION("a region-second designation cannot reach region-first index 1: ASCE-type") {
    w = emu::dat_walk(kRegionSecond | 2 << 2 | 3, kVaddr, {}, s);
    CHECK(w.code == emu::dat_code::kAsceType);
  }
  SECTION("an entry of the wrong table type: translation specification") {
    s.words[kRegionSecond] = region(kRegionThird, 1);
    w = emu::dat_walk(asce, kVaddr, {}, s);
    CHECK(w.code == emu::dat_code::kTranslationSpecification);
  }
  SECTION("a table offset (TF) above the index: the next level's exception") {
    s.words[kRegionThird] = kSegment | 1 << 6 | 1 << 2 | 3;  // TF 1: the first 512 entries absent
    w = emu::dat_walk(asce, kVaddr, {}, s);
    CHECK(w.code == emu::dat_code::kSegmentTranslation);
  }
  SECTION("a table beyond storage: addressing") {
    s.words[kSegment] = 1ull << 40;
    w = emu::dat_walk(asce, kVaddr, {}, s);
    CHECK(w.code == emu::dat_code::kAddressing);
  }
  SECTION("DAT protection of the segment entry; a region entry's P only with EDAT-1") {
    s.words[kSegment] |= 0x200;
    CHECK(emu::dat_walk(asce, kVaddr, {}, s).protect);
    s.words[kSegment] &= ~0x200ull;
    s.words[kRegionSecond] |= 0x200;
    CHECK_FALSE(emu::dat_walk(asce, kVaddr, {}, s).protect);
    CHECK(emu::dat_walk(asce, kVaddr, {true, true}, s).protect);
  }
  SECTION("the IEP bit (55) of the leaf entry: a page-table entry's, whatever the control") {
    CHECK_FALSE(emu::dat_walk(asce, kVaddr, {}, s).no_execute);
    s.words[kPage + 0x12 * 8] |= 0x100;
    CHECK(emu::dat_walk(asce, kVaddr, {}, s).no_execute);
    CHECK(emu::dat_walk(asce, kVaddr, {}, s).code == 0);  // not a reserved bit: it translates
  }
  SECTION("a segment-table entry's IEP bit counts only where it designates a 1 MB frame (EDAT-1)") {
    s.words[kSegment] |= 0x100;  // a page-table designation: not a leaf
    CHECK_FALSE(emu::dat_walk(asce, kVaddr, {true, true}, s).no_execute);
    s.words[kSegment] = 0x300000 | 0x400 | 0x100;  // FC: a 1 MB frame, IEP
    w = emu::dat_walk(asce, kVaddr, {true, true}, s);
    CHECK(w.frame_size == (1u << 20));
    CHECK(w.no_execute);
    s.words[kSegment] = 0x300000 | 0x400;
    CHECK_FALSE(emu::dat_walk(asce, kVaddr, {true, true}, s).no_execute);
  }
  SECTION("a region-third-table entry's IEP bit where it designates a 2 GB frame (EDAT-2)") {
    s.words[kRegionThird] = 0x80000000 | 0x400 | 0x100 | 1 << 2;  // FC, IEP, TT 01
    w = emu::dat_walk(asce, kVaddr, {true, true}, s);
    CHECK(w.frame_size == (1ull << 31));
    CHECK(w.no_execute);
  }
  SECTION("a real-space designation translates nothing") {
    w = emu::dat_walk(0x20, 0x123456789, {}, s);
    CHECK(w.code == 0);
    CHECK(w.real == 0x123456789);
  }
}
