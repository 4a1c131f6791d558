#include "emu/cpu.h"

#include <algorithm>

#include "emu/isa/table.h"
#include "emu/system/system_cpu.h"

namespace emu {

Cpu::Cpu(AddressSpace& space)
    : space_(&space), code_space_(&space), space_serial_(space.serial()), code_serial_(space.serial()),
      storage_(space.storage()) {
  storage_.add_tlb(this);
  flush_tlb();
}

// (The space loaded last may be gone by now: the storage, which outlives it, is not.)
Cpu::~Cpu() { storage_.remove_tlb(this); }

void Cpu::set_timing(const CpuTiming& t) {
  caches_ = t.caches;
  istream_ = t.istream;
  tlb_walk_ = t.tlb_walk;
  tlb4k_.configure(t.tlb4k.entries, t.tlb4k.ways);
  tlb1m_.configure(t.tlb1m.entries, t.tlb1m.ways);
  flush_tlb();
}

void Cpu::set_address_spaces(AddressSpace& data, AddressSpace& code) {
  space_ = &data, code_space_ = &code;
  space_serial_ = data.serial(), code_serial_ = code.serial();
  flush_micro_tlb();
  code_ = nullptr;
}

void Cpu::flush_tlb() {
  if (tlb4k_.configured()) tlb4k_.flush(), tlb1m_.flush();
  flush_micro_tlb();
  code_ = nullptr;
}

void Cpu::flush_micro_tlb() {
  if (filled_count_ > kFilledMax) {
    for (auto& e : tlb_) e = TlbEntry{~0ull, ~0ull, nullptr, 0};
  } else {
    for (unsigned k = 0; k < filled_count_; ++k) tlb_[filled_[k]] = TlbEntry{~0ull, ~0ull, nullptr, 0};
  }
  filled_count_ = 0;
  code_vpage_ = ~0ull;  // the next fetch enters its code page again, setting its reference bit
  leave_block_ = true;
}

// The micro-TLB holds no page the modelled TLB does not; and a page that became
// invalid must not stay executable through the decode slots either.
void Cpu::drop_micro_tlb(uint64_t tag, uint64_t key, bool large) {
  uint64_t first = large ? key << 8 : key, n = large ? kPagesPerSegment : 1;
  if (micro_holds(tag))
    for (uint64_t vp = first; vp < first + n; ++vp) {
      TlbEntry& e = tlb_[vp & (kTlbSize - 1)];
      if (e.rtag == vp) e = TlbEntry{~0ull, ~0ull, nullptr, 0};
    }
  if (code_holds(tag) && code_vpage_ >= first && code_vpage_ < first + n) code_vpage_ = ~0ull, leave_block_ = true;
}

void Cpu::purge_page(uint64_t tag, uint64_t vpage) {
  if (tlb4k_.configured()) tlb4k_.purge(vpage, tag);
  drop_micro_tlb(tag, vpage, false);
}

void Cpu::purge_segment(uint64_t tag, uint64_t vseg) {
  if (tlb4k_.configured()) {
    tlb1m_.purge(vseg, tag);
    for (uint64_t vp = vseg << 8; vp < (vseg + 1) << 8; ++vp) tlb4k_.purge(vp, tag);
  }
  drop_micro_tlb(tag, vseg, true);
}

void Cpu::purge_space(uint64_t tag) {
  if (tlb4k_.configured()) tlb4k_.purge_tag(tag), tlb1m_.purge_tag(tag);
  if (micro_holds(tag) || code_holds(tag)) flush_micro_tlb();
}

const Cpu::TlbEntry& Cpu::fill_tlb(uint64_t addr, bool for_write) {
  uint64_t vpage = addr >> 12;
  instruction_fetch_ = false;
  Translation t;
  switch (space_->translate_number(addr, t)) {
    case Translate::Ok: break;
    case Translate::NotPresent: fault_was_store_ = for_write, program_check(Pic::PageTranslation, addr);
    case Translate::OutOfRange: program_check(Pic::Addressing, addr);
  }
  // A page without the read right is invalid to DAT, as Linux marks PROT_NONE pages.
  if (!(t.prot & kProtRead)) program_check(Pic::PageTranslation, addr);
  // (fault_was_store_ tells system mode's TEID DAT protection from IEP's, a fetch.)
  if (for_write && !(t.prot & kProtWrite)) fault_was_store_ = true, program_check(Pic::Protection, addr);
  // System mode's storage keys (tpfemu ipl): the access key against the frame's. Under a
  // host control program (run, exec) this predicted branch of the slow path is all they
  // cost; the entry keeps what the check permitted until the PSW key or a storage key
  // changes, which flushes the micro-TLB.
  bool key_permits_store = true, fetch_right_cacheable = true;
  if (system_) [[unlikely]] {
    key_permits_store = system_key_permits_store(addr, for_write, t.number);
    // (a fetch the fetch-protection override permits: bytes 0-2047 of the page only)
    fetch_right_cacheable = !system_->fetch_override_used();
  }
  // The frame's key byte and bytes by its number: the Frame itself stays untouched.
  Storage& storage = space_->storage();
  uint8_t* const host = storage.host_page(t.number);
  // The reference that missed the micro-TLB reads this line next: its host miss (a
  // new guest page, on a miss-heavy run) overlaps the model's TLB and cache work.
  __builtin_prefetch(host + (addr & kPageMask));
  uint8_t& key = storage.key(t.number);
  storage.reference(key, t.number);
  if (for_write) key |= kKeyChanged, storage.note_store_key(key);
  TlbEntry& e = tlb_[vpage & (kTlbSize - 1)];
  if (e.rtag != vpage) {
    // A new micro-TLB entry: the modelled TLB decides whether DAT walked the tables.
    if (tlb4k_.configured() && space_->translated()) {
      TlbModel& m = t.large ? tlb1m_ : tlb4k_;
      const uint64_t tlb_key = t.large ? addr >> 20 : vpage;
      TlbModel::Entry evicted;
      if (!m.access(tlb_key, space_->tlb_tag(t), evicted)) {
        charge(Cause::Tlb, tlb_walk_);
        if (evicted.key != TlbModel::kEmpty) drop_micro_tlb(evicted.tag, evicted.key, t.large);
      }
    }
    e = TlbEntry{fetch_right_cacheable ? vpage : ~0ull, ~0ull, host, t.number << 12};
    if (filled_count_ < kFilledMax) filled_[filled_count_] = uint16_t(vpage & (kTlbSize - 1));
    filled_count_ += filled_count_ <= kFilledMax;
  }
  // Stores to a frame holding decoded instructions take the slow path, which drops
  // the frame's decode cache before the store lands.
  if (key_permits_store && (t.prot & kProtWrite) && !(key & kKeyCode) && (for_write || !space_->tracks_changes())) {
    e.wtag = for_write || (key & kKeyStored) ? vpage : vpage | kDeferredWrite;
    if (cosim_run_) [[unlikely]] note_write_grant(vpage, host);  // a page a store may reach now
  }
  return e;
}

bool Cpu::take_deferred_write(uint64_t a, uint64_t n) {
  const uint64_t vpage = a >> 12;
  TlbEntry& e = tlb_[vpage & (kTlbSize - 1)];
  if (e.wtag != (vpage | kDeferredWrite) || (a & kPageMask) > kPageSize - n) return false;
  Storage& storage = space_->storage();
  storage.note_store_key(storage.key(e.abs >> 12));
  e.wtag = vpage;
  return true;
}

uint8_t* Cpu::byte_ptr(uint64_t a, bool for_write, uint64_t len) {
  const TlbEntry* e = &fill_tlb(a, for_write);
  if (for_write && e->wtag != a >> 12) {
    Translation t;
    space_->translate(a, t);
    if (t.frame->code) invalidate_code(*t.frame);
    e = &fill_tlb(a, true);
  }
  if (caches_) touch(e->abs + (a & kPageMask), len, for_write);
  return e->host + (a & kPageMask);
}

uint8_t* Cpu::span(uint64_t a, uint64_t len, bool for_write) {
  if (len == 0 || (a & kPageMask) + len > kPageSize) return nullptr;
  return byte_ptr(a, for_write, len);
}

void Cpu::touch_lines(uint64_t first, uint64_t last, bool store) {
  for (uint64_t line = first; line <= last; ++line) {
    MemoryHierarchy::AccessCost cost;
    if (caches_->access(istream_, line, store ? AccessKind::Store : AccessKind::Load, cycles, &cost)) {
      // (Most accesses are L1 hits and cost nothing: this is skipped.)
      charge(Cause::Storage, cost.storage);
      charge(Cause::Coherence, cost.coherence);
    }
  }
  last_rline_ = last;
  if (store) last_wline_ = last;
}

void Cpu::invalidate_code(Frame& f) {
  DecodedPage* old = f.code.get();
  on_code_invalidated(old);
  if (group_) group_->code_invalidated(old);
  retired_code_.push_back(f.take_code());  // the current handler may still read its Insn
}

void Cpu::on_code_invalidated(const DecodedPage* old) {
  if (code_ == old) code_vpage_ = ~0ull, code_ = nullptr;
  leave_block_ = true;
  if (spin_skip_) not_spin_.clear();  // (its pages' addresses may hold other code next)
}

void Cpu::on_code_created(const Frame& f) {
  for (auto& e : tlb_)
    if (e.rtag != ~0ull && e.abs == f.absolute()) e.wtag = ~0ull;
}

// Instructions are fetched through the code space: the data space but in system mode's
// secondary-space mode, where they are primary virtual addresses [Principles of
// Operation, "Address-Space Control"].
Frame& Cpu::frame_for_fetch(uint64_t a) {
  Translation t;
  instruction_fetch_ = true;  // (until the fetch is done: its exceptions are a fetch's)
  switch (code_space_->translate(a, t)) {
    case Translate::Ok:
      if (!(t.prot & kProtRead)) program_check(Pic::PageTranslation, a);  // as in fill_tlb
      // IEP: the fetch is a protection exception (Principles of Operation,
      // "Instruction-Execution Protection"). Checked here, when a code page is entered
      // or an instruction decoded, so the interpreter's loop pays nothing for it.
      if (!(t.prot & kProtExec) && code_space_->execute_protection())
        fault_was_store_ = false, program_check(Pic::Protection, a);
      // Fetch protection applies to instruction fetches too [Principles of Operation,
      // "Fetch Protection"] (system mode only, as in fill_tlb).
      if (system_) [[unlikely]] system_key_permits_store(a, false, t.frame->number);
      instruction_fetch_ = false;
      return *t.frame;
    case Translate::NotPresent: fault_was_store_ = false, program_check(Pic::PageTranslation, a);
    case Translate::OutOfRange: program_check(Pic::Addressing, a);
  }
  program_check(Pic::Addressing, a);
}

void Cpu::enter_code_page(uint64_t a) {
  retired_code_.clear();
  if (a & 1) program_check(Pic::Specification, a);
  Frame& f = frame_for_fetch(a);
  code_space_->storage().reference(f);  // an instruction fetch references its page, as a load does
  if (!f.code) {
    f.set_code(std::make_unique<DecodedPage>());
    on_code_created(f);
    if (group_) group_->code_created(f);
  }
  code_vpage_ = a >> 12;
  code_ = f.code.get();
}

void Cpu::check_execute_target(uint64_t a, unsigned len) {
  if (!code_space_->execute_protection()) return;
  frame_for_fetch(a);
  if (((a + len - 1) ^ a) >> 12) frame_for_fetch(a + len - 1);
}

uint8_t Cpu::fetch_execute_target_byte(uint64_t a) {
  if (code_space_ == space_) return read<uint8_t>(a);
  Frame& f = frame_for_fetch(a);
  code_space_->storage().reference(f);
  if (caches_) touch(f.absolute() + (a & kPageMask), 1, false);
  return f.data[a & kPageMask];
}

// Fetch the first halfword, then the rest once the length is known; a fetch that
// runs into a missing page faults at that byte.
void Cpu::fetch_bytes(uint64_t a, uint8_t* out, unsigned& len) {
  len = 0;
  auto fetch = [&](unsigned n) {
    for (; len < n; ++len) out[len] = frame_for_fetch(a + len).data[(a + len) & kPageMask];
  };
  fetch(2);
  fetch(insn_length(out[0]));
}

void Cpu::decode_into(Insn& in, uint64_t a) {
  uint8_t bytes[6];
  unsigned n;
  fetch_bytes(a, bytes, n);
  Insn tmp;
  if (!decode(bytes, a, tmp, arch_)) program_check(Pic::Operation);
  in = tmp;
}

Insn Cpu::decode_at(uint64_t a, const uint8_t* override_bytes) {
  uint8_t bytes[6];
  unsigned n;
  fetch_bytes(a, bytes, n);
  if (override_bytes) std::memcpy(bytes, override_bytes, n);
  Insn tmp;
  if (!decode(bytes, a, tmp, arch_)) program_check(Pic::Operation);
  return tmp;
}

uint64_t Cpu::tod_at(double clock_ghz, uint64_t cycles) {
  // TOD bit 51 is one microsecond: 4096 units per microsecond. The epoch is fixed
  // (2025-01-01 00:00:00 UTC) so that runs are reproducible.
  constexpr uint64_t kEpoch = 3944678400ull * 1000000ull * 4096ull;
  double us = double(cycles) / (clock_ghz * 1000.0);
  return kEpoch + uint64_t(us * 4096.0);
}

// The instruction charged more than its base cycles (storage, per-byte costs): its
// record keeps the difference. Out of line, so that the compiler cannot make the
// interpreter's clock a copy of the member in every case (then each instruction's
// clock would wait for the previous one's through host memory).
[[gnu::noinline, gnu::cold]] uint64_t Cpu::charged_more(Insn& in, uint64_t clock) {
  in.extra += cycles - clock;
  return cycles;
}

std::optional<RunResult> Cpu::take_interrupt(const ProgramInterrupt& pi, uint64_t a, Insn* cur, RunProgress& run) {
  const bool again = pi.address == run.retried_at && run.n == run.retried_n;
  const uint64_t next_addr = psw_addr;
  psw_addr = a;  // nullified: the handler sees the PSW at the instruction
  const auto action = pi.code == Pic::PageTranslation && page_fault_ && !again
                          ? page_fault_->page_fault(*this, pi.address)
                          : PageFaultHandler::Action::Fail;
  if (action == PageFaultHandler::Action::Retry) {
    run.retried_at = pi.address, run.retried_n = run.n;
    // The instruction runs again from the start, and counts once.
    if (cur) --cur->count, --run.n;
    ++page_faults;
    return std::nullopt;  // the page is valid now: a page made valid purges nothing
  }
  if (action == PageFaultHandler::Action::Wait) {
    if (cur) --cur->count, --run.n;
    ++page_faults;
    instructions += run.n;
    stop_requested_ = true;
    return RunResult{StopReason::Requested, {}};
  }
  psw_addr = next_addr;
  instructions += run.n;
  // With the AFP-register control on (as Linux runs), a data exception's code (and a
  // vector-processing exception's VXC) also lands in the FPC, where a signal handler finds it.
  // In system mode that is CR0 bit 45's to say: off, the FPC's DXC is left unchanged
  // [Principles of Operation, "Data-Exception Code (DXC)"]. A host control program's
  // I-streams run with it on.
  const bool afp_register_control = !system_ || (system_->cr[0] & kCr0AfpRegister);
  if ((pi.code == Pic::Data || pi.code == Pic::VectorProcessing) && afp_register_control)
    fpc = (fpc & ~0xFF00u) | uint32_t(pi.dxc) << 8;
  RunResult r{StopReason::ProgramCheck, {}};
  r.check.interrupt = pi;
  r.check.insn_address = a;
  unsigned len = 0;
  const bool instruction_fetch = instruction_fetch_;  // (the exception's, not this fetch's)
  try {
    fetch_bytes(a, r.check.insn_bytes, len);
  } catch (const ProgramInterrupt&) {
  }
  instruction_fetch_ = instruction_fetch;
  r.check.insn_length = len;
  if (cur) r.check.mnemonic = mnemonic(cur->id);
  else if (len && lookup_opcode(r.check.insn_bytes) != kNoInsn)
    r.check.mnemonic = mnemonic(lookup_opcode(r.check.insn_bytes));
  return r;
}

RunResult Cpu::interpret(uint64_t limit, uint64_t cycle_end) {
  stop_requested_ = slice_over_ = false;
  // Sample points the clock passed while no instruction ran (idle, or host work between
  // runs such as dispatching) are skipped: the real EI samples no wait state, and the next
  // instruction did not cause that time.
  if (next_sample_ <= cycles) [[unlikely]]
    next_sample_ += ((cycles - next_sample_) / sample_interval_ + 1) * sample_interval_;
  uint64_t n = 0;  // instructions this call; added to `instructions` on the way out
  uint64_t a = psw_addr;
  Insn* cur = nullptr;
  // The retry state, and n at an interrupt: n itself stays a local that no handler can
  // reach, so that it lives in a host register.
  RunProgress progress;
  for (;;) try {
    while (n < limit && cycles < cycle_end) {
      const uint64_t stop_cycle = std::min(cycle_end, next_sample_);
      a = psw_addr;
      cur = nullptr;
      if (((a >> 12) != code_vpage_) | (a & 1)) [[unlikely]]
        enter_code_page(a);
      DecodedPage* const page = code_;  // `in` stays on this page below
      Insn* in = &page->slot[(a & kPageMask) >> 1];
      leave_block_ = false;
      spin_watch_.page = nullptr;  // a pass of a loop is seen whole inside the loop below
      // Straight-line code steps from slot to slot, and a branch to the same page goes
      // to its slot without leaving this loop. Nothing the next instruction's lookup
      // needs waits for the handler through host memory: the clock is kept in `clock`,
      // the next slot and address come from the length read before the handler runs,
      // and whether the handler branched or charged more is a (well predicted) test.
      uint64_t clock = cycles;
      for (;;) {
        if (!in->fn) [[unlikely]] {
          cur = nullptr;  // a fault while fetching belongs to no decoded instruction
          decode_into(*in, a);
        }
        cur = in;
        const unsigned len = in->len;
        const uint64_t next = a + len;
        Insn* const following = in + (len >> 1);
        psw_addr = next;
        ++in->count;
        ++n;
        clock += in->cycles;  // charge(Cause::Instruction, in->cycles)
        cycles = clock;
        in->fn(*this, *in);
        if (cycles != clock) [[unlikely]]
          clock = charged_more(*in, clock);
        if (leave_block_ | (n >= limit) | (clock >= stop_cycle)) [[unlikely]] {
          // The instruction that was executing when the clock passed a sample point
          // takes the sample (one per interval it covered: a stall shows up often).
          while (cycles >= next_sample_) {
            page->add_sample(unsigned(in - page->slot)), next_sample_ += sample_interval_;
            if (sample_sink_) sample_sink_->sample(istream_, a);
          }
          break;
        }
        const uint64_t to = psw_addr;
        if (to == next) [[likely]] {
          if ((next & kPageMask) < len) break;  // the next instruction is on the next page
          in = following;
          a = next;
        } else {
          if (((to >> 12) != code_vpage_) | (to & 1)) break;
          if (spin_skip_ & (to <= a)) [[unlikely]]
            skip_spin(*page, to, a, n, limit, stop_cycle, clock);
          in = &page->slot[(to & kPageMask) >> 1];
          a = to;
        }
      }
      if (stop_requested_ | slice_over_) break;
    }
    break;
  } catch (const ProgramInterrupt& pi) {
    progress.n = n;
    const std::optional<RunResult> r = take_interrupt(pi, a, cur, progress);
    n = progress.n;
    if (r) return *r;
  }
  instructions += n;
  return RunResult{stop_requested_ ? StopReason::Requested : StopReason::Limit, {}};
}

}  // namespace emu
