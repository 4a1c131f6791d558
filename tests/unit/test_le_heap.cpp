// The LE heap's host model (le/le_heap_model.h, issue 25 item 1) on small hand-made
// cases: element sizes and splitting, coalescing on either side and both, KEEP against
// FREE, a large request's own segment, first against best fit, the heap checks, the
// "Total heap storage used" statistic, and E4's sequences. The guest heap is checked
// against this model by tests/le_heap_compare.sh.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "le/guest/e4_requests.h"
#include "le/le_heap_model.h"

using le::HeapModel;
using le::HeapOptions;
using le::Place;
using Frees = std::map<uint32_t, uint32_t>;

namespace {

HeapOptions opts(uint32_t init, uint32_t incr, uint32_t disposition = LEHEAP_KEEP, uint32_t fit = LEHEAP_FIRST_FIT) {
  HeapOptions o;
  o.init = init, o.incr = incr, o.disposition = disposition, o.fit = fit;
  return o;
}

}  // namespace

TEST_CASE("LE heap: element lengths, splitting and the whole element", "[le]") {
  CHECK(leheap_element_length(1) == 16);
  CHECK(leheap_element_length(8) == 16);
  CHECK(leheap_element_length(9) == 24);
  CHECK(leheap_element_length(32768) == 32776);
  CHECK(leheap_segment_option(0) == LEHEAP_MIN_SEGMENT);
  CHECK(leheap_segment_option(32767) == 32768);
  CHECK(leheap_new_segment_length(32736, 32768) == 32768);  // fits an increment exactly
  CHECK(leheap_new_segment_length(32744, 32768) == 32776);  // its own size plus the header

  HeapModel h(opts(96, 96));  // 64 bytes of elements
  auto a = h.get(40);         // 48: the remainder, 16, stays free
  REQUIRE(a);
  CHECK(*a == Place{1, 32 + 8});
  CHECK(h.free_elements(1) == Frees{{80, 16}});
  CHECK(h.counters().in_use == 48);
  CHECK(h.free(*a) == LEHEAP_OK);
  auto b = h.get(48);  // 56: the remainder would be 8, so all 64 are given
  CHECK(h.free_elements(1).empty());
  CHECK(h.counters().in_use == 64);
  CHECK(h.free(*b) == LEHEAP_OK);
  CHECK(h.free_elements(1) == Frees{{32, 64}});
  CHECK(h.counters().in_use == 0);
  CHECK(!h.get(0));
  CHECK(h.counters().get_failures == 1);
}

TEST_CASE("LE heap: a freed element coalesces with free neighbours on either side", "[le]") {
  // Three 48-byte elements at 32, 80, 128; the rest (1024 - 176 = 848) free at 176.
  auto three = [](HeapModel& h) {
    std::vector<Place> p;
    for (int i = 0; i < 3; ++i) p.push_back(*h.get(40));
    CHECK(h.free_elements(1) == Frees{{176, 848}});
    return p;
  };
  SECTION("right: the free element after it") {
    HeapModel h(opts(1024, 1024));
    auto p = three(h);
    h.free(p[1]);
    CHECK(h.free_elements(1) == Frees{{80, 48}, {176, 848}});
    h.free(p[0]);
    CHECK(h.free_elements(1) == Frees{{32, 96}, {176, 848}});
  }
  SECTION("left: the free element before it") {
    HeapModel h(opts(1024, 1024));
    auto p = three(h);
    h.free(p[0]);
    h.free(p[1]);
    CHECK(h.free_elements(1) == Frees{{32, 96}, {176, 848}});
  }
  SECTION("both") {
    HeapModel h(opts(1024, 1024));
    auto p = three(h);
    h.free(p[0]);
    h.free(p[2]);
    CHECK(h.free_elements(1) == Frees{{32, 48}, {128, 896}});
    h.free(p[1]);
    CHECK(h.free_elements(1) == Frees{{32, 992}});
  }
}

TEST_CASE("LE heap: an emptied increment segment is kept (KEEP) or given back (FREE), the initial one never", "[le]") {
  for (uint32_t disposition : {LEHEAP_KEEP, LEHEAP_FREE}) {
    HeapModel h(opts(256, 256, disposition));
    auto a = h.get(200);  // 208 of the initial segment's 224
    auto b = h.get(200);  // does not fit what is left: segment 2
    REQUIRE(a);
    REQUIRE(b);
    CHECK(b->segment == 2);
    CHECK(h.chain() == std::vector<uint32_t>{1, 2});
    h.free(*b);
    h.free(*a);
    CHECK(h.counters().segs_alloc == 2);
    if (disposition == LEHEAP_FREE) {
      CHECK(h.chain() == std::vector<uint32_t>{1});
      CHECK(h.counters().segs_freed == 1);
      CHECK(h.get(200)->segment == 1);
      CHECK(h.get(200)->segment == 3);  // a new segment, numbered in the order got
    } else {
      CHECK(h.chain() == std::vector<uint32_t>{1, 2});
      CHECK(h.counters().segs_freed == 0);
      CHECK(h.get(200)->segment == 1);
      CHECK(h.get(200)->segment == 2);  // the kept one serves
    }
  }
}

TEST_CASE("LE heap: a request larger than an increment gets a segment of its own size plus the header", "[le]") {
  HeapModel h(opts(1024, 1024));
  auto big = h.get(2000);  // element 2008, segment 2040, nothing left free in it
  REQUIRE(big);
  CHECK(big->segment == 2);
  CHECK(h.free_elements(2).empty());
  CHECK(h.get(16)->segment == 1);  // chain order: the initial segment first
  CHECK(h.get(961)->segment == 3);  // 976 > the 968 left in the initial one: an increment
  CHECK(h.free_elements(3) == Frees{{32 + 976, 16}});
  // Total heap storage used: elements in use (prefixes included) plus 32 per segment.
  CHECK(h.counters().total_used == 2008 + 24 + 976 + 3 * 32);
  h.free(*big);
  CHECK(h.counters().total_used == 2008 + 24 + 976 + 3 * 32);  // a high-water mark
  CHECK(h.counters().in_use == 24 + 976);
}

TEST_CASE("LE heap: first fit takes the lowest address that fits, best fit the smallest", "[le]") {
  // Holes of 208 at 32, 112 at 256 and 112 at 384, kept apart by 16-byte elements.
  for (uint32_t fit : {LEHEAP_FIRST_FIT, LEHEAP_BEST_FIT}) {
    HeapModel h(opts(4096, 4096, LEHEAP_KEEP, fit));
    auto a = h.get(200);
    h.get(1);
    auto c = h.get(104);
    h.get(1);
    auto e = h.get(104);
    h.get(1);
    h.free(*a);
    h.free(*c);
    h.free(*e);
    CHECK(h.free_elements(1) == Frees{{32, 208}, {256, 112}, {384, 112}, {512, 4096 - 512}});
    auto p = h.get(100);  // 112
    CHECK(p->offset - LEHEAP_PREFIX == (fit == LEHEAP_FIRST_FIT ? 32u : 256u));  // best: the lower of equals
  }
}

TEST_CASE("LE heap: a bad free is refused, counted and changes nothing", "[le]") {
  HeapModel h(opts(1024, 1024));
  auto a = h.get(40);
  h.get(40);
  REQUIRE(h.free(*a) == LEHEAP_OK);
  const auto before = h.free_elements(1);
  CHECK(h.free(*a) == LEHEAP_ERR_DOUBLE_FREE);
  CHECK(h.free(Place{7, 40}) == LEHEAP_ERR_PREFIX);     // no such segment
  CHECK(h.free(Place{1, 5000}) == LEHEAP_ERR_RANGE);    // past its segment
  CHECK(h.free_elements(1) == before);
  CHECK(h.counters().errors == 3);
  CHECK(h.counters().frees == 1);
}

TEST_CASE("LE heap: E4's sequences are deterministic, sizes uniform in 1..32768", "[le]") {
  uint64_t s = E4_SEED;
  uint64_t sum = 0;
  uint32_t lo = E4_MAX_SIZE, hi = 0;
  for (uint32_t i = 0; i < E4_DOCUMENT_REQUESTS; ++i) {
    const uint32_t v = e4_size(&s);
    sum += v, lo = std::min(lo, v), hi = std::max(hi, v);
  }
  CHECK(lo >= 1);
  CHECK(hi <= E4_MAX_SIZE);
  CHECK(hi > 32700);
  CHECK(sum / E4_DOCUMENT_REQUESTS > 16384 - 200);  // mean 16384.5, its spread ~42
  CHECK(sum / E4_DOCUMENT_REQUESTS < 16384 + 200);

  for (uint32_t disposition : {LEHEAP_KEEP, LEHEAP_FREE}) {
    const auto r1 = le::run_e4('B', 2000, opts(32768, 32768, disposition));
    const auto r2 = le::run_e4('B', 2000, opts(32768, 32768, disposition));
    CHECK(r1.placement == r2.placement);
    CHECK(r1.counters.gets == 2800);
    CHECK(r1.counters.frees == 2800);
    CHECK(r1.counters.in_use == 0);
    CHECK(r1.counters.errors == 0);
    if (disposition == LEHEAP_FREE) CHECK(r1.counters.segs_freed == r1.counters.segs_alloc - 1);
    else CHECK(r1.counters.segs_freed == 0);
  }
  // Tuned: a few 100M segments; untuned: about one 32K segment per two requests.
  CHECK(le::run_e4('A', 2000, opts(100 << 20, 100 << 20)).counters.segs_alloc == 1);
  CHECK(le::run_e4('A', 2000, opts(32768, 32768)).counters.segs_alloc > 900);
}
