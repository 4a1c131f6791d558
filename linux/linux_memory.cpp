#include "linux/linux_memory.h"

#include <algorithm>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "linux/linux_abi.h"

namespace linux_user {
namespace abi = linux_abi;
namespace {

bool page_aligned(uint64_t a) { return (a & emu::kPageMask) == 0; }

}  // namespace

// Frames of shared mappings, allocated together and returned when the last mapping
// of any process lets go of them.
struct LinuxMemory::SharedPages {
  emu::Storage& storage;
  std::vector<uint64_t> frames;
  explicit SharedPages(emu::Storage& s) : storage(s) {}
  ~SharedPages() {
    for (uint64_t f : frames) storage.free_4k(f);
  }
  bool allocate(uint64_t pages) {
    for (uint64_t k = 0; k < pages; ++k) {
      auto f = storage.allocate_4k();
      if (!f) return false;
      frames.push_back(*f);
      // A frame never touched is zero when first used; a reused one is cleared.
      if (storage.is_touched(*f)) {
        emu::Frame& fr = storage.frame(*f);
        storage.clear(fr);
        if (fr.code) *fr.code = emu::DecodedPage{};
      }
    }
    return true;
  }
};

// The mapping's own descriptor of its file: it stays valid after the program closes its fd.
struct LinuxMemory::MappedFile {
  int fd;
  bool writable;
  MappedFile(int f, bool w) : fd(f), writable(w) {}
  ~MappedFile() { ::close(fd); }
};

LinuxMemory::LinuxMemory(emu::AddressSpace& space, uint64_t image_end)
    : space_(space), brk_start_(emu::page_up(image_end)), brk_(brk_start_), brk_mapped_(brk_start_) {
  space_.set_execute_protection(true);
}

LinuxMemory::LinuxMemory(emu::AddressSpace& space, const LinuxMemory& parent)
    : space_(space),
      brk_start_(parent.brk_start_),
      brk_(parent.brk_),
      brk_mapped_(parent.brk_mapped_),
      large_pages_(parent.large_pages_),
      trampoline_(parent.trampoline_),
      maps_(parent.maps_) {}

// The space unmaps the shared pages before their holders can free the frames, so that no
// TLB entry outlives a frame's use here.
LinuxMemory::~LinuxMemory() {
  for (const auto& [start, m] : maps_) {
    if (m.shared && m.file) write_back(start, m.end - start);
    if (m.shared) space_.unmap(start, m.end - start);
  }
}

std::unique_ptr<LinuxMemory> LinuxMemory::fork_into(emu::AddressSpace& child) const {
  if (!space_.copy_into(child)) return nullptr;
  return std::unique_ptr<LinuxMemory>(new LinuxMemory(child, *this));
}

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
  if (it != maps_.begin() && std::prev(it)->second.end > addr) return false;
  return it == maps_.end() || it->first >= addr + len;
}

uint64_t LinuxMemory::find_gap(uint64_t len) const {
  // Top-down: the gap just below each mapping, from the highest.
  const uint64_t floor = brk_start_ + kBrkLimit;
  uint64_t top = kMmapTop;
  for (auto it = maps_.rbegin(); it != maps_.rend(); ++it) {
    if (it->second.end <= top && top - it->second.end >= len) return top - len;
    top = std::min(top, it->first);
  }
  return top >= floor + len ? top - len : 0;
}

void LinuxMemory::forget(uint64_t addr, uint64_t len) {
  const uint64_t end = addr + len;
  auto it = maps_.upper_bound(addr);
  if (it != maps_.begin()) --it;
  while (it != maps_.end() && it->first < end) {
    const uint64_t s = it->first;
    Mapping m = it->second;
    if (m.end <= addr) {
      ++it;
      continue;
    }
    it = maps_.erase(it);
    if (s < addr) {
      Mapping left = m;
      left.end = addr;
      maps_[s] = left;
    }
    if (m.end > end) {  // the right part starts further into its frames and file
      Mapping right = m;
      right.first += (end - s) / emu::kPageSize, right.offset += end - s;
      it = maps_.emplace(end, right).first;
      ++it;
    }
  }
}

void LinuxMemory::add(uint64_t addr, Mapping m) {
  // Adjacent anonymous private mappings merge, as the kernel's VMAs do (munmap may split
  // them again); shared and file mappings keep their own entries.
  auto it = maps_.emplace(addr, std::move(m)).first;
  if (!it->second.plain()) return;
  if (it != maps_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end == it->first && prev->second.plain())
      prev->second.end = it->second.end, maps_.erase(it), it = prev;
  }
  auto next = std::next(it);
  if (next != maps_.end() && next->first == it->second.end && next->second.plain())
    it->second.end = next->second.end, maps_.erase(next);
}

int64_t LinuxMemory::place(uint64_t addr, uint64_t len, uint64_t flags) {
  if (len == 0 || len > kMaxMapping) return len ? -abi::kEnomem : -abi::kEinval;
  const bool fixed = flags & (abi::kMapFixed | abi::kMapFixedNoreplace);
  if (fixed) {
    if (!page_aligned(addr) || addr + len < addr || addr + len > space_.limit()) return -abi::kEinval;
    // MAP_FIXED_NOREPLACE fails on anything there: a mapping, the heap, the image, a stack.
    if (flags & abi::kMapFixedNoreplace) {
      if (!range_free(addr, len)) return -abi::kEexist;
      for (uint64_t p = addr; p < addr + len; p += emu::kPageSize)
        if (space_.is_mapped(p)) return -abi::kEexist;
    }
    munmap(addr, len);  // MAP_FIXED replaces what was there (shared files written back first)
    return int64_t(addr);
  }
  if (addr && page_aligned(addr) && addr + len > addr && addr + len <= kMmapTop && addr >= brk_start_ + kBrkLimit &&
      range_free(addr, len))
    return int64_t(addr);  // the hint is free: take it
  addr = find_gap(len);
  return addr ? int64_t(addr) : -abi::kEnomem;
}

int64_t LinuxMemory::mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags) {
  if (!(flags & (abi::kMapPrivate | abi::kMapShared))) return -abi::kEinval;
  len = emu::page_up(len);
  const int64_t at = place(addr, len, flags);
  if (at < 0) return at;
  Mapping m;
  m.end = uint64_t(at) + len;
  if (flags & abi::kMapShared) return map_shared(uint64_t(at), len, prot, m);
  if (!space_.map(uint64_t(at), len, dat_rights(prot))) {
    space_.unmap(uint64_t(at), len);
    return -abi::kEnomem;
  }
  add(uint64_t(at), m);
  return at;
}

int64_t LinuxMemory::map_shared(uint64_t addr, uint64_t len, uint64_t prot, Mapping& m) {
  m.shared = std::make_shared<SharedPages>(space_.storage());
  if (!m.shared->allocate(len / emu::kPageSize)) return -abi::kEnomem;
  for (uint64_t k = 0; k < m.shared->frames.size(); ++k)
    space_.map_shared(addr + k * emu::kPageSize, m.shared->frames[k], dat_rights(prot));
  if (m.file) fill_from_file(addr, len, *m.file, m.offset);
  add(addr, m);
  return int64_t(addr);
}

int64_t LinuxMemory::mmap_file(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags, int host_fd,
                               bool writable, uint64_t offset) {
  Mapping m;
  m.file = std::make_shared<MappedFile>(host_fd, writable);
  m.offset = offset;
  if (!page_aligned(offset)) return -abi::kEinval;
  const bool shared = flags & abi::kMapShared;
  if (!(flags & (abi::kMapPrivate | abi::kMapShared))) return -abi::kEinval;
  if (shared && (prot & abi::kProtWrite) && !writable) return -abi::kEacces;
  len = emu::page_up(len);
  const int64_t at = place(addr, len, flags);
  if (at < 0) return at;
  m.end = uint64_t(at) + len;
  if (shared) return map_shared(uint64_t(at), len, prot, m);
  if (!space_.map(uint64_t(at), len, dat_rights(prot))) {
    space_.unmap(uint64_t(at), len);
    return -abi::kEnomem;
  }
  fill_from_file(uint64_t(at), len, *m.file, m.offset);
  add(uint64_t(at), m);
  return at;
}

// The file's bytes from `offset` into [addr, addr+len) (beyond the file's end: zeros).
void LinuxMemory::fill_from_file(uint64_t addr, uint64_t len, const MappedFile& f, uint64_t offset) {
  std::vector<uint8_t> buf(emu::kPageSize);
  for (uint64_t off = 0; off < len; off += emu::kPageSize) {
    std::fill(buf.begin(), buf.end(), 0);
    if (::pread(f.fd, buf.data(), buf.size(), off_t(offset + off)) < 0) std::fill(buf.begin(), buf.end(), 0);
    space_.write_bytes(addr + off, buf.data(), buf.size());
  }
}

void LinuxMemory::write_back(uint64_t addr, uint64_t len) {
  const uint64_t end = addr + len;
  auto it = maps_.upper_bound(addr);
  if (it != maps_.begin()) --it;
  for (; it != maps_.end() && it->first < end; ++it) {
    const Mapping& m = it->second;
    if (!m.shared || !m.file || m.end <= addr) continue;
    struct stat st;
    if (::fstat(m.file->fd, &st) != 0) continue;
    const uint64_t size = uint64_t(st.st_size);
    for (uint64_t p = std::max(addr, it->first); p < std::min(end, m.end); p += emu::kPageSize) {
      const uint64_t off = m.offset + (p - it->first);
      if (off >= size) break;  // stores beyond the file's end stay in memory, as Linux keeps them
      const uint64_t frame = m.shared->frames[m.first + (p - it->first) / emu::kPageSize];
      const uint64_t n = std::min<uint64_t>(emu::kPageSize, size - off);
      if (::pwrite(m.file->fd, space_.storage().frame(frame).data.get(), n, off_t(off)) < 0) break;
    }
  }
}

int64_t LinuxMemory::munmap(uint64_t addr, uint64_t len) {
  if (!page_aligned(addr) || len == 0 || len > kMaxMapping || addr + len < addr) return -abi::kEinval;
  len = emu::page_up(len);
  write_back(addr, len);
  // The space lets go of the pages before the mapping list of the holders of shared frames.
  if (addr >= brk_start_ && addr < brk_mapped_) brk_mapped_ = std::max(brk_start_, addr), brk_ = std::min(brk_, brk_mapped_);
  space_.unmap(addr, len);
  forget(addr, len);
  return 0;
}

bool LinuxMemory::write_protected_file(uint64_t addr, uint64_t len) const {
  auto it = maps_.upper_bound(addr);
  if (it != maps_.begin()) --it;
  for (; it != maps_.end() && it->first < addr + len; ++it)
    if (it->second.end > addr && it->second.shared && it->second.file && !it->second.file->writable) return true;
  return false;
}

int64_t LinuxMemory::mprotect(uint64_t addr, uint64_t len, uint64_t prot) {
  if (!page_aligned(addr) || addr + len < addr || len > kMaxMapping) return -abi::kEinval;
  if (prot & ~(abi::kProtRead | abi::kProtWrite | abi::kProtExec)) return -abi::kEinval;
  len = emu::page_up(len);
  for (uint64_t p = addr; p < addr + len; p += emu::kPageSize)
    if (!space_.is_mapped(p)) return -abi::kEnomem;
  if ((prot & abi::kProtWrite) && write_protected_file(addr, len)) return -abi::kEacces;
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
  // Growing copies pages into new private memory: a shared or file mapping would lose
  // what makes it one.
  auto at = maps_.upper_bound(old_addr);
  if (at != maps_.begin() && std::prev(at)->second.end > old_addr && !std::prev(at)->second.plain()) return -abi::kEinval;
  const uint8_t rights = space_.prot_of(old_addr);
  const uint64_t grow = new_len - old_len;
  if (range_free(old_addr + old_len, grow) && !space_.is_mapped(old_addr + old_len) &&
      old_addr + new_len <= kMmapTop) {
    if (!space_.map(old_addr + old_len, grow, rights)) return -abi::kEnomem;
    Mapping m;
    m.end = old_addr + new_len;
    add(old_addr + old_len, m);  // one range with the mapping it extends
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

namespace {
// The advice Linux knows (MADV_NORMAL to MADV_COLLAPSE, less the numbers it leaves out).
bool known_advice(uint64_t advice) {
  return advice <= 25 && advice != 5 && advice != 6 && advice != 7;
}
}  // namespace

int64_t LinuxMemory::madvise(uint64_t addr, uint64_t len, uint64_t advice) {
  if (!page_aligned(addr) || !known_advice(advice)) return -abi::kEinval;
  if (len == 0) return 0;
  len = emu::page_up(len);
  if (addr + len < addr || len > kMaxMapping) return -abi::kEinval;
  if (advice != abi::kMadvDontneed && advice != abi::kMadvDontneedLocked) return 0;
  space_.discard(addr, len);  // owned pages: demand-zero again; shared frames stay
  auto it = maps_.upper_bound(addr);
  if (it != maps_.begin()) --it;
  for (; it != maps_.end() && it->first < addr + len; ++it) {
    const Mapping& m = it->second;
    if (m.shared || !m.file || m.end <= addr) continue;
    const uint64_t from = std::max(addr, it->first), to = std::min(addr + len, m.end);
    fill_from_file(from, to - from, *m.file, m.offset + (from - it->first));  // a private file page reads the file again
  }
  return 0;
}

int64_t LinuxMemory::msync(uint64_t addr, uint64_t len, uint64_t flags) {
  if (!page_aligned(addr) || (flags & ~(abi::kMsAsync | abi::kMsInvalidate | abi::kMsSync)) ||
      ((flags & abi::kMsAsync) && (flags & abi::kMsSync)))
    return -abi::kEinval;
  len = emu::page_up(len);
  if (addr + len < addr) return -abi::kEnomem;
  for (uint64_t p = addr; p < addr + len; p += emu::kPageSize)
    if (!space_.is_mapped(p)) return -abi::kEnomem;
  write_back(addr, len);  // MS_ASYNC too: at once is as good as later
  return 0;
}

uint64_t LinuxMemory::signal_return() {
  if (!trampoline_) {
    // SVC 173 (rt_sigreturn), on a page of its own that reads and executes.
    const uint8_t svc[2] = {0x0A, 173};
    space_.map(kTrampolinePage, emu::kPageSize, emu::kProtRead | emu::kProtExec);
    space_.write_bytes(kTrampolinePage, svc, sizeof svc);
    trampoline_ = true;
  }
  return kTrampolinePage;
}

bool LinuxMemory::accessible(uint64_t addr, uint64_t len, uint8_t prot) {
  if (len == 0) return true;
  if (addr + len < addr) return false;
  for (uint64_t p = emu::page_down(addr); p < addr + len; p += emu::kPageSize)
    if ((space_.prot_of(p) & prot) != prot || !space_.is_mapped(p)) return false;
  return true;
}

}  // namespace linux_user
