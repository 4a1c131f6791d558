#include "emu/cpu.h"

#include "emu/isa/table.h"

namespace emu {

Cpu::~Cpu() = default;

void Cpu::flush_tlb() {
  for (auto& e : tlb_) e = TlbEntry{~0ull, ~0ull, nullptr};
  code_vpage_ = ~0ull;
  code_ = nullptr;
}

Page& Cpu::fill_tlb(uint64_t addr, bool for_write) {
  uint64_t vpage = addr >> 12;
  Page* p = space_->page(vpage);
  if (!p) program_check(Pic::Addressing, addr);
  if (for_write && !(p->prot & kProtWrite)) program_check(Pic::Protection, addr);
  TlbEntry& e = tlb_[vpage & (kTlbSize - 1)];
  if (e.rtag != vpage) e = TlbEntry{vpage, ~0ull, p->data.get()};
  // Stores to a page holding decoded instructions take the slow path, which
  // drops the page's decode cache before the store lands.
  if ((p->prot & kProtWrite) && !p->code) e.wtag = vpage;
  return *p;
}

uint8_t* Cpu::byte_ptr(uint64_t a, bool for_write) {
  Page& p = fill_tlb(a, for_write);
  if (for_write && p.code) {
    invalidate_code(p);
    fill_tlb(a, true);
  }
  return p.data.get() + (a & kPageMask);
}

uint8_t* Cpu::span(uint64_t a, uint64_t len, bool for_write) {
  if (len == 0 || (a & kPageMask) + len > kPageSize) return nullptr;
  return byte_ptr(a, for_write);
}

void Cpu::invalidate_code(Page& p) {
  if (code_ == p.code.get()) code_vpage_ = ~0ull, code_ = nullptr;
  leave_block_ = true;
  retired_code_.push_back(std::move(p.code));  // the current handler may still read its Insn
}

void Cpu::enter_code_page(uint64_t a) {
  retired_code_.clear();
  if (a & 1) program_check(Pic::Specification, a);
  uint64_t vp = a >> 12;
  Page* p = space_->page(vp);
  if (!p) program_check(Pic::Addressing, a);
  if (!p->code) {
    p->code = std::make_unique<DecodedPage>();
    TlbEntry& e = tlb_[vp & (kTlbSize - 1)];
    if (e.wtag == vp) e.wtag = ~0ull;
  }
  code_vpage_ = vp;
  code_ = p->code.get();
}

static void fetch_bytes(Cpu& cpu, AddressSpace& space, uint64_t a, uint8_t* out, unsigned& len) {
  // Fetch the first halfword, then the rest once the length is known; a fetch
  // that runs into an unmapped page is an addressing exception at that byte.
  len = 0;
  auto fetch = [&](unsigned n) {
    for (; len < n; ++len) {
      uint64_t b = a + len;
      Page* p = space.page(b >> 12);
      if (!p) program_check(Pic::Addressing, b);
      out[len] = p->data[b & kPageMask];
    }
  };
  fetch(2);
  fetch(insn_length(out[0]));
}

void Cpu::decode_into(Insn& in, uint64_t a) {
  uint8_t bytes[6];
  unsigned n;
  fetch_bytes(*this, *space_, a, bytes, n);
  Insn tmp;
  if (!decode(bytes, a, tmp)) program_check(Pic::Operation);
  in = tmp;
}

Insn Cpu::decode_at(uint64_t a, const uint8_t* override_bytes) {
  uint8_t bytes[6];
  unsigned n;
  fetch_bytes(*this, *space_, a, bytes, n);
  if (override_bytes) std::memcpy(bytes, override_bytes, n);
  Insn tmp;
  if (!decode(bytes, a, tmp)) program_check(Pic::Operation);
  return tmp;
}

uint64_t Cpu::tod_clock() const {
  // TOD bit 51 is one microsecond: 4096 units per microsecond. The epoch is fixed
  // (2025-01-01 00:00:00 UTC) so that runs are reproducible.
  constexpr uint64_t kEpoch = 3944678400ull * 1000000ull * 4096ull;
  double us = double(cycles) / (clock_ghz * 1000.0);
  return kEpoch + uint64_t(us * 4096.0);
}

RunResult Cpu::run(uint64_t limit) {
  stop_requested_ = false;
  uint64_t n = 0;  // instructions this call; added to `instructions` on the way out
  uint64_t a = psw_addr;
  Insn* cur = nullptr;
  try {
    while (n < limit) {
      a = psw_addr;
      cur = nullptr;
      if (((a >> 12) != code_vpage_) | (a & 1)) [[unlikely]]
        enter_code_page(a);
      Insn* in = &code_->slot[(a & kPageMask) >> 1];
      leave_block_ = false;
      // Straight-line code steps from slot to slot. Whether the handler branched is a
      // (well predicted) test, not a data dependency of the next instruction's lookup.
      for (;;) {
        if (!in->fn) [[unlikely]]
          decode_into(*in, a);
        cur = in;
        const uint64_t next = a + in->len;
        psw_addr = next;
        ++in->count;
        ++n;
        cycles += in->cycles;
        in->fn(*this, *in);
        const bool crossed = (next & kPageMask) < in->len;
        if ((psw_addr != next) | crossed | leave_block_ | (n >= limit)) break;
        in += in->len >> 1;
        a = next;
      }
      if (stop_requested_) break;
    }
  } catch (const ProgramInterrupt& pi) {
    instructions += n;
    RunResult r{StopReason::ProgramCheck, {}};
    r.check.interrupt = pi;
    r.check.insn_address = a;
    unsigned n = 0;
    try {
      fetch_bytes(*this, *space_, a, r.check.insn_bytes, n);
    } catch (const ProgramInterrupt&) {
    }
    r.check.insn_length = n;
    if (cur) r.check.mnemonic = mnemonic(cur->id);
    else if (n && lookup_opcode(r.check.insn_bytes) != kNoInsn)
      r.check.mnemonic = mnemonic(lookup_opcode(r.check.insn_bytes));
    return r;
  }
  instructions += n;
  return RunResult{stop_requested_ ? StopReason::Requested : StopReason::Limit, {}};
}

}  // namespace emu
