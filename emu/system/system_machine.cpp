#include "emu/system/system_machine.h"

#include <fmt/format.h>

namespace emu {

namespace {
// Where Linux and kvm-unit-tests read the kernel command line (QEMU's -append puts it
// there): absolute 0x10480, at most 896 bytes with its NUL in Linux's layout.
constexpr uint64_t kParametersAt = 0x10480;
constexpr uint64_t kParametersMax = 896;
bool nullifies(uint16_t code) {
  return code == dat_code::kPageTranslation || code == dat_code::kSegmentTranslation || code == dat_code::kAsceType ||
         code == dat_code::kRegionFirstTranslation || code == dat_code::kRegionSecondTranslation ||
         code == dat_code::kRegionThirdTranslation;
}
}  // namespace

SystemMachine::SystemMachine(Machine& machine, uint64_t real_size, std::function<void(std::string_view)> console)
    : machine_(machine), sclp_(std::move(console)) {
  const unsigned n = machine.config().istreams;
  for (unsigned i = 0; i < n; ++i) real_.push_back(std::make_unique<RealStorage>(machine.storage(), real_size));
  machine.start(real_[0]->space());
  for (unsigned i = 0; i < n; ++i) {
    Cpu& c = machine.cpu(i);
    c.set_address_space(real_[i]->space());
    c.set_page_fault_handler(real_[i].get());
    c.set_svc_handler(this);
    cpus_.push_back(std::make_unique<SystemCpu>(*this, c, *real_[i]));
    cpus_.back()->initial_reset();
    machine.set_state(i, IStreamState::Stopped);  // until IPL (I-stream 0) or SIGP
  }
  machine.set_dispatcher(this);
}

SystemMachine::~SystemMachine() {
  for (unsigned i = 0; i < machine_.istreams(); ++i) machine_.cpu(i).set_system(nullptr);
}

bool SystemMachine::load_parameters(const std::string& parameters, std::string& error) {
  if (parameters.size() + 1 > kParametersMax) {
    error = fmt::format("the parameters take {} bytes with their NUL; at most {} fit at {:#x}", parameters.size() + 1,
                        kParametersMax, kParametersAt);
    return false;
  }
  if (parameters.empty()) return true;
  std::string bytes = parameters;
  bytes.push_back('\0');
  if (!real_[0]->space().write_bytes(kParametersAt, bytes.data(), bytes.size())) {
    error = fmt::format("storage ({} bytes) has no room for the parameters at {:#x}", real_[0]->size(), kParametersAt);
    return false;
  }
  return true;
}

bool SystemMachine::ipl_elf(const ElfImage& image, const std::string& parameters, std::string& error) {
  AddressSpace& space = real_[0]->space();  // prefix 0 after reset: real is absolute
  for (const ElfSegment& s : image.segments) {
    if (s.vaddr + s.memsz > real_[0]->size() || s.vaddr + s.memsz < s.vaddr) {
      error = fmt::format("the segment of program header at file offset {:#x} ends at {:#x}, past storage ({} bytes)",
                          s.header, s.vaddr + s.memsz, real_[0]->size());
      return false;
    }
    if (s.filesz && !space.write_bytes(s.vaddr, image.bytes.data() + s.offset, s.filesz)) {
      error = fmt::format("the segment at {:#x} could not be written", s.vaddr);
      return false;
    }
  }
  if (!load_parameters(parameters, error)) return false;
  SystemCpu& c = *cpus_[0];
  c.load_psw(Psw{psw::kAddressingMode, image.entry});
  machine_.set_state(0, c.state() == SystemCpu::State::Operating ? IStreamState::Running : IStreamState::Idle);
  return true;
}

bool SystemMachine::ipl_binary(const std::vector<uint8_t>& bytes, const std::string& parameters, std::string& error) {
  if (bytes.size() < 8) {
    error = "a binary image needs its IPL PSW in its first 8 bytes";
    return false;
  }
  if (bytes.size() > real_[0]->size()) {
    error = fmt::format("the image ({} bytes) is larger than storage ({} bytes)", bytes.size(), real_[0]->size());
    return false;
  }
  real_[0]->space().write_bytes(0, bytes.data(), bytes.size());
  if (!load_parameters(parameters, error)) return false;
  uint64_t short_psw = 0;
  for (unsigned k = 0; k < 8; ++k) short_psw = short_psw << 8 | bytes[k];
  if (!(short_psw & psw::kShortFormat)) {
    error = fmt::format("the IPL PSW {:016X} is not an ESA/390 PSW (bit 12 is zero)", short_psw);
    return false;
  }
  Psw p = psw_from_short(short_psw);
  p.mask |= psw::kAddressingMode;
  SystemCpu& c = *cpus_[0];
  c.load_psw(p);
  machine_.set_state(0, c.state() == SystemCpu::State::Operating ? IStreamState::Running : IStreamState::Idle);
  return true;
}

void SystemMachine::halt(unsigned istream, std::string reason) {
  if (!halted_) halted_ = true, halted_istream_ = istream, halt_reason_ = std::move(reason);
  machine_.cpu(istream).request_stop();
  machine_.end_run();
}

void SystemMachine::reipl(unsigned istream) {
  service_signal_pending_ = false;  // (a subsystem reset clears floating interruptions)
  // The other I-streams: reset and stopped, as SIGP initial CPU reset leaves them.
  for (unsigned i = 0; i < cpus_.size(); ++i) {
    if (i == istream) continue;
    cpus_[i]->initial_reset();
    machine_.cpu(i).request_stop();
    machine_.set_state(i, IStreamState::Stopped);
  }
  SystemCpu& c = *cpus_[istream];
  c.initial_reset();  // prefix 0: real 0 is absolute 0
  uint8_t bytes[8];
  real_[istream]->space().read_bytes(0, bytes, sizeof bytes);
  uint64_t short_psw = 0;
  for (uint8_t b : bytes) short_psw = short_psw << 8 | b;
  if (!(short_psw & psw::kShortFormat))
    return halt(istream, fmt::format("IPL again (DIAGNOSE X'308', the watchdog's reset): the IPL PSW at absolute "
                                     "0, {:016X}, is not an ESA/390 PSW (bit 12 is zero)", short_psw));
  Psw p = psw_from_short(short_psw);
  p.mask |= psw::kAddressingMode;  // 64-bit, as the first IPL (and QEMU's -kernel) runs it
  c.load_psw(p);
  machine_.set_state(istream, c.state() == SystemCpu::State::Operating ? IStreamState::Running : IStreamState::Idle);
}

void SystemMachine::problem_state_changing(unsigned istream) {
  execution_states_.attribute(real_[0]->space(), interval_states_);
  interval_states_ = 0;
  for (unsigned i = 0; i < cpus_.size(); ++i)
    if (i != istream && cpus_[i]->state() == SystemCpu::State::Operating) running_in(cpus_[i]->problem_state());
}

const ExecutionStates& SystemMachine::execution_states() {
  execution_states_.attribute(real_[0]->space(), interval_states_);
  return execution_states_;
}

void SystemMachine::offer_service_signal(uint64_t now) {
  for (unsigned i = 0; i < cpus_.size() && service_signal_pending_; ++i) cpus_[i]->offer_floating(now);
}

bool SystemMachine::take_service_signal(uint32_t& parameter) {
  if (!service_signal_pending_) return false;
  service_signal_pending_ = false, parameter = service_signal_parameter_;
  return true;
}

// DIAGNOSE X'288' as z/VM and QEMU give it: the timer runs `seconds` (at least 15) of
// TOD-clock time, then its action; change restarts it, cancel stops it; change or cancel
// of a timer not initialized, another function or action code, or no watchdog device,
// is a specification exception.
bool SystemMachine::diagnose_288(uint64_t function, uint64_t seconds, uint64_t action, uint64_t now) {
  constexpr uint64_t kInit = 0, kCancel = 2, kMinimumSeconds = 15;  // (1: change)
  if (watchdog_action_ == WatchdogAction::Absent || action != 0) return false;
  if (function != kCancel && seconds < kMinimumSeconds) return false;
  if (function > kCancel || (function != kInit && !watchdog_armed_)) return false;
  const uint64_t generation = ++watchdog_generation_;
  watchdog_armed_ = function != kCancel;
  if (!watchdog_armed_) return true;
  const double cycles = double(seconds) * machine_.cpu(0).clock_ghz * 1e9;
  if (cycles >= 0x1p62) return true;  // later than any run reaches
  const uint64_t at = now + uint64_t(cycles);
  machine_.schedule_from_instruction(at, [this, generation, at] { watchdog_expired(generation, at); });
  return true;
}

// The expiry: inject-nmi is the restart interruption on I-stream 0 (QEMU's NMI on
// s390x); reset IPLs again, as DIAGNOSE X'308' load normal does.
void SystemMachine::watchdog_expired(uint64_t generation, uint64_t now) {
  if (generation != watchdog_generation_ || !watchdog_armed_) return;
  watchdog_armed_ = false;
  switch (watchdog_action_) {
    case WatchdogAction::InjectNmi: cpus_[0]->restart(now); break;
    case WatchdogAction::Reset: reipl(0); break;
    default: break;
  }
}

void SystemMachine::disabled_wait(unsigned) {
  for (const auto& c : cpus_)
    if (c->state() == SystemCpu::State::Operating || (c->state() == SystemCpu::State::Waiting && !c->psw().disabled_wait()))
      return;
  machine_.end_run();
}

bool SystemMachine::dispatch(unsigned istream, Why) {
  return cpus_[istream]->state() == SystemCpu::State::Operating && !halted_;
}

bool SystemMachine::program_check(unsigned istream, const RunResult& r) {
  SystemCpu& s = *cpus_[istream];
  Cpu& c = s.cpu();
  const ProgramInterrupt& pi = r.check.interrupt;
  if (s.looping_at(r.check.insn_address)) {
    halt(istream, fmt::format("program interruption {:04X} ({}) by the first instruction at the program-new PSW's "
                              "address {:016X}: a program-interruption loop",
                              uint16_t(pi.code), pic_name(pi.code), r.check.insn_address));
    return false;
  }
  // An instruction whose bytes could not be fetched: ILC 2, as QEMU gives.
  const unsigned ilc = r.check.insn_length ? r.check.insn_length : 2;
  // Suppression and completion leave the old PSW past the instruction, nullification at
  // it [Principles of Operation, "Types of Instruction Ending"]. The run left it past
  // an instruction that started, at one whose fetch or decoding failed (an operation
  // exception): that one moves on by its ILC too.
  // A page the CPU's view has not mapped is DAT's to translate (emu/system/dat.h): its
  // exception, if the walk failed, and the translation-exception identification.
  uint16_t code = uint16_t(pi.code);
  uint64_t teid = 0;
  const bool translation = pi.code == Pic::PageTranslation && s.dat().take_exception(code, teid);
  // The translation exceptions nullify [Principles of Operation, "Recognition of Access
  // Exceptions"]; an addressing exception of a table entry suppresses.
  if (nullifies(code)) c.psw_addr = r.check.insn_address;
  else if (c.psw_addr == r.check.insn_address) c.psw_addr += ilc;
  if (translation && nullifies(code)) s.store_translation_exception_id(teid);
  // A protection exception's TEID: key-controlled or DAT protection (ESOP-2's form).
  if (code == uint16_t(Pic::Protection) && s.take_protection_teid(pi.address, c.fault_was_store(), teid))
    s.store_translation_exception_id(teid);
  s.program_interruption(code, ilc, pi.dxc);
  return !halted_;
}

void SystemMachine::supervisor_call(Cpu& cpu, uint8_t number) {
  // The PSW already points past the SVC; its ILC is 2 (under EXECUTE the PoO gives the
  // EXECUTE's: not told apart here).
  system_of(cpu).svc_interruption(number, 2);
}

SystemRunResult SystemMachine::run(uint64_t max_instructions) {
  const MachineRunResult r = machine_.run(max_instructions);
  SystemRunResult out;
  out.psw = cpus_[0]->psw();
  if (halted_) {
    out.end = SystemRunResult::End::Halted, out.istream = halted_istream_, out.reason = halt_reason_;
    out.psw = cpus_[halted_istream_]->psw();
    return out;
  }
  switch (r.reason) {
    case MachineRunResult::Reason::Limit: out.end = SystemRunResult::End::Limit; return out;
    case MachineRunResult::Reason::HostLimit: out.end = SystemRunResult::End::HostLimit; return out;
    case MachineRunResult::Reason::ProgramCheck:  // only when the dispatcher gave up: halted above
    default: break;
  }
  // Every I-stream stopped or waiting: the run ends on the first disabled wait, if any.
  for (unsigned i = 0; i < cpus_.size(); ++i) {
    const Psw p = cpus_[i]->psw();
    if (cpus_[i]->state() == SystemCpu::State::Waiting && p.disabled_wait()) {
      out.end = SystemRunResult::End::DisabledWait, out.istream = i, out.psw = p;
      return out;
    }
  }
  // Every I-stream stopped (SIGP stop, as kvm-unit-tests' exit() stops its own CPU):
  // nothing can start one again, the program is done, as QEMU's machine shuts down.
  bool all_stopped = true;
  for (const auto& c : cpus_) all_stopped = all_stopped && c->state() == SystemCpu::State::Stopped;
  out.end = all_stopped ? SystemRunResult::End::Stopped : SystemRunResult::End::EnabledWait;
  return out;
}

}  // namespace emu
