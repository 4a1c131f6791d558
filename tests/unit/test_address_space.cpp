// AddressSpace::share_segments_of: a new process's image segments are the pattern's
// own tables until one side changes them; each change stays with the side that made it.
#include <catch2/catch.hpp>

#include "emu/address_space.h"

namespace {

using emu::AddressSpace;
using emu::kPageSize;
using emu::kSegmentSize;

// Counts the purges the storage's TLBs hear of.
struct PurgeCounter : emu::TlbPurgeListener {
  int pages = 0, segments = 0, spaces = 0;
  void purge_page(uint64_t, uint64_t) override { ++pages; }
  void purge_segment(uint64_t, uint64_t) override { ++segments; }
  void purge_space(uint64_t) override { ++spaces; }
};

uint64_t frame_at(AddressSpace& s, uint64_t va) {
  emu::Translation t;
  return s.translate(va, t) == emu::Translate::Ok ? t.frame->number : 0;
}

}  // namespace

TEST_CASE("Shared segments: each space's changes stay its own, and a pattern never purges a TLB", "[storage]") {
  emu::Storage storage(64 << 20);
  PurgeCounter tlb;
  storage.add_tlb(&tlb);
  const uint64_t code = 0x1000000, data = code + 8 * kPageSize, other = code + 3 * kSegmentSize;
  {
    AddressSpace pattern(storage);
    pattern.set_never_loaded();
    for (uint64_t k = 0; k < 4; ++k) pattern.map_shared(code + k * kPageSize, 100 + k, emu::kProtRead, true);
    pattern.map_shared(other, 200, emu::kProtRead, true);

    AddressSpace first(storage), second(storage);
    first.share_segments_of(pattern);
    CHECK(frame_at(first, code + kPageSize) == 101);
    CHECK(frame_at(first, other) == 200);
    // The first process unmaps a page of the shared segment and maps one of its own.
    first.unmap(code + 2 * kPageSize, kPageSize);
    REQUIRE(first.map(data, kPageSize, emu::kProtRead | emu::kProtWrite));
    CHECK(frame_at(first, data) != 0);
    CHECK(frame_at(first, code + 2 * kPageSize) == 0);
    CHECK(frame_at(pattern, data) == 0);
    CHECK(frame_at(pattern, code + 2 * kPageSize) == 102);
    // The pattern withdraws a page: spaces made before keep it, a new one lacks it,
    // and no TLB hears of it.
    const int pages_before = tlb.pages;
    pattern.unmap(code + 3 * kPageSize, kPageSize);
    CHECK(tlb.pages == pages_before);
    second.share_segments_of(pattern);
    CHECK(frame_at(first, code + 3 * kPageSize) == 103);
    CHECK(frame_at(second, code + 3 * kPageSize) == 0);
    CHECK(frame_at(second, code + 2 * kPageSize) == 102);
    CHECK(frame_at(second, data) == 0);
    // The same for a segment both still share: the pattern withdraws, the first keeps.
    AddressSpace third(storage);
    third.share_segments_of(pattern);
    pattern.unmap(other, kPageSize);
    CHECK(frame_at(third, other) == 200);
    CHECK(frame_at(first, other) == 200);
    CHECK(frame_at(pattern, other) == 0);
    // Sharing into a space that has the segment already, or sharing owned pages, is refused.
    CHECK_THROWS_AS(second.share_segments_of(pattern), std::logic_error);
    CHECK_THROWS_AS(pattern.share_segments_of(first), std::logic_error);
    const int spaces_before = tlb.spaces;
    {
      AddressSpace gone(storage);
      gone.set_never_loaded();
    }
    CHECK(tlb.spaces == spaces_before);
  }
  storage.remove_tlb(&tlb);
}

// reserve(..., first_reference_faults): the guest's DAT finds the page not present (the
// control program's fault backs it, paging/ first_reference); a host access backs it
// silently; map_first_reference backs it once. A plain reservation maps on translation.
TEST_CASE("Reservations whose first references fault", "[storage]") {
  emu::Storage storage(64 << 20);
  AddressSpace space(storage);
  const uint64_t faulting = 0x2000000, plain = 0x3000000;
  space.reserve(faulting, 4 * kPageSize, emu::kProtRead | emu::kProtWrite, true);
  space.reserve(plain, kPageSize, emu::kProtRead | emu::kProtWrite);
  emu::Translation t;
  CHECK(space.translate(faulting, t) == emu::Translate::NotPresent);
  CHECK(space.is_first_reference(faulting));
  CHECK(space.map_first_reference(faulting));
  CHECK(space.translate(faulting, t) == emu::Translate::Ok);
  CHECK_FALSE(space.is_first_reference(faulting));  // backed now
  CHECK_FALSE(space.map_first_reference(faulting));
  uint32_t word = 0x12345678, back = 0;
  CHECK(space.write_bytes(faulting + kPageSize, &word, sizeof word));  // a host access: backed, no fault
  CHECK(space.translate(faulting + kPageSize, t) == emu::Translate::Ok);
  CHECK(space.read_bytes(faulting + kPageSize, &back, sizeof back));
  CHECK(back == word);
  CHECK(space.translate(faulting + 2 * kPageSize, t) == emu::Translate::NotPresent);  // the others still fault
  CHECK(space.translate(plain, t) == emu::Translate::Ok);  // demand-zero at no cost, as before
  CHECK_FALSE(space.is_first_reference(plain));
  space.unmap(faulting, 4 * kPageSize);  // the reservation ends with the mapping
  CHECK_FALSE(space.is_first_reference(faulting + 3 * kPageSize));
}

// A range reserved again (a thread's stack slot used again) or continuing the last (the
// ECB heap's next 1 MB) joins what is there: every page still faults once, and an
// unmap in the middle ends the reservation there only.
TEST_CASE("Reservations reserved again or continued", "[storage]") {
  emu::Storage storage(64 << 20);
  AddressSpace space(storage);
  const uint64_t at = 0x2000000;
  const uint8_t rw = emu::kProtRead | emu::kProtWrite;
  space.reserve(at, 2 * kPageSize, rw, true);
  space.reserve(at + 2 * kPageSize, 2 * kPageSize, rw, true);  // continues it
  space.reserve(at, 2 * kPageSize, rw, true);                  // again
  for (uint64_t k = 0; k < 4; ++k) CHECK(space.is_first_reference(at + k * kPageSize));
  CHECK(space.map_first_reference(at));
  CHECK_FALSE(space.is_first_reference(at));
  space.reserve(at, 2 * kPageSize, rw, true);  // again: a page backed stays backed
  CHECK_FALSE(space.is_first_reference(at));
  space.unmap(at + 2 * kPageSize, kPageSize);
  CHECK_FALSE(space.is_first_reference(at + 2 * kPageSize));
  CHECK(space.is_first_reference(at + kPageSize));
  CHECK(space.is_first_reference(at + 3 * kPageSize));
  CHECK_FALSE(space.is_first_reference(at + 4 * kPageSize));  // past the joined range
}
