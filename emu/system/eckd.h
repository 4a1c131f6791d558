// A 3390 volume as an ECKD device behind a subchannel (emu/system/css.h): the commands
// of a z/OS- or Linux-style ECKD channel program (DEFINE EXTENT, LOCATE RECORD, then
// READ DATA, WRITE DATA, READ COUNT, READ and WRITE COUNT KEY DATA in its domain), SENSE,
// SENSE ID and NOP; unit check with its sense bytes for a command it rejects, a record
// not found, a write the extent's file mask forbids, a track a record does not fit.
//
// The model's facts (geometry, seek, rotation, the channel program's overhead) are
// flashsim's (flashsim/dasd3390.h, ckd.h, dasd.h), which emu/ cannot see: whoever builds
// the machine fills EckdModel from them (app/ipl_command.cpp). The time of a channel
// program is that model's uncached one (flashsim/ckd.h, "TIMING"): start_io_ns, then a
// LOCATE RECORD's seek (seek_ns of the cylinder distance) and its wait for the record's
// count to come under the head (the disk turns continuously: the angle is the time
// modulo a revolution, a record begins at the cells of the records before it), and each
// record a command reads or writes its cells' time. One channel program at a time.
//
// The image file: the volume's records R1-R12 of 4,096 bytes a track (flashsim's 3390
// page-volume format, 12 a track), track after track (cylinder c head h is track
// 15c + h) from the file's first byte, the last cylinder padded with zeros. Writes stay
// in the run's memory (the file is never written: two runs, same bytes).
//
// Command semantics as the IBM 3990 Storage Control Reference gives them, as far as we
// know it (not in our sources; Linux's dasd_eckd driver and Hercules read for facts):
// what this model does is what these comments say, to be checked against it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "emu/system/css.h"

namespace emu {

struct EckdModel {
  uint32_t cylinders = 0;            // the volume's, from the image's size
  uint32_t tracks_per_cylinder = 0;
  uint32_t cells_per_track = 0;
  uint32_t records_per_track = 0;    // of the image's format
  uint32_t record_bytes = 0;
  std::function<uint32_t(uint32_t key_length, uint32_t data_length)> record_cells;
  std::function<uint64_t(uint32_t distance)> seek_ns;
  uint64_t revolution_ns = 0;
  uint64_t start_io_ns = 0;
};

// ECKD command codes [3990 reference; Linux's dasd_eckd.h names them alike].
namespace eckd {
constexpr uint8_t kWriteData = 0x05, kReadData = 0x06, kReadDataMultitrack = 0x86, kWriteCkd = 0x1D;
constexpr uint8_t kReadCkd = 0x1E, kReadCount = 0x12, kReadCountMultitrack = 0x92, kSense = 0x04;
constexpr uint8_t kSenseId = 0xE4, kNop = 0x03, kDefineExtent = 0x63, kLocateRecord = 0x47;
// Sense byte 0 and 1 bits.
constexpr uint8_t kCommandReject = 0x80;                                                  // byte 0
constexpr uint8_t kInvalidTrackFormat = 0x40, kNoRecordFound = 0x08, kFileProtected = 0x04;  // byte 1
// LOCATE RECORD's operations (byte 0 bits 2-7).
constexpr uint8_t kOrientWriteData = 0x01, kFormatWrite = 0x03, kOrientRead = 0x06;
}  // namespace eckd

class EckdDevice final : public ChannelDevice {
 public:
  // `image`: the volume's bytes in the format above (at most the model's cylinders).
  EckdDevice(std::string name, EckdModel model, std::vector<uint8_t> image);
  std::string name() const override { return name_; }
  uint64_t begin(uint64_t now_ns) override;
  DeviceAnswer execute(DeviceCommand& command) override;
  void end() override;

  const uint8_t* sense() const { return sense_; }
  uint32_t tracks() const { return model_.cylinders * model_.tracks_per_cylinder; }
  uint64_t programs = 0, records_read = 0, records_written = 0;

 private:
  struct Record {
    uint16_t cylinder = 0, head = 0;
    uint8_t r = 0;
    std::vector<uint8_t> key, data;
  };
  std::vector<Record>& track(uint32_t t);
  DeviceAnswer reject(uint8_t byte0, uint8_t byte1);
  DeviceAnswer define_extent(DeviceCommand& c);
  DeviceAnswer locate_record(DeviceCommand& c);
  DeviceAnswer in_domain(DeviceCommand& c);
  uint64_t cells_ns(uint64_t cells) const { return cells * model_.revolution_ns / model_.cells_per_track; }
  // The wait until the head reaches `cells` from the index point of the current track.
  uint64_t rotate_to(uint32_t cells) const;
  uint32_t cells_before(const std::vector<Record>& records, size_t index) const;

  std::string name_;
  EckdModel model_;
  std::vector<uint8_t> image_;
  std::map<uint32_t, std::vector<Record>> tracks_;  // the tracks referenced so far
  uint8_t sense_[32] = {};
  // The channel program in progress: its clock, its extent and its domain.
  uint64_t clock_ns_ = 0, busy_until_ = 0;
  uint32_t arm_cylinder_ = 0;
  bool extent_defined_ = false;
  uint8_t file_mask_ = 0;
  uint32_t extent_first_ = 0, extent_last_ = 0;  // tracks
  bool located_ = false;
  uint8_t operation_ = 0;
  uint32_t records_left_ = 0, domain_track_ = 0;
  size_t domain_index_ = 0;
};

}  // namespace emu
