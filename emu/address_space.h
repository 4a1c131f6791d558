// A guest virtual address space of 4 KB pages over sparse host memory: only
// touched pages cost host storage. Each page also carries the decode cache of the
// instructions fetched from it, so shared program pages are decoded once.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>

#include "emu/isa/insn.h"

namespace emu {

enum Prot : uint8_t { kProtRead = 1, kProtWrite = 2, kProtExec = 4 };

constexpr uint64_t kPageSize = 4096;
constexpr uint64_t kPageMask = kPageSize - 1;

// Decoded instructions of one page, one slot per halfword.
struct DecodedPage {
  Insn slot[kPageSize / 2];
};

struct Page {
  std::unique_ptr<uint8_t[]> data;  // kPageSize bytes, guest (big-endian) byte order
  uint8_t prot = 0;
  std::unique_ptr<DecodedPage> code;  // set once an instruction was fetched from the page
};

class AddressSpace {
 public:
  // Maps every page touching [addr, addr+len) with `prot`, zero-filled; pages
  // already mapped keep their contents and get `prot`.
  void map(uint64_t addr, uint64_t len, uint8_t prot);
  bool is_mapped(uint64_t addr) const { return pages_.count(addr / kPageSize) != 0; }
  Page* page(uint64_t vpage) {
    auto it = index_.find(vpage);
    return it == index_.end() ? nullptr : it->second;
  }
  // Host-side access for loaders and services; false if a page is not mapped.
  bool write_bytes(uint64_t addr, const void* src, uint64_t len);
  bool read_bytes(uint64_t addr, void* dst, uint64_t len);

  // Pages in address order (deterministic iteration for reports).
  const std::map<uint64_t, Page>& pages() const { return pages_; }
  uint64_t mapped_pages() const { return pages_.size(); }

 private:
  std::map<uint64_t, Page> pages_;               // owns the pages, in address order
  std::unordered_map<uint64_t, Page*> index_;    // lookup only; never iterated
};

}  // namespace emu
