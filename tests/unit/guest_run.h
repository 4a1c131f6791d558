// Runs a built guest program (build/guest/NAME.elf) in exec mode and captures what
// it wrote, for tests of the loader, the Linux personality and the profiler.
#pragma once
#include <cstdio>
#include <string>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "os/linux_process.h"

namespace test {

inline std::string guest_path(const std::string& name) { return std::string(TPFEMU_GUEST_DIR) + "/" + name + ".elf"; }

struct GuestRun {
  emu::ElfImage image;
  emu::AddressSpace space;
  emu::Cpu cpu{space};
  emu::RunResult result{};
  std::string out;
  bool exited = false;
  int exit_code = -1;

  explicit GuestRun(const std::string& name, uint64_t limit = 2'000'000'000) : image(emu::read_elf_file(guest_path(name))) {
    std::FILE* f = std::tmpfile();
    os::LinuxProcess proc(space, image, {name}, f, f);
    proc.start(cpu);
    result = cpu.run(limit);
    exited = proc.exited();
    exit_code = proc.exit_code();
    std::fflush(f);
    std::rewind(f);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
  }
};

}  // namespace test
