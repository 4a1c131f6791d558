// 3390 track geometry (flashsim/dasd3390.h, issue 26 item 1) against IBM's published
// blocks per track.
#include <catch2/catch.hpp>

#include "flashsim/dasd.h"
#include "flashsim/dasd3390.h"

using namespace flashsim::dasd3390;

TEST_CASE("dasd3390: blocks per track as IBM publishes them", "[dasd3390]") {
  // IBM 3390 Reference Summary (GX26-4577), blocks per track without keys.
  CHECK(records_per_track(0, 4096) == 12);
  CHECK(records_per_track(0, 6144) == 8);
  CHECK(records_per_track(0, 27998) == 2);    // half-track blocking's largest block
  CHECK(records_per_track(0, 27999) == 1);
  CHECK(records_per_track(0, 56664) == 1);    // the largest record a track holds
  CHECK(records_per_track(0, 56665) == 0);
  // The seed's block sizes (computed by the same formula).
  CHECK(records_per_track(0, 23440) == 2);
  CHECK(records_per_track(0, 32760) == 1);
}

TEST_CASE("dasd3390: cells of a record, C + K + D", "[dasd3390]") {
  CHECK(record_cells(0, 56664) == kCellsPerTrack);
  // 4096: D = 9 + ceil((4096 + 6*18 + 6)/34) = 9 + 124 = 133; + C 10.
  CHECK(record_cells(0, 4096) == 143);
  // An end-of-file record (KL = DL = 0) is its count area only.
  CHECK(record_cells(0, 0) == kCountCells);
  // A PDS directory block: 8-byte key (K = 9 + ceil(20/34) = 10), 256 bytes of data
  // (D = 9 + ceil((256 + 12 + 6)/34) = 18): 38 cells, so 45 a track (1,729 / 38).
  CHECK(record_cells(8, 256) == 38);
  CHECK(records_per_track(8, 256) == 45);
}

TEST_CASE("dasd3390: what fits in a track's remaining cells", "[dasd3390]") {
  CHECK(record_fits(kCellsPerTrack, 0, 56664));
  CHECK_FALSE(record_fits(kCellsPerTrack - 1, 0, 56664));
  CHECK(record_fits(143, 0, 4096));
  CHECK_FALSE(record_fits(142, 0, 4096));
  // The largest data length that fits is the one whose record fits and whose one byte
  // more does not (TRKCALC MAXSIZE=YES).
  for (uint32_t cells : {20u, 143u, 500u, 864u, 1729u}) {
    uint32_t dl = largest_data_fitting(cells, 0);
    REQUIRE(dl > 0);
    CHECK(record_fits(cells, 0, dl));
    if (dl < kMaxRecordBytes) CHECK_FALSE(record_fits(cells, 0, dl + 1));
  }
  CHECK(largest_data_fitting(kCellsPerTrack, 0) == kMaxRecordBytes);
  CHECK(largest_data_fitting(19, 0) == 0);    // 10 + 9 + 1 cells: not even one byte
  // Two half-track blocks fit a track: after one 27,998-byte block (864 cells) the
  // remaining 865 cells take up to 28,032 bytes.
  CHECK(record_cells(0, 27998) == 864);
  CHECK(largest_data_fitting(kCellsPerTrack - record_cells(0, 27998), 0) == 28032);
}

TEST_CASE("dasd3390: the paging volume's geometry comes from the same place", "[dasd3390]") {
  flashsim::DasdConfig c;
  CHECK(c.records_per_track == 12);
  CHECK(c.tracks_per_cylinder == 15);
}
