#include "emu/system/dat.h"

namespace emu {

namespace {

// Bits of the ASCE and of the table entries, numbered as the Principles of Operation
// numbers them in a doubleword ("Translation Tables").
constexpr uint64_t bit(unsigned n) { return 1ull << (63 - n); }
constexpr uint64_t kAsceRealSpace = bit(58);      // R: the addresses are real
constexpr uint64_t kEntryInvalid = bit(58);       // I of region- and segment-table entries
constexpr uint64_t kFormatControl = bit(53);      // FC: the entry designates a frame (EDAT)
constexpr uint64_t kEntryProtection = bit(54);    // P of region (EDAT-1), segment and page entries
constexpr uint64_t kEntryIep = bit(55);           // IEP of page entries and of frame-designating
                                                  // segment (EDAT-1) and region-third (EDAT-2) entries
constexpr uint64_t kPageInvalid = bit(53);        // I of a page-table entry
constexpr uint64_t kPageReserved = bit(52);       // must be zero in a page-table entry
constexpr uint64_t kTableOrigin = ~0xFFFull;      // region and segment tables: 4 KB aligned
constexpr uint64_t kPageTableOrigin = ~0x7FFull;  // page tables: 2 KB aligned

unsigned type_of(uint64_t e) { return unsigned(e >> 2 & 3); }      // DT of an ASCE, TT of an entry
unsigned length_of(uint64_t e) { return unsigned(e & 3); }         // TL
unsigned offset_of(uint64_t e) { return unsigned(e >> 6 & 3); }    // TF of a region entry

// Level 3 is the region-first table, 2 the region-second, 1 the region-third, 0 the
// segment table: the index of `vaddr` in it (RFX, RSX, RTX, SX: 11 bits each).
unsigned index_at(unsigned level, uint64_t vaddr) { return unsigned(vaddr >> (20 + 11 * level) & 0x7FF); }
// The translation exception of a table at `level` that is invalid or too short.
uint16_t exception_at(unsigned level) {
  static constexpr uint16_t kCodes[4] = {dat_code::kSegmentTranslation, dat_code::kRegionThirdTranslation,
                                         dat_code::kRegionSecondTranslation, dat_code::kRegionFirstTranslation};
  return kCodes[level];
}

}  // namespace

// [Principles of Operation, "Translation Process": "Lookup in a Table Designated by an
// ASCE", "Region-Table Lookup", "Segment-Table Lookup", "Page-Table Lookup"]. Table
// entries are fetched by absolute address, as QEMU and the machine do.
DatWalk dat_walk(uint64_t asce, uint64_t vaddr, const DatControls& controls, AbsoluteReader& storage) {
  DatWalk w;
  auto fail = [&](uint16_t code) {
    w.code = code;
    return w;
  };
  if (asce & kAsceRealSpace) {  // a real-space designation: no tables
    w.real = vaddr;
    return w;
  }
  unsigned level = type_of(asce);
  // A table designated by the ASCE reaches 2 GB (segment), 4 TB, 8 PB or all 16 EB: an
  // address beyond it is an ASCE-type exception.
  if (level < 3 && vaddr >> (31 + 11 * level)) return fail(dat_code::kAsceType);
  uint64_t table = asce & kTableOrigin;
  unsigned first = 0, last = length_of(asce);  // the table's 4 KB blocks present (TF to TL)
  uint64_t e = 0;  // the entry of the table at `level`; the segment-table entry after the loop
  for (;; --level) {
    const unsigned index = index_at(level, vaddr);
    if (index >> 9 < first || index >> 9 > last) return fail(exception_at(level));
    w.entry = table + index * 8;
    if (!storage.read64(w.entry, e)) return fail(dat_code::kAddressing);
    if (e & kEntryInvalid) return w.invalid_entry = true, fail(exception_at(level));
    if (type_of(e) != level) return fail(dat_code::kTranslationSpecification);
    if (level == 0) break;
    if (controls.edat1 && (e & kEntryProtection)) w.protect = true;
    // EDAT-2: a region-third-table entry with FC designates a 2 GB frame.
    if (level == 1 && controls.edat2 && (e & kFormatControl)) {
      w.frame_size = 1ull << 31;
      w.no_execute = e & kEntryIep;
      w.real = (e & ~(w.frame_size - 1)) | (vaddr & (w.frame_size - 1));
      return w;
    }
    table = e & kTableOrigin, first = offset_of(e), last = length_of(e);
  }
  const uint64_t ste = e;
  if (ste & kEntryProtection) w.protect = true;
  // EDAT-1: a segment-table entry with FC designates a 1 MB frame.
  if (controls.edat1 && (ste & kFormatControl)) {
    w.frame_size = kSegmentSize;
    w.no_execute = ste & kEntryIep;
    w.real = (ste & ~(kSegmentSize - 1)) | (vaddr & (kSegmentSize - 1));
    return w;
  }
  uint64_t pte;
  w.entry = (ste & kPageTableOrigin) + (vaddr >> 12 & 0xFF) * 8;
  if (!storage.read64(w.entry, pte)) return fail(dat_code::kAddressing);
  if (pte & kPageInvalid) return w.invalid_entry = true, fail(dat_code::kPageTranslation);
  if (pte & kPageReserved) return fail(dat_code::kTranslationSpecification);
  if (pte & kEntryProtection) w.protect = true;
  w.no_execute = pte & kEntryIep;
  w.real = (pte & kTableOrigin) | (vaddr & kPageMask);
  return w;
}

GuestDat::View& GuestDat::view(uint64_t asce) {
  View& v = views_[asce];
  if (!v.space) {
    v.space = std::make_unique<AddressSpace>(real_.space().storage(), ~0ull);
    v.space->set_track_changes(true);  // change recording, as the real view (real_storage.cpp)
  }
  v.asce = asce;
  return v;
}

// [Principles of Operation, "Address-Space Control"]: in secondary-space mode operand
// addresses are secondary virtual addresses (CR7) and instruction addresses primary
// ones (CR1); the other modes translate both through one ASCE.
void GuestDat::select(uint64_t asce, AsceId id, uint64_t code_asce, AsceId code_id, const DatControls& controls) {
  selected_ = &view(asce);
  code_ = code_asce == asce ? selected_ : &view(code_asce);
  selected_id_ = id, code_id_ = code_id;
  // Instruction-execution protection [Principles of Operation, "Instruction-Execution
  // Protection"]: under CR0's control, a page mapped without the execute right (its
  // entry's IEP bit) refuses instruction fetches.
  selected_->space->set_execute_protection(controls.iep);
  code_->space->set_execute_protection(controls.iep);
  controls_ = controls;
}

PageFaultHandler::Action GuestDat::page_fault(Cpu& cpu, uint64_t address) {
  if (held_ && page_down(address) == held_page_) {
    held_ = false;
    return Action::Fail;
  }
  if (!selected_) return has_exception_ = true, exception_teid_ = 0, exception_code_ = dat_code::kPageTranslation,
                         Action::Fail;
  const bool fetch = cpu.fault_was_instruction_fetch();
  return map_page(fetch ? *code_ : *selected_, fetch ? code_id_ : selected_id_, address, cpu.fault_was_store())
             ? Action::Retry
             : Action::Fail;
}

bool GuestDat::map_now(uint64_t address, bool store) {
  if (selected_ && map_page(*selected_, selected_id_, address, store)) return true;
  if (!selected_) has_exception_ = true, exception_teid_ = 0, exception_code_ = dat_code::kPageTranslation;
  held_ = true, held_page_ = page_down(address);
  return false;
}

bool GuestDat::map_page(View& v, AsceId id, uint64_t address, bool store) {
  has_exception_ = true, exception_teid_ = 0;
  const DatWalk w = dat_walk(v.asce, address, controls_, *this);
  if (w.code) {
    exception_code_ = w.code;
    // The translation-exception identification: the address's bits 0-51, whether a
    // fetch (bits 52-53 10) or a store (01) met it (the access-exception-fetch/store-
    // indication facility, STFLE bit 75, which the z15 has) and the ASCE used (bits
    // 62-63) [Principles of Operation, "Translation-Exception Identification"].
    constexpr uint64_t kFetch = 0x800, kStore = 0x400;
    if (w.code != dat_code::kAddressing && w.code != dat_code::kTranslationSpecification)
      exception_teid_ = (address & ~kPageMask) | (store ? kStore : kFetch) | uint64_t(id);
    return false;
  }
  if (w.real >= real_.size()) return exception_code_ = dat_code::kAddressing, false;
  has_exception_ = false;
  const uint8_t prot = kProtRead | (w.no_execute ? 0 : kProtExec) | (w.protect ? 0 : kProtWrite);
  // After DAT, the real address is prefixed [Principles of Operation, "Address Types"].
  auto frame_of = [&](uint64_t real) { return RealStorage::real_frame(real_.absolute(real) / kPageSize); };
  // An EDAT-1 1 MB frame is one large segment, so that it takes one entry of the modelled
  // 1 MB TLB as `run`'s large pages do; an EDAT-2 2 GB frame is held as the 1 MB
  // segments of it that are referenced, each such an entry (the model's TLBs have no
  // 2 GB entries). A segment reaching past storage is held as 4 KB pages.
  const uint64_t segment_real = w.real & ~(kSegmentSize - 1);
  if (w.frame_size >= kSegmentSize && segment_real + kSegmentSize <= real_.size()) {
    std::array<uint64_t, kPagesPerSegment> frames;
    for (unsigned k = 0; k < kPagesPerSegment; ++k) frames[k] = frame_of(segment_real + k * kPageSize);
    v.space->map_shared_segment(address, frames, prot);
  } else {
    v.space->map_shared(address & ~kPageMask, frame_of(w.real & ~kPageMask), prot);
  }
  v.pages_by_entry.emplace(w.entry, address / kPageSize);
  return true;
}

bool GuestDat::take_exception(uint16_t& code, uint64_t& teid) {
  if (!has_exception_) return false;
  has_exception_ = false;
  code = exception_code_, teid = exception_teid_;
  return true;
}

void GuestDat::purge_entry(uint64_t entry) {
  for (auto& [asce, v] : views_) {
    auto [from, to] = v.pages_by_entry.equal_range(entry);
    for (auto it = from; it != to; ++it) v.space->unmap(it->second * kPageSize, kPageSize);
    v.pages_by_entry.erase(from, to);
  }
}

void GuestDat::purge_all() {
  for (auto& [asce, v] : views_) {
    for (const auto& [entry, vpage] : v.pages_by_entry) v.space->unmap(vpage * kPageSize, kPageSize);
    v.pages_by_entry.clear();
  }
}

// Absolute storage through the real view: prefixing exchanges the low 8 KB and the
// prefix area, so the real address of an absolute one is that exchange again.
bool GuestDat::read64(uint64_t absolute, uint64_t& value) {
  if (absolute + 8 > real_.size() || absolute + 8 < absolute) return false;
  uint8_t b[8];
  if (!real_.space().read_bytes(real_.absolute(absolute), b, 8)) return false;
  value = Cpu::load_be<uint64_t>(b);
  return true;
}

bool GuestDat::write64(uint64_t absolute, uint64_t value) {
  if (absolute + 8 > real_.size() || absolute + 8 < absolute) return false;
  uint8_t b[8];
  Cpu::store_be<uint64_t>(b, value);
  return real_.space().write_bytes(real_.absolute(absolute), b, 8);
}

}  // namespace emu
