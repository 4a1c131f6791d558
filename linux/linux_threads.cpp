// Threads on I-streams: which thread runs where (the machine's Dispatcher), turns when
// threads outnumber I-streams, futexes and waiting system calls in simulated time.
// Everything is decided in a fixed order (creation, wait order, I-stream number), so
// the same programs give the same interleaving every run.
#include <algorithm>

#include "linux/linux_abi.h"
#include "linux/linux_kernel.h"

namespace linux_user {
namespace abi = linux_abi;
namespace {
constexpr double kTurnSeconds = 1e-3;  // a turn when threads outnumber I-streams
constexpr uint64_t kSvcLength = 2;     // SVC I (what a waiting call goes back to)
}  // namespace

void LinuxKernel::copy_registers(const emu::Cpu& c, ThreadContext& x) {
  std::copy(c.gr, c.gr + 16, x.gr);
  std::copy(c.vr, c.vr + 32, x.vr);
  std::copy(c.ar, c.ar + 16, x.ar);
  x.fpc = c.fpc, x.psw_addr = c.psw_addr, x.cc = c.cc, x.prog_mask = c.prog_mask;
}

void LinuxKernel::save_context(LinuxThread& t) {
  copy_registers(*t.cpu, t.saved);
  if (t.proc) t.proc->cpu_cycles += t.cpu->cycles - t.loaded_at;
  running_[istream_of(*t.cpu)] = nullptr;
  t.cpu = nullptr;
}

void LinuxKernel::load_context(LinuxThread& t, unsigned istream) {
  emu::Cpu& c = *cpus_[istream];
  const ThreadContext& x = t.saved;
  std::copy(x.gr, x.gr + 16, c.gr);
  std::copy(x.vr, x.vr + 32, c.vr);
  std::copy(x.ar, x.ar + 16, c.ar);
  c.fpc = x.fpc, c.psw_addr = x.psw_addr, c.cc = x.cc, c.prog_mask = x.prog_mask;
  c.switch_address_space(*t.proc->space);  // its process's ASCE
  t.cpu = &c;
  t.loaded_at = c.cycles;
  t.last_istream = istream;
  running_[istream] = &t;
}

bool LinuxKernel::dispatch(unsigned istream, Why why) {
  if (exited_) return false;
  LinuxThread* cur = running_[istream];
  if (cur && cur->exited) {
    cur->cpu = nullptr;
    running_[istream] = cur = nullptr;
    leave_space(*cpus_[istream]);
  }
  if (cur && (cur->waiting != WaitKind::None || (why == Why::TimeUp && !ready_.empty()))) {
    save_context(*cur);
    if (cur->waiting == WaitKind::None) ready_.push_back(cur);  // its turn is over: to the back
    cur = nullptr;
  }
  if (!cur && !ready_.empty()) {
    cur = ready_.front();
    ready_.pop_front();
    load_context(*cur, istream);
  }
  if (cur) {
    deliver_pending(*cur);  // signals sent to it while it was away or busy
    if (!cur->call_resumed) restore_suspend_mask(*cur);
  }
  if (exited_) return false;         // one of them ended the run
  if (cur && cur->exited) return dispatch(istream, why);  // or its process
  slice_set_[istream] = false;
  if (cur && !ready_.empty()) {
    machine_.set_deadline(istream, cpus_[istream]->cycles + uint64_t(kTurnSeconds * cpus_[istream]->clock_ghz * 1e9));
    slice_set_[istream] = true;
  }
  return cur != nullptr;
}

void LinuxKernel::sweep_threads() {
  // Only here, where no loop over the threads is under way (a dispatch can be reached
  // from inside one: a wake dispatches at once).
  if (!sweep_due_) return;
  sweep_due_ = false;
  std::erase_if(threads_, [&](const std::unique_ptr<LinuxThread>& t) {
    return t->exited && !t->cpu && std::find(running_.begin(), running_.end(), t.get()) == running_.end();
  });
}

void LinuxKernel::ask_for_turns() {
  for (unsigned k = 0; k < cpus_.size(); ++k)
    if (running_[k] && !slice_set_[k]) {
      machine_.set_deadline(k, cpus_[k]->cycles + uint64_t(kTurnSeconds * cpus_[k]->clock_ghz * 1e9));
      slice_set_[k] = true;
    }
}

void LinuxKernel::make_runnable(LinuxThread& t, uint64_t now) {
  // Its last I-stream if that is free (its lines may still be in that cache), else
  // the lowest free one, else a turn later.
  auto free = [&](unsigned k) { return !running_[k] && machine_.state(k) == emu::IStreamState::Idle; };
  int to = free(t.last_istream) ? int(t.last_istream) : -1;
  for (unsigned k = 0; to < 0 && k < cpus_.size(); ++k)
    if (free(k)) to = int(k);
  if (to < 0) {
    ready_.push_back(&t);
    ask_for_turns();
    return;
  }
  load_context(t, unsigned(to));
  machine_.wake(unsigned(to), now);  // dispatches it: the thread is there
}

void LinuxKernel::leave_space(emu::Cpu& cpu) { cpu.switch_address_space(*idle_space_); }

void LinuxKernel::futex_wait(LinuxThread& t, uint64_t addr, uint32_t bitset, uint64_t deadline) {
  t.waiting = WaitKind::Futex;
  t.futex_addr = addr, t.futex_bitset = bitset, t.wait_serial = ++wait_serial_;
  t.cpu->gr[2] = 0;  // what the call returns when a wake ends the wait
  t.cpu->request_stop();
  if (deadline != ~0ull) end_wait_at(t, deadline, [](LinuxThread& w) { w.saved.gr[2] = uint64_t(-abi::kEtimedout); });
}

void LinuxKernel::end_wait_at(LinuxThread& t, uint64_t deadline, void (*on_end)(LinuxThread&)) {
  LinuxThread* w = &t;
  const uint64_t serial = t.wait_serial;
  const int tid = t.tid;
  const WaitKind kind = t.waiting;
  machine_.events().schedule(deadline, [this, w, tid, kind, serial, deadline, on_end] {
    // The thread may have gone (its record too), or be in another wait by then.
    if (exited_ || std::none_of(threads_.begin(), threads_.end(), [&](auto& x) { return x.get() == w; })) return;
    if (w->tid != tid || w->waiting != kind || w->wait_serial != serial || w->exited) return;
    w->waiting = WaitKind::None;
    now_ = deadline;
    on_end(*w);
    make_runnable(*w, deadline);
  });
}

int64_t LinuxKernel::futex_wake(const LinuxProcess& p, uint64_t addr, uint64_t count, uint32_t bitset, uint64_t now) {
  std::vector<LinuxThread*> waiters;
  for (auto& t : threads_)
    if (t->waiting == WaitKind::Futex && t->proc == &p && t->futex_addr == addr && (t->futex_bitset & bitset))
      waiters.push_back(t.get());
  std::sort(waiters.begin(), waiters.end(), [](auto* a, auto* b) { return a->wait_serial < b->wait_serial; });
  int64_t woken = 0;
  for (LinuxThread* w : waiters) {
    if (uint64_t(woken) >= count) break;
    w->waiting = WaitKind::None;
    make_runnable(*w, now);
    ++woken;
  }
  return woken;
}

int64_t LinuxKernel::futex_requeue(const LinuxProcess& p, uint64_t addr, uint64_t wake, uint64_t requeue,
                                   uint64_t to, uint64_t now) {
  int64_t n = futex_wake(p, addr, wake, ~0u, now);
  std::vector<LinuxThread*> waiters;
  for (auto& t : threads_)
    if (t->waiting == WaitKind::Futex && t->proc == &p && t->futex_addr == addr) waiters.push_back(t.get());
  std::sort(waiters.begin(), waiters.end(), [](auto* a, auto* b) { return a->wait_serial < b->wait_serial; });
  for (size_t k = 0; k < waiters.size() && k < requeue; ++k) waiters[k]->futex_addr = to, ++n;
  return n;
}

void LinuxKernel::wait_call(LinuxThread& t, std::vector<const void*> keys, uint64_t deadline, bool restartable) {
  t.waiting = WaitKind::Call;
  t.wait_keys = std::move(keys);
  t.call_deadline = deadline;
  t.restartable = restartable;
  t.call_resumed = true;  // what the call finds when it is issued again
  t.wait_serial = ++wait_serial_;
  t.cpu->psw_addr -= kSvcLength;  // the call is issued again when the thread runs
  t.cpu->request_stop();
  if (deadline != ~0ull) end_wait_at(t, deadline, [](LinuxThread& w) { w.timed_out = true; });
}

void LinuxKernel::wait_result(LinuxThread& t, const void* key, int64_t result) {
  t.waiting = WaitKind::Result;
  t.interruptible = false;
  t.sleep_rem = 0;
  t.wait_keys = {key};
  t.cpu->gr[2] = uint64_t(result);
  t.cpu->request_stop();
}

void LinuxKernel::wake_callers(const void* key, uint64_t now) {
  for (size_t k = 0; k < threads_.size(); ++k) {  // make_runnable does not add threads
    LinuxThread& t = *threads_[k];
    if ((t.waiting != WaitKind::Call && t.waiting != WaitKind::Result) || t.exited) continue;
    if (std::find(t.wait_keys.begin(), t.wait_keys.end(), key) == t.wait_keys.end()) continue;
    if (t.waiting == WaitKind::Result && t.interruptible) continue;  // a sleep: only its time ends it
    t.waiting = WaitKind::None;
    make_runnable(t, now);
  }
}

void LinuxKernel::interrupt_wait(LinuxThread& t, uint64_t now) {
  switch (t.waiting) {
    case WaitKind::None: return;
    case WaitKind::Futex: t.saved.gr[2] = uint64_t(-abi::kEintr); break;
    case WaitKind::Result: {
      if (!t.interruptible) return;  // vfork's parent waits on
      t.saved.gr[2] = uint64_t(-abi::kEintr);
      if (t.sleep_rem && t.sleep_until > now) {  // nanosleep's time left
        const uint64_t ns = uint64_t(double(t.sleep_until - now) / cpus_.front()->clock_ghz);
        uint8_t ts[16];
        emu::Cpu::store_be<uint64_t>(ts, ns / 1000000000), emu::Cpu::store_be<uint64_t>(ts + 8, ns % 1000000000);
        t.proc->copy_out(t.sleep_rem, ts, 16);
      }
      break;
    }
    case WaitKind::Call: {
      // The handler runs first; the call then returns what it moved, -EINTR, or is
      // issued again (SA_RESTART) from the SVC the PSW points at.
      const int signo = __builtin_ctzll(t.pending & ~t.blocked) + 1;
      const bool restart = t.restartable && (t.proc->actions[size_t(signo)].flags & abi::kSaRestart);
      if (t.call_progress || !restart) {
        t.saved.psw_addr += kSvcLength;
        t.saved.gr[2] = t.call_progress ? t.call_progress : uint64_t(-abi::kEintr);
      }
      end_call(t);
      t.sigwait_set = 0;
      break;
    }
  }
  t.waiting = WaitKind::None;
  make_runnable(t, now);
}

void LinuxKernel::end_call(LinuxThread& t) {
  t.wait_keys.clear();
  t.call_deadline = ~0ull;
  t.call_resumed = t.timed_out = false;
  t.call_progress = 0;
}

}  // namespace linux_user
