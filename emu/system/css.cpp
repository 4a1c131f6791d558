#include "emu/system/css.h"

#include <algorithm>

#include "emu/cpu.h"
#include "emu/program_check.h"
#include "emu/system/system_cpu.h"
#include "emu/system/system_machine.h"

namespace emu {

CommandKind command_kind(uint8_t code) {
  if ((code & 0x0F) == 0x08) return CommandKind::Tic;
  if ((code & 0x0F) == 0x04) return CommandKind::Sense;
  if ((code & 0x0F) == 0x0C) return CommandKind::ReadBackward;
  switch (code & 3) {
    case 1: return CommandKind::Write;
    case 2: return CommandKind::Read;
    case 3: return CommandKind::Control;
    default: return CommandKind::Invalid;  // xxxx0000
  }
}

unsigned ChannelSubsystem390::attach(std::unique_ptr<ChannelDevice> device) {
  Subchannel s;
  s.device = std::move(device);
  s.device_number = uint16_t(subchannels_.size());
  subchannels_.push_back(std::move(s));
  return unsigned(subchannels_.size() - 1);
}

unsigned ChannelSubsystem390::attach_eadm(std::unique_ptr<EadmDevice> device) {
  Subchannel s;
  s.eadm = std::move(device);
  subchannels_.push_back(std::move(s));
  return unsigned(subchannels_.size() - 1);
}

namespace {

constexpr unsigned kSchibBytes = 52, kIrbBytes = 64;
constexpr uint8_t kSubchannelTypeEadm = 3;  // PMCW word 6 bits 8-10 ("ADM")
constexpr uint8_t kMeasurementFormat1 = 0x04;  // PMCW word 6 bit 29 (MBFC), in byte 27
constexpr unsigned kMeasurementOrigin = 40;    // the SCHIB's words 10-11 (format-1 block origin)
// Host protection, not the architecture: a channel program that executes more CCWs than
// this (a TIC loop nothing ends) is ended with a channel-control check.
constexpr unsigned kMaxCcws = 100'000;
constexpr unsigned kMaxChainBytes = 1u << 20;  // one CCW's data chain, at most

// CCW flags [Principles of Operation, "Channel-Command Word"].
constexpr uint8_t kChainData = 0x80, kChainCommand = 0x40, kSuppressLength = 0x20, kSkip = 0x10;
constexpr uint8_t kIndirectData = 0x04, kSuspend = 0x02, kModifiedIndirect = 0x01;

void put32(uint8_t* p, uint32_t v) {
  for (int k = 0; k < 4; ++k) p[k] = uint8_t(v >> (24 - 8 * k));
}
void put16(uint8_t* p, uint16_t v) { p[0] = uint8_t(v >> 8), p[1] = uint8_t(v); }
uint32_t get32(const uint8_t* p);
void put64(uint8_t* p, uint64_t v) { put32(p, uint32_t(v >> 32)), put32(p + 4, uint32_t(v)); }

// An instruction's operand (SCHIB, ORB, IRB: word aligned, checked by the instruction)
// moved by the CPU at its logical address, with its key and access exceptions, a word
// at a time; every word is fetched or the first reference's exception taken before any
// is stored.
void store_operand(Cpu& c, uint64_t at, const uint8_t* b, unsigned n) {
  for (unsigned k = 0; k < n; k += 4) c.read<uint32_t>(at + k);  // access exceptions first
  for (unsigned k = 0; k < n; k += 4) c.write<uint32_t>(at + k, get32(b + k));
}
void fetch_operand(Cpu& c, uint64_t at, uint8_t* b, unsigned n) {
  for (unsigned k = 0; k < n; k += 4) put32(b + k, c.read<uint32_t>(at + k));
}
uint32_t get32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
uint16_t get16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }
uint64_t get64(const uint8_t* p) { return uint64_t(get32(p)) << 32 | get32(p + 4); }

// The subchannel-status word's 12 bytes [Principles of Operation, "Subchannel-Status Word"].
void put_scsw(uint8_t* p, const Subchannel& s) {
  p[0] = uint8_t(s.key << 4 | (s.deferred_cc & 3));
  p[1] = uint8_t((s.format1 ? 0x80 : 0) | (s.prefetch ? 0x40 : 0) | (s.initial_status ? 0x20 : 0) |
                 (s.zero_cc ? 0x04 : 0));
  put16(p + 2, uint16_t((s.function & 7) << 12 | (s.activity & 0x7F) << 5 | (s.status_control & 0x1F)));
  put32(p + 4, s.ccw_address);
  p[8] = s.device_status, p[9] = s.subchannel_status;
  put16(p + 10, s.residual);
}

// The path-management-control word's 28 bytes [Principles of Operation, "Path-Management-
// Control Word"]: one channel path (CHPID 0), installed, available and operational.
void put_pmcw(uint8_t* p, const Subchannel& s) {
  put32(p, s.interruption_parameter);
  p[4] = uint8_t((s.isc & 7) << 3);
  p[5] = uint8_t((s.enabled ? 0x80 : 0) | (s.limit_mode & 3) << 5 | (s.measurement_mode & 3) << 3 |
                 (s.multipath ? 0x04 : 0) | (s.timing ? 0x02 : 0) | (s.device ? 0x01 : 0) /* device number valid */);
  put16(p + 6, s.device_number);
  p[8] = s.lpm, p[9] = 0 /* PNOM */, p[10] = s.start_in_progress() ? 0x80 : 0 /* LPUM */, p[11] = 0x80 /* PIM */;
  put16(p + 12, s.measurement_index);
  p[14] = 0x80 /* POM */, p[15] = 0x80 /* PAM */;
  if (s.eadm) p[25] = uint8_t(kSubchannelTypeEadm << 5);
  if (s.measurement_format1) p[27] |= kMeasurementFormat1;
}

}  // namespace

unsigned ChannelSubsystem390::store_subchannel(SystemCpu& cpu, unsigned n, uint64_t schib) {
  if (n >= subchannels_.size()) return 3;
  uint8_t b[kSchibBytes] = {};
  put_pmcw(b, subchannels_[n]);
  put_scsw(b + 28, subchannels_[n]);
  put64(b + kMeasurementOrigin, subchannels_[n].measurement_block_origin);
  // A CPU's store of the operand: its own key, its own access exceptions.
  store_operand(cpu.cpu(), schib, b, kSchibBytes);
  return 0;
}

unsigned ChannelSubsystem390::modify_subchannel(SystemCpu& cpu, unsigned n, uint64_t schib) {
  uint8_t b[kSchibBytes];
  fetch_operand(cpu.cpu(), schib, b, kSchibBytes);
  // [Principles of Operation, "MODIFY SUBCHANNEL"]: PMCW word 1 bits 0-1 and 6-7 must be
  // zero (bit 5 is ignored, and stored as zero), and LM must not be 11: otherwise an
  // operand exception. Word 6 is the subchannel type's, but for bit 29, the format-1
  // measurement block of the extended measurement-block facility, whose origin (SCHIB
  // words 10-11) must then be on a 64-byte boundary.
  const bool format1 = b[27] & kMeasurementFormat1;
  const uint64_t origin = get64(b + kMeasurementOrigin);
  if ((b[4] & 0xC3) || (b[5] & 0x60) == 0x60 || (format1 && (origin & 0x3F))) program_check(kOperandException);
  if (n >= subchannels_.size()) return 3;
  Subchannel& s = subchannels_[n];
  if (s.status_pending()) return 1;
  if (s.function) return 2;
  s.interruption_parameter = get32(b);
  s.isc = (b[4] >> 3) & 7;
  s.enabled = b[5] & 0x80;
  s.limit_mode = (b[5] >> 5) & 3, s.measurement_mode = (b[5] >> 3) & 3;
  s.multipath = b[5] & 0x04, s.timing = b[5] & 0x02;
  s.lpm = b[8];
  s.measurement_index = get16(b + 12);
  s.measurement_format1 = format1;
  s.measurement_block_origin = format1 ? origin : 0;
  return 0;
}

unsigned ChannelSubsystem390::start_subchannel(SystemCpu& cpu, unsigned n, uint64_t orb_at) {
  uint8_t orb[12];
  fetch_operand(cpu.cpu(), orb_at, orb, sizeof orb);
  // [Principles of Operation, "START SUBCHANNEL" and "Operation-Request Block"]: word 1
  // bits 26-30 zero, bit 31 (the ORB extension) and bit 13 (transport mode: no TCWs here)
  // zero, and word 2 bit 0 zero, or an operand exception.
  const uint32_t word1 = get32(orb + 4), program = get32(orb + 8);
  if ((word1 & 0x3F) || (word1 & (1u << (31 - 13))) || (program >> 31)) program_check(kOperandException);
  if (n >= subchannels_.size() || !subchannels_[n].attached() || !subchannels_[n].enabled) return 3;
  Subchannel& s = subchannels_[n];
  if (s.status_pending()) return 1;
  if (s.function) return 2;
  ++starts;
  s.interruption_parameter = get32(orb);
  s.key = uint8_t(word1 >> 28);
  s.format1 = word1 & (1u << (31 - 8));
  s.prefetch = word1 & (1u << (31 - 9));
  s.initial_status = word1 & (1u << (31 - 10));
  s.suppress_incorrect_length_mode = word1 & (1u << (31 - 24));
  s.function = scsw::kStart;
  s.activity = scsw::kSubchannelActive | scsw::kDeviceActive;
  s.status_control = 0;
  s.device_status = s.subchannel_status = 0, s.residual = 0, s.deferred_cc = 0, s.zero_cc = false;
  count_start(cpu, s);

  Cpu& c = cpu.cpu();
  const uint64_t now_ns = uint64_t(double(c.cycles) / c.clock_ghz);
  uint64_t ns = 0;
  if (s.eadm) {
    run_aob(cpu, s, program, ns);
  } else {
    ns = s.device->begin(now_ns);
    run_channel_program(cpu, s, program, ns);
    s.device->end();
  }
  // The status is the device's when its time has passed: an event on the machine's queue.
  const uint64_t serial = ++serial_;
  s.completion_serial = serial;
  struct Ending {
    uint32_t ccw_address;
    uint8_t device_status, subchannel_status;
    uint16_t residual;
  };
  const Ending done{s.ccw_address, s.device_status, s.subchannel_status, s.residual};
  s.device_status = s.subchannel_status = 0, s.residual = 0;
  const uint64_t at = c.cycles + uint64_t(double(ns) * c.clock_ghz);
  machine_.machine().schedule_from_instruction(at, [this, n, serial, done] {
    Subchannel& t = subchannels_[n];
    if (t.completion_serial != serial) return;  // cleared or halted since
    t.ccw_address = done.ccw_address, t.device_status = done.device_status;
    t.subchannel_status = done.subchannel_status, t.residual = done.residual;
    t.activity = 0;
    t.status_control = scsw::kPrimary | scsw::kSecondary | scsw::kStatusPending |
                       ((t.device_status & (device_status::kUnitCheck | device_status::kUnitException)) ||
                                t.subchannel_status
                            ? scsw::kAlert
                            : 0);
    make_status_pending(n);
  });
  // The machine chose this run's end before the event was there.
  c.end_slice();
  return 0;
}

// The channel program [Principles of Operation, chapter 15, "Execution of I/O Operations"]:
// CCWs fetched in turn (format 0 or 1 as the ORB says), each command's data gathered
// from (or scattered to) its data chain, command chaining while the flags ask for it and
// nothing went wrong. The ending status is left in the subchannel's SCSW fields.
void ChannelSubsystem390::run_channel_program(SystemCpu& cpu, Subchannel& s, uint64_t ccw_at, uint64_t& ns) {
  using Access = SystemCpu::ChannelAccess;
  auto end = [&](uint8_t dstat, uint8_t sstat, uint64_t next) {
    s.device_status = uint8_t(dstat | device_status::kChannelEnd | device_status::kDeviceEnd);
    s.subchannel_status = sstat;
    s.ccw_address = uint32_t(next);
  };
  auto fail_access = [&](Access a, uint64_t next) {
    end(0, a == Access::Protection ? subchannel_status::kProtectionCheck : subchannel_status::kProgramCheck, next);
  };
  struct Ccw {
    uint8_t code, flags;
    uint16_t count;
    uint32_t data;
  };
  auto fetch = [&](uint64_t at, Ccw& ccw) -> Access {
    uint8_t b[8];
    if (at & 7) return Access::Addressing;  // a program check, as an invalid address is
    const Access a = cpu.channel_move(at, b, 8, false, s.key);
    if (a != Access::Ok) return a;
    if (s.format1) ccw = {b[0], b[1], get16(b + 2), get32(b + 4)};
    else ccw = {b[0], b[4], get16(b + 6), uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3]};
    return Access::Ok;
  };
  bool after_tic = false;
  for (unsigned executed = 0;; ++executed) {
    if (executed >= kMaxCcws) return end(0, 0x04 /* channel-control check */, ccw_at + 8);
    Ccw ccw;
    if (const Access a = fetch(ccw_at, ccw); a != Access::Ok) return fail_access(a, ccw_at + 8);
    const CommandKind kind = command_kind(ccw.code);
    if (kind == CommandKind::Tic) {
      // A TIC to a TIC, a misaligned target or a format-1 address with bit 0 on: program check.
      if (after_tic || (ccw.data & 7) || (s.format1 && (ccw.data >> 31))) return end(0, subchannel_status::kProgramCheck, ccw_at + 8);
      after_tic = true;
      ccw_at = ccw.data;
      continue;
    }
    after_tic = false;
    // Not modelled: indirect data addressing (IDAWs, MIDAWs) and suspension; a format-1
    // CCW's address bit 0; an invalid command code; a zero count but for control commands.
    if (kind == CommandKind::Invalid || (ccw.flags & (kIndirectData | kModifiedIndirect | kSuspend)) ||
        (s.format1 && (ccw.data >> 31)) || (ccw.count == 0 && kind != CommandKind::Control) ||
        kind == CommandKind::ReadBackward)
      return end(0, subchannel_status::kProgramCheck, ccw_at + 8);

    // The data chain: this CCW's area and those of the CCWs that follow while CD is on.
    std::vector<std::pair<uint32_t, uint16_t>> areas{{ccw.data, ccw.count}};
    uint64_t last_at = ccw_at;
    uint8_t flags = ccw.flags;
    uint32_t total = ccw.count;
    while (flags & kChainData) {
      Ccw more;
      last_at += 8;
      if (const Access a = fetch(last_at, more); a != Access::Ok) return fail_access(a, last_at + 8);
      if (command_kind(more.code) == CommandKind::Tic) {  // a TIC in a data chain leads to the next area
        if (more.data & 7) return end(0, subchannel_status::kProgramCheck, last_at + 8);
        last_at = more.data - 8;
        continue;
      }
      if (more.count == 0 || total + more.count > kMaxChainBytes || (more.flags & (kIndirectData | kModifiedIndirect)))
        return end(0, subchannel_status::kProgramCheck, last_at + 8);
      areas.push_back({more.data, more.count});
      total += more.count;
      flags = more.flags;
    }

    DeviceCommand command;
    command.code = ccw.code;
    command.count = total;
    const bool sends = kind == CommandKind::Write || kind == CommandKind::Control;
    if (sends || s.device->reads_its_area(ccw.code)) {
      command.data.resize(total);
      uint32_t at = 0;
      for (const auto& [address, count] : areas) {
        if (const Access a = cpu.channel_move(address, command.data.data() + at, count, false, s.key); a != Access::Ok)
          return fail_access(a, last_at + 8);
        at += count;
      }
    }
    const DeviceAnswer answer = s.device->execute(command);
    ns += answer.ns;
    // The bytes the command moved: a receiving command's data (at most the count), a
    // sending one's as the device took them (data.size() after execute).
    const uint32_t length = uint32_t(command.data.size());
    // Skip: a read's data is not stored [Principles of Operation, "Skip"].
    if (!sends && !(ccw.flags & kSkip)) {
      uint32_t at = 0;
      for (const auto& [address, count] : areas) {
        if (at >= length) break;
        const uint32_t part = std::min<uint32_t>(count, length - at);
        if (const Access a = cpu.channel_move(address, command.data.data() + at, part, true, s.key); a != Access::Ok)
          return fail_access(a, last_at + 8);
        at += part;
      }
    }
    s.residual = uint16_t(total > length ? total - length : 0);
    const bool incorrect_length = length != total && !(flags & kSuppressLength) && !(answer.status & device_status::kUnitCheck);
    if (answer.status & (device_status::kUnitCheck | device_status::kUnitException))
      return end(answer.status, 0, last_at + 8);
    if (incorrect_length) return end(answer.status, subchannel_status::kIncorrectLength, last_at + 8);
    if (!(flags & kChainCommand)) return end(answer.status, 0, last_at + 8);
    // Status modifier: the device skips the next CCW [Principles of Operation, "Status Modifier"].
    ccw_at = last_at + ((answer.status & device_status::kStatusModifier) ? 16 : 8);
  }
}

namespace {
constexpr unsigned kAobRequest = 0, kAobResponse = 64, kAobMsbs = 128, kMsbBytes = 32, kMaxMsbs = 124;
constexpr uint16_t kArqbMove = 1;
// Host protection: an AOB whose MSBs move more than this (blocks times their count) is
// ended with a program check, not allocated (124 MSBs of 1 MB blocks each is 124 MB).
constexpr uint64_t kMaxAobBytes = 256ull << 20;
}  // namespace

// An AOB on an EADM subchannel: the ARQB's move command and MSB count, each MSB's
// operation (clear, read, write, release), block size (4 KB, 1 MB), block count, main-
// storage and SCM addresses; the write's data fetched and the read's stored under the
// ORB's key, as a channel program's. A device error stores the ARSB (error flags, the
// error qualifier, the failing MSB's address and SCM address) and ends in unit check.
// The SCSW's word 1 is the AOB's address. Not modelled: the MSBs' indirect (AIDAW) and
// block-number modes (a program check).
void ChannelSubsystem390::run_aob(SystemCpu& cpu, Subchannel& s, uint64_t aob, uint64_t& ns) {
  using Access = SystemCpu::ChannelAccess;
  s.ccw_address = uint32_t(aob);
  auto end = [&](uint8_t dstat, uint8_t sstat) {
    s.device_status = uint8_t(dstat | device_status::kChannelEnd | device_status::kDeviceEnd);
    s.subchannel_status = sstat;
  };
  auto fail_access = [&](Access a) {
    end(0, a == Access::Protection ? subchannel_status::kProtectionCheck : subchannel_status::kProgramCheck);
  };
  if (aob & 0xFFF) return end(0, subchannel_status::kProgramCheck);
  uint8_t arqb[64];
  if (const Access a = cpu.channel_move(aob + kAobRequest, arqb, sizeof arqb, false, s.key); a != Access::Ok)
    return fail_access(a);
  const unsigned msbs = get16(arqb + 14);
  if (get16(arqb + 10) != kArqbMove || msbs == 0 || msbs > kMaxMsbs) return end(0, subchannel_status::kProgramCheck);
  std::vector<EadmBlock> blocks;
  std::vector<uint64_t> storage_of, msb_of;  // each block's main-storage address, its MSB's
  uint64_t total = 0;
  for (unsigned m = 0; m < msbs; ++m) {
    uint8_t msb[kMsbBytes];
    const uint64_t msb_at = aob + kAobMsbs + uint64_t(m) * kMsbBytes;
    if (const Access a = cpu.channel_move(msb_at, msb, sizeof msb, false, s.key); a != Access::Ok) return fail_access(a);
    const unsigned op = msb[0] & 0xF, size_code = msb[3] & 0xF, flags = msb[1];
    const uint32_t count = get32(msb + 4);
    const uint64_t data = get64(msb + 8), scm = get64(msb + 16);
    const uint64_t size = size_code ? 1ull << 20 : 4096;
    if (op > 3 || size_code > 1 || flags || count == 0 || (total += count * size) > kMaxAobBytes)
      return end(0, subchannel_status::kProgramCheck);
    for (uint32_t k = 0; k < count; ++k) {
      EadmBlock b;
      b.op = EadmBlock::Op(op), b.one_megabyte = size_code == 1, b.scm_address = scm + k * size;
      b.data.resize(size);
      if (b.op == EadmBlock::Op::Write)
        if (const Access a = cpu.channel_move(data + k * size, b.data.data(), uint32_t(size), false, s.key);
            a != Access::Ok)
          return fail_access(a);
      blocks.push_back(std::move(b));
      storage_of.push_back(data + k * size), msb_of.push_back(msb_at);
    }
  }
  Cpu& c = cpu.cpu();
  const EadmAnswer answer = s.eadm->move(uint64_t(double(c.cycles) / c.clock_ghz), blocks);
  ns = answer.ns;
  if (!answer.ok) {
    uint8_t arsb[64] = {};
    arsb[4] = 0x80;  // error flags: the request failed (ours: which bit the facility sets is not in our sources)
    arsb[11] = 1;    // the error qualifier (ours)
    const unsigned failed = std::min<unsigned>(answer.failed_block, unsigned(blocks.size() - 1));
    put64(arsb + 16, msb_of[failed]);
    put64(arsb + 40, blocks[failed].scm_address);
    if (const Access a = cpu.channel_move(aob + kAobResponse, arsb, sizeof arsb, true, s.key); a != Access::Ok)
      return fail_access(a);
    return end(device_status::kUnitCheck, 0);
  }
  for (size_t k = 0; k < blocks.size(); ++k)
    if (blocks[k].op == EadmBlock::Op::Read)
      if (const Access a = cpu.channel_move(storage_of[k], blocks[k].data.data(), uint32_t(blocks[k].data.size()), true,
                                            s.key);
          a != Access::Ok)
        return fail_access(a);
  end(0, 0);
}

// Channel-subsystem monitoring [Principles of Operation, chapter 17, "Measurement-Block
// Update"]: with SET CHANNEL MONITOR's M bit on and the subchannel's measurement-block
// update enabled (PMCW MM bit 0), each start function counts in the subchannel's
// measurement block, stored under the measurement-block key: format 0 (32 bytes, a
// halfword count) in SCHM's area at 32 times the PMCW's measurement-block index, format
// 1 (64 bytes, a word count) at the subchannel's own origin. SIMPLIFICATION: only the
// SSCH/RSCH count is kept (no sample count or times: those words stay as the program
// left them); a block the channel cannot reach is not stored.
void ChannelSubsystem390::count_start(SystemCpu& cpu, const Subchannel& s) {
  using Access = SystemCpu::ChannelAccess;
  if (!measurement_update_ || !(s.measurement_mode & 2)) return;
  const unsigned width = s.measurement_format1 ? 4 : 2;
  const uint64_t at = s.measurement_format1 ? s.measurement_block_origin
                                            : measurement_area_ + 32ull * s.measurement_index;
  uint8_t count[4] = {};
  if (cpu.channel_move(at, count, width, false, measurement_key_) != Access::Ok) return;
  uint32_t value = width == 4 ? get32(count) : get16(count);
  ++value;
  if (width == 4) put32(count, value);
  else put16(count, uint16_t(value));
  cpu.channel_move(at, count, width, true, measurement_key_);
}

void ChannelSubsystem390::set_channel_monitor(uint8_t key, bool update, uint64_t origin) {
  measurement_key_ = key, measurement_update_ = update;
  if (update) measurement_area_ = origin;
}

// Only CHPID 0 is installed (every subchannel's one path). The report: [Principles of
// Operation, "Channel-Report Word"] solicited (bit 1), reporting-source code 4 (channel
// path), error-recovery code 2 (initialized), the CHPID as the reporting-source ID.
unsigned ChannelSubsystem390::reset_channel_path(unsigned chpid) {
  if (chpid != 0 || subchannels_.empty()) return 3;
  constexpr uint32_t kSolicited = 1u << 30, kChannelPath = 4u << 24, kInitialized = 2u << 16;
  // The channel subsystem holds a bounded number of reports: past it, the newest one
  // kept has the overflow bit (R, bit 2) on and further reports are lost [Principles of
  // Operation, "Channel-Report Word"]. (It also keeps a loop of RCHPs from growing the host.)
  constexpr uint32_t kOverflow = 1u << 29;
  constexpr size_t kMaxReports = 64;
  if (channel_reports_.size() >= kMaxReports) {
    channel_reports_.back() |= kOverflow;
    return 0;
  }
  channel_reports_.push_back(kSolicited | kChannelPath | kInitialized | chpid);
  return 0;
}

bool ChannelSubsystem390::take_channel_report(uint32_t& crw) {
  if (channel_reports_.empty()) return false;
  crw = channel_reports_.front();
  channel_reports_.pop_front();
  return true;
}

// CHANNEL SUBSYSTEM CALL [Principles of Operation, "CHANNEL SUBSYSTEM CALL"; the
// commands' layouts as Linux's arch/s390 CHSC code and kvm-unit-tests use them, read for
// facts]: the request block's halfword length and command code, the response after it.
// One command: store channel-subsystem characteristics (code X'0010', a request of 16
// bytes), whose response lists the general characteristics the channel subsystem has:
// bit 48, the extended measurement-block facility (format-1 blocks). Any other command:
// response code 4 (not installed); a wrong length: 3 (request error). CC 0.
unsigned ChannelSubsystem390::call(SystemCpu& cpu, uint64_t block) {
  constexpr uint16_t kStoreCharacteristics = 0x0010, kRequestBytes = 0x0010;
  constexpr uint16_t kResponseOk = 1, kRequestError = 3, kNotInstalled = 4;
  constexpr unsigned kExtendedMeasurementBlock = 48;
  Cpu& c = cpu.cpu();
  const uint16_t length = c.read<uint16_t>(block), command = c.read<uint16_t>(block + 2);
  const uint64_t response = block + (length >= 16 && length <= 4088 && !(length & 7) ? length : 16);
  uint16_t code = kResponseOk;
  if (command != kStoreCharacteristics) code = kNotInstalled;
  else if (length != kRequestBytes) code = kRequestError;
  if (code != kResponseOk) {
    c.write<uint16_t>(response, 8), c.write<uint16_t>(response + 2, code), c.write<uint32_t>(response + 4, 0);
    return 0;
  }
  uint8_t answer[4096 - kRequestBytes] = {};
  put16(answer, uint16_t(sizeof answer)), put16(answer + 2, kResponseOk);
  answer[8 + kExtendedMeasurementBlock / 8] |= uint8_t(0x80 >> (kExtendedMeasurementBlock % 8));
  store_operand(c, response, answer, sizeof answer);
  return 0;
}

void ChannelSubsystem390::make_status_pending(unsigned n) {
  Subchannel& s = subchannels_[n];
  s.status_control |= scsw::kStatusPending;
  if (!s.enabled) return;
  pending_[s.isc & 7].push_back(n);
  ++interruptions_made_pending;
  for (unsigned i = 0; i < machine_.machine().istreams(); ++i) machine_.cpu(i).condition_arrived();
}

void ChannelSubsystem390::withdraw_interruption(unsigned n) {
  for (auto& q : pending_) q.erase(std::remove(q.begin(), q.end(), n), q.end());
}

bool ChannelSubsystem390::interruption_pending(uint64_t cr6) const {
  for (unsigned isc = 0; isc < 8; ++isc)
    if ((cr6 & (1ull << (31 - isc))) && !pending_[isc].empty()) return true;
  return false;
}

bool ChannelSubsystem390::take_interruption(uint64_t cr6, unsigned& subchannel) {
  for (unsigned isc = 0; isc < 8; ++isc)
    if ((cr6 & (1ull << (31 - isc))) && !pending_[isc].empty()) {
      subchannel = pending_[isc].front();
      pending_[isc].pop_front();
      return true;
    }
  return false;
}

// TEST SUBCHANNEL [Principles of Operation, "TEST SUBCHANNEL"]: the IRB (SCSW, the
// extended-status word, the extended-control word; 64 bytes: no measurement word) is
// stored whatever the CC; with status pending, CC 0 and the status, the function and the
// pending interruption are cleared; else CC 1.
unsigned ChannelSubsystem390::test_subchannel(SystemCpu& cpu, unsigned n, uint64_t irb) {
  if (n >= subchannels_.size()) return 3;
  Subchannel& s = subchannels_[n];
  uint8_t b[kIrbBytes] = {};
  put_scsw(b, s);
  // ESW format 0: the subchannel logout (word 0) zero, LPUM in word 1 byte 1.
  b[12 + 5] = 0x80;
  store_operand(cpu.cpu(), irb, b, kIrbBytes);
  if (!s.status_pending()) return 1;
  withdraw_interruption(n);
  s.status_control = 0, s.function = 0, s.activity = 0;
  s.device_status = s.subchannel_status = 0, s.residual = 0;
  return 0;
}

// CLEAR SUBCHANNEL: whatever the subchannel does ends; the clear function's status is
// pending at once (the device's reset is not timed) [Principles of Operation, "CLEAR SUBCHANNEL"].
unsigned ChannelSubsystem390::clear_subchannel(SystemCpu&, unsigned n) {
  if (n >= subchannels_.size() || !subchannels_[n].attached()) return 3;
  Subchannel& s = subchannels_[n];
  withdraw_interruption(n);
  s.completion_serial = 0;
  s.function = scsw::kClear, s.activity = 0, s.status_control = scsw::kStatusPending;
  s.device_status = s.subchannel_status = 0, s.residual = 0;
  make_status_pending(n);
  return 0;
}

// HALT SUBCHANNEL: a start in progress ends now (its status the halt's: no device
// status); CC 1 with status pending (no intermediate status is ever made here), CC 2
// with a halt or clear in progress.
unsigned ChannelSubsystem390::halt_subchannel(SystemCpu&, unsigned n) {
  if (n >= subchannels_.size() || !subchannels_[n].attached()) return 3;
  Subchannel& s = subchannels_[n];
  if (s.status_pending()) return 1;
  if (s.function & (scsw::kHalt | scsw::kClear)) return 2;
  withdraw_interruption(n);
  const bool was_active = s.activity != 0;
  s.completion_serial = 0;
  s.function = uint8_t(s.function | scsw::kHalt), s.activity = 0;
  s.status_control = scsw::kStatusPending | (was_active ? scsw::kPrimary | scsw::kSecondary : 0);
  make_status_pending(n);
  return 0;
}

// RESUME SUBCHANNEL: no channel program is ever suspended here (CCWs with the suspend
// flag are a program check): CC 1 with status pending, else CC 2 (not applicable).
unsigned ChannelSubsystem390::resume_subchannel(SystemCpu&, unsigned n) {
  if (n >= subchannels_.size() || !subchannels_[n].attached() || !subchannels_[n].enabled) return 3;
  return subchannels_[n].status_pending() ? 1 : 2;
}

}  // namespace emu
