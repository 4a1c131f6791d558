// Time on the simulated clock: sleeps that a signal ends, the suspend masks of
// rt_sigsuspend/ppoll/pselect6, the process's ITIMER_REAL (alarm, setitimer) and POSIX
// timers (timer_create). Expiries are machine events at I-stream clocks, so a timer
// fires at the same simulated instant, with the same interleaving, every run.
#include <algorithm>

#include "linux/linux_abi.h"
#include "linux/linux_kernel.h"

namespace linux_user {
namespace abi = linux_abi;
namespace {
constexpr uint64_t kUnblockable = (1ull << (abi::kSigkill - 1)) | (1ull << (abi::kSigstop - 1));
constexpr int kSiKernel = 0x80;  // SI_KERNEL: what an itimer's SIGALRM says
}  // namespace

void LinuxKernel::sleep(LinuxThread& t, uint64_t until, uint64_t rem) {
  t.waiting = WaitKind::Result;
  t.wait_keys.clear();
  t.interruptible = true;
  t.sleep_until = until, t.sleep_rem = rem;
  t.wait_serial = ++wait_serial_;
  t.cpu->gr[2] = 0;
  t.cpu->request_stop();
  end_wait_at(t, until, [](LinuxThread&) {});  // the call returns 0, set above
}

void LinuxKernel::suspend_with_mask(LinuxThread& t, uint64_t mask) {
  if (!t.restore_mask) t.saved_mask = t.blocked;
  t.restore_mask = true;
  t.blocked = mask & ~kUnblockable;
}

void LinuxKernel::restore_suspend_mask(LinuxThread& t) {
  if (!t.restore_mask) return;
  t.blocked = t.saved_mask;
  t.restore_mask = false;
}

uint64_t LinuxKernel::alarm_left(const LinuxProcess& p, uint64_t now) const {
  if (!p.alarm_serial) return 0;
  return p.alarm_at > now ? p.alarm_at - now : 1;
}

void LinuxKernel::arm_alarm(LinuxProcess& p, uint64_t now, uint64_t value, uint64_t interval) {
  p.alarm_serial = value ? ++wait_serial_ : 0;
  p.alarm_interval = value ? interval : 0;
  if (!value) return;
  p.alarm_at = now + value;
  const int pid = p.pid;
  const uint64_t serial = p.alarm_serial, at = p.alarm_at;
  machine_.events().schedule(at, [this, pid, serial, at] {
    now_ = at;
    alarm_fired(pid, serial);
  });
  end_calling_slice();
}

void LinuxKernel::end_calling_slice() {
  // A lone I-stream runs to the next event it knew of when it started: one armed by its
  // own system call must end that run, or the I-stream would run past it.
  if (calling_ && calling_->cpu) calling_->cpu->end_slice();
}

void LinuxKernel::alarm_fired(int pid, uint64_t serial) {
  LinuxProcess* p = process(pid);
  if (exited_ || !p || p->ended || p->alarm_serial != serial) return;
  SignalInfo info;
  info.signo = abi::kSigalrm, info.code = kSiKernel;
  if (p->alarm_interval) arm_alarm(*p, p->alarm_at, p->alarm_interval, p->alarm_interval);
  else p->alarm_serial = 0;
  post_process_signal(*p, info);
}

int LinuxKernel::next_timer_id(const LinuxProcess& p) const {
  int id = 0;  // the lowest free one, as Linux gives them
  while (timers_.count({p.pid, id})) ++id;
  return id;
}

void LinuxKernel::arm_timer(PosixTimer& timer, uint64_t now, uint64_t value, uint64_t interval) {
  timer.serial = value ? ++wait_serial_ : 0;
  timer.interval = value ? interval : 0;
  if (!value) return;
  timer.at = now + value;
  const int pid = timer.pid, id = timer.id;
  const uint64_t serial = timer.serial, at = timer.at;
  machine_.events().schedule(at, [this, pid, id, serial, at] {
    now_ = at;
    timer_fired(pid, id, serial);
  });
  end_calling_slice();
}

void LinuxKernel::timer_fired(int pid, int id, uint64_t serial) {
  auto it = timers_.find({pid, id});
  LinuxProcess* p = process(pid);
  if (exited_ || it == timers_.end() || !p || p->ended || it->second.serial != serial) return;
  PosixTimer& timer = it->second;
  if (timer.interval) arm_timer(timer, timer.at, timer.interval, timer.interval);
  else timer.serial = 0;
  if (!timer.notify) return;
  LinuxThread* to = nullptr;
  for (auto& t : threads_)
    if (t->proc == p && !t->exited && (timer.tid ? t->tid == timer.tid : true)) {
      to = t.get();
      break;
    }
  // An expiry while the last one's signal is still pending is an overrun of it.
  const uint64_t bit = 1ull << (timer.signo - 1);
  for (auto& t : threads_) {
    if (t->proc != p || !(t->pending & bit)) continue;
    SignalInfo& queued = t->pending_info[size_t(timer.signo - 1)];
    if (queued.timer && queued.timer_id == timer.id) {
      timer.overrun = ++queued.overrun;
      return;
    }
  }
  SignalInfo info;
  info.signo = timer.signo, info.code = abi::kSiTimer, info.timer = true;
  info.timer_id = timer.id, info.value = timer.value;
  timer.overrun = 0;
  if (timer.tid && to) post_signal(*to, info);
  else if (!timer.tid) post_process_signal(*p, info);
}

}  // namespace linux_user
