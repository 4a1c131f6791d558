#include "os/exec_command.h"

#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <spdlog/spdlog.h>

#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "emu/profiler.h"
#include "os/linux_process.h"

namespace os {
namespace {

void write_profile(const std::string& path, const emu::AddressSpace& space, const emu::ElfImage& img,
                   const emu::Cpu& cpu) {
  auto rows = emu::collect_profile(space, img.symbols, img.name);
  emu::EtimHeader h;
  h.object = img.name + ".elf";
  h.instructions = cpu.instructions;
  h.cycles = cpu.cycles;
  std::ofstream text(path);
  std::string json_path = path.size() > 4 && path.ends_with(".txt") ? path.substr(0, path.size() - 4) + ".json"
                                                                     : path + ".json";
  std::ofstream json(json_path);
  if (!text || !json) {
    spdlog::error("cannot write the profile to {} / {}", path, json_path);
    return;
  }
  emu::write_etim_text(text, h, rows);
  emu::write_etim_json(json, h, rows);
}

}  // namespace

int run_exec(const ExecOptions& opts) {
  emu::ElfImage img;
  try {
    img = emu::read_elf_file(opts.program);
  } catch (const emu::ElfError& e) {
    fmt::print(stderr, "tpfemu: {}: {}\n", opts.program, e.what());
    return 2;
  }
  emu::AddressSpace space;
  emu::Cpu cpu(space);
  std::vector<std::string> argv{opts.program};
  argv.insert(argv.end(), opts.args.begin(), opts.args.end());
  LinuxProcess proc(space, img, argv);
  proc.start(cpu);

  // Host time only measures the emulator's own speed for --stats; the model never sees it.
  auto t0 = std::chrono::steady_clock::now();
  uint64_t limit = opts.max_instructions ? opts.max_instructions : ~0ull;
  emu::RunResult r = cpu.run(limit);
  double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fflush(stdout);

  int status;
  if (r.reason == emu::StopReason::ProgramCheck) {
    fmt::print(stderr, "{}", emu::format_program_check(cpu, r.check, &img.symbols, img.name + ".elf"));
    status = 128 + emu::linux_signal_for(r.check.interrupt.code);
  } else if (proc.exited()) {
    status = proc.exit_code();
  } else {
    fmt::print(stderr, "tpfemu: stopped after {} instructions (--max-instructions); PSW address {:016X}\n",
               cpu.instructions, cpu.psw_addr);
    status = 124;
  }
  if (opts.stats)
    fmt::print(stderr, "instructions={} host_seconds={:.3f} mips={:.1f}\n", cpu.instructions, host_s,
               host_s > 0 ? double(cpu.instructions) / host_s / 1e6 : 0.0);
  if (!opts.profile.empty()) write_profile(opts.profile, space, img, cpu);
  return status;
}

}  // namespace os
