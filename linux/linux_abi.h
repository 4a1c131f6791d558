// Facts of the s390x Linux user ABI that the exec personality needs: errno values,
// signal numbers and flags, auxiliary-vector tags and the layouts of the structures
// the kernel writes into user storage. Taken from the kernel's uapi headers
// (arch/s390/include/uapi/asm/*.h, include/uapi/linux/*.h) as facts, not code.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "emu/cpu.h"

namespace linux_user::linux_abi {

// The structures above are big-endian in user storage (s390x): their fields are
// written and read through these.
inline void put64(uint8_t* p, uint64_t v) { emu::Cpu::store_be<uint64_t>(p, v); }
inline void put32(uint8_t* p, uint32_t v) { emu::Cpu::store_be<uint32_t>(p, v); }
inline uint64_t get64(const uint8_t* p) { return emu::Cpu::load_be<uint64_t>(p); }
inline uint32_t get32(const uint8_t* p) { return emu::Cpu::load_be<uint32_t>(p); }

// errno
enum : int64_t {
  kEperm = 1, kEnoent = 2, kEsrch = 3, kEintr = 4, kEio = 5, kE2big = 7, kEnoexec = 8, kEbadf = 9,
  kEchild = 10, kEagain = 11, kEnomem = 12,
  kEacces = 13, kEfault = 14, kEexist = 17, kEnodev = 19, kEnotdir = 20, kEisdir = 21, kEinval = 22, kEmfile = 24,
  kEnotty = 25, kEspipe = 29, kEpipe = 32, kErange = 34, kEnosys = 38, kEnametoolong = 36, kEloop = 40,
  kEtimedout = 110,
};

// Signals (the generic numbering, which s390 uses).
enum : int {
  kSighup = 1, kSigint = 2, kSigquit = 3, kSigill = 4, kSigtrap = 5, kSigabrt = 6, kSigbus = 7,
  kSigfpe = 8, kSigkill = 9, kSigusr1 = 10, kSigsegv = 11, kSigusr2 = 12, kSigpipe = 13, kSigalrm = 14,
  kSigterm = 15, kSigchld = 17, kSigcont = 18, kSigstop = 19, kSigtstp = 20, kSigttin = 21,
  kSigttou = 22, kSigurg = 23, kSigxcpu = 24, kSigxfsz = 25, kSigwinch = 28, kSigsys = 31,
  kNsig = 64,
};
// sigaction flags, sigprocmask `how`, sigaltstack flags
constexpr uint64_t kSaNocldstop = 0x1, kSaNocldwait = 0x2, kSaSiginfo = 0x4, kSaOnstack = 0x08000000, kSaRestart = 0x10000000,
                   kSaNodefer = 0x40000000, kSaResethand = 0x80000000, kSaRestorer = 0x04000000;
constexpr uint64_t kSigDfl = 0, kSigIgn = 1;
enum : uint64_t { kSigBlock = 0, kSigUnblock = 1, kSigSetmask = 2 };
enum : int { kSsOnstack = 1, kSsDisable = 2 };
// si_code values
enum : int {
  kSiUser = 0, kSiQueue = -1, kSiTimer = -2, kSiTkill = -6, kCldExited = 1, kCldKilled = 2, kIllIllopc = 1, kIllIllopn = 2, kIllIlladr = 3, kIllPrvopc = 5,
  kFpeIntdiv = 1, kFpeIntovf = 2, kFpeFltdiv = 3, kFpeFltovf = 4, kFpeFltund = 5, kFpeFltres = 6,
  kFpeFltinv = 7, kSegvMaperr = 1, kSegvAccerr = 2, kTrapBrkpt = 1,
};

// The rt signal frame for a machine without the vector facility (z10):
// callee save area, the sigreturn SVC, siginfo, then the ucontext.
constexpr uint64_t kSignalFrameSize = 160;      // __SIGNAL_FRAMESIZE
constexpr uint64_t kFrameSvcInsn = 160;         // __u16 svc_insn
constexpr uint64_t kFrameInfo = 168;            // struct siginfo (128 bytes, 8-aligned)
constexpr uint64_t kFrameUc = 296;              // struct ucontext_extended
constexpr uint64_t kUcFlags = 0, kUcLink = 8, kUcStack = 16, kUcMcontext = 40, kUcSigmask = 384;
constexpr uint64_t kRtFrameBytes = kFrameUc + 512;  // without uc_mcontext_ext (no VX)
// With the vector facility (AT_HWCAP's VXRS), the frame goes on with _sigregs_ext:
// bits 64-127 of vector registers 0-15, then registers 16-31 whole, then 128 reserved
// bytes; uc_flags says UC_VXRS (arch/s390/kernel/signal.c).
constexpr uint64_t kUcMcontextExt = 512, kExtVxrsLow = 0, kExtVxrsHigh = 128, kExtBytes = 512;
constexpr uint64_t kRtFrameBytesVx = kRtFrameBytes + kExtBytes;
constexpr uint64_t kUcVxrs = 2;
// _sigregs: PSW (mask, address), 16 GPRs, 16 access registers, FPC and pad, 16 FPRs.
constexpr uint64_t kSregsPsw = 0, kSregsGprs = 16, kSregsAcrs = 144, kSregsFpc = 208, kSregsFprs = 216;
// siginfo: si_signo, si_errno, si_code, then the union at 16 (si_pid/si_uid or si_addr).
// SIGCHLD adds si_status at 24; timers put si_timerid at 16, si_overrun at 20 and the
// value at 24; sigqueue the value at 24.
constexpr uint64_t kSiSigno = 0, kSiErrno = 4, kSiCode = 8, kSiPid = 16, kSiUid = 20, kSiAddr = 16,
                   kSiStatus = 24, kSiTimerid = 16, kSiOverrun = 20, kSiValue = 24;
constexpr uint64_t kSiginfoBytes = 128;

// Auxiliary vector tags.
enum : uint64_t {
  kAtNull = 0, kAtPhdr = 3, kAtPhent = 4, kAtPhnum = 5, kAtPagesz = 6, kAtBase = 7, kAtFlags = 8,
  kAtEntry = 9, kAtUid = 11, kAtEuid = 12, kAtGid = 13, kAtEgid = 14, kAtPlatform = 15, kAtHwcap = 16,
  kAtClktck = 17, kAtSecure = 23, kAtRandom = 25, kAtExecfn = 31,
};
constexpr uint64_t kHwcapVxrs = 1u << 11;  // the vector facility: the signal frame carries the VRs
// AT_HWCAP as Linux sets it from the machine's facility list (arch/s390/kernel/
// processor.c, setup_hwcaps): one line per bit, with the STFLE facility bits it needs
// (none: set on every machine Linux runs on).
struct HwcapRule {
  uint64_t bit;
  std::initializer_list<unsigned> facilities;
};
inline constexpr HwcapRule kHwcapRules[] = {
    {1u << 0, {}},           // ESAN3
    {1u << 1, {}},           // ZARCH
    {1u << 2, {7}},          // STFLE: store-facility-list-extended
    {1u << 3, {17}},         // MSA: message-security assist
    {1u << 4, {19}},         // LDISP: long displacement with high performance
    {1u << 5, {}},           // EIMM (Linux needs a z10)
    {1u << 6, {42, 44}},     // DFP
    {1u << 8, {22, 30}},     // ETF3EH: extended-translation 3 and its enhancement
    {1u << 9, {}},           // HIGH_GPRS
    {kHwcapVxrs, {129}},     // VXRS: the vector facility
    {1u << 12, {129, 134}},  // VXRS_BCD: vector packed decimal
    {1u << 13, {129, 135}},  // VXRS_EXT: vector enhancements 1
    {1u << 15, {129, 148}},  // VXRS_EXT2: vector enhancements 2
    {1u << 16, {129, 152}},  // VXRS_PDE: vector packed decimal enhancement
};
// AT_HWCAP for a machine whose STORE FACILITY LIST EXTENDED stores `facility_list`.
uint64_t hwcap_of(const std::vector<uint64_t>& facility_list);

// struct stat (s390x): offsets of the fields tpfemu fills; 144 bytes.
constexpr uint64_t kStatBytes = 144;
constexpr uint64_t kStDev = 0, kStIno = 8, kStNlink = 16, kStMode = 24, kStUid = 28, kStGid = 32,
                   kStRdev = 40, kStSize = 48, kStAtime = 56, kStMtime = 72, kStCtime = 88,
                   kStBlksize = 104, kStBlocks = 112;

// mmap
constexpr uint64_t kProtRead = 1, kProtWrite = 2, kProtExec = 4;
constexpr uint64_t kMapShared = 1, kMapPrivate = 2, kMapFixed = 0x10, kMapAnonymous = 0x20,
                   kMapFixedNoreplace = 0x100000;
constexpr uint64_t kMremapMaymove = 1, kMremapFixed = 2;
constexpr uint64_t kMsAsync = 1, kMsInvalidate = 2, kMsSync = 4;
constexpr uint64_t kMadvDontneed = 4, kMadvDontneedLocked = 24;

// open flags (generic values)
constexpr uint64_t kOAccmode = 3, kOCreat = 0100, kOExcl = 0200, kOTrunc = 01000, kOAppend = 02000,
                   kODirectory = 0200000, kOCloexec = 02000000;
constexpr int64_t kAtFdcwd = -100;
constexpr uint64_t kAtEmptyPath = 0x1000;

// futex
enum : uint64_t { kFutexWait = 0, kFutexWake = 1, kFutexWaitBitset = 9, kFutexWakeBitset = 10 };
constexpr uint64_t kFutexPrivate = 128, kFutexClockRealtime = 256;

// clone flags
constexpr uint64_t kCloneVm = 0x100, kCloneFs = 0x200, kCloneFiles = 0x400, kCloneSighand = 0x800,
                   kCloneVfork = 0x4000, kCloneParent = 0x8000, kCloneThread = 0x10000, kCloneSettls = 0x80000, kCloneParentSettid = 0x100000,
                   kCloneChildCleartid = 0x200000, kCloneChildSettid = 0x1000000;

}  // namespace linux_user::linux_abi
