#include "app/exec_command.h"

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include "config/config.h"
#include "emu/cpu.h"
#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "emu/profiler.h"
#include "linux/linux_kernel.h"

namespace app {
using linux_user::LinuxKernel;

namespace {

std::string profile_json_path(const std::string& path) {
  return path.size() > 4 && path.ends_with(".txt") ? path.substr(0, path.size() - 4) + ".json" : path + ".json";
}

// Opens the profile's two files; false, with the message printed, if either cannot be
// written (checked before the program runs, so a long run does not end in vain).
bool open_profile(const std::string& path, std::ofstream& text, std::ofstream& json) {
  text.open(path);
  json.open(profile_json_path(path));
  if (text && json) return true;
  fmt::print(stderr, "tpfemu: --profile: cannot write {}: {}\n", text ? profile_json_path(path) : path,
             std::strerror(errno));
  return false;
}

bool write_profile(std::ofstream& text, std::ofstream& json, emu::AddressSpace& space, const emu::ElfImage& img,
                   emu::Machine& m) {
  auto rows = emu::collect_profile(space, img.symbols, img.name);
  emu::EtimHeader h;
  h.object = img.name + ".elf";
  // CYCLES is what the rows add up to (every I-stream's CPU cycles, as ZTRAP EI's
  // header); the elapsed time is a figure of its own.
  for (const auto& r : rows) h.instructions += r.count, h.cycles += r.cycles;
  h.elapsed_cycles = m.elapsed_cycles();
  h.istreams = m.istreams();
  emu::write_etim_text(text, h, rows);
  emu::write_etim_json(json, h, rows);
  text.close();
  json.close();
  return bool(text) && bool(json);
}

void print_counters(emu::Machine& m) {
  fmt::print(stderr, "elapsed_cycles={} simulated_seconds={:.6f}\n", m.elapsed_cycles(),
             double(m.elapsed_cycles()) / (m.config().clock_ghz * 1e9));
  for (unsigned i = 0; i < m.istreams(); ++i) {
    auto k = m.counters(i);
    const emu::Cpu& c = m.cpu(i);
    fmt::print(stderr, "istream={} instructions={} busy_cycles={} idle_cycles={} utilization={:.3f} "
                       "tlb4k_misses={} tlb1m_misses={}",
               i, k.instructions, k.busy_cycles, k.idle_cycles, k.utilization, c.tlb4k().misses,
               c.tlb1m().misses);
    if (auto* mh = m.caches()) {
      const auto& s = mh->stats(i);
      fmt::print(stderr, " l1_hits={} l2_hits={} l3_hits={} memory={} transfers_in={} invalidations_sent={}",
                 s.l1_hits, s.l2_hits, s.l3_hits, s.memory, s.transfers_in, s.invalidations_sent);
    }
    fmt::print(stderr, "\n");
  }
  if (auto* mh = m.caches())
    fmt::print(stderr, "line_transfers={} invalidations={}\n", mh->line_transfers(), mh->invalidations());
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
  emu::MachineConfig config;
  try {
    config = emu::load_exec_machine_config(opts.config_files, opts.sets);
  } catch (const cfg::ConfigError& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  }
  std::ofstream profile_text, profile_json;
  if (!opts.profile.empty() && !open_profile(opts.profile, profile_text, profile_json)) return 2;
  emu::Machine machine(config, opts.timing);
  std::vector<std::string> argv{opts.program};
  argv.insert(argv.end(), opts.args.begin(), opts.args.end());
  LinuxKernel kernel(machine, img, argv);
  kernel.set_large_pages(opts.large_pages);
  kernel.set_environment(opts.env);
  kernel.set_seed(opts.seed);
  kernel.set_every_istream_starts(opts.all_istreams_start);
  kernel.set_max_processes(opts.max_processes);
  kernel.set_executable_path(std::filesystem::absolute(opts.program).lexically_normal().string());
  try {
    if (!opts.root.empty()) kernel.set_root(opts.root);
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  }
  if (!kernel.start()) {
    fmt::print(stderr, "tpfemu: {}: storage ({} bytes) is too small for the program\n", opts.program,
               config.storage);
    return 2;
  }

  // Host time only measures the emulator's own speed for --stats; the model never sees it.
  auto t0 = std::chrono::steady_clock::now();
  emu::MachineRunResult r = machine.run(opts.max_instructions ? opts.max_instructions : ~0ull);
  double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fflush(stdout);

  int status;
  if (r.reason == emu::MachineRunResult::Reason::ProgramCheck) {
    std::string where = machine.istreams() > 1 ? fmt::format("{} (I-stream {})", img.name + ".elf", r.istream)
                                               : img.name + ".elf";
    fmt::print(stderr, "{}", emu::format_program_check(machine.cpu(r.istream), r.check.check, &img.symbols, where));
    status = kernel.exit_code();
  } else if (r.reason == emu::MachineRunResult::Reason::HostLimit) {
    fmt::print(stderr, "tpfemu: {}: stopped after {} instructions: the storage's frames stored into, touched frames and decoded code "
               "take {} bytes of host memory, over machine.host_storage_limit ({} bytes)\n", img.name + ".elf",
               machine.instructions(), machine.storage().host_bytes(), machine.storage().host_limit());
    status = 124;
  } else if (!kernel.stopped_because().empty()) {
    fmt::print(stderr, "tpfemu: {}: {}; stopped after {} instructions\n", img.name + ".elf", kernel.stopped_because(),
               machine.instructions());
    status = 124;
  } else if (kernel.exited()) {
    status = kernel.exit_code();
    if (int sig = kernel.fatal_signal())
      fmt::print(stderr, "tpfemu: {} ended by signal {}\n", img.name + ".elf", sig);
  } else if (kernel.deadlocked()) {
    fmt::print(stderr, "tpfemu: {}: every thread waits for something nothing can bring (a futex, a pipe, a child, a signal): deadlock after {} instructions\n",
               img.name + ".elf", machine.instructions());
    status = 124;
  } else {
    fmt::print(stderr, "tpfemu: stopped after {} instructions (--max-instructions); PSW address {:016X}\n",
               machine.instructions(), machine.cpu(0).psw_addr);
    status = 124;
  }
  uint64_t n = machine.instructions();
  if (opts.stats) {
    fmt::print(stderr, "instructions={} host_seconds={:.3f} mips={:.1f}\n", n, host_s,
               host_s > 0 ? double(n) / host_s / 1e6 : 0.0);
    // The model's count of host memory (the same every run), then the host's own figure.
    for (const std::string& line : machine.storage().host_memory_lines()) fmt::print(stderr, "{}\n", line);
    if (const emu::jit::CodeCache* cc = machine.code_cache()) {
      const emu::jit::CodeCacheStats& c = cc->stats();
      fmt::print(stderr, "engine=compile blocks_compiled={} instructions_compiled={} blocks_evicted={} code_bytes={} "
                 "peak_code_bytes={} compile_seconds={:.3f}\n", c.blocks_compiled, c.instructions_compiled,
                 c.blocks_evicted, c.code_bytes, c.peak_code_bytes, c.compile_seconds);
      if (machine.config().engine == emu::Engine::Cosim) {
        uint64_t compared = 0, unchecked = 0;
        for (unsigned i = 0; i < machine.istreams(); ++i)
          compared += machine.cpu(i).cosim_compared, unchecked += machine.cpu(i).cosim_unchecked;
        fmt::print(stderr, "cosim blocks_compared={} blocks_unchecked={}\n", compared, unchecked);
      }
    } else {
      fmt::print(stderr, "engine=interpret\n");
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    fmt::print(stderr, "host_max_rss_kb={}\n", usage.ru_maxrss);
  }
  if (opts.counters) print_counters(machine);
  if (!opts.profile.empty() && !write_profile(profile_text, profile_json, kernel.initial_space(), img, machine)) {
    fmt::print(stderr, "tpfemu: --profile: cannot write the profile to {}\n", opts.profile);
    if (status == 0) status = 2;
  }
  return status;
}

}  // namespace app
