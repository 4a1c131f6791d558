// The channel subsystem of system mode (tpfemu ipl) [Principles of Operation, chapter 13
// "I/O Overview", 14 "I/O Instructions", 15 "Basic I/O Functions", 16 "I/O
// Interruptions"]: subchannels in subchannel set 0, one a device, numbered from 0 and
// with device numbers from 0; the subchannel-information block (PMCW and SCSW) that
// STORE and MODIFY SUBCHANNEL move; START SUBCHANNEL's operation-request block and the
// channel program of format-0 or format-1 CCWs it designates (command and data
// chaining, NOP, TIC, and each device's commands); the status that ends it, made pending
// at the time the device model gives, as an event on the machine's queue; I/O
// interruptions by interruption subclass (CR6), TEST PENDING INTERRUPTION and TEST
// SUBCHANNEL clearing them.
//
// SIMPLIFICATION: the channel program runs (its CCWs fetched, its data moved, its
// storage references charged to the I-stream that issued START SUBCHANNEL, as the
// machine's other host-side accesses are) when it is started; its status becomes pending
// when the device's time for it has passed. A program that looks at its buffers before
// the status (which the PoO does not define) sees the data early.
//
// emu/ cannot see the device models (flashsim/): a device is a ChannelDevice, and the
// program that builds the machine (app/ipl_command) gives it the model's facts.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace emu {

class SystemCpu;
class SystemMachine;
enum class Pic : uint16_t;

// The operand exception [Principles of Operation, "Operand Exception"]: a reserved field
// of an I/O instruction's operand or of GR1's subsystem-identification word not valid.
constexpr Pic kOperandException = Pic(0x0015);

// Device-status bits (SCSW word 2, bits 0-7) [Principles of Operation, "Device Status"].
namespace device_status {
constexpr uint8_t kAttention = 0x80, kStatusModifier = 0x40, kControlUnitEnd = 0x20, kBusy = 0x10;
constexpr uint8_t kChannelEnd = 0x08, kDeviceEnd = 0x04, kUnitCheck = 0x02, kUnitException = 0x01;
}  // namespace device_status
// Subchannel-status bits (SCSW word 2, bits 8-15) [Principles of Operation, "Subchannel Status"].
namespace subchannel_status {
constexpr uint8_t kProgramControlled = 0x80, kIncorrectLength = 0x40, kProgramCheck = 0x20;
constexpr uint8_t kProtectionCheck = 0x10, kChannelDataCheck = 0x08, kChainingCheck = 0x01;
}  // namespace subchannel_status

// One CCW's work as the device sees it: its command and the bytes it moves. For a
// command that sends data (write, control) `data` holds what the channel fetched; for
// one that receives (read, sense) the device fills it (the channel stores at most the
// CCW chain's count of it). `count`: the bytes the CCW (and its data chain) provides.
struct DeviceCommand {
  uint8_t code = 0;
  uint32_t count = 0;
  std::vector<uint8_t> data;
};
// The device's answer: its status bits beyond channel end and device end (unit check,
// unit exception, status modifier) and the time it took, in nanoseconds.
struct DeviceAnswer {
  uint8_t status = 0;
  uint64_t ns = 0;
};

// A device behind a subchannel. One channel program at a time (its subchannel is busy
// until the status is pending).
class ChannelDevice {
 public:
  virtual ~ChannelDevice() = default;
  virtual std::string name() const = 0;
  // A channel program begins at `now_ns` (the device's queue and its fixed overhead).
  virtual uint64_t begin(uint64_t now_ns) = 0;
  // One command of the chain; unit check ends the chain (SENSE then reads why).
  virtual DeviceAnswer execute(DeviceCommand& command) = 0;
  // The chain ended (normally or not): the device's state for the next one.
  virtual void end() = 0;
  // A receiving command whose data area also holds what the device is asked (virtio-
  // ccw's READ FEAT index): the channel hands the device the area's bytes first.
  virtual bool reads_its_area(uint8_t) const { return false; }
};

// EADM [the extended asynchronous data mover facility; its layouts as Linux's
// arch/s390/include/asm/eadm.h gives them, read for facts]: an EADM subchannel (type 3,
// "ADM") starts an asynchronous operation block (AOB) instead of a channel program: its
// request block (ARQB: command 1, move; the MSB count), its response block (ARSB) and
// up to 124 move-specification blocks (MSBs), each moving a count of 4 KB or 1 MB
// blocks between main storage and storage-class memory (Flash Express). The device is
// the SCM behind the subchannel, given its blocks at once (each 4 KB or 1 MB; a write's
// data gathered from storage, a read's filled by it).
struct EadmBlock {
  enum class Op : uint8_t { Clear = 0, Read = 1, Write = 2, Release = 3 } op = Op::Read;  // the MSB's operation code
  bool one_megabyte = false;
  uint64_t scm_address = 0;
  std::vector<uint8_t> data;  // the block's bytes (a read's, after move; a write's, before)
};
struct EadmAnswer {
  bool ok = true;
  unsigned failed_block = 0;  // the index of the block that failed
  uint64_t ns = 0;            // the request's time, from its start
  std::string error;
};
class EadmDevice {
 public:
  virtual ~EadmDevice() = default;
  virtual std::string name() const = 0;
  virtual EadmAnswer move(uint64_t now_ns, std::vector<EadmBlock>& blocks) = 0;
};

// The command's direction by its low bits [Principles of Operation, "Command Code"]:
// xxxx0100 sense, xxxxxx01 write, xxxxxx10 read, xxxxxx11 control, xxxx1100 read backward
// (with xxxx1000 TIC).
enum class CommandKind : uint8_t { Write, Read, Control, Sense, ReadBackward, Tic, Invalid };
CommandKind command_kind(uint8_t code);

// A subchannel's state [Principles of Operation, "Subchannel-Information Block"].
struct Subchannel {
  std::unique_ptr<ChannelDevice> device;
  std::unique_ptr<EadmDevice> eadm;  // an EADM subchannel's (then no `device`)
  bool attached() const { return device || eadm; }
  uint16_t device_number = 0;
  // PMCW
  uint32_t interruption_parameter = 0;
  uint8_t isc = 0;
  bool enabled = false;
  bool multipath = false, timing = false;
  uint8_t limit_mode = 0, measurement_mode = 0;
  uint8_t lpm = 0x80;  // one path, CHPID 0
  uint16_t measurement_index = 0;
  // The extended measurement-block facility: a format-1 block of its own (PMCW word 6
  // bit 29, the SCHIB's measurement-block origin) instead of the format-0 area's.
  bool measurement_format1 = false;
  uint64_t measurement_block_origin = 0;
  // SCSW
  uint8_t key = 0;
  bool format1 = false, suppress_incorrect_length_mode = false, zero_cc = false, prefetch = false, initial_status = false;
  uint8_t function = 0;  // FC bits 17-19: 4 start, 2 halt, 1 clear
  uint8_t activity = 0;  // AC bits 20-26
  uint8_t status_control = 0;  // SC bits 27-31
  uint32_t ccw_address = 0;
  uint8_t device_status = 0, subchannel_status = 0;
  uint16_t residual = 0;
  uint8_t deferred_cc = 0;
  bool status_pending() const { return status_control & 1; }
  bool start_in_progress() const { return function & 4; }
  uint64_t completion_serial = 0;  // the event of the start in progress (a clear or halt cancels it)
};

// Activity-control (AC) and status-control (SC) bits [Principles of Operation, "Subchannel-
// Status Word"], as they sit in their fields.
namespace scsw {
constexpr uint8_t kStartPending = 0x20, kSubchannelActive = 0x04, kDeviceActive = 0x02;  // AC (7 bits: 20-26)
constexpr uint8_t kAlert = 0x10, kIntermediate = 0x08, kPrimary = 0x04, kSecondary = 0x02, kStatusPending = 0x01;
constexpr uint8_t kStart = 4, kHalt = 2, kClear = 1;  // FC
}  // namespace scsw

class ChannelSubsystem390 {
 public:
  explicit ChannelSubsystem390(SystemMachine& machine) : machine_(machine) {}
  // A device on the next subchannel, its device number the subchannel's number.
  unsigned attach(std::unique_ptr<ChannelDevice> device);
  // SCM on the next subchannel, an EADM subchannel (type 3); no device number.
  unsigned attach_eadm(std::unique_ptr<EadmDevice> device);
  unsigned subchannels() const { return unsigned(subchannels_.size()); }
  Subchannel& subchannel(unsigned n) { return subchannels_[n]; }

  // The I/O instructions' work [Principles of Operation, chapter 14]. `sid`: GR1's
  // subsystem-identification word (checked by the caller); the returned value is the CC.
  unsigned store_subchannel(SystemCpu& cpu, unsigned n, uint64_t schib);
  unsigned modify_subchannel(SystemCpu& cpu, unsigned n, uint64_t schib);
  unsigned start_subchannel(SystemCpu& cpu, unsigned n, uint64_t orb);
  unsigned test_subchannel(SystemCpu& cpu, unsigned n, uint64_t irb);
  unsigned clear_subchannel(SystemCpu& cpu, unsigned n);
  unsigned halt_subchannel(SystemCpu& cpu, unsigned n);
  unsigned resume_subchannel(SystemCpu& cpu, unsigned n);
  // SET CHANNEL MONITOR: GR1's measurement-block key and M bit (D, the device-connect-
  // time measurement, is accepted but not measured) and GR2's format-0
  // area origin, checked by the caller.
  void set_channel_monitor(uint8_t key, bool update, uint64_t origin);
  // RESET CHANNEL PATH: CC 0 and a channel report (solicited, channel path initialized)
  // for an installed CHPID; CC 3 for any other.
  unsigned reset_channel_path(unsigned chpid);
  // STORE CHANNEL REPORT WORD's report: false when none is pending.
  bool take_channel_report(uint32_t& crw);
  // CHANNEL SUBSYSTEM CALL's command at `block` (4 KB aligned, checked by the caller):
  // the response stored after the request; the CC.
  unsigned call(SystemCpu& cpu, uint64_t block);

  // The pending I/O interruption of the lowest enabled subclass (CR6 bits 32-39), taken:
  // its subchannel; false when none is enabled and pending.
  bool take_interruption(uint64_t cr6, unsigned& subchannel);
  bool interruption_pending(uint64_t cr6) const;
  static uint32_t subsystem_id(unsigned n) { return 0x00010000u | n; }

  uint64_t starts = 0, interruptions_made_pending = 0;

 private:
  void run_channel_program(SystemCpu& cpu, Subchannel& s, uint64_t ccw_at, uint64_t& ns);
  void run_aob(SystemCpu& cpu, Subchannel& s, uint64_t aob, uint64_t& ns);
  void make_status_pending(unsigned n);
  void count_start(SystemCpu& cpu, const Subchannel& s);
  void withdraw_interruption(unsigned n);

  SystemMachine& machine_;
  std::vector<Subchannel> subchannels_;
  std::deque<unsigned> pending_[8];  // subchannels with an I/O interruption pending, by ISC
  uint64_t serial_ = 0;
  // SET CHANNEL MONITOR's state [Principles of Operation, "SET CHANNEL MONITOR"].
  uint8_t measurement_key_ = 0;
  bool measurement_update_ = false;
  uint64_t measurement_area_ = 0;
  std::deque<uint32_t> channel_reports_;  // pending CRWs, oldest first
};

}  // namespace emu
