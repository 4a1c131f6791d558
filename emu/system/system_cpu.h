// One I-stream in system mode (tpfemu ipl): the PSW bits a host control program keeps
// to itself (masks, key, wait, problem state, address-space control, addressing mode),
// the control registers, the prefix, and the interruptions [Principles of Operation,
// chapter 4 "Control" and chapter 6 "Interruptions"], taken through the I-stream's
// lowcore (its 8 KB prefix area): the old PSW and the interruption's codes stored, the
// new PSW loaded.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emu/cpu.h"
#include "emu/system/dat.h"
#include "emu/system/psw.h"
#include "emu/system/real_storage.h"

namespace emu {

class SystemMachine;

// Lowcore locations [Principles of Operation, "Assigned Storage Locations"], real addresses.
namespace lowcore {
constexpr uint64_t kIplPsw = 0x000;
constexpr uint64_t kExternalParameter = 0x080;
constexpr uint64_t kExternalCpuAddress = 0x084;
constexpr uint64_t kExternalCode = 0x086;
constexpr uint64_t kArchitecturalModeId = 0x0A3;  // SIGP stop and store status: 1, z/Architecture
constexpr uint64_t kSvcIlc = 0x089;
constexpr uint64_t kSvcCode = 0x08A;
constexpr uint64_t kProgramIlc = 0x08D;
constexpr uint64_t kProgramCode = 0x08E;
constexpr uint64_t kDataExceptionCode = 0x090;
constexpr uint64_t kExceptionAccessId = 0x0A0;
constexpr uint64_t kTranslationExceptionId = 0x0A8;
constexpr uint64_t kSubsystemId = 0x0B8;            // I/O interruption: the subsystem-identification word
constexpr uint64_t kIoInterruptionParameter = 0x0BC;
constexpr uint64_t kIoInterruptionId = 0x0C0;       // the interruption-identification word
constexpr uint64_t kFacilityList = 0x0C8;  // STORE FACILITY LIST's word
constexpr uint64_t kRestartOldPsw = 0x120;
constexpr uint64_t kExternalOldPsw = 0x130;
constexpr uint64_t kSvcOldPsw = 0x140;
constexpr uint64_t kProgramOldPsw = 0x150;
constexpr uint64_t kIoOldPsw = 0x170;
constexpr uint64_t kRestartNewPsw = 0x1A0;
constexpr uint64_t kExternalNewPsw = 0x1B0;
constexpr uint64_t kSvcNewPsw = 0x1C0;
constexpr uint64_t kProgramNewPsw = 0x1D0;
constexpr uint64_t kIoNewPsw = 0x1F0;
// The store-status save area [Principles of Operation, "Store Status" in chapter 4]:
// absolute 4608-5119 for SIGP stop and store status; SIGP store status at address
// stores the same 512 bytes, at the same offsets, from its parameter's address on.
constexpr uint64_t kStoreStatusArea = 0x1200;
namespace status {
constexpr uint64_t kFloatingPointRegisters = 0x000, kGeneralRegisters = 0x080, kPsw = 0x100, kPrefix = 0x118;
constexpr uint64_t kFpc = 0x11C, kTodProgrammableRegister = 0x124, kCpuTimer = 0x128, kClockComparator = 0x130;
constexpr uint64_t kAccessRegisters = 0x140, kControlRegisters = 0x180, kBytes = 0x200;
}  // namespace status
}  // namespace lowcore

// External-interruption codes [Principles of Operation, "External Interruption"].
constexpr uint16_t kServiceSignal = 0x2401, kClockComparator = 0x1004, kCpuTimer = 0x1005;
constexpr uint16_t kEmergencySignal = 0x1201, kExternalCall = 0x1202;
// Control register 0's emergency-signal and external-call subclass masks (bits 49, 50).
constexpr uint64_t kCr0EmergencySignal = 1ull << (63 - 49), kCr0ExternalCall = 1ull << (63 - 50);
// Control register 0's clock-comparator and CPU-timer subclass masks (bits 52, 53).
constexpr uint64_t kCr0ClockComparator = 1ull << (63 - 52), kCr0CpuTimer = 1ull << (63 - 53);
// Control register 0's service-signal subclass mask (bit 54).
constexpr uint64_t kCr0ServiceSignal = 1ull << (63 - 54);
// CR0 bit 36, extraction-authority control: IPK in the problem state.
constexpr uint64_t kCr0ExtractionAuthority = 1ull << (63 - 36);
// CR0 bit 40, the enhanced-DAT enablement control (EDAT-1; EDAT-2 with it).
constexpr uint64_t kCr0EnhancedDat = 1ull << (63 - 40);
// CR0 bit 43, instruction-execution-protection control: the IEP bit of DAT's leaf table
// entries applies [Principles of Operation, "Instruction-Execution Protection"].
constexpr uint64_t kCr0InstructionExecutionProtection = 1ull << (63 - 43);
// CR0 bit 39, storage-protection-override control.
constexpr uint64_t kCr0StorageProtectionOverride = 1ull << (63 - 39);
// CR0 bit 38, fetch-protection-override control [Principles of Operation,
// "Fetch-Protection Override"].
constexpr uint64_t kCr0FetchProtectionOverride = 1ull << (63 - 38);
// The private-space control of an ASCE (bit 55): fetch-protection override does not
// apply to its space.
constexpr uint64_t kAscePrivateSpace = 1ull << (63 - 55);
// CR0 bit 33, SSM-suppression control.
constexpr uint64_t kCr0SsmSuppression = 1ull << (63 - 33);
// CR0 bit 35, low-address-protection control.
constexpr uint64_t kCr0LowAddressProtection = 1ull << (63 - 35);
// CR0 bit 45, AFP-register control: a data exception's DXC also goes to the FPC.
constexpr uint64_t kCr0AfpRegister = 1ull << (63 - 45);

class SystemCpu {
 public:
  enum class State : uint8_t { Operating, Waiting, Stopped };

  SystemCpu(SystemMachine& machine, Cpu& cpu, RealStorage& real);
  Cpu& cpu() { return cpu_; }
  RealStorage& real() { return real_; }
  SystemMachine& machine() { return machine_; }
  unsigned address() const { return cpu_.istream(); }  // the CPU address STAP and SIGP use
  State state() const { return state_; }

  // The PSW; the Cpu holds the instruction address, CC and program mask.
  Psw psw() const;
  uint64_t mask() const { return mask_; }  // bits 0-63 without CC and program mask
  bool problem_state() const { return mask_ & psw::kProblem; }
  uint8_t key() const { return uint8_t((mask_ & psw::kKey) >> psw::kKeyShift); }
  // SPKA: the PSW key; the micro-TLB's rights were granted under the old one.
  void set_key(uint8_t key) {
    const uint8_t old = this->key();
    mask_ = (mask_ & ~psw::kKey) | uint64_t(key & 0xF) << psw::kKeyShift;
    if (key != old) cpu_.flush_micro_tlb();
  }

  // Key-controlled and fetch protection [Principles of Operation, "Key-Controlled
  // Protection"] of an access at logical address `addr` to Storage frame `number`, with
  // the PSW key (key 0 while an interruption stores its old PSW and codes: those stores
  // are not subject to protection). A protection exception when the access is not
  // permitted, with its translation-exception identification kept for the interruption;
  // else whether a store would be permitted.
  bool check_key(uint64_t addr, bool store, uint64_t number);
  // Whether the last check_key permitted a fetch by the fetch-protection override only:
  // the right holds for effective addresses 0-2047, not for the rest of the page, so
  // the micro-TLB must not keep it (Cpu::fill_tlb).
  bool fetch_override_used() const { return fetch_override_used_; }
  // Fetch-protection override [Principles of Operation, "Fetch-Protection Override"]:
  // with CR0 bit 38 on, fetch protection does not apply to effective addresses 0-2047
  // (the logical address, before DAT and prefixing), with DAT off, and with DAT on
  // unless the ASCE used is a private space's (its bit 55). Not to the channel
  // subsystem's references (the ORB's key is checked without it).
  bool fetch_protection_overridden(uint64_t addr) const;
  // The translation-exception identification of the protection exception being taken
  // (the key's; else DAT protection's for a store to `addr`, instruction-execution
  // protection's for an instruction fetched there), or false when the PoO stores none.
  bool take_protection_teid(uint64_t addr, bool store, uint64_t& teid);
  // The absolute storage key of real address `real` (for ISKE, SSKE, RRBE, PFMF): its
  // Storage frame number; an addressing exception beyond storage.
  uint64_t key_frame_of_real(uint64_t real) const;
  uint64_t key_frame_of_absolute(uint64_t absolute) const;
  // A storage key changed (SSKE, RRBE, PFMF): every I-stream's micro-TLB drops the
  // rights and the reference and change recording it did under the old key.
  void storage_key_changed();
  // PSW bits 0-7 (SSM, STNSM, STOSM); an invalid result is an early specification
  // exception, taken at once.
  void set_system_mask(uint8_t byte);

  // Loads a PSW (LPSW, LPSWE, an interruption's new PSW, IPL): an invalid one is an
  // early exception [Principles of Operation, "Exceptions Associated with the PSW"]; a
  // wait PSW stops the I-stream until an interruption it enables; pending interruptions
  // the new masks open are taken.
  void load_psw(const Psw& p);

  uint64_t cr[16] = {};
  // Low-address protection [Principles of Operation, "Low-Address Protection"]: with
  // CR0 bit 35 on, effective addresses 0-511 and 4096-4607 cannot be stored into by the
  // program (the CPU's own interruption stores can), whatever the key and DAT.
  bool low_address_protected(uint64_t addr) const {
    return (cr[0] & kCr0LowAddressProtection) && (addr & ~uint64_t(0x11FF)) == 0;
  }
  // The protection exception of a store to a low-address-protected location, with its
  // translation-exception identification (the address's page, the store indication;
  // bits 60 and 61 zero: neither key-controlled nor DAT protection).
  [[noreturn]] void low_address_protection_exception(uint64_t addr);
  // A control register changed (LCTL, LCTLG): a subclass mask may have opened, and with
  // DAT on a new ASCE (CR1, CR7, CR13) selects its view (its TLB entries stay, tagged by
  // ASCE: loading a control register purges nothing [Principles of Operation, "Translation-
  // Lookaside Buffer"]).
  void control_changed() {
    select_space();
    deliver_pending();
  }

  // SAC, SACF: PSW bits 16-17; the space follows.
  void set_address_space_control(unsigned asc) {
    mask_ = (mask_ & ~psw::kAsc) | uint64_t(asc & 3) << psw::kAscShift;
    select_space();
  }
  // DAT from the program's tables (emu/system/dat.h): this I-stream's views, by ASCE.
  GuestDat& dat() { return dat_; }
  DatControls dat_controls() const {
    const bool iep_installed = facility_installed(Facility::InstructionExecutionProtection, cpu_.arch());
    return DatControls{bool(cr[0] & kCr0EnhancedDat), bool(cr[0] & kCr0EnhancedDat),
                       iep_installed && (cr[0] & kCr0InstructionExecutionProtection)};
  }
  // The ASCE the PSW's address-space control designates (primary CR1, secondary CR7,
  // home CR13; access-register mode uses the primary here) and its id for the TEID.
  uint64_t asce(AsceId& id) const;
  // Stores the translation-exception identification of the program interruption about
  // to be taken (lowcore 0xA8), and its exception-access identification (0xA0).
  void store_translation_exception_id(uint64_t teid);
  uint32_t prefix() const { return real_.prefix(); }
  void set_prefix(uint32_t prefix);

  // Interruptions. The old PSW is the current one (the Cpu's instruction address as the
  // instruction left it: past it for suppression and completion, at it for nullification).
  // `ilc`: the instruction's length in bytes (0 for an early PSW exception).
  void program_interruption(uint16_t code, unsigned ilc, uint8_t dxc = 0);
  void svc_interruption(uint8_t number, unsigned ilc);
  void restart_interruption();
  // A floating interruption (the service signal, SystemMachine) was made pending at
  // `now`: taken here if this I-stream is enabled for it, woken from its wait then.
  void offer_floating(uint64_t now);
  // The restart interruption from outside the program's SIGP (the diag288 watchdog's
  // inject-nmi): a stopped I-stream becomes operating at `now` first.
  void restart(uint64_t now);
  // SIGNAL PROCESSOR's orders to this I-stream from `from` (emu/isa/system.cpp): the
  // returned value is the CC, `status` what a CC 1 stores [Principles of Operation,
  // "Signal-Processor Orders"].
  unsigned signal(unsigned order, uint64_t parameter, SystemCpu& from, uint32_t& status);
  // Leaves the stopped state: the I-stream runs its current PSW from `now` on.
  void start(uint64_t now);
  void stop();
  void deliver_pending();
  // The 512 bytes of the store-status save area at absolute `absolute` (false: beyond
  // storage), and with `mode_id` the architectural-mode identification at absolute 163
  // [Principles of Operation, "Store Status"].
  bool store_status(uint64_t absolute, bool mode_id);
  // A program check by the first instruction at the program-new PSW's address since it
  // was loaded (the Cpu's count up to date, as after a run; an instruction that could not
  // be decoded is not counted): each interruption would bring it back there, a loop no
  // program ends, nor --max-instructions.
  bool looping_at(uint64_t insn_address) const {
    return insn_address == program_new_addr_ && cpu_.instructions <= program_new_at_ + 1;
  }

  // The clock comparator, and the CPU timer as its value when set and the TOD clock then
  // (it counts down with the TOD clock) [Principles of Operation, "Clock Comparator",
  // "CPU Timer"]. Their external interruptions are conditions, pending while the TOD
  // clock is past the comparator or the timer is negative; the time one becomes true is
  // an event on the machine's queue, so the I-stream takes it at the instruction
  // boundary of that cycle, or is woken from an enabled wait then.
  uint64_t clock_comparator() const { return clock_comparator_; }
  void set_clock_comparator(uint64_t value) { clock_comparator_ = value, deliver_pending(); }
  void set_cpu_timer(uint64_t value) {
    cpu_timer_set_ = value, cpu_timer_since_ = elapsed_tod();
    deliver_pending();
  }
  uint64_t cpu_timer() const { return cpu_timer_set_ - (elapsed_tod() - cpu_timer_since_); }
  // SET CLOCK: the TOD clock reads `value` now (the CPU timer, which counts elapsed time,
  // is not moved) [Principles of Operation, "SET CLOCK"].
  void set_tod_clock(uint64_t value) {
    cpu_.tod_offset = value - Cpu::tod_at(cpu_.clock_ghz, cpu_.cycles);
    deliver_pending();
  }

  // Interruptions taken, by class, for the run's end line.
  uint64_t program_interruptions = 0, svc_interruptions = 0, external_interruptions = 0, restart_interruptions = 0;
  uint64_t io_interruptions = 0;

  // An interruption condition arrived from outside the I-stream (a timer's time, an I/O
  // interruption made pending): taken now if enabled, and a wait it ends is woken.
  void condition_arrived();
  // An I/O interruption's code (subsystem-identification word, interruption parameter,
  // interruption-identification word) at real 0xB8-0xC3: the interruption's, TPI's.
  void store_io_interruption_code(unsigned subchannel);

  // The channel subsystem's references (emu/system/css.h) on this I-stream's behalf:
  // `n` bytes at absolute address `absolute`, under the ORB's `key` [Principles of
  // Operation, "Key-Controlled Protection" applies to channel-program references too;
  // fetch protection with it]. Charged to the cache model as the I-stream's references
  // (their reference and change bits set), made with key 0 after the check.
  enum class ChannelAccess : uint8_t { Ok, Addressing, Protection };
  ChannelAccess channel_move(uint64_t absolute, uint8_t* bytes, uint32_t n, bool store, uint8_t key);

  // Initial CPU reset [Principles of Operation, "CPU Reset" and "Initial Values"]:
  // PSW, prefix and CPU timer zero, CR0 0xE0 and CR14 0xC2000000, the others zero.
  void initial_reset();
  // CPU reset [Principles of Operation, "CPU Reset"]: the I-stream stopped, its pending
  // local interruptions (emergency signals, external call) cleared.
  void reset();

 private:
  void interrupt(uint64_t old_at, uint64_t new_at);
  // The CPU's address space as the PSW selects it: the real view with DAT off, the
  // ASCE's view with DAT on. Interruptions reach the lowcore through the real view.
  void select_space();
  void use_real_space();
  template <class T> void store(uint64_t real, T v);
  template <class T> T fetch(uint64_t real);
  void enter_wait();
  void external_interruption(uint16_t code, uint32_t parameter, uint16_t from = 0);
  void io_interruption(unsigned subchannel);
  void sync_machine_state(uint64_t now);
  // The TOD clock's time from the simulated cycles alone (what SET CLOCK does not move).
  uint64_t elapsed_tod() const { return Cpu::tod_at(cpu_.clock_ghz, cpu_.cycles); }
  // Schedules the event for the first cycle an enabled timer condition holds, if any.
  void arm_timers();
  void timer_event();
  // SIGNAL PROCESSOR's orders that store (stop and store status, store status at
  // address, store additional status) and conditional emergency signal.
  unsigned stop_and_store_status(uint32_t& status);
  unsigned store_status_at_address(uint64_t parameter, uint32_t& status);
  unsigned store_additional_status(uint64_t parameter, uint32_t& status);
  unsigned conditional_emergency_signal(uint64_t parameter, SystemCpu& from, uint32_t& status);
  void make_emergency_signal_pending(unsigned from);

  SystemMachine& machine_;
  Cpu& cpu_;
  bool interruption_access_ = false;  // an interruption's lowcore references: key 0
  bool key_teid_pending_ = false;     // check_key raised a protection exception
  bool fetch_override_used_ = false;  // check_key's fetch permitted by CR0 bit 38 only
  uint64_t key_teid_ = 0;
  RealStorage& real_;
  GuestDat dat_{real_};
  uint64_t mask_ = psw::kAddressingMode;
  State state_ = State::Stopped;
  uint64_t clock_comparator_ = ~0ull;
  uint64_t cpu_timer_set_ = 0, cpu_timer_since_ = 0;
  uint64_t armed_cycle_ = ~0ull;  // the cycle of the timer event scheduled last
  // The program-new PSW's address and the instruction count when it was loaded last: a
  // program interruption there by its first instruction is a loop no program ends.
  uint64_t program_new_addr_ = ~0ull, program_new_at_ = 0;
  bool loading_program_new_ = false;
  static constexpr unsigned kMaxNestedInterruptions = 16;
  unsigned nested_interruptions_ = 0;  // interruptions taken within the one being taken
  // External call (one at a time, its sender's address) and emergency signals (one per
  // sender), pending.
  bool external_call_pending_ = false;
  uint16_t external_call_from_ = 0;
  std::vector<bool> emergency_from_;
};

// The SystemCpu of an I-stream in system mode; a privileged-operation exception when a
// host control program runs it (run, exec: the supervisor is host code there, and its
// programs have no supervisor state of the machine's).
SystemCpu& system_of(Cpu& c);

}  // namespace emu
