// Signals as the s390x kernel delivers them (arch/s390/kernel/signal.c, traps.c):
// which program interruption becomes which signal, the rt signal frame a handler
// gets (siginfo and ucontext, the registers in _sigregs), and rt_sigreturn.
#include <cstring>
#include <vector>

#include "linux/linux_abi.h"
#include "linux/linux_kernel.h"

namespace linux_user {
namespace abi = linux_abi;
using abi::put64;
using abi::put32;
using abi::get64;
using abi::get32;
namespace {

uint64_t bit(int signo) { return 1ull << (signo - 1); }
constexpr uint64_t kUnblockable = (1ull << (abi::kSigkill - 1)) | (1ull << (abi::kSigstop - 1));

// si_code of a data exception from its DXC (do_fp_trap): IEEE exceptions by flag,
// anything else (compare and trap's FF) 0.
int fp_code(uint8_t dxc) {
  if (dxc & 0x03) return 0;
  if (dxc & 0x80) return abi::kFpeFltinv;
  if (dxc & 0x40) return abi::kFpeFltdiv;
  if (dxc & 0x20) return abi::kFpeFltovf;
  if (dxc & 0x10) return abi::kFpeFltund;
  if (dxc & 0x08) return abi::kFpeFltres;
  return 0;
}

// si_code of a vector-processing exception (vector_exception): from the exception
// nibble of the VXC, which the kernel reads back from the FPC.
int vector_code(uint8_t vxc) {
  switch (vxc & 0x0F) {
    case 1: return abi::kFpeFltinv;
    case 2: return abi::kFpeFltdiv;
    case 3: return abi::kFpeFltovf;
    case 4: return abi::kFpeFltund;
    case 5: return abi::kFpeFltres;
    default: return 0;
  }
}

}  // namespace

// siginfo's union as the kernel fills it for the kind of signal: the faulting address,
// the child's pid, uid and status (SIGCHLD), the timer's id, overrun and value, or the
// sender's pid and uid.
void write_siginfo(uint8_t* si, const SignalInfo& info) {
  put32(si + abi::kSiSigno, uint32_t(info.signo));
  put32(si + abi::kSiCode, uint32_t(info.code));
  if (info.fault) {
    put64(si + abi::kSiAddr, info.addr);
  } else if (info.timer) {
    put32(si + abi::kSiTimerid, uint32_t(info.timer_id)), put32(si + abi::kSiOverrun, uint32_t(info.overrun));
    put64(si + abi::kSiValue, info.value);
  } else {
    put32(si + abi::kSiPid, info.pid), put32(si + abi::kSiUid, info.uid);
    if (info.child) put32(si + abi::kSiStatus, uint32_t(info.status));
    else if (info.code == abi::kSiQueue) put64(si + abi::kSiValue, info.value);
  }
}

ProgramCheckSignal linux_signal_for(const emu::ProgramCheckInfo& check, bool page_mapped) {
  using emu::Pic;
  const emu::ProgramInterrupt& pi = check.interrupt;
  const uint64_t at = check.insn_address, after = at + check.insn_length;
  ProgramCheckSignal s;
  s.info.fault = true;
  s.info.addr = at;  // SIGILL and SIGFPE name the instruction
  s.resume = after;
  auto segv = [&](int code) {
    // The kernel knows the failing address to the page only.
    s.info.signo = abi::kSigsegv, s.info.code = code, s.info.addr = emu::page_down(pi.address);
    s.resume = at;  // nullified, or rewound as the kernel does for protection
  };
  switch (pi.code) {
    case Pic::PageTranslation: segv(page_mapped ? abi::kSegvAccerr : abi::kSegvMaperr); break;
    case Pic::Protection: segv(abi::kSegvAccerr); break;
    case Pic::Addressing: segv(abi::kSegvMaperr); break;  // beyond the space: no region there
    case Pic::Operation: s.info.signo = abi::kSigill, s.info.code = abi::kIllIllopc; break;
    case Pic::PrivilegedOperation: s.info.signo = abi::kSigill, s.info.code = abi::kIllPrvopc; break;
    case Pic::Execute: case Pic::Specification: s.info.signo = abi::kSigill, s.info.code = abi::kIllIllopn; break;
    case Pic::Data:
      if (pi.dxc) s.info.signo = abi::kSigfpe, s.info.code = fp_code(pi.dxc);
      else s.info.signo = abi::kSigill, s.info.code = abi::kIllIllopn;
      break;
    case Pic::VectorProcessing: s.info.signo = abi::kSigfpe, s.info.code = vector_code(pi.dxc); break;
    case Pic::FixedPointOverflow: s.info.signo = abi::kSigfpe, s.info.code = abi::kFpeIntovf; break;
    case Pic::FixedPointDivide: s.info.signo = abi::kSigfpe, s.info.code = abi::kFpeIntdiv; break;
  }
  if (!s.info.signo) s.info.signo = abi::kSigill, s.info.code = abi::kIllIllopc;
  return s;
}

bool LinuxKernel::signal_kills(const LinuxProcess& p, int signo) const {
  const SigAction& a = p.actions[size_t(signo)];
  if (a.handler != abi::kSigDfl) return false;
  switch (signo) {
    case abi::kSigchld: case abi::kSigcont: case abi::kSigurg: case abi::kSigwinch:
    case abi::kSigstop: case abi::kSigtstp: case abi::kSigttin: case abi::kSigttou:
      return false;  // ignored by default (there is no job control to stop for)
    default: return true;
  }
}

bool LinuxKernel::signal_ignored(const LinuxProcess& p, int signo) const {
  const SigAction& a = p.actions[size_t(signo)];
  return a.handler == abi::kSigIgn || (a.handler == abi::kSigDfl && !signal_kills(p, signo));
}

void LinuxKernel::post_signal(LinuxThread& t, const SignalInfo& info) {
  if (t.exited || signal_ignored(*t.proc, info.signo)) return;
  t.pending |= bit(info.signo);
  t.pending_info[size_t(info.signo - 1)] = info;
  if (t.blocked & bit(info.signo)) {
    // rt_sigtimedwait takes it though it is blocked: the call is issued again and finds it.
    if (t.waiting == WaitKind::Call && (t.sigwait_set & bit(info.signo))) {
      t.waiting = WaitKind::None;
      make_runnable(t, now_);
    }
    return;
  }
  // A thread waiting in a call takes it now (the call ends or restarts after the
  // handler); one running on another I-stream takes it at once, as an interrupt would
  // reach it: its I-stream is dispatched again at its clock.
  if (t.waiting != WaitKind::None) interrupt_wait(t, now_);
  else if (t.cpu && &t != calling_) machine_.set_deadline(istream_of(*t.cpu), t.cpu->cycles);
}

void LinuxKernel::post_process_signal(LinuxProcess& p, const SignalInfo& info) {
  if (p.ended || signal_ignored(p, info.signo)) return;
  // The first thread that does not block it takes it (the main thread first), else the
  // main thread keeps it pending until it unblocks it.
  LinuxThread* to = nullptr;
  for (auto& t : threads_)
    if (t->proc == &p && !t->exited) {
      if (!to) to = t.get();
      if (!(t->blocked & bit(info.signo))) {
        to = t.get();
        break;
      }
    }
  if (to) post_signal(*to, info);
}

void LinuxKernel::deliver_pending(LinuxThread& t) {
  while (!exited_ && !t.exited && (t.pending & ~t.blocked)) {
    LinuxProcess& p = *t.proc;
    const int signo = __builtin_ctzll(t.pending & ~t.blocked) + 1;
    t.pending &= ~bit(signo);
    if (signal_kills(p, signo)) {
      kill_process(p, signo);
      return;
    }
    if (p.actions[size_t(signo)].handler == abi::kSigIgn) continue;
    if (!setup_frame(t, t.pending_info[size_t(signo - 1)])) {
      kill_process(p, abi::kSigsegv);
      return;
    }
  }
}

bool LinuxKernel::setup_frame(LinuxThread& t, const SignalInfo& info) {
  emu::Cpu& c = *t.cpu;
  LinuxProcess& p = *t.proc;
  SigAction& a = p.actions[size_t(info.signo)];
  const uint64_t old_sp = c.gr[15];
  const bool on_altstack = t.altstack_size && old_sp > t.altstack_sp && old_sp - t.altstack_sp <= t.altstack_size;
  uint64_t sp = old_sp;
  if ((a.flags & abi::kSaOnstack) && !(t.altstack_flags & abi::kSsDisable) && t.altstack_size && !on_altstack)
    sp = t.altstack_sp + t.altstack_size;
  const bool vx = p.hwcap & abi::kHwcapVxrs;
  const uint64_t frame_bytes = vx ? abi::kRtFrameBytesVx : abi::kRtFrameBytes;
  const uint64_t frame = (sp - frame_bytes) & ~uint64_t(7);
  std::vector<uint8_t> f(frame_bytes, 0);
  put64(&f[0], old_sp);  // the back chain
  uint64_t restorer = a.restorer;
  if (!(a.flags & abi::kSaRestorer)) {
    emu::Cpu::store_be<uint16_t>(&f[abi::kFrameSvcInsn], uint16_t(0x0A00 | 173));  // SVC rt_sigreturn
    restorer = p.memory->signal_return();  // the stack does not execute (IEP)
  }
  uint8_t* si = &f[abi::kFrameInfo];
  write_siginfo(si, info);
  uint8_t* uc = &f[abi::kFrameUc];
  put64(uc + abi::kUcStack, t.altstack_sp);
  put32(uc + abi::kUcStack + 8, uint32_t(!t.altstack_size ? abi::kSsDisable : on_altstack ? abi::kSsOnstack : 0));
  put64(uc + abi::kUcStack + 16, t.altstack_size);
  uint8_t* sr = uc + abi::kUcMcontext;
  put64(sr + abi::kSregsPsw, c.psw_mask());
  put64(sr + abi::kSregsPsw + 8, c.psw_addr);
  for (unsigned r = 0; r < 16; ++r) put64(sr + abi::kSregsGprs + 8 * r, c.gr[r]);
  for (unsigned r = 0; r < 16; ++r) put32(sr + abi::kSregsAcrs + 4 * r, c.ar[r]);
  put32(sr + abi::kSregsFpc, c.fpc);
  for (unsigned r = 0; r < 16; ++r) put64(sr + abi::kSregsFprs + 8 * r, c.fpr(r));
  // rt_sigsuspend's caller gets its own mask back when the handler returns.
  put64(uc + abi::kUcSigmask, t.restore_mask ? t.saved_mask : t.blocked);
  t.restore_mask = false;
  if (vx) {
    put64(uc + abi::kUcFlags, abi::kUcVxrs);
    uint8_t* ext = uc + abi::kUcMcontextExt;
    for (unsigned r = 0; r < 16; ++r) put64(ext + abi::kExtVxrsLow + 8 * r, c.vr[r].lo);
    for (unsigned r = 0; r < 16; ++r) {
      put64(ext + abi::kExtVxrsHigh + 16 * r, c.vr[16 + r].hi);
      put64(ext + abi::kExtVxrsHigh + 16 * r + 8, c.vr[16 + r].lo);
    }
  }
  if (!p.copy_out(frame, f.data(), f.size())) return false;

  t.blocked |= a.mask | ((a.flags & abi::kSaNodefer) ? 0 : bit(info.signo));
  t.blocked &= ~kUnblockable;
  const uint64_t handler = a.handler;
  if (a.flags & abi::kSaResethand) a = SigAction{};
  c.gr[2] = uint64_t(info.signo);
  c.gr[3] = frame + abi::kFrameInfo;
  c.gr[4] = frame + abi::kFrameUc;
  c.gr[14] = restorer;
  c.gr[15] = frame;
  c.psw_addr = handler;
  return true;
}

bool LinuxKernel::sigreturn(LinuxThread& t) {
  emu::Cpu& c = *t.cpu;
  LinuxProcess& p = *t.proc;
  const uint64_t frame = c.gr[15];
  const bool vx = p.hwcap & abi::kHwcapVxrs;
  std::vector<uint8_t> uc(vx ? abi::kUcMcontextExt + abi::kExtBytes : abi::kUcMcontextExt);
  if (!p.copy_in(frame + abi::kFrameUc, uc.data(), uc.size())) return false;
  t.blocked = get64(&uc[abi::kUcSigmask]) & ~kUnblockable;
  // The alternate stack as the frame says (sigaltstack semantics: only if not on it).
  const uint32_t ss_flags = get32(&uc[abi::kUcStack + 8]);
  if (!(ss_flags & abi::kSsOnstack)) {
    t.altstack_sp = get64(&uc[abi::kUcStack]);
    t.altstack_size = get64(&uc[abi::kUcStack + 16]);
    t.altstack_flags = int(ss_flags & abi::kSsDisable);
  }
  const uint8_t* sr = &uc[abi::kUcMcontext];
  const uint64_t mask = get64(sr + abi::kSregsPsw);
  c.cc = uint8_t((mask >> 44) & 3);
  c.prog_mask = uint8_t((mask >> 40) & 0xF);
  c.psw_addr = get64(sr + abi::kSregsPsw + 8);
  for (unsigned r = 0; r < 16; ++r) c.gr[r] = get64(sr + abi::kSregsGprs + 8 * r);
  for (unsigned r = 0; r < 16; ++r) c.ar[r] = get32(sr + abi::kSregsAcrs + 4 * r);
  c.fpc = get32(sr + abi::kSregsFpc);
  for (unsigned r = 0; r < 16; ++r) c.fpr(r) = get64(sr + abi::kSregsFprs + 8 * r);
  if (vx) {
    const uint8_t* ext = &uc[abi::kUcMcontextExt];
    for (unsigned r = 0; r < 16; ++r) c.vr[r].lo = get64(ext + abi::kExtVxrsLow + 8 * r);
    for (unsigned r = 0; r < 16; ++r)
      c.vr[16 + r] = {get64(ext + abi::kExtVxrsHigh + 16 * r), get64(ext + abi::kExtVxrsHigh + 16 * r + 8)};
  }
  return true;
}

}  // namespace linux_user
