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
#include "linux/linux_process.h"

namespace linux_user {
namespace abi = linux_abi;

struct LinuxSyscalls {
  struct Call {
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
    return c.p.files_->write(fd, buf.data(), buf.size());
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
    c.p.end_thread(c.t, int(c.a[0] & 0xFF));
    c.keep_registers = true;
    return 0;
  }
  static int64_t exit_group(Call& c) {
    LinuxProcess& p = c.p;
    if (!p.exited_) p.exited_ = true, p.exit_code_ = int(c.a[0] & 0xFF);
    p.terminate(0);
    c.keep_registers = true;
    return 0;
  }
  static int64_t getpid(Call&) { return LinuxProcess::kPid; }
  static int64_t getppid(Call&) { return 1; }
  static int64_t gettid(Call& c) { return c.t.tid; }
  static int64_t getuid(Call&) { return LinuxProcess::kUid; }
  static int64_t getgid(Call&) { return LinuxProcess::kGid; }
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
  static int64_t tpf_istream(Call& c) { return c.p.istream_of(c.cpu); }
  static int64_t tpf_istreams(Call& c) { return int64_t(c.p.cpus_.size()); }
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
    if (resource == kRlimitStack) cur = LinuxProcess::kStackSize;
    if (resource == kRlimitNofile) cur = max = 1024;
    return out ? put_u64s(c, out, {cur, max}) : 0;
  }
  static int64_t prlimit64(Call& c) {
    if (c.a[0] != 0 && c.a[0] != LinuxProcess::kPid) return -abi::kEsrch;
    if (c.a[2]) return -abi::kEperm;  // limits cannot be changed
    return prlimit_value(c, c.a[1], c.a[3]);
  }
  static int64_t getrlimit(Call& c) { return prlimit_value(c, c.a[0], c.a[1]); }
  static int64_t sysinfo(Call& c) {
    // struct sysinfo (64-bit): what glibc reads for _SC_PHYS_PAGES and friends.
    uint8_t b[112] = {};
    const uint64_t total = c.p.machine_->config().storage;
    const uint64_t used = std::min(total, c.p.space_.mapped_pages() * emu::kPageSize);
    emu::Cpu::store_be<uint64_t>(b, c.p.now_ns(c.cpu) / 1000000000);  // uptime
    emu::Cpu::store_be<uint64_t>(b + 32, total);                      // totalram
    emu::Cpu::store_be<uint64_t>(b + 40, total - used);               // freeram
    emu::Cpu::store_be<uint16_t>(b + 80, uint16_t(c.p.threads_.size()));  // procs
    emu::Cpu::store_be<uint32_t>(b + 104, 1);                         // mem_unit
    return c.p.copy_out(c.a[0], b, sizeof b) ? 0 : -abi::kEfault;
  }
  static int64_t getrandom(Call& c) {
    return with_buffer_out(c, c.a[0], c.a[1], [&](uint8_t* b, uint64_t n) {
      for (uint64_t k = 0; k < n; k += 8) {
        uint8_t w[8];
        emu::Cpu::store_be<uint64_t>(w, c.p.next_random());
        std::memcpy(b + k, w, std::min<uint64_t>(8, n - k));
      }
      return int64_t(n);
    });
  }

  // --- threads ------------------------------------------------------------------------------
  static int64_t clone(Call& c) {
    // s390 passes (stack, flags, parent_tid, child_tid, tls).
    const uint64_t stack = c.a[0], flags = c.a[1], ptid = c.a[2], ctid = c.a[3], tls = c.a[4];
    LinuxProcess& p = c.p;
    if (!(flags & abi::kCloneVm) || !(flags & abi::kCloneThread)) {
      warn_once(p, 120, "clone without CLONE_VM|CLONE_THREAD (a new process) is not supported; returning -ENOSYS");
      return -abi::kEnosys;
    }
    auto t = std::make_unique<LinuxThread>();
    t->tid = p.next_tid_++;
    t->blocked = c.t.blocked;
    t->last_istream = p.istream_of(c.cpu);
    ThreadContext& x = t->saved;
    std::copy(c.cpu.gr, c.cpu.gr + 16, x.gr);
    std::copy(c.cpu.vr, c.cpu.vr + 32, x.vr);
    std::copy(c.cpu.ar, c.cpu.ar + 16, x.ar);
    x.fpc = c.cpu.fpc, x.psw_addr = c.cpu.psw_addr, x.cc = c.cpu.cc, x.prog_mask = c.cpu.prog_mask;
    x.gr[2] = 0;  // the child's return value
    if (stack) x.gr[15] = stack;
    if (flags & abi::kCloneSettls) x.ar[0] = uint32_t(tls >> 32), x.ar[1] = uint32_t(tls);  // the thread pointer
    uint8_t tid_be[4];
    emu::Cpu::store_be<uint32_t>(tid_be, uint32_t(t->tid));
    if ((flags & abi::kCloneParentSettid) && !p.copy_out(ptid, tid_be, 4)) return -abi::kEfault;
    if ((flags & abi::kCloneChildSettid) && !p.copy_out(ctid, tid_be, 4)) return -abi::kEfault;
    if (flags & abi::kCloneChildCleartid) t->clear_child_tid = ctid;
    LinuxThread& child = *t;
    p.threads_.push_back(std::move(t));
    p.make_runnable(child, c.cpu.cycles);
    return child.tid;
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
    double now = double(c.p.now_ns(c.cpu));
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
        p.futex_wait(c.t, addr, bitset, deadline);
        c.keep_registers = true;  // r2 is set when the wait ends
        return 0;
      }
      case abi::kFutexWake: return p.futex_wake(addr, val, ~0u, c.cpu.cycles);
      case abi::kFutexWakeBitset:
        if (!uint32_t(c.a[5])) return -abi::kEinval;
        return p.futex_wake(addr, val, uint32_t(c.a[5]), c.cpu.cycles);
      case 3: case 4: {  // FUTEX_REQUEUE, FUTEX_CMP_REQUEUE (the count to move is in the timeout slot)
        uint32_t v;
        if (cmd == 4 && (!current(v) || v != uint32_t(c.a[5]))) return -abi::kEagain;
        return p.futex_requeue(addr, val, c.a[3], c.a[4], c.cpu.cycles);
      }
      default:
        warn_once(p, 238 * 1000 + cmd, fmt::format("futex operation {} is not supported; returning -ENOSYS", cmd));
        return -abi::kEnosys;
    }
  }
  static void warn_once(LinuxProcess& p, uint64_t key, const std::string& what) {
    if (std::find(p.warned_.begin(), p.warned_.end(), key) != p.warned_.end()) return;
    p.warned_.push_back(key);
    fmt::print(p.err_, "tpfemu: warning: {}\n", what);
    std::fflush(p.err_);
  }
  static int64_t sched_getaffinity(Call& c) {
    // One bit per I-stream; the kernel returns the mask's size in bytes.
    if (c.a[1] < 8 || (c.a[1] & 7)) return -abi::kEinval;
    const size_t n = c.p.cpus_.size();
    uint64_t mask = n >= 64 ? ~0ull : (1ull << n) - 1;
    return put_u64s(c, c.a[2], {mask}) < 0 ? -abi::kEfault : 8;
  }

  // --- time (simulated: the calling I-stream's clock) -----------------------------------
  static constexpr uint64_t kEpochSeconds = 1735689600;  // 2025-01-01, the TOD clock's epoch here
  static int64_t clock_gettime(Call& c) {
    if (c.a[0] > 7) return -abi::kEinval;
    uint64_t ns = c.p.now_ns(c.cpu);
    uint64_t sec = ns / 1000000000, nsec = ns % 1000000000;
    if (c.a[0] == 0 || c.a[0] == 5) sec += kEpochSeconds;  // CLOCK_REALTIME(_COARSE)
    return put_u64s(c, c.a[1], {sec, nsec});
  }
  static int64_t clock_getres(Call& c) {
    if (c.a[0] > 7) return -abi::kEinval;
    return c.a[1] ? put_u64s(c, c.a[1], {0, 1}) : 0;
  }
  static int64_t gettimeofday(Call& c) {
    uint64_t ns = c.p.now_ns(c.cpu);
    if (c.a[0]) return put_u64s(c, c.a[0], {kEpochSeconds + ns / 1000000000, ns % 1000000000 / 1000});
    return 0;
  }
  static int64_t sleep_for(Call& c, uint64_t ts_addr) {
    uint8_t ts[16];
    if (!c.p.copy_in(ts_addr, ts, 16)) return -abi::kEfault;
    int64_t sec = int64_t(emu::Cpu::load_be<uint64_t>(ts)), nsec = int64_t(emu::Cpu::load_be<uint64_t>(ts + 8));
    if (sec < 0 || nsec < 0 || nsec >= 1000000000) return -abi::kEinval;
    double cycles = (double(sec) * 1e9 + double(nsec)) * c.cpu.clock_ghz;
    c.cpu.idle_until(c.cpu.cycles + uint64_t(std::min(cycles, 1e18)));
    c.cpu.end_slice();  // the others run up to this clock before this I-stream goes on
    return 0;
  }
  static int64_t nanosleep(Call& c) { return sleep_for(c, c.a[0]); }
  static int64_t clock_nanosleep(Call& c) {
    constexpr uint64_t kTimerAbstime = 1;
    if (c.a[1] & kTimerAbstime) {
      uint8_t ts[16];
      if (!c.p.copy_in(c.a[2], ts, 16)) return -abi::kEfault;
      uint64_t want = emu::Cpu::load_be<uint64_t>(ts) * 1000000000 + emu::Cpu::load_be<uint64_t>(ts + 8);
      if (c.a[0] == 0) want -= std::min(want, kEpochSeconds * 1000000000);
      uint64_t now = c.p.now_ns(c.cpu);
      if (want > now) c.cpu.idle_until(c.cpu.cycles + uint64_t(double(want - now) * c.cpu.clock_ghz));
      return 0;
    }
    return sleep_for(c, c.a[2]);
  }

  // --- memory ---------------------------------------------------------------------------
  static int64_t brk(Call& c) { return c.p.memory_.brk(c.a[0]); }
  static int64_t mmap(Call& c) {
    // s390x passes the six arguments in a block whose address is in r2.
    uint8_t b[48];
    if (!c.p.copy_in(c.a[0], b, sizeof b)) return -abi::kEfault;
    uint64_t v[6];
    for (unsigned k = 0; k < 6; ++k) v[k] = emu::Cpu::load_be<uint64_t>(b + 8 * k);
    const uint64_t addr = v[0], len = v[1], prot = v[2], flags = v[3], offset = v[5];
    const int64_t fd = int64_t(int32_t(v[4]));
    if (flags & abi::kMapAnonymous) return c.p.memory_.mmap(addr, len, prot, flags);
    bool writable = false;
    const int64_t host_fd = c.p.files_->dup_for_mapping(fd, writable);
    if (host_fd < 0) return host_fd;
    return c.p.memory_.mmap_file(addr, len, prot, flags, int(host_fd), writable, offset);
  }
  static int64_t munmap(Call& c) { return c.p.memory_.munmap(c.a[0], c.a[1]); }
  static int64_t mprotect(Call& c) { return c.p.memory_.mprotect(c.a[0], c.a[1], c.a[2]); }
  static int64_t mremap(Call& c) { return c.p.memory_.mremap(c.a[0], c.a[1], c.a[2], c.a[3], c.a[4]); }
  static int64_t madvise(Call& c) { return c.p.memory_.madvise(c.a[0], c.a[1], c.a[2]); }
  static int64_t msync(Call& c) { return c.p.memory_.msync(c.a[0], c.a[1], c.a[2]); }

  // --- files ------------------------------------------------------------------------------
  static int64_t read(Call& c) {
    return with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t n) { return c.p.files_->read(int64_t(c.a[0]), b, n); });
  }
  static int64_t pread64(Call& c) {
    return with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t n) {
      return c.p.files_->pread(int64_t(c.a[0]), b, n, int64_t(c.a[3]));
    });
  }
  static int64_t write(Call& c) { return write_from(c, int64_t(c.a[0]), c.a[1], c.a[2]); }
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
        return c.p.files_->read(int64_t(c.a[0]), b, m);
      })
                           : write_from(c, int64_t(c.a[0]), base, len);
      if (n < 0) return total ? total : n;
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
    return c.p.files_->openat(abi::kAtFdcwd, path, c.a[1], c.a[2]);
  }
  static int64_t openat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files_->openat(int64_t(int32_t(c.a[0])), path, c.a[2], c.a[3]);
  }
  static int64_t close(Call& c) { return c.p.files_->close(int64_t(c.a[0])); }
  static int64_t lseek(Call& c) { return c.p.files_->lseek(int64_t(c.a[0]), int64_t(c.a[1]), c.a[2]); }
  static int64_t stat_out(Call& c, uint64_t addr, int64_t rc, const uint8_t* st) {
    if (rc < 0) return rc;
    return c.p.copy_out(addr, st, abi::kStatBytes) ? 0 : -abi::kEfault;
  }
  static int64_t fstat(Call& c) {
    uint8_t st[abi::kStatBytes];
    return stat_out(c, c.a[1], c.p.files_->fstat(int64_t(c.a[0]), st), st);
  }
  static int64_t newfstatat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    uint8_t st[abi::kStatBytes];
    return stat_out(c, c.a[2], c.p.files_->fstatat(int64_t(int32_t(c.a[0])), path, st, c.a[3]), st);
  }
  static int64_t stat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    uint8_t st[abi::kStatBytes];
    return stat_out(c, c.a[1], c.p.files_->fstatat(abi::kAtFdcwd, path, st, 0), st);
  }
  static int64_t getdents64(Call& c) {
    return with_buffer_out(c, c.a[1], c.a[2], [&](uint8_t* b, uint64_t n) { return c.p.files_->getdents64(int64_t(c.a[0]), b, n); });
  }
  static int64_t ioctl(Call& c) { return c.p.files_->ioctl(int64_t(c.a[0]), c.a[1]); }
  static int64_t fcntl(Call& c) { return c.p.files_->fcntl(int64_t(c.a[0]), c.a[1], c.a[2]); }
  static int64_t dup(Call& c) { return c.p.files_->dup(int64_t(c.a[0])); }
  static int64_t dup2(Call& c) {
    if (c.a[0] == c.a[1]) return c.p.files_->fcntl(int64_t(c.a[0]), 1, 0) < 0 ? -abi::kEbadf : int64_t(c.a[1]);
    return c.p.files_->dup3(int64_t(c.a[0]), int64_t(c.a[1]));
  }
  static int64_t dup3(Call& c) { return c.p.files_->dup3(int64_t(c.a[0]), int64_t(c.a[1])); }
  static int64_t readlink_path(Call& c, const std::string& path, uint64_t buf, uint64_t size) {
    if (path != "/proc/self/exe") return -abi::kEnoent;
    const std::string& exe = c.p.exe_path_;
    uint64_t n = std::min<uint64_t>(exe.size(), size);
    return c.p.copy_out(buf, exe.data(), n) ? int64_t(n) : -abi::kEfault;
  }
  static int64_t readlink(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return readlink_path(c, path, c.a[1], c.a[2]);
  }
  static int64_t readlinkat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return readlink_path(c, path, c.a[2], c.a[3]);
  }
  static int64_t unlink(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files_->unlinkat(abi::kAtFdcwd, path, 0);
  }
  static int64_t rmdir(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files_->unlinkat(abi::kAtFdcwd, path, 0x200);
  }
  static int64_t unlinkat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files_->unlinkat(int64_t(int32_t(c.a[0])), path, c.a[2]);
  }
  static int64_t mkdir(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files_->mkdirat(abi::kAtFdcwd, path, c.a[1]);
  }
  static int64_t mkdirat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files_->mkdirat(int64_t(int32_t(c.a[0])), path, c.a[2]);
  }
  static int64_t access(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[0], path)) return e;
    return c.p.files_->faccessat(abi::kAtFdcwd, path);
  }
  static int64_t faccessat(Call& c) {
    std::string path;
    if (int64_t e = path_arg(c, c.a[1], path)) return e;
    return c.p.files_->faccessat(int64_t(int32_t(c.a[0])), path);
  }
  static int64_t ftruncate(Call& c) { return c.p.files_->ftruncate(int64_t(c.a[0]), int64_t(c.a[1])); }
  static int64_t fsync(Call& c) { return c.p.files_->fsync(int64_t(c.a[0])); }
  static int64_t getcwd(Call& c) {
    if (c.a[1] < 2) return -abi::kErange;
    return c.p.copy_out(c.a[0], "/", 2) ? 2 : -abi::kEfault;
  }

  // --- signals ------------------------------------------------------------------------------
  static int64_t rt_sigaction(Call& c) {
    const uint64_t signo = c.a[0];
    if (signo < 1 || signo > 64 || c.a[3] != 8) return -abi::kEinval;
    LinuxProcess::SigAction& a = c.p.actions_[signo];
    LinuxProcess::SigAction next = a;
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
    if (!c.p.sigreturn(c.t)) {
      c.p.fatal_signal_ = abi::kSigsegv;
      c.p.terminate(abi::kSigsegv);
    }
    return 0;
  }
  static int64_t send(Call& c, LinuxThread& to, uint64_t signo, int code) {
    if (signo > 64) return -abi::kEinval;
    if (signo == 0) return 0;  // only the check that the target exists
    SignalInfo info;
    info.signo = int(signo), info.code = code, info.pid = LinuxProcess::kPid, info.uid = LinuxProcess::kUid;
    c.p.post_signal(to, info);
    return 0;
  }
  static LinuxThread* thread_by_tid(Call& c, int64_t tid) {
    for (auto& t : c.p.threads_)
      if (t->tid == tid && !t->exited) return t.get();
    return nullptr;
  }
  static int64_t kill(Call& c) {
    const int64_t pid = int64_t(int32_t(c.a[0]));
    if (pid != LinuxProcess::kPid && pid != 0 && pid != -1) return -abi::kEsrch;
    return send(c, c.t, c.a[1], abi::kSiUser);  // the caller's thread takes it
  }
  static int64_t tgkill(Call& c) {
    if (int64_t(int32_t(c.a[0])) != LinuxProcess::kPid) return -abi::kEsrch;
    LinuxThread* t = thread_by_tid(c, int64_t(int32_t(c.a[1])));
    return t ? send(c, *t, c.a[2], abi::kSiTkill) : -abi::kEsrch;
  }
  static int64_t tkill(Call& c) {
    LinuxThread* t = thread_by_tid(c, int64_t(int32_t(c.a[0])));
    return t ? send(c, *t, c.a[1], abi::kSiTkill) : -abi::kEsrch;
  }
};

namespace {

using S = LinuxSyscalls;
constexpr S::Entry kTable[] = {
    {1, "exit", S::exit},
    {3, "read", S::read},
    {4, "write", S::write},
    {5, "open", S::open},
    {6, "close", S::close},
    {10, "unlink", S::unlink},
    {19, "lseek", S::lseek},
    {20, "getpid", S::getpid},
    {33, "access", S::access},
    {37, "kill", S::kill},
    {39, "mkdir", S::mkdir},
    {40, "rmdir", S::rmdir},
    {41, "dup", S::dup},
    {45, "brk", S::brk},
    {54, "ioctl", S::ioctl},
    {55, "fcntl", S::fcntl},
    {63, "dup2", S::dup2},
    {64, "getppid", S::getppid},
    {78, "gettimeofday", S::gettimeofday},
    {85, "readlink", S::readlink},
    {90, "mmap", S::mmap},
    {91, "munmap", S::munmap},
    {93, "ftruncate", S::ftruncate},
    {106, "stat", S::stat},
    {108, "fstat", S::fstat},
    {116, "sysinfo", S::sysinfo},
    {118, "fsync", S::fsync},
    {120, "clone", S::clone},
    {122, "uname", S::uname},
    {125, "mprotect", S::mprotect},
    {144, "msync", S::msync},
    {145, "readv", S::readv},
    {146, "writev", S::writev},
    {158, "sched_yield", S::sched_yield},
    {162, "nanosleep", S::nanosleep},
    {163, "mremap", S::mremap},
    {173, "rt_sigreturn", S::rt_sigreturn},
    {174, "rt_sigaction", S::rt_sigaction},
    {175, "rt_sigprocmask", S::rt_sigprocmask},
    {176, "rt_sigpending", S::rt_sigpending},
    {180, "pread64", S::pread64},
    {183, "getcwd", S::getcwd},
    {186, "sigaltstack", S::sigaltstack},
    {191, "getrlimit", S::getrlimit},
    {199, "getuid", S::getuid},
    {200, "getgid", S::getgid},
    {201, "geteuid", S::getuid},
    {202, "getegid", S::getgid},
    {219, "madvise", S::madvise},
    {220, "getdents64", S::getdents64},
    {236, "gettid", S::gettid},
    {237, "tkill", S::tkill},
    {238, "futex", S::futex},
    {240, "sched_getaffinity", S::sched_getaffinity},
    {241, "tgkill", S::tgkill},
    {248, "exit_group", S::exit_group},
    {252, "set_tid_address", S::set_tid_address},
    {260, "clock_gettime", S::clock_gettime},
    {261, "clock_getres", S::clock_getres},
    {262, "clock_nanosleep", S::clock_nanosleep},
    {288, "openat", S::openat},
    {289, "mkdirat", S::mkdirat},
    {293, "newfstatat", S::newfstatat},
    {294, "unlinkat", S::unlinkat},
    {298, "readlinkat", S::readlinkat},
    {300, "faccessat", S::faccessat},
    {304, "set_robust_list", S::set_robust_list},
    {326, "dup3", S::dup3},
    {334, "prlimit64", S::prlimit64},
    {349, "getrandom", S::getrandom},
    {383, "rseq", S::rseq},
    {435, "clone3", S::clone3},
    {LinuxProcess::kSysIStream, "tpf_istream", S::tpf_istream},
    {LinuxProcess::kSysIStreams, "tpf_istreams", S::tpf_istreams},
};

}  // namespace

const LinuxSyscalls::Entry* LinuxSyscalls::find(uint64_t nr) {
  for (const Entry& e : kTable)
    if (e.nr == nr) return &e;
  return nullptr;
}

void LinuxProcess::supervisor_call(emu::Cpu& cpu, uint8_t number) {
  ++syscalls_;
  const uint64_t nr = number ? number : cpu.gr[1];
  LinuxThread& t = thread_of(cpu);
  LinuxSyscalls::Call c{*this, cpu, t, {cpu.gr[2], cpu.gr[3], cpu.gr[4], cpu.gr[5], cpu.gr[6], cpu.gr[7]}};
  int64_t rc;
  if (const LinuxSyscalls::Entry* e = LinuxSyscalls::find(nr)) {
    rc = e->fn(c);
  } else {
    LinuxSyscalls::warn_once(*this, nr, fmt::format("guest system call {} is not supported; returning -ENOSYS", nr));
    rc = -abi::kEnosys;
  }
  if (!c.keep_registers) cpu.gr[2] = uint64_t(rc);
  if (!exited_ && !t.exited && !t.waiting) deliver_pending(t);
}

}  // namespace linux_user
