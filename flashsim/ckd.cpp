#include "flashsim/ckd.h"

#include <algorithm>
#include <cmath>
#include <compare>
#include <stdexcept>

namespace flashsim::ckd {

const char* cmd_name(Cmd c) {
  switch (c) {
    case Cmd::Seek: return "SEEK";
    case Cmd::SearchIdEqual: return "SEARCH ID EQUAL";
    case Cmd::SearchKeyEqual: return "SEARCH KEY EQUAL";
    case Cmd::SearchKeyHighOrEqual: return "SEARCH KEY HIGH OR EQUAL";
    case Cmd::Tic: return "TIC";
    case Cmd::ReadData: return "READ DATA";
    case Cmd::ReadKeyData: return "READ KEY AND DATA";
    case Cmd::ReadCount: return "READ COUNT";
    case Cmd::ReadCountKeyData: return "READ COUNT KEY AND DATA";
  }
  return "?";
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Ok: return "ok";
    case Status::NoRecordFound: return "no record found";
    case Status::EndOfFile: return "end of file";
    case Status::EndOfExtent: return "end of extent";
    case Status::EndOfCylinder: return "end of cylinder";
    case Status::IncorrectLength: return "incorrect length";
    case Status::ProgramCheck: return "program check";
    case Status::ChannelLoop: return "channel loop";
    case Status::TimeOrder: return "time order";
  }
  return "?";
}

std::string CkdConfig::validate() const {
  if (rpm < 60 || rpm > 100'000) return "rpm: " + std::to_string(rpm) + " is out of range 60..100000";
  if (cylinders < 1 || cylinders > 65520) return "cylinders: " + std::to_string(cylinders) + " is out of range 1..65520";
  if (seek_min_ns > seek_max_ns) return "seek_min_ns is more than seek_max_ns";
  if (!(cache_hit_ratio >= 0.0 && cache_hit_ratio <= 1.0)) return "cache_hit_ratio: must be within 0..1";
  if (record_overhead_ns > page_hit_ns) return "record_overhead_ns is more than page_hit_ns";
  return "";
}

uint64_t CkdConfig::seek_ns(uint32_t distance) const {
  if (distance == 0) return 0;
  if (cylinders <= 2) return seek_min_ns;
  double f = std::sqrt(double(std::min(distance, cylinders - 1) - 1) / double(cylinders - 2));
  return seek_min_ns + uint64_t(std::llround(double(seek_max_ns - seek_min_ns) * f));
}

CkdConfig ckd_config(const DasdConfig& dasd, CkdConfig base) {
  base.cylinders = dasd.cylinders;
  base.start_io_ns = dasd.start_io_ns;
  base.cache_hit_ratio = dasd.cache_hit_ratio;
  base.page_hit_ns = dasd.page_hit_ns;
  base.page_miss_ns = dasd.page_miss_ns;
  base.seed = dasd.seed;
  base.device_number = dasd.device_number;
  return base;
}

bool CkdVolume::cache_hit(uint32_t relative_track) const {
  const uint64_t abs = uint64_t(tracks_.extent_first_cylinder()) * dasd3390::kTracksPerCylinder +
                       tracks_.extent_first_head() + relative_track;
  const uint64_t h = splitmix64(cfg_.seed ^ splitmix64(uint64_t(cfg_.device_number) << 40 ^ abs));
  return double(h >> 11) * 0x1.0p-53 < cfg_.cache_hit_ratio;
}

CkdVolume::CkdVolume(const CkdTracks& tracks, CkdConfig cfg)
    : tracks_(tracks), cfg_(cfg), arm_cylinder_(tracks.extent_first_cylinder()) {
  std::string err = cfg_.validate();
  if (!err.empty()) throw std::invalid_argument("flashsim ckd: " + err);
}

uint32_t CkdVolume::reachable_records(uint32_t t) const {
  if (t >= tracks_.extent_tracks()) return 0;
  uint32_t n = tracks_.records_on_track(t), cells = 0, i = 0;
  for (; i < n; i++) {
    cells += tracks_.record_on_track(t, i).cells();
    if (cells > dasd3390::kCellsPerTrack) break;
  }
  return i;
}

uint32_t CkdVolume::record_start_cells(uint32_t t, uint32_t index) const {
  uint32_t cells = 0;
  for (uint32_t i = 0; i < index; i++) cells += tracks_.record_on_track(t, i).cells();
  return cells;
}

namespace {

enum class Area { None, Count, Key, Data };

void put_be(std::vector<uint8_t>& b, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; i--) b.push_back(uint8_t(v >> (8 * i)));
}

// One channel program's execution: the head's track, the time, the orientation.
struct Run {
  const CkdVolume& vol;
  const CkdTracks& tr;
  const CkdConfig& cfg;
  Result& res;
  uint64_t rev;                     // ns a revolution
  uint64_t t;                       // now, ns
  uint32_t track;                   // relative
  int orient_rec = -1;              // the record whose `orient_area` the head has just passed
  Area orient_area = Area::None;
  uint32_t index_passes = 0;        // since the last record found (no record found at 2)
  std::vector<bool>* staged = nullptr;   // cached timing: the volume's staged tracks
  uint64_t cached_ns = 0;                // cached timing: the records' time (ckd.h)

  // Cached timing: a record searched or read, `bytes` compared or moved.
  void touch(uint64_t bytes) {
    if (!cfg.cached) return;
    cached_ns += cfg.record_overhead_ns + bytes * (cfg.page_hit_ns - cfg.record_overhead_ns) / 4096;
    if (track < staged->size() && !(*staged)[track]) {
      (*staged)[track] = true;
      if (!vol.cache_hit(track)) {
        cached_ns += cfg.page_miss_ns;
        res.latency_ns += cfg.page_miss_ns;
        res.cache_misses++;
      }
    }
  }

  uint32_t first_abs() const { return tr.extent_first_cylinder() * dasd3390::kTracksPerCylinder + tr.extent_first_head(); }
  uint32_t abs_track() const { return first_abs() + track; }
  // ns from the index point to `cells` cells along the track (the same formula for the
  // end of one area and the start of the next, so chained areas line up exactly).
  uint64_t at(uint32_t cells) const { return uint64_t(cells) * rev / dasd3390::kCellsPerTrack; }

  bool fail(Status s, std::string why) {
    res.status = s;
    res.error = std::move(why);
    return false;
  }
  std::string where() const {
    uint32_t a = abs_track();
    return "cylinder " + std::to_string(a / dasd3390::kTracksPerCylinder) + " head " +
           std::to_string(a % dasd3390::kTracksPerCylinder);
  }

  // Waits until `cells` along the current track is under the head (next revolution if passed).
  void wait_for(uint32_t cells) {
    uint64_t phase = t % rev, target = at(cells);
    if (target >= phase) t += target - phase;   // the areas in between pass under the head
    else {                                      // passed: a revolution lost, waiting
      t += rev - phase + target;
      res.latency_ns += rev - phase + target;
      res.index_points++;
    }
  }

  // The next record whose count comes under the head: waits for it (and moves on to the
  // next head at the index point if multitrack). False with the status set if none.
  bool next_count(bool mt, uint32_t& j) {
    for (;;) {
      const uint32_t n = vol.reachable_records(track);
      // Where the head is along the track. At a phase of 0 just after a record that
      // ended exactly at the track's last cell, the head is at the end of the track
      // (the index point is still to be passed), not at its beginning.
      const uint64_t phase = t % rev;
      const uint64_t pos = phase == 0 && orient_rec >= 0 ? rev : phase;
      uint32_t cells = 0;
      for (uint32_t i = 0; i < n; i++) {
        if (at(cells) >= pos) {
          t += at(cells) - pos;
          res.latency_ns += at(cells) - pos;
          j = i;
          return true;
        }
        cells += tr.record_on_track(track, i).cells();
      }
      t += rev - pos;   // to the index point
      res.latency_ns += rev - pos;
      res.index_points++;
      index_passes++;
      orient_rec = -1;
      orient_area = Area::None;
      if (mt) {
        if ((abs_track() + 1) % dasd3390::kTracksPerCylinder == 0)
          return fail(Status::EndOfCylinder, "multitrack operation past the last head of " + where());
        if (track + 1 >= tr.extent_tracks())
          return fail(Status::EndOfExtent, "multitrack operation past the extent's last track (" + where() + ")");
        track++;
      } else if (index_passes >= 2) {
        return fail(Status::NoRecordFound, "index point passed twice on " + where() + " with no record found");
      }
    }
  }

  // The record a Read Data / Read Key and Data acts on: the one whose count was just
  // passed (and key, for Read Data) if the head is there, else the next one.
  bool data_record(bool mt, bool key_too, uint32_t& j) {
    if (orient_rec >= 0 && (orient_area == Area::Count || (!key_too && orient_area == Area::Key))) {
      j = uint32_t(orient_rec);
      return true;
    }
    if (!next_count(mt, j)) return false;
    wait_for(vol.record_start_cells(track, j) + dasd3390::kCountCells);
    orient_rec = int(j);
    orient_area = Area::Count;
    return true;
  }

  void count_bytes(const RecordView& r, std::vector<uint8_t>& out) const {
    uint32_t a = abs_track();
    put_be(out, a / dasd3390::kTracksPerCylinder, 2);
    put_be(out, a % dasd3390::kTracksPerCylinder, 2);
    out.push_back(r.r);
    out.push_back(uint8_t(r.key_length));
    put_be(out, r.data_length, 2);
  }

  // A read CCW's transfer: `bytes` are what the areas hold; the CCW's count limits them.
  bool transfer(const Ccw& c, std::vector<uint8_t> bytes) {
    const size_t n = bytes.size();
    if (bytes.size() > c.count) bytes.resize(c.count);
    touch(bytes.size());
    res.bytes_read += bytes.size();
    res.records_read++;
    res.reads.push_back(std::move(bytes));
    index_passes = 0;
    if (n != c.count && !c.sli)
      return fail(Status::IncorrectLength, std::string(cmd_name(c.cmd)) + ": the record's " + std::to_string(n) +
                                               " bytes against a count of " + std::to_string(c.count) + " (" +
                                               where() + ")");
    return true;
  }

  bool seek(const Ccw& c) {
    if (c.arg.size() != 6) return fail(Status::ProgramCheck, "SEEK: argument of " + std::to_string(c.arg.size()) + " bytes, not 6 (BBCCHH)");
    uint32_t cyl = uint32_t(c.arg[2]) << 8 | c.arg[3], head = uint32_t(c.arg[4]) << 8 | c.arg[5];
    if (head >= dasd3390::kTracksPerCylinder)
      return fail(Status::ProgramCheck, "SEEK: head " + std::to_string(head) + " (a 3390 has 15)");
    uint64_t a = uint64_t(cyl) * dasd3390::kTracksPerCylinder + head;
    if (a < first_abs() || a >= uint64_t(first_abs()) + tr.extent_tracks())
      return fail(Status::EndOfExtent, "SEEK: cylinder " + std::to_string(cyl) + " head " + std::to_string(head) +
                                           " is outside the extent");
    uint32_t distance = cyl > arm_ ? cyl - arm_ : arm_ - cyl;
    uint64_t s = cfg.cached ? 0 : cfg.seek_ns(distance);   // cached: no arm moves
    t += s;
    res.seek_ns += s;
    arm_ = cyl;
    track = uint32_t(a - first_abs());
    orient_rec = -1;
    orient_area = Area::None;
    index_passes = 0;
    return true;
  }

  // Search commands: true and `hit` set, or false with the status set.
  bool search(const Ccw& c, bool& hit) {
    uint32_t j;
    // A key search right after the count of a record (a Search ID Equal on it) compares
    // that record's key, which comes next under the head; otherwise the next record's.
    if (c.cmd != Cmd::SearchIdEqual && orient_rec >= 0 && orient_area == Area::Count) j = uint32_t(orient_rec);
    else if (!next_count(c.multitrack, j)) return false;
    const RecordView r = tr.record_on_track(track, j);
    const uint32_t start = vol.record_start_cells(track, j);
    res.records_searched++;
    if (c.cmd != Cmd::SearchIdEqual) touch(8 /* the count */ + r.key_length);
    if (c.cmd == Cmd::SearchIdEqual) {
      wait_for(start + dasd3390::kCountCells);
      std::vector<uint8_t> id;
      count_bytes(r, id);
      hit = std::equal(c.arg.begin(), c.arg.end(), id.begin());
      if (hit) touch(8);   // cached: the control unit orients on the record at once (ckd.h)
      orient_rec = int(j);
      orient_area = Area::Count;
    } else {
      res.key_searches++;
      if (r.end_of_file()) {
        wait_for(start + dasd3390::kCountCells);
        return fail(Status::EndOfFile, std::string(cmd_name(c.cmd)) + ": end-of-file record R" + std::to_string(r.r) +
                                           " on " + where());
      }
      wait_for(start + dasd3390::kCountCells + dasd3390::detail::area_cells(r.key_length));
      if (r.key_length == 0) hit = false;   // nothing to compare: the search goes on
      else {
        auto cmp = std::lexicographical_compare_three_way(r.key, r.key + r.key_length, c.arg.data(),
                                                          c.arg.data() + c.arg.size());
        hit = c.cmd == Cmd::SearchKeyEqual ? cmp == 0 : cmp >= 0;
      }
      // Past its key area (an empty one too): the next key search takes the next record.
      orient_rec = int(j);
      orient_area = Area::Key;
    }
    if (hit) index_passes = 0;
    return true;
  }

  bool read(const Ccw& c) {
    uint32_t j;
    std::vector<uint8_t> bytes;
    if (c.cmd == Cmd::ReadData || c.cmd == Cmd::ReadKeyData) {
      const bool key_too = c.cmd == Cmd::ReadKeyData;
      if (!data_record(c.multitrack, key_too, j)) return false;
      const RecordView r = tr.record_on_track(track, j);
      const uint32_t start = vol.record_start_cells(track, j);
      const uint32_t k = dasd3390::detail::area_cells(r.key_length);
      if (r.end_of_file())
        return fail(Status::EndOfFile, std::string(cmd_name(c.cmd)) + ": end-of-file record R" + std::to_string(r.r) +
                                           " on " + where());
      wait_for(start + dasd3390::kCountCells + (key_too ? 0 : k));
      wait_for(start + r.cells());   // the areas pass: the transfer
      if (key_too) bytes.assign(r.key, r.key + r.key_length);
      bytes.insert(bytes.end(), r.data, r.data + r.data_length);
    } else {   // ReadCount, ReadCountKeyData: the next record
      if (!next_count(c.multitrack, j)) return false;
      const RecordView r = tr.record_on_track(track, j);
      const uint32_t start = vol.record_start_cells(track, j);
      count_bytes(r, bytes);
      if (c.cmd == Cmd::ReadCount || r.end_of_file()) {
        wait_for(start + dasd3390::kCountCells);
        if (c.cmd == Cmd::ReadCountKeyData) {   // its count comes in, then unit exception
          transfer(c, std::move(bytes));
          return fail(Status::EndOfFile, "READ COUNT KEY AND DATA: end-of-file record R" + std::to_string(r.r) +
                                             " on " + where());
        }
      } else {
        wait_for(start + r.cells());
        bytes.insert(bytes.end(), r.key, r.key + r.key_length);
        bytes.insert(bytes.end(), r.data, r.data + r.data_length);
      }
    }
    orient_rec = int(j);
    orient_area = c.cmd == Cmd::ReadCount ? Area::Count : Area::Data;
    return transfer(c, std::move(bytes));
  }

  uint32_t arm_ = 0;
};

}  // namespace

Result CkdVolume::execute(uint64_t now_ns, const std::vector<Ccw>& program) {
  Result res;
  res.submit_ns = res.start_ns = res.time_ns = now_ns;
  if (now_ns < last_submit_) {
    res.status = Status::TimeOrder;
    res.error = "channel program submitted at " + std::to_string(now_ns) + " ns, before the previous one at " +
                std::to_string(last_submit_) + " ns";
    stats_.errors++;
    return res;
  }
  last_submit_ = now_ns;
  res.start_ns = std::max(now_ns, busy_until_);
  // Cached timing: the commands still run against the tracks (from the index point),
  // on a clock of their own; the time is the records' (ckd.h).
  Run run{*this, tracks_, cfg_, res, cfg_.revolution_ns(), cfg_.cached ? 0 : res.start_ns + cfg_.start_io_ns,
          cfg_.cached ? 0 : head_track_};
  run.arm_ = arm_cylinder_;
  if (staged_.size() != tracks_.extent_tracks()) staged_.assign(tracks_.extent_tracks(), false);
  run.staged = &staged_;

  size_t pc = 0;
  bool ok = true;
  if (program.empty()) ok = run.fail(Status::ProgramCheck, "empty channel program");
  while (ok && pc < program.size()) {
    const Ccw& c = program[pc];
    if (++res.ccws_executed > kMaxCcwsExecuted || res.bytes_read > kMaxBytesRead) {
      ok = run.fail(Status::ChannelLoop, "more than " + std::to_string(kMaxCcwsExecuted) + " CCWs executed or " +
                                             std::to_string(kMaxBytesRead) + " bytes read: a loop");
      break;
    }
    size_t next = pc + 1;
    switch (c.cmd) {
      case Cmd::Seek: ok = run.seek(c); break;
      case Cmd::Tic:
        if (c.tic_to >= program.size() || program[c.tic_to].cmd == Cmd::Tic)
          ok = run.fail(Status::ProgramCheck, "TIC to CCW " + std::to_string(c.tic_to) +
                                                  (c.tic_to >= program.size() ? ": outside the program" : ": a TIC"));
        next = c.tic_to;
        break;
      case Cmd::SearchIdEqual:
      case Cmd::SearchKeyEqual:
      case Cmd::SearchKeyHighOrEqual: {
        if (c.cmd == Cmd::SearchIdEqual ? c.arg.size() != 5 : (c.arg.empty() || c.arg.size() > 255)) {
          ok = run.fail(Status::ProgramCheck, std::string(cmd_name(c.cmd)) + ": argument of " +
                                                  std::to_string(c.arg.size()) + " bytes");
          break;
        }
        bool hit = false;
        ok = run.search(c, hit);
        if (hit) next = pc + 2;   // status modifier: skip the TIC
        break;
      }
      case Cmd::ReadData:
      case Cmd::ReadKeyData:
      case Cmd::ReadCount:
      case Cmd::ReadCountKeyData: ok = run.read(c); break;
      default: ok = run.fail(Status::ProgramCheck, "command code " + std::to_string(unsigned(c.cmd)) + " not modelled");
    }
    if (!ok) break;
    if (!c.chain && c.cmd != Cmd::Tic) break;
    pc = next;
  }
  if (!ok) res.ccw = int(pc);

  res.time_ns = cfg_.cached ? res.start_ns + cfg_.start_io_ns + run.cached_ns : run.t;
  res.area_ns = res.device_ns() - std::min(res.device_ns(), cfg_.start_io_ns + res.seek_ns + res.latency_ns);
  busy_until_ = res.time_ns;
  arm_cylinder_ = run.arm_;
  head_track_ = run.track;
  stats_.excps++;
  if (!ok) stats_.errors++;
  if (res.status == Status::EndOfFile) stats_.end_of_file++;
  if (res.status == Status::EndOfCylinder) stats_.end_of_cylinder++;
  stats_.records_read += res.records_read;
  stats_.bytes_read += res.bytes_read;
  stats_.records_searched += res.records_searched;
  stats_.cache_misses += res.cache_misses;
  stats_.device_ns += res.device_ns();
  return res;
}

Ccw seek(uint32_t cylinder, uint32_t head) {
  Ccw c;
  c.cmd = Cmd::Seek;
  c.arg = {0, 0, uint8_t(cylinder >> 8), uint8_t(cylinder), uint8_t(head >> 8), uint8_t(head)};
  return c;
}

Ccw search_id_equal(uint32_t cylinder, uint32_t head, uint8_t record, bool multitrack) {
  Ccw c;
  c.cmd = Cmd::SearchIdEqual;
  c.multitrack = multitrack;
  c.arg = {uint8_t(cylinder >> 8), uint8_t(cylinder), uint8_t(head >> 8), uint8_t(head), record};
  return c;
}

Ccw search_key(Cmd cmd, std::vector<uint8_t> key, bool multitrack) {
  Ccw c;
  c.cmd = cmd;
  c.multitrack = multitrack;
  c.arg = std::move(key);
  return c;
}

Ccw tic(uint32_t to) {
  Ccw c;
  c.cmd = Cmd::Tic;
  c.tic_to = to;
  return c;
}

Ccw read(Cmd cmd, uint32_t count, bool multitrack) {
  Ccw c;
  c.cmd = cmd;
  c.count = count;
  c.multitrack = multitrack;
  return c;
}

}  // namespace flashsim::ckd
