// The memory of a Linux process under `tpfemu exec`: the program break and anonymous
// mappings (mmap, munmap, mprotect, mremap) over one address space, with the rights
// DAT enforces. Addresses are chosen deterministically: a mapping goes to the highest
// free gap below the stacks that fits it, as Linux places them top-down.
#pragma once
#include <cstdint>
#include <map>
#include <memory>

#include "emu/address_space.h"

namespace linux_user {

class LinuxMemory {
 public:
  static constexpr uint64_t kStackTop = 0x000003FFFFFFF000ull;
  static constexpr uint64_t kStackSize = 8ull << 20;
  static constexpr uint64_t kBrkLimit = 4ull << 30;       // most the heap may grow
  static constexpr uint64_t kMmapTop = 0x000003FF00000000ull;  // below 64 I-streams' stacks
  // One mmap, mremap or munmap at most: bounds the host's work and memory for the
  // page tables of a call (Linux would take more; glibc's largest is 64 MB).
  static constexpr uint64_t kMaxMapping = 16ull << 30;

  LinuxMemory(emu::AddressSpace& space, uint64_t image_end);
  void set_large_pages(bool on) { large_pages_ = on; }

  // Each returns the value the system call returns (negative: -errno).
  int64_t brk(uint64_t addr);
  // Anonymous memory only (a file's contents are copied in by the caller).
  int64_t mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags);
  int64_t munmap(uint64_t addr, uint64_t len);
  int64_t mprotect(uint64_t addr, uint64_t len, uint64_t prot);
  int64_t mremap(uint64_t old_addr, uint64_t old_len, uint64_t new_len, uint64_t flags, uint64_t new_addr);

  // Whether [addr, addr+len) is mapped with `prot` (all of its rights) in every page:
  // what a system call checks before it touches guest storage for the program.
  bool accessible(uint64_t addr, uint64_t len, uint8_t prot);

  // fork: `child` (a new, empty space) becomes a copy of this memory, page by page;
  // nullptr when storage has no frames for the copy.
  std::unique_ptr<LinuxMemory> fork_into(emu::AddressSpace& child) const;

 private:
  static uint8_t dat_rights(uint64_t prot);
  bool range_free(uint64_t addr, uint64_t len) const;
  uint64_t find_gap(uint64_t len) const;
  void forget(uint64_t addr, uint64_t len);  // drop [addr, addr+len) from the map

  emu::AddressSpace& space_;
  uint64_t brk_start_, brk_, brk_mapped_;
  bool large_pages_ = false;
  std::map<uint64_t, uint64_t> maps_;  // mmap'd ranges: start -> end
};

}  // namespace linux_user
