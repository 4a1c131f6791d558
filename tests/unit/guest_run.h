// Runs a built guest program (build/guest/NAME.elf) in exec mode and captures what
// it wrote, for tests of the loader, the Linux personality and the profiler.
#pragma once
#include <cstdio>
#include <string>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "linux/linux_kernel.h"

namespace test {

inline std::string guest_path(const std::string& name) { return std::string(TPFEMU_GUEST_DIR) + "/" + name + ".elf"; }

// One guest program on a machine of `istreams` I-streams, with the full cache and
// TLB model unless `timing` is false.
struct GuestRun {
  emu::ElfImage image;
  emu::MachineConfig config;
  std::unique_ptr<emu::Machine> machine;
  std::unique_ptr<linux_user::LinuxKernel> kernel;  // after the machine: it goes first
  emu::MachineRunResult result{};
  std::string out;
  std::string err;  // standard error, when Options::separate_err (else it is in `out`)
  bool exited = false;
  int exit_code = -1;

  struct Options {
    uint64_t limit = 2'000'000'000;
    unsigned istreams = 1;
    bool timing = false;
    bool large_pages = false;
    std::vector<std::string> args;
    emu::MachineConfig config = emu::default_machine_config();
    std::vector<std::string> env;  // the guest's environment
    std::string root;              // --root
    uint64_t seed = 0;             // --seed
    bool separate_err = false;
    bool all_istreams_start = true;  // the machine tests' programs run on every I-stream
  };

  explicit GuestRun(const std::string& name, uint64_t limit = 2'000'000'000)
      : GuestRun(name, with_limit(limit)) {}
  static Options with_limit(uint64_t limit) {
    Options o;
    o.limit = limit;
    return o;
  }
  GuestRun(const std::string& name, Options o) : image(emu::read_elf_file(guest_path(name))), config(o.config) {
    config.istreams = o.istreams;
    machine = std::make_unique<emu::Machine>(config, o.timing);
    std::FILE* f = std::tmpfile();
    std::FILE* e = o.separate_err ? std::tmpfile() : f;
    std::vector<std::string> argv{name};
    argv.insert(argv.end(), o.args.begin(), o.args.end());
    kernel = std::make_unique<linux_user::LinuxKernel>(*machine, image, argv, f, e);
    linux_user::LinuxKernel& proc = *kernel;
    proc.set_large_pages(o.large_pages);
    proc.set_environment(o.env);
    proc.set_seed(o.seed);
    proc.set_every_istream_starts(o.all_istreams_start);
    if (!o.root.empty()) proc.set_root(o.root);
    proc.start();
    result = machine->run(o.limit);
    exited = proc.exited();
    exit_code = proc.exit_code();
    out = slurp(f);
    if (e != f) err = slurp(e);
  }
  static std::string slurp(std::FILE* f) {
    std::string s;
    std::fflush(f);
    std::rewind(f);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    return s;
  }
  emu::Cpu& cpu(unsigned i = 0) { return machine->cpu(i); }
  emu::AddressSpace& space() { return kernel->initial_space(); }
  emu::RunResult& check() { return result.check; }
};

}  // namespace test
