#include "emu/system/system_cpu.h"

#include <algorithm>

#include <fmt/format.h>

#include "emu/isa/facility.h"
#include "emu/system/storage_key.h"
#include "emu/system/system_machine.h"

namespace emu {

uint64_t Cpu::system_psw_mask() const {
  return system_->mask() | uint64_t(cc & 3) << psw::kCcShift | uint64_t(prog_mask & 0xF) << psw::kProgramMaskShift;
}

bool Cpu::system_key_permits_store(uint64_t addr, bool store, uint64_t number) {
  return system_->check_key(addr, store, number);
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
  if (mask_ & psw::kProblem) machine_.problem_state_changing(address());
  mask_ = 0;
  cpu_.cc = 0, cpu_.prog_mask = 0, cpu_.psw_addr = 0, cpu_.fpc = 0;
  for (uint64_t& r : cr) r = 0;
  cr[0] = 0xE0;
  cr[14] = 0xC2000000;
  set_prefix(0);
  cpu_timer_set_ = 0, cpu_timer_since_ = elapsed_tod();
  clock_comparator_ = 0;  // as the PoO's initial CPU reset gives it
  reset();
}

void SystemCpu::reset() {
  external_call_pending_ = false;
  emergency_from_.assign(emergency_from_.size(), false);
  state_ = State::Stopped;
}

Psw SystemCpu::psw() const { return Psw{cpu_.psw_mask(), cpu_.psw_addr}; }

void SystemCpu::set_prefix(uint32_t prefix) {
  real_.set_prefix(prefix);
  dat_.purge_all();  // the views map to absolute frames through the old prefix
  cpu_.flush_tlb();
}

void SystemCpu::use_real_space() {
  cpu_.switch_address_space(real_.space());
  cpu_.set_page_fault_handler(&real_);
}

uint64_t SystemCpu::asce(AsceId& id) const {
  switch ((mask_ & psw::kAsc) >> psw::kAscShift) {
    case 2: return id = AsceId::Secondary, cr[7];
    case 3: return id = AsceId::Home, cr[13];
    default: return id = AsceId::Primary, cr[1];
  }
}

namespace {
// The ASCE instruction addresses translate through [Principles of Operation, "Address-
// Space Control"]: the primary (CR1) in secondary-space mode, else the operands' one.
uint64_t instruction_asce(const SystemCpu& s, AsceId& id) {
  if ((s.mask() & psw::kAsc) >> psw::kAscShift == 2) return id = AsceId::Primary, s.cr[1];
  return s.asce(id);
}
// The ASCE id a protection exception's TEID names: the instruction fetch's or the operand's.
AsceId teid_asce_id(const SystemCpu& s, bool instruction_fetch) {
  AsceId id;
  instruction_fetch ? instruction_asce(s, id) : s.asce(id);
  return id;
}
}  // namespace

// [Principles of Operation, "Address-Space Control"]: primary-space mode translates
// instructions and data through CR1, secondary-space mode data through CR7 and
// instructions through CR1 (the Cpu's code space), home-space mode both through CR13.
// Access-register mode needs an ASCE per access register: the run stops.
void SystemCpu::select_space() {
  if (!(mask_ & psw::kDat)) return use_real_space();
  const unsigned asc = unsigned((mask_ & psw::kAsc) >> psw::kAscShift);
  if (asc == 1)
    return machine_.halt(address(), fmt::format("PSW {:016X} {:016X} is in access-register mode with DAT on; tpfemu "
                                                "translates primary-, secondary- and home-space mode only "
                                                "(docs/system-mode.md)", psw().mask, psw().addr));
  AsceId id, code_id;
  const uint64_t designation = asce(id), code_designation = instruction_asce(*this, code_id);
  dat_.select(designation, id, code_designation, code_id, dat_controls());
  cpu_.switch_address_spaces(dat_.data_space(), dat_.code_space());
  cpu_.set_page_fault_handler(&dat_);
}

// An interruption's references to the lowcore are made with key 0 [Principles of
// Operation, "Key-Controlled Protection": the stores of an interruption's old PSW and
// codes are not subject to it]; the micro-TLB entries they leave are dropped unless the
// PSW key is 0, so that the program's own references are checked with its key.
template <class T> void SystemCpu::store(uint64_t real, T v) {
  use_real_space();
  real_.map(real);
  interruption_access_ = true;
  cpu_.write<T>(real, v);
  interruption_access_ = false;
  if (key()) cpu_.flush_micro_tlb();
}
template <class T> T SystemCpu::fetch(uint64_t real) {
  use_real_space();
  real_.map(real);
  interruption_access_ = true;
  const T v = cpu_.read<T>(real);
  interruption_access_ = false;
  if (key()) cpu_.flush_micro_tlb();
  return v;
}

namespace {
// The translation-exception identification of a protection exception with the
// enhanced-suppression-on-protection facility 2 [Principles of Operation, "Suppression
// on Protection"]: bits 0-51 the page's address, 52-53 the fetch (10) or store (01)
// indication, bits 56, 60, 61 the kind (001 DAT protection, 010 key-controlled
// protection, 101 instruction-execution protection), 62-63 the ASCE's id when DAT is on.
constexpr uint64_t kTeidFetch = 0x800, kTeidStore = 0x400;
constexpr uint64_t kTeidKeyProtection = 1ull << (63 - 60), kTeidDatProtection = 1ull << (63 - 61);
constexpr uint64_t kTeidExecuteProtection = 1ull << (63 - 56) | 1ull << (63 - 61);
}  // namespace

void SystemCpu::low_address_protection_exception(uint64_t addr) {
  AsceId id = AsceId::Primary;
  if (mask_ & psw::kDat) asce(id);
  key_teid_ = page_down(addr) | kTeidStore | (mask_ & psw::kDat ? uint64_t(id) : 0);
  key_teid_pending_ = true;
  program_check(Pic::Protection, addr);
}

bool SystemCpu::check_key(uint64_t addr, bool store, uint64_t number) {
  // Low-address protection first (it does not depend on the key). Pages 0 and 1 keep no
  // store right in the TLB entry while it is on, so that every store to them is checked
  // here, and the first 512 bytes of each refused.
  bool store_cacheable = true;
  fetch_override_used_ = false;
  if (!interruption_access_ && (cr[0] & kCr0LowAddressProtection) && addr < 2 * kPageSize) {
    if (store && low_address_protected(addr)) low_address_protection_exception(addr);
    store_cacheable = false;
  }
  const uint8_t access_key = interruption_access_ ? 0 : key();
  if (access_key == 0) return store_cacheable;
  const uint8_t block = cpu_.space().storage().access_key(number);
  const bool override = cr[0] & kCr0StorageProtectionOverride;
  const bool store_ok = storage_key::store_permitted(access_key, block, override);
  if (store ? store_ok : storage_key::fetch_permitted(access_key, block, override)) return store_ok && store_cacheable;
  if (!store && fetch_protection_overridden(addr)) {
    fetch_override_used_ = true;
    return false;  // (a store there is not permitted: store_ok is false)
  }
  // (An instruction fetch's in secondary-space mode names the primary space.)
  const AsceId id = mask_ & psw::kDat ? teid_asce_id(*this, cpu_.fault_was_instruction_fetch()) : AsceId::Primary;
  key_teid_ = page_down(addr) | (store ? kTeidStore : kTeidFetch) | kTeidKeyProtection |
              (mask_ & psw::kDat ? uint64_t(id) : 0);
  key_teid_pending_ = true;
  program_check(Pic::Protection, addr);
}

bool SystemCpu::fetch_protection_overridden(uint64_t addr) const {
  if (!(cr[0] & kCr0FetchProtectionOverride) || addr >= 2048) return false;
  if (!(mask_ & psw::kDat)) return true;
  AsceId id;
  return !(asce(id) & kAscePrivateSpace);
}

bool SystemCpu::take_protection_teid(uint64_t addr, bool store, uint64_t& teid) {
  if (key_teid_pending_) {
    key_teid_pending_ = false;
    teid = key_teid_;
    return true;
  }
  if (!(mask_ & psw::kDat)) return false;  // (low-address protection: not modelled)
  // DAT's two: a store to a DAT-protected page, or an instruction fetched from a page
  // its IEP bit protects (the only fetch DAT refuses; through CR1 in secondary-space mode).
  const AsceId id = teid_asce_id(*this, !store);
  teid = page_down(addr) | (store ? kTeidStore | kTeidDatProtection : kTeidFetch | kTeidExecuteProtection) |
         uint64_t(id);
  return true;
}

uint64_t SystemCpu::key_frame_of_absolute(uint64_t absolute) const {
  if (absolute >= real_.size()) program_check(Pic::Addressing, absolute);
  return RealStorage::real_frame(absolute / kPageSize);
}
uint64_t SystemCpu::key_frame_of_real(uint64_t real) const {
  if (real >= real_.size()) program_check(Pic::Addressing, real);
  return key_frame_of_absolute(real_.absolute(real));
}

void SystemCpu::storage_key_changed() {
  for (unsigned k = 0; k < machine_.machine().istreams(); ++k) machine_.cpu(k).cpu().flush_micro_tlb();
}

// The exception-access identification goes with it [Principles of Operation,
// "Exception-Access Identification"]: for the translation exceptions (ASCE-type,
// region-first, -second, -third, segment and page translation) and the protection
// exceptions that store a TEID, real location 160 names the access register used when
// the exception is recognized in the access-register mode (bits 4-7; bits 0-3 zero).
// tpfemu translates in the real, primary-, secondary- and home-space modes only, where no
// access register is used: it stores zero (as Hercules does; what the PoO leaves the
// byte in those modes, a program cannot rely on).
void SystemCpu::store_translation_exception_id(uint64_t teid) {
  store<uint64_t>(lowcore::kTranslationExceptionId, teid);
  store<uint8_t>(lowcore::kExceptionAccessId, 0);
}

void SystemCpu::load_psw(const Psw& p) {
  const uint8_t old_key = key();
  if ((p.mask ^ mask_) & psw::kProblem) machine_.problem_state_changing(address());
  mask_ = p.mask & ~psw::kCcAndProgramMask;
  if (key() != old_key) cpu_.flush_micro_tlb();  // its rights were the old key's
  cpu_.cc = uint8_t(p.mask >> psw::kCcShift & 3);
  cpu_.prog_mask = uint8_t(p.mask >> psw::kProgramMaskShift & 0xF);
  cpu_.psw_addr = p.addr;
  state_ = State::Operating;
  machine_.running_in(problem_state());
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
  select_space();
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

void SystemCpu::external_interruption(uint16_t code, uint32_t parameter, uint16_t from) {
  ++external_interruptions;
  store<uint32_t>(lowcore::kExternalParameter, parameter);
  store<uint16_t>(lowcore::kExternalCpuAddress, from);
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
  if (cr[0] & kCr0ClockComparator) at = first_cycle_past(cpu_.clock_ghz, cpu_.cycles, clock_comparator_ - cpu_.tod_offset);
  if ((cr[0] & kCr0CpuTimer) && !(cpu_timer_set_ >> 63))
    at = std::min(at, first_cycle_past(cpu_.clock_ghz, cpu_.cycles, cpu_timer_since_ + cpu_timer_set_));
  if (at == ~0ull || at == armed_cycle_) return;
  armed_cycle_ = at;
  machine_.machine().events().schedule(at, [this] { timer_event(); });
  // The machine chose this run's end before the event was there: end it after this
  // instruction, so that the next run stops at the event's cycle.
  cpu_.end_slice();
}

void SystemCpu::timer_event() { condition_arrived(); }

void SystemCpu::condition_arrived() {
  if (state_ == State::Stopped) return;
  deliver_pending();
  // Woken from its wait: the machine runs it again from the event's time.
  if (state_ == State::Operating && machine_.machine().state(address()) == IStreamState::Idle)
    machine_.machine().wake(address(), cpu_.cycles);
}

// [Principles of Operation, "I/O Interruption" (chapter 16)]: the subsystem-
// identification word at 0xB8, the subchannel's interruption parameter at 0xBC, and the
// interruption-identification word at 0xC0 (bits 2-4 the subclass), then the I/O old
// and new PSWs.
void SystemCpu::io_interruption(unsigned subchannel) {
  ++io_interruptions;
  store_io_interruption_code(subchannel);
  interrupt(lowcore::kIoOldPsw, lowcore::kIoNewPsw);
}

void SystemCpu::store_io_interruption_code(unsigned subchannel) {
  const Subchannel& s = machine_.css().subchannel(subchannel);
  store<uint32_t>(lowcore::kSubsystemId, ChannelSubsystem390::subsystem_id(subchannel));
  store<uint32_t>(lowcore::kIoInterruptionParameter, s.interruption_parameter);
  store<uint32_t>(lowcore::kIoInterruptionId, uint32_t(s.isc & 7) << 27);
  select_space();  // (the stores reached the lowcore through the real view)
}

SystemCpu::ChannelAccess SystemCpu::channel_move(uint64_t absolute, uint8_t* bytes, uint32_t n, bool store,
                                                  uint8_t orb_key) {
  if (absolute + n > real_.size() || absolute + n < absolute) return ChannelAccess::Addressing;
  Storage& st = cpu_.space().storage();
  for (uint64_t page = page_down(absolute); page < absolute + n; page += kPageSize) {
    const uint8_t block = st.access_key(RealStorage::real_frame(page / kPageSize));
    if (!(store ? storage_key::store_permitted(orb_key, block, false)
                : storage_key::fetch_permitted(orb_key, block, false)))
      return ChannelAccess::Protection;
  }
  use_real_space();
  interruption_access_ = true;
  uint64_t mapped = ~0ull;
  for (uint32_t k = 0; k < n; ++k) {
    // Real and absolute addresses swap only the low 8 KB and the prefix area: the same
    // swap takes absolute to real.
    const uint64_t real = real_.absolute(absolute + k);
    if (page_down(real) != mapped) mapped = page_down(real), real_.map(real);
    if (store) cpu_.write<uint8_t>(real, bytes[k]);
    else bytes[k] = cpu_.read<uint8_t>(real);
  }
  interruption_access_ = false;
  if (key()) cpu_.flush_micro_tlb();
  select_space();
  return ChannelAccess::Ok;
}

void SystemCpu::interrupt(uint64_t old_at, uint64_t new_at) {
  const Psw old = psw();
  store<uint64_t>(old_at, old.mask);
  store<uint64_t>(old_at + 8, old.addr);
  Psw next{fetch<uint64_t>(new_at), fetch<uint64_t>(new_at + 8)};
  // A new PSW enabled for a condition still pending takes the interruption again before
  // any instruction: a loop the machine would spin in for ever (and the host's stack
  // with it). A few in a row are legitimate (several conditions pending); more is that loop.
  if (++nested_interruptions_ > kMaxNestedInterruptions) {
    nested_interruptions_ = 0;
    return machine_.halt(address(), fmt::format("interruption after interruption, no instruction between: the new "
                                                "PSW {:016X} {:016X} at {:#x} is enabled for a condition still "
                                                "pending (an interruption loop)", next.mask, next.addr, new_at));
  }
  load_psw(next);
  nested_interruptions_ = 0;
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

// The pending interruptions the PSW enables, at an instruction boundary [Principles of
// Operation, chapter 6, "Priority of Interruptions"]: supervisor call and program
// (taken where the instruction ends: SystemMachine), machine check (none are generated),
// external, I/O, restart. One is taken here; its new PSW is loaded by load_psw, which
// calls this again, so the next is taken at once only if that new PSW enables it, and
// the handlers run in the reverse of the order their new PSWs were fetched, as the PoO
// gives. A condition that arrives (a timer's cycle, an I/O completion, a SIGP order) is
// taken when it arrives if enabled, so none enabled is left pending at a boundary: the
// restart interruption, last in priority, is taken when it is signalled (on a stopped
// I-stream before any other, as QEMU does). Among external conditions [Principles of
// Operation, "External Interruption"]: emergency signal, external call, clock
// comparator, CPU timer, service signal; among I/O interruptions, the lowest
// interruption subclass first (ChannelSubsystem390::take_interruption).
// (tests/system/priority.c checks the order, the same under QEMU.)
void SystemCpu::deliver_pending() {
  if (state_ == State::Stopped) return;
  if (mask_ & psw::kExternal) {
    if (cr[0] & kCr0EmergencySignal)
      for (unsigned from = 0; from < emergency_from_.size(); ++from)
        if (emergency_from_[from]) {
          emergency_from_[from] = false;
          return external_interruption(kEmergencySignal, 0, uint16_t(from));
        }
    if (external_call_pending_ && (cr[0] & kCr0ExternalCall)) {
      external_call_pending_ = false;
      return external_interruption(kExternalCall, 0, external_call_from_);
    }
    if ((cr[0] & kCr0ClockComparator) && cpu_.tod_clock() > clock_comparator_)
      return external_interruption(kClockComparator, 0);
    if ((cr[0] & kCr0CpuTimer) && (cpu_timer() >> 63)) return external_interruption(kCpuTimer, 0);
    // The service signal floats: the configuration's, the first enabled I-stream's.
    if (uint32_t parameter; (cr[0] & kCr0ServiceSignal) && machine_.take_service_signal(parameter))
      return external_interruption(kServiceSignal, parameter);
  }
  // I/O after external [Principles of Operation, "Priority of Interruptions"]; CR6's
  // subclass masks choose among the pending ones.
  if (mask_ & psw::kIo)
    if (unsigned n; machine_.css().take_interruption(cr[6], n)) return io_interruption(n);
  arm_timers();
}

}  // namespace emu

namespace emu {

// The machine's scheduler state as this I-stream's: running, waiting (idle: an
// interruption wakes it) or stopped. An I-stream that starts runs from `now`.
void SystemCpu::sync_machine_state(uint64_t now) {
  Machine& m = machine_.machine();
  const unsigned i = address();
  if (state_ == State::Operating) {
    if (m.state(i) != IStreamState::Running) cpu_.idle_until(now), m.set_state(i, IStreamState::Running);
  } else {
    m.set_state(i, state_ == State::Waiting ? IStreamState::Idle : IStreamState::Stopped);
  }
}

void SystemCpu::start(uint64_t now) {
  if (state_ != State::Stopped) return;
  cpu_.idle_until(now);
  load_psw(psw());  // operating with its current PSW (a wait PSW: waiting)
  sync_machine_state(now);
}

void SystemCpu::stop() {
  state_ = State::Stopped;
  cpu_.request_stop();
  machine_.machine().set_state(address(), IStreamState::Stopped);
}

namespace {
// SIGNAL PROCESSOR's status bits and orders [Principles of Operation, "Signal-Processor
// Orders" and "Status Bits"].
constexpr uint32_t kStatusIncorrectState = 0x200, kStatusInvalidParameter = 0x100;
constexpr uint32_t kStatusExternalCallPending = 0x80, kStatusStopped = 0x40, kStatusNotRunning = 0x400;
constexpr uint32_t kStatusInvalidOrder = 0x2;
enum Order : unsigned {
  kSense = 0x01, kExternalCallOrder = 0x02, kEmergencySignalOrder = 0x03, kStart = 0x04, kStop = 0x05,
  kRestart = 0x06, kStopAndStoreStatus = 0x09, kInitialCpuReset = 0x0B, kCpuReset = 0x0C, kSetPrefix = 0x0D,
  kStoreStatusAtAddress = 0x0E, kSetArchitecture = 0x12, kConditionalEmergencySignal = 0x13,
  kSenseRunningStatus = 0x15, kStoreAdditionalStatus = 0x17,
};
unsigned status_stored(uint32_t& status, uint32_t bits) {
  status = bits;
  return 1;
}
void put_be(uint8_t* at, uint64_t v, unsigned bytes) {
  for (unsigned k = 0; k < bytes; ++k) at[k] = uint8_t(v >> 8 * (bytes - 1 - k));
}
}  // namespace

void SystemCpu::restart(uint64_t now) {
  if (state_ == State::Stopped) cpu_.idle_until(now), state_ = State::Operating;
  restart_interruption();
  sync_machine_state(now);
}

void SystemCpu::offer_floating(uint64_t now) {
  if (state_ == State::Stopped) return;
  deliver_pending();
  sync_machine_state(now);
}

void SystemCpu::make_emergency_signal_pending(unsigned from) {
  if (emergency_from_.size() <= from) emergency_from_.resize(from + 1);
  emergency_from_[from] = true;
}

// The save area's 512 bytes, from this I-stream's registers, stored as the CPU stores
// them: absolute addresses, key 0, charged as this I-stream's references.
bool SystemCpu::store_status(uint64_t absolute, bool mode_id) {
  namespace at = lowcore::status;
  uint8_t area[at::kBytes] = {};
  for (unsigned r = 0; r < 16; ++r) {
    put_be(area + at::kFloatingPointRegisters + 8 * r, cpu_.fpr(r), 8);
    put_be(area + at::kGeneralRegisters + 8 * r, cpu_.gr[r], 8);
    put_be(area + at::kAccessRegisters + 4 * r, cpu_.ar[r], 4);
    put_be(area + at::kControlRegisters + 8 * r, cr[r], 8);
  }
  const Psw p = psw();
  put_be(area + at::kPsw, p.mask, 8), put_be(area + at::kPsw + 8, p.addr, 8);
  put_be(area + at::kPrefix, prefix(), 4);
  put_be(area + at::kFpc, cpu_.fpc, 4);
  // (the TOD programmable register is not modelled: SET CLOCK PROGRAMMABLE FIELD is not
  // in the table, so it is zero, as after reset)
  put_be(area + at::kCpuTimer, cpu_timer(), 8);
  put_be(area + at::kClockComparator, clock_comparator_ >> 8, 8);  // bits 0-55 at 0x131
  if (channel_move(absolute, area, sizeof area, true, 0) != ChannelAccess::Ok) return false;
  uint8_t z_architecture = 1;
  if (mode_id) channel_move(lowcore::kArchitecturalModeId, &z_architecture, 1, true, 0);
  return true;
}

// Stop and store status: the stop function, then the status stored at absolute 4608
// (and an I-stream already stopped just stores it) [Principles of Operation, "Stop and
// Store Status"].
unsigned SystemCpu::stop_and_store_status(uint32_t&) {
  if (state_ != State::Stopped) stop();
  store_status(lowcore::kStoreStatusArea, true);
  return 0;
}

// Store status at address: the I-stream must be stopped (incorrect state); the
// parameter's bits 33-54 give a 512-byte-aligned absolute address, which must be in
// storage (invalid parameter) [Principles of Operation, "Store Status at Address"].
unsigned SystemCpu::store_status_at_address(uint64_t parameter, uint32_t& status) {
  if (state_ != State::Stopped) return status_stored(status, kStatusIncorrectState);
  const uint64_t address = parameter & 0x7FFFFE00u;
  if (!store_status(address, false)) return status_stored(status, kStatusInvalidParameter);
  return 0;
}

// Store additional status at address: the vector registers (bytes 0-511 of the area;
// the guarded-storage registers, bytes 1024-1055, need the guarded-storage facility,
// which the machine does not have). Bits 60-63 of the parameter are the length
// characteristic: 0 (1 KB; the only one without guarded storage), the area aligned on
// its length [Principles of Operation, "Store Additional Status at Address"]. An order
// the machine does not have without the vector facility.
unsigned SystemCpu::store_additional_status(uint64_t parameter, uint32_t& status) {
  if (!facility_installed(Facility::Vector, cpu_.arch())) return status_stored(status, kStatusInvalidOrder);
  if (state_ != State::Stopped) return status_stored(status, kStatusIncorrectState);
  const unsigned length_characteristic = unsigned(parameter & 0xF);
  const uint64_t address = parameter & ~uint64_t(0xF);
  constexpr uint64_t kLength = 1024;  // length characteristic 0
  if (length_characteristic != 0 || (address & (kLength - 1))) return status_stored(status, kStatusInvalidParameter);
  uint8_t vectors[32 * 16];
  for (unsigned r = 0; r < 32; ++r) put_be(vectors + 16 * r, cpu_.vr[r].hi, 8), put_be(vectors + 16 * r + 8, cpu_.vr[r].lo, 8);
  if (address + kLength > real_.size() || channel_move(address, vectors, sizeof vectors, true, 0) != ChannelAccess::Ok)
    return status_stored(status, kStatusInvalidParameter);
  return 0;
}

// Conditional emergency signal: the emergency signal, unless the addressed I-stream is
// stopped, enabled for I/O and external interruptions, and either waiting at
// instruction address 0 or not waiting with an ASN other than the parameter's (bits
// 48-63) as its primary (CR4) and secondary (CR3) ASN; then incorrect state
// [Principles of Operation, "Conditional Emergency Signal"].
unsigned SystemCpu::conditional_emergency_signal(uint64_t parameter, SystemCpu& from, uint32_t& status) {
  const bool enabled = (mask_ & psw::kIo) && (mask_ & psw::kExternal);
  const bool waiting = mask_ & psw::kWait;
  const uint16_t asn = uint16_t(parameter);
  const bool generate = state_ != State::Stopped || !enabled || (waiting && cpu_.psw_addr != 0) ||
                        (!waiting && (asn == uint16_t(cr[4]) || asn == uint16_t(cr[3])));
  if (!generate) return status_stored(status, kStatusIncorrectState);
  make_emergency_signal_pending(from.address());
  return 0;
}

unsigned SystemCpu::signal(unsigned order, uint64_t parameter, SystemCpu& from, uint32_t& status) {
  const uint64_t now = from.cpu().cycles;
  switch (order) {
    case kSense:
      if (state_ != State::Stopped) return 0;
      status = kStatusStopped;
      return 1;
    case kExternalCallOrder:
      if (external_call_pending_) {
        status = kStatusExternalCallPending;
        return 1;
      }
      external_call_pending_ = true, external_call_from_ = uint16_t(from.address());
      break;
    case kEmergencySignalOrder: make_emergency_signal_pending(from.address()); break;
    case kConditionalEmergencySignal:
      if (conditional_emergency_signal(parameter, from, status)) return 1;
      break;
    case kStart: start(now); return 0;
    case kStop: stop(); return 0;
    case kRestart: restart(now); return 0;
    case kStopAndStoreStatus: return stop_and_store_status(status);
    case kStoreStatusAtAddress: return store_status_at_address(parameter, status);
    case kStoreAdditionalStatus: return store_additional_status(parameter, status);
    case kInitialCpuReset:
    case kCpuReset:
      if (order == kInitialCpuReset) initial_reset();
      else reset();
      cpu_.request_stop();
      machine_.machine().set_state(address(), IStreamState::Stopped);
      return 0;
    case kSetPrefix: {
      if (state_ != State::Stopped) {
        status = kStatusIncorrectState;
        return 1;
      }
      const uint32_t prefix = uint32_t(parameter) & 0x7FFFE000u;
      if (prefix + 8192ull > real_.size()) {
        status = kStatusInvalidParameter;
        return 1;
      }
      set_prefix(prefix);
      return 0;
    }
    case kSetArchitecture:  // the machine is z/Architecture only: nothing to switch to
      status = kStatusInvalidParameter;
      return 1;
    case kSenseRunningStatus:
      if (state_ == State::Operating) return 0;
      status = kStatusNotRunning;
      return 1;
    default:
      status = kStatusInvalidOrder;
      return 1;
  }
  // A signal made pending: taken now if this I-stream is enabled (woken from its wait);
  // a signal to itself after SIGP completes (its CC set), by SIGP's handler.
  if (state_ != State::Stopped && &from != this) {
    deliver_pending();
    sync_machine_state(now);
  }
  return 0;
}

}  // namespace emu
