// The Linux personality of `tpfemu exec`: one static s390x Linux program as the
// kernel would start it (linux/linux_image.cpp builds the initial stack), the system
// calls it makes by SVC (linux/linux_syscalls.cpp, one table line per call), its memory
// (linux/linux_memory.h), files (linux/linux_files.h) and signals (linux/linux_signals.cpp),
// so that the same binary runs here and under qemu-s390x-static.
//
// Threads (clone with CLONE_VM|CLONE_THREAD, as pthread_create makes them) run on
// I-streams: the program starts on I-stream 0, a new thread takes an idle I-stream
// (the one it ran on last if that is idle, else the lowest), and when there are more
// threads than I-streams they take turns in 1 ms slices of simulated time. futex
// waits and wakes in simulated time; nothing depends on the host. Alternatively
// (set_every_istream_starts) every I-stream starts the program from its entry point,
// and tpfemu's own calls tell each which it is (os/guest/include/tpfemu.h).
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "emu/machine.h"
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
};

// How Linux reports a program interruption: the signal, its si_code and si_addr, and
// where the PSW points in the signal frame (at the instruction for the exceptions it
// nullifies or rewinds, after it otherwise).
struct ProgramCheckSignal {
  SignalInfo info;
  uint64_t resume = 0;
};
ProgramCheckSignal linux_signal_for(const emu::ProgramCheckInfo& check, bool page_mapped);

// A thread's registers while it is off its I-stream.
struct ThreadContext {
  uint64_t gr[16] = {};
  emu::VectorRegister vr[32] = {};  // the floating-point registers are their left halves
  uint32_t ar[16] = {};
  uint32_t fpc = 0;
  uint64_t psw_addr = 0;
  uint8_t cc = 0, prog_mask = 0;
};

struct LinuxThread {
  int tid = 0;
  emu::Cpu* cpu = nullptr;  // the I-stream it runs on (nullptr: none now)
  unsigned last_istream = 0;
  ThreadContext saved;      // valid while cpu is nullptr
  bool exited = false;
  bool waiting = false;     // in FUTEX_WAIT
  uint64_t futex_addr = 0;
  uint32_t futex_bitset = 0;
  uint64_t wait_serial = 0;  // orders waiters (FIFO wake) and names one wait for its timeout
  uint64_t blocked = 0;  // signal mask: bit n-1 for signal n
  uint64_t pending = 0;
  std::array<SignalInfo, 64> pending_info{};
  uint64_t altstack_sp = 0, altstack_size = 0;
  int altstack_flags = 2;  // SS_DISABLE
  uint64_t clear_child_tid = 0;
};

class LinuxProcess : public emu::SvcHandler, public emu::Dispatcher {
 public:
  static constexpr uint64_t kStackTop = LinuxMemory::kStackTop;
  static constexpr uint64_t kStackSize = LinuxMemory::kStackSize;
  // tpfemu's own system calls (beyond Linux's numbers): this I-stream's number, and
  // how many there are.
  static constexpr uint64_t kSysIStream = 2016, kSysIStreams = 2017;
  static constexpr uint32_t kPid = 1000, kUid = 1000, kGid = 1000;

  LinuxProcess(emu::AddressSpace& space, const emu::ElfImage& image, std::vector<std::string> argv,
               std::FILE* out = stdout, std::FILE* err = stderr);
  ~LinuxProcess() override;

  // Before start(): the environment (K=V strings; none by default, so that runs are
  // reproducible), the directory that is the guest's "/" (throws std::runtime_error
  // if it cannot be opened), the seed of AT_RANDOM and getrandom, the absolute path
  // readlink("/proc/self/exe") answers (by default argv[0] made absolute; glibc
  // insists on an absolute one), and 1 MB pages for the program break.
  void set_environment(std::vector<std::string> env) { env_ = std::move(env); }
  void set_root(const std::string& dir);
  void set_seed(uint64_t seed) { rng_ = seed; }
  void set_executable_path(std::string path) { exe_path_ = std::move(path); }
  void set_large_pages(bool on) { memory_.set_large_pages(on); }
  void set_every_istream_starts(bool on) { every_istream_starts_ = on; }

  // Loads the image, builds the initial stack of each I-stream's thread as the kernel
  // does and points it at the entry point; the process then handles the machine's
  // SVCs and program checks. Returns false when storage ran out.
  bool start(emu::Machine& machine);
  void supervisor_call(emu::Cpu& cpu, uint8_t number) override;
  bool dispatch(unsigned istream, Why why) override;
  bool program_check(unsigned istream, const emu::RunResult& r) override;

  // exit ends the calling thread, the process when it was the last; exit_group (or a
  // fatal signal) ends them all. The process status is that of exit_group, of the
  // last exit (of I-stream 0's when every I-stream started the program), or
  // 128+signal.
  bool exited() const { return exited_; }
  // Threads remain, but every one waits on a futex no one can wake (the run ended).
  bool deadlocked() const;
  int exit_code() const { return exit_code_; }
  // The signal a program check ended the process with (0 if none did).
  int fatal_signal() const { return fatal_signal_; }
  uint64_t syscalls() const { return syscalls_; }

 private:
  friend struct LinuxSyscalls;
  bool build_stack(LinuxThread& t, uint64_t top);
  LinuxThread& thread_of(const emu::Cpu& cpu);
  unsigned istream_of(const emu::Cpu& cpu) const;

  // Threads on I-streams (linux/linux_threads.cpp).
  void save_context(LinuxThread& t);
  void load_context(LinuxThread& t, unsigned istream);
  // A thread that can run again (new, woken, timed out) at simulated time `now`:
  // onto an idle I-stream, or into the ready queue.
  void make_runnable(LinuxThread& t, uint64_t now);
  void futex_wait(LinuxThread& t, uint64_t addr, uint32_t bitset, uint64_t deadline);
  int64_t futex_wake(uint64_t addr, uint64_t count, uint32_t bitset, uint64_t now);
  int64_t futex_requeue(uint64_t addr, uint64_t wake, uint64_t requeue, uint64_t to, uint64_t now);
  void ask_for_turns();
  // Host-side copies to and from guest storage, checked as the kernel checks them.
  bool copy_in(uint64_t addr, void* dst, uint64_t len);
  bool copy_out(uint64_t addr, const void* src, uint64_t len);
  bool read_string(uint64_t addr, std::string& out, uint64_t max = 4096);
  uint64_t next_random();
  uint64_t now_ns(const emu::Cpu& cpu) const;

  // Signals (linux/linux_signals.cpp).
  struct SigAction {
    uint64_t handler = 0, flags = 0, restorer = 0, mask = 0;
  };
  void post_signal(LinuxThread& t, const SignalInfo& info);
  // Delivers the pending signals the thread does not block: runs a handler (builds its
  // frame), or ends the process. Called when a system call returns.
  void deliver_pending(LinuxThread& t);
  bool setup_frame(LinuxThread& t, const SignalInfo& info);
  bool sigreturn(LinuxThread& t);
  bool signal_kills(int signo) const;
  void terminate(int signo);
  void stop_when_ended();
  void end_thread(LinuxThread& t, int status);

  emu::AddressSpace& space_;
  const emu::ElfImage& image_;
  std::vector<std::string> argv_, env_;
  std::string exe_path_;
  std::FILE* out_;
  std::FILE* err_;
  LinuxMemory memory_;
  std::unique_ptr<LinuxFiles> files_;
  emu::Machine* machine_ = nullptr;
  std::vector<std::unique_ptr<LinuxThread>> threads_;  // every thread, in creation order
  std::vector<emu::Cpu*> cpus_;                        // by I-stream
  std::vector<LinuxThread*> running_;                  // by I-stream: the thread on it
  std::deque<LinuxThread*> ready_;                     // runnable, waiting for an I-stream
  std::vector<bool> slice_set_;                        // by I-stream: a turn's deadline is set
  bool every_istream_starts_ = false;
  int next_tid_ = int(kPid);
  uint64_t wait_serial_ = 0;
  int main_exit_code_ = 0;
  std::array<SigAction, 65> actions_{};
  uint64_t rng_ = 0;
  uint64_t hwcap_ = 0;  // AT_HWCAP: what the kernel knows of the machine (build_stack)
  bool exited_ = false;
  int exit_code_ = 0;
  int fatal_signal_ = 0;
  uint64_t syscalls_ = 0;
  std::vector<uint64_t> warned_;
};

}  // namespace linux_user
