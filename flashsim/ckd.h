// Count-key-data channel programs on a 3390 volume: the I/O path BLDL and program
// fetch use (fetch/), as the device sees it: CCWs, tracks, records, time. It knows
// nothing of libraries, members or programs: the records come through `CkdTracks`, a
// read-only view that the data set's owner implements (fetch::LibraryTracks).
//
// MODEL CHOSEN: Seek-based channel programs (Seek, Search ID Equal + TIC, reads), as
// BPAM and program fetch build them, not Define Extent + Locate Record. The extent a
// channel program may touch is the data set's (`CkdTracks`), as the Define Extent
// that EXCP prefixes to such a program would set it; a Seek or a multitrack operation
// outside it ends the program with EndOfExtent (z/OS DFSMS Using Data Sets, "Event
// Control Block": completion code X'42', "a direct access extent address has been
// violated"). Command semantics as the IBM 3990 Storage Control Reference gives them
// (from that manual as we know it; it is not in our search corpus, so the details
// below are what this model does, to be checked against it): a search that is satisfied sets status
// modifier and the channel skips the next CCW (the TIC back to it); Read Data / Read
// Key and Data act on the record whose count was just passed, or the next one; Read
// Count and Read Count Key and Data on the next record; reading the data of an
// end-of-file record (KL = DL = 0) ends the chain with unit exception (EndOfFile), so
// does a search key meeting one (how BLDL learns a name is not in the directory); the
// index point passing twice without a record found ends it with no record found
// (non-multitrack); a multitrack (MT) operation goes on to the next head at the index
// point, and stops at the end of the cylinder (EndOfCylinder).
//
// TIMING (deterministic, the volume's own clock; one channel program at a time, later
// ones queue in submission order):
//   start_io_ns (the paging DASD model's channel program overhead, DasdConfig), then
//   each CCW in turn: a Seek costs seek_ns(cylinder distance); everything else waits
//   for its record to come under the head and for its areas to pass. The disk turns
//   continuously: the head's angular position is the time modulo a revolution
//   (60 s / rpm), and a record's count area begins at the cells of the records before
//   it on its track (dasd3390.h: 1,729 cells a track, a record C + K + D cells, the
//   gaps included), so chained reads of consecutive records cost their cells only,
//   and a record just missed costs a revolution. A search costs the cells of the
//   count (and key) it compares, per record passing; no channel turnaround time is
//   added between chained CCWs (the gaps in C exist for it). Head switches are
//   instantaneous (estimate).
//
// CACHED TIMING (CkdConfig::cached; program fetch's default): the control unit answers
// from its cache, as seed 002's DS8800 did for paging (95-100% hits) and as seed 001's
// figures say its DASD did (5,000 LOADs of IEFBR14, 10,006 EXCPs, in 3 s: 0.3 ms an
// EXCP, no room for a seek and a rotation). The channel program's commands act on the
// cached tracks exactly as above (same statuses, same bytes); its time is
//   start_io_ns + for each record a command reads or a key search compares, and the
//   record a Search ID Equal finds: record_overhead_ns + its bytes moved or compared x
//   (page_hit_ns - record_overhead_ns) / 4,096
//   + page_miss_ns for a track not yet staged whose hash says miss (cache_hit_ratio)
// so that a 4 KB record costs page_hit_ns, the paging DASD model's CALIBRATED figure
// (flashsim/dasd.h), and page_miss_ns and cache_hit_ratio are its too. A track read
// once stays staged (the seed's cache of 60 GB holds a library). What part of a 4 KB
// record's time is per record (the channel's and control unit's protocol for one CCW)
// and what part moves with its bytes, IBM does not say. A Search ID Equal costs only the
// record it finds: a cached control unit finds a record by its ID in its cache's
// directory of the track, as ECKD's Locate Record (which z/OS's access methods use on
// such controllers) positions on a record without passing the ones before it; a key
// search still compares every record it passes (how a PDS directory is searched).
// OURS: the split of the 4 KB record's time: record_overhead_ns is an
// ESTIMATE, half of page_hit_ns (docs/e5-fetch.md, "Sensitivity to the estimates").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "flashsim/dasd.h"
#include "flashsim/dasd3390.h"

namespace flashsim::ckd {

// One record as the channel sees it on a track.
struct RecordView {
  uint8_t r = 0;
  uint32_t key_length = 0, data_length = 0;
  const uint8_t* key = nullptr;    // key_length bytes
  const uint8_t* data = nullptr;   // data_length bytes
  uint32_t cells() const { return dasd3390::record_cells(key_length, data_length); }
  bool end_of_file() const { return key_length == 0 && data_length == 0; }
};

// A read-only view of one data set's extent on a volume: its tracks (relative track 0
// is the extent's first) and their records. Tracks in the extent but not written hold
// no records. Implementations must keep each track's records within 1,729 cells.
class CkdTracks {
 public:
  virtual ~CkdTracks() = default;
  virtual uint32_t extent_first_cylinder() const = 0;
  virtual uint32_t extent_first_head() const = 0;
  virtual uint32_t extent_tracks() const = 0;
  virtual uint32_t records_on_track(uint32_t relative_track) const = 0;
  virtual RecordView record_on_track(uint32_t relative_track, uint32_t index) const = 0;   // index < records_on_track
};

// Command codes (3990 reference); the multitrack variants are these | 0x80.
enum class Cmd : uint8_t {
  Seek = 0x07,                   // arg: BB CC HH (6 bytes)
  SearchIdEqual = 0x31,          // arg: CC HH R (5 bytes)
  SearchKeyEqual = 0x29,         // arg: the key
  SearchKeyHighOrEqual = 0x69,   // arg: the key; satisfied when the record's key >= arg
  Tic = 0x08,                    // transfer in channel to CCW `tic_to`
  ReadData = 0x06,
  ReadKeyData = 0x0E,
  ReadCount = 0x12,              // 8 bytes: CC HH R KL DL
  ReadCountKeyData = 0x1E,
};
const char* cmd_name(Cmd c);

struct Ccw {
  Cmd cmd = Cmd::ReadData;
  bool multitrack = false;      // the MT bit (searches and reads)
  bool chain = true;            // command chaining to the next CCW
  bool sli = true;              // suppress incorrect length (RECFM=U reads of unknown block length)
  uint32_t count = 0;           // bytes a read may transfer (its buffer)
  std::vector<uint8_t> arg;     // Seek / search argument
  uint32_t tic_to = 0;          // Tic: index of the CCW to continue at
};

enum class Status : uint8_t {
  Ok,
  NoRecordFound,     // the index point passed twice with no record found (unit check)
  EndOfFile,         // an end-of-file record: data read or key searched (unit exception)
  EndOfExtent,       // a Seek or track switch outside the data set's extent (file protected)
  EndOfCylinder,     // a multitrack operation past the cylinder's last head
  IncorrectLength,   // a read's count differs from the area's length without SLI
  ProgramCheck,      // a bad CCW: argument length, TIC target, TIC to TIC, empty program
  ChannelLoop,       // more than kMaxCcwsExecuted CCWs or kMaxBytesRead bytes (a TIC loop nothing stops)
  TimeOrder,         // submitted earlier than the previous channel program
};
const char* status_name(Status s);

// Host protection, not the device: a channel program that executes more CCWs than
// this, or whose reads return more bytes, is ended with ChannelLoop (a real channel
// would loop until the operator halted it, overwriting the same buffers; here each
// read's bytes are kept). Ours: far above what a legitimate program needs (a multitrack
// search of a whole cylinder of directory blocks is about 1,400 CCWs; a cylinder read
// at most 15 x 56,664 bytes).
inline constexpr uint32_t kMaxCcwsExecuted = 100'000;
inline constexpr uint64_t kMaxBytesRead = 16u << 20;

struct CkdConfig {
  // Estimate consistent with IBM: the 3390's average rotational delay is 7.1 ms
  // (CERN IT heritage collection, "IBM 3390 Hard Disk Platter", 1991), i.e. a
  // revolution of about 14.1 ms: 4,260 rpm, the figure usually quoted for the 3390.
  uint32_t rpm = 4260;
  // Estimates (IBM's per-model seek curve is not in our sources): a one-cylinder seek
  // and a full stroke; between them seek_ns grows with the square root of the
  // distance, the usual shape of a voice-coil actuator's seek curve.
  uint64_t seek_min_ns = 1'500'000;
  uint64_t seek_max_ns = 22'000'000;
  // From the paging DASD model (DasdConfig, flashsim/dasd.h): its volume size and its
  // channel program start overhead. One place: ckd_config(DasdConfig) copies them.
  uint32_t cylinders = DasdConfig{}.cylinders;
  uint64_t start_io_ns = DasdConfig{}.start_io_ns;
  // Cached timing (above). The paging DASD model's figures, copied by ckd_config().
  bool cached = false;
  double cache_hit_ratio = DasdConfig{}.cache_hit_ratio;
  uint64_t page_hit_ns = DasdConfig{}.page_hit_ns;
  uint64_t page_miss_ns = DasdConfig{}.page_miss_ns;
  uint64_t seed = DasdConfig{}.seed;
  unsigned device_number = 0;              // seeds the cache-hit function with `seed`
  uint64_t record_overhead_ns = DasdConfig{}.page_hit_ns / 2;   // ESTIMATE (above)

  std::string validate() const;   // "" if valid
  uint64_t revolution_ns() const { return 60'000'000'000ull / rpm; }
  uint64_t seek_ns(uint32_t distance) const;
};
CkdConfig ckd_config(const DasdConfig& dasd, CkdConfig base = {});

struct Result {
  Status status = Status::Ok;
  int ccw = -1;                          // the CCW that ended it, -1 if it ran to the end
  std::string error;                     // "" if Ok, else what and where
  std::vector<std::vector<uint8_t>> reads;   // the bytes each read CCW transferred, in order
  uint32_t records_read = 0;             // read CCWs that transferred a record's areas
  uint64_t bytes_read = 0;
  uint32_t records_searched = 0;         // records any search compared
  uint32_t key_searches = 0;             // of those, by a search key command (a directory search's blocks)
  uint32_t index_points = 0;             // index points passed (a revolution ended while looking for a record)
  uint32_t ccws_executed = 0;
  uint64_t submit_ns = 0, start_ns = 0, time_ns = 0;   // submitted, begun (after queueing), ended
  // The device time is start_io_ns + seek_ns + latency_ns + area_ns:
  uint64_t seek_ns = 0;                  // seeking
  uint64_t latency_ns = 0;               // waiting for a record's count to come under the head (RPS: disconnected);
                                         // cached: staging tracks that missed the cache
  uint32_t cache_misses = 0;             // cached: tracks staged from the disk
  uint64_t area_ns = 0;                  // counts, keys and data passing under the head as CCWs compare or move
                                         // them (RPS: the channel connected; an upper bound on connect time)
  uint64_t device_ns() const { return time_ns - start_ns; }
  bool ok() const { return status == Status::Ok; }
};

struct CkdStats {
  uint64_t excps = 0;                    // channel programs executed (one EXCP each)
  uint64_t errors = 0;                   // those that did not end Ok
  uint64_t end_of_file = 0;              // of those, ended by an end-of-file record (unit exception: how a
                                         // member's read and a BLDL for a missing name end)
  uint64_t end_of_cylinder = 0;          // of those, by a multitrack operation at the cylinder's end (how a
                                         // chained read of a cylinder's records ends)
  uint64_t records_read = 0, bytes_read = 0, records_searched = 0;
  uint64_t cache_misses = 0;             // cached timing: tracks staged
  uint64_t device_ns = 0;                // sum of their device times
};

// A 3390 volume's actuator and spindle executing channel programs against one data
// set's records. Never throws from execute(); the view must outlive the volume.
class CkdVolume {
 public:
  // Throws std::invalid_argument if cfg.validate() is not "".
  CkdVolume(const CkdTracks& tracks, CkdConfig cfg = {});
  Result execute(uint64_t now_ns, const std::vector<Ccw>& program);
  const CkdStats& stats() const { return stats_; }
  const CkdConfig& config() const { return cfg_; }
  uint32_t arm_cylinder() const { return arm_cylinder_; }
  // Cached timing: whether a relative track's records come from the cache at their
  // first reference (the hash), and whether it is staged now.
  bool cache_hit(uint32_t relative_track) const;
  bool staged(uint32_t relative_track) const { return relative_track < staged_.size() && staged_[relative_track]; }

  // The start of record `index`'s count area on `relative_track`, in cells from the index point.
  uint32_t record_start_cells(uint32_t relative_track, uint32_t index) const;
  // Records on the track the head can reach: those that end within the track's 1,729
  // cells (a view that puts more on a track has the rest ignored, never a crash).
  uint32_t reachable_records(uint32_t relative_track) const;

 private:
  const CkdTracks& tracks_;
  CkdConfig cfg_;
  CkdStats stats_;
  uint32_t arm_cylinder_;
  uint32_t head_track_ = 0;             // relative track the head is on between channel programs
  uint64_t busy_until_ = 0, last_submit_ = 0;
  std::vector<bool> staged_;            // cached timing: tracks in the control unit's cache
};

// Channel program builders for the usual shapes.
Ccw seek(uint32_t cylinder, uint32_t head);
Ccw search_id_equal(uint32_t cylinder, uint32_t head, uint8_t record, bool multitrack = false);
Ccw search_key(Cmd cmd, std::vector<uint8_t> key, bool multitrack);
Ccw tic(uint32_t to);
Ccw read(Cmd cmd, uint32_t count, bool multitrack = false);

}  // namespace flashsim::ckd
