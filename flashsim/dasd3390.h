// 3390 track geometry: how many count-key-data records of given key and data lengths a
// track holds. The one place this fact lives: the paging volumes' 12 4 KB records a
// track (flashsim/dasd.h) and the load libraries' blocks (fetch/) both come from here.
//
// Why in flashsim and not in fetch/: it is a property of the device (the 3390's track
// format), the same whoever writes the records; flashsim is where the devices are.
//
// Source: IBM 3390 Direct Access Storage Reference Summary, GX26-4577, "track capacity"
// (quoted on ibm-main, 23 Nov 2022, J. Ewing):
//   - a track is 1,729 cells of 34 bytes (the standard record 0 already excluded);
//   - a record takes C + K + D cells: C = 10;
//     K = 0 without a key, else 9 + ceil((KL + 6*ceil((KL+6)/232) + 6) / 34);
//     D = 9 + ceil((DL + 6*ceil((DL+6)/232) + 6) / 34), and 0 for a data length of 0
//     (an end-of-file record: KL = DL = 0, count only);
//   - so the largest record a track holds (no key) is 56,664 bytes, and two 27,998-byte
//     records fill a track.
// 15 tracks a cylinder, 56,664 bytes the largest data length a track holds, 27,998 the
// most efficient block (two a track): also z/OS DFSMS Using Data Sets, "Direct access
// storage devices" (its table of device capacities). Count area layout (CC HH R KL DL,
// 8 bytes): z/VM HCPCNTDS (COUNTCC, COUNTHH, COUNTR, COUNTKL, COUNTDL).
#pragma once
#include <cstdint>

namespace flashsim::dasd3390 {

inline constexpr uint32_t kCellsPerTrack = 1729;     // GX26-4577
inline constexpr uint32_t kBytesPerCell = 34;        // GX26-4577
inline constexpr uint32_t kTracksPerCylinder = 15;   // GX26-4577
inline constexpr uint32_t kMaxRecordBytes = 56664;   // GX26-4577: the one record a track holds (no key)
inline constexpr uint32_t kCountCells = 10;          // C in the formula: the count area and its gaps
inline constexpr uint32_t kCountAreaBytes = 8;       // CCHHR KL DL as the channel reads them

namespace detail {
constexpr uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// Cells of a key or data area of `length` bytes; 0 if there is none.
constexpr uint32_t area_cells(uint32_t length) {
  if (length == 0) return 0;
  return 9 + ceil_div(length + 6 * ceil_div(length + 6, 232) + 6, kBytesPerCell);
}
}  // namespace detail

// Cells a record takes on a track: C + K + D.
constexpr uint32_t record_cells(uint32_t key_length, uint32_t data_length) {
  return kCountCells + detail::area_cells(key_length) + detail::area_cells(data_length);
}

// Whether a record fits in the cells a track has left.
constexpr bool record_fits(uint32_t cells_left, uint32_t key_length, uint32_t data_length) {
  return record_cells(key_length, data_length) <= cells_left;
}

// How many records of this size one empty track holds (0 if not even one).
constexpr uint32_t records_per_track(uint32_t key_length, uint32_t data_length) {
  return kCellsPerTrack / record_cells(key_length, data_length);
}

// The largest data length that fits in `cells_left` cells with a key of `key_length`
// (what TRKCALC FUNCTN=TRKBAL,MAXSIZE=YES returns, z/OS DFSMSdfp Advanced Services);
// 0 if not even a 1-byte record fits. Bounded: at most kMaxRecordBytes.
constexpr uint32_t largest_data_fitting(uint32_t cells_left, uint32_t key_length) {
  if (!record_fits(cells_left, key_length, 1)) return 0;
  uint32_t lo = 1, hi = kMaxRecordBytes;   // record_fits(lo) holds; find the largest such
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo + 1) / 2;
    if (record_fits(cells_left, key_length, mid)) lo = mid; else hi = mid - 1;
  }
  return lo;
}

static_assert(record_cells(0, kMaxRecordBytes) == kCellsPerTrack, "56,664 bytes fill a track exactly");
static_assert(records_per_track(0, 4096) == 12, "IBM: 12 4 KB blocks a 3390 track");

}  // namespace flashsim::dasd3390
