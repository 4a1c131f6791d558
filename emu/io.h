// The machine's I/O: devices attached to subchannels, and requests that complete at
// a simulated time the device decides, as an I/O interruption to a handler (the
// control program). emu/ knows a device only through IoDevice: what a request asks
// (an EADM AOB, a DASD channel program) is the device's own IoOperation subclass, built
// by whoever starts it and handed back with the interruption.
//
//   ChannelSubsystem& io = machine.io();
//   unsigned sch = io.attach(device);                    // once, when the run is set up
//   io.start(sch, now, op, parameter);                   // an ECB's request, at its clock
//   ... at the completion time the handler gets IoInterruption{sch, parameter, op, ...}
//
// The requester does not stay on its I-stream: the control program parks its ECB and
// the I-stream runs other work (or idles) until the interruption makes it ready.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace emu {

class EventQueue;

// What a request asks of a device; each device defines its own.
struct IoOperation {
  virtual ~IoOperation() = default;
};

// A device's answer to a start: when the request completes, and how.
struct IoResult {
  uint64_t done_at = 0;     // cycle of the completion (not before the start)
  uint32_t status = 0;      // 0: done; otherwise the device's error code
  std::string detail;       // what failed, in the device's words ("MSB 3: address 80G offline")
};

class IoDevice {
 public:
  virtual ~IoDevice() = default;
  virtual std::string name() const = 0;
  // Takes `op` at cycle `now` (starts come in non-decreasing time per device) and says
  // when it completes; the device keeps its own queue and busy state. Never throws.
  virtual IoResult start(uint64_t now, IoOperation& op) = 0;
};

struct IoInterruption {
  unsigned subchannel = 0;
  uint64_t parameter = 0;              // the starter's, handed back (e.g. which ECB waits)
  uint64_t started = 0, time = 0;      // cycles: started, completed (the interruption)
  uint32_t status = 0;
  std::string detail;
  std::shared_ptr<IoOperation> operation;
};

class IoInterruptHandler {
 public:
  virtual ~IoInterruptHandler() = default;
  virtual void io_interruption(const IoInterruption& i) = 0;
};

class ChannelSubsystem {
 public:
  explicit ChannelSubsystem(EventQueue& events) : events_(events) {}
  // The device's subchannel number (0, 1, ...); the device outlives the run.
  unsigned attach(IoDevice& device);
  unsigned devices() const { return unsigned(devices_.size()); }
  IoDevice& device(unsigned subchannel) { return *devices_.at(subchannel); }
  void set_handler(IoInterruptHandler* h) { handler_ = h; }
  // Starts `op` on the subchannel's device at cycle `now`; the interruption comes at
  // the completion the device gives. False (nothing started) for an unknown subchannel.
  bool start(unsigned subchannel, uint64_t now, std::shared_ptr<IoOperation> op, uint64_t parameter);
  uint64_t started() const { return started_; }
  uint64_t completed() const { return completed_; }
  uint64_t pending() const { return started_ - completed_; }

 private:
  EventQueue& events_;
  std::vector<IoDevice*> devices_;
  IoInterruptHandler* handler_ = nullptr;
  uint64_t started_ = 0, completed_ = 0;
};

}  // namespace emu
