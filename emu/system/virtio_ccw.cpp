#include "emu/system/virtio_ccw.h"

#include <algorithm>

namespace emu {

namespace {

constexpr uint8_t kCommandReject = 0x80;  // sense byte 0
uint64_t get_be(const std::vector<uint8_t>& d, size_t at, unsigned n) {
  uint64_t v = 0;
  for (unsigned k = 0; k < n; ++k) v = v << 8 | d[at + k];
  return v;
}

}  // namespace

DeviceAnswer VirtioNetCcw::reject() {
  sense_byte0_ = kCommandReject;
  return {device_status::kUnitCheck, 0};
}

void VirtioNetCcw::reset() {
  status_ = 0, driver_features_ = 0;
  queues_ = {};
  indicators_ = configuration_indicators_ = 0;
}

// Each command's data as the specification lays it out: the transport's fields big-
// endian, the feature bits little-endian. A sending command with less data than its
// structure is rejected; the bytes a command takes or gives are `data`'s size after it
// (the channel's residual count and incorrect length follow from it).
DeviceAnswer VirtioNetCcw::execute(DeviceCommand& c) {
  namespace v = virtio_ccw;
  std::vector<uint8_t>& d = c.data;
  if (c.code != v::kSense) sense_byte0_ = 0;
  switch (c.code) {
    case v::kNop: return {};
    case v::kSense:
      d.assign(std::min<uint32_t>(c.count, 32), 0);
      if (!d.empty()) d[0] = sense_byte0_;
      sense_byte0_ = 0;
      return {};
    case v::kSenseId:
      // [Principles of Operation, "SENSE ID"]: X'FF', control-unit type and model,
      // device type and model (none: zero), a reserved byte; no command-information words.
      d = {0xFF, uint8_t(v::kControlUnitType >> 8), uint8_t(v::kControlUnitType), v::kNetworkDeviceId, 0, 0, 0, 0};
      d.resize(std::min<size_t>(d.size(), c.count));
      return {};
    case v::kReadFeat: {  // le32 features, u8 index (the driver's)
      if (c.count < 5 || d.size() < 5) return reject();
      const uint32_t features = d[4] == 0 ? 1u << v::kNetFeatureMac : 0;
      for (int k = 0; k < 4; ++k) d[k] = uint8_t(features >> (8 * k));
      d.resize(5);
      return {};
    }
    case v::kWriteFeat:
      if (d.size() < 5) return reject();
      // Only bits the device offered can be accepted; index 0 holds all of them.
      if (d[4] == 0) driver_features_ = uint32_t(d[0] | d[1] << 8 | d[2] << 16 | uint32_t(d[3]) << 24) & (1u << v::kNetFeatureMac);
      d.resize(5);
      return {};
    case v::kReadConf:
      d.assign(mac_.begin(), mac_.end());
      d.resize(std::min<size_t>(d.size(), c.count));
      return {};
    case v::kWriteConf:  // the MAC address is the device's: nothing to take
      d.resize(std::min<size_t>(d.size(), mac_.size()));
      return {};
    case v::kWriteStatus:
      if (d.empty()) return reject();
      status_ = d[0];
      if (status_ == 0) reset();
      d.resize(1);
      return {};
    case v::kReadVqConf: {  // be16 index (the driver's), be16 the queue's largest size
      if (c.count < 4 || d.size() < 4) return reject();
      const uint16_t size = get_be(d, 0, 2) < v::kQueues ? v::kQueueSize : 0;
      d[2] = uint8_t(size >> 8), d[3] = uint8_t(size);
      d.resize(4);
      return {};
    }
    case v::kSetVq: {  // the legacy block: be64 address, be32 align, be16 index, be16 size
      if (d.size() < 16) return reject();
      const uint16_t index = uint16_t(get_be(d, 12, 2)), size = uint16_t(get_be(d, 14, 2));
      if (index >= v::kQueues || size > v::kQueueSize) return reject();
      queues_[index] = {get_be(d, 0, 8), uint32_t(get_be(d, 8, 4)), size};
      d.resize(16);
      return {};
    }
    case v::kSetInd:
    case v::kSetConfInd:
      if (d.size() < 8) return reject();
      (c.code == v::kSetInd ? indicators_ : configuration_indicators_) = get_be(d, 0, 8);
      d.resize(8);
      return {};
    case v::kVdevReset: reset(); return {};
    default: return reject();  // SET VIRTIO REV, READ STATUS, SET IND ADAPTER, and unknown codes
  }
}

}  // namespace emu
