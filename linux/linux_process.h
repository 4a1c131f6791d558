// A Linux process and its threads as `tpfemu exec`'s kernel (linux/linux_kernel.h) keeps
// them: the process's address space, memory map, descriptor table and signal actions,
// its place in the process tree (parent, group, session) and, once it has ended, the
// status its parent's wait collects.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emu/address_space.h"
#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "linux/linux_files.h"
#include "linux/linux_memory.h"

namespace linux_user {

// What a signal carries to its handler (the siginfo the kernel writes).
struct SignalInfo {
  int signo = 0;
  int code = 0;
  uint64_t addr = 0;      // si_addr, for faults
  bool fault = false;     // si_addr is meaningful (else si_pid/si_uid)
  uint32_t pid = 0, uid = 0;
  // SIGCHLD: the child's status and how it ended (si_status, CLD_EXITED/KILLED in code);
  // a timer's signal: its id and overrun count (si_timerid, si_overrun) and value.
  bool child = false, timer = false;
  int32_t status = 0, timer_id = 0, overrun = 0;
  uint64_t value = 0;
};

// How Linux reports a program interruption: the signal, its si_code and si_addr, and
// where the PSW points in the signal frame (at the instruction for the exceptions it
// nullifies or rewinds, after it otherwise).
struct ProgramCheckSignal {
  SignalInfo info;
  uint64_t resume = 0;
};
ProgramCheckSignal linux_signal_for(const emu::ProgramCheckInfo& check, bool page_mapped);
// The siginfo of `info` (128 bytes) as the kernel writes it to user storage.
void write_siginfo(uint8_t* siginfo, const SignalInfo& info);

// A thread's registers while it is off its I-stream.
struct ThreadContext {
  uint64_t gr[16] = {};
  emu::VectorRegister vr[32] = {};  // the floating-point registers are their left halves
  uint32_t ar[16] = {};
  uint32_t fpc = 0;
  uint64_t psw_addr = 0;
  uint8_t cc = 0, prog_mask = 0;
};

struct LinuxProcess;

// Why a thread is not runnable: a futex, or a system call that waits for something
// (a pipe, a child, a signal, a timeout) and is issued again when woken, as Linux
// restarts a call that returned -ERESTARTSYS.
// Result: the call's result is set already (vfork's parent), and it only waits.
enum class WaitKind : uint8_t { None, Futex, Call, Result };

struct LinuxThread {
  int tid = 0;
  LinuxProcess* proc = nullptr;
  emu::Cpu* cpu = nullptr;  // the I-stream it runs on (nullptr: none now)
  unsigned last_istream = 0;
  ThreadContext saved;      // valid while cpu is nullptr
  bool exited = false;
  WaitKind waiting = WaitKind::None;
  uint64_t futex_addr = 0;
  uint32_t futex_bitset = 0;
  uint64_t wait_serial = 0;  // orders waiters (FIFO wake) and names one wait for its timeout
  // A waiting call: what wakes it (pipes, children, signals), its deadline (an I-stream
  // clock; ~0: none), whether that passed, and the bytes a blocking write has already
  // moved (a call issued again goes on from there).
  std::vector<const void*> wait_keys;
  uint64_t call_deadline = ~0ull;
  bool call_resumed = false, timed_out = false, restartable = true;
  uint64_t call_progress = 0;
  // A sleep's or vfork's wait (WaitKind::Result): whether a signal ends it, and where a
  // sleep writes the time left.
  bool interruptible = false;
  uint64_t sleep_until = 0, sleep_rem = 0;
  uint64_t sigwait_set = 0;  // rt_sigtimedwait: signals that end the wait though blocked
  uint64_t loaded_at = 0;    // the clock when it last went onto its I-stream (CPU time)
  uint64_t blocked = 0;  // signal mask: bit n-1 for signal n
  uint64_t pending = 0;
  std::array<SignalInfo, 64> pending_info{};
  // rt_sigsuspend: the mask the call replaced, restored when the handler returns.
  bool restore_mask = false;
  uint64_t saved_mask = 0;
  uint64_t altstack_sp = 0, altstack_size = 0;
  int altstack_flags = 2;  // SS_DISABLE
  uint64_t clear_child_tid = 0;
  char name[16] = {};  // prctl(PR_SET_NAME)
};

struct SigAction {
  uint64_t handler = 0, flags = 0, restorer = 0, mask = 0;
};

struct LinuxProcess {
  LinuxProcess(int pid, std::shared_ptr<emu::AddressSpace> space, std::shared_ptr<const emu::ElfImage> image,
               std::shared_ptr<LinuxMemory> memory, std::unique_ptr<LinuxFiles> files)
      : pid(pid), space(std::move(space)), image(std::move(image)), memory(std::move(memory)),
        files(std::move(files)) {}

  int pid, ppid = 1, pgid = 0, sid = 0;
  // Shared by the processes of one CLONE_VM (a vfork child until it calls execve).
  std::shared_ptr<emu::AddressSpace> space;
  std::shared_ptr<const emu::ElfImage> image;
  std::shared_ptr<LinuxMemory> memory;
  std::unique_ptr<LinuxFiles> files;
  std::array<SigAction, 65> actions{};
  std::vector<std::string> argv;
  std::string exe_path;  // what readlink("/proc/self/exe") answers
  uint64_t hwcap = 0;    // AT_HWCAP: what the kernel knows of the machine (build_stack)
  // Ended: every thread has exited; `status` is what wait4 reports (exit code << 8, or
  // the signal); a zombie until its parent collects it.
  bool ended = false;
  int vfork_parent = 0;  // the thread of a CLONE_VFORK parent, waiting until this one execs or ends
  int status = 0;
  int main_exit_code = 0;  // the first thread's exit (every-I-stream mode)
  uint64_t cpu_cycles = 0;  // the clock its threads spent on I-streams (rusage, times)
  uint64_t children_cycles = 0;
  uint64_t umask = 022;
  // ITIMER_REAL (alarm, setitimer): the serial of the armed expiry (0: none), when it
  // fires (an I-stream clock) and its interval in cycles.
  uint64_t alarm_serial = 0, alarm_at = 0, alarm_interval = 0;

  // Host-side copies to and from the process's storage, checked as the kernel checks them.
  bool copy_in(uint64_t addr, void* dst, uint64_t len) {
    return memory->accessible(addr, len, emu::kProtRead) && space->read_bytes(addr, dst, len);
  }
  bool copy_out(uint64_t addr, const void* src, uint64_t len) {
    return memory->accessible(addr, len, emu::kProtRead | emu::kProtWrite) && space->write_bytes(addr, src, len);
  }
  bool read_string(uint64_t addr, std::string& out, uint64_t max = 4096);
};

}  // namespace linux_user
