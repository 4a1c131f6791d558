// Processes: creation (fork, vfork, clone without CLONE_VM), execve, the end of a thread
// and of a process, and what its parent collects (kernel/fork.c, fs/exec.c,
// kernel/exit.c, as facts).
//
// A forked child gets an address space of its own: the parent's private pages are
// copied into new frames at once (LinuxMemory::fork_into), which costs the host one page
// copy per mapped page and the simulated machine nothing; shared mappings stay shared.
// A child of CLONE_VM (vfork, posix_spawn) shares the parent's space until it calls
// execve or exits, and a CLONE_VFORK parent waits until then.
#include <algorithm>
#include <fmt/format.h>

#include "linux/linux_abi.h"
#include "linux/linux_kernel.h"

namespace linux_user {
namespace abi = linux_abi;

LinuxProcess& LinuxKernel::new_process(int ppid, std::shared_ptr<emu::AddressSpace> space,
                                       std::shared_ptr<const emu::ElfImage> image,
                                       std::shared_ptr<LinuxMemory> memory, std::unique_ptr<LinuxFiles> files) {
  const int pid = next_tid_++;
  auto p = std::make_unique<LinuxProcess>(pid, std::move(space), std::move(image), std::move(memory),
                                          std::move(files));
  p->ppid = ppid;
  p->pgid = p->sid = pid;
  p->files->set_notifier([this](const void* key) { wake_callers(key, now_); });
  LinuxProcess& r = *p;
  processes_[pid] = std::move(p);
  return r;
}

LinuxThread& LinuxKernel::new_thread(LinuxProcess& p) {
  auto t = std::make_unique<LinuxThread>();
  // The first thread of a process has the process's id as its own.
  t->tid = std::none_of(threads_.begin(), threads_.end(), [&](auto& x) { return x->proc == &p; }) ? p.pid
                                                                                                    : next_tid_++;
  t->proc = &p;
  LinuxThread& r = *t;
  threads_.push_back(std::move(t));
  return r;
}

int64_t LinuxKernel::fork_process(LinuxThread& parent, uint64_t flags, uint64_t stack, uint64_t ptid,
                                  uint64_t ctid, uint64_t tls) {
  LinuxProcess& pp = *parent.proc;
  if (processes_.size() >= max_processes_) {
    stopped_because_ = fmt::format(
        "process {} asked for a new process with {} in existence: the most `tpfemu exec` allows is {} "
        "(--max-processes); a fork bomb or a runaway pipeline?",
        pp.pid, processes_.size(), max_processes_);
    stop_run(124, 0);
    return -abi::kEagain;
  }
  const bool shares_vm = flags & abi::kCloneVm;
  std::shared_ptr<emu::AddressSpace> space = pp.space;
  std::shared_ptr<LinuxMemory> memory = pp.memory;
  if (!shares_vm) {
    space = std::make_shared<emu::AddressSpace>(machine_.storage());
    memory = pp.memory->fork_into(*space);
    if (!memory) return -abi::kEnomem;  // storage has no frames for the copy
  }
  LinuxProcess& child = new_process((flags & abi::kCloneParent) ? pp.ppid : pp.pid, nullptr, pp.image, nullptr,
                                    pp.files->fork());
  child.space = std::move(space);
  child.memory = std::move(memory);
  child.pgid = pp.pgid, child.sid = pp.sid;
  child.actions = pp.actions;
  child.argv = pp.argv, child.exe_path = pp.exe_path, child.hwcap = pp.hwcap;
  child.vfork_parent = (flags & abi::kCloneVfork) ? parent.tid : 0;

  LinuxThread& t = new_thread(child);
  t.blocked = parent.blocked;
  t.altstack_sp = parent.altstack_sp, t.altstack_size = parent.altstack_size;
  t.altstack_flags = parent.altstack_flags;
  t.last_istream = istream_of(*parent.cpu);
  copy_registers(*parent.cpu, t.saved);
  t.saved.gr[2] = 0;  // the child's return value
  if (stack) t.saved.gr[15] = stack;
  if (flags & abi::kCloneSettls) t.saved.ar[0] = uint32_t(tls >> 32), t.saved.ar[1] = uint32_t(tls);
  uint8_t tid_be[4];
  emu::Cpu::store_be<uint32_t>(tid_be, uint32_t(t.tid));
  if ((flags & abi::kCloneParentSettid) && !pp.copy_out(ptid, tid_be, 4)) return -abi::kEfault;
  if ((flags & abi::kCloneChildSettid) && !child.copy_out(ctid, tid_be, 4)) return -abi::kEfault;
  if (flags & abi::kCloneChildCleartid) t.clear_child_tid = ctid;
  make_runnable(t, parent.cpu->cycles);
  return child.pid;
}

int64_t LinuxKernel::execve(LinuxThread& t, int64_t dirfd, const std::string& path, std::vector<std::string> argv,
                            std::vector<std::string> env) {
  LinuxProcess& p = *t.proc;
  std::shared_ptr<const emu::ElfImage> image;
  std::string guest;
  if (path == "/proc/self/exe") {
    // The magic link to the running program (BusyBox runs its applets this way).
    image = p.image;
    guest = p.exe_path;
  } else {
    std::vector<uint8_t> bytes;
    if (int64_t e = p.files->read_file(dirfd, path, bytes, guest)) return e;
    try {
      const std::string base = guest.substr(guest.rfind('/') + 1);
      image = std::make_shared<emu::ElfImage>(emu::parse_elf(std::move(bytes), base));
    } catch (const emu::ElfError&) {
      return -abi::kEnoexec;  // not a static s390x ELF (a script, another machine's program)
    }
  }
  auto space = std::make_shared<emu::AddressSpace>(machine_.storage());
  if (!emu::load_elf(*image, *space)) return -abi::kEnomem;
  auto memory = std::make_shared<LinuxMemory>(*space, image->image_end);
  memory->set_large_pages(large_pages_);

  // The point of no return: the other threads end, the old image goes.
  for (auto& x : threads_)
    if (x->proc == &p && x.get() != &t && !x->exited) {
      x->exited = true, sweep_due_ = true;
      if (x->cpu) x->cpu->request_stop();
      std::erase(ready_, x.get());
    }
  emu::Cpu& cpu = *t.cpu;
  cpu.switch_address_space(*space);
  if (p.space.get() == initial_space_) kept_initial_space_ = p.space;  // the profile reads it
  p.memory = std::move(memory);
  p.space = std::move(space);
  p.image = std::move(image);
  p.files->close_on_exec();
  std::erase_if(timers_, [&](const auto& kv) { return kv.first.first == p.pid; });  // POSIX timers go; the alarm stays
  for (SigAction& a : p.actions)
    if (a.handler != abi::kSigIgn) a = SigAction{};  // handlers are gone with the image
  t.altstack_sp = t.altstack_size = 0, t.altstack_flags = abi::kSsDisable;
  t.clear_child_tid = 0;
  p.argv = argv;
  p.exe_path = guest;
  std::fill(cpu.gr, cpu.gr + 16, 0);
  std::fill(cpu.ar, cpu.ar + 16, 0);
  std::fill(cpu.vr, cpu.vr + 32, emu::VectorRegister{});
  cpu.fpc = 0, cpu.cc = 0, cpu.prog_mask = 0;
  if (!build_stack(p, t, kStackTop, argv, env)) {
    kill_process(p, abi::kSigsegv);  // as Linux, past the point of no return
    return 0;
  }
  release_vfork_parent(p);
  return 0;
}

void LinuxKernel::release_vfork_parent(LinuxProcess& p) {
  if (!p.vfork_parent) return;
  p.vfork_parent = 0;
  wake_callers(&p.vfork_parent, now_);
}

void LinuxKernel::end_thread(LinuxThread& t, int status) {
  LinuxProcess& p = *t.proc;
  t.exited = true, sweep_due_ = true;
  if (t.cpu) t.cpu->request_stop();
  if (t.tid == p.pid) p.main_exit_code = status;
  if (t.clear_child_tid && p.memory) {
    // CLONE_CHILD_CLEARTID: zero the thread id and wake who waits on it (pthread_join).
    uint8_t zero[4] = {};
    if (p.copy_out(t.clear_child_tid, zero, 4)) futex_wake(p, t.clear_child_tid, 1, ~0u, now_);
  }
  if (std::any_of(threads_.begin(), threads_.end(), [&](auto& x) { return x->proc == &p && !x->exited; })) return;
  const int code = (every_istream_starts_ && &p == first_process_) ? p.main_exit_code : status;
  end_process(p, (code & 0xFF) << 8);
}

void LinuxKernel::end_process(LinuxProcess& p, int wait_status) {
  if (p.ended) return;
  p.ended = true;
  p.status = wait_status;
  for (auto& x : threads_)
    if (x->proc == &p && !x->exited) {
      x->exited = true, sweep_due_ = true;
      if (x->cpu) x->cpu->request_stop();
      std::erase(ready_, x.get());
    }
  if (&p == first_process_) {
    const int signo = wait_status & 0x7F;
    stop_run(signo ? 128 + signo : (wait_status >> 8) & 0xFF, signo);
    return;
  }
  process_ended(p);
}

void LinuxKernel::process_ended(LinuxProcess& p) {
  // No I-stream may keep the space loaded once it goes.
  for (emu::Cpu* c : cpus_)
    if (&c->space() == p.space.get() && p.space.use_count() == 1) leave_space(*c);
  release_vfork_parent(p);
  std::erase_if(timers_, [&](const auto& kv) { return kv.first.first == p.pid; });
  p.alarm_serial = 0;
  p.files.reset();  // its pipe ends close: readers see EOF, writers EPIPE
  p.memory.reset();
  p.space.reset();
  for (auto& [pid, q] : processes_)
    if (q->ppid == p.pid) q->ppid = 1;  // orphans go to "init", which collects them
  std::vector<int> orphans;
  for (auto& [pid, q] : processes_)
    if (q->ppid == 1 && q->ended && q.get() != first_process_) orphans.push_back(pid);
  LinuxProcess* parent = process(p.ppid);
  SignalInfo info;
  if (parent && !parent->ended) {
    info.signo = abi::kSigchld, info.child = true, info.pid = uint32_t(p.pid), info.uid = kUid;
    const int signo = p.status & 0x7F;
    info.code = signo ? abi::kCldKilled : abi::kCldExited;
    info.status = signo ? signo : (p.status >> 8) & 0xFF;
    // A parent that ignores SIGCHLD (or says SA_NOCLDWAIT) leaves no zombies.
    const SigAction& a = parent->actions[size_t(abi::kSigchld)];
    if (a.handler == abi::kSigIgn || (a.flags & abi::kSaNocldwait)) orphans.push_back(p.pid);
  }
  const int parent_pid = parent ? parent->pid : 0;
  for (int pid : orphans)
    if (LinuxProcess* q = process(pid)) reap(*q);
  // Last, since a signal can end the parent at once (a wake dispatches it): nothing
  // here may be used after.
  if (info.signo) {
    wake_callers(parent, now_);
    if (LinuxProcess* q = process(parent_pid)) post_process_signal(*q, info);
  }
}

void LinuxKernel::reap(LinuxProcess& p) {
  if (LinuxProcess* parent = process(p.ppid)) parent->children_cycles += p.cpu_cycles + p.children_cycles;
  for (auto& t : threads_)
    if (t->proc == &p) t->proc = nullptr;  // exited threads not yet cleared away
  processes_.erase(p.pid);
}

void LinuxKernel::kill_process(LinuxProcess& p, int signo) { end_process(p, signo & 0x7F); }

}  // namespace linux_user
