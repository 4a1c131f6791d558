// Threads of a Linux process on I-streams: which thread runs where (the machine's
// Dispatcher), turns when threads outnumber I-streams, thread exit, and futexes in
// simulated time. Everything is decided in a fixed order (creation, wait order,
// I-stream number), so the same program gives the same interleaving every run.
#include <algorithm>

#include "linux/linux_abi.h"
#include "linux/linux_process.h"

namespace linux_user {
namespace abi = linux_abi;
namespace {
constexpr double kTurnSeconds = 1e-3;  // a turn when threads outnumber I-streams
}  // namespace

void LinuxProcess::save_context(LinuxThread& t) {
  emu::Cpu& c = *t.cpu;
  ThreadContext& x = t.saved;
  std::copy(c.gr, c.gr + 16, x.gr);
  std::copy(c.vr, c.vr + 32, x.vr);
  std::copy(c.ar, c.ar + 16, x.ar);
  x.fpc = c.fpc, x.psw_addr = c.psw_addr, x.cc = c.cc, x.prog_mask = c.prog_mask;
  running_[istream_of(c)] = nullptr;
  t.cpu = nullptr;
}

void LinuxProcess::load_context(LinuxThread& t, unsigned istream) {
  emu::Cpu& c = *cpus_[istream];
  const ThreadContext& x = t.saved;
  std::copy(x.gr, x.gr + 16, c.gr);
  std::copy(x.vr, x.vr + 32, c.vr);
  std::copy(x.ar, x.ar + 16, c.ar);
  c.fpc = x.fpc, c.psw_addr = x.psw_addr, c.cc = x.cc, c.prog_mask = x.prog_mask;
  t.cpu = &c;
  t.last_istream = istream;
  running_[istream] = &t;
}

bool LinuxProcess::dispatch(unsigned istream, Why why) {
  if (exited_) return false;
  LinuxThread* cur = running_[istream];
  if (cur && cur->exited) {
    cur->cpu = nullptr;
    running_[istream] = cur = nullptr;
  }
  if (cur && (cur->waiting || (why == Why::TimeUp && !ready_.empty()))) {
    save_context(*cur);
    if (!cur->waiting) ready_.push_back(cur);  // its turn is over: to the back
    cur = nullptr;
  }
  if (!cur && !ready_.empty()) {
    cur = ready_.front();
    ready_.pop_front();
    load_context(*cur, istream);
  }
  if (cur) deliver_pending(*cur);  // signals sent to it while it was away or busy
  if (exited_) return false;         // one of them ended the process
  slice_set_[istream] = false;
  if (cur && !ready_.empty()) {
    machine_->set_deadline(istream, cpus_[istream]->cycles + uint64_t(kTurnSeconds * cpus_[istream]->clock_ghz * 1e9));
    slice_set_[istream] = true;
  }
  return cur != nullptr;
}

void LinuxProcess::ask_for_turns() {
  for (unsigned k = 0; k < cpus_.size(); ++k)
    if (running_[k] && !slice_set_[k]) {
      machine_->set_deadline(k, cpus_[k]->cycles + uint64_t(kTurnSeconds * cpus_[k]->clock_ghz * 1e9));
      slice_set_[k] = true;
    }
}

void LinuxProcess::make_runnable(LinuxThread& t, uint64_t now) {
  // Its last I-stream if that is free (its lines may still be in that cache), else
  // the lowest free one, else a turn later.
  auto free = [&](unsigned k) { return !running_[k] && machine_->state(k) == emu::IStreamState::Idle; };
  int to = free(t.last_istream) ? int(t.last_istream) : -1;
  for (unsigned k = 0; to < 0 && k < cpus_.size(); ++k)
    if (free(k)) to = int(k);
  if (to < 0) {
    ready_.push_back(&t);
    ask_for_turns();
    return;
  }
  load_context(t, unsigned(to));
  machine_->wake(unsigned(to), now);  // dispatches it: the thread is there
}

void LinuxProcess::end_thread(LinuxThread& t, int status) {
  t.exited = true;
  t.cpu->request_stop();
  if (&t == threads_.front().get()) main_exit_code_ = status;
  if (t.clear_child_tid) {
    // CLONE_CHILD_CLEARTID: zero the thread id and wake who waits on it (pthread_join).
    uint8_t zero[4] = {};
    if (copy_out(t.clear_child_tid, zero, 4)) futex_wake(t.clear_child_tid, 1, ~0u, t.cpu->cycles);
  }
  if (std::all_of(threads_.begin(), threads_.end(), [](const auto& x) { return x->exited; }) && !exited_) {
    exited_ = true;
    exit_code_ = every_istream_starts_ ? main_exit_code_ : status;
    stop_when_ended();
  }
}

void LinuxProcess::futex_wait(LinuxThread& t, uint64_t addr, uint32_t bitset, uint64_t deadline) {
  t.waiting = true;
  t.futex_addr = addr, t.futex_bitset = bitset, t.wait_serial = ++wait_serial_;
  t.cpu->gr[2] = 0;  // what the call returns when a wake ends the wait
  t.cpu->request_stop();
  if (deadline != ~0ull) {
    LinuxThread* w = &t;
    const uint64_t serial = t.wait_serial;
    machine_->events().schedule(deadline, [this, w, serial, deadline] {
      if (!w->waiting || w->wait_serial != serial || exited_) return;
      w->waiting = false;
      w->saved.gr[2] = uint64_t(-abi::kEtimedout);
      make_runnable(*w, deadline);
    });
  }
}

int64_t LinuxProcess::futex_wake(uint64_t addr, uint64_t count, uint32_t bitset, uint64_t now) {
  std::vector<LinuxThread*> waiters;
  for (auto& t : threads_)
    if (t->waiting && t->futex_addr == addr && (t->futex_bitset & bitset)) waiters.push_back(t.get());
  std::sort(waiters.begin(), waiters.end(), [](auto* a, auto* b) { return a->wait_serial < b->wait_serial; });
  int64_t woken = 0;
  for (LinuxThread* w : waiters) {
    if (uint64_t(woken) >= count) break;
    w->waiting = false;
    make_runnable(*w, now);
    ++woken;
  }
  return woken;
}

int64_t LinuxProcess::futex_requeue(uint64_t addr, uint64_t wake, uint64_t requeue, uint64_t to, uint64_t now) {
  int64_t n = futex_wake(addr, wake, ~0u, now);
  std::vector<LinuxThread*> waiters;
  for (auto& t : threads_)
    if (t->waiting && t->futex_addr == addr) waiters.push_back(t.get());
  std::sort(waiters.begin(), waiters.end(), [](auto* a, auto* b) { return a->wait_serial < b->wait_serial; });
  for (size_t k = 0; k < waiters.size() && k < requeue; ++k) waiters[k]->futex_addr = to, ++n;
  return n;
}

}  // namespace linux_user
