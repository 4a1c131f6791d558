// Load libraries on a modelled 3390 (fetch/, issue 26 items 2 and 5): the PDS built as
// the binder writes load modules, the PDSE of program objects, the image's bytes, and the
// checker's error for each kind of damage.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "fetch/library_builder.h"
#include "fetch/library_check.h"
#include "fetch/member_list.h"
#include "fetch/pdse_format.h"

using namespace fetch;

namespace {

BuiltLibrary pds(uint32_t block_size, std::vector<MemberSpec> members = synthetic_linklib(300)) {
  LibraryOptions o;
  o.binder.block_size = block_size;
  return build_library(std::move(members), o);
}

BuiltLibrary build_pdse(uint32_t block_size = 32760, std::vector<MemberSpec> members = synthetic_linklib(300)) {
  LibraryOptions o;
  o.organization = Organization::Pdse;
  o.binder.block_size = block_size;
  return build_library(std::move(members), o);
}

std::vector<MemberSpec> small_set() {
  return parse_member_list(
      "IEFBR14 8\n"
      "BIGONE 100K rld=300 csects=3 externals=2 entry=16 aliases=BIGALIAS\n"
      "MIDDLE 30000 rld=40\n",
      "test");
}

// The directory block holding the first entries, and its data.
Record& first_directory_block(LibraryVolume& v) { return v.tracks[0].records[0]; }

std::string check_error(const LibraryVolume& v, std::vector<std::string> expected = {}) {
  LibraryCheck c = check_library(v, expected);
  REQUIRE_FALSE(c.ok);
  return c.error;
}

}  // namespace

TEST_CASE("fetch: the same members at 6144, 23440 and 32760: 32760 uses the fewest tracks", "[fetch]") {
  // Seed 001: SYS1.LINKLIB copied at the three block sizes, "32760 used the least space
  // of all": the binder fills each track's rest with a shorter block. Computed here from
  // the synthetic LINKLIB (member_list.h states its sizes), not asserted as constants.
  BuiltLibrary a = pds(6144), b = pds(23440), c = pds(32760);
  INFO("tracks: 6144 " << a.report.tracks_used << ", 23440 " << b.report.tracks_used << ", 32760 "
                       << c.report.tracks_used);
  CHECK(c.report.tracks_used < b.report.tracks_used);
  CHECK(c.report.tracks_used < a.report.tracks_used);
  CHECK(b.report.tracks_used < a.report.tracks_used);
  // Fewer, larger records: the fewest text blocks too; and short blocks are written.
  CHECK(c.report.text_blocks < b.report.text_blocks);
  CHECK(b.report.text_blocks < a.report.text_blocks);
  CHECK(c.report.short_blocks > 0);
  for (const BuiltLibrary* l : {&a, &b, &c}) {
    CHECK(l->report.members == 300);
    CHECK(l->report.aliases == 30);
    LibraryCheck k = check_library(l->volume);
    INFO(k.error);
    CHECK(k.ok);
    CHECK(k.members == 300);
  }
}

TEST_CASE("fetch: without filling tracks with short blocks, 32760 wastes most of each track", "[fetch]") {
  LibraryOptions o;
  o.binder.block_size = 32760;
  o.binder.fill_tracks = false;
  BuiltLibrary unfilled = build_library(synthetic_linklib(300), o);
  BuiltLibrary filled = pds(32760);
  CHECK(unfilled.report.short_blocks == 0);
  // One 32,760-byte block a track leaves 721 of its 1,729 cells: many more tracks.
  CHECK(unfilled.report.tracks_used > filled.report.tracks_used * 5 / 4);
  CHECK(check_library(unfilled.volume).ok);
}

TEST_CASE("fetch: same members, same image bytes; the image reads back to the same bytes", "[fetch]") {
  for (Organization org : {Organization::Pds, Organization::Pdse}) {
    LibraryOptions o;
    o.organization = org;
    std::vector<uint8_t> one = serialize(build_library(synthetic_linklib(120), o).volume);
    std::vector<uint8_t> two = serialize(build_library(synthetic_linklib(120), o).volume);
    CHECK((one == two));
    // The member list's order does not matter: the builder sorts by name.
    auto reversed = synthetic_linklib(120);
    std::reverse(reversed.begin(), reversed.end());
    CHECK((serialize(build_library(reversed, o).volume) == one));
    ParsedImage p = parse_image(one.data(), one.size());
    REQUIRE(p.ok);
    CHECK((serialize(p.volume) == one));
    LibraryCheck k = check_library(one.data(), one.size());
    INFO(k.error);
    CHECK(k.ok);
  }
}

TEST_CASE("fetch: TTR to cylinder, head, record on the volume", "[fetch]") {
  BuiltLibrary l = pds(32760);
  const LibraryVolume& v = l.volume;
  CHECK(v.first_cylinder == 1);
  Cchhr a = v.address(Ttr{0, 1});
  CHECK((a.cylinder == 1 && a.head == 0 && a.record == 1));
  a = v.address(Ttr{16, 3});
  CHECK((a.cylinder == 2 && a.head == 1 && a.record == 3));
  CHECK(describe(v, Ttr{16, 3}) == "TTR 001003 (cylinder 2, head 1, record 3)");
  for (const Track& t : v.tracks) CHECK(t.cells_used() <= flashsim::dasd3390::kCellsPerTrack);
  CHECK(v.tracks[16].cylinder == 2);
  CHECK(v.tracks[16].head == 1);
}

TEST_CASE("fetch: a PDS directory as DFSMS describes it", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  const LibraryVolume& v = l.volume;
  const Record& b = v.tracks[0].records[0];
  REQUIRE(b.key.size() == 8);
  REQUIRE(b.data.size() == 256);
  // Four names (three members, one alias) sorted in EBCDIC, then the X'FF' end marker.
  const uint32_t count = uint32_t(get_be(b.data.data(), 2));
  CHECK(count == 2 + 34 * 3 + 44 + 12);
  std::vector<std::string> names;
  size_t pos = 2;
  while (pos < count) {
    names.push_back(ascii_name(&b.data[pos]));
    pos += 12 + 2 * (b.data[pos + 11] & 0x1F);
  }
  CHECK(names == std::vector<std::string>{"BIGALIAS", "BIGONE", "IEFBR14", "MIDDLE", "????????"});
  CHECK(std::all_of(b.key.begin(), b.key.end(), [](uint8_t k) { return k == 0xFF; }));
  // After the directory, an end-of-file record; the first member's CESD right after.
  CHECK(v.tracks[0].records[1].end_of_file());
  CHECK(v.tracks[0].records[2].data[0] == lmrec::kCesd);
  // BIGONE's entry: alias bit clear, one TTR, 11 halfwords; size, entry point, first text.
  const uint8_t* e = &b.data[2 + 44];
  CHECK(ascii_name(e) == "BIGONE");
  CHECK(e[11] == 0x2B);
  CHECK(get_be(e + pds2::kStor, 3) == 100 * 1024);
  CHECK(get_be(e + pds2::kEpa, 3) == 16);
  CHECK((e[pds2::kAtr1] & pds2::kExec));
  CHECK_FALSE((e[pds2::kAtr2] & pds2::kNoRld));
  Ttr ttrt = Ttr::unpack(uint32_t(get_be(e + pds2::kTtrt, 3)));
  const Record* text = v.record(ttrt);
  REQUIRE(text);
  CHECK(text->data.size() == get_be(e + pds2::kFtbl, 2));
  CHECK(text->data[0] == text_byte("BIGONE", 0));
  // The alias: alias bit, 16 halfwords, its member's name in the alias section.
  const uint8_t* al = &b.data[2];
  CHECK(al[11] == (0x80 | 0x20 | 16));
  CHECK(ascii_name(al + pds2::kAliasMain) == "BIGONE");
  CHECK(get_be(al + 8, 3) == get_be(e + 8, 3));
}

TEST_CASE("fetch: a load module's records: CESD, IDR, control and text pairs, RLD, end of module", "[fetch]") {
  BuiltLibrary l = pds(6144, small_set());
  const LibraryVolume& v = l.volume;
  const Record& b = v.tracks[0].records[0];
  const uint8_t* e = &b.data[2 + 44];   // BIGONE
  Ttr t = Ttr::unpack(uint32_t(get_be(e + 8, 3)));
  std::vector<uint8_t> ids;
  uint64_t text = 0;
  bool eom = false;
  while (!eom) {
    const Record* r = v.record(t);
    REQUIRE(r);
    REQUIRE_FALSE(r->end_of_file());
    uint8_t id = r->data[0];
    ids.push_back(id);
    if ((id & 0xF0) == 0 && (id & lmrec::kControl)) {
      uint32_t count = uint32_t(get_be(&r->data[14], 2));
      CHECK(get_be(&r->data[9], 3) == text);
      t = v.next(t);
      const Record* tx = v.record(t);
      REQUIRE(tx);
      CHECK(tx->data.size() == count);
      CHECK(count <= 6144);
      text += count;
    }
    if ((id & 0xF0) == 0 && (id & lmrec::kEndModule)) eom = true;
    t = v.next(t);
  }
  CHECK(v.record(t)->end_of_file());
  CHECK(text == 100 * 1024);
  CHECK(ids.front() == lmrec::kCesd);
  CHECK(ids[1] == lmrec::kIdr);
  CHECK(ids.back() == (lmrec::kRld | lmrec::kEndModule));
  // 100 KB at 6144: 17 text records at least (more if short blocks filled tracks).
  CHECK(std::count_if(ids.begin(), ids.end(), [](uint8_t id) { return (id & 0xF0) == 0 && (id & 1); }) >= 17);
}

TEST_CASE("fetch: a PDSE: 4 KB pages, an indexed directory, classes by load attribute", "[fetch]") {
  // Program objects: the block size makes no difference (seed 001: "program objects
  // internally use 4kByte blocks").
  BuiltLibrary a = build_pdse(6144), b = build_pdse(32760);
  CHECK(a.report.tracks_used == b.report.tracks_used);
  CHECK(a.report.pages == b.report.pages);
  for (const Track& t : b.volume.tracks)
    for (const Record& r : t.records) REQUIRE((r.key.empty() && r.data.size() == pdse::kPageBytes));
  CHECK(b.volume.tracks[0].records.size() == 12);
  CHECK(check_library(b.volume).ok);
  // More than 255 names: a two-level tree.
  BuiltLibrary big = build_pdse(32760, synthetic_linklib(600));
  CHECK(big.report.directory_blocks_used == 3 + 1);   // 660 names: 3 leaves and the root
  LibraryCheck k = check_library(big.volume);
  INFO(k.error);
  CHECK(k.ok);
  CHECK(k.members == 600);
  // The class split: INITIAL + DEFERRED = the module's size; PACK,PRIME recorded.
  LibraryOptions o;
  o.organization = Organization::Pdse;
  o.pack = o.prime = true;
  BuiltLibrary p = build_library(small_set(), o);
  const std::vector<uint8_t>& leaf = p.volume.record(Ttr{0, 2})->data;   // page 1
  uint32_t desc = 0;
  for (uint32_t i = 0; i < get_be(&leaf[2], 2); i++)
    if (ascii_name(&leaf[16 + 16 * i]) == "BIGONE") desc = uint32_t(get_be(&leaf[16 + 16 * i + 8], 4));
  REQUIRE(desc > 0);
  const std::vector<uint8_t>& d = p.volume.record(pdse_page_ttr(desc))->data;
  CHECK(d[16] == (pdse::kPack | pdse::kPrime));
  uint64_t initial = 0, deferred = 0;
  for (uint32_t c = 0; c < get_be(&d[18], 2); c++) {
    const uint8_t* ce = &d[pdse::kClassTableOffset + 32 * c];
    if (ce[16] == pdse::kInitial) initial += get_be(ce + 20, 4);
    if (ce[16] == pdse::kDeferred) deferred += get_be(ce + 20, 4);
  }
  CHECK(initial == 28672);   // 0.25 of 100 KB (the estimate), up to whole pages (7 of 4 KB)
  CHECK(initial + deferred == 100 * 1024);
}

TEST_CASE("fetch: bad member lists and options are refused naming the member", "[fetch]") {
  CHECK_THROWS_WITH(parse_member_list("IEFBR14\n", "m.txt"), Catch::Contains("m.txt:1: a member needs a name and a size"));
  CHECK_THROWS_WITH(parse_member_list("1ABC 10\n", "m.txt"), Catch::Contains("character 1"));
  CHECK_THROWS_WITH(parse_member_list("ABC 10 colour=red\n", "m.txt"), Catch::Contains("unknown word 'colour=red'"));
  CHECK_THROWS_WITH(parse_member_list("ABC 10 entry=20\n", "m.txt"), Catch::Contains("entry point 20 is beyond"));
  CHECK_THROWS_WITH(pds(32760, parse_member_list("HUGE 17M\n", "m")), Catch::Contains("use a PDSE"));
  CHECK_THROWS_WITH(pds(500, small_set()), Catch::Contains("block size 500"));
  CHECK_THROWS_WITH(pds(32760, parse_member_list("A 10\nA 20\n", "m")), Catch::Contains("named twice"));
}

TEST_CASE("fetch: the checker names a member missing", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  CHECK(check_library(l.volume, {"IEFBR14", "BIGALIAS"}).ok);
  CHECK_THAT(check_error(l.volume, {"IEFBR14", "ARCCTL"}), Catch::Contains("member ARCCTL is missing"));
}

TEST_CASE("fetch: the checker names a truncated record and a truncated image", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  // MIDDLE's only text record loses its last 100 bytes.
  LibraryVolume v = l.volume;
  const uint8_t* e = &v.tracks[0].records[0].data[2 + 44 + 34 + 34];   // MIDDLE
  REQUIRE(ascii_name(e) == "MIDDLE");
  Ttr ttrt = Ttr::unpack(uint32_t(get_be(e + pds2::kTtrt, 3)));
  Record& text = v.tracks[ttrt.track].records[ttrt.record - 1];
  const size_t full = text.data.size();
  text.data.resize(full - 100);
  std::string err = check_error(v);
  CHECK_THAT(err, Catch::Contains("member 'MIDDLE'") &&
                      Catch::Contains("a text record of " + std::to_string(full - 100) +
                                      " bytes, its control record says " + std::to_string(full)) &&
                      Catch::Contains(describe(v, ttrt)));
  // The image cut short anywhere: a clear error, never a crash.
  std::vector<uint8_t> bytes = serialize(l.volume);
  for (size_t cut : {size_t(0), size_t(50), size_t(kHeaderBytes + 3), bytes.size() / 2, bytes.size() - 1}) {
    LibraryCheck c = check_library(bytes.data(), cut);
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.error, Catch::Contains("image offset"));
  }
  bytes.push_back(0);
  CHECK_THAT(check_library(bytes.data(), bytes.size()).error, Catch::Contains("1 bytes after the last track"));
}

TEST_CASE("fetch: the checker names a directory block whose count is wrong", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  LibraryVolume v = l.volume;
  put_be(first_directory_block(v).data, 0, 100, 2);   // the entries take 160 bytes
  CHECK_THAT(check_error(v), Catch::Contains("TTR 000001 (cylinder 1, head 0, record 1), offset ") &&
                                 Catch::Contains("runs past the block's count 100"));
  put_be(first_directory_block(v).data, 0, 300, 2);
  CHECK_THAT(check_error(v), Catch::Contains("offset 0: directory block count 300 is outside 2..256"));
}

TEST_CASE("fetch: the checker names a TTR beyond the extent", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  LibraryVolume v = l.volume;
  put_be(first_directory_block(v).data, 2 + 44 + 34 + 8, 0x7F0001, 3);   // IEFBR14's TTR: track 0x7F00
  CHECK_THAT(check_error(v), Catch::Contains("member 'IEFBR14'") && Catch::Contains("TTR 7F0001 is beyond the extent"));
  put_be(first_directory_block(v).data, 2 + 44 + 34 + 8, 0x000063, 3);   // record 99 of track 0
  CHECK_THAT(check_error(v), Catch::Contains("does not exist"));
}

TEST_CASE("fetch: the checker names keys and names out of order", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  LibraryVolume v = l.volume;
  Record& b = first_directory_block(v);
  std::fill(b.key.begin(), b.key.end(), 0xC1);
  CHECK_THAT(check_error(v), Catch::Contains("the block's key 'AAAAAAAA' is not its highest name X'FFFFFFFFFFFFFFFF'"));
  v = l.volume;
  // IEFBR14 renamed AAAAAAA: after BIGONE, out of order.
  auto n = ebcdic_name("AAAAAAA");
  std::copy(n.begin(), n.end(), first_directory_block(v).data.begin() + 2 + 44 + 34);
  CHECK_THAT(check_error(v), Catch::Contains("name 'AAAAAAA' after 'BIGONE': out of order"));
}

TEST_CASE("fetch: the checker names bad sizes", "[fetch]") {
  BuiltLibrary l = pds(32760, small_set());
  LibraryVolume v = l.volume;
  uint8_t* e = &first_directory_block(v).data[2 + 44 + 34 + 34];   // MIDDLE, 30000 bytes
  put_be(first_directory_block(v).data, size_t(e - first_directory_block(v).data.data()) + pds2::kStor, 20000, 3);
  CHECK_THAT(check_error(v), Catch::Contains("member 'MIDDLE'") && Catch::Contains("runs past its size 004E20"));
  v = l.volume;
  e = &first_directory_block(v).data[2 + 44 + 34 + 34];
  const uint64_t ftbl = get_be(e + pds2::kFtbl, 2);
  put_be(first_directory_block(v).data, size_t(e - first_directory_block(v).data.data()) + pds2::kFtbl, 999, 2);
  CHECK_THAT(check_error(v), Catch::Contains("its first text record has " + std::to_string(ftbl) +
                                             " bytes, the directory says 999"));
  // A track whose records take more cells than it has.
  v = l.volume;
  v.tracks[0].records.push_back(Record{uint8_t(v.tracks[0].records.size() + 1), {}, std::vector<uint8_t>(56000)});
  std::vector<uint8_t> bytes = serialize(v);
  CHECK_THAT(check_library(bytes.data(), bytes.size()).error, Catch::Contains("more than its 1,729"));
}

TEST_CASE("fetch: the checker names a damaged PDSE", "[fetch]") {
  BuiltLibrary l = build_pdse(32760, small_set());
  LibraryVolume v = l.volume;
  CHECK(check_library(v).ok);
  // The leaf's second name made the lowest: out of order.
  auto n = ebcdic_name("AAAA");
  std::vector<uint8_t>& leaf = v.tracks[0].records[1].data;
  std::copy(n.begin(), n.end(), leaf.begin() + 16 + 16);
  CHECK_THAT(check_error(v), Catch::Contains("out of order"));
  // The header's tree depth 2: its root, a leaf, is where an index belongs.
  v = l.volume;
  v.tracks[0].records[0].data[16 + 1] = 2;   // depth 2: the root must be an index
  CHECK_THAT(check_error(v), Catch::Contains("an index (2) expected"));
  // A descriptor whose class runs past the object.
  v = l.volume;
  std::vector<uint8_t>& leaf2 = v.tracks[0].records[1].data;
  uint32_t desc = uint32_t(get_be(&leaf2[16 + 8], 4));
  Ttr dt = pdse_page_ttr(desc);
  put_be(v.tracks[dt.track].records[dt.record - 1].data, pdse::kClassTableOffset + 20, 99999, 4);
  CHECK_THAT(check_error(v), Catch::Contains("class 0 of 99999 bytes"));
}

TEST_CASE("fetch: the binder fills every track of a large module", "[fetch]") {
  // ARCCTL (4 MB) at each block size: every track wholly inside the module is left with
  // less room than a control record and the shortest text block the binder writes need.
  for (uint32_t bs : {6144u, 23440u, 32760u}) {
    BuiltLibrary l = pds(bs);
    const LibraryVolume& v = l.volume;
    Ttr t{0, 1};
    Ttr start{};
    bool found = false;
    // The directory's entries: find ARCCTL's TTR.
    for (Ttr d{0, 1}; !found && v.record(d) && !v.record(d)->end_of_file(); d = v.next(d)) {
      const Record& b = *v.record(d);
      for (size_t pos = 2; pos < get_be(b.data.data(), 2); pos += 12 + 2 * (b.data[pos + 11] & 0x1F))
        if (ascii_name(&b.data[pos]) == "ARCCTL") {
          start = Ttr::unpack(uint32_t(get_be(&b.data[pos + 8], 3)));
          found = true;
        }
    }
    REQUIRE(found);
    t = start;
    while (!v.record(t)->end_of_file()) t = v.next(t);
    const uint32_t room = flashsim::dasd3390::record_cells(0, kMaxControlRecordBytes) +
                          flashsim::dasd3390::record_cells(0, BinderOptions{}.min_short_block);
    uint32_t interior = 0;
    for (uint32_t k = start.track + 1; k < t.track; k++) {
      INFO("block size " << bs << ", track " << k);
      CHECK(flashsim::dasd3390::kCellsPerTrack - v.tracks[k].cells_used() < room);
      interior++;
    }
    CHECK(interior > 60);   // 4 MB is more than 70 tracks at any of the three sizes
  }
}
