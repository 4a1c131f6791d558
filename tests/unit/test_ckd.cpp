// Count-key-data channel programs on a 3390 (flashsim/ckd.h) against load library images
// (fetch/library_tracks.h): the PDS directory search BLDL does, a member's records read
// chained, the statuses that end a channel program, and the timing's shape.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "fetch/library_builder.h"
#include "fetch/library_tracks.h"
#include "fetch/member_list.h"
#include "flashsim/ckd.h"

using namespace flashsim::ckd;
using fetch::BuiltLibrary;
using fetch::LibraryVolume;
using fetch::Ttr;
namespace geo = flashsim::dasd3390;

namespace {

BuiltLibrary pds(uint32_t block_size, std::vector<fetch::MemberSpec> members) {
  fetch::LibraryOptions o;
  o.binder.block_size = block_size;
  return fetch::build_library(std::move(members), o);
}

std::vector<fetch::MemberSpec> with_big(uint32_t count = 300) {
  auto m = fetch::synthetic_linklib(count);
  auto big = fetch::parse_member_list("BIG4M 4M rld=2000 csects=20\n", "test");
  m.push_back(big[0]);
  return m;
}

// The directory blocks in order (TTR 000001 on, to the end-of-file record).
std::vector<Ttr> directory_blocks(const LibraryVolume& v) {
  std::vector<Ttr> out;
  for (Ttr t{0, 1}; v.record(t) && !v.record(t)->end_of_file(); t = v.next(t)) out.push_back(t);
  return out;
}

// The member's first record (PDS2TTRP), from the directory.
Ttr member_ttr(const LibraryVolume& v, const std::string& name) {
  auto want = fetch::ebcdic_name(name);
  for (Ttr b : directory_blocks(v)) {
    const auto& d = v.record(b)->data;
    size_t used = fetch::get_be(d.data(), 2), pos = 2;
    while (pos + 12 <= used) {
      if (std::equal(want.begin(), want.end(), d.begin() + long(pos)))
        return Ttr::unpack(uint32_t(fetch::get_be(&d[pos + 8], 3)));
      pos += 12 + 2 * (d[pos + 11] & 0x1F);
    }
  }
  FAIL("member " << name << " not in the directory");
  return {};
}

// Seek to a TTR's track, find its record, read its data: the first CCWs of a member read.
std::vector<Ccw> locate_and_read(const LibraryVolume& v, Ttr ttr, uint32_t count = 65535) {
  fetch::Cchhr a = v.address(ttr);
  return {seek(a.cylinder, a.head), search_id_equal(a.cylinder, a.head, a.record), tic(1),
          read(Cmd::ReadData, count)};
}

// Reads a member from its first record to its end-of-file record as program fetch
// would with Seek-based EXCPs: one channel program a cylinder (a multitrack read stops
// at the cylinder's end), each Seek + Search ID Equal + TIC + Read Data, then Read Data
// MT for every further record in that cylinder.
struct MemberRead {
  uint64_t excps = 0, records = 0, bytes = 0, elapsed_ns = 0, device_ns = 0;
};
MemberRead read_member(CkdVolume& vol, const LibraryVolume& v, Ttr first, uint64_t now = 0) {
  MemberRead m;
  Ttr t = first;
  const uint64_t begin = now;
  for (;;) {
    std::vector<Ccw> p = locate_and_read(v, t);
    fetch::Cchhr a = v.address(t);
    // The records after it in the same cylinder, up to and including the end-of-file record.
    Ttr n = t;
    bool eof = v.record(t)->end_of_file();
    while (!eof) {
      n = v.next(n);
      if (n == Ttr{} || v.address(n).cylinder != a.cylinder) break;
      p.push_back(read(Cmd::ReadData, 65535, true));
      eof = v.record(n)->end_of_file();
    }
    Result r = vol.execute(now, p);
    m.excps++;
    m.records += r.records_read;
    m.bytes += r.bytes_read;
    m.device_ns += r.device_ns();
    now = r.time_ns;
    if (r.status == Status::EndOfFile) break;
    REQUIRE(r.status == Status::Ok);
    if (n == Ttr{}) break;
    t = n;
  }
  m.elapsed_ns = now - begin;
  return m;
}

}  // namespace

TEST_CASE("ckd: Search Key High or Equal over a PDS directory finds the block and counts those searched",
          "[ckd]") {
  BuiltLibrary l = pds(32760, fetch::synthetic_linklib(300));
  const LibraryVolume& v = l.volume;
  fetch::LibraryTracks tracks(v);
  CkdVolume vol(tracks);
  const auto blocks = directory_blocks(v);
  REQUIRE(blocks.size() > 45);   // more than one track of directory: the search goes multitrack
  const fetch::Cchhr d = v.address(Ttr{0, 1});
  uint64_t now = 0;
  for (size_t want : {size_t(0), size_t(7), blocks.size() / 2, blocks.size() - 1}) {
    // The first name in block `want`: the search must stop at that block.
    const auto& data = v.record(blocks[want])->data;
    std::vector<uint8_t> name(data.begin() + 2, data.begin() + 10);
    // BLDL's shape: orient on the directory's first block (Search ID Equal), then Search
    // Key High or Equal multitrack from its key on, then read the block found.
    std::vector<Ccw> p = {seek(d.cylinder, d.head), search_id_equal(d.cylinder, d.head, 1), tic(1),
                          search_key(Cmd::SearchKeyHighOrEqual, name, true), tic(3), read(Cmd::ReadData, 256)};
    Result r = vol.execute(now, p);
    INFO("block " << want << ": " << r.error);
    REQUIRE(r.ok());
    CHECK(r.records_searched >= want + 2);   // the ID search may see records before R1 come by
    CHECK(r.key_searches == want + 1);
    REQUIRE(r.reads.size() == 1);
    CHECK(r.reads[0] == data);
    now = r.time_ns;
  }
  // A key above every block's (the last block's key is X'FF...'): the search meets the
  // directory's end-of-file record and ends with unit exception, as BLDL sees it.
  std::vector<Ccw> p = {seek(d.cylinder, d.head), search_id_equal(d.cylinder, d.head, 1), tic(1),
                        search_key(Cmd::SearchKeyHighOrEqual, std::vector<uint8_t>(9, 0xFF), true), tic(3),
                        read(Cmd::ReadData, 256)};
  Result r = vol.execute(now, p);
  CHECK(r.status == Status::EndOfFile);
  CHECK(r.ccw == 3);
  CHECK(r.key_searches == blocks.size() + 1);
  CHECK(vol.stats().excps == 5);
}

TEST_CASE("ckd: a member's records chained in one channel program cost one seek, latency and their transfers",
          "[ckd]") {
  BuiltLibrary l = pds(6144, fetch::parse_member_list("AAA 8\nBIGONE 100K rld=300\n", "test"));
  const LibraryVolume& v = l.volume;
  fetch::LibraryTracks tracks(v);
  const CkdConfig cfg;
  const uint64_t rev = cfg.revolution_ns();
  const Ttr first = member_ttr(v, "BIGONE");
  // The member's records up to its end-of-file record (all in the first cylinder here).
  std::vector<Ttr> recs;
  for (Ttr t = first; !v.record(t)->end_of_file(); t = v.next(t)) recs.push_back(t);
  REQUIRE(recs.size() > 30);
  REQUIRE(v.address(recs.back()).cylinder == v.address(first).cylinder);
  const uint32_t tracks_spanned = recs.back().track - first.track + 1;
  uint64_t cells = 0, bytes = 0;
  for (Ttr t : recs) {
    cells += v.record(t)->cells();
    bytes += v.record(t)->data.size();
  }
  const uint64_t transfer_ns = cells * rev / geo::kCellsPerTrack;

  CkdVolume chained(tracks, cfg);
  std::vector<Ccw> p = locate_and_read(v, first);
  for (size_t i = 1; i < recs.size(); i++) p.push_back(read(Cmd::ReadData, 65535, true));
  const uint64_t now = 1'000'000;
  Result r = chained.execute(now, p);
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(r.records_read == recs.size());
  CHECK(r.bytes_read == bytes);
  CHECK(chained.stats().excps == 1);
  CHECK(r.device_ns() >= cfg.start_io_ns + transfer_ns);
  CHECK(r.device_ns() == cfg.start_io_ns + r.seek_ns + r.latency_ns + r.area_ns);
  // Under the head: the records read, plus the count of each record the search passed.
  CHECK(r.area_ns >= transfer_ns - recs.size());
  CHECK(r.area_ns <= transfer_ns + r.records_searched * (geo::kCountCells * rev / geo::kCellsPerTrack + 1));
  CHECK(r.latency_ns <= rev + tracks_spanned * rev);
  // The seek, at most a revolution's latency, the tracks the records span (a track's
  // unused tail passes under the head too).
  CHECK(r.device_ns() <= cfg.start_io_ns + r.seek_ns + rev + tracks_spanned * rev);
  CHECK(r.index_points <= tracks_spanned);

  // One record an EXCP: each channel program starts after the record it wants has passed.
  CkdVolume single(tracks, cfg);
  uint64_t t = now, device = 0;
  for (Ttr x : recs) {
    Result s = single.execute(t, locate_and_read(v, x));
    REQUIRE(s.ok());
    t = s.time_ns;
    device += s.device_ns();
  }
  CHECK(single.stats().excps == recs.size());
  CHECK(device > 10 * r.device_ns());
}

TEST_CASE("ckd: each read returns the areas its command names", "[ckd]") {
  BuiltLibrary l = pds(32760, fetch::parse_member_list("AAA 8\nBBB 3000\n", "test"));
  const LibraryVolume& v = l.volume;
  fetch::LibraryTracks tracks(v);
  CkdVolume vol(tracks);
  const fetch::Record& dir = *v.record(Ttr{0, 1});
  const fetch::Cchhr d = v.address(Ttr{0, 1});
  // Search ID Equal R1, then Read Key and Data: the directory block's key and data;
  // Read Count: the next record's count (the directory's end-of-file record: KL = DL = 0);
  // Read Count Key and Data: the one after it, count then data.
  Result r = vol.execute(0, {seek(d.cylinder, d.head), search_id_equal(d.cylinder, d.head, 1), tic(1),
                             read(Cmd::ReadKeyData, 264), read(Cmd::ReadCount, 8), read(Cmd::ReadCountKeyData, 65535)});
  INFO(r.error);
  REQUIRE(r.ok());
  REQUIRE(r.reads.size() == 3);
  std::vector<uint8_t> kd = dir.key;
  kd.insert(kd.end(), dir.data.begin(), dir.data.end());
  CHECK(r.reads[0] == kd);
  const std::vector<uint8_t> eof_count = {0, uint8_t(d.cylinder), 0, uint8_t(d.head), 2, 0, 0, 0};
  CHECK(r.reads[1] == eof_count);
  const fetch::Record& third = *v.record(Ttr{0, 3});
  REQUIRE(r.reads[2].size() == 8 + third.data.size());
  CHECK(r.reads[2][4] == 3);
  CHECK(std::equal(third.data.begin(), third.data.end(), r.reads[2].begin() + 8));
  // Search Key Equal on the directory block's key, from R1 on (a key search that meets
  // an end-of-file record, such as a member's, ends with end of file); Read Data then
  // gets its data.
  r = vol.execute(r.time_ns, {seek(d.cylinder, d.head), search_id_equal(d.cylinder, d.head, 1), tic(1),
                              search_key(Cmd::SearchKeyEqual, dir.key, false), tic(3), read(Cmd::ReadData, 256)});
  CAPTURE(r.error);
  REQUIRE(r.ok());
  CHECK(r.reads[0] == dir.data);
  // A count shorter than the block without SLI: the bytes it holds, then incorrect length.
  Ccw shortread = read(Cmd::ReadData, 100);
  shortread.sli = false;
  r = vol.execute(r.time_ns, {seek(d.cylinder, d.head), search_id_equal(d.cylinder, d.head, 1), tic(1), shortread});
  CHECK(r.status == Status::IncorrectLength);
  REQUIRE(r.reads.size() == 1);
  CHECK(r.reads[0] == std::vector<uint8_t>(dir.data.begin(), dir.data.begin() + 100));
  // Unchained: the program ends after the search, nothing read.
  Ccw s1 = search_id_equal(d.cylinder, d.head, 1);
  s1.chain = false;
  r = vol.execute(r.time_ns, {seek(d.cylinder, d.head), s1, tic(1), read(Cmd::ReadData, 256)});
  CHECK(r.ok());
  CHECK(r.reads.empty());
}

TEST_CASE("ckd: a PDSE's 4 KB pages, twelve a track, read chained in about a revolution", "[ckd]") {
  fetch::LibraryOptions o;
  o.organization = fetch::Organization::Pdse;
  BuiltLibrary l = fetch::build_library(fetch::parse_member_list("AAA 8\nBBB 200000\n", "test"), o);
  const LibraryVolume& v = l.volume;
  REQUIRE(v.tracks.size() >= 2);
  fetch::LibraryTracks tracks(v);
  CkdVolume vol(tracks);
  const uint64_t rev = vol.config().revolution_ns();
  // Pages 12 to 23: the second track, whole.
  std::vector<Ccw> p = locate_and_read(v, fetch::pdse_page_ttr(12), 4096);
  for (int i = 1; i < 12; i++) p.push_back(read(Cmd::ReadData, 4096, true));
  Result r = vol.execute(0, p);
  INFO(r.error);
  REQUIRE(r.ok());
  REQUIRE(r.reads.size() == 12);
  for (int i = 0; i < 12; i++) CHECK(r.reads[size_t(i)] == v.record(fetch::pdse_page_ttr(12 + uint32_t(i)))->data);
  const uint64_t page_ns = geo::record_cells(0, 4096) * rev / geo::kCellsPerTrack;
  CHECK(r.area_ns >= 12 * page_ns - 12);
  CHECK(r.area_ns < rev + page_ns);
  CHECK(r.latency_ns < rev);
}

TEST_CASE("ckd: a record just missed costs a revolution", "[ckd]") {
  BuiltLibrary l = pds(32760, fetch::parse_member_list("AAA 8\n", "test"));
  fetch::LibraryTracks tracks(l.volume);
  CkdVolume vol(tracks);
  const uint64_t rev = vol.config().revolution_ns();
  Result a = vol.execute(0, locate_and_read(l.volume, Ttr{0, 1}, 256));
  REQUIRE(a.ok());
  Result b = vol.execute(a.time_ns, locate_and_read(l.volume, Ttr{0, 1}, 256));
  REQUIRE(b.ok());
  CHECK(b.index_points == 1);
  // The start overhead, the rest of the revolution, the record again: one revolution.
  CHECK(b.device_ns() >= rev);
  CHECK(b.device_ns() < rev + vol.config().start_io_ns + rev / 10);
  CHECK(b.reads == a.reads);
}

TEST_CASE("ckd: a missing record gives no record found, an end-of-file record end of file", "[ckd]") {
  fetch::LibraryOptions o;
  o.spare_tracks = 3;
  BuiltLibrary l = fetch::build_library(fetch::parse_member_list("AAA 8\nBBB 5000\n", "test"), o);
  const LibraryVolume& v = l.volume;
  fetch::LibraryTracks tracks(v);
  CkdVolume vol(tracks);
  const uint64_t rev = vol.config().revolution_ns();
  fetch::Cchhr a = v.address(Ttr{0, 1});
  // Record 200 is on no track: the index point passes twice.
  Result r = vol.execute(0, {seek(a.cylinder, a.head), search_id_equal(a.cylinder, a.head, 200), tic(1),
                             read(Cmd::ReadData, 100)});
  CHECK(r.status == Status::NoRecordFound);
  CHECK(r.ccw == 1);
  CHECK(r.device_ns() <= vol.config().start_io_ns + 2 * rev);
  CHECK(r.error.find("no record found") != std::string::npos);
  // A spare (unwritten) track of the extent holds no records.
  const uint32_t spare = v.tracks_allocated - 1;
  fetch::Cchhr s = v.address(Ttr{spare, 1});
  r = vol.execute(r.time_ns, {seek(s.cylinder, s.head), search_id_equal(s.cylinder, s.head, 1), tic(1),
                              read(Cmd::ReadData, 100)});
  CHECK(r.status == Status::NoRecordFound);
  // Reading the data of the directory's end-of-file record: unit exception.
  Ttr eof{0, 1};
  while (!v.record(eof)->end_of_file()) eof = v.next(eof);
  r = vol.execute(r.time_ns, locate_and_read(v, eof));
  CHECK(r.status == Status::EndOfFile);
  CHECK(r.ccw == 3);
  CHECK(vol.stats().errors == 3);
  CHECK(vol.stats().excps == 3);
  // A key search over a track of keyless records (a member's interior track) finds
  // nothing: two index points, no record found; never a loop in zero time.
  BuiltLibrary big = pds(6144, fetch::parse_member_list("BIG 200K\n", "test"));
  REQUIRE(big.volume.tracks.size() > 2);
  for (const auto& rec : big.volume.tracks[1].records) REQUIRE((rec.key.empty() && !rec.end_of_file()));
  fetch::LibraryTracks bt(big.volume);
  CkdVolume bv(bt);
  fetch::Cchhr m = big.volume.address(Ttr{1, 1});
  r = bv.execute(0, {seek(m.cylinder, m.head), search_key(Cmd::SearchKeyEqual, {1, 2, 3}, false), tic(1),
                     read(Cmd::ReadData, 100)});
  CHECK(r.status == Status::NoRecordFound);
  CHECK(r.ccws_executed < 1000);
}

TEST_CASE("ckd: a channel program reading past the extent stops with end of extent", "[ckd]") {
  BuiltLibrary l = pds(32760, fetch::parse_member_list("AAA 8\nBBB 20000\n", "test"));
  const LibraryVolume& v = l.volume;
  REQUIRE(v.tracks_allocated == v.tracks.size());
  fetch::LibraryTracks tracks(v);
  CkdVolume vol(tracks);
  // A Seek outside the extent.
  fetch::Cchhr past = v.address(Ttr{v.tracks_allocated, 1});
  Result r = vol.execute(0, {seek(past.cylinder, past.head), search_id_equal(past.cylinder, past.head, 1), tic(1),
                             read(Cmd::ReadData, 100)});
  CHECK(r.status == Status::EndOfExtent);
  CHECK(r.ccw == 0);
  CHECK(r.records_read == 0);
  // Multitrack Read Count from the last track on: past its last record, the next head
  // is outside the extent (or the cylinder ends first).
  const uint32_t last = v.tracks_allocated - 1;
  fetch::Cchhr a = v.address(Ttr{last, 1});
  std::vector<Ccw> p = {seek(a.cylinder, a.head), search_id_equal(a.cylinder, a.head, 1), tic(1)};
  for (size_t i = 0; i < v.tracks[last].records.size() + 2; i++) p.push_back(read(Cmd::ReadCount, 8, true));
  r = vol.execute(r.time_ns, p);
  const bool cylinder_end = (a.head + 1) % geo::kTracksPerCylinder == 0;
  CHECK(r.status == (cylinder_end ? Status::EndOfCylinder : Status::EndOfExtent));
  CHECK(r.records_read == v.tracks[last].records.size() - 1);
  CHECK_FALSE(r.error.empty());
}

TEST_CASE("ckd: bad channel programs end with a status, never a crash or a hang", "[ckd]") {
  BuiltLibrary l = pds(6144, fetch::parse_member_list("AAA 8\nBBB 200000\n", "test"));
  fetch::LibraryTracks tracks(l.volume);
  CkdVolume vol(tracks);
  for (const auto& rec : l.volume.tracks[1].records) REQUIRE_FALSE(rec.end_of_file());
  CHECK(vol.execute(0, {}).status == Status::ProgramCheck);
  CHECK(vol.execute(0, {tic(5)}).status == Status::ProgramCheck);
  CHECK(vol.execute(0, {read(Cmd::ReadCount, 8), tic(1)}).status == Status::ProgramCheck);   // TIC to TIC
  Ccw bad_seek = seek(1, 20);
  CHECK(vol.execute(0, {bad_seek}).status == Status::ProgramCheck);
  // A Seek TIC'd back to forever: ended by the host's CCW limit.
  Result loop = vol.execute(0, {seek(1, 0), tic(0)});
  CHECK(loop.status == Status::ChannelLoop);
  CHECK(loop.ccws_executed == kMaxCcwsExecuted + 1);
  // A read TIC'd back to forever: ended by the bytes it would keep, not host memory.
  Result reads = vol.execute(loop.time_ns, {seek(1, 1), read(Cmd::ReadCountKeyData, 65535, false), tic(1)});
  CHECK(reads.status == Status::ChannelLoop);
  CHECK(reads.bytes_read <= kMaxBytesRead + 65535);
  // Earlier than the one before: refused, nothing done.
  REQUIRE(vol.execute(reads.submit_ns + 10, {seek(1, 0)}).ok());
  CHECK(vol.execute(reads.submit_ns + 5, {seek(1, 0)}).status == Status::TimeOrder);
  // Random programs: any command, flags, arguments and counts.
  std::mt19937_64 rng(7);
  const Cmd cmds[] = {Cmd::Seek, Cmd::SearchIdEqual, Cmd::SearchKeyEqual, Cmd::SearchKeyHighOrEqual, Cmd::Tic,
                      Cmd::ReadData, Cmd::ReadKeyData, Cmd::ReadCount, Cmd::ReadCountKeyData, Cmd(0x55)};
  uint64_t now = reads.submit_ns + 10;
  for (int i = 0; i < 2000; i++) {
    std::vector<Ccw> p(1 + rng() % 8);
    for (Ccw& c : p) {
      c.cmd = cmds[rng() % 10];
      c.multitrack = rng() & 1;
      c.chain = rng() % 8 != 0;
      c.sli = rng() & 1;
      c.count = uint32_t(rng() % 70000);
      c.tic_to = uint32_t(rng() % 10);
      c.arg.resize(rng() % 10);
      for (auto& b : c.arg) b = uint8_t(rng() % 4 == 0 ? rng() : (rng() % 3));
    }
    Result r = vol.execute(now, p);
    CHECK(r.time_ns >= now);
    CHECK((r.ok() || !r.error.empty()));
    now = r.time_ns;
  }
}

TEST_CASE("ckd: same channel programs, same results", "[ckd]") {
  BuiltLibrary l = pds(23440, with_big(100));
  fetch::LibraryTracks tracks(l.volume);
  CkdVolume a(tracks), b(tracks);
  MemberRead x = read_member(a, l.volume, member_ttr(l.volume, "BIG4M"), 123);
  MemberRead y = read_member(b, l.volume, member_ttr(l.volume, "BIG4M"), 123);
  CHECK(x.elapsed_ns == y.elapsed_ns);
  CHECK(x.excps == y.excps);
  CHECK(x.bytes == y.bytes);
  CHECK(a.stats().device_ns == b.stats().device_ns);
}

TEST_CASE("ckd: a 4 MB load module reads faster at 32760 than at 6144, in fewer records", "[ckd]") {
  // Seed 001 (ARCCTL, 4 MB): 32760 "almost halved the elapsed time". Here through the
  // device alone (no CPU, no directory search), one channel program a cylinder.
  MemberRead m[3];
  const uint32_t sizes[3] = {6144, 23440, 32760};
  for (int i = 0; i < 3; i++) {
    BuiltLibrary l = pds(sizes[i], with_big(20));
    fetch::LibraryTracks tracks(l.volume);
    CkdVolume vol(tracks);
    m[i] = read_member(vol, l.volume, member_ttr(l.volume, "BIG4M"));
    std::printf("ckd: a 4 MB load module at %u: %llu EXCPs, %llu records, %llu bytes, %.1f ms\n", sizes[i],
                (unsigned long long)m[i].excps, (unsigned long long)m[i].records, (unsigned long long)m[i].bytes,
                double(m[i].elapsed_ns) / 1e6);
  }
  CHECK(m[2].records < m[0].records / 3);
  CHECK(m[2].elapsed_ns < m[1].elapsed_ns);
  CHECK(m[1].elapsed_ns < m[0].elapsed_ns);
}

TEST_CASE("ckd: a directory of 4,200 members costs more blocks searched and more time than one of 2", "[ckd]") {
  // Seed 001: a PDS's directory is searched sequentially. BLDL's channel program for a
  // name in the middle of the alphabet.
  std::string many;
  for (int i = 0; i < 4200; i++) {
    char b[32];
    std::snprintf(b, sizeof b, "%c%06d 100\n", i < 2100 ? 'A' : 'Q', i);
    many += b;
  }
  many += "IEFBR14 8\n";
  struct Lookup {
    uint32_t key_searches = 0;
    uint64_t device_ns = 0;
  };
  auto bldl = [](const std::string& list) {
    BuiltLibrary l = pds(32760, fetch::parse_member_list(list, "test"));
    fetch::LibraryTracks tracks(l.volume);
    CkdVolume vol(tracks);
    const fetch::Cchhr d = l.volume.address(Ttr{0, 1});
    auto name = fetch::ebcdic_name("IEFBR14");
    Result r = vol.execute(0, {seek(d.cylinder, d.head), search_id_equal(d.cylinder, d.head, 1), tic(1),
                               search_key(Cmd::SearchKeyHighOrEqual, {name.begin(), name.end()}, true), tic(3),
                               read(Cmd::ReadData, 256)});
    INFO(r.error);
    REQUIRE(r.ok());
    return Lookup{r.key_searches, r.device_ns()};
  };
  Lookup two = bldl("IEFBR14 8\nBIG 4M\n"), lots = bldl(many);
  std::printf("ckd: BLDL of IEFBR14: 2 members %u blocks searched %.2f ms; 4,201 members %u blocks %.2f ms\n",
              two.key_searches, double(two.device_ns) / 1e6, lots.key_searches, double(lots.device_ns) / 1e6);
  CHECK(two.key_searches == 1);
  CHECK(lots.key_searches > 200);
  CHECK(lots.device_ns > two.device_ns);
}
