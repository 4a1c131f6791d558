// A virtio network device behind a subchannel, as the virtio-ccw transport presents one
// [Virtio specification 1.x, "Virtio Over Channel I/O"]: SENSE ID names control unit
// type 0x3832 (virtio), its model the virtio device ID (1, network); the transport's
// channel commands configure it: READ FEAT and WRITE FEAT (the feature bits, 32 at a
// time), READ CONF and WRITE CONF (the device's configuration: the MAC address),
// WRITE STATUS (the driver's status byte; zero resets), READ VQ CONF and SET VQ (the
// virtqueues' sizes and places), SET IND and SET CONF IND (the classic indicators),
// VDEV RESET; NOP and SENSE as any device has.
//
// SIMPLIFICATION: no packets flow. The device offers the legacy transport (revision 0:
// SET VIRTIO REV is rejected, so a driver keeps to revision 0, as the specification
// tells it to) with one feature, the MAC address (VIRTIO_NET_F_MAC, bit 5); nothing is
// ever put in a receive queue, and a notification (DIAGNOSE X'500') is not modelled.
// Adapter interruptions (SET IND ADAPTER) are rejected. A command the device does not
// know ends in unit check, SENSE byte 0 command reject.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/system/css.h"

namespace emu {

// The transport's command codes [Virtio specification, "Virtio Over Channel I/O",
// "Basic Concepts"].
namespace virtio_ccw {
constexpr uint16_t kControlUnitType = 0x3832;
constexpr uint8_t kNetworkDeviceId = 1;
constexpr uint8_t kSetVq = 0x13, kVdevReset = 0x33, kSetInd = 0x43, kSetConfInd = 0x53, kSetIndAdapter = 0x73;
constexpr uint8_t kReadFeat = 0x12, kWriteFeat = 0x11, kReadConf = 0x22, kWriteConf = 0x21, kWriteStatus = 0x31;
constexpr uint8_t kReadVqConf = 0x32, kSetVirtioRev = 0x83, kReadStatus = 0x72;
constexpr uint8_t kSenseId = 0xE4, kSense = 0x04, kNop = 0x03;
constexpr unsigned kNetFeatureMac = 5;  // VIRTIO_NET_F_MAC
constexpr unsigned kQueues = 2;         // receive and transmit (no control queue: not offered)
constexpr uint16_t kQueueSize = 256;
}  // namespace virtio_ccw

class VirtioNetCcw final : public ChannelDevice {
 public:
  // `mac`: the address READ CONF gives.
  VirtioNetCcw(std::string name, std::array<uint8_t, 6> mac) : name_(std::move(name)), mac_(mac) {}
  std::string name() const override { return name_; }
  uint64_t begin(uint64_t) override { return 0; }
  DeviceAnswer execute(DeviceCommand& command) override;
  void end() override {}
  // READ FEAT and READ VQ CONF read the index the driver put in their data area first.
  bool reads_its_area(uint8_t code) const override {
    return code == virtio_ccw::kReadFeat || code == virtio_ccw::kReadVqConf;
  }

  struct Queue {
    uint64_t address = 0;
    uint32_t align = 0;
    uint16_t size = 0;
  };
  uint8_t status() const { return status_; }
  uint32_t driver_features() const { return driver_features_; }
  const Queue& queue(unsigned n) const { return queues_[n]; }
  uint64_t indicators() const { return indicators_; }
  uint64_t configuration_indicators() const { return configuration_indicators_; }

 private:
  DeviceAnswer reject();
  void reset();

  std::string name_;
  std::array<uint8_t, 6> mac_;
  uint8_t sense_byte0_ = 0;
  uint8_t status_ = 0;
  uint32_t driver_features_ = 0;
  std::array<Queue, virtio_ccw::kQueues> queues_{};
  uint64_t indicators_ = 0, configuration_indicators_ = 0;
};

}  // namespace emu
