// The control instructions of system mode [Principles of Operation, chapter 10]. Each
// reaches the I-stream's supervisor state through system_of (emu/system/system_cpu.h).
#include <algorithm>
#include <vector>

#include "emu/isa/common.h"
#include "emu/isa/facility.h"
#include "emu/system/storage_key.h"
#include "emu/system/system_cpu.h"
#include "emu/system/system_machine.h"

namespace emu::isa {

// The table's entry of every Privileged line (isa/table.cpp) [Principles of Operation,
// "Privileged-Operation Exception"]: in the problem state the operation is suppressed.
// Under a host control program there is no PSW of the machine's to ask: the handler's
// system_of decides (STAP, the one such instruction host programs use, needs none).
void check_privileged(Cpu& c) {
  if (const SystemCpu* s = c.system(); s && s->problem_state()) program_check(Pic::PrivilegedOperation);
}

namespace {

template <class T> uint64_t aligned(uint64_t a) {
  if (a & (sizeof(T) - 1)) program_check(Pic::Specification);
  return a;
}

// Control registers r1 through r3, wrapping from 15 to 0 [Principles of Operation,
// "LOAD CONTROL"]: each its own word (bits 32-63) or doubleword.
template <class T> void load_control(Cpu& c, const Insn& i, uint64_t a) {
  SystemCpu& s = system_of(c);
  aligned<T>(a);
  // Every operand is fetched before any register changes: an access exception leaves
  // them all as they were.
  uint64_t values[16];
  unsigned n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    values[n] = c.read<T>(a + sizeof(T) * n);
    ++n;
    if (r == i.r3) break;
  }
  n = 0;
  const uint64_t cr0 = s.cr[0];
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    s.cr[r] = sizeof(T) == 8 ? values[n] : (s.cr[r] & 0xFFFFFFFF00000000ull) | values[n];
    ++n;
    if (r == i.r3) break;
  }
  // The micro-TLB's entries keep the store rights CR0's protection controls gave; and
  // the code page the CPU runs in was entered under the old IEP control: the next
  // instruction fetch enters it again (Cpu::frame_for_fetch checks the execute right).
  constexpr uint64_t kRightsControls =
      kCr0LowAddressProtection | kCr0StorageProtectionOverride | kCr0FetchProtectionOverride |
      kCr0InstructionExecutionProtection;
  if ((cr0 ^ s.cr[0]) & kRightsControls) c.flush_micro_tlb();
  s.control_changed();
}

template <class T> void store_control(Cpu& c, const Insn& i, uint64_t a) {
  SystemCpu& s = system_of(c);
  aligned<T>(a);
  unsigned n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    c.write<T>(a + sizeof(T) * n++, T(s.cr[r]));
    if (r == i.r3) break;
  }
}

}  // namespace

void lctl(Cpu& c, const Insn& i) { load_control<uint32_t>(c, i, c.ea2(i)); }
void lctlg(Cpu& c, const Insn& i) { load_control<uint64_t>(c, i, c.ea2(i)); }
void stctl(Cpu& c, const Insn& i) { store_control<uint32_t>(c, i, c.ea2(i)); }
void stctg(Cpu& c, const Insn& i) { store_control<uint64_t>(c, i, c.ea2(i)); }

// LOAD PSW: an ESA/390 PSW (8 bytes, doubleword aligned) whose bit 12 must be one,
// else a specification exception and nothing loaded [Principles of Operation, "LOAD PSW"].
void lpsw(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t v = c.read<uint64_t>(aligned<uint64_t>(c.ea1(i)));
  if (!(v & psw::kShortFormat)) program_check(Pic::Specification);
  s.load_psw(psw_from_short(v));
}

// LOAD PSW EXTENDED: the 16-byte PSW; its validity is checked as it is loaded (an early
// exception: the program old PSW is the invalid PSW, ILC 0).
void lpswe(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t a = aligned<uint64_t>(c.gr[i.b2] + i.d2);
  const uint64_t mask = c.read<uint64_t>(a), addr = c.read<uint64_t>(a + 8);
  s.load_psw(Psw{mask, addr});
}

// SET SYSTEM MASK: PSW bits 0-7 from the byte at the operand; a special-operation
// exception when CR0's SSM-suppression control is on.
void ssm(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  if (s.cr[0] & kCr0SsmSuppression) program_check(Pic(0x0013));  // special operation
  s.set_system_mask(c.read<uint8_t>(c.ea1(i)));
}

// STORE THEN AND / OR SYSTEM MASK: PSW bits 0-7 stored at the operand, then ANDed or
// ORed with I2.
void stnsm(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t old = uint8_t(s.mask() >> 56);
  c.write<uint8_t>(c.ea1(i), old);
  s.set_system_mask(old & uint8_t(i.imm));
}
void stosm(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t old = uint8_t(s.mask() >> 56);
  c.write<uint8_t>(c.ea1(i), old);
  s.set_system_mask(old | uint8_t(i.imm));
}

// SET PSW KEY FROM ADDRESS: the key is bits 56-59 of the operand address. Semiprivileged:
// in the problem state, the key's bit of the PSW-key mask (CR3 bits 32-47) must be one.
void spka(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t key = uint8_t((c.gr[i.b2] + i.d2) >> 4 & 0xF);
  if (s.problem_state() && !(s.cr[3] >> (31 - key) & 1)) program_check(Pic::PrivilegedOperation);
  s.set_key(key);
}

// INSERT PSW KEY: the key into bits 56-59 of GR2, bits 60-63 zero. Semiprivileged: in
// the problem state CR0's extraction-authority control must be on.
void ipk(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  if (s.problem_state() && !(s.cr[0] & kCr0ExtractionAuthority)) program_check(Pic::PrivilegedOperation);
  c.gr[2] = (c.gr[2] & ~0xFFull) | uint64_t(s.key()) << 4;
}

// SET PREFIX: bits 1-18 of the word at the operand are the new prefix (a multiple of
// 8 KB); an addressing exception, and no change, when that area is not in storage.
void spx(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint32_t word = c.read<uint32_t>(aligned<uint32_t>(c.gr[i.b2] + i.d2));
  const uint32_t prefix = word & 0x7FFFE000u;
  if (prefix + 8192ull > s.real().size()) program_check(Pic::Addressing, prefix);
  s.set_prefix(prefix);
}
void stpx(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.write<uint32_t>(aligned<uint32_t>(c.gr[i.b2] + i.d2), s.prefix());
}

// STORE CPU ID: version code 0, the CPU identification (the CPU address in its first
// byte), machine type 8561 (z15), format 0 [Principles of Operation, "STORE CPU ID"].
void stidp(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t id = uint64_t(s.address() & 0xFF) << 48 | 0x8561ull << 16;
  c.write<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2), id);
}

// SET CLOCK: the TOD clock of every I-stream (one clock for the configuration) reads
// the doubleword at the operand from now on; CC 0 [Principles of Operation, "SET CLOCK"].
void sck(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t value = c.read<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2));
  SystemMachine& m = s.machine();
  for (unsigned k = 0; k < m.machine().istreams(); ++k) m.cpu(k).set_tod_clock(value);
  c.cc = 0;
}

// The clock comparator and the CPU timer (their interruptions: SystemCpu::deliver_pending).
void sckc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  s.set_clock_comparator(c.read<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2)));
}
void stckc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.write<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2), s.clock_comparator());
}
void spt(Cpu& c, const Insn& i) { system_of(c).set_cpu_timer(c.read<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2))); }
void stpt(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.write<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2), s.cpu_timer());
}

// PURGE TLB: this I-stream's TLBs, and the translations its DAT views hold.
void ptlb(Cpu& c, const Insn&) {
  system_of(c).dat().purge_all();
  c.flush_tlb();
}

namespace {

// Every I-stream's TLBs, or this one's (a local-clearing control): what IPTE, IDTE and
// CSP(G) broadcast [Principles of Operation, "Translation-Lookaside Buffer"]. Clearing
// more than the PoO requires is allowed (a TLB entry may be cleared at any time): IDTE
// and CSP clear every view.
template <class F> void for_each_istream(SystemCpu& s, bool local, F&& f) {
  if (local) return f(s);
  SystemMachine& m = s.machine();
  for (unsigned k = 0; k < m.machine().istreams(); ++k) f(m.cpu(k));
}

constexpr uint64_t kPteInvalid = 1ull << (63 - 53);
constexpr uint64_t kEntryInvalid = 1ull << (63 - 58);  // region and segment entries

}  // namespace

// INVALIDATE PAGE TABLE ENTRY: R1 the page-table origin (bits 0-52), R2 bits 44-51 the
// page index; the entry's invalid bit is set and the TLB entries formed through it are
// cleared on every I-stream (M4 bit 3: on this one). With R3 (the IPTE-range facility)
// bits 56-63 more entries follow [Principles of Operation, "INVALIDATE PAGE TABLE ENTRY"].
void ipte(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t origin = c.gr[i.r1] & ~0x7FFull;
  const unsigned first = unsigned(c.gr[i.r2] >> 12 & 0xFF);
  const unsigned more = i.r3 ? unsigned(c.gr[i.r3] & 0xFF) : 0;
  for (unsigned k = first; k <= std::min(first + more, 255u); ++k) {
    const uint64_t entry = origin + k * 8;
    uint64_t pte;
    if (!s.dat().read64(entry, pte)) program_check(Pic::Addressing, entry);
    s.dat().write64(entry, pte | kPteInvalid);
    for_each_istream(s, i.m4 & 1, [&](SystemCpu& t) { t.dat().purge_entry(entry); });
  }
}

// INVALIDATE DAT TABLE ENTRY: R2 bit 52 off, invalidation and clearing: R1 a table
// origin and designation type, R2 bits 0-43 the first entry's index (at that level) and
// bits 53-63 how many more; their invalid bits are set. On, clearing by ASCE (R3). Either
// way the TLBs are cleared (every view here, more than the PoO asks).
void idte(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  if (!(c.gr[i.r2] & 0x800)) {
    const unsigned level = unsigned(c.gr[i.r1] >> 2 & 3);
    const uint64_t origin = c.gr[i.r1] & ~0xFFFull;
    const unsigned first = unsigned(c.gr[i.r2] >> (20 + 11 * level) & 0x7FF);
    const unsigned more = unsigned(c.gr[i.r2] & 0x7FF);
    for (unsigned k = first; k <= std::min(first + more, 2047u); ++k) {
      uint64_t e;
      if (!s.dat().read64(origin + k * 8, e)) program_check(Pic::Addressing, origin + k * 8);
      s.dat().write64(origin + k * 8, e | kEntryInvalid);
    }
  }
  for_each_istream(s, i.m4 & 1, [](SystemCpu& t) { t.dat().purge_all(); });
}

namespace {

// COMPARE AND SWAP AND PURGE: R1 the compare value, R1+1 the replacement, R2 the
// (aligned) second operand's address; equal: swapped, CC 0, and with R2's bit 63 every
// I-stream's TLBs cleared; unequal: R1 gets the operand, CC 1.
template <class T> void compare_swap_purge(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  if (i.r1 & 1) program_check(Pic::Specification);
  const uint64_t a = c.gr[i.r2] & ~uint64_t(sizeof(T) - 1);
  const T old = c.read<T>(a);
  if (old != T(c.gr[i.r1])) {
    sizeof(T) == 8 ? void(c.gr[i.r1] = old) : c.set_r32(i.r1, uint32_t(old));
    c.cc = 1;
    return;
  }
  c.write<T>(a, T(c.gr[i.r1 + 1]));
  c.cc = 0;
  if (c.gr[i.r2] & 1) for_each_istream(s, false, [](SystemCpu& t) { t.dat().purge_all(), t.cpu().flush_tlb(); });
}

// LOAD REAL ADDRESS: the operand translated through the ASCE the PSW's address-space
// control selects, whether DAT is on or not. CC 0: the real address; CC 1: the segment-
// table entry is invalid (R1 its address); CC 2: the page-table entry is (R1 its address);
// CC 3: an ASCE-type, region or length exception (bit 32 and the code in R1's bits 32-63).
void load_real_address(Cpu& c, const Insn& i, bool wide) {
  SystemCpu& s = system_of(c);
  AsceId id;
  const uint64_t asce = s.asce(id);
  const DatWalk w = s.dat().walk(asce, c.ea2(i), s.dat_controls());
  if (w.code == dat_code::kAddressing) program_check(Pic::Addressing, w.entry);
  if (w.code == dat_code::kTranslationSpecification) program_check(Pic(dat_code::kTranslationSpecification));
  if (!w.code) {
    if (!wide && w.real >> 31) {  // LRA in 64-bit mode: a real address past 2 GB
      c.set_r32(i.r1, 0x80000000u | dat_code::kTranslationSpecification), c.cc = 3;
      return;
    }
    c.gr[i.r1] = wide ? w.real : (c.gr[i.r1] & ~0xFFFFFFFFull) | w.real;
    c.cc = 0;
    return;
  }
  if (w.invalid_entry && w.code == dat_code::kSegmentTranslation) c.gr[i.r1] = w.entry, c.cc = 1;
  else if (w.code == dat_code::kPageTranslation) c.gr[i.r1] = w.entry, c.cc = 2;
  else c.set_r32(i.r1, 0x80000000u | w.code), c.cc = 3;
}

// Real storage at R2 (aligned), for LURA(G) and STURA(G): the real view, prefixing applied.
template <class T> uint64_t real_operand(SystemCpu& s, uint64_t a) {
  if (a & (sizeof(T) - 1)) program_check(Pic::Specification);
  if (a + sizeof(T) > s.real().size()) program_check(Pic::Addressing, a);
  return a;
}
// The operand is subject to key-controlled protection, and references its block
// [Principles of Operation, "LOAD USING REAL ADDRESS"] (the store sets the change bit
// through write_bytes).
template <class T> T load_using_real(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t a = real_operand<T>(s, c.gr[i.r2]);
  const uint64_t frame = s.key_frame_of_real(a);
  s.check_key(a, false, frame);
  c.space().storage().key(frame) |= kKeyReferenced;
  uint8_t b[sizeof(T)];
  s.real().space().read_bytes(a, b, sizeof(T));
  return Cpu::load_be<T>(b);
}
template <class T> void store_using_real(Cpu& c, const Insn& i, T v) {
  SystemCpu& s = system_of(c);
  const uint64_t a = real_operand<T>(s, c.gr[i.r2]);
  s.check_key(a, true, s.key_frame_of_real(a));
  uint8_t b[sizeof(T)];
  Cpu::store_be<T>(b, v);
  s.real().space().write_bytes(a, b, sizeof(T));
}

// SET ADDRESS SPACE CONTROL (FAST): bits 52-55 of the operand address select primary
// (0), secondary (1), access-register (2) or home (3) mode [Principles of Operation, "SET
// ADDRESS SPACE CONTROL"]. SAC needs DAT on; secondary and access-register modes need
// CR0's secondary-space control (bit 37); home mode needs the supervisor state.
void set_address_space_control(Cpu& c, const Insn& i, bool fast) {
  SystemCpu& s = system_of(c);
  const unsigned mode = unsigned(c.ea2(i) >> 8 & 0xF);
  if (mode > 3) program_check(Pic::Specification);
  if (!fast && !(s.mask() & psw::kDat)) program_check(Pic(0x0013));
  if ((mode == 1 || mode == 2) && !(s.cr[0] & (1ull << (63 - 37)))) program_check(Pic(0x0013));
  if (mode == 3 && s.problem_state()) program_check(Pic::PrivilegedOperation);
  static constexpr unsigned kAsc[4] = {0, 2, 1, 3};  // the PSW's bits 16-17 for each mode
  s.set_address_space_control(kAsc[mode]);
}

}  // namespace

void csp(Cpu& c, const Insn& i) { compare_swap_purge<uint32_t>(c, i); }
void cspg(Cpu& c, const Insn& i) { compare_swap_purge<uint64_t>(c, i); }
void lra(Cpu& c, const Insn& i) { load_real_address(c, i, false); }
void lray(Cpu& c, const Insn& i) { load_real_address(c, i, false); }
void lrag(Cpu& c, const Insn& i) { load_real_address(c, i, true); }
void lura(Cpu& c, const Insn& i) { c.set_r32(i.r1, load_using_real<uint32_t>(c, i)); }
void lurag(Cpu& c, const Insn& i) { c.gr[i.r1] = load_using_real<uint64_t>(c, i); }
void stura(Cpu& c, const Insn& i) { store_using_real<uint32_t>(c, i, c.r32(i.r1)); }
void sturg(Cpu& c, const Insn& i) { store_using_real<uint64_t>(c, i, c.gr[i.r1]); }
void sac(Cpu& c, const Insn& i) { set_address_space_control(c, i, false); }
void sacf(Cpu& c, const Insn& i) { set_address_space_control(c, i, true); }

// TEST PROTECTION: the first operand's location tested for fetch and store with the
// access key in bits 56-59 of the second-operand address, against its block's storage
// key and DAT protection. CC 0 both permitted, 1 fetch only, 2 neither, 3 the
// translation is not available.
void tprot(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t a = c.ea1(i);
  const unsigned key = unsigned(c.gr[i.b2] + i.d2) >> 4 & 0xF;
  bool protect = false;
  uint64_t real = a;
  if (s.mask() & psw::kDat) {
    AsceId id;
    const DatWalk w = s.dat().walk(s.asce(id), a, s.dat_controls());
    if (w.code == dat_code::kAddressing) program_check(Pic::Addressing, w.entry);
    if (w.code == dat_code::kTranslationSpecification) program_check(Pic(dat_code::kTranslationSpecification));
    if (w.code) {
      c.cc = 3;
      return;
    }
    protect = w.protect, real = w.real;
  }
  if (real >= s.real().size()) program_check(Pic::Addressing, a);
  const uint8_t block = c.space().storage().access_key(s.key_frame_of_real(real));
  const bool storage_override = s.cr[0] & kCr0StorageProtectionOverride;
  const bool store_ok = !protect && !s.low_address_protected(a) &&
                        storage_key::store_permitted(uint8_t(key), block, storage_override);
  const bool fetch_ok = storage_key::fetch_permitted(uint8_t(key), block, storage_override) ||
                        s.fetch_protection_overridden(a);  // (the effective address)
  c.cc = store_ok ? 0 : fetch_ok ? 1 : 2;
}

// --- Storage keys [Principles of Operation, "Storage Key" and chapter 10] ---------------

namespace {

// SSKE's and PFMF's conditional update (the conditional-SSKE facility): with MR or MC
// one, the key is left alone when its ACC and F, and its R unless MR and its C unless MC,
// already are the new key's; else it is set, but for R under MR and C under MC, which
// keep their values. Returns the original key.
uint8_t set_key_conditionally(Storage& st, uint64_t frame, uint8_t key, bool mr, bool mc) {
  using namespace storage_key;
  const uint8_t old = read(st, frame);
  if (mr || mc) {
    uint8_t compared = kAccessControl | kFetchProtection;
    if (!mr) compared |= kReference;
    if (!mc) compared |= kChange;
    if (!((old ^ key) & compared)) return old;
    if (mr) key = uint8_t((key & ~kReference) | (old & kReference));
    if (mc) key = uint8_t((key & ~kChange) | (old & kChange));
  }
  write(st, frame, key);
  return old;
}

// Clears the 4 KB block of Storage frame `frame` (PFMF's clear-frame control): a store,
// so it sets the change and reference bits. A frame never stored into already reads as
// zeros and stays without a host page; decoded instructions in it are forgotten, as a
// host write forgets them (AddressSpace::write_bytes).
void clear_block(Storage& st, uint64_t frame) {
  uint8_t& key = st.key(frame);
  if (key & kKeyStored) std::fill_n(st.host_page(frame), kPageSize, uint8_t(0));
  if (key & kKeyCode)
    if (Frame& f = st.frame(frame); f.code) *f.code = DecodedPage{};
  key |= kKeyReferenced | kKeyChanged;
}

// SSKE's M3 (NQ, 8, the nonquiescing control, has nothing to act on here).
constexpr unsigned kSskeMr = 4, kSskeMc = 2, kSskeMultipleBlock = 1;

}  // namespace

namespace {
// MOVE PAGE's operand with DAT on: whether its page can be translated (a region-,
// segment- or page-translation exception, or an ASCE-type one, means not); table
// addressing and specification exceptions are left to the access itself.
bool page_unavailable(SystemCpu& s, uint64_t a) {
  if (!(s.mask() & psw::kDat)) return false;
  AsceId id;
  const DatWalk w = s.dat().walk(s.asce(id), a, s.dat_controls());
  return w.code && w.code != dat_code::kAddressing && w.code != dat_code::kTranslationSpecification;
}
}  // namespace

// MOVE PAGE: the 4 KB page at R2's address (bits 0-51) to the one at R1's, CC 0
// [Principles of Operation, "MOVE PAGE"]. GR0: bits 49-51 (the move-page-and-set-key
// facility's, not installed) and bits 52-53 both one are a specification exception; the
// key controls of bits 52-53 are accepted but the accesses use the PSW key (not yet GR0
// bits 56-59); bit 55, the condition-code option: a page that cannot be translated gives
// CC 2 (second operand first) or 1 instead of the exception. Without it the exception is
// taken (nullifying) with the operand-access identification at 0xA2, R1 and R2 as the
// instruction gives them.
void mvpg(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t r0 = c.gr[0];
  const unsigned key_function = unsigned(r0 >> 10 & 0x1F);
  if (key_function > 2) program_check(Pic::Specification);
  const bool cc_option = r0 & 0x100;
  const uint64_t to = c.gr[i.r1] & ~uint64_t(kPageSize - 1), from = c.gr[i.r2] & ~uint64_t(kPageSize - 1);
  const bool from_unavailable = page_unavailable(s, from), to_unavailable = page_unavailable(s, to);
  if (cc_option && (from_unavailable || to_unavailable)) {
    c.cc = from_unavailable ? 2 : 1;
    return;
  }
  if (from_unavailable || to_unavailable) {
    const uint8_t access_id = uint8_t(i.r1 << 4 | i.r2);
    s.real().space().write_bytes(0xA2, &access_id, 1);
  }
  uint8_t page[kPageSize];
  std::copy_n(c.span(from, kPageSize, false), kPageSize, page);
  std::copy_n(page, kPageSize, c.span(to, kPageSize, true));
  c.cc = 0;
}

// TEST BLOCK: the 4 KB block at R2's real address (bits 0-51) is cleared to zeros and
// found usable, CC 0 (no block is unusable here) [Principles of Operation, "TEST BLOCK"].
// Low-address protection applies, key-controlled protection does not; an addressing
// exception beyond storage. GR0's must-be-zero bits are not checked.
void tb(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t real = c.gr[i.r2] & ~uint64_t(kPageSize - 1);
  if (s.low_address_protected(real)) s.low_address_protection_exception(real);
  clear_block(c.space().storage(), s.key_frame_of_real(real));
  c.cc = 0;
}

// INSERT STORAGE KEY EXTENDED: the key of the 4 KB block at R2's real address (bits
// 0-51) into R1 bits 56-62, bit 63 zero, bits 0-55 unchanged.
void iske(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t frame = s.key_frame_of_real(c.gr[i.r2] & ~kPageMask);
  c.gr[i.r1] = (c.gr[i.r1] & ~0xFFull) | storage_key::read(c.space().storage(), frame);
}

// RESET REFERENCE BIT EXTENDED: the block's reference bit is set to zero; the CC is the
// original R and C bits: 0 both zero, 1 only C, 2 only R, 3 both.
void rrbe(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  Storage& st = c.space().storage();
  const uint64_t frame = s.key_frame_of_real(c.gr[i.r2] & ~kPageMask);
  const uint8_t old = storage_key::read(st, frame);
  storage_key::write(st, frame, old & ~storage_key::kReference);
  c.cc = (old & storage_key::kReference ? 2 : 0) | (old & storage_key::kChange ? 1 : 0);
  s.storage_key_changed();
}

// SET STORAGE KEY EXTENDED: R1 bits 56-62 become the key of the block at R2's real
// address. M3: MR and MC (the conditional update; the original key then goes to R1
// bits 48-55), NQ (nonquiescing: nothing to quiesce here), MB (the multiple-block
// control of EDAT-1: R2 is an absolute address, the blocks up to its 1 MB boundary are
// set, and R2's bits 0-51 then hold that boundary). The CC is unchanged.
void sske(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  Storage& st = c.space().storage();
  const unsigned m3 = i.m3;
  const bool mr = m3 & kSskeMr, mc = m3 & kSskeMc;
  const uint8_t key = uint8_t(c.gr[i.r1]) & storage_key::kKeyBits;
  const uint64_t address = c.gr[i.r2] & ~kPageMask;
  uint8_t old = 0;
  if (m3 & kSskeMultipleBlock) {
    const uint64_t end = (address | (kSegmentSize - 1)) + 1;
    if (address >= s.real().size()) program_check(Pic::Addressing, address);
    for (uint64_t a = address; a != end && a < s.real().size(); a += kPageSize)
      old = set_key_conditionally(st, s.key_frame_of_absolute(a), key, mr, mc);
    c.gr[i.r2] = end | (c.gr[i.r2] & kPageMask);
  } else {
    old = set_key_conditionally(st, s.key_frame_of_real(address), key, mr, mc);
  }
  if (mr || mc) c.gr[i.r1] = (c.gr[i.r1] & ~0xFF00ull) | uint64_t(old) << 8;
  s.storage_key_changed();
}

// INSERT VIRTUAL STORAGE KEY: the ACC and F bits of the block R2's virtual address
// translates to, into R1 bits 56-60 (61-63 zero). DAT must be on (else a special-
// operation exception); in the problem state CR0's extraction-authority control must
// be one. Not subject to protection: the address is translated, not accessed.
void ivsk(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  if (s.problem_state() && !(s.cr[0] & kCr0ExtractionAuthority)) program_check(Pic::PrivilegedOperation);
  if (!(s.mask() & psw::kDat)) program_check(Pic(0x0013));  // special operation
  AsceId id;
  const uint64_t vaddr = c.gr[i.r2];
  const DatWalk w = s.dat().walk(s.asce(id), vaddr, s.dat_controls());
  if (w.code == dat_code::kAddressing) program_check(Pic::Addressing, w.entry);
  if (w.code == dat_code::kTranslationSpecification) program_check(Pic(dat_code::kTranslationSpecification));
  if (w.code) {
    s.store_translation_exception_id(page_down(vaddr) | uint64_t(id));
    program_check(Pic(w.code), vaddr);
  }
  const uint8_t block = c.space().storage().access_key(s.key_frame_of_real(w.real));
  c.gr[i.r1] = (c.gr[i.r1] & ~0xFFull) | (block & (storage_key::kAccessControl | storage_key::kFetchProtection));
}

// PERFORM FRAME MANAGEMENT FUNCTION (EDAT-1): R1's controls (bit 46 SK set key, 47 CF
// clear frame, 48 UI usage indication, 49-51 FSC frame size, 52 NQ, 53 MR, 54 MC, 56-62
// the key; bits 32-45, 55 and 63 reserved: a specification exception) applied to the
// frame at R2: FSC 0 a 4 KB block at a real address, 1 the 1 MB frame (2 the 2 GB
// frame, with EDAT-2) from R2's absolute address to its boundary, R2 then holding that
// boundary. The key's update is conditional as SSKE's.
void pfmf(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  Storage& st = c.space().storage();
  const uint64_t controls = c.gr[i.r1];
  constexpr uint64_t kReserved = 0xFFFC0101, kSetKey = 0x20000, kClearFrame = 0x10000;
  constexpr uint64_t kMr = 0x400, kMc = 0x200;
  if (controls & kReserved) program_check(Pic::Specification);
  const unsigned frame_size_code = unsigned(controls >> 12 & 7);
  const uint64_t start = c.gr[i.r2] & ~kPageMask;
  uint64_t end;
  switch (frame_size_code) {
    case 0: end = start + kPageSize; break;
    case 1: end = (start | (kSegmentSize - 1)) + 1; break;
    case 2: end = (start | ((1ull << 31) - 1)) + 1; break;
    default: program_check(Pic::Specification);
  }
  const uint8_t key = uint8_t(controls) & storage_key::kKeyBits;
  for (uint64_t a = start; a != end; a += kPageSize) {
    if (a >= s.real().size()) {
      if (frame_size_code) c.gr[i.r2] = a;  // the blocks before it are done
      program_check(Pic::Addressing, a);
    }
    const uint64_t frame = frame_size_code ? s.key_frame_of_absolute(a) : s.key_frame_of_real(a);
    if (controls & kClearFrame) clear_block(st, frame);
    if (controls & kSetKey) set_key_conditionally(st, frame, key, controls & kMr, controls & kMc);
  }
  if (frame_size_code) c.gr[i.r2] = end;
  s.storage_key_changed();
}

// STORE FACILITY LIST: the first word of STFLE's list at real location 200.
void stfl(Cpu& c, const Insn&) {
  system_of(c);
  const std::vector<uint64_t> list = facility_list(c.arch(), true);
  c.write<uint32_t>(lowcore::kFacilityList, uint32_t(list.empty() ? 0 : list[0] >> 32));
}

// SERVICE CALL: R1 the SCLP command word, R2 the SCCB's real address (emu/system/sclp.h).
void servc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.cc = uint8_t(s.machine().sclp().service_call(s, c.r32(i.r1), c.gr[i.r2]));
  // The service signal floats: an I-stream it wakes runs at the next scheduling step.
  s.machine().offer_service_signal(c.cycles);
  c.end_slice();
}

// SIGNAL PROCESSOR: the order is bits 56-63 of the second-operand address, the addressed
// CPU bits 48-63 of R3, the parameter in R1+1 (R1 odd: in R1); a CC 1's status replaces
// bits 32-63 of R1; CC 3 when no I-stream has that address [Principles of Operation,
// "SIGNAL PROCESSOR"]. The other I-stream is told at once (the machine interleaves the
// I-streams within a quantum: this one's slice ends, so that a started one runs soon).
void sigp(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  SystemMachine& m = s.machine();
  const unsigned order = unsigned(c.ea2(i) & 0xFF);
  const uint64_t target = c.gr[i.r3] & 0xFFFF;
  if (target >= m.machine().istreams()) {
    c.cc = 3;
    return;
  }
  const uint64_t parameter = c.gr[i.r1 | 1];
  uint32_t status = 0;
  c.cc = uint8_t(m.cpu(unsigned(target)).signal(order, parameter, s, status));
  if (c.cc == 1) c.set_r32(i.r1, status);
  s.deliver_pending();  // an order to this I-stream itself (an emergency signal) after its CC
  c.end_slice();
}

// DIAGNOSE: the function code is bits 48-63 of the second-operand address. 0x44
// (voluntary time-slice end) and 0x9C (directed yield) do nothing on a machine of our
// own; 0x308 subcodes 0 and 1 (load clear and load normal, R3's register) reset the
// configuration and IPL again from the PSW at absolute 0 (SystemMachine::reipl);
// 0x288, the watchdog timer (SystemMachine::diagnose_288, with `ipl --watchdog`);
// anything else is a specification exception, as z/VM and KVM give for a code (or a
// subcode's operands) they do not know.
void diag(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint16_t code = uint16_t(c.ea2(i));
  switch (code) {
    case 0x44:
    case 0x9C: return;
    case 0x308: {
      const uint64_t subcode = c.gr[i.r3];
      if (subcode == 0 || subcode == 1) {
        s.machine().reipl(s.address());
        return c.end_slice();
      }
      program_check(Pic::Specification);
    }
    case 0x288: {  // the watchdog timer: R1 even, function in R1, seconds in R1+1, action in R3
      if ((i.r1 & 1) || !s.machine().diagnose_288(c.gr[i.r1], c.gr[i.r1 + 1], c.gr[i.r3], c.cycles))
        program_check(Pic::Specification);
      return;
    }
    default: program_check(Pic::Specification);
  }
}

namespace {

void put16(uint8_t* at, uint16_t v) { at[0] = uint8_t(v >> 8), at[1] = uint8_t(v); }

// Configuration level 3: a virtual machine (3.2.2) in a logical partition (2.2.2) of a
// z15 (1.1.1), as emu/system/vm_description.h says.
constexpr unsigned kCurrentLevel = 3;

// The system-information block of (fc, sel1, sel2), or false when the machine has none
// [Principles of Operation, "STORE SYSTEM INFORMATION"]: 1.1.1 basic-machine
// configuration, 2.2.2 the logical partition's CPUs, 3.2.2 the virtual machine's.
bool sysib(unsigned fc, unsigned sel1, unsigned sel2, unsigned cpus, const VirtualMachineDescription& vm_description,
           uint8_t (&block)[4096]) {
  if (fc == 1 && sel1 == 1 && sel2 == 1) {
    put_ebcdic(block + 32, 16, "IBM");      // manufacturer
    put_ebcdic(block + 48, 4, "8561");      // type: the z15, as STIDP says
    put_ebcdic(block + 64, 16, "T01");      // model-capacity identifier
    put_ebcdic(block + 80, 16, "0000000000000001");  // sequence code
    put_ebcdic(block + 96, 4, "02");        // plant
    put_ebcdic(block + 100, 16, "T01");     // model
    return true;
  }
  if (fc == 2 && sel1 == 2 && sel2 == 2) {
    put16(block + 32, 1);                               // the partition's number
    put16(block + 36, uint16_t(cpus));                  // total CPUs
    put16(block + 38, uint16_t(cpus));                  // configured
    put_ebcdic(block + 44, 8, "TPFEMU");                // the partition's name
    return true;
  }
  if (fc == 3 && sel1 == 2 && sel2 == 2) {
    block[31] = 1;                                      // one virtual-machine description
    uint8_t* vm = block + 32;
    put16(vm + 4, uint16_t(cpus)), put16(vm + 6, uint16_t(cpus));  // total, configured CPUs
    put_ebcdic(vm + 12, 8, vm_description.name);       // the virtual machine's name
    put_ebcdic(vm + 24, 16, vm_description.control_program);  // control-program identifier
    std::copy(vm_description.uuid.begin(), vm_description.uuid.end(), vm + 48);
    if (vm_description.extended_name) {
      // The extended name, UTF-8 (encoding 2), in the block's second 2 KB: one 256-byte
      // name per description.
      vm[43] = 2;
      const std::string& name = vm_description.name;
      std::copy(name.begin(), name.begin() + std::min<size_t>(name.size(), 256), block + 2048);
    }
    return true;
  }
  return false;
}

}  // namespace

// STORE SYSTEM INFORMATION: GR0 bits 32-35 the function code (0: the current level into
// them), bits 56-63 selector 1, GR1 bits 48-63 selector 2; the 4 KB block at the operand
// (4 KB aligned). Reserved bits of GR0 or GR1 on: a specification exception; a level or
// selectors the machine has no block for: CC 3.
void stsi(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t r0 = c.gr[0], r1 = c.gr[1];
  if ((r0 & 0x0FFFFF00ull) || (r1 & 0xFFFF0000ull)) program_check(Pic::Specification);
  const unsigned fc = unsigned(r0 >> 28 & 0xF), sel1 = unsigned(r0 & 0xFF), sel2 = unsigned(r1 & 0xFFFF);
  if (fc == 0) {
    c.set_r32(0, (c.r32(0) & 0x0FFFFFFFu) | kCurrentLevel << 28);
    c.cc = 0;
    return;
  }
  uint8_t block[4096] = {};
  if (fc > kCurrentLevel || !sysib(fc, sel1, sel2, s.machine().machine().istreams(), s.machine().vm_description(), block)) {
    c.cc = 3;
    return;
  }
  const uint64_t a = c.gr[i.b2] + i.d2;
  if (a & 0xFFF) program_check(Pic::Specification);
  uint8_t* to = c.span(a, sizeof block, true);
  std::copy(block, block + sizeof block, to);
  c.cc = 0;
}

// --- Moves across keys and spaces [Principles of Operation, chapter 10, "MOVE WITH KEY",
// "MOVE TO PRIMARY", "MOVE TO SECONDARY"] -----------------------------------------------

namespace {

// The address-space control (PSW bits 16-17) of the primary and secondary spaces.
constexpr unsigned kAscPrimary = 0, kAscSecondary = 2, kAscAccessRegister = 1, kAscHome = 3;
// CR0 bit 37, the secondary-space control.
constexpr uint64_t kCr0SecondarySpace = 1ull << (63 - 37);

// One operand's references are made in the space and with the access key the
// instruction gives it: the PSW's address-space control and key are set for the while
// (so DAT, key-controlled and fetch protection, reference and change recording, the
// TEID's ASCE id and the TLBs serve it as any access), and put back however the
// instruction ends, an access exception included.
class OperandAccess {
 public:
  explicit OperandAccess(SystemCpu& s)
      : s_(s), asc_(unsigned((s.mask() & psw::kAsc) >> psw::kAscShift)), key_(s.key()) {}
  OperandAccess(const OperandAccess&) = delete;
  OperandAccess& operator=(const OperandAccess&) = delete;
  ~OperandAccess() {
    s_.set_key(key_);
    s_.set_address_space_control(asc_);
  }
  void use(unsigned asc, uint8_t key) {
    s_.set_address_space_control(asc);
    s_.set_key(key);
  }

 private:
  SystemCpu& s_;
  unsigned asc_;
  uint8_t key_;
};

// The true length in R1 (64-bit addressing mode: all 64 bits): more than 256 moves 256
// and gives CC 3, else CC 0 (set once the move is done: an access exception nullifies or
// suppresses, the old PSW's CC unchanged).
unsigned moved_length(const Cpu& c, const Insn& i) { return unsigned(std::min<uint64_t>(c.gr[i.r1], 256)); }
uint8_t length_cc(const Cpu& c, const Insn& i) { return c.gr[i.r1] > 256 ? 3 : 0; }

// The access key in R3 bits 56-59. In the problem state its bit of the PSW-key mask
// (CR3 bits 32-47) must be one, else a privileged-operation exception.
uint8_t authorized_key(SystemCpu& s, const Insn& i) {
  const uint8_t key = uint8_t(s.cpu().gr[i.r3] >> 4 & 0xF);
  if (s.problem_state() && !(s.cr[3] >> (31 - key) & 1)) program_check(Pic::PrivilegedOperation);
  return key;
}

// With DAT on, an operand's pages are translated in its space before it is accessed: a
// page fault is otherwise resolved after the instruction ends (to run it again), when
// the CPU is back in its own space. A failed translation is the instruction's exception.
void map_operand(Cpu& c, SystemCpu& s, uint64_t a, unsigned n, bool store) {
  if (!(s.mask() & psw::kDat)) return;
  for (uint64_t page = page_down(a); page <= page_down(a + n - 1); page += kPageSize) {
    Translation t;
    if (c.space().translate(page, t) != Translate::NotPresent) continue;
    if (!s.dat().map_now(page, store)) program_check(Pic::PageTranslation, page);
  }
}

// `n` bytes from `from` (space `from_asc`, key `from_key`) to `to` (`to_asc`,
// `to_key`): the second operand is fetched whole before the first is stored, and both
// of the first operand's pages are translated before a byte is stored.
void move_across(Cpu& c, SystemCpu& s, uint64_t to, unsigned to_asc, uint8_t to_key, uint64_t from,
                 unsigned from_asc, uint8_t from_key, unsigned n) {
  if (n == 0) return;
  uint8_t bytes[256];
  OperandAccess access(s);
  access.use(from_asc, from_key);
  map_operand(c, s, from, n, false);
  const HostBytes source = host_bytes(c, from, n, false);
  for (unsigned k = 0; k < n; ++k) bytes[k] = source[k];
  access.use(to_asc, to_key);
  map_operand(c, s, to, n, true);
  const HostBytes target = host_bytes(c, to, n, true);
  for (unsigned k = 0; k < n; ++k) target[k] = bytes[k];
}

// MOVE TO PRIMARY and MOVE TO SECONDARY need DAT on, CR0's secondary-space control, and
// the primary- or secondary-space mode: else a special-operation exception, recognized
// before the key's privileged-operation exception.
void check_cross_space(SystemCpu& s) {
  const unsigned asc = unsigned((s.mask() & psw::kAsc) >> psw::kAscShift);
  if (!(s.mask() & psw::kDat) || !(s.cr[0] & kCr0SecondarySpace) || asc == kAscAccessRegister || asc == kAscHome)
    program_check(Pic(0x0013));
}

}  // namespace

// MOVE WITH KEY: the first operand (PSW key) gets the second's bytes fetched with R3's key,
// both in the current space.
void mvck(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t key = authorized_key(s, i);
  const unsigned asc = unsigned((s.mask() & psw::kAsc) >> psw::kAscShift);
  move_across(c, s, c.ea1(i), asc, s.key(), c.ea2(i), asc, key, moved_length(c, i));
  c.cc = length_cc(c, i);
}

// MOVE TO PRIMARY: the first operand in the primary space (PSW key), the second in the
// secondary space (R3's key).
void mvcp(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  check_cross_space(s);
  const uint8_t key = authorized_key(s, i);
  move_across(c, s, c.ea1(i), kAscPrimary, s.key(), c.ea2(i), kAscSecondary, key, moved_length(c, i));
  c.cc = length_cc(c, i);
}

// MOVE TO SECONDARY: the first operand in the secondary space (R3's key), the second in
// the primary space (PSW key).
void mvcs(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  check_cross_space(s);
  const uint8_t key = authorized_key(s, i);
  move_across(c, s, c.ea1(i), kAscSecondary, key, c.ea2(i), kAscPrimary, s.key(), moved_length(c, i));
  c.cc = length_cc(c, i);
}

}  // namespace emu::isa
