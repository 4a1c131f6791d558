#include "emu/system/eckd.h"

#include <algorithm>
#include <cstring>

namespace emu {

namespace {
uint16_t be16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }
}  // namespace

EckdDevice::EckdDevice(std::string name, EckdModel model, std::vector<uint8_t> image)
    : name_(std::move(name)), model_(std::move(model)), image_(std::move(image)) {}

// A track's records: as the image holds them (R1 to R12 of 4 KB) until a format write
// rewrites it.
std::vector<EckdDevice::Record>& EckdDevice::track(uint32_t t) {
  auto it = tracks_.find(t);
  if (it != tracks_.end()) return it->second;
  std::vector<Record> records(model_.records_per_track);
  for (uint32_t k = 0; k < model_.records_per_track; ++k) {
    Record& r = records[k];
    r.cylinder = uint16_t(t / model_.tracks_per_cylinder), r.head = uint16_t(t % model_.tracks_per_cylinder);
    r.r = uint8_t(k + 1);
    r.data.assign(model_.record_bytes, 0);
    const uint64_t at = (uint64_t(t) * model_.records_per_track + k) * model_.record_bytes;
    if (at < image_.size())
      std::memcpy(r.data.data(), image_.data() + at, std::min<uint64_t>(model_.record_bytes, image_.size() - at));
  }
  return tracks_.emplace(t, std::move(records)).first->second;
}

uint64_t EckdDevice::begin(uint64_t now_ns) {
  ++programs;
  const uint64_t start = std::max(now_ns, busy_until_);
  clock_ns_ = start + model_.start_io_ns;
  extent_defined_ = located_ = false;
  records_left_ = 0;
  return clock_ns_ - now_ns;
}

void EckdDevice::end() { busy_until_ = clock_ns_; }

// Unit check: the sense bytes say why (byte 0 command reject; byte 1 no record found,
// file protected, invalid track format), kept for the SENSE that follows.
DeviceAnswer EckdDevice::reject(uint8_t byte0, uint8_t byte1) {
  std::memset(sense_, 0, sizeof sense_);
  sense_[0] = byte0, sense_[1] = byte1;
  located_ = false;
  return DeviceAnswer{device_status::kUnitCheck, 0};
}

uint64_t EckdDevice::rotate_to(uint32_t cells) const {
  const uint64_t angle = clock_ns_ % model_.revolution_ns, target = cells_ns(cells);
  return (target + model_.revolution_ns - angle) % model_.revolution_ns;
}

uint32_t EckdDevice::cells_before(const std::vector<Record>& records, size_t index) const {
  uint32_t cells = 0;
  for (size_t k = 0; k < index && k < records.size(); ++k)
    cells += model_.record_cells(uint32_t(records[k].key.size()), uint32_t(records[k].data.size()));
  return cells;
}

DeviceAnswer EckdDevice::execute(DeviceCommand& c) {
  const uint64_t before = clock_ns_;
  // The sense bytes describe the last unit check until the next command reads or clears them.
  if (c.code != eckd::kSense) std::memset(sense_, 0, sizeof sense_);
  DeviceAnswer a;
  switch (c.code) {
    case eckd::kSense:
      c.data.assign(sense_, sense_ + sizeof sense_);
      std::memset(sense_, 0, sizeof sense_);
      break;
    case eckd::kSenseId:  // X'FF', control unit 3990 model E9, device 3390 model 0C
      c.data = {0xFF, 0x39, 0x90, 0xE9, 0x33, 0x90, 0x0C};
      break;
    case eckd::kNop: break;  // takes what it is given, does nothing
    case eckd::kDefineExtent: a = define_extent(c); break;
    case eckd::kLocateRecord: a = locate_record(c); break;
    case eckd::kReadData: case eckd::kReadDataMultitrack: case eckd::kWriteData: case eckd::kReadCount:
    case eckd::kReadCountMultitrack: case eckd::kReadCkd: case eckd::kWriteCkd:
      a = in_domain(c);
      break;
    default: a = reject(eckd::kCommandReject, 0); break;
  }
  if (a.status & device_status::kUnitCheck) c.data.clear();
  a.ns = clock_ns_ - before;
  return a;
}

// DEFINE EXTENT (16 bytes): byte 0 the file mask (bits 0-1 the write permissions: 01
// inhibits every write, 10 format writes), bytes 8-11 the extent's first track (CC HH),
// 12-15 its last. One a chain; an extent outside the volume is rejected.
DeviceAnswer EckdDevice::define_extent(DeviceCommand& c) {
  if (extent_defined_ || c.data.size() < 16) return reject(eckd::kCommandReject, 0);
  c.data.resize(16);
  const uint8_t* p = c.data.data();
  const uint32_t first = be16(p + 8) * model_.tracks_per_cylinder + be16(p + 10);
  const uint32_t last = be16(p + 12) * model_.tracks_per_cylinder + be16(p + 14);
  if (be16(p + 10) >= model_.tracks_per_cylinder || be16(p + 14) >= model_.tracks_per_cylinder || first > last ||
      last >= tracks())
    return reject(eckd::kCommandReject, 0);
  extent_defined_ = true, file_mask_ = p[0], extent_first_ = first, extent_last_ = last;
  return {};
}

// LOCATE RECORD (16 bytes) [3990 reference]: byte 0 bits 2-7 the operation (06 read, 01
// write data, 03 format write), byte 3 the records of the domain, bytes 4-7 the seek
// address (CC HH), 8-12 the search argument (CC HH R): for read and write data the
// domain's first record, for a format write the record after which it writes (R 0: the
// track's start). The arm seeks, then the disk turns until that record comes.
DeviceAnswer EckdDevice::locate_record(DeviceCommand& c) {
  if (!extent_defined_ || c.data.size() < 16) return reject(eckd::kCommandReject, 0);
  c.data.resize(16);
  const uint8_t* p = c.data.data();
  const uint8_t operation = p[0] & 0x3F, count = p[3];
  const uint32_t cylinder = be16(p + 4), head = be16(p + 6);
  if ((operation != eckd::kOrientRead && operation != eckd::kOrientWriteData && operation != eckd::kFormatWrite) ||
      count == 0 || head >= model_.tracks_per_cylinder || cylinder >= model_.cylinders)
    return reject(eckd::kCommandReject, 0);
  const uint32_t t = cylinder * model_.tracks_per_cylinder + head;
  if (t < extent_first_ || t > extent_last_) return reject(0, eckd::kFileProtected);
  const uint8_t writes = file_mask_ >> 6;  // 01 inhibit all writes, 10 inhibit format writes
  if ((operation == eckd::kOrientWriteData && writes == 1) || (operation == eckd::kFormatWrite && (writes == 1 || writes == 2)))
    return reject(0, eckd::kFileProtected);
  if (cylinder != arm_cylinder_) {
    clock_ns_ += model_.seek_ns(cylinder > arm_cylinder_ ? cylinder - arm_cylinder_ : arm_cylinder_ - cylinder);
    arm_cylinder_ = cylinder;
  }
  std::vector<Record>& records = track(t);
  const uint16_t search_cylinder = be16(p + 8), search_head = be16(p + 10);
  const uint8_t search_r = p[12];
  size_t index = 0;
  bool found = operation == eckd::kFormatWrite && search_r == 0;
  for (size_t k = 0; k < records.size() && !found; ++k)
    if (records[k].cylinder == search_cylinder && records[k].head == search_head && records[k].r == search_r)
      found = true, index = operation == eckd::kFormatWrite ? k + 1 : k;
  if (!found) {
    // The index point passes twice with no record found [flashsim/ckd.h's model].
    clock_ns_ += rotate_to(0) + 2 * model_.revolution_ns;
    return reject(0, eckd::kNoRecordFound);
  }
  clock_ns_ += rotate_to(cells_before(records, index));
  located_ = true, operation_ = operation, records_left_ = count, domain_track_ = t, domain_index_ = index;
  return {};
}

// A command of LOCATE RECORD's domain on the record under the head: READ DATA (06, or 86
// multitrack), READ COUNT (12, 92), READ COUNT KEY AND DATA (1E) in a read domain, WRITE
// DATA (05) in a write-data one, WRITE COUNT KEY AND DATA (1D) in a format-write one.
// Anything else, or past the domain's count, is rejected.
DeviceAnswer EckdDevice::in_domain(DeviceCommand& c) {
  const bool read = c.code == eckd::kReadData || c.code == eckd::kReadDataMultitrack || c.code == eckd::kReadCount ||
                    c.code == eckd::kReadCountMultitrack || c.code == eckd::kReadCkd;
  const uint8_t wanted = read ? eckd::kOrientRead : c.code == eckd::kWriteData ? eckd::kOrientWriteData : eckd::kFormatWrite;
  if (!located_ || records_left_ == 0 || operation_ != wanted) return reject(eckd::kCommandReject, 0);
  std::vector<Record>* records = &track(domain_track_);
  if (c.code == eckd::kWriteCkd) {
    // The new record: count (CC HH R KL DL), key, data; the track's records after it are erased.
    if (c.data.size() < 8) return reject(eckd::kCommandReject, 0);
    const uint8_t* p = c.data.data();
    Record r;
    r.cylinder = be16(p), r.head = be16(p + 2), r.r = p[4];
    const uint32_t key_length = p[5], data_length = be16(p + 6);
    c.data.resize(8 + key_length + data_length);
    r.key.assign(c.data.begin() + 8, c.data.begin() + 8 + key_length);
    r.data.assign(c.data.begin() + 8 + key_length, c.data.end());
    const uint32_t t = domain_track_;
    if (r.cylinder != t / model_.tracks_per_cylinder || r.head != t % model_.tracks_per_cylinder)
      return reject(0, eckd::kInvalidTrackFormat);
    const uint32_t cells = cells_before(*records, domain_index_) + model_.record_cells(key_length, data_length);
    if (cells > model_.cells_per_track) return reject(0, eckd::kInvalidTrackFormat);
    records->resize(domain_index_);
    records->push_back(std::move(r));
    clock_ns_ += cells_ns(model_.record_cells(key_length, data_length));
    ++domain_index_, --records_left_, ++records_written;
    return {};
  }
  // Past the track's last record a multitrack read goes on at the next head, in the extent.
  if (domain_index_ >= records->size()) {
    const bool multitrack = c.code & 0x80;
    if (!multitrack || domain_track_ + 1 > extent_last_) return reject(0, eckd::kNoRecordFound);
    clock_ns_ += rotate_to(0);
    ++domain_track_, domain_index_ = 0;
    records = &track(domain_track_);
    if (records->empty()) return reject(0, eckd::kNoRecordFound);
  }
  Record& r = (*records)[domain_index_];
  const uint32_t key_length = uint32_t(r.key.size()), data_length = uint32_t(r.data.size());
  std::vector<uint8_t> count = {uint8_t(r.cylinder >> 8), uint8_t(r.cylinder), uint8_t(r.head >> 8), uint8_t(r.head),
                                r.r, uint8_t(key_length), uint8_t(data_length >> 8), uint8_t(data_length)};
  if (c.code == eckd::kWriteData) {
    // The record's data area, as long as it is: a shorter count is padded with zeros, a
    // longer one cut (incorrect length, unless suppressed).
    c.data.resize(data_length);
    r.data = c.data;
    ++records_written;
  } else if (c.code == eckd::kReadCount || c.code == eckd::kReadCountMultitrack) {
    c.data = count;
  } else if (c.code == eckd::kReadCkd) {
    c.data = count;
    c.data.insert(c.data.end(), r.key.begin(), r.key.end());
    c.data.insert(c.data.end(), r.data.begin(), r.data.end());
    ++records_read;
  } else {
    c.data = r.data;
    ++records_read;
  }
  clock_ns_ += cells_ns(model_.record_cells(key_length, data_length));
  ++domain_index_, --records_left_;
  return {};
}

}  // namespace emu
