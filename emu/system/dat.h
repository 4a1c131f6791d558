// Dynamic address translation through the program's own tables [Principles of
// Operation, chapter 3, "Dynamic Address Translation"]: an address-space-control element
// (ASCE: CR1 primary, CR7 secondary, CR13 home) designates a region-first, -second,
// -third or segment table in storage; DAT walks them down to a page-table entry (or, with
// EDAT-1, a segment-table entry's 1 MB frame; with EDAT-2, a region-third-table entry's
// 2 GB frame) and gives the real address, or the exception that stops it.
//
// The modelled machine keeps what a walk found as an AddressSpace per ASCE and per
// I-stream (its "view"): each page is mapped at its first reference (a page fault this
// class resolves by walking), to the absolute frame the real address prefixes to, so the
// CPU's micro-TLB and the modelled TLBs (tagged by the view, as z's are by the ASCE)
// serve guest DAT exactly as they serve the control program's spaces. A view holds
// what the TLB may hold: IPTE, IDTE, PTLB and CSP(G) purge it. A page whose leaf entry
// has the IEP bit is mapped without the execute right, and the view's execute protection
// follows CR0's IEP control, so the CPU's code fetch (Cpu::frame_for_fetch, where the
// interpreter and the block compiler enter a code page) refuses it.
#pragma once
#include <cstdint>
#include <map>
#include <memory>

#include "emu/address_space.h"
#include "emu/cpu.h"
#include "emu/program_check.h"
#include "emu/system/real_storage.h"

namespace emu {

// Program-interruption codes of DAT [Principles of Operation, "Program-Interruption
// Conditions"]; the two the problem-state core already raises are its Pic's.
namespace dat_code {
constexpr uint16_t kAddressing = uint16_t(Pic::Addressing);
constexpr uint16_t kSegmentTranslation = 0x0010;
constexpr uint16_t kPageTranslation = uint16_t(Pic::PageTranslation);
constexpr uint16_t kTranslationSpecification = 0x0012;
constexpr uint16_t kAsceType = 0x0038;
constexpr uint16_t kRegionFirstTranslation = 0x0039;
constexpr uint16_t kRegionSecondTranslation = 0x003A;
constexpr uint16_t kRegionThirdTranslation = 0x003B;
}  // namespace dat_code

// What DAT controls besides the ASCE: CR0 bit 40 (EDAT-1; with EDAT-2 installed it also
// enables the 2 GB frames of region-third entries), and CR0 bit 43 (instruction-execution
// protection: a leaf entry's IEP bit forbids instruction fetches from its frame). The
// walk reports the IEP bit whatever the control; the control applies where an
// instruction is fetched (the view's execute protection), so a change of CR0 is seen
// by the next fetch without a purge.
struct DatControls {
  bool edat1 = false;
  bool edat2 = false;
  bool iep = false;
};

// One translation's result.
struct DatWalk {
  uint16_t code = 0;          // 0: translated; else the exception's code
  uint64_t real = 0;          // the real address (code 0)
  bool protect = false;       // DAT protection: a store is a protection exception
  bool no_execute = false;    // the leaf entry's IEP bit: with CR0's IEP control, no instruction fetch
  uint64_t entry = 0;         // absolute address of the last table entry used (or found invalid)
  uint64_t frame_size = 4096; // 4 KB, 1 MB (EDAT-1) or 2 GB (EDAT-2)
  bool invalid_entry = false; // the exception is an entry's invalid bit (not a length or type)
};

// Reads the doubleword at an absolute address; false when it is beyond storage.
class AbsoluteReader {
 public:
  virtual ~AbsoluteReader() = default;
  virtual bool read64(uint64_t absolute, uint64_t& value) = 0;
};

// The walk itself [Principles of Operation, "Translation Process"]: pure, no state.
DatWalk dat_walk(uint64_t asce, uint64_t vaddr, const DatControls& controls, AbsoluteReader& storage);

// Which ASCE a translation used, for the translation-exception identification's bits
// 62-63 [Principles of Operation, "Translation-Exception Identification"].
enum class AsceId : uint8_t { Primary = 0, AccessRegister = 1, Secondary = 2, Home = 3 };

class GuestDat final : public PageFaultHandler, private AbsoluteReader {
 public:
  explicit GuestDat(RealStorage& real) : real_(real) {}

  // The views of `asce`, which operands translate through, and of `code_asce`, which
  // instructions translate through (made at their first use; one view when the two are
  // the same ASCE); the CPU runs in them until the next select.
  void select(uint64_t asce, AsceId id, uint64_t code_asce, AsceId code_id, const DatControls& controls);
  AddressSpace& data_space() { return *selected_->space; }
  AddressSpace& code_space() { return *code_->space; }
  // PageFaultHandler: a page of the selected view (the code view for an instruction
  // fetch) not mapped yet is translated and mapped (Retry), or the translation's
  // exception is kept for take_exception (Fail).
  Action page_fault(Cpu& cpu, uint64_t address) override;
  // The exception of the last failed translation: its code and the translation-exception
  // identification (0 when the PoO stores none for it). False if there is none.
  bool take_exception(uint16_t& code, uint64_t& teid);
  // Translates and maps the page of `address` in the selected view now, for an operand
  // in a space the CPU does not run in (MVCP, MVCS: the secondary while it runs in the
  // primary). False when the translation failed: the exception is kept, and the page
  // fault the instruction then raises at `address` reports it without walking again
  // (by then the CPU is back in its own space, whose tables may map the address).
  bool map_now(uint64_t address, bool store);

  // Walks `asce`'s tables for LRA, LRAG and TPROT (no view changes).
  DatWalk walk(uint64_t asce, uint64_t vaddr, const DatControls& controls) {
    return dat_walk(asce, vaddr, controls, *this);
  }
  // The table entry at absolute address `entry` became invalid (IPTE): the pages any
  // view translated through it are purged (from every I-stream's TLBs).
  void purge_entry(uint64_t entry);
  // Every view (PTLB, IDTE, CSP(G), a prefix change): the TLBs lose their entries.
  void purge_all();

  bool read64(uint64_t absolute, uint64_t& value) override;
  bool write64(uint64_t absolute, uint64_t value);

 private:
  struct View {
    std::unique_ptr<AddressSpace> space;
    // The pages mapped through each table entry (absolute address), for purge_entry.
    std::multimap<uint64_t, uint64_t> pages_by_entry;
    uint64_t asce = 0;
  };
  // Walks view `v`'s tables for `address` and maps its page (with an EDAT frame, its
  // whole 1 MB segment); false with the exception kept (take_exception), its TEID
  // naming ASCE `id`.
  bool map_page(View& v, AsceId id, uint64_t address, bool store);
  View& view(uint64_t asce);
  RealStorage& real_;
  std::map<uint64_t, View> views_;  // by ASCE
  View* selected_ = nullptr;  // operands'
  View* code_ = nullptr;      // instructions': selected_ but in secondary-space mode
  // The ids the TEID names (a fetch's primary, an operand's secondary, in secondary-space
  // mode, even when CR1 and CR7 hold the same ASCE: one view).
  AsceId selected_id_ = AsceId::Primary, code_id_ = AsceId::Primary;
  DatControls controls_;
  bool has_exception_ = false;
  bool held_ = false;  // map_now failed: the next page fault at held_page_ is its exception
  uint64_t held_page_ = 0;
  uint16_t exception_code_ = 0;
  uint64_t exception_teid_ = 0;
};

}  // namespace emu
