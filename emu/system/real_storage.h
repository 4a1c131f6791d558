// Real storage as one I-stream sees it with DAT off [Principles of Operation, chapter 3,
// "Prefixing"]: real addresses 0-8191 are the 8 KB at the I-stream's prefix, the 8 KB at
// the prefix are absolute 0-8191, and every other real address is the same absolute
// address. Each I-stream has its own prefix, so its own view: an AddressSpace whose pages
// map the frames of absolute storage (never copies), made at the first reference to each
// page (a page fault the view resolves itself, or a host access), so a large storage
// costs only the pages a program touches.
#pragma once
#include <cstdint>

#include "emu/address_space.h"
#include "emu/cpu.h"

namespace emu {

class RealStorage final : public PageFaultHandler {
 public:
  // `size`: the bytes of absolute storage the configuration has (a whole number of
  // pages); `storage` holds them one frame up (real_frame).
  RealStorage(Storage& storage, uint64_t size);
  AddressSpace& space() { return space_; }
  uint64_t size() const { return size_; }

  uint32_t prefix() const { return prefix_; }
  // SET PREFIX's change of view: the low 8 KB and the prefix area's pages are mapped
  // again at their next reference (the old pages are purged from every TLB). The caller
  // checked that `prefix` is a multiple of 8 KB inside storage.
  void set_prefix(uint32_t prefix);

  // The absolute address of real address `real` (prefixing applied).
  uint64_t absolute(uint64_t real) const;
  // Maps the page holding real address `real`; false when it is beyond storage.
  bool map(uint64_t real);
  // PageFaultHandler: a page not referenced yet is mapped and the instruction runs again.
  Action page_fault(Cpu& cpu, uint64_t address) override;

  // The frame of Storage that holds absolute page `absolute_page`: one up, because DAT's
  // tables (address_space.h) take frame number 0 for "not present".
  static uint64_t real_frame(uint64_t absolute_page) { return absolute_page + 1; }
  // Storage to configure for `size` bytes of absolute storage: one 1 MB frame more.
  static uint64_t storage_bytes(uint64_t size) { return size + kSegmentSize; }

 private:
  void unmap_low_and_prefix();
  uint64_t size_;
  uint32_t prefix_ = 0;
  AddressSpace space_;
};

}  // namespace emu
