#include "emu/system/sclp.h"

#include <algorithm>
#include <array>
#include <string>

#include "emu/ebcdic.h"
#include "emu/program_check.h"
#include "emu/system/system_cpu.h"
#include "emu/system/system_machine.h"

namespace emu {

namespace {

// SCCB response codes (reason code byte, response class byte).
constexpr uint16_t kNormalRead = 0x0010, kNormalCompletion = 0x0020, kBoundaryViolation = 0x0100;
constexpr uint16_t kInsufficientLength = 0x0300, kInvalidCommand = 0x01F0, kNoEventBuffers = 0x60F0;
constexpr uint16_t kInvalidMaskLength = 0x74F0, kEventBufferSyntax = 0x73F0;

constexpr uint64_t kSccbHeader = 8;        // length (2), function code (1), control mask (3), response (2)
constexpr uint64_t kScpInfoCpus = 144;     // READ SCP INFO: the CPU entries start here
constexpr uint64_t kCpuEntryBytes = 16;    // address, reserved, 14 bytes of features
constexpr uint64_t kEventBufferHeader = 6; // length (2), type (1), flags (1), reserved (2)
constexpr uint8_t kEventProcessed = 0x80;  // an event buffer's flag once the SCLP took it

// An event type's bit in a 32-bit event mask: type 1 is the leftmost.
constexpr uint32_t mask_bit(uint8_t type) { return 0x80000000u >> (type - 1); }


}  // namespace

unsigned Sclp::service_call(SystemCpu& cpu, uint32_t command, uint64_t sccb) {
  Cpu& c = cpu.cpu();
  // The SCCB: a 31-bit address on a doubleword boundary, not in real 0-8191 nor in the
  // 8 KB at the prefix (the lowcore), inside storage, at least its 8-byte header long;
  // a specification exception otherwise (as QEMU checks it).
  // Beyond storage is an addressing exception first, as QEMU gives it.
  if (sccb + kSccbHeader > cpu.real().size()) program_check(Pic::Addressing, sccb);
  if (sccb & ~uint64_t(0x7FFFFFF8)) program_check(Pic::Specification);
  const uint64_t low_block = sccb & ~uint64_t(0x1FFF);
  if (low_block == 0 || low_block == cpu.prefix()) program_check(Pic::Specification);
  const uint16_t length = c.read<uint16_t>(sccb);
  if (length < kSccbHeader) program_check(Pic::Specification);
  ++commands;
  uint16_t response;
  if (((sccb + length - 1) ^ sccb) >> 12) {
    response = kBoundaryViolation;  // it must lie in one 4 KB page
  } else {
    switch (command) {
      case kReadScpInfo:
      case kReadScpInfoForced: response = read_scp_info(cpu, sccb, length); break;
      case kReadCpuInfo: response = read_cpu_info(cpu, sccb, length); break;
      case kWriteEventMask: response = write_event_mask(cpu, sccb, length); break;
      case kWriteEventData: response = write_event_data(cpu, sccb, length); break;
      case kReadEventData: response = read_event_data(cpu, sccb, length); break;
      default: response = kInvalidCommand; break;
    }
  }
  c.write<uint16_t>(sccb + 6, response);
  cpu.machine().make_service_signal_pending(uint32_t(sccb));  // offered to the I-streams after SERVC (isa)
  return 0;
}

// READ SCP INFO: storage in 1 MB increments, the I-streams as CPU entries.
uint16_t Sclp::read_scp_info(SystemCpu& cpu, uint64_t sccb, uint16_t length) {
  Cpu& c = cpu.cpu();
  const unsigned cpus = cpu.machine().machine().istreams();
  if (length < kScpInfoCpus + cpus * kCpuEntryBytes) return kInsufficientLength;
  for (uint64_t a = sccb + kSccbHeader; a < sccb + length; ++a) c.write<uint8_t>(a, 0);
  const uint64_t increments = cpu.real().size() >> 20;
  if (increments <= 0xFFFF) {
    c.write<uint16_t>(sccb + 8, uint16_t(increments));  // rnmax
    c.write<uint8_t>(sccb + 10, 1);                     // rnsize: 1 MB
  } else {
    c.write<uint32_t>(sccb + 100, 1);           // rnsize2
    c.write<uint64_t>(sccb + 104, increments);  // rnmax2
  }
  // Byte 85 bit 6 (0x02): the enhanced suppression-on-protection facility, whose TEIDs
  // (ESOP-2's, emu/system/system_cpu.cpp) protection exceptions store.
  c.write<uint8_t>(sccb + 85, 0x02);
  c.write<uint16_t>(sccb + 16, uint16_t(cpus));          // CPU entries
  c.write<uint16_t>(sccb + 18, uint16_t(kScpInfoCpus));  // their offset
  c.write<uint16_t>(sccb + 120, uint16_t(cpus - 1));     // the highest CPU address
  for (unsigned i = 0; i < cpus; ++i) c.write<uint8_t>(sccb + kScpInfoCpus + i * kCpuEntryBytes, uint8_t(i));
  return kNormalRead;
}

// READ CPU INFO: how many CPUs are configured, and their entries (address first).
uint16_t Sclp::read_cpu_info(SystemCpu& cpu, uint64_t sccb, uint16_t length) {
  Cpu& c = cpu.cpu();
  const unsigned cpus = cpu.machine().machine().istreams();
  constexpr uint64_t kEntries = 24;  // nr_configured (2), offset_configured (2), nr_standby, offset_standby, reserved
  if (length < kEntries + cpus * kCpuEntryBytes) return kInsufficientLength;
  for (uint64_t a = sccb + kSccbHeader; a < sccb + length; ++a) c.write<uint8_t>(a, 0);
  c.write<uint16_t>(sccb + 8, uint16_t(cpus));
  c.write<uint16_t>(sccb + 10, uint16_t(kEntries));
  c.write<uint16_t>(sccb + 14, uint16_t(kEntries + cpus * kCpuEntryBytes));
  for (unsigned i = 0; i < cpus; ++i) c.write<uint8_t>(sccb + kEntries + i * kCpuEntryBytes, uint8_t(i));
  return kNormalRead;
}

// WRITE EVENT MASK: at 10 the masks' length (1 to 4 bytes used here), then the
// program's receive and send masks, and the SCLP's receive and send masks it answers.
uint16_t Sclp::write_event_mask(SystemCpu& cpu, uint64_t sccb, uint16_t length) {
  Cpu& c = cpu.cpu();
  const uint16_t n = c.read<uint16_t>(sccb + 10);
  if (n == 0 || n > 1021 || 12 + 4ull * n > length) return kInvalidMaskLength;
  auto read_mask = [&](uint64_t at) {
    uint32_t m = 0;
    for (unsigned k = 0; k < 4; ++k) m = m << 8 | (k < n ? c.read<uint8_t>(at + k) : 0);
    return m;
  };
  auto write_mask = [&](uint64_t at, uint32_t m) {
    for (unsigned k = 0; k < n; ++k) c.write<uint8_t>(at + k, k < 4 ? uint8_t(m >> (24 - 8 * k)) : 0);
  };
  guest_receive_mask_ = read_mask(sccb + 12);
  guest_send_mask_ = read_mask(sccb + 12 + n);
  write_mask(sccb + 12 + 2 * n, mask_bit(kEventMessage) | mask_bit(kEventVt220));  // what the SCLP receives
  write_mask(sccb + 12 + 3 * n, mask_bit(kEventVt220));                           // what it sends: console input
  return kNormalCompletion;
}

// WRITE EVENT DATA: the event buffers after the header; VT220 data is ASCII as it is,
// a line-mode message's text objects are EBCDIC lines. A program that sends both (Linux,
// kvm-unit-tests) has its VT220 output shown, once.
uint16_t Sclp::write_event_data(SystemCpu& cpu, uint64_t sccb, uint16_t length) {
  Cpu& c = cpu.cpu();
  const uint64_t end = sccb + length;
  const bool vt220_console = guest_send_mask_ & mask_bit(kEventVt220);
  for (uint64_t at = sccb + kSccbHeader; at + kEventBufferHeader <= end;) {
    const uint16_t n = c.read<uint16_t>(at);
    if (n < kEventBufferHeader || at + n > end) return kEventBufferSyntax;
    const uint8_t type = c.read<uint8_t>(at + 2);
    if (type == kEventVt220) {
      std::string text;
      for (uint64_t k = at + kEventBufferHeader; k < at + n; ++k) text.push_back(char(c.read<uint8_t>(k)));
      console_(text);
    } else if (type == kEventMessage) {
      if (!vt220_console) line_mode_message(cpu, at + kEventBufferHeader, at + n);
    } else {
      return kEventBufferSyntax;
    }
    c.write<uint8_t>(at + 3, c.read<uint8_t>(at + 3) | kEventProcessed);
    at += n;
  }
  return kNormalCompletion;
}

// READ EVENT DATA: the console input's next line (up to its newline, or what fits) as
// one VT220 event buffer, when the program receives VT220 events (WRITE EVENT MASK):
// its header, a byte 0 ("data stream follows", as QEMU's SCLP gives it), then the data.
// With the variable-length-response control (control mask byte 2, bit 0x80) the SCCB's
// length becomes what was stored. No input (or not received): no event buffers stored.
uint16_t Sclp::read_event_data(SystemCpu& cpu, uint64_t sccb, uint16_t length) {
  Cpu& c = cpu.cpu();
  constexpr uint64_t kAsciiHeader = kEventBufferHeader + 1;
  constexpr uint8_t kVariableLengthResponse = 0x80;
  if (input_at_ >= input_.size() || !(guest_receive_mask_ & mask_bit(kEventVt220))) return kNoEventBuffers;
  if (length < kSccbHeader + kAsciiHeader + 1) return kInsufficientLength;
  const size_t line_end = input_.find('\n', input_at_);
  const size_t line = (line_end == std::string::npos ? input_.size() : line_end + 1) - input_at_;
  const size_t n = std::min<size_t>(line, length - kSccbHeader - kAsciiHeader);
  const uint64_t at = sccb + kSccbHeader;
  c.write<uint16_t>(at, uint16_t(kAsciiHeader + n));
  c.write<uint8_t>(at + 2, kEventVt220);
  c.write<uint8_t>(at + 3, 0);
  c.write<uint16_t>(at + 4, 0);
  c.write<uint8_t>(at + kEventBufferHeader, 0);
  for (size_t k = 0; k < n; ++k) c.write<uint8_t>(at + kAsciiHeader + k, uint8_t(input_[input_at_ + k]));
  input_at_ += n;
  if (c.read<uint8_t>(sccb + 5) & kVariableLengthResponse)
    c.write<uint16_t>(sccb, uint16_t(kSccbHeader + kAsciiHeader + n));
  return kNormalCompletion;
}

// A message data block: its 12-byte header, then objects (length, type); each message
// text object (type 4) is one line, its text after a 10-byte header.
void Sclp::line_mode_message(SystemCpu& cpu, uint64_t at, uint64_t end) {
  Cpu& c = cpu.cpu();
  constexpr uint64_t kMdbHeader = 12, kObjectHeader = 4, kMtoHeader = 10;
  constexpr uint16_t kMessageText = 4;
  if (at + kMdbHeader > end) return;
  std::string out;
  for (uint64_t o = at + kMdbHeader; o + kObjectHeader <= end;) {
    const uint16_t n = c.read<uint16_t>(o);
    if (n < kObjectHeader || o + n > end) break;
    if (c.read<uint16_t>(o + 2) == kMessageText && n >= kMtoHeader) {
      for (uint64_t k = o + kMtoHeader; k < o + n; ++k) out.push_back(ebcdic::to_ascii(c.read<uint8_t>(k)));
      out.push_back('\n');
    }
    o += n;
  }
  console_(out);
}

}  // namespace emu
