#include "linux/linux_memory.h"

#include <algorithm>
#include <vector>

#include "linux/linux_abi.h"

namespace linux_user {
namespace abi = linux_abi;
namespace {

bool page_aligned(uint64_t a) { return (a & emu::kPageMask) == 0; }

}  // namespace

LinuxMemory::LinuxMemory(emu::AddressSpace& space, uint64_t image_end)
    : space_(space), brk_start_(emu::page_up(image_end)), brk_(brk_start_), brk_mapped_(brk_start_) {}

uint8_t LinuxMemory::dat_rights(uint64_t prot) {
  // DAT has no write-only pages: write implies read, as on Linux for s390.
  uint8_t r = 0;
  if (prot & (abi::kProtRead | abi::kProtWrite)) r |= emu::kProtRead;
  if (prot & abi::kProtWrite) r |= emu::kProtWrite;
  if (prot & abi::kProtExec) r |= emu::kProtExec | emu::kProtRead;
  return r;
}

int64_t LinuxMemory::brk(uint64_t addr) {
  if (addr < brk_start_ || addr > brk_start_ + kBrkLimit) return int64_t(brk_);
  if (addr > brk_mapped_) {
    const uint8_t rw = emu::kProtRead | emu::kProtWrite;
    uint64_t end = emu::page_up(addr);
    if (!range_free(brk_mapped_, end - brk_mapped_)) return int64_t(brk_);  // an mmap is in the way
    if (large_pages_) {
      // 4 KB pages up to the first 1 MB boundary, 1 MB pages from there.
      uint64_t seg = (brk_mapped_ + emu::kSegmentSize - 1) & ~(emu::kSegmentSize - 1);
      if (seg > brk_mapped_ && !space_.map(brk_mapped_, std::min(seg, end) - brk_mapped_, rw)) return int64_t(brk_);
      end = std::max(end, (end + emu::kSegmentSize - 1) & ~(emu::kSegmentSize - 1));
      if (end > seg) space_.map_large(seg, end - seg, rw);
    } else if (!space_.map(brk_mapped_, end - brk_mapped_, rw)) {
      return int64_t(brk_);
    }
    brk_mapped_ = end;
  }
  brk_ = addr;
  return int64_t(brk_);
}

bool LinuxMemory::range_free(uint64_t addr, uint64_t len) const {
  auto it = maps_.upper_bound(addr);
  if (it != maps_.begin()) {
    auto prev = std::prev(it);
    if (prev->second > addr) return false;
  }
  return it == maps_.end() || it->first >= addr + len;
}

uint64_t LinuxMemory::find_gap(uint64_t len) const {
  // Top-down: the gap just below each mapping, from the highest.
  const uint64_t floor = brk_start_ + kBrkLimit;
  uint64_t top = kMmapTop;
  for (auto it = maps_.rbegin(); it != maps_.rend(); ++it) {
    if (it->second <= top && top - it->second >= len) return top - len;
    top = std::min(top, it->first);
  }
  return top >= floor + len ? top - len : 0;
}

void LinuxMemory::forget(uint64_t addr, uint64_t len) {
  const uint64_t end = addr + len;
  auto it = maps_.upper_bound(addr);
  if (it != maps_.begin()) --it;
  while (it != maps_.end() && it->first < end) {
    uint64_t s = it->first, e = it->second;
    if (e <= addr) {
      ++it;
      continue;
    }
    it = maps_.erase(it);
    if (s < addr) maps_[s] = addr;
    if (e > end) maps_[end] = e;
  }
}

int64_t LinuxMemory::mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags) {
  if (len == 0 || len > kMaxMapping) return len ? -abi::kEnomem : -abi::kEinval;
  if (!(flags & (abi::kMapPrivate | abi::kMapShared))) return -abi::kEinval;
  len = emu::page_up(len);
  const bool fixed = flags & (abi::kMapFixed | abi::kMapFixedNoreplace);
  if (fixed) {
    if (!page_aligned(addr) || addr + len < addr || addr + len > space_.limit()) return -abi::kEinval;
    if ((flags & abi::kMapFixedNoreplace) && !range_free(addr, len)) return -abi::kEexist;
    space_.unmap(addr, len);  // MAP_FIXED replaces what was there
    forget(addr, len);
  } else if (addr && page_aligned(addr) && addr + len > addr && addr + len <= kMmapTop &&
             addr >= brk_start_ + kBrkLimit && range_free(addr, len)) {
    // the hint is free: take it
  } else {
    addr = find_gap(len);
    if (!addr) return -abi::kEnomem;
  }
  if (!space_.map(addr, len, dat_rights(prot))) {
    space_.unmap(addr, len);
    return -abi::kEnomem;
  }
  maps_[addr] = addr + len;
  // Adjacent mappings merge, as the kernel's VMAs do (munmap may split them again).
  auto it = maps_.find(addr);
  if (it != maps_.begin()) {
    auto prev = std::prev(it);
    if (prev->second == it->first) prev->second = it->second, maps_.erase(it), it = prev;
  }
  auto next = std::next(it);
  if (next != maps_.end() && next->first == it->second) it->second = next->second, maps_.erase(next);
  return int64_t(addr);
}

int64_t LinuxMemory::munmap(uint64_t addr, uint64_t len) {
  if (!page_aligned(addr) || len == 0 || len > kMaxMapping || addr + len < addr) return -abi::kEinval;
  len = emu::page_up(len);
  forget(addr, len);
  if (addr >= brk_start_ && addr < brk_mapped_) brk_mapped_ = std::max(brk_start_, addr), brk_ = std::min(brk_, brk_mapped_);
  space_.unmap(addr, len);
  return 0;
}

int64_t LinuxMemory::mprotect(uint64_t addr, uint64_t len, uint64_t prot) {
  if (!page_aligned(addr) || addr + len < addr || len > kMaxMapping) return -abi::kEinval;
  if (prot & ~(abi::kProtRead | abi::kProtWrite | abi::kProtExec)) return -abi::kEinval;
  len = emu::page_up(len);
  for (uint64_t p = addr; p < addr + len; p += emu::kPageSize)
    if (!space_.is_mapped(p)) return -abi::kEnomem;
  if (len) space_.map(addr, len, dat_rights(prot));  // every page is mapped: only rights change
  return 0;
}

int64_t LinuxMemory::mremap(uint64_t old_addr, uint64_t old_len, uint64_t new_len, uint64_t flags,
                            uint64_t new_addr) {
  if (!page_aligned(old_addr) || new_len == 0 || new_len > kMaxMapping || (flags & abi::kMremapFixed))
    return -abi::kEinval;
  old_len = emu::page_up(old_len), new_len = emu::page_up(new_len);
  (void)new_addr;  // MREMAP_FIXED is not supported (EINVAL above)
  for (uint64_t p = old_addr; p < old_addr + old_len; p += emu::kPageSize)
    if (!space_.is_mapped(p)) return -abi::kEfault;
  if (new_len <= old_len) {
    if (new_len < old_len) munmap(old_addr + new_len, old_len - new_len);
    return int64_t(old_addr);
  }
  const uint8_t rights = space_.prot_of(old_addr);
  const uint64_t grow = new_len - old_len;
  if (range_free(old_addr + old_len, grow) && !space_.is_mapped(old_addr + old_len) &&
      old_addr + new_len <= kMmapTop) {
    if (!space_.map(old_addr + old_len, grow, rights)) return -abi::kEnomem;
    maps_[old_addr + old_len] = old_addr + new_len;
    // one range with the mapping it extends
    auto it = maps_.find(old_addr + old_len);
    if (it != maps_.begin() && std::prev(it)->second == it->first) std::prev(it)->second = it->second, maps_.erase(it);
    return int64_t(old_addr);
  }
  if (!(flags & abi::kMremapMaymove)) return -abi::kEnomem;
  int64_t to = mmap(0, new_len, abi::kProtRead | abi::kProtWrite, abi::kMapPrivate | abi::kMapAnonymous);
  if (to < 0) return to;
  std::vector<uint8_t> page(emu::kPageSize);
  for (uint64_t off = 0; off < old_len; off += emu::kPageSize) {
    space_.read_bytes(old_addr + off, page.data(), page.size());
    space_.write_bytes(uint64_t(to) + off, page.data(), page.size());
  }
  space_.map(uint64_t(to), new_len, rights);
  munmap(old_addr, old_len);
  return to;
}

bool LinuxMemory::accessible(uint64_t addr, uint64_t len, uint8_t prot) {
  if (len == 0) return true;
  if (addr + len < addr) return false;
  for (uint64_t p = emu::page_down(addr); p < addr + len; p += emu::kPageSize)
    if ((space_.prot_of(p) & prot) != prot || !space_.is_mapped(p)) return false;
  return true;
}

std::unique_ptr<LinuxMemory> LinuxMemory::fork_into(emu::AddressSpace& child) const {
  auto m = std::make_unique<LinuxMemory>(child, 0);
  m->brk_start_ = brk_start_, m->brk_ = brk_, m->brk_mapped_ = brk_mapped_;
  m->large_pages_ = large_pages_;
  m->maps_ = maps_;
  std::vector<uint8_t> page(emu::kPageSize);
  bool ok = true;
  space_.for_each_page([&](uint64_t va, emu::Frame&) {
    if (!ok) return;
    const uint8_t prot = space_.prot_of(va);
    ok = child.map(va, emu::kPageSize, prot) && space_.read_bytes(va, page.data(), page.size()) &&
         child.write_bytes(va, page.data(), page.size());
  });
  return ok ? std::move(m) : nullptr;
}

}  // namespace linux_user
