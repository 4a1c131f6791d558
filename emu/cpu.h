// One z/Architecture CPU (an I-stream): registers, PSW, counters, the storage
// fast path and the interpreter loop. It runs in 64-bit addressing mode.
#pragma once
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emu/address_space.h"
#include "emu/cache.h"
#include "emu/cycle_cause.h"
#include "emu/isa/insn.h"
#include "emu/jit/block_cache.h"
#include "emu/machine_config.h"
#include "emu/program_check.h"
#include "emu/spin_loop.h"
#include "emu/tlb.h"

namespace emu {

class Cpu;
class SystemCpu;

// What the layer above does with SUPERVISOR CALL: emu/ only knows that an SVC
// hands control to it.
class SvcHandler {
 public:
  virtual ~SvcHandler() = default;
  virtual void supervisor_call(Cpu& cpu, uint8_t number) = 0;
};

// The machine an I-stream belongs to: what one I-stream's actions on shared storage
// mean for the others' host-side shortcuts (decode cache, micro-TLB).
class CpuGroup {
 public:
  virtual ~CpuGroup() = default;
  virtual void code_created(const Frame& f) = 0;      // stop fast stores into f
  virtual void code_invalidated(const DecodedPage* old) = 0;  // stop executing old
};

// Who else hears of a ZTRAP EI sample besides the instruction's counter (DecodedPage::samples):
// the profiler, to attribute it to the unit of work the I-stream runs (emu/ knows no
// units of work) and to the I-stream.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  virtual void sample(unsigned istream, uint64_t address) = 0;
};

// What the layer above does when DAT finds a page not present.
class PageFaultHandler {
 public:
  // Retry: the page is there now, the instruction runs again at once. Wait: the
  // instruction is nullified (the PSW points at it when the handler runs, so the
  // handler may save the state) and the I-stream stops (StopReason::Requested); the
  // instruction runs again when the work is dispatched again. Fail: a program check.
  enum class Action { Retry, Wait, Fail };
  virtual ~PageFaultHandler() = default;
  virtual Action page_fault(Cpu& cpu, uint64_t address) = 0;
};

// The timing model an I-stream charges its storage references to. Without it (fast
// exec mode) instructions cost their base cycles only.
struct CpuTiming {
  MemoryHierarchy* caches = nullptr;
  unsigned istream = 0;
  TlbConfig tlb4k, tlb1m;
  unsigned tlb_walk = 0;
};

// One 128-bit vector register: `hi` holds bits 0-63 (the overlapping floating-point
// register), `lo` bits 64-127.
struct VectorRegister {
  uint64_t hi = 0, lo = 0;
};

enum class StopReason { Limit, Requested, ProgramCheck };

struct ProgramCheckInfo {
  ProgramInterrupt interrupt;
  uint64_t insn_address = 0;  // address of the instruction that caused it
  uint8_t insn_bytes[6] = {};
  unsigned insn_length = 0;  // 0 when the instruction itself could not be fetched
  std::string mnemonic;      // empty when the opcode is not implemented
};

struct RunResult {
  StopReason reason;
  ProgramCheckInfo check;  // valid when reason == ProgramCheck
};

class Cpu final : public TlbPurgeListener {
 public:
  // Registers its TLBs with the space's storage, to hear of every purge.
  explicit Cpu(AddressSpace& space);
  void set_timing(const CpuTiming& t);
  void set_group(CpuGroup* g) { group_ = g; }
  // The architecture level it decodes (machine.arch); before any instruction runs.
  void set_arch(Generation g) { arch_ = g; }
  Generation arch() const { return arch_; }
  unsigned istream() const { return istream_; }
  // Switches to another address space (an ECB's), as loading its ASCE does: the
  // modelled TLBs keep their entries (tagged by space); only the host's micro-TLB is
  // dropped. Instructions and operands both translate through it.
  void set_address_space(AddressSpace& space) { set_address_spaces(space, space); }
  // Switches only if `space` is not the one loaded (by serial).
  void switch_address_space(AddressSpace& space) { switch_address_spaces(space, space); }
  // System mode's secondary-space mode [Principles of Operation, "Address-Space
  // Control"]: operands translate through `data` (CR7's view), instructions (and
  // EXECUTE's target) through `code` (CR1's). Every other mode passes one space twice.
  void set_address_spaces(AddressSpace& data, AddressSpace& code);
  void switch_address_spaces(AddressSpace& data, AddressSpace& code) {
    if (data.serial() != space_serial_ || code.serial() != code_serial_) set_address_spaces(data, code);
  }
  ~Cpu() override;
  Cpu(const Cpu&) = delete;
  Cpu& operator=(const Cpu&) = delete;

  // --- architected state -------------------------------------------------------
  uint64_t gr[17] = {};  // gr[16] is the always-zero register (kZeroReg)
  // Floating-point-control register: IEEE masks (byte 0), flags (byte 1), DXC (byte 2),
  // rounding modes (byte 3; BFP in bits 29-31).
  uint32_t fpc = 0;
  uint32_t ar[16] = {};
  uint64_t psw_addr = 0;
  uint8_t cc = 0;
  uint8_t prog_mask = 0;  // PSW bits 20-23: fixed-point overflow, decimal, HFP exp., significance
  // The 32 vector registers [Principles of Operation, "Vector Registers" in chapter 21]:
  // floating-point register r is bits 0-63 of vector register r (r = 0-15), so a
  // machine without the vector facility sees only those halves.
  VectorRegister vr[32] = {};
  uint64_t& fpr(unsigned r) { return vr[r].hi; }
  uint64_t fpr(unsigned r) const { return vr[r].hi; }

  // --- counters -----------------------------------------------------------------
  uint64_t instructions = 0;
  // The I-stream's clock. Read it freely; advance it only through charge() (or
  // idle_until()), so that cycles_by_cause() always sums to it.
  uint64_t cycles = 0;
  // The one way the clock advances: `n` cycles for `why`. The instruction cause is
  // what the others leave of the clock (cycles_by_cause()), so that the interpreter's
  // one charge per instruction is a single addition to a register-held clock.
  void charge(Cause why, uint64_t n) {
    cycles += n;
    if (why != Cause::Instruction) cycles_by_cause_[size_t(why)] += n;
  }
  // Nothing to run until `time`: the clock jumps there (if it is behind), as idle (or
  // as the idle cause set last: page wait).
  void idle_until(uint64_t time) {
    if (cycles < time) charge(idle_cause_, time - cycles);
  }
  // Why the I-stream has nothing to run, from now until it is set again (Idle or PageWait).
  void set_idle_cause(Cause why) { idle_cause_ = why; }
  CyclesByCause cycles_by_cause() const {
    CyclesByCause c = cycles_by_cause_;
    uint64_t others = 0;
    for (uint64_t v : c) others += v;
    c[size_t(Cause::Instruction)] = cycles - others;
    return c;
  }
  double clock_ghz = 5.2;  // simulated clock, for STCK (z15 runs at 5.2 GHz)

  void set_svc_handler(SvcHandler* h) { svc_ = h; }
  void set_page_fault_handler(PageFaultHandler* h) { page_fault_ = h; }
  // Sampling (the ZTRAP EI profiler): every `interval` cycles from `first`, the
  // instruction executing at that moment gets a sample (DecodedPage::samples). 0: off.
  void set_sampling(uint64_t interval, uint64_t first, SampleSink* sink = nullptr) {
    sample_interval_ = interval ? interval : 1;
    next_sample_ = interval ? first : ~0ull;
    sample_sink_ = interval ? sink : nullptr;
  }
  uint64_t page_faults = 0;  // resolved by the handler
  // Whether the last page not present, or the last page DAT protected (a store) or
  // execute protected (an instruction fetch), was met by a store (else a fetch): the
  // translation-exception identification's fetch/store indication (system mode).
  bool fault_was_store() const { return fault_was_store_; }
  // Whether the last access exception was met by an instruction fetch (the code space's),
  // else by an operand's access: which space's page fault it is and which ASCE the
  // translation-exception identification names (system mode).
  bool fault_was_instruction_fetch() const { return instruction_fetch_; }
  SvcHandler* svc_handler() const { return svc_; }
  AddressSpace& space() { return *space_; }
  AddressSpace& code_space() { return *code_space_; }

  // Runs until `limit` more instructions have executed, the clock reaches
  // `cycle_end`, a stop is requested, or a program check occurs.
  RunResult run(uint64_t limit, uint64_t cycle_end = ~0ull) {
    return code_cache_ ? run_compiled(limit, cycle_end) : interpret(limit, cycle_end);
  }
  // machine.engine: compile: blocks from `cache` (emu/jit/), shared by the machine's
  // I-streams; nullptr: interpret. Both engines give the same results (docs/speed.md).
  void set_code_cache(std::shared_ptr<jit::CodeCache> cache) { code_cache_ = std::move(cache); }
  // machine.engine: cosim (with a code cache): every block entered is also run by the
  // interpreter in a forked copy of the host process, from the state before it, and the
  // first difference is a std::runtime_error naming the block, the field and both values
  // (emu/jit/cosim.cpp; docs/speed.md, "Differential testing").
  void set_cosim(bool on) { cosim_ = on; }
  // machine.skip_spin_loops: a loop that waits without effect is done up to the run's
  // stop in one step, with the counts and cycles its passes would have added
  // (emu/spin_loop.h). spin_skipped: the instructions done so (host speed, not the model).
  void set_spin_skip(bool on) { spin_skip_ = on; }
  uint64_t spin_skipped = 0;
  // Blocks co-simulated, and blocks run unchecked because an instruction of theirs
  // reaches the host outside the machine (SVC, EXECUTE, privileged instructions).
  uint64_t cosim_compared = 0, cosim_unchecked = 0;
  // Where generated code finds the clock, the PSW address and leave_block_.
  static jit::CpuLayout compiled_layout();
  void request_stop() { stop_requested_ = true, leave_block_ = true; }
  // Ends the current run() after this instruction as if its cycle_end had come (the
  // scheduler's slice is over, the program did not give up anything).
  void end_slice() { slice_over_ = true, leave_block_ = true; }

  // --- operand helpers for handlers -----------------------------------------
  uint64_t ea2(const Insn& i) const { return gr[i.x2] + gr[i.b2] + int64_t(i.d2); }
  uint64_t ea1(const Insn& i) const { return gr[i.b1] + int64_t(i.d1); }
  uint32_t r32(unsigned r) const { return uint32_t(gr[r]); }
  uint32_t h32(unsigned r) const { return uint32_t(gr[r] >> 32); }
  void set_r32(unsigned r, uint32_t v) { gr[r] = (gr[r] & 0xFFFFFFFF00000000ull) | v; }
  void set_h32(unsigned r, uint32_t v) { gr[r] = (gr[r] & 0xFFFFFFFFull) | (uint64_t(v) << 32); }

  // --- storage: big-endian guest values through a per-CPU micro-TLB -------------
  template <class T> T read(uint64_t a) {
    uint64_t vp = a >> 12;
    const TlbEntry& e = tlb_[vp & (kTlbSize - 1)];
    if (e.rtag == vp && (a & kPageMask) <= kPageSize - sizeof(T)) [[likely]] {
      if (caches_) touch(e.abs + (a & kPageMask), sizeof(T), false);
      return load_be<T>(e.host + (a & kPageMask));
    }
    return read_slow<T>(a);
  }
  template <class T> void write(uint64_t a, T v) {
    uint64_t vp = a >> 12;
    const TlbEntry& e = tlb_[vp & (kTlbSize - 1)];
    if (e.wtag == vp && (a & kPageMask) <= kPageSize - sizeof(T)) [[likely]] {
      if (caches_) touch(e.abs + (a & kPageMask), sizeof(T), true);
      return store_be<T>(e.host + (a & kPageMask), v);
    }
    write_slow<T>(a, v);
  }
  // Host pointer to [a, a+len) when it lies in one page (len <= 4096), else nullptr.
  // Raises the same exceptions as read/write would.
  uint8_t* span(uint64_t a, uint64_t len, bool for_write);

  // Bits 0-63 of the PSW. Under a host control program (run, exec): a problem-state
  // program in 64-bit mode, DAT, I/O, external and machine-check masks on, CC and
  // program mask in byte 2, EA and BA. In system mode (tpfemu ipl) the I-stream's own.
  uint64_t psw_mask() const {
    if (system_) [[unlikely]] return system_psw_mask();
    return 0x0705000180000000ull | uint64_t(cc) << 44 | uint64_t(prog_mask) << 40;
  }
  // System mode: the I-stream's supervisor state, control registers, prefix and
  // interruptions (emu/system/system_cpu.h); nullptr when a host control program runs
  // it (run, exec), which takes its SVCs and program checks in host code.
  void set_system(SystemCpu* s) { system_ = s; }
  SystemCpu* system() const { return system_; }

  // The Time-Of-Day clock as STCK stores it, from the simulated cycles (plus what SET
  // CLOCK moved it by, in system mode).
  uint64_t tod_clock() const { return tod_at(clock_ghz, cycles) + tod_offset; }
  uint64_t tod_offset = 0;
  // The TOD clock's value at simulated time `cycles` on a `clock_ghz` clock (what
  // tod_clock() stores then; host code compares guest time stamps with it).
  static uint64_t tod_at(double clock_ghz, uint64_t cycles);

  // PURGE TLB: every entry of both modelled TLBs, and the micro-TLB.
  void flush_tlb();
  // Only the host-side micro-TLB (the modelled TLB keeps its entries): the next access
  // to each page translates again and sets its reference and change bits.
  void flush_micro_tlb();
  // TlbPurgeListener: what a change of some space's DAT tables purges here.
  void purge_page(uint64_t tag, uint64_t vpage) override;
  void purge_segment(uint64_t tag, uint64_t vseg) override;
  void purge_space(uint64_t tag) override;
  // The cache model took `line` from this I-stream (or its exclusivity).
  void forget_line(uint64_t line) {
    if (last_rline_ == line) last_rline_ = ~0ull;
    if (last_wline_ == line) last_wline_ = ~0ull;
  }
  // Called by the group: another I-stream decoded or rewrote instructions in a frame.
  void on_code_created(const Frame& f);
  void on_code_invalidated(const DecodedPage* old);
  const TlbModel& tlb4k() const { return tlb4k_; }
  const TlbModel& tlb1m() const { return tlb1m_; }
  // Decoded instruction at the current PSW address (for EX targets and tests).
  Insn decode_at(uint64_t addr, const uint8_t* override_bytes = nullptr);
  // EXECUTE's target is fetched as an instruction: with IEP, the pages of its `len`
  // bytes need the execute right (Principles of Operation, "Instruction-Execution
  // Protection"), else a protection exception.
  void check_execute_target(uint64_t a, unsigned len);
  // A byte of EXECUTE's target, fetched as an instruction is (through the code space).
  // With one space for both (every mode but secondary-space) it is read as an operand
  // (the micro-TLB, the cache model), as it always was.
  uint8_t fetch_execute_target_byte(uint64_t a);

  template <class T> static T load_be(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return bswap(v);
  }
  template <class T> static void store_be(uint8_t* p, T v) {
    v = bswap(v);
    std::memcpy(p, &v, sizeof v);
  }

 private:
  RunResult interpret(uint64_t limit, uint64_t cycle_end);
  RunResult run_compiled(uint64_t limit, uint64_t cycle_end);  // emu/jit/run_compiled.cpp
  // A run's count and its last page-fault retry (a retry that made no progress fails).
  struct RunProgress {
    uint64_t n = 0;  // instructions this run; added to `instructions` on the way out
    uint64_t retried_at = ~0ull, retried_n = 0;
  };
  // Both engines' exit for a program interrupt of the instruction at `a` (`cur`, its
  // decoded slot, or nullptr when the fault came from fetching it): the page-fault
  // handler's Retry (nothing returned: the run goes on at `a`) or Wait, or the program check.
  std::optional<RunResult> take_interrupt(const ProgramInterrupt& pi, uint64_t a, Insn* cur, RunProgress& run);
  static constexpr size_t kTlbSize = 1024;  // 4 MB of reach; misses walk the page index
  // wtag's mark for a write right a load gave to a frame never stored into: the first
  // store takes it (take_deferred_write), so that Storage counts the frame's bytes then
  // and not at the load. Virtual page numbers never reach bit 63.
  static constexpr uint64_t kDeferredWrite = 1ull << 63;
  struct TlbEntry {
    uint64_t rtag, wtag;  // virtual page numbers valid for reads / writes
    uint8_t* host;
    uint64_t abs;         // absolute address of the page (for the cache model)
  };

  // Charges the lines of [abs, abs+n) to the cache model, unless it is the line this
  // I-stream touched last with the same right (then it is still in its L1: free).
  void touch(uint64_t abs, uint64_t n, bool store) {
    uint64_t line = abs >> kLineShift, last = (abs + n - 1) >> kLineShift;
    if (line == last && (line == last_wline_ || (!store && line == last_rline_))) [[likely]]
      return;
    touch_lines(line, last, store);
  }
  void touch_lines(uint64_t first, uint64_t last, bool store);
  // The micro-TLB's entries and the code page of `key` (a page, or a segment if `large`)
  // formed under `tag`.
  void drop_micro_tlb(uint64_t tag, uint64_t key, bool large);
  // Whether the micro-TLB may hold translations formed under `tag`.
  bool micro_holds(uint64_t tag) const { return tag == TlbModel::kCommon || tag == space_serial_; }
  // Whether the code page (code_vpage_) may have been translated under `tag`.
  bool code_holds(uint64_t tag) const { return tag == TlbModel::kCommon || tag == code_serial_; }

  template <class T> static T bswap(T v) {
    if constexpr (sizeof(T) == 1) return v;
    else if constexpr (sizeof(T) == 2) return T(__builtin_bswap16(uint16_t(v)));
    else if constexpr (sizeof(T) == 4) return T(__builtin_bswap32(uint32_t(v)));
    else return T(__builtin_bswap64(uint64_t(v)));
  }

  template <class T> T read_slow(uint64_t a) {
    uint8_t buf[sizeof(T)];
    for (unsigned k = 0; k < sizeof(T); ++k) buf[k] = *byte_ptr(a + k, false);
    return load_be<T>(buf);
  }
  template <class T> void write_slow(uint64_t a, T v) {
    if (take_deferred_write(a, sizeof(T))) return write<T>(a, v);
    uint8_t* p[sizeof(T)];  // translate every byte first: a store is all or nothing
    for (unsigned k = 0; k < sizeof(T); ++k) p[k] = byte_ptr(a + k, true);
    uint8_t buf[sizeof(T)];
    store_be<T>(buf, v);
    for (unsigned k = 0; k < sizeof(T); ++k) *p[k] = buf[k];
  }
  // Host pointer for `a` after translation; charges [a, a+len) to the cache model.
  uint8_t* byte_ptr(uint64_t a, bool for_write, uint64_t len = 1);
  const TlbEntry& fill_tlb(uint64_t addr, bool for_write);
  // A store of n bytes at a (in one page) to an entry with a deferred write right: the
  // frame is counted as stored and the entry takes stores, as it would have from its
  // load; false if the entry holds no such right.
  bool take_deferred_write(uint64_t a, uint64_t n);
  Frame& frame_for_fetch(uint64_t a);
  void enter_code_page(uint64_t a);
  void decode_into(Insn& in, uint64_t a);
  void fetch_bytes(uint64_t a, uint8_t* out, unsigned& len);
  uint64_t charged_more(Insn& in, uint64_t clock);
  // At a taken branch from `branch` back to `head` in `page` (emu/spin_loop.cpp).
  [[gnu::noinline]] void skip_spin(DecodedPage& page, uint64_t head, uint64_t branch, uint64_t& n, uint64_t limit,
                                   uint64_t stop_cycle, uint64_t& clock);
  void invalidate_code(Frame& f);
  uint64_t system_psw_mask() const;  // emu/system/system_cpu.cpp
  // System mode's key-controlled and fetch protection of an access at `addr` to Storage
  // frame `number` (a protection exception if it is not permitted); whether a store would
  // be permitted (emu/system/system_cpu.cpp).
  bool system_key_permits_store(uint64_t addr, bool store, uint64_t number);

  AddressSpace* space_;
  AddressSpace* code_space_;  // space_ but in secondary-space mode (set_address_spaces)
  SystemCpu* system_ = nullptr;
  uint64_t space_serial_ = 0;
  uint64_t code_serial_ = 0;
  Storage& storage_;  // every space this I-stream loads lies in it
  SvcHandler* svc_ = nullptr;
  PageFaultHandler* page_fault_ = nullptr;
  SampleSink* sample_sink_ = nullptr;
  CpuGroup* group_ = nullptr;
  MemoryHierarchy* caches_ = nullptr;
  unsigned istream_ = 0;
  TlbModel tlb4k_, tlb1m_;
  unsigned tlb_walk_ = 0;
  CyclesByCause cycles_by_cause_{};  // every cause but Instruction (see charge)
  Cause idle_cause_ = Cause::Idle;  // what idle_until charges
  uint64_t last_rline_ = ~0ull, last_wline_ = ~0ull;
  uint64_t next_sample_ = ~0ull, sample_interval_ = 1;
  bool slice_over_ = false;
  bool stop_requested_ = false;
  bool fault_was_store_ = false;
  bool instruction_fetch_ = false;  // fault_was_instruction_fetch
  bool leave_block_ = false;  // leave the straight-line loop: a stop or a code change
  bool spin_skip_ = false;    // machine.skip_spin_loops
  SpinWatch spin_watch_;      // reset whenever the straight-line loop is left
  NotSpinLoops not_spin_;
  TlbEntry tlb_[kTlbSize];
  // The entries filled since the micro-TLB was last flushed (with repeats), so that a
  // flush, which every switch of address space does, clears a few dozen entries and
  // not all kTlbSize; past kFilledMax it clears them all.
  static constexpr unsigned kFilledMax = 128;
  uint16_t filled_[kFilledMax];
  unsigned filled_count_ = kFilledMax + 1;  // more than kFilledMax: clear every entry
  Generation arch_ = kNewestGeneration;  // what decode() accepts (set_arch)
  uint64_t code_vpage_ = ~0ull;  // page the decode slots below belong to
  DecodedPage* code_ = nullptr;
  std::vector<std::unique_ptr<DecodedPage>> retired_code_;  // freed after the current insn
  std::shared_ptr<jit::CodeCache> code_cache_;  // machine.engine: compile
  // machine.engine: cosim (emu/jit/cosim.cpp). cosim_run_: the block being compared, in
  // either process; fill_tlb tells it of every page given the write right meanwhile.
  bool cosim_ = false;
  jit::CosimRun* cosim_run_ = nullptr;
  void note_write_grant(uint64_t vpage, uint8_t* host);
  // Before block `b` runs natively: forks the copy that interprets it (which never
  // returns from here).
  void cosim_enter(DecodedPage& page, uint64_t page_address, const jit::Block& b, const jit::RunState& s);
  // After it ran (n instructions this run, `a` the last one's address, `clock` the
  // base cycles so far; `threw` its exception): compares with the copy's run.
  void cosim_leave(DecodedPage& page, uint64_t n, uint64_t a, uint64_t clock, std::exception_ptr threw);
  // The copy's side: interprets what the block ran, compares, writes the verdict.
  void cosim_copy();
};

// Fills `out` with the fields of the instruction in `bytes` (its first bytes give the
// length). Returns false when the opcode is not in the table, or its facility is not
// installed on a machine of generation `arch` (an operation exception).
bool decode(const uint8_t* bytes, uint64_t address, Insn& out, Generation arch);

}  // namespace emu
