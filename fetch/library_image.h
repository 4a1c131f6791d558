// A load library as a data set on a modelled 3390 volume: its tracks and their
// count-key-data records, and the file that holds them (a "library image").
//
// The image is what a later program fetch reads, record by record, through channel
// programs: a member's TTR (relative track, record) becomes a (cylinder, head, record)
// address on the volume, and the record's count, key and data are there as the channel
// would transfer them. Nothing in here is a shortcut past the records: the directory,
// the members' attributes and their text are only in the records.
//
// FILE FORMAT (ours; all integers big-endian, as the machine stores them):
//   header, kHeaderBytes:
//     0   8  magic "TPFLIB01"
//     8   1  organization: 1 PDS, 2 PDSE
//     9   1  reserved (0)
//     10  2  first cylinder of the extent
//     12  2  first head of the extent
//     14  2  reserved (0)
//     16  4  tracks allocated (the extent)
//     20  4  tracks written (then follow, in order; the rest of the extent is empty)
//     24  4  block size (DCB BLKSIZE; a PDSE's records are 4 KB pages whatever it says)
//     28  4  directory blocks allocated (PDS) / directory pages (PDSE)
//     32  44 data set name (EBCDIC, blank padded)
//     76  20 reserved (0)
//   then for each track written, a track header of kTrackHeaderBytes:
//     0 2 cylinder, 2 2 head, 4 2 records on the track, 6 2 reserved (0)
//   and its records in order, each: the 8-byte count area (CC HH R KL DL), then KL
//   bytes of key, then DL bytes of data. Record 0 (the track descriptor) is not
//   stored: the 1,729 cells of dasd3390.h already exclude it.
// An end-of-file record is a count with KL = DL = 0 (z/VM HCPCNTDS: "KL+DL=0 means end
// of file"). A PDS has one after its directory and one after each member.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flashsim/dasd3390.h"

namespace fetch {

inline constexpr char kImageMagic[8] = {'T', 'P', 'F', 'L', 'I', 'B', '0', '1'};
inline constexpr uint32_t kHeaderBytes = 96;
inline constexpr uint32_t kTrackHeaderBytes = 8;
// z/OS DFSMS Using Data Sets, "Allocating Space for a PDS": a PDS cannot occupy more
// than 65,535 tracks (a TTR's TT is 2 bytes). A PDSE may; ours stop at the same (it
// keeps every image's TT within 2 bytes, and a fetch's addresses within one volume).
inline constexpr uint32_t kMaxLibraryTracks = 65535;

enum class Organization : uint8_t { Pds = 1, Pdse = 2 };
const char* organization_name(Organization o);

// A relative track address within the data set: TT (tracks from the extent's first)
// and R (records from 1).
struct Ttr {
  uint32_t track = 0;
  uint8_t record = 0;
  uint32_t packed() const { return (track << 8) | record; }   // the 3 bytes TTR as stored
  static Ttr unpack(uint32_t v) { return Ttr{(v >> 8) & 0xFFFF, uint8_t(v & 0xFF)}; }
  bool operator==(const Ttr&) const = default;
};

// An absolute address on the volume: cylinder, head, record.
struct Cchhr {
  uint32_t cylinder = 0, head = 0;
  uint8_t record = 0;
};

struct Record {
  uint8_t r = 0;                  // record number on its track (1..)
  std::vector<uint8_t> key;       // KL bytes
  std::vector<uint8_t> data;      // DL bytes
  bool end_of_file() const { return key.empty() && data.empty(); }
  uint32_t cells() const { return flashsim::dasd3390::record_cells(uint32_t(key.size()), uint32_t(data.size())); }
};

struct Track {
  uint32_t cylinder = 0, head = 0;
  std::vector<Record> records;
  uint32_t cells_used() const;
};

// The data set on its volume: where its extent is, and its tracks.
struct LibraryVolume {
  Organization organization = Organization::Pds;
  uint32_t first_cylinder = 0, first_head = 0;
  uint32_t tracks_allocated = 0;
  uint32_t block_size = 0;
  uint32_t directory_blocks = 0;
  std::string dsname;                 // ASCII, trailing blanks removed
  std::vector<Track> tracks;          // the tracks written, relative track 0 first

  // TTR -> CCHHR on the volume (15 tracks a cylinder, dasd3390.h).
  Cchhr address(Ttr ttr) const;
  // The record at a TTR, or nullptr if the track is not written or has no such record.
  const Record* record(Ttr ttr) const;
  // The TTR of the record after `ttr` in data-set order (the next on its track, or the
  // first of the next track); {0,0} at the end.
  Ttr next(Ttr ttr) const;
  uint64_t records_written() const;
};

// The image's bytes: same volume, same bytes.
std::vector<uint8_t> serialize(const LibraryVolume& v);

// Writes records one after another the way BSAM/BPAM does on a 3390: a record goes on
// the current track if it fits in the cells left, else on the next track. Fails (the
// caller's error) past the extent.
class TrackWriter {
 public:
  explicit TrackWriter(LibraryVolume& v) : v_(v) {}
  // Writes and returns where. Throws std::length_error past the extent.
  Ttr write(std::vector<uint8_t> key, std::vector<uint8_t> data);
  Ttr write_end_of_file() { return write({}, {}); }
  // Cells left on the current track (a full track if none is begun).
  uint32_t cells_left() const;
  // The next write begins a new track.
  void new_track();
 private:
  LibraryVolume& v_;
  bool begin_next_ = true;
};

// Member names: 1 to 8 characters A-Z 0-9 @ # $ (the first not a digit), stored in
// EBCDIC padded with blanks (X'40'), as a PDS directory holds them; they sort and are
// searched in EBCDIC byte order (BLDL compares the 8 bytes). "" if valid, else why not.
std::string check_member_name(std::string_view name);
std::array<uint8_t, 8> ebcdic_name(std::string_view name);   // name must be valid
std::string ascii_name(const uint8_t* ebcdic8);                 // trailing blanks removed; '?' for others
std::string ascii_text(const uint8_t* ebcdic, size_t n);        // the same for n bytes
// Data set names (44 bytes): the same alphabet plus '.', '-'.
std::array<uint8_t, 44> ebcdic_dsname(std::string_view name);

// Big-endian helpers for the records' fields.
inline void put_be(std::vector<uint8_t>& b, size_t at, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; i--, v >>= 8) b[at + i] = uint8_t(v);
}
inline uint64_t get_be(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v = v << 8 | p[i];
  return v;
}

}  // namespace fetch
