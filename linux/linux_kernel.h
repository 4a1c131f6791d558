// The Linux personality of `tpfemu exec`: static s390x Linux programs as the kernel
// would run them (linux/linux_image.cpp builds a program's initial stack), the system
// calls they make by SVC (linux/linux_syscalls.cpp, one table line per call), their
// memory (linux/linux_memory.h), files and pipes (linux/linux_files.h), signals and
// timers (linux/linux_signals.cpp), processes (linux/linux_processes.cpp) and threads
// (linux/linux_threads.cpp), so that the same binary runs here and under
// qemu-s390x-static.
//
// Processes: fork, vfork and clone without CLONE_VM give a process of its own address
// space on the machine (a copy of the parent's); execve replaces a process's image
// with a static ELF under --root. The run is the first process's: it ends when that
// process ends, with its status, and stops whatever still runs then. Process and thread
// ids come from one counter, from 1000.
//
// Threads (of every process) run on I-streams: the first starts on I-stream 0, a new
// thread takes an idle I-stream (the one it ran on last if that is idle, else the
// lowest), and when there are more runnable threads than I-streams they take turns in
// 1 ms slices of simulated time. Waits (futexes, pipes, children, sleeps, timers) are
// in simulated time; nothing depends on the host. Alternatively
// (set_every_istream_starts) every I-stream starts the program from its entry point,
// and tpfemu's own calls tell each which it is (os/guest/include/tpfemu.h).
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "linux/linux_process.h"

namespace linux_user {

class LinuxKernel : public emu::SvcHandler, public emu::Dispatcher {
 public:
  static constexpr uint64_t kStackTop = LinuxMemory::kStackTop;
  static constexpr uint64_t kStackSize = LinuxMemory::kStackSize;
  // tpfemu's own system calls (beyond Linux's numbers): this I-stream's number, and
  // how many there are.
  static constexpr uint64_t kSysIStream = 2016, kSysIStreams = 2017;
  static constexpr uint32_t kFirstPid = 1000, kUid = 1000, kGid = 1000;
  static constexpr unsigned kDefaultMaxProcesses = 256;

  // `image`: the first program, which must outlive the kernel.
  LinuxKernel(emu::Machine& machine, const emu::ElfImage& image, std::vector<std::string> argv,
              std::FILE* out = stdout, std::FILE* err = stderr);
  ~LinuxKernel() override;

  // Before start(): the environment (K=V strings; none by default, so that runs are
  // reproducible), the directory that is the guest's "/" (throws std::runtime_error
  // if it cannot be opened), the seed of AT_RANDOM and getrandom, the absolute path
  // readlink("/proc/self/exe") answers (by default argv[0] made absolute; glibc
  // insists on an absolute one), 1 MB pages for the program break, and the most
  // processes that may exist at once (a fork past it ends the run: a fork bomb).
  void set_environment(std::vector<std::string> env) { env_ = std::move(env); }
  void set_root(const std::string& dir);
  void set_seed(uint64_t seed) { rng_ = seed; }
  void set_executable_path(std::string path) { exe_path_ = std::move(path); }
  void set_large_pages(bool on) { large_pages_ = on; }
  void set_every_istream_starts(bool on) { every_istream_starts_ = on; }
  void set_max_processes(unsigned n) { max_processes_ = n; }

  // Starts the machine's I-streams in the first process's address space, loads the
  // image, builds the initial stack of each starting thread as the kernel does and
  // points it at the entry point; the kernel then handles the machine's SVCs and
  // program checks. Returns false when storage ran out.
  bool start();
  void supervisor_call(emu::Cpu& cpu, uint8_t number) override;
  bool dispatch(unsigned istream, Why why) override;
  bool program_check(unsigned istream, const emu::RunResult& r) override;

  // The first process's first address space (the one the profile reads): it lives as
  // long as the kernel.
  emu::AddressSpace& initial_space() { return *initial_space_; }

  // The run's status: the first process's exit_group, its last thread's exit (of
  // I-stream 0's when every I-stream started the program), or 128+signal.
  bool exited() const { return exited_; }
  // Threads remain, but every one waits for something no one can bring (the run ended).
  bool deadlocked() const;
  int exit_code() const { return exit_code_; }
  // The signal that ended the first process (0 if none did).
  int fatal_signal() const { return fatal_signal_; }
  // Why the run was stopped by the kernel itself ("" if it was not): the process limit.
  const std::string& stopped_because() const { return stopped_because_; }
  uint64_t syscalls() const { return syscalls_; }

 private:
  friend struct LinuxSyscalls;
  bool build_stack(LinuxProcess& p, LinuxThread& t, uint64_t top, const std::vector<std::string>& argv,
                   const std::vector<std::string>& env);
  LinuxThread& thread_of(const emu::Cpu& cpu);
  unsigned istream_of(const emu::Cpu& cpu) const;
  LinuxProcess* process(int pid);

  // Threads on I-streams (linux/linux_threads.cpp).
  void save_context(LinuxThread& t);
  void load_context(LinuxThread& t, unsigned istream);
  // A thread that can run again (new, woken, timed out) at simulated time `now`:
  // onto an idle I-stream, or into the ready queue.
  void make_runnable(LinuxThread& t, uint64_t now);
  void futex_wait(LinuxThread& t, uint64_t addr, uint32_t bitset, uint64_t deadline);
  int64_t futex_wake(const LinuxProcess& p, uint64_t addr, uint64_t count, uint32_t bitset, uint64_t now);
  int64_t futex_requeue(const LinuxProcess& p, uint64_t addr, uint64_t wake, uint64_t requeue, uint64_t to,
                        uint64_t now);
  // A system call that must wait: the thread leaves its I-stream with its PSW back on
  // the SVC, to issue the call again when one of `keys` is woken, a signal comes, or
  // the deadline (an I-stream clock, ~0 for none) passes.
  void wait_call(LinuxThread& t, std::vector<const void*> keys, uint64_t deadline, bool restartable);
  // An event at `deadline` that ends the thread's present wait, if it still waits then:
  // `on_end` sets what the call returns, and the thread runs again.
  void end_wait_at(LinuxThread& t, uint64_t deadline, void (*on_end)(LinuxThread&));
  // A call whose result is known, but which returns only when `key` is woken (vfork).
  void wait_result(LinuxThread& t, const void* key, int64_t result);
  // Wakes the threads whose call waits on `key` (a pipe, a parent's children).
  void wake_callers(const void* key, uint64_t now);
  // A signal for a waiting thread: its call ends with -EINTR (or is issued again after
  // the handler, with SA_RESTART).
  void interrupt_wait(LinuxThread& t, uint64_t now);
  // The call the thread issues is a new one (not one issued again after a wait).
  void end_call(LinuxThread& t);
  void ask_for_turns();
  // Forgets the threads that have exited and sit on no I-stream (at a system call's start).
  void sweep_threads();
  uint64_t next_random();
  uint64_t now_ns(const emu::Cpu& cpu) const;
  uint64_t cycles_of_ns(double ns) const;

  // Processes (linux/linux_processes.cpp).
  LinuxProcess& new_process(int ppid, std::shared_ptr<emu::AddressSpace> space,
                            std::shared_ptr<const emu::ElfImage> image, std::shared_ptr<LinuxMemory> memory,
                            std::unique_ptr<LinuxFiles> files);
  LinuxThread& new_thread(LinuxProcess& p);
  // fork/vfork/clone without CLONE_VM: the child's id, or -errno.
  int64_t fork_process(LinuxThread& parent, uint64_t flags, uint64_t stack, uint64_t ptid, uint64_t ctid,
                       uint64_t tls);
  // Replaces the calling thread's process image (the other threads end); -errno when the
  // file cannot be run (the old image is then untouched).
  int64_t execve(LinuxThread& t, int64_t dirfd, const std::string& path, std::vector<std::string> argv,
                 std::vector<std::string> env);
  // A thread ends (exit), or a whole process (exit_group, a fatal signal: status as
  // wait reports it).
  void end_thread(LinuxThread& t, int status);
  void end_process(LinuxProcess& p, int wait_status);
  // The process is done: its memory goes, its children go to "init", its parent hears.
  void process_ended(LinuxProcess& p);
  void reap(LinuxProcess& p);
  void release_vfork_parent(LinuxProcess& p);
  // A CPU that must not keep a dying process's space loaded.
  void leave_space(emu::Cpu& cpu);
  void copy_registers(const emu::Cpu& cpu, ThreadContext& x);

  // Signals (linux/linux_signals.cpp).
  // To one thread (tkill, a fault) or to a process (kill: a thread that does not block it).
  void post_signal(LinuxThread& t, const SignalInfo& info);
  void post_process_signal(LinuxProcess& p, const SignalInfo& info);
  // Delivers the pending signals the thread does not block: runs a handler (builds its
  // frame), or ends the process. Called when a system call returns.
  void deliver_pending(LinuxThread& t);
  bool setup_frame(LinuxThread& t, const SignalInfo& info);
  bool sigreturn(LinuxThread& t);
  bool signal_kills(const LinuxProcess& p, int signo) const;
  bool signal_ignored(const LinuxProcess& p, int signo) const;
  void kill_process(LinuxProcess& p, int signo);
  // The first process's end: the run stops.
  void stop_run(int status, int signo);
  void stop_when_ended();
  // Time (linux/linux_timers.cpp). A sleep until the clock `until`: the thread waits
  // off its I-stream; a signal ends it with -EINTR and the time left written to `rem`.
  void sleep(LinuxThread& t, uint64_t until, uint64_t rem);
  // rt_sigsuspend, ppoll, pselect6: `mask` holds while the call waits; the old one comes
  // back when it returns (through the signal frame if a handler runs).
  void suspend_with_mask(LinuxThread& t, uint64_t mask);
  void restore_suspend_mask(LinuxThread& t);
  // ITIMER_REAL: arms (or disarms, 0) the process's alarm `value` cycles from `now`.
  void arm_alarm(LinuxProcess& p, uint64_t now, uint64_t value, uint64_t interval);
  uint64_t alarm_left(const LinuxProcess& p, uint64_t now) const;
  // After a system call armed an event: the calling I-stream's run ends there.
  void end_calling_slice();
  int next_timer_id(const LinuxProcess& p) const;
  // POSIX timers (timer_create).
  struct PosixTimer {
    int id = 0;
    int pid = 0, tid = 0;  // whom it signals: the process, or one thread (SIGEV_THREAD_ID)
    int signo = 0;
    bool notify = true;  // SIGEV_NONE: no signal
    uint64_t value = 0;  // sigev_value
    int clock = 0;
    uint64_t serial = 0, at = 0, interval = 0;  // armed expiry (serial 0: disarmed), in cycles
    int overrun = 0;  // expiries while its signal was still pending, at the last delivery
  };
  void arm_timer(PosixTimer& timer, uint64_t now, uint64_t value, uint64_t interval);
  void timer_fired(int pid, int id, uint64_t serial);
  void alarm_fired(int pid, uint64_t serial);

  emu::Machine& machine_;
  const emu::ElfImage& first_image_;
  std::vector<std::string> argv_, env_;
  std::string exe_path_;
  std::string root_;
  std::FILE* out_;
  std::FILE* err_;
  std::unique_ptr<emu::AddressSpace> idle_space_;  // what an I-stream holds between processes
  emu::AddressSpace* initial_space_ = nullptr;
  std::shared_ptr<emu::AddressSpace> kept_initial_space_;  // the first space, once its process let it go
  LinuxProcess* first_process_ = nullptr;
  uint64_t now_ = 0;  // the clock of the call or event being handled (what wakes start from)
  LinuxThread* calling_ = nullptr;  // the thread whose system call is being handled
  bool sweep_due_ = false;          // a thread has exited since the last sweep
  std::map<int, std::unique_ptr<LinuxProcess>> processes_;  // by pid: live ones and zombies
  std::vector<std::unique_ptr<LinuxThread>> threads_;  // every live thread, in creation order
  std::vector<emu::Cpu*> cpus_;                        // by I-stream
  std::vector<LinuxThread*> running_;                  // by I-stream: the thread on it
  std::deque<LinuxThread*> ready_;                     // runnable, waiting for an I-stream
  std::vector<bool> slice_set_;                        // by I-stream: a turn's deadline is set
  std::map<std::pair<int, int>, PosixTimer> timers_;   // by process and id
  // System V shared memory: a segment owns its frames, and each shmat maps them into the
  // attaching space (map_shared); removed (IPC_RMID), it goes with its last detach.
  struct ShmSegment {
    uint64_t key = 0, size = 0;
    uint32_t mode = 0;
    std::vector<uint64_t> frames;
    bool removed = false;
    unsigned attaches = 0;
  };
  std::map<int, ShmSegment> shm_;
  std::map<std::pair<int, uint64_t>, int> shm_attached_;  // (pid, address) -> segment id
  int next_shm_ = 0;
  bool every_istream_starts_ = false;
  bool large_pages_ = false;
  unsigned max_processes_ = kDefaultMaxProcesses;
  int next_tid_ = int(kFirstPid);
  int next_timer_ = 0;
  uint64_t wait_serial_ = 0;
  uint64_t rng_ = 0;
  bool exited_ = false;
  int exit_code_ = 0;
  int fatal_signal_ = 0;
  std::string stopped_because_;
  uint64_t syscalls_ = 0;
  std::vector<uint64_t> warned_;
};

}  // namespace linux_user
