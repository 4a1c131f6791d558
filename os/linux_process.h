// A minimal Linux-compatible personality for `tpfemu exec`: the process image,
// stack and break of one static s390x program, and the system calls it makes by
// SVC, so the same binary runs under qemu-s390x-static for comparison.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "emu/cpu.h"
#include "emu/elf_loader.h"

namespace os {

class LinuxProcess : public emu::SvcHandler {
 public:
  static constexpr uint64_t kStackTop = 0x000003FFFFFFF000ull;
  static constexpr uint64_t kStackSize = 8ull << 20;
  static constexpr uint64_t kBrkLimit = 4ull << 30;  // most the heap may grow
  // tpfemu's own system calls (beyond Linux's numbers): this I-stream's number, and
  // how many there are.
  static constexpr uint64_t kSysIStream = 2016, kSysIStreams = 2017;

  LinuxProcess(emu::AddressSpace& space, const emu::ElfImage& image, std::vector<std::string> argv,
               std::FILE* out = stdout, std::FILE* err = stderr);

  // Loads the image, builds an initial stack per I-stream (argc, argv, envp, auxv as
  // the kernel does) and points every CPU at the entry point. Each I-stream runs the
  // program from the start; tpfemu's own calls tell a program which I-stream it is
  // on (under Linux they fail with ENOSYS and the program is alone). Returns false
  // when storage ran out.
  bool start(const std::vector<emu::Cpu*>& cpus);
  bool start(emu::Cpu& cpu) { return start(std::vector<emu::Cpu*>{&cpu}); }
  void supervisor_call(emu::Cpu& cpu, uint8_t number) override;

  // exit ends the calling I-stream; exit_group ends them all. The process status is
  // that of exit_group, or of I-stream 0's exit.
  bool exited() const { return exited_; }
  // Back the program break with 1 MB pages (pageable large pages) where it can.
  void set_large_pages(bool on) { large_pages_ = on; }
  int exit_code() const { return exit_code_; }
  uint64_t syscalls() const { return syscalls_; }

 private:
  bool build_stack(emu::Cpu& cpu, uint64_t top);
  int64_t sys_write(emu::Cpu& cpu, uint64_t fd, uint64_t buf, uint64_t len);
  int64_t sys_brk(uint64_t addr);

  emu::AddressSpace& space_;
  const emu::ElfImage& image_;
  std::vector<std::string> argv_;
  std::FILE* out_;
  std::FILE* err_;
  uint64_t brk_start_ = 0, brk_ = 0, brk_mapped_ = 0;
  bool exited_ = false;
  bool large_pages_ = false;
  int exit_code_ = 0;
  uint64_t syscalls_ = 0;
  std::vector<uint64_t> warned_;
  std::vector<emu::Cpu*> cpus_;
};

}  // namespace os
