// The system calls of `tpfemu exec`: one line of kTable per call (s390x numbers,
// arch/s390/kernel/syscalls/syscall.tbl). Arguments arrive in r2-r7, the result goes
// back in r2; a call the table lacks returns -ENOSYS, with one warning per number on
// standard error.
#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <vector>

#include "linux/linux_abi.h"
#include "linux/linux_kernel.h"

namespace linux_user {
namespace abi = linux_abi;

struct LinuxSyscalls {
  struct Call {
    LinuxKernel& k;
    LinuxProcess& p;
    emu::Cpu& cpu;
    LinuxThread& t;
    uint64_t a[6];
    bool keep_registers = false;  // the call set the registers itself (rt_sigreturn, exit)
  };
  using Fn = int64_t (*)(Call&);
  struct Entry {
    uint16_t nr;
    const char* name;
    Fn fn;
  };
  static const Entry* find(uint64_t nr);

  // Moves up to `len` bytes between guest storage and the host in bounded pieces.
  static constexpr uint64_t kChunk = 1 << 20;
  static int64_t with_buffer_out(Call& c, uint64_t addr, uint64_t len,
                                 const std::function<int64_t(uint8_t*, uint64_t)>& produce) {
    std::vector<uint8_t> buf(std::min(len, kChunk));
    int64_t n = produce(buf.data(), buf.size());
    if (n > 0 && !c.p.copy_out(addr, buf.data(), uint64_t(n))) return -abi::kEfault;
    return n;
  }
  static int64_t write_from(Call& c, int64_t fd, uint64_t addr, uint64_t len) {
    std::vector<uint8_t> buf(std::min(len, kChunk));
    if (!c.p.copy_in(addr, buf.data(), buf.size())) return -abi::kEfault;
    return c.p.files->write(fd, buf.data(), buf.size());
  }
  static int64_t path_arg(Call& c, uint64_t addr, std::string& out) {
    if (!c.p.read_string(addr, out)) return -abi::kEfault;
    return 0;
  }
  static int64_t put_u64s(Call& c, uint64_t addr, std::initializer_list<uint64_t> values) {
    std::vector<uint8_t> b(values.size() * 8);
    size_t k = 0;
    for (uint64_t v : values) emu::Cpu::store_be<uint64_t>(&b[8 * k++], v);
    return c.p.copy_out(addr, b.data(), b.size()) ? 0 : -abi::kEfault;
  }

  // --- processes and threads -------------------------------------------------------
  static int64_t exit(Call& c) {
    c.k.end_thread(c.t, int(c.a[0] & 0xFF));
    c.keep_registers = true;
    return 0;
  }
  static int64_t exit_group(Call& c) {
    c.k.end_process(c.p, int(c.a[0] & 0xFF) << 8);
    c.keep_registers = true;
    return 0;
  }
  static int64_t getpid(Call& c) { return c.p.pid; }
  static int64_t getppid(Call& c) { return c.p.ppid; }
  static int64_t gettid(Call& c) { return c.t.tid; }
  static int64_t getuid(Call&) { return LinuxKernel::kUid; }
  static int64_t getgid(Call&) { return LinuxKernel::kGid; }
  static int64_t set_tid_address(Call& c) {
    c.t.clear_child_tid = c.a[0];
    return c.t.tid;
  }
  static int64_t set_robust_list(Call&) { return 0; }  // no process dies holding a robust futex here
  static int64_t rseq(Call&) { return -abi::kEnosys; }  // glibc runs without restartable sequences
  static int64_t sched_yield(Call& c) {
    c.cpu.end_slice();
    return 0;
  }
  static int64_t tpf_istream(Call& c) { return c.k.istream_of(c.cpu); }
  static int64_t tpf_istreams(Call& c) { return int64_t(c.k.cpus_.size()); }
  static int64_t uname(Call& c) {
    char u[6 * 65] = {};
    const char* fields[6] = {"Linux", "tpfemu", "6.1.0", "#1 SMP tpfemu", "s390x", "(none)"};
    for (unsigned k = 0; k < 6; ++k) std::strncpy(u + 65 * k, fields[k], 64);
    return c.p.copy_out(c.a[0], u, sizeof u) ? 0 : -abi::kEfault;
  }
  static int64_t prlimit_value(Call& c, uint64_t resource, uint64_t out) {
    constexpr uint64_t kInfinity = ~0ull, kRlimitStack = 3, kRlimitNofile = 7;
    if (resource >= 16) return -abi::kEinval;
    uint64_t cur = kInfinity, max = kInfinity;
    if (resource == kRlimitStack) cur = LinuxKernel::kStackSize;
    if (resource == kRlimitNofile) cur = max = 1024;
    return out ? put_u64s(c, out, {cur, max}) : 0;
  }
  static int64_t prlimit64(Call& c) {
    if (c.a[0] != 0 && c.a[0] != LinuxKernel::kFirstPid) return -abi::kEsrch;
    if (c.a[2]) return -abi::kEperm;  // limits cannot be changed
    return prlimit_value(c, c.a[1], c.a[3]);
  }
  static int64_t getrlimit(Call& c) { return prlimit_value(c, c.a[0], c.a[1]); }
  static int64_t sysinfo(Call& c) {
    // struct sysinfo (64-bit): what glibc reads for _SC_PHYS_PAGES and friends.
    uint8_t b[112] = {};
    const uint64_t total = c.k.machine_.config().storage;
    const uint64_t used = std::min(total, c.p.space->mapped_pages() * emu::kPageSize);
    emu::Cpu::store_be<uint64_t>(b, c.k.now_ns(c.cpu) / 1000000000);  // uptime
    emu::Cpu::store_be<uint64_t>(b + 32, total);                      // totalram
    emu::Cpu::store_be<uint64_t>(b + 40, total - used);               // freeram
    emu::Cpu::store_be<uint16_t>(b + 80, uint16_t(c.k.threads_.size()));  // procs
    emu::Cpu::store_be<uint32_t>(b + 104, 1);                         // mem_unit
    return c.p.copy_out(c.a[0], b, sizeof b) ? 0 : -abi::kEfault;
  }
  static int64_t getrandom(Call& c) {
    return with_buffer_out(c, c.a[0], c.a[1], [&](uint8_t* b, uint64_t n) {
      for (uint64_t k = 0; k < n; k += 8) {
        uint8_t w[8];
        emu::Cpu::store_be<uint64_t>(w, c.k.next_random());
        std::memcpy(b + k, w, std::min<uint64_t>(8, n - k));
      }
      return int64_t(n);
    });
  }

  // --- threads ------------------------------------------------------------------------------
  static int64_t clone(Call& c) {
    // s390 passes (stack, flags, parent_tid, child_tid, tls).
    const uint64_t stack = c.a[0], flags = c.a[1], ptid = c.a[2], ctid = c.a[3], tls = c.a[4];
    if (flags & abi::kCloneThread) {
      if (!(flags & abi::kCloneVm) || !(flags & abi::kCloneSighand)) return -abi::kEinval;
      return new_thread(c, stack, flags, ptid, ctid, tls);
    }
    const int64_t pid = c.k.fork_process(c.t, flags, stack, ptid, ctid, tls);
    if (pid > 0 && (flags & abi::kCloneVfork)) {
      c.k.wait_result(c.t, &c.k.process(int(pid))->vfork_parent, pid);  // until the child execs or ends
      c.keep_registers = true;
    }
    return pid;
  }
  static int64_t fork(Call& c) { return c.k.fork_process(c.t, abi::kSigchld, 0, 0, 0, 0); }
  static int64_t vfork(Call& c) {
    c.a[0] = 0, c.a[1] = abi::kCloneVm | abi::kCloneVfork | abi::kSigchld;
    return clone(c);
  }
  static int64_t new_thread(Call& c, uint64_t stack, uint64_t flags, uint64_t ptid, uint64_t ctid, uint64_t tls) {
    LinuxThread& t = c.k.new_thread(c.p);
    t.blocked = c.t.blocked;
    t.last_istream = c.k.istream_of(c.cpu);
    ThreadContext& x = t.saved;
    c.k.copy_registers(c.cpu, x);
    x.gr[2] = 0;  // the child's return value
    if (stack) x.gr[15] = stack;
    if (flags & abi::kCloneSettls) x.ar[0] = uint32_t(tls >> 32), x.ar[1] = uint32_t(tls);  // the thread pointer
    uint8_t tid_be[4];
    emu::Cpu::store_be<uint32_t>(tid_be, uint32_t(t.tid));
    if ((flags & abi::kCloneParentSettid) && !c.p.copy_out(ptid, tid_be, 4)) return -abi::kEfault;
    if ((flags & abi::kCloneChildSettid) && !c.p.copy_out(ctid, tid_be, 4)) return -abi::kEfault;
    if (flags & abi::kCloneChildCleartid) t.clear_child_tid = ctid;
    c.k.make_runnable(t, c.cpu.cycles);
    return t.tid;
  }
  static int64_t clone3(Call&) { return -abi::kEnosys; }  // glibc falls back to clone
  // A futex timeout as the I-stream clock it ends at (~0: none). Relative for
  // FUTEX_WAIT, absolute on CLOCK_MONOTONIC or CLOCK_REALTIME for WAIT_BITSET.
  static int64_t futex_deadline(Call& c, uint64_t addr, bool absolute, bool realtime, uint64_t& deadline) {
    deadline = ~0ull;
    if (!addr) return 0;
    uint8_t ts[16];
    if (!c.p.copy_in(addr, ts, 16)) return -abi::kEfault;
    int64_t sec = int64_t(emu::Cpu::load_be<uint64_t>(ts)), nsec = int64_t(emu::Cpu::load_be<uint64_t>(ts + 8));
    if (sec < 0 || nsec < 0 || nsec >= 1000000000) return -abi::kEinval;
    double ns = double(sec) * 1e9 + double(nsec);
    if (absolute && realtime) ns -= double(kEpochSeconds) * 1e9;
    double now = double(c.k.now_ns(c.cpu));
    double wait_ns = absolute ? ns - now : ns;
    if (wait_ns <= 0) return -abi::kEtimedout;
    deadline = c.cpu.cycles + uint64_t(std::min(wait_ns * c.cpu.clock_ghz, 1e18));
    return 0;
  }
  static int64_t futex(Call& c) {
    const uint64_t addr = c.a[0], op = c.a[1], cmd = op & 127, val = c.a[2];
    const bool realtime = op & abi::kFutexClockRealtime;
    LinuxProcess& p = c.p;
    if (addr & 3) return -abi::kEinval;
    auto current = [&](uint32_t& v) {
      uint8_t b[4];
      if (!p.copy_in(addr, b, 4)) return false;
      v = emu::Cpu::load_be<uint32_t>(b);
      return true;
    };
    switch (cmd) {
      case abi::kFutexWait: case abi::kFutexWaitBitset: {
        const uint32_t bitset = cmd == abi::kFutexWait ? ~0u : uint32_t(c.a[5]);
        if (!bitset) return -abi::kEinval;
        uint32_t v;
        if (!current(v)) return -abi::kEfault;
        if (v != uint32_t(val)) return -abi::kEagain;
        uint64_t deadline;
        if (int64_t e = futex_deadline(c, c.a[3], cmd == abi::kFutexWaitBitset, realtime, deadline)) return e;
        c.k.futex_wait(c.t, addr, bitset, deadline);
        c.keep_registers = true;  // r2 is set when the wait ends
        return 0;
      }
      case abi::kFutexWake: return c.k.futex_wake(p, addr, val, ~0u, c.cpu.cycles);
      case abi::kFutexWakeBitset:
        if (!uint32_t(c.a[5])) return -abi::kEinval;
        return c.k.futex_wake(p, addr, val, uint32_t(c.a[5]), c.cpu.cycles);
      case 3: case 4: {  // FUTEX_REQUEUE, FUTEX_CMP_REQUEUE (the count to move is in the timeout slot)
        uint32_t v;
        if (cmd == 4 && (!current(v) || v != uint32_t(c.a[5]))) return -abi::kEagain;
        return c.k.futex_requeue(p, addr, val, c.a[3], c.a[4], c.cpu.cycles);
      }
      default:
        warn_once(c.k, 238 * 1000 + cmd, fmt::format("futex operation {} is not supported; returning -ENOSYS", cmd));
        return -abi::kEnosys;
    }
  }
  static void warn_once(LinuxKernel& k, uint64_t key, const std::string& what) {
    if (std::find(k.warned_.begin(), k.warned_.end(), key) != k.warned_.end()) return;
    k.warned_.push_back(key);
    fmt::print(k.err_, "tpfemu: warning: {}\n", what);
    std::fflush(k.err_);
  }
  static int64_t sched_getaffinity(Call& c) {
    // One bit per I-stream; the kernel returns the mask's size in bytes.
    if (c.a[1] < 8 || (c.a[1] & 7)) return -abi::kEinval;
    const size_t n = c.k.cpus_.size();
    uint64_t mask = n >= 64 ? ~0ull : (1ull << n) - 1;
    return put_u64s(c, c.a[2], {mask}) < 0 ? -abi::kEfault : 8;
  }

  // --- time (simulated: the calling I-stream's clock) -----------------------------------
  static constexpr uint64_t kEpochSeconds = 1735689600;  // 2025-01-01, the TOD clock's epoch here
  static int64_t clock_gettime(Call& c) {
    if (c.a[0] > 7) return -abi::kEinval;
    uint64_t ns = c.k.now_ns(c.cpu);
    uint64_t sec = ns / 1000000000, nsec = ns % 1000000000;
    if (c.a[0] == 0 || c.a[0] == 5) sec += kEpochSeconds;  // CLOCK_REALTIME(_COARSE)
    return put_u64s(c, c.a[1], {sec, nsec});
  }
  static int64_t clock_getres(Call& c) {
    if (c.a[0] > 7) return -abi::kEinval;
    return c.a[1] ? put_u64s(c, c.a[1], {0, 1}) : 0;
  }
  static int64_t gettimeofday(Call& c) {
    uint64_t ns = c.k.now_ns(c.cpu);
    if (c.a[0]) return put_u64s(c, c.a[0], {kEpochSeconds + ns / 1000000000, ns % 1000000000 / 1000});
    return 0;
  }
  static int64_t read_timespec(Call& c, uint64_t addr, int64_t& sec, int64_t& nsec) {
    uint8_t ts[16];
    if (!c.p.copy_in(addr, ts, 16)) return -abi::kEfault;
    sec = int64_t(emu::Cpu::load_be<uint64_t>(ts)), nsec = int64_t(emu::Cpu::load_be<uint64_t>(ts + 8));
    return sec < 0 || nsec < 0 || nsec >= 1000000000 ? -abi::kEinval : 0;
  }
  // Sleeps until the I-stream clock `until`: the thread leaves its I-stream (another
  // may run there) and returns 0 then, or -EINTR at a signal, with the time left
  // written to `rem` (nanosleep's, 0 for none). Sleeps are never restarted (signal(7)).
  static int64_t sleep_until(Call& c, uint64_t until, uint64_t rem) {
    if (until <= c.cpu.cycles) return 0;
    c.k.sleep(c.t, until, rem);
    c.keep_registers = true;
    return 0;
  }
  static int64_t nanosleep(Call& c) {
    int64_t sec, nsec;
    if (int64_t e = read_timespec(c, c.a[0], sec, nsec)) return e;
    return sleep_until(c, c.cpu.cycles + c.k.cycles_of_ns(double(sec) * 1e9 + double(nsec)), c.a[1]);
  }
  static int64_t clock_nanosleep(Call& c) {
    constexpr uint64_t kTimerAbstime = 1;
    if (c.a[0] > 11) return -abi::kEinval;
    int64_t sec, nsec;
    if (int64_t e = read_timespec(c, c.a[2], sec, nsec)) return e;
    double ns = double(sec) * 1e9 + double(nsec);
    if (c.a[1] & kTimerAbstime) {
      if (c.a[0] == 0) ns -= double(kEpochSeconds) * 1e9;  // CLOCK_REALTIME
      const double now = double(c.k.now_ns(c.cpu));
      return ns <= now ? 0 : sleep_until(c, c.cpu.cycles + c.k.cycles_of_ns(ns - now), 0);
    }
    return sleep_until(c, c.cpu.cycles + c.k.cycles_of_ns(ns), c.a[3]);
  }
  static int64_t pause(Call& c) {
    if (c.t.pending & ~c.t.blocked) return -abi::kEintr;  // delivered as the call returns
    c.k.wait_call(c.t, {}, ~0ull, false);  // only a signal ends it: -EINTR
    c.keep_registers = true;
    return 0;
  }
  static int64_t rt_sigsuspend(Call& c) {
    if (c.a[1] != 8) return -abi::kEinval;
    uint8_t b[8];
    if (!c.p.copy_in(c.a[0], b, 8)) return -abi::kEfault;
    c.k.suspend_with_mask(c.t, emu::Cpu::load_be<uint64_t>(b));
    return pause(c);
  }
  // rt_sigtimedwait: takes a pending signal of `set` (blocked, as the caller has it) or
  // waits for one, up to the timeout (-EAGAIN).
  static int64_t rt_sigtimedwait(Call& c) {
    if (c.a[3] != 8) return -abi::kEinval;
    uint8_t b[8];
    if (!c.p.copy_in(c.a[0], b, 8)) return -abi::kEfault;
    const uint64_t set = emu::Cpu::load_be<uint64_t>(b) & ~((1ull << (abi::kSigkill - 1)) | (1ull << (abi::kSigstop - 1)));
    if (const uint64_t ready = c.t.pending & set) {
      const int signo = __builtin_ctzll(ready) + 1;
      c.t.pending &= ~(1ull << (signo - 1));
      c.t.sigwait_set = 0;
      if (c.a[1]) {
        uint8_t si[abi::kSiginfoBytes] = {};
        write_siginfo(si, c.t.pending_info[size_t(signo - 1)]);
        if (!c.p.copy_out(c.a[1], si, sizeof si)) return -abi::kEfault;
      }
      return signo;
    }
    if (c.t.call_resumed && c.t.timed_out) return c.t.sigwait_set = 0, -abi::kEagain;
    uint64_t deadline = c.t.call_resumed ? c.t.call_deadline : ~0ull;
    if (c.a[2] && !c.t.call_resumed) {
      int64_t sec, nsec;
      if (int64_t e = read_timespec(c, c.a[2], sec, nsec)) return e;
      if (sec == 0 && nsec == 0) return -abi::kEagain;
      deadline = c.cpu.cycles + c.k.cycles_of_ns(double(sec) * 1e9 + double(nsec));
    }
    c.t.sigwait_set = set;
    c.k.wait_call(c.t, {}, deadline, false);
    c.keep_registers = true;
    return 0;
  }
  // alarm and ITIMER_REAL: one timer per process, on simulated time.
  static int64_t alarm(Call& c) {
    const uint64_t left = c.k.alarm_left(c.p, c.cpu.cycles);
    c.k.arm_alarm(c.p, c.cpu.cycles, c.k.cycles_of_ns(double(c.a[0]) * 1e9), 0);
    const double left_s = double(left) / (c.cpu.clock_ghz * 1e9);
    return left ? std::max<int64_t>(1, int64_t(left_s + 0.5)) : 0;  // rounded, never 0 while armed
  }
  static constexpr uint64_t kItimerReal = 0;
  static int64_t put_itimerval(Call& c, uint64_t addr, uint64_t interval, uint64_t value) {
    auto us = [&](uint64_t cycles) { return uint64_t(double(cycles) / c.cpu.clock_ghz / 1000); };
    const uint64_t i = us(interval), v = us(value);
    return put_u64s(c, addr, {i / 1000000, i % 1000000, v / 1000000, v % 1000000});
  }
  static int64_t getitimer(Call& c) {
    if (c.a[0] > 2) return -abi::kEinval;
    if (c.a[0] != kItimerReal) return warn_itimer(c);
    return put_itimerval(c, c.a[1], c.p.alarm_interval, c.k.alarm_left(c.p, c.cpu.cycles));
  }
  static int64_t setitimer(Call& c) {
    if (c.a[0] > 2) return -abi::kEinval;
    if (c.a[0] != kItimerReal) return warn_itimer(c);
    uint8_t b[32] = {};
    if (c.a[1] && !c.p.copy_in(c.a[1], b, 32)) return -abi::kEfault;
    uint64_t v[4];
    for (unsigned k = 0; k < 4; ++k) v[k] = emu::Cpu::load_be<uint64_t>(b + 8 * k);
    if (v[1] >= 1000000 || v[3] >= 1000000) return -abi::kEinval;
    if (c.a[2] && put_itimerval(c, c.a[2], c.p.alarm_interval, c.k.alarm_left(c.p, c.cpu.cycles)) < 0)
      return -abi::kEfault;
    auto cycles = [&](uint64_t sec, uint64_t usec) { return c.k.cycles_of_ns(double(sec) * 1e9 + double(usec) * 1e3); };
    c.k.arm_alarm(c.p, c.cpu.cycles, cycles(v[2], v[3]), cycles(v[0], v[1]));
    return 0;
  }
  static int64_t warn_itimer(Call& c) {
    warn_once(c.k, 104 * 1000 + c.a[0], "ITIMER_VIRTUAL and ITIMER_PROF (timers of CPU time) are not supported; returning -EINVAL");
    return -abi::kEinval;
  }
  // POSIX timers (timer_create): CLOCK_REALTIME, CLOCK_MONOTONIC and their kin, on
  // simulated time; SIGEV_SIGNAL, SIGEV_NONE and SIGEV_THREAD_ID (glibc's SIGEV_THREAD).
  static int64_t timer_create(Call& c) {
    constexpr int64_t kSigevSignal = 0, kSigevNone = 1, kSigevThreadId = 4;
    const uint64_t clock = c.a[0];
    if (clock != 0 && clock != 1 && clock != 4 && clock != 5 && clock != 6 && clock != 7) {
      warn_once(c.k, 254 * 1000 + clock, fmt::format("timer_create on clock {} (a CPU-time clock) is not supported; returning -EINVAL", clock));
      return -abi::kEinval;
    }
    LinuxKernel::PosixTimer timer;
    timer.pid = c.p.pid, timer.clock = int(clock), timer.signo = abi::kSigalrm;
    if (c.a[1]) {
      uint8_t ev[24];
      if (!c.p.copy_in(c.a[1], ev, sizeof ev)) return -abi::kEfault;
      timer.value = emu::Cpu::load_be<uint64_t>(ev);
      timer.signo = int(int32_t(emu::Cpu::load_be<uint32_t>(ev + 8)));
      const int64_t notify = int32_t(emu::Cpu::load_be<uint32_t>(ev + 12));
      if (notify != kSigevNone && (timer.signo < 1 || timer.signo > 64)) return -abi::kEinval;
      if (notify == kSigevNone) timer.notify = false;
      else if (notify == kSigevThreadId) {
        timer.tid = int(int32_t(emu::Cpu::load_be<uint32_t>(ev + 16)));
        LinuxThread* t = thread_by_tid(c, timer.tid);
        if (!t || t->proc != &c.p) return -abi::kEinval;
      } else if (notify != kSigevSignal) {
        return -abi::kEinval;
      }
    }
    timer.id = c.k.next_timer_id(c.p);
    if (!c.a[1]) timer.value = uint64_t(timer.id);
    uint8_t id[4];
    emu::Cpu::store_be<uint32_t>(id, uint32_t(timer.id));
    if (!c.p.copy_out(c.a[2], id, 4)) return -abi::kEfault;
    c.k.timers_[{c.p.pid, timer.id}] = timer;
    return 0;
  }
  static LinuxKernel::PosixTimer* timer_of(Call& c, uint64_t id) {
    auto it = c.k.timers_.find({c.p.pid, int(int32_t(id))});
    return it == c.k.timers_.end() ? nullptr : &it->second;
  }
  static int64_t put_itimerspec(Call& c, uint64_t addr, const LinuxKernel::PosixTimer& t) {
    auto ns = [&](uint64_t cycles) { return uint64_t(double(cycles) / c.cpu.clock_ghz); };
    const uint64_t left = t.serial && t.at > c.cpu.cycles ? ns(t.at - c.cpu.cycles) : t.serial ? 1 : 0;
    const uint64_t i = ns(t.interval);
    return put_u64s(c, addr, {i / 1000000000, i % 1000000000, left / 1000000000, left % 1000000000});
  }
  static int64_t timer_settime(Call& c) {
    constexpr uint64_t kTimerAbstime = 1;
    LinuxKernel::PosixTimer* t = timer_of(c, c.a[0]);
    if (!t) return -abi::kEinval;
    uint8_t b[32];
    if (!c.p.copy_in(c.a[2], b, 32)) return -abi::kEfault;
    int64_t v[4];
    for (unsigned k = 0; k < 4; ++k) v[k] = int64_t(emu::Cpu::load_be<uint64_t>(b + 8 * k));
    for (unsigned k = 0; k < 4; k += 2)
      if (v[k] < 0 || v[k + 1] < 0 || v[k + 1] >= 1000000000) return -abi::kEinval;
    if (c.a[3] && put_itimerspec(c, c.a[3], *t) < 0) return -abi::kEfault;
    double value = double(v[2]) * 1e9 + double(v[3]);
    if ((c.a[1] & kTimerAbstime) && value > 0) {
      if (t->clock == 0 || t->clock == 5) value -= double(kEpochSeconds) * 1e9;  // CLOCK_REALTIME(_COARSE)
      value = std::max(1.0, value - double(c.k.now_ns(c.cpu)));  // passed already: fires at once
    }
    c.k.arm_timer(*t, c.cpu.cycles, value > 0 ? std::max<uint64_t>(1, c.k.cycles_of_ns(value)) : 0,
                  c.k.cycles_of_ns(double(v[0]) * 1e9 + double(v[1])));
    return 0;
  }
  static int64_t timer_gettime(Call& c) {
    LinuxKernel::PosixTimer* t = timer_of(c, c.a[0]);
    return t ? put_itimerspec(c, c.a[1], *t) : -abi::kEinval;
  }
  static int64_t timer_getoverrun(Call& c) {
    LinuxKernel::PosixTimer* t = timer_of(c, c.a[0]);
    return t ? t->overrun : -abi::kEinval;
  }
  static int64_t timer_delete(Call& c) {
    return c.k.timers_.erase({c.p.pid, int(int32_t(c.a[0]))}) ? 0 : -abi::kEinval;
  }

  // --- memory ---------------------------------------------------------------------------
  static int64_t brk(Call& c) { return c.p.memory->brk(c.a[0]); }
  static int64_t mmap(Call& c) {
    // s390x passes the six arguments in a block whose address is in r2.
    uint8_t b[48];
    if (!c.p.copy_in(c.a[0], b, sizeof b)) return -abi::kEfault;
    uint64_t v[6];
    for (unsigned k = 0; k < 6; ++k) v[k] = emu::Cpu::load_be<uint64_t>(b + 8 * k);
    const uint64_t addr = v[0], len = v[1], prot = v[2], flags = v[3], offset = v[5];
    const int64_t fd = int64_t(int32_t(v[4]));
    if (flags & abi::kMapAnonymous) return c.p.memory->mmap(addr, len, prot, flags);
    bool writable = false;
    const int64_t host_fd = c.p.files->dup_for_mapping(fd, writable);
    if (host_fd < 0) return host_fd;
    return c.p.memory->mmap_file(addr, len, prot, flags, int(host_fd), writable, offset);
  }
  static int64_t munmap(Call& c) { return c.p.memory->munmap(c.a[0], c.a[1]); }
  static int64_t mprotect(Call& c) { return c.p.memory->mprotect(c.a[0], c.a[1], c.a[2]); }
  static int64_t mremap(Call& c) { return c.p.memory->mremap(c.a[0], c.a[1], c.a[2], c.a[3], c.a[4]); }
  static int64_t madvise(Call& c) { return c.p.memory->madvise(c.a[0], c.a[1], c.a[2]); }
  static int64_t msync(Call& c) { return c.p.memory->msync(c.a[0], c.a[1], c.a[2]); }

  // --- files ------------------------------------------------------------------------------
  // A read or write that found a pipe empty or full waits for it and is issued again;
  // one that found no reader raises SIGPIPE (and fails with EPIPE).
  static int64_t io_result(Call& c, int64_t rc) {
    if (rc == LinuxFiles::kWait) {
      c.k.wait_call(c.t, {c.p.files->wait_key()}, ~0ull, true);
      c.keep_registers = true;
      return 0;
    }
    if (rc == LinuxFiles::kBrokenPipe) {
      SignalInfo info;
      info.signo = abi::kSigpipe, info.pid = uint32_t(c.p.pid), info.uid = LinuxKernel::kUid;
      c.k.post_signal(c.t, info);
      return -abi::kEpipe;
    }
    return rc;
  }
  static int64_t read(Call& c) {
    return io_result(c, with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t n) {
      return c.p.files->read(int64_t(c.a[0]), b, n);
    }));
  }
  static int64_t pread64(Call& c) {
    return with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t n) {
      return c.p.files->pread(int64_t(c.a[0]), b, n, int64_t(c.a[3]));
    });
  }
  // A blocking write to a pipe returns when all of it is in (POSIX): what went in before
  // a wait is remembered, and the call goes on from there when issued again.
  static int64_t write(Call& c) {
    const int64_t fd = int64_t(c.a[0]);
    const uint64_t len = c.a[2];
    uint64_t done = c.t.call_resumed ? c.t.call_progress : 0;
    int64_t n = write_from(c, fd, c.a[1] + done, len - done);
    const void* pipe = c.p.files->pipe_of(fd);
    if (n >= 0 && pipe && !c.p.files->nonblocking(fd) && done + uint64_t(n) < len) {
      c.t.call_progress = done + uint64_t(n);
      c.k.wait_call(c.t, {pipe}, ~0ull, true);
      c.keep_registers = true;
      return 0;
    }
    if (n == LinuxFiles::kWait) {
      c.t.call_progress = done;
      return io_result(c, n);
    }
    if (n < 0) return done ? int64_t(done) : io_result(c, n);
    return int64_t(done) + n;
  }
  static int64_t iov(Call& c, bool to_guest) {
    const uint64_t count = c.a[2];
    if (count > 1024) return -abi::kEinval;
    int64_t total = 0;
    for (uint64_t k = 0; k < count; ++k) {
      uint8_t e[16];
      if (!c.p.copy_in(c.a[1] + 16 * k, e, 16)) return total ? total : -abi::kEfault;
      uint64_t base = emu::Cpu::load_be<uint64_t>(e), len = emu::Cpu::load_be<uint64_t>(e + 8);
      if (!len) continue;
      int64_t n = to_guest ? with_buffer_out(c, base, len, [&](uint8_t* b, uint64_t m) {
        return c.p.files->read(int64_t(c.a[0]), b, m);
      })
                           : write_from(c, int64_t(c.a[0]), base, len);
      if (n < 0) return total ? total : io_result(c, n);
      total += n;
      if (uint64_t(n) < len) break;
    }
    return total;
  }
  static int64_t readv(Call& c) { return iov(c, true); }
  static int64_t writev(Call& c) { return iov(c, false); }
  static int64_t open(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files->openat(abi::kAtFdcwd, path, c.a[1], c.a[2]);
  }
  static int64_t openat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files->openat(int64_t(int32_t(c.a[0])), path, c.a[2], c.a[3]);
  }
  static int64_t close(Call& c) { return c.p.files->close(int64_t(c.a[0])); }
  static int64_t lseek(Call& c) { return c.p.files->lseek(int64_t(c.a[0]), int64_t(c.a[1]), c.a[2]); }
  static int64_t stat_out(Call& c, uint64_t addr, int64_t rc, const uint8_t* st) {
    if (rc < 0) return rc;
    return c.p.copy_out(addr, st, abi::kStatBytes) ? 0 : -abi::kEfault;
  }
  static int64_t fstat(Call& c) {
    uint8_t st[abi::kStatBytes];
    return stat_out(c, c.a[1], c.p.files->fstat(int64_t(c.a[0]), st), st);
  }
  static int64_t newfstatat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    uint8_t st[abi::kStatBytes];
    return stat_out(c, c.a[2], c.p.files->fstatat(int64_t(int32_t(c.a[0])), path, st, c.a[3]), st);
  }
  static int64_t stat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    uint8_t st[abi::kStatBytes];
    return stat_out(c, c.a[1], c.p.files->fstatat(abi::kAtFdcwd, path, st, 0), st);
  }
  static int64_t getdents64(Call& c) {
    return with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t n) { return c.p.files->getdents64(int64_t(c.a[0]), b, n); });
  }
  static int64_t ioctl(Call& c) { return c.p.files->ioctl(int64_t(c.a[0]), c.a[1]); }
  static int64_t fcntl(Call& c) { return c.p.files->fcntl(int64_t(c.a[0]), c.a[1], c.a[2]); }
  static int64_t dup(Call& c) { return c.p.files->dup(int64_t(c.a[0])); }
  static int64_t dup2(Call& c) {
    if (c.a[0] == c.a[1]) return c.p.files->fcntl(int64_t(c.a[0]), 1, 0) < 0 ? -abi::kEbadf : int64_t(c.a[1]);
    return c.p.files->dup3(int64_t(c.a[0]), int64_t(c.a[1]), 0);
  }
  static int64_t dup3(Call& c) { return c.p.files->dup3(int64_t(c.a[0]), int64_t(c.a[1]), c.a[2]); }
  static int64_t pipe2(Call& c) {
    int64_t fds[2];
    if (int64_t e = c.p.files->pipe2(c.a[1], fds)) return e;
    uint8_t b[8];
    emu::Cpu::store_be<uint32_t>(b, uint32_t(fds[0])), emu::Cpu::store_be<uint32_t>(b + 4, uint32_t(fds[1]));
    if (c.p.copy_out(c.a[0], b, 8)) return 0;
    c.p.files->close(fds[0]), c.p.files->close(fds[1]);
    return -abi::kEfault;
  }
  static int64_t pipe(Call& c) {
    c.a[1] = 0;
    return pipe2(c);
  }
  // poll and ppoll: the descriptors' events now, or a wait for a change to any of them
  // (or the timeout, or a signal: -EINTR; never restarted, as signal(7) says).
  static int64_t poll_fds(Call& c, uint64_t addr, uint64_t nfds, uint64_t deadline) {
    if (nfds > 1024) return -abi::kEinval;
    std::vector<uint8_t> b(8 * nfds);
    if (nfds && !c.p.copy_in(addr, b.data(), b.size())) return -abi::kEfault;
    std::vector<const void*> keys;
    int64_t ready = 0;
    for (uint64_t k = 0; k < nfds; ++k) {
      const int64_t fd = int32_t(emu::Cpu::load_be<uint32_t>(&b[8 * k]));
      const uint16_t events = emu::Cpu::load_be<uint16_t>(&b[8 * k + 4]);
      const void* key = nullptr;
      const uint16_t revents = fd < 0 ? 0 : c.p.files->poll(fd, events, key);
      emu::Cpu::store_be<uint16_t>(&b[8 * k + 6], revents);
      if (revents) ++ready;
      if (key) keys.push_back(key);
    }
    if (!ready && (c.t.pending & ~c.t.blocked)) return -abi::kEintr;  // a signal the call's mask lets in
    if (ready || deadline <= c.cpu.cycles || (c.t.call_resumed && c.t.timed_out)) {
      c.k.restore_suspend_mask(c.t);
      if (nfds && !c.p.copy_out(addr, b.data(), b.size())) return -abi::kEfault;
      return ready;
    }
    c.k.wait_call(c.t, std::move(keys), deadline, false);
    c.keep_registers = true;
    return 0;
  }
  static int64_t poll(Call& c) {
    const int64_t ms = int32_t(c.a[2]);
    uint64_t deadline = c.t.call_resumed ? c.t.call_deadline
                        : ms < 0          ? ~0ull
                                          : c.cpu.cycles + c.k.cycles_of_ns(double(ms) * 1e6);
    return poll_fds(c, c.a[0], c.a[1], deadline);
  }
  // A timeout (a timespec, or none) as an I-stream clock, for a call issued the first time.
  static int64_t deadline_of(Call& c, uint64_t ts_addr, uint64_t& deadline) {
    deadline = ~0ull;
    if (c.t.call_resumed) return deadline = c.t.call_deadline, 0;
    if (!ts_addr) return 0;
    int64_t sec, nsec;
    if (int64_t e = read_timespec(c, ts_addr, sec, nsec)) return e;
    deadline = c.cpu.cycles + c.k.cycles_of_ns(double(sec) * 1e9 + double(nsec));
    return 0;
  }
  // ppoll's and pselect6's signal mask holds while the call waits, as rt_sigsuspend's.
  static int64_t call_mask(Call& c, uint64_t mask_addr) {
    if (!mask_addr || c.t.call_resumed) return 0;
    uint8_t b[8];
    if (!c.p.copy_in(mask_addr, b, 8)) return -abi::kEfault;
    c.k.suspend_with_mask(c.t, emu::Cpu::load_be<uint64_t>(b));
    return 0;
  }
  static int64_t ppoll(Call& c) {
    uint64_t deadline;
    if (int64_t e = deadline_of(c, c.a[2], deadline)) return e;
    if (c.a[3] && c.a[4] != 8) return -abi::kEinval;
    if (int64_t e = call_mask(c, c.a[3])) return e;
    return poll_fds(c, c.a[0], c.a[1], deadline);
  }
  // select and pselect6: fd_sets are arrays of 64-bit words, bit fd%64 of word fd/64
  // (big-endian, as the guest stores them).
  static int64_t select_fds(Call& c, uint64_t nfds, const uint64_t sets[3], uint64_t deadline) {
    if (int64_t(nfds) < 0 || nfds > 1024) return -abi::kEinval;
    const uint64_t words = (nfds + 63) / 64;
    std::vector<uint64_t> in[3], out[3];
    for (unsigned s = 0; s < 3; ++s) {
      in[s].assign(words, 0), out[s].assign(words, 0);
      for (uint64_t w = 0; sets[s] && w < words; ++w) {
        uint8_t b[8];
        if (!c.p.copy_in(sets[s] + 8 * w, b, 8)) return -abi::kEfault;
        in[s][w] = emu::Cpu::load_be<uint64_t>(b);
      }
    }
    constexpr uint16_t kPollin = 1, kPollout = 4, kPollpri = 2, kPollerr = 8, kPollhup = 16, kPollnval = 32;
    std::vector<const void*> keys;
    int64_t ready = 0;
    for (uint64_t fd = 0; fd < nfds; ++fd) {
      const uint64_t w = fd / 64, bit = 1ull << (fd % 64);
      const bool r = in[0][w] & bit, wr = in[1][w] & bit, ex = in[2][w] & bit;
      if (!r && !wr && !ex) continue;
      const void* key = nullptr;
      const uint16_t ev = c.p.files->poll(int64_t(fd), uint16_t((r ? kPollin : 0) | (wr ? kPollout : 0) | (ex ? kPollpri : 0)), key);
      if (ev & kPollnval) return -abi::kEbadf;
      if (key) keys.push_back(key);
      if (r && (ev & (kPollin | kPollhup | kPollerr))) out[0][w] |= bit, ++ready;
      if (wr && (ev & (kPollout | kPollerr))) out[1][w] |= bit, ++ready;
      if (ex && (ev & kPollpri)) out[2][w] |= bit, ++ready;
    }
    if (!ready && (c.t.pending & ~c.t.blocked)) return -abi::kEintr;
    if (!ready && deadline > c.cpu.cycles && !(c.t.call_resumed && c.t.timed_out)) {
      c.k.wait_call(c.t, std::move(keys), deadline, false);
      c.keep_registers = true;
      return 0;
    }
    c.k.restore_suspend_mask(c.t);
    for (unsigned s = 0; s < 3; ++s)
      for (uint64_t w = 0; sets[s] && w < words; ++w) {
        uint8_t b[8];
        emu::Cpu::store_be<uint64_t>(b, out[s][w]);
        if (!c.p.copy_out(sets[s] + 8 * w, b, 8)) return -abi::kEfault;
      }
    return ready;
  }
  static int64_t select(Call& c) {
    uint64_t deadline = ~0ull;
    if (c.t.call_resumed) {
      deadline = c.t.call_deadline;
    } else if (c.a[4]) {
      uint8_t tv[16];
      if (!c.p.copy_in(c.a[4], tv, 16)) return -abi::kEfault;
      const int64_t sec = int64_t(emu::Cpu::load_be<uint64_t>(tv)), usec = int64_t(emu::Cpu::load_be<uint64_t>(tv + 8));
      if (sec < 0 || usec < 0 || usec >= 1000000) return -abi::kEinval;
      deadline = c.cpu.cycles + c.k.cycles_of_ns(double(sec) * 1e9 + double(usec) * 1e3);
    }
    const uint64_t sets[3] = {c.a[1], c.a[2], c.a[3]};
    return select_fds(c, c.a[0], sets, deadline);
  }
  static int64_t pselect6(Call& c) {
    uint64_t deadline;
    if (int64_t e = deadline_of(c, c.a[4], deadline)) return e;
    if (c.a[5]) {  // { const sigset_t* ss; size_t ss_len }
      uint8_t b[16];
      if (!c.p.copy_in(c.a[5], b, 16)) return -abi::kEfault;
      const uint64_t mask = emu::Cpu::load_be<uint64_t>(b);
      if (mask && emu::Cpu::load_be<uint64_t>(b + 8) != 8) return -abi::kEinval;
      if (int64_t e = call_mask(c, mask)) return e;
    }
    const uint64_t sets[3] = {c.a[1], c.a[2], c.a[3]};
    return select_fds(c, c.a[0], sets, deadline);
  }
  static int64_t readlink_path(Call& c, int64_t dirfd, const std::string& path, uint64_t buf, uint64_t size) {
    if (int64_t(size) <= 0) return -abi::kEinval;
    std::string target;
    if (path == "/proc/self/exe") target = c.p.exe_path;
    else if (int64_t e = c.p.files->readlinkat(dirfd, path, target)) return e;
    uint64_t n = std::min<uint64_t>(target.size(), size);
    return c.p.copy_out(buf, target.data(), n) ? int64_t(n) : -abi::kEfault;
  }
  static int64_t readlink(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return readlink_path(c, abi::kAtFdcwd, path, c.a[1], c.a[2]);
  }
  static int64_t readlinkat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return readlink_path(c, int64_t(int32_t(c.a[0])), path, c.a[2], c.a[3]);
  }
  static int64_t unlink(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files->unlinkat(abi::kAtFdcwd, path, 0);
  }
  static int64_t rmdir(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files->unlinkat(abi::kAtFdcwd, path, 0x200);
  }
  static int64_t unlinkat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files->unlinkat(int64_t(int32_t(c.a[0])), path, c.a[2]);
  }
  static int64_t mkdir(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files->mkdirat(abi::kAtFdcwd, path, c.a[1]);
  }
  static int64_t mkdirat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files->mkdirat(int64_t(int32_t(c.a[0])), path, c.a[2]);
  }
  static int64_t access(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files->faccessat(abi::kAtFdcwd, path);
  }
  static int64_t faccessat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files->faccessat(int64_t(int32_t(c.a[0])), path);
  }
  static int64_t ftruncate(Call& c) { return c.p.files->ftruncate(int64_t(c.a[0]), int64_t(c.a[1])); }
  static int64_t fsync(Call& c) { return c.p.files->fsync(int64_t(c.a[0])); }
  static int64_t getcwd(Call& c) {
    const std::string& cwd = c.p.files->cwd();
    if (c.a[1] < cwd.size() + 1) return -abi::kErange;
    return c.p.copy_out(c.a[0], cwd.c_str(), cwd.size() + 1) ? int64_t(cwd.size() + 1) : -abi::kEfault;
  }
  static int64_t chdir(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    if (path.empty()) return -abi::kEnoent;
    return c.p.files->chdir(abi::kAtFdcwd, path);
  }
  static int64_t fchdir(Call& c) { return c.p.files->chdir(int64_t(int32_t(c.a[0])), ""); }
  static int64_t rename_at(Call& c, int64_t old_dirfd, uint64_t old_addr, int64_t new_dirfd, uint64_t new_addr,
                           uint64_t flags) {
    std::string from, to;
    if (int64_t e = path_arg(c, old_addr, from)) return e;
    if (int64_t e = path_arg(c, new_addr, to)) return e;
    return c.p.files->renameat2(old_dirfd, from, new_dirfd, to, flags);
  }
  static int64_t rename(Call& c) { return rename_at(c, abi::kAtFdcwd, c.a[0], abi::kAtFdcwd, c.a[1], 0); }
  static int64_t renameat(Call& c) {
    return rename_at(c, int64_t(int32_t(c.a[0])), c.a[1], int64_t(int32_t(c.a[2])), c.a[3], 0);
  }
  static int64_t renameat2(Call& c) {
    return rename_at(c, int64_t(int32_t(c.a[0])), c.a[1], int64_t(int32_t(c.a[2])), c.a[3], c.a[4]);
  }
  static int64_t chmod(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    if (path.empty()) return -abi::kEnoent;
    return c.p.files->fchmodat(abi::kAtFdcwd, path, c.a[1]);
  }
  static int64_t fchmod(Call& c) { return c.p.files->fchmodat(int64_t(int32_t(c.a[0])), "", c.a[1]); }
  static int64_t fchmodat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    if (path.empty()) return -abi::kEnoent;
    return c.p.files->fchmodat(int64_t(int32_t(c.a[0])), path, c.a[2]);
  }
  static int64_t truncate(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files->truncate(path, int64_t(c.a[1]));
  }
  static int64_t symlink_at(Call& c, uint64_t target_addr, int64_t dirfd, uint64_t path_addr) {
    std::string target, path;
    if (int64_t e = path_arg(c, target_addr, target)) return e;
    if (int64_t e = path_arg(c, path_addr, path)) return e;
    return c.p.files->symlinkat(target, dirfd, path);
  }
  static int64_t symlink(Call& c) { return symlink_at(c, c.a[0], abi::kAtFdcwd, c.a[1]); }
  static int64_t symlinkat(Call& c) { return symlink_at(c, c.a[0], int64_t(int32_t(c.a[1])), c.a[2]); }
  // utimensat and the older utime/utimes: times are set as given, or to the simulated
  // wall clock for UTIME_NOW (or no times at all).
  static constexpr int64_t kUtimeNow = (1 << 30) - 1, kUtimeOmit = (1 << 30) - 2;
  static int64_t set_times(Call& c, int64_t dirfd, uint64_t path_addr, int64_t times[4], uint64_t flags) {
    std::string path;
    if (path_addr) {
      if (int64_t e = path_arg(c, path_addr, path)) return e;
      if (path.empty() && !(flags & abi::kAtEmptyPath)) return -abi::kEnoent;
    }
    const uint64_t ns = c.k.now_ns(c.cpu);
    for (int k = 0; k < 4; k += 2)
      if (times[k + 1] == kUtimeNow)
        times[k] = int64_t(kEpochSeconds + ns / 1000000000), times[k + 1] = int64_t(ns % 1000000000);
    return c.p.files->utimensat(dirfd, path, times, flags);
  }
  static int64_t utimensat(Call& c) {
    int64_t times[4] = {0, kUtimeNow, 0, kUtimeNow};
    if (c.a[2]) {
      uint8_t b[32];
      if (!c.p.copy_in(c.a[2], b, 32)) return -abi::kEfault;
      for (int k = 0; k < 4; ++k) times[k] = int64_t(emu::Cpu::load_be<uint64_t>(b + 8 * k));
      for (int k = 1; k < 4; k += 2)
        if (times[k] != kUtimeNow && times[k] != kUtimeOmit && (times[k] < 0 || times[k] >= 1000000000))
          return -abi::kEinval;
    }
    return set_times(c, int64_t(int32_t(c.a[0])), c.a[1], times, c.a[3]);
  }
  static int64_t utime(Call& c) {  // struct utimbuf { time_t actime, modtime; }
    int64_t times[4] = {0, kUtimeNow, 0, kUtimeNow};
    if (c.a[1]) {
      uint8_t b[16];
      if (!c.p.copy_in(c.a[1], b, 16)) return -abi::kEfault;
      times[0] = int64_t(emu::Cpu::load_be<uint64_t>(b)), times[1] = 0;
      times[2] = int64_t(emu::Cpu::load_be<uint64_t>(b + 8)), times[3] = 0;
    }
    return set_times(c, abi::kAtFdcwd, c.a[0], times, 0);
  }
  static int64_t utimes(Call& c) {  // struct timeval[2]
    int64_t times[4] = {0, kUtimeNow, 0, kUtimeNow};
    if (c.a[1]) {
      uint8_t b[32];
      if (!c.p.copy_in(c.a[1], b, 32)) return -abi::kEfault;
      for (int k = 0; k < 4; k += 2) {
        const int64_t sec = int64_t(emu::Cpu::load_be<uint64_t>(b + 8 * k));
        const int64_t usec = int64_t(emu::Cpu::load_be<uint64_t>(b + 8 * k + 8));
        if (usec < 0 || usec >= 1000000) return -abi::kEinval;
        times[k] = sec, times[k + 1] = usec * 1000;
      }
    }
    return set_times(c, abi::kAtFdcwd, c.a[0], times, 0);
  }

  // --- sockets (linux/linux_files.h: TCP on loopback between this run's processes,
  // AF_UNIX socketpairs) ----------------------------------------------------------------
  static constexpr int64_t kEopnotsupp = 95;
  static constexpr uint64_t kMsgDontwait = 0x40, kMsgNosignal = 0x4000, kMsgMore = 0x8000;
  static int64_t socket(Call& c) { return c.p.files->socket(c.a[0], c.a[1], c.a[2]); }
  static int64_t socketpair(Call& c) {
    int64_t fds[2];
    if (int64_t e = c.p.files->socketpair(c.a[0], c.a[1], c.a[2], fds)) return e;
    uint8_t b[8];
    emu::Cpu::store_be<uint32_t>(b, uint32_t(fds[0])), emu::Cpu::store_be<uint32_t>(b + 4, uint32_t(fds[1]));
    if (c.p.copy_out(c.a[3], b, 8)) return 0;
    c.p.files->close(fds[0]), c.p.files->close(fds[1]);
    return -abi::kEfault;
  }
  // A socket address from the guest (at most 128 bytes, struct sockaddr_storage).
  static int64_t sockaddr_arg(Call& c, uint64_t addr, uint64_t len, std::vector<uint8_t>& b) {
    if (int64_t(int32_t(len)) < 0 || len > 128) return -abi::kEinval;
    b.assign(std::max<uint64_t>(len, 16), 0);
    return c.p.copy_in(addr, b.data(), len) ? 0 : -abi::kEfault;
  }
  // Writes an address back as the kernel does: as much as *len_addr allows, and the
  // address's full length to *len_addr.
  static int64_t put_sockaddr(Call& c, uint64_t addr, uint64_t len_addr, const uint8_t* a, uint64_t n) {
    if (!addr) return 0;
    uint8_t lb[4];
    if (!c.p.copy_in(len_addr, lb, 4)) return -abi::kEfault;
    const int32_t room = int32_t(emu::Cpu::load_be<uint32_t>(lb));
    if (room < 0) return -abi::kEinval;
    if (!c.p.copy_out(addr, a, std::min<uint64_t>(n, uint64_t(room)))) return -abi::kEfault;
    emu::Cpu::store_be<uint32_t>(lb, uint32_t(n));
    return c.p.copy_out(len_addr, lb, 4) ? 0 : -abi::kEfault;
  }
  static int64_t bind(Call& c) {
    std::vector<uint8_t> a;
    if (int64_t e = sockaddr_arg(c, c.a[1], c.a[2], a)) return e;
    return c.p.files->bind(int64_t(int32_t(c.a[0])), a.data(), c.a[2]);
  }
  static int64_t connect(Call& c) {
    std::vector<uint8_t> a;
    if (int64_t e = sockaddr_arg(c, c.a[1], c.a[2], a)) return e;
    return io_result(c, c.p.files->connect(int64_t(int32_t(c.a[0])), a.data(), c.a[2]));
  }
  static int64_t listen(Call& c) { return c.p.files->listen(int64_t(int32_t(c.a[0])), int64_t(int32_t(c.a[1]))); }
  static int64_t accept4(Call& c) {
    uint8_t peer[16];
    uint64_t n = 0;
    const int64_t fd = c.p.files->accept(int64_t(int32_t(c.a[0])), c.a[3], peer, n);
    if (fd < 0) return io_result(c, fd);
    if (int64_t e = put_sockaddr(c, c.a[1], c.a[2], peer, n)) return c.p.files->close(fd), e;
    return fd;
  }
  static int64_t sockname_call(Call& c, bool peer) {
    uint8_t a[16];
    const int64_t n = c.p.files->sockname(int64_t(int32_t(c.a[0])), peer, a);
    if (n < 0) return n;
    if (!c.a[1]) return -abi::kEfault;
    return put_sockaddr(c, c.a[1], c.a[2], a, uint64_t(n));
  }
  static int64_t getsockname(Call& c) { return sockname_call(c, false); }
  static int64_t getpeername(Call& c) { return sockname_call(c, true); }
  static int64_t getsockopt(Call& c) {
    int32_t value = 0;
    if (int64_t e = c.p.files->getsockopt(int64_t(int32_t(c.a[0])), c.a[1], c.a[2], value)) return e;
    uint8_t lb[4];
    if (!c.p.copy_in(c.a[4], lb, 4)) return -abi::kEfault;
    const int32_t room = int32_t(emu::Cpu::load_be<uint32_t>(lb));
    if (room < 0) return -abi::kEinval;
    uint8_t vb[4];
    emu::Cpu::store_be<uint32_t>(vb, uint32_t(value));
    const uint64_t n = std::min<uint64_t>(4, uint64_t(room));
    if (!c.p.copy_out(c.a[3], vb, n)) return -abi::kEfault;
    emu::Cpu::store_be<uint32_t>(lb, uint32_t(n));
    return c.p.copy_out(c.a[4], lb, 4) ? 0 : -abi::kEfault;
  }
  static int64_t setsockopt(Call& c) {
    if (int64_t(int32_t(c.a[4])) < 4) return -abi::kEinval;  // every option here is an int
    uint8_t vb[4];
    if (!c.p.copy_in(c.a[3], vb, 4)) return -abi::kEfault;
    return c.p.files->setsockopt(int64_t(int32_t(c.a[0])), c.a[1], c.a[2], int32_t(emu::Cpu::load_be<uint32_t>(vb)));
  }
  // sendto and recvfrom on a connected stream: the address is not used (nor given back).
  // A blocking send returns when all of it is in, as write does.
  static int64_t sendto(Call& c) {
    const int64_t fd = int64_t(int32_t(c.a[0]));
    const uint64_t len = c.a[2], flags = c.a[3];
    if (flags & ~(kMsgDontwait | kMsgNosignal | kMsgMore)) return -kEopnotsupp;
    const bool dontwait = flags & kMsgDontwait;
    uint64_t done = c.t.call_resumed ? c.t.call_progress : 0;
    std::vector<uint8_t> buf(std::min(len - done, kChunk));
    if (!c.p.copy_in(c.a[1] + done, buf.data(), buf.size())) return done ? int64_t(done) : -abi::kEfault;
    int64_t n = c.p.files->send(fd, buf.data(), buf.size(), dontwait);
    if (n == LinuxFiles::kWait || (n >= 0 && !dontwait && !c.p.files->nonblocking(fd) && done + uint64_t(n) < len)) {
      c.t.call_progress = done + uint64_t(std::max<int64_t>(n, 0));
      c.k.wait_call(c.t, {n == LinuxFiles::kWait ? c.p.files->wait_key() : c.p.files->pipe_of(fd)}, ~0ull, true);
      c.keep_registers = true;
      return 0;
    }
    if (n == LinuxFiles::kBrokenPipe && (flags & kMsgNosignal)) return done ? int64_t(done) : -abi::kEpipe;
    if (n < 0) return done ? int64_t(done) : io_result(c, n);
    return int64_t(done) + n;
  }
  static int64_t recvfrom(Call& c) {
    const uint64_t flags = c.a[3];
    if (flags & ~kMsgDontwait) return -kEopnotsupp;  // MSG_PEEK, MSG_WAITALL, ...: not here
    const int64_t n = with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t m) {
      return c.p.files->recv(int64_t(int32_t(c.a[0])), b, m, flags & kMsgDontwait);
    });
    if (n < 0) return io_result(c, n);
    if (c.a[4] && c.a[5]) {  // a stream socket gives no source address: its length is 0
      uint8_t lb[4] = {};
      if (!c.p.copy_out(c.a[5], lb, 4)) return -abi::kEfault;
    }
    return n;
  }
  static int64_t shutdown(Call& c) { return c.p.files->shutdown(int64_t(int32_t(c.a[0])), c.a[1]); }
  // socketcall(call, args): the socket calls through one number, their arguments in an
  // array of longs (glibc on s390x uses it).
  static int64_t socketcall(Call& c) {
    static constexpr uint8_t kArgs[21] = {0, 3, 3, 3, 2, 3, 3, 3, 4, 4, 4, 6, 6, 2, 5, 5, 3, 3, 4, 5, 4};
    const uint64_t call = c.a[0];
    if (call < 1 || call > 20) return -abi::kEinval;
    uint8_t b[48];
    if (!c.p.copy_in(c.a[1], b, 8u * kArgs[call])) return -abi::kEfault;
    for (unsigned k = 0; k < 6; ++k) c.a[k] = k < kArgs[call] ? emu::Cpu::load_be<uint64_t>(b + 8 * k) : 0;
    switch (call) {
      case 1: return socket(c);
      case 2: return bind(c);
      case 3: return connect(c);
      case 4: return listen(c);
      case 5: return accept4(c);  // accept: flags 0
      case 6: return getsockname(c);
      case 7: return getpeername(c);
      case 8: return socketpair(c);
      case 9: case 11: return sendto(c);  // send: no address
      case 10: case 12: return recvfrom(c);
      case 13: return shutdown(c);
      case 14: return setsockopt(c);
      case 15: return getsockopt(c);
      case 18: return accept4(c);
      default: return -abi::kEnosys;  // sendmsg, recvmsg, recvmmsg, sendmmsg: not here
    }
  }

  // --- System V shared memory -------------------------------------------------------
  // Attached segments are not inherited across fork here (the child's copy of the
  // space holds only its own pages): a child must shmat itself.
  static constexpr uint64_t kIpcCreat = 01000, kIpcExcl = 02000, kIpcRmid = 0, kIpcStat = 2, kShmRdonly = 010000,
                            kShmRnd = 020000, kShmMax = 1ull << 30;
  static void shm_release(LinuxKernel& k, int id) {
    auto it = k.shm_.find(id);
    if (it == k.shm_.end() || !it->second.removed || it->second.attaches) return;
    for (uint64_t f : it->second.frames) k.machine_.storage().free_4k(f);
    k.shm_.erase(it);
  }
  static int64_t shmget(Call& c) {
    const uint64_t key = uint64_t(int64_t(int32_t(c.a[0]))), size = c.a[1], flags = c.a[2];
    if (key != 0)  // not IPC_PRIVATE: the segment of that key, if one is there
      for (auto& [id, seg] : c.k.shm_)
        if (seg.key == key && !seg.removed) {
          if ((flags & kIpcCreat) && (flags & kIpcExcl)) return -abi::kEexist;
          if (size > seg.size) return -abi::kEinval;
          return id;
        }
    if (key != 0 && !(flags & kIpcCreat)) return -abi::kEnoent;
    if (size == 0 || size > kShmMax) return -abi::kEinval;
    LinuxKernel::ShmSegment seg;
    seg.key = key, seg.size = size, seg.mode = uint32_t(flags & 0777);
    for (uint64_t n = 0; n < emu::page_up(size) / emu::kPageSize; ++n) {
      auto f = c.k.machine_.storage().allocate_4k();
      if (!f) {
        for (uint64_t g : seg.frames) c.k.machine_.storage().free_4k(g);
        return -abi::kEnomem;
      }
      emu::Storage& storage = c.k.machine_.storage();
      storage.clear(storage.frame(*f));
      seg.frames.push_back(*f);
    }
    const int id = c.k.next_shm_++;
    c.k.shm_[id] = std::move(seg);
    return id;
  }
  static int64_t shmat(Call& c) {
    const int id = int(int32_t(c.a[0]));
    uint64_t addr = c.a[1];
    const uint64_t flags = c.a[2];
    auto it = c.k.shm_.find(id);
    if (it == c.k.shm_.end() || it->second.removed) return -abi::kEinval;
    LinuxKernel::ShmSegment& seg = it->second;
    if (addr && (flags & kShmRnd)) addr &= ~(emu::kPageSize - 1);
    if (addr & (emu::kPageSize - 1)) return -abi::kEinval;
    const uint64_t len = seg.frames.size() * emu::kPageSize;
    const uint64_t prot = abi::kProtRead | ((flags & kShmRdonly) ? 0 : abi::kProtWrite);
    // The range is mapped as anonymous memory first (that places and records it), then
    // its pages are pointed at the segment's frames.
    const int64_t at = c.p.memory->mmap(addr, len, prot, abi::kMapShared | abi::kMapAnonymous | (addr ? abi::kMapFixed : 0));
    if (at < 0) return at;
    const uint8_t rights = c.p.space->prot_of(uint64_t(at));
    for (uint64_t n = 0; n < seg.frames.size(); ++n) c.p.space->map_shared(uint64_t(at) + n * emu::kPageSize, seg.frames[n], rights);
    ++seg.attaches;
    c.k.shm_attached_[{c.p.pid, uint64_t(at)}] = id;
    return at;
  }
  static int64_t shmdt(Call& c) {
    auto it = c.k.shm_attached_.find({c.p.pid, c.a[0]});
    if (it == c.k.shm_attached_.end()) return -abi::kEinval;
    const int id = it->second;
    c.k.shm_attached_.erase(it);
    auto seg = c.k.shm_.find(id);
    if (seg == c.k.shm_.end()) return -abi::kEinval;
    c.p.memory->munmap(c.a[0], seg->second.frames.size() * emu::kPageSize);
    --seg->second.attaches;
    shm_release(c.k, id);
    return 0;
  }
  static int64_t shmctl(Call& c) {
    const int id = int(int32_t(c.a[0]));
    const uint64_t cmd = c.a[1] & 0xFF;  // without IPC_64
    auto it = c.k.shm_.find(id);
    if (it == c.k.shm_.end()) return -abi::kEinval;
    if (cmd == kIpcRmid) {
      it->second.removed = true;
      shm_release(c.k, id);
      return 0;
    }
    if (cmd == kIpcStat) {  // struct shmid64_ds (s390x): the fields a program reads
      uint8_t b[112] = {};
      const LinuxKernel::ShmSegment& seg = it->second;
      emu::Cpu::store_be<uint32_t>(b, uint32_t(seg.key));
      emu::Cpu::store_be<uint32_t>(b + 4, LinuxKernel::kUid), emu::Cpu::store_be<uint32_t>(b + 8, LinuxKernel::kGid);
      emu::Cpu::store_be<uint32_t>(b + 12, LinuxKernel::kUid), emu::Cpu::store_be<uint32_t>(b + 16, LinuxKernel::kGid);
      emu::Cpu::store_be<uint32_t>(b + 20, seg.mode | (seg.removed ? 01000 : 0));
      emu::Cpu::store_be<uint64_t>(b + 48, seg.size);
      emu::Cpu::store_be<uint64_t>(b + 88, seg.attaches);  // shm_nattch, after the times and pids
      return c.p.copy_out(c.a[2], b, sizeof b) ? 0 : -abi::kEfault;
    }
    return -abi::kEinval;
  }
  // ipc(call, first, second, third, ptr, fifth): the System V calls through one number
  // (glibc on s390x uses it); shared memory only.
  static int64_t ipc(Call& c) {
    const uint64_t call = c.a[0] & 0xFFFF, first = c.a[1], second = c.a[2], third = c.a[3], ptr = c.a[4];
    switch (call) {
      case 21: {  // SHMAT: the address goes to *third
        c.a[0] = first, c.a[1] = ptr, c.a[2] = second;
        const int64_t at = shmat(c);
        if (at < 0) return at;
        return put_u64s(c, third, {uint64_t(at)});
      }
      case 22: c.a[0] = ptr; return shmdt(c);
      case 23: c.a[0] = first, c.a[1] = second, c.a[2] = third; return shmget(c);
      case 24: c.a[0] = first, c.a[1] = second, c.a[2] = ptr; return shmctl(c);
      default: return -abi::kEnosys;  // semaphores and message queues: not here
    }
  }

  // --- signals ------------------------------------------------------------------------------
  static int64_t rt_sigaction(Call& c) {
    const uint64_t signo = c.a[0];
    if (signo < 1 || signo > 64 || c.a[3] != 8) return -abi::kEinval;
    SigAction& a = c.p.actions[signo];
    SigAction next = a;
    if (c.a[1]) {
      if (signo == uint64_t(abi::kSigkill) || signo == uint64_t(abi::kSigstop)) return -abi::kEinval;
      uint8_t b[32];
      if (!c.p.copy_in(c.a[1], b, 32)) return -abi::kEfault;
      next.handler = emu::Cpu::load_be<uint64_t>(b), next.flags = emu::Cpu::load_be<uint64_t>(b + 8);
      next.restorer = emu::Cpu::load_be<uint64_t>(b + 16), next.mask = emu::Cpu::load_be<uint64_t>(b + 24);
    }
    if (c.a[2] && put_u64s(c, c.a[2], {a.handler, a.flags, a.restorer, a.mask}) < 0) return -abi::kEfault;
    a = next;
    return 0;
  }
  static int64_t rt_sigprocmask(Call& c) {
    if (c.a[3] != 8) return -abi::kEinval;
    uint64_t old = c.t.blocked;
    if (c.a[1]) {
      uint8_t b[8];
      if (!c.p.copy_in(c.a[1], b, 8)) return -abi::kEfault;
      uint64_t set = emu::Cpu::load_be<uint64_t>(b);
      switch (c.a[0]) {
        case abi::kSigBlock: c.t.blocked |= set; break;
        case abi::kSigUnblock: c.t.blocked &= ~set; break;
        case abi::kSigSetmask: c.t.blocked = set; break;
        default: return -abi::kEinval;
      }
      c.t.blocked &= ~((1ull << (abi::kSigkill - 1)) | (1ull << (abi::kSigstop - 1)));
    }
    return c.a[2] ? put_u64s(c, c.a[2], {old}) : 0;
  }
  static int64_t rt_sigpending(Call& c) { return put_u64s(c, c.a[0], {c.t.pending}); }
  static int64_t sigaltstack(Call& c) {
    LinuxThread& t = c.t;
    const uint64_t sp = c.cpu.gr[15];
    const bool on = t.altstack_size && sp > t.altstack_sp && sp - t.altstack_sp <= t.altstack_size;
    if (c.a[1]) {
      uint8_t b[24];
      emu::Cpu::store_be<uint64_t>(b, t.altstack_sp);
      emu::Cpu::store_be<uint32_t>(b + 8, uint32_t(on ? abi::kSsOnstack : t.altstack_flags));
      emu::Cpu::store_be<uint32_t>(b + 12, 0);
      emu::Cpu::store_be<uint64_t>(b + 16, t.altstack_size);
      if (!c.p.copy_out(c.a[1], b, 24)) return -abi::kEfault;
    }
    if (c.a[0]) {
      uint8_t b[24];
      if (!c.p.copy_in(c.a[0], b, 24)) return -abi::kEfault;
      if (on) return -abi::kEperm;
      const uint32_t flags = emu::Cpu::load_be<uint32_t>(b + 8);
      const uint64_t size = emu::Cpu::load_be<uint64_t>(b + 16);
      if (flags & ~uint32_t(abi::kSsDisable)) return -abi::kEinval;
      if (flags & abi::kSsDisable) {
        t.altstack_sp = t.altstack_size = 0, t.altstack_flags = abi::kSsDisable;
      } else {
        constexpr uint64_t kMinSigstksz = 2048;
        if (size < kMinSigstksz) return -abi::kEnomem;
        t.altstack_sp = emu::Cpu::load_be<uint64_t>(b), t.altstack_size = size, t.altstack_flags = 0;
      }
    }
    return 0;
  }
  static int64_t rt_sigreturn(Call& c) {
    c.keep_registers = true;
    if (!c.k.sigreturn(c.t)) c.k.kill_process(c.p, abi::kSigsegv);
    return 0;
  }
  static SignalInfo user_signal(Call& c, uint64_t signo, int code) {
    SignalInfo info;
    info.signo = int(signo), info.code = code, info.pid = uint32_t(c.p.pid), info.uid = LinuxKernel::kUid;
    return info;
  }
  static LinuxThread* thread_by_tid(Call& c, int64_t tid) {
    for (auto& t : c.k.threads_)
      if (t->tid == tid && !t->exited) return t.get();
    return nullptr;
  }
  // kill's targets: one process (pid > 0), the caller's group (0), every process but
  // init (-1), or the group -pid.
  static int64_t kill(Call& c) {
    const int64_t pid = int64_t(int32_t(c.a[0]));
    const uint64_t signo = c.a[1];
    if (signo > 64) return -abi::kEinval;
    std::vector<LinuxProcess*> to;
    for (auto& [id, q] : c.k.processes_) {
      if (q->ended) continue;
      if (pid > 0 ? q->pid == pid : pid == 0 ? q->pgid == c.p.pgid : pid == -1 ? true : q->pgid == -pid)
        to.push_back(q.get());
    }
    if (to.empty()) return -abi::kEsrch;
    if (signo == 0) return 0;  // only the check that the target exists
    for (LinuxProcess* q : to) {
      // The caller's own process: the calling thread takes it first, as Linux's
      // signal delivery prefers the current thread.
      if (q == &c.p && !(c.t.blocked >> (signo - 1) & 1)) c.k.post_signal(c.t, user_signal(c, signo, abi::kSiUser));
      else c.k.post_process_signal(*q, user_signal(c, signo, abi::kSiUser));
    }
    return 0;
  }
  static int64_t tgkill(Call& c) {
    LinuxThread* t = thread_by_tid(c, int64_t(int32_t(c.a[1])));
    if (!t || !t->proc || t->proc->pid != int64_t(int32_t(c.a[0]))) return -abi::kEsrch;
    return tkill_to(c, *t, c.a[2]);
  }
  static int64_t tkill(Call& c) {
    LinuxThread* t = thread_by_tid(c, int64_t(int32_t(c.a[0])));
    return t ? tkill_to(c, *t, c.a[1]) : -abi::kEsrch;
  }
  static int64_t tkill_to(Call& c, LinuxThread& t, uint64_t signo) {
    if (signo > 64) return -abi::kEinval;
    if (signo) c.k.post_signal(t, user_signal(c, signo, abi::kSiTkill));
    return 0;
  }
  static int64_t rt_sigqueueinfo(Call& c) {
    LinuxProcess* q = c.k.process(int(int32_t(c.a[0])));
    if (!q || q->ended) return -abi::kEsrch;
    if (c.a[1] < 1 || c.a[1] > 64) return -abi::kEinval;
    uint8_t si[abi::kSiginfoBytes];
    if (!c.p.copy_in(c.a[2], si, sizeof si)) return -abi::kEfault;
    SignalInfo info = user_signal(c, c.a[1], int(int32_t(emu::Cpu::load_be<uint32_t>(si + abi::kSiCode))));
    info.value = emu::Cpu::load_be<uint64_t>(si + abi::kSiValue);
    c.k.post_process_signal(*q, info);
    return 0;
  }

  // --- processes ----------------------------------------------------------------------
  // wait4's and waitid's choice of child: any (-1 / P_ALL), one (pid / P_PID), the
  // caller's group (0) or a group (-pgid / P_PGID).
  static bool chosen(const LinuxProcess& child, const LinuxProcess& parent, int64_t pid) {
    if (pid == -1) return true;
    if (pid > 0) return child.pid == pid;
    return child.pgid == (pid == 0 ? parent.pgid : -pid);
  }
  // The zombie child wait collects (nullptr: none ended yet); -ECHILD when there is no
  // such child at all.
  static int64_t find_child(Call& c, int64_t pid, LinuxProcess*& found) {
    found = nullptr;
    bool any = false;
    for (auto& [id, q] : c.k.processes_) {
      if (q->ppid != c.p.pid || !chosen(*q, c.p, pid)) continue;
      any = true;
      if (q->ended) {
        found = q.get();
        break;
      }
    }
    return any ? 0 : -abi::kEchild;
  }
  static constexpr uint64_t kWnohang = 1, kWexited = 4, kWnowait = 0x01000000;
  static int64_t wait4(Call& c) {
    const int64_t pid = int64_t(int32_t(c.a[0]));
    const uint64_t status_addr = c.a[1], options = c.a[2], rusage = c.a[3];
    if (pid == INT32_MIN) return -abi::kEsrch;
    if (options & ~(kWnohang | 2 | 8 | 0x20000000 | 0x40000000 | 0x80000000ull)) return -abi::kEinval;
    LinuxProcess* child;
    if (int64_t e = find_child(c, pid, child)) return e;
    if (!child) {
      if (options & kWnohang) return 0;
      c.k.wait_call(c.t, {&c.p}, ~0ull, true);  // a child's end wakes it
      c.keep_registers = true;
      return 0;
    }
    uint8_t st[4];
    emu::Cpu::store_be<uint32_t>(st, uint32_t(child->status));
    if (status_addr && !c.p.copy_out(status_addr, st, 4)) return -abi::kEfault;
    if (rusage && put_rusage(c, rusage, *child) < 0) return -abi::kEfault;
    const int id = child->pid;
    c.k.reap(*child);
    return id;
  }
  static int64_t waitid(Call& c) {
    constexpr uint64_t kPAll = 0, kPPid = 1, kPPgid = 2;
    const uint64_t idtype = c.a[0], options = c.a[3];
    const int64_t id = int64_t(int32_t(c.a[1]));
    if (idtype > kPPgid || !(options & kWexited)) return -abi::kEinval;
    const int64_t pid = idtype == kPAll ? -1 : idtype == kPPid ? id : (id ? -id : 0);
    if (idtype == kPPid && id <= 0) return -abi::kEinval;
    LinuxProcess* child;
    if (int64_t e = find_child(c, pid, child)) return e;
    uint8_t si[abi::kSiginfoBytes] = {};
    if (!child) {
      if (!(options & kWnohang)) {
        c.k.wait_call(c.t, {&c.p}, ~0ull, true);
        c.keep_registers = true;
        return 0;
      }
      return c.a[2] && !c.p.copy_out(c.a[2], si, sizeof si) ? -abi::kEfault : 0;  // si_pid 0: none yet
    }
    SignalInfo info;
    info.signo = abi::kSigchld, info.child = true, info.pid = uint32_t(child->pid), info.uid = LinuxKernel::kUid;
    const int signo = child->status & 0x7F;
    info.code = signo ? abi::kCldKilled : abi::kCldExited;
    info.status = signo ? signo : (child->status >> 8) & 0xFF;
    write_siginfo(si, info);
    if (c.a[2] && !c.p.copy_out(c.a[2], si, sizeof si)) return -abi::kEfault;
    if (c.a[4] && put_rusage(c, c.a[4], *child) < 0) return -abi::kEfault;
    if (!(options & kWnowait)) c.k.reap(*child);
    return 0;
  }
  // struct rusage: the user and system times (the child's simulated CPU time counts as
  // user time); every other field 0.
  static int64_t put_rusage(Call& c, uint64_t addr, const LinuxProcess& who) {
    uint8_t b[144] = {};
    const double ghz = c.cpu.clock_ghz;
    const uint64_t us = uint64_t(double(who.cpu_cycles + who.children_cycles) / ghz / 1000);
    emu::Cpu::store_be<uint64_t>(b, us / 1000000), emu::Cpu::store_be<uint64_t>(b + 8, us % 1000000);
    return c.p.copy_out(addr, b, sizeof b) ? 0 : -abi::kEfault;
  }
  static int64_t getrusage(Call& c) {
    const int64_t who = int64_t(int32_t(c.a[0]));
    if (who != 0 && who != -1 && who != 1) return -abi::kEinval;  // SELF, CHILDREN, THREAD
    LinuxProcess shown(0, nullptr, nullptr, nullptr, nullptr);
    shown.cpu_cycles = who == -1 ? c.p.children_cycles : c.p.cpu_cycles + (c.cpu.cycles - c.t.loaded_at);
    return put_rusage(c, c.a[1], shown);
  }
  static int64_t times(Call& c) {
    // struct tms in clock ticks (100 a second); returns the ticks since boot.
    const double ticks_per_cycle = 100.0 / (c.cpu.clock_ghz * 1e9);
    const uint64_t self = uint64_t(double(c.p.cpu_cycles + (c.cpu.cycles - c.t.loaded_at)) * ticks_per_cycle);
    const uint64_t children = uint64_t(double(c.p.children_cycles) * ticks_per_cycle);
    if (c.a[0] && put_u64s(c, c.a[0], {self, 0, children, 0}) < 0) return -abi::kEfault;
    return int64_t(double(c.cpu.cycles) * ticks_per_cycle);
  }
  // execve's argv or envp. Linux takes at most a quarter of the stack limit for both
  // (2 MB of the 8 MB stack), each string at most MAX_ARG_STRLEN (128 KB): past either,
  // -E2BIG; `budget` is what is left of the 2 MB, so a guest cannot make the host hold
  // more.
  static int64_t string_array(Call& c, uint64_t addr, std::vector<std::string>& out, uint64_t& budget) {
    constexpr uint64_t kMaxArgStrlen = 131072;
    out.clear();
    for (uint64_t at = addr; addr; at += 8) {
      uint8_t w[8];
      if (!c.p.copy_in(at, w, 8)) return -abi::kEfault;
      const uint64_t s = emu::Cpu::load_be<uint64_t>(w);
      if (!s) break;
      if (budget < 8) return -abi::kE2big;
      budget -= 8;  // its pointer on the new stack
      out.emplace_back();
      if (!c.p.read_string(s, out.back(), std::min(kMaxArgStrlen, budget))) {
        const bool too_long = out.back().size() == std::min(kMaxArgStrlen, budget);
        return too_long ? -abi::kE2big : -abi::kEfault;
      }
      budget -= out.back().size() + 1;  // read_string stopped short of the limit, so it fits
    }
    return 0;
  }
  static constexpr uint64_t kAtSymlinkNofollow = 0x100;
  static int64_t execve_at(Call& c, int64_t dirfd, uint64_t path_addr, uint64_t argv_addr, uint64_t envp_addr,
                           uint64_t flags) {
    std::string path;
    if (int64_t e = path_arg(c, path_addr, path)) return e;
    if (flags & ~(abi::kAtEmptyPath | kAtSymlinkNofollow)) return -abi::kEinval;
    if (path.empty() && !(flags & abi::kAtEmptyPath)) return -abi::kEnoent;
    std::vector<std::string> argv, env;
    uint64_t budget = LinuxKernel::kStackSize / 4;
    if (int64_t e = string_array(c, argv_addr, argv, budget)) return e;
    if (int64_t e = string_array(c, envp_addr, env, budget)) return e;
    const int64_t rc = c.k.execve(c.t, dirfd, path, std::move(argv), std::move(env));
    if (rc == 0) c.keep_registers = true;  // the new image's registers
    return rc;
  }
  static int64_t execve(Call& c) { return execve_at(c, abi::kAtFdcwd, c.a[0], c.a[1], c.a[2], 0); }
  static int64_t execveat(Call& c) {
    return execve_at(c, int64_t(int32_t(c.a[0])), c.a[1], c.a[2], c.a[3], c.a[4]);
  }
  static int64_t setsid(Call& c) {
    for (auto& [id, q] : c.k.processes_)
      if (q->pgid == c.p.pid) return -abi::kEperm;  // already a group's leader
    c.p.sid = c.p.pgid = c.p.pid;
    return c.p.pid;
  }
  static int64_t setpgid(Call& c) {
    const int64_t pid = int64_t(int32_t(c.a[0])), pgid = int64_t(int32_t(c.a[1]));
    if (pgid < 0) return -abi::kEinval;
    LinuxProcess* q = pid == 0 ? &c.p : c.k.process(int(pid));
    if (!q || (q != &c.p && q->ppid != c.p.pid)) return -abi::kEsrch;
    if (q->sid != c.p.sid) return -abi::kEperm;
    if (q->sid == q->pid) return -abi::kEperm;  // a session leader keeps its group
    const int to = pgid == 0 ? q->pid : int(pgid);
    if (to != q->pid) {
      bool exists = false;
      for (auto& [id, r] : c.k.processes_) exists = exists || (r->pgid == to && r->sid == c.p.sid);
      if (!exists) return -abi::kEperm;
    }
    q->pgid = to;
    return 0;
  }
  static int64_t getpgid(Call& c) {
    const int64_t pid = int64_t(int32_t(c.a[0]));
    LinuxProcess* q = pid == 0 ? &c.p : c.k.process(int(pid));
    return q ? q->pgid : -abi::kEsrch;
  }
  static int64_t getpgrp(Call& c) { return c.p.pgid; }
  static int64_t getsid(Call& c) {
    const int64_t pid = int64_t(int32_t(c.a[0]));
    LinuxProcess* q = pid == 0 ? &c.p : c.k.process(int(pid));
    return q ? q->sid : -abi::kEsrch;
  }
  // Identities: every process is uid and gid 1000, with no supplementary groups; it
  // may "change" to what it is, nothing else (it holds no capability).
  static int64_t set_own_id(Call& c, std::initializer_list<uint64_t> ids) {
    for (uint64_t id : ids)
      if (uint32_t(id) != LinuxKernel::kUid && uint32_t(id) != ~0u) return -abi::kEperm;
    (void)c;
    return 0;
  }
  static int64_t setuid(Call& c) { return set_own_id(c, {c.a[0]}); }
  static int64_t setgid(Call& c) { return set_own_id(c, {c.a[0]}); }
  static int64_t setreuid(Call& c) { return set_own_id(c, {c.a[0], c.a[1]}); }
  static int64_t setresuid(Call& c) { return set_own_id(c, {c.a[0], c.a[1], c.a[2]}); }
  static int64_t getresuid(Call& c) {
    uint8_t b[4];
    emu::Cpu::store_be<uint32_t>(b, LinuxKernel::kUid);
    for (unsigned k = 0; k < 3; ++k)
      if (!c.p.copy_out(c.a[k], b, 4)) return -abi::kEfault;
    return 0;
  }
  static int64_t getgroups(Call&) { return 0; }
  static int64_t setgroups(Call& c) { return c.a[0] == 0 ? 0 : -abi::kEperm; }
  // prctl: the thread's name (PR_SET_NAME, PR_GET_NAME); other options -EINVAL, as Linux
  // answers an option it does not know.
  static int64_t prctl(Call& c) {
    constexpr uint64_t kPrSetName = 15, kPrGetName = 16;
    if (c.a[0] == kPrSetName) {
      char name[16] = {};
      for (unsigned k = 0; k < 15; ++k) {
        if (!c.p.copy_in(c.a[1] + k, &name[k], 1)) return -abi::kEfault;
        if (!name[k]) break;
      }
      std::memcpy(c.t.name, name, sizeof name);
      return 0;
    }
    if (c.a[0] == kPrGetName) return c.p.copy_out(c.a[1], c.t.name, sizeof c.t.name) ? 0 : -abi::kEfault;
    return -abi::kEinval;
  }
  static int64_t umask(Call& c) {
    const uint64_t old = c.p.umask;
    c.p.umask = c.a[0] & 0777;
    return int64_t(old);
  }
};

namespace {};

namespace {

using S = LinuxSyscalls;
constexpr S::Entry kTable[] = {
    {1, "exit", S::exit},
    {2, "fork", S::fork},
    {3, "read", S::read},
    {4, "write", S::write},
    {5, "open", S::open},
    {6, "close", S::close},
    {10, "unlink", S::unlink},
    {11, "execve", S::execve},
    {12, "chdir", S::chdir},
    {15, "chmod", S::chmod},
    {19, "lseek", S::lseek},
    {20, "getpid", S::getpid},
    {27, "alarm", S::alarm},
    {29, "pause", S::pause},
    {30, "utime", S::utime},
    {33, "access", S::access},
    {37, "kill", S::kill},
    {38, "rename", S::rename},
    {39, "mkdir", S::mkdir},
    {40, "rmdir", S::rmdir},
    {41, "dup", S::dup},
    {42, "pipe", S::pipe},
    {43, "times", S::times},
    {45, "brk", S::brk},
    {54, "ioctl", S::ioctl},
    {55, "fcntl", S::fcntl},
    {57, "setpgid", S::setpgid},
    {60, "umask", S::umask},
    {63, "dup2", S::dup2},
    {64, "getppid", S::getppid},
    {65, "getpgrp", S::getpgrp},
    {66, "setsid", S::setsid},
    {77, "getrusage", S::getrusage},
    {78, "gettimeofday", S::gettimeofday},
    {83, "symlink", S::symlink},
    {85, "readlink", S::readlink},
    {90, "mmap", S::mmap},
    {91, "munmap", S::munmap},
    {92, "truncate", S::truncate},
    {93, "ftruncate", S::ftruncate},
    {94, "fchmod", S::fchmod},
    {102, "socketcall", S::socketcall},
    {104, "setitimer", S::setitimer},
    {105, "getitimer", S::getitimer},
    {106, "stat", S::stat},
    {108, "fstat", S::fstat},
    {114, "wait4", S::wait4},
    {116, "sysinfo", S::sysinfo},
    {117, "ipc", S::ipc},
    {118, "fsync", S::fsync},
    {120, "clone", S::clone},
    {122, "uname", S::uname},
    {125, "mprotect", S::mprotect},
    {132, "getpgid", S::getpgid},
    {133, "fchdir", S::fchdir},
    {142, "select", S::select},
    {144, "msync", S::msync},
    {145, "readv", S::readv},
    {146, "writev", S::writev},
    {147, "getsid", S::getsid},
    {158, "sched_yield", S::sched_yield},
    {162, "nanosleep", S::nanosleep},
    {163, "mremap", S::mremap},
    {168, "poll", S::poll},
    {172, "prctl", S::prctl},
    {173, "rt_sigreturn", S::rt_sigreturn},
    {174, "rt_sigaction", S::rt_sigaction},
    {175, "rt_sigprocmask", S::rt_sigprocmask},
    {176, "rt_sigpending", S::rt_sigpending},
    {177, "rt_sigtimedwait", S::rt_sigtimedwait},
    {178, "rt_sigqueueinfo", S::rt_sigqueueinfo},
    {179, "rt_sigsuspend", S::rt_sigsuspend},
    {180, "pread64", S::pread64},
    {183, "getcwd", S::getcwd},
    {186, "sigaltstack", S::sigaltstack},
    {190, "vfork", S::vfork},
    {191, "getrlimit", S::getrlimit},
    {199, "getuid", S::getuid},
    {200, "getgid", S::getgid},
    {201, "geteuid", S::getuid},
    {202, "getegid", S::getgid},
    {203, "setreuid", S::setreuid},
    {204, "setregid", S::setreuid},
    {205, "getgroups", S::getgroups},
    {206, "setgroups", S::setgroups},
    {208, "setresuid", S::setresuid},
    {209, "getresuid", S::getresuid},
    {210, "setresgid", S::setresuid},
    {211, "getresgid", S::getresuid},
    {213, "setuid", S::setuid},
    {214, "setgid", S::setgid},
    {219, "madvise", S::madvise},
    {220, "getdents64", S::getdents64},
    {236, "gettid", S::gettid},
    {237, "tkill", S::tkill},
    {238, "futex", S::futex},
    {240, "sched_getaffinity", S::sched_getaffinity},
    {241, "tgkill", S::tgkill},
    {248, "exit_group", S::exit_group},
    {252, "set_tid_address", S::set_tid_address},
    {254, "timer_create", S::timer_create},
    {255, "timer_settime", S::timer_settime},
    {256, "timer_gettime", S::timer_gettime},
    {257, "timer_getoverrun", S::timer_getoverrun},
    {258, "timer_delete", S::timer_delete},
    {260, "clock_gettime", S::clock_gettime},
    {261, "clock_getres", S::clock_getres},
    {262, "clock_nanosleep", S::clock_nanosleep},
    {281, "waitid", S::waitid},
    {288, "openat", S::openat},
    {289, "mkdirat", S::mkdirat},
    {293, "newfstatat", S::newfstatat},
    {294, "unlinkat", S::unlinkat},
    {295, "renameat", S::renameat},
    {297, "symlinkat", S::symlinkat},
    {298, "readlinkat", S::readlinkat},
    {299, "fchmodat", S::fchmodat},
    {300, "faccessat", S::faccessat},
    {301, "pselect6", S::pselect6},
    {302, "ppoll", S::ppoll},
    {304, "set_robust_list", S::set_robust_list},
    {313, "utimes", S::utimes},
    {315, "utimensat", S::utimensat},
    {325, "pipe2", S::pipe2},
    {326, "dup3", S::dup3},
    {334, "prlimit64", S::prlimit64},
    {347, "renameat2", S::renameat2},
    {349, "getrandom", S::getrandom},
    {354, "execveat", S::execveat},
    {359, "socket", S::socket},
    {360, "socketpair", S::socketpair},
    {361, "bind", S::bind},
    {362, "connect", S::connect},
    {363, "listen", S::listen},
    {364, "accept4", S::accept4},
    {365, "getsockopt", S::getsockopt},
    {366, "setsockopt", S::setsockopt},
    {367, "getsockname", S::getsockname},
    {368, "getpeername", S::getpeername},
    {369, "sendto", S::sendto},
    {371, "recvfrom", S::recvfrom},
    {373, "shutdown", S::shutdown},
    {383, "rseq", S::rseq},
    {395, "shmget", S::shmget},
    {396, "shmctl", S::shmctl},
    {397, "shmat", S::shmat},
    {398, "shmdt", S::shmdt},
    {435, "clone3", S::clone3},
    {LinuxKernel::kSysIStream, "tpf_istream", S::tpf_istream},
    {LinuxKernel::kSysIStreams, "tpf_istreams", S::tpf_istreams},
};

}  // namespace

const LinuxSyscalls::Entry* LinuxSyscalls::find(uint64_t nr) {
  for (const Entry& e : kTable)
    if (e.nr == nr) return &e;
  return nullptr;
}

void LinuxKernel::supervisor_call(emu::Cpu& cpu, uint8_t number) {
  ++syscalls_;
  sweep_threads();
  const uint64_t nr = number ? number : cpu.gr[1];
  LinuxThread& t = thread_of(cpu);
  now_ = cpu.cycles;
  calling_ = &t;
  LinuxSyscalls::Call c{*this, *t.proc, cpu, t, {cpu.gr[2], cpu.gr[3], cpu.gr[4], cpu.gr[5], cpu.gr[6], cpu.gr[7]}};
  int64_t rc;
  if (const LinuxSyscalls::Entry* e = LinuxSyscalls::find(nr)) {
    rc = e->fn(c);
  } else {
    LinuxSyscalls::warn_once(*this, nr, fmt::format("guest system call {} is not supported; returning -ENOSYS", nr));
    rc = -abi::kEnosys;
  }
  calling_ = nullptr;
  if (!c.keep_registers) cpu.gr[2] = uint64_t(rc);
  if (t.waiting == WaitKind::None) end_call(t);
  if (exited_ || t.exited || t.waiting != WaitKind::None) return;
  deliver_pending(t);
  // A suspend mask no handler took back (the signal was ignored after all).
  if (!t.exited) restore_suspend_mask(t);
}

}  // namespace linux_user
