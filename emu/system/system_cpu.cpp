#include "emu/system/system_cpu.h"

#include <algorithm>

#include <fmt/format.h>

#include "emu/system/system_machine.h"

namespace emu {

uint64_t Cpu::system_psw_mask() const {
  return system_->mask() | uint64_t(cc & 3) << psw::kCcShift | uint64_t(prog_mask & 0xF) << psw::kProgramMaskShift;
}

SystemCpu& system_of(Cpu& c) {
  SystemCpu* s = c.system();
  if (!s) program_check(Pic::PrivilegedOperation);
  return *s;
}

SystemCpu::SystemCpu(SystemMachine& machine, Cpu& cpu, RealStorage& real)
    : machine_(machine), cpu_(cpu), real_(real) {
  cpu_.set_system(this);
}

void SystemCpu::initial_reset() {
  mask_ = 0;
  cpu_.cc = 0, cpu_.prog_mask = 0, cpu_.psw_addr = 0;
  for (uint64_t& r : cr) r = 0;
  cr[0] = 0xE0;
  cr[14] = 0xC2000000;
  set_prefix(0);
  cpu_timer_set_ = 0, cpu_timer_since_ = cpu_.tod_clock();
  clock_comparator_ = 0;  // as the PoO's initial CPU reset gives it
  service_signal_pending_ = false;
  state_ = State::Stopped;
}

Psw SystemCpu::psw() const { return Psw{cpu_.psw_mask(), cpu_.psw_addr}; }

void SystemCpu::set_prefix(uint32_t prefix) {
  real_.set_prefix(prefix);
  cpu_.flush_tlb();
}

template <class T> void SystemCpu::store(uint64_t real, T v) {
  real_.map(real);
  cpu_.write<T>(real, v);
}
template <class T> T SystemCpu::fetch(uint64_t real) {
  real_.map(real);
  return cpu_.read<T>(real);
}

void SystemCpu::load_psw(const Psw& p) {
  mask_ = p.mask & ~psw::kCcAndProgramMask;
  cpu_.cc = uint8_t(p.mask >> psw::kCcShift & 3);
  cpu_.prog_mask = uint8_t(p.mask >> psw::kProgramMaskShift & 0xF);
  cpu_.psw_addr = p.addr;
  state_ = State::Operating;
  if (!p.valid()) {
    // An early exception: the invalid PSW is the program old PSW, ILC 0.
    if (loading_program_new_)  // the next one would load it again, and again
      return machine_.halt(address(), fmt::format("the program-new PSW {:016X} {:016X} is not valid: a program-"
                                                  "interruption loop", p.mask, p.addr));
    return program_interruption(uint16_t(Pic::Specification), 0);
  }
  if (!p.mode64())
    return machine_.halt(address(), fmt::format("PSW {:016X} {:016X} is in {}-bit addressing mode; tpfemu runs "
                                                "64-bit mode only", p.mask, p.addr,
                                                p.mask & psw::kBasicAddressing ? 31 : 24));
  if (p.mask & psw::kDat)
    return machine_.halt(address(), fmt::format("PSW {:016X} {:016X} turns DAT on; translation through the "
                                                "program's own tables is not implemented yet (docs/system-mode.md)",
                                                p.mask, p.addr));
  if (p.wait()) return enter_wait();
  deliver_pending();
}

void SystemCpu::set_system_mask(uint8_t byte) {
  Psw p = psw();
  p.mask = (p.mask & 0x00FFFFFFFFFFFFFFull) | uint64_t(byte) << 56;
  load_psw(p);
}

void SystemCpu::enter_wait() {
  state_ = State::Waiting;
  deliver_pending();  // an interruption already pending ends the wait at once
  if (state_ != State::Waiting) return;
  cpu_.request_stop();
  if (psw().disabled_wait()) machine_.disabled_wait(address());
}

void SystemCpu::external_interruption(uint16_t code, uint32_t parameter) {
  ++external_interruptions;
  store<uint32_t>(lowcore::kExternalParameter, parameter);
  store<uint16_t>(lowcore::kExternalCpuAddress, 0);
  store<uint16_t>(lowcore::kExternalCode, code);
  interrupt(lowcore::kExternalOldPsw, lowcore::kExternalNewPsw);
}

namespace {
// The first cycle from `from` on at which the TOD clock is past `tod` (~0: never).
uint64_t first_cycle_past(double clock_ghz, uint64_t from, uint64_t tod) {
  if (Cpu::tod_at(clock_ghz, from) > tod) return from;
  uint64_t lo = from, step = 1;  // tod_at(lo) <= tod
  while (Cpu::tod_at(clock_ghz, lo + step) <= tod) {
    lo += step, step *= 2;
    if (step >> 62) return ~0ull;
  }
  uint64_t hi = lo + step;  // tod_at(hi) > tod
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (Cpu::tod_at(clock_ghz, mid) > tod ? hi : lo) = mid;
  }
  return hi;
}
}  // namespace

void SystemCpu::arm_timers() {
  if (state_ == State::Stopped || !(mask_ & psw::kExternal)) return;
  uint64_t at = ~0ull;
  if (cr[0] & kCr0ClockComparator) at = first_cycle_past(cpu_.clock_ghz, cpu_.cycles, clock_comparator_);
  if ((cr[0] & kCr0CpuTimer) && !(cpu_timer_set_ >> 63))
    at = std::min(at, first_cycle_past(cpu_.clock_ghz, cpu_.cycles, cpu_timer_since_ + cpu_timer_set_));
  if (at == ~0ull || at == armed_cycle_) return;
  armed_cycle_ = at;
  machine_.machine().events().schedule(at, [this] { timer_event(); });
  // The machine chose this run's end before the event was there: end it after this
  // instruction, so that the next run stops at the event's cycle.
  cpu_.end_slice();
}

void SystemCpu::timer_event() {
  if (state_ == State::Stopped) return;
  deliver_pending();
  // Woken from its wait: the machine runs it again from the event's time.
  if (state_ == State::Operating && machine_.machine().state(address()) == IStreamState::Idle)
    machine_.machine().wake(address(), cpu_.cycles);
}

void SystemCpu::interrupt(uint64_t old_at, uint64_t new_at) {
  const Psw old = psw();
  store<uint64_t>(old_at, old.mask);
  store<uint64_t>(old_at + 8, old.addr);
  Psw next{fetch<uint64_t>(new_at), fetch<uint64_t>(new_at + 8)};
  load_psw(next);
}

void SystemCpu::program_interruption(uint16_t code, unsigned ilc, uint8_t dxc) {
  ++program_interruptions;
  store<uint8_t>(lowcore::kProgramIlc, uint8_t(ilc));
  store<uint16_t>(lowcore::kProgramCode, code);
  if (code == uint16_t(Pic::Data) || code == uint16_t(Pic::VectorProcessing))
    store<uint32_t>(lowcore::kDataExceptionCode, dxc);
  const Psw old = psw();
  store<uint64_t>(lowcore::kProgramOldPsw, old.mask);
  store<uint64_t>(lowcore::kProgramOldPsw + 8, old.addr);
  Psw next{fetch<uint64_t>(lowcore::kProgramNewPsw), fetch<uint64_t>(lowcore::kProgramNewPsw + 8)};
  program_new_addr_ = next.addr, program_new_at_ = cpu_.instructions;
  loading_program_new_ = true;
  load_psw(next);
  loading_program_new_ = false;
}

void SystemCpu::svc_interruption(uint8_t number, unsigned ilc) {
  ++svc_interruptions;
  store<uint8_t>(lowcore::kSvcIlc, uint8_t(ilc));
  store<uint16_t>(lowcore::kSvcCode, number);
  interrupt(lowcore::kSvcOldPsw, lowcore::kSvcNewPsw);
}

void SystemCpu::restart_interruption() {
  ++restart_interruptions;
  interrupt(lowcore::kRestartOldPsw, lowcore::kRestartNewPsw);
}

// The external interruptions by their priority among themselves [Principles of
// Operation, "External Interruption"]: clock comparator, CPU timer, service signal.
void SystemCpu::deliver_pending() {
  if (state_ == State::Stopped) return;
  if (mask_ & psw::kExternal) {
    if ((cr[0] & kCr0ClockComparator) && cpu_.tod_clock() > clock_comparator_)
      return external_interruption(kClockComparator, 0);
    if ((cr[0] & kCr0CpuTimer) && (cpu_timer() >> 63)) return external_interruption(kCpuTimer, 0);
    if (service_signal_pending_ && (cr[0] & kCr0ServiceSignal)) {
      service_signal_pending_ = false;
      return external_interruption(kServiceSignal, service_signal_sccb_);
    }
  }
  arm_timers();
}

}  // namespace emu
