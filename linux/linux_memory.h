// The memory of a Linux process under `tpfemu exec`: the program break and mappings
// (mmap, munmap, mprotect, mremap, madvise, msync) over one address space, with the
// rights DAT enforces, execute rights included (IEP: the address space's execute
// protection is on for a Linux process). Addresses are chosen deterministically: a
// mapping goes to the highest free gap below the stacks that fits it, as Linux places
// them top-down.
//
// Private mappings (anonymous or of a file) are pages the space owns; a file's bytes are
// copied in when it is mapped. Shared mappings (MAP_SHARED, anonymous or of a file) map
// frames a SharedPages holder owns, allocated when the mapping is made; every mapping of
// them (in this process and, after fork_into, in its children) keeps the holder alive, so
// the frames outlive whichever process lets go first. A shared file mapping's frames are
// written back to its file on munmap, on msync and when the LinuxMemory is destroyed
// (process exit, execve); the file's other users (read, write) see the stores only then,
// and two mappings of one file are separate copies until written back.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

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
  // The page holding the signal return trampoline (read and execute, as the kernel's
  // vdso), just above the mmap area.
  static constexpr uint64_t kTrampolinePage = kMmapTop;

  // Turns the space's execute protection on: Linux on z14 and later marks pages without
  // PROT_EXEC with the IEP bit.
  LinuxMemory(emu::AddressSpace& space, uint64_t image_end);
  ~LinuxMemory();  // writes shared file mappings back, lets go of shared frames
  LinuxMemory(const LinuxMemory&) = delete;
  LinuxMemory& operator=(const LinuxMemory&) = delete;
  void set_large_pages(bool on) { large_pages_ = on; }

  // fork: `child` (a new, empty space over the same storage) becomes a copy of this
  // process's memory, and the returned LinuxMemory manages it. Private pages are copied
  // into new frames of the child at once (eager: one 4 KB host copy per page touched so
  // far, pages never touched stay untouched; a 1 MB page gets a 1 MB frame while storage
  // has one), reservations (demand-zero ranges such as a large bss) carry over, the
  // program break and the list of mappings are copied, and shared mappings map the same
  // frames in both. The copy is host work outside the simulated machine: it charges no
  // cycles (the caller may charge the fork what it thinks right). nullptr if storage ran
  // out (the child space then holds part of a copy: destroy it).
  std::unique_ptr<LinuxMemory> fork_into(emu::AddressSpace& child) const;

  // Each returns the value the system call returns (negative: -errno).
  int64_t brk(uint64_t addr);
  // Anonymous memory (MAP_PRIVATE or MAP_SHARED).
  int64_t mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags);
  // A file's mapping from `offset`: host_fd is this mapping's own descriptor of the file
  // (a dup; LinuxMemory closes it, also on failure), `writable` whether it was opened for
  // writing (a shared mapping needs that for PROT_WRITE).
  int64_t mmap_file(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags, int host_fd, bool writable,
                    uint64_t offset);
  int64_t munmap(uint64_t addr, uint64_t len);
  int64_t mprotect(uint64_t addr, uint64_t len, uint64_t prot);
  int64_t mremap(uint64_t old_addr, uint64_t old_len, uint64_t new_len, uint64_t flags, uint64_t new_addr);
  // MADV_DONTNEED: private anonymous pages read as zero at their next touch, private file
  // pages as the file's bytes again, shared pages keep their contents. Other advice
  // changes nothing.
  int64_t madvise(uint64_t addr, uint64_t len, uint64_t advice);
  int64_t msync(uint64_t addr, uint64_t len, uint64_t flags);

  // Whether [addr, addr+len) is mapped with `prot` (all of its rights) in every page:
  // what a system call checks before it touches guest storage for the program.
  bool accessible(uint64_t addr, uint64_t len, uint8_t prot);

  // Where a signal handler returns to when the program gave no SA_RESTORER: an SVC
  // rt_sigreturn on a page of its own, mapped at the first signal (the stack does not
  // execute, so the kernel's old trampoline on the stack would not either).
  uint64_t signal_return();

 private:
  struct SharedPages;
  struct MappedFile;
  struct Mapping {
    uint64_t end = 0;
    std::shared_ptr<SharedPages> shared;  // MAP_SHARED: its frames, from frames[first]
    uint64_t first = 0;
    std::shared_ptr<MappedFile> file;     // a file's mapping, its first byte at `offset`
    uint64_t offset = 0;
    bool plain() const { return !shared && !file; }
  };

  LinuxMemory(emu::AddressSpace& space, const LinuxMemory& parent);
  static uint8_t dat_rights(uint64_t prot);
  bool range_free(uint64_t addr, uint64_t len) const;
  uint64_t find_gap(uint64_t len) const;
  int64_t place(uint64_t addr, uint64_t len, uint64_t flags);  // the address a new mapping gets
  void add(uint64_t addr, Mapping m);       // into the map, merged with plain neighbours
  void forget(uint64_t addr, uint64_t len);  // drop [addr, addr+len) from the map
  int64_t map_shared(uint64_t addr, uint64_t len, uint64_t prot, Mapping& m);
  void fill_from_file(uint64_t addr, uint64_t len, const MappedFile& f, uint64_t offset);
  // Shared file mappings' pages in [addr, addr+len) go to their files.
  void write_back(uint64_t addr, uint64_t len);
  bool write_protected_file(uint64_t addr, uint64_t len) const;

  emu::AddressSpace& space_;
  uint64_t brk_start_, brk_, brk_mapped_;
  bool large_pages_ = false;
  bool trampoline_ = false;
  std::map<uint64_t, Mapping> maps_;  // mmap'd ranges by start
};

}  // namespace linux_user
