// The machine in system mode (tpfemu ipl): the program owns it. Each I-stream gets its
// real storage view and a SystemCpu; SVCs and program checks become interruptions through
// the lowcore instead of host calls; the run ends when every I-stream is in a wait no
// interruption can end (or stopped), on a DIAGNOSE 308 reset, or at an instruction limit.
// Nothing of the control program (os/) is needed.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "emu/system/execution_states.h"
#include "emu/system/css.h"
#include "emu/system/sclp.h"
#include "emu/system/system_cpu.h"
#include "emu/system/vm_description.h"

namespace emu {

struct SystemRunResult {
  enum class End {
    DisabledWait,   // an I-stream loaded a disabled wait PSW (the others stopped or waiting)
    EnabledWait,    // every I-stream waits for an interruption nothing will bring
    Stopped,        // every I-stream is in the stopped state (SIGP stop): the program is done
    Limit,          // --max-instructions
    Halted,         // something tpfemu does not model yet (halt_reason says what)
    HostLimit,      // machine.host_storage_limit
  } end = End::DisabledWait;
  unsigned istream = 0;
  Psw psw;             // the wait PSW (DisabledWait), else I-stream 0's PSW at the end
  std::string reason;  // Halted: what stopped it
};

class SystemMachine final : public Dispatcher, public SvcHandler {
 public:
  // Takes over `machine` (its I-streams are created here). `real_size`: the configured
  // absolute storage (the Machine's storage holds it one frame up: RealStorage).
  SystemMachine(Machine& machine, uint64_t real_size, std::function<void(std::string_view)> console);
  ~SystemMachine() override;

  // Loads an ELF image's segments at their addresses in absolute storage and points
  // I-stream 0's PSW at its entry, in 64-bit mode, disabled, supervisor state, key 0 (as
  // QEMU's -kernel does). `parameters` go to absolute 0x10480, NUL-terminated, where
  // Linux and kvm-unit-tests read their command line. False (with `error`) when it does
  // not fit storage.
  bool ipl_elf(const ElfImage& image, const std::string& parameters, std::string& error);
  // A binary image at absolute 0, its first 8 bytes the IPL PSW (ESA/390 form; it runs
  // in 64-bit mode, as QEMU's -kernel runs a non-ELF image).
  bool ipl_binary(const std::vector<uint8_t>& bytes, const std::string& parameters, std::string& error);

  SystemRunResult run(uint64_t max_instructions);

  Machine& machine() { return machine_; }
  SystemCpu& cpu(unsigned i) { return *cpus_[i]; }
  RealStorage& real(unsigned i) { return *real_[i]; }
  Sclp& sclp() { return sclp_; }
  ChannelSubsystem390& css() { return css_; }
  // Stops the run: something the program did that tpfemu does not model (DAT on, a
  // 31-bit PSW, an interruption loop). The run ends after this instruction.
  void halt(unsigned istream, std::string reason);
  // DIAGNOSE X'308' subcodes 0 and 1 (load clear, load normal): every I-stream reset,
  // then `istream` IPLs again from what is in storage: the IPL PSW at absolute 0 (as
  // QEMU IPLs a -kernel image again; storage is kept, it holds the image).
  void reipl(unsigned istream);
  // An I-stream entered a disabled wait: if no other I-stream can run or be woken, the
  // run ends now (timer events still queued would only move idle clocks on).
  void disabled_wait(unsigned istream);

  // The ETIM report's state column (emu/system/execution_states.h). An I-stream's
  // problem-state bit is about to change: the executions counted since the last change
  // get the states the I-streams ran in meanwhile. And an I-stream runs (on) in `problem`.
  void problem_state_changing(unsigned istream);
  void running_in(bool problem) {
    interval_states_ |= problem ? ExecutionStates::kProblem : ExecutionStates::kSupervisor;
  }
  // After the run: the states each executed address (I-stream 0's real addresses, as the
  // profile's) ran in.
  const ExecutionStates& execution_states();
  // The service signal is a floating interruption [Principles of Operation, "Service
  // Signal" and "Interruption Action"]: pending for the configuration, not for the
  // I-stream that issued the SERVICE CALL, and taken once, by an I-stream enabled for
  // it (the external mask and CR0 bit 54). The rule that picks one is fixed: when it
  // becomes pending (offer_service_signal, after the SERVICE CALL completes) the enabled
  // I-stream with the lowest CPU address takes it, waking from its wait if it waits;
  // when none is enabled, the first to enable itself later takes it.
  void make_service_signal_pending(uint32_t parameter) { service_signal_pending_ = true, service_signal_parameter_ = parameter; }
  void offer_service_signal(uint64_t now);
  bool take_service_signal(uint32_t& parameter);

  // The diag288 watchdog timer (DIAGNOSE X'288', QEMU's `-device diag288`): what its
  // expiry does [QEMU's --watchdog-action]; None: the device is not there.
  enum class WatchdogAction : uint8_t { Absent, None, InjectNmi, Reset };
  void set_watchdog(WatchdogAction action) { watchdog_action_ = action; }
  // DIAGNOSE X'288' function `function` (0 init, 1 change, 2 cancel) with `seconds` and
  // the action code (0, restart) at `now`: false for what is a specification exception.
  bool diagnose_288(uint64_t function, uint64_t seconds, uint64_t action, uint64_t now);

  // What STSI's level 3 says of the virtual machine (emu/system/vm_description.h).
  void set_vm_description(VirtualMachineDescription d) { vm_description_ = std::move(d); }
  const VirtualMachineDescription& vm_description() const { return vm_description_; }

  // Dispatcher: an I-stream runs while its SystemCpu is operating.
  bool dispatch(unsigned istream, Why why) override;
  bool program_check(unsigned istream, const RunResult& r) override;
  // SvcHandler: the SVC interruption.
  void supervisor_call(Cpu& cpu, uint8_t number) override;

 private:
  bool load_parameters(const std::string& parameters, std::string& error);

  Machine& machine_;
  std::vector<std::unique_ptr<RealStorage>> real_;
  std::vector<std::unique_ptr<SystemCpu>> cpus_;
  Sclp sclp_;
  ChannelSubsystem390 css_{*this};
  void watchdog_expired(uint64_t generation, uint64_t now);
  bool service_signal_pending_ = false;
  uint32_t service_signal_parameter_ = 0;
  WatchdogAction watchdog_action_ = WatchdogAction::Absent;
  VirtualMachineDescription vm_description_;
  bool watchdog_armed_ = false;
  uint64_t watchdog_generation_ = 0;  // an expiry event of an older arming does nothing
  bool halted_ = false;
  ExecutionStates execution_states_;
  uint8_t interval_states_ = 0;  // the states I-streams ran in since the last attribution
  unsigned halted_istream_ = 0;
  std::string halt_reason_;
};

}  // namespace emu
