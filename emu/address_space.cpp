#include "emu/address_space.h"

#include <algorithm>
#include <cstring>

namespace emu {

void AddressSpace::map(uint64_t addr, uint64_t len, uint8_t prot) {
  if (len == 0) return;
  uint64_t first = addr / kPageSize, last = (addr + len - 1) / kPageSize;
  for (uint64_t vp = first; vp <= last; ++vp) {
    Page& p = pages_[vp];
    if (!p.data) {
      index_[vp] = &p;
      p.data = std::make_unique<uint8_t[]>(kPageSize);
      std::memset(p.data.get(), 0, kPageSize);
    }
    p.prot = prot;
  }
}

bool AddressSpace::write_bytes(uint64_t addr, const void* src, uint64_t len) {
  auto* s = static_cast<const uint8_t*>(src);
  while (len) {
    Page* p = page(addr / kPageSize);
    if (!p) return false;
    uint64_t off = addr & kPageMask, n = std::min(len, kPageSize - off);
    std::memcpy(p->data.get() + off, s, n);
    // Host writes into text forget its decoded instructions; the page object stays,
    // because a CPU may hold a pointer to it.
    if (p->code) *p->code = DecodedPage{};
    addr += n, s += n, len -= n;
  }
  return true;
}

bool AddressSpace::read_bytes(uint64_t addr, void* dst, uint64_t len) {
  auto* d = static_cast<uint8_t*>(dst);
  while (len) {
    Page* p = page(addr / kPageSize);
    if (!p) return false;
    uint64_t off = addr & kPageMask, n = std::min(len, kPageSize - off);
    std::memcpy(d, p->data.get() + off, n);
    addr += n, d += n, len -= n;
  }
  return true;
}

}  // namespace emu
