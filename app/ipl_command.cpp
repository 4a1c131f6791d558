#include "app/ipl_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "config/config.h"
#include "config/input_file.h"
#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "emu/profiler.h"
#include "emu/system/system_machine.h"

namespace app {

namespace {

// QEMU's default for s390x: 128 MB. A configuration's machine.storage (1 TB, for
// TPF's runs) would be far more than a bare-metal program wants to be told of.
constexpr const char* kIplStorage = "machine.storage=128M";

std::string json_path(const std::string& path) {
  return path.size() > 4 && path.ends_with(".txt") ? path.substr(0, path.size() - 4) + ".json" : path + ".json";
}

// Console input is typed lines, not data: a bound far above that, so that /dev/zero
// piped in is refused instead of read until memory runs out.
constexpr uint64_t kMaxConsoleInput = 1ull << 20;

std::string read_standard_input() {
  std::string bytes;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) {
    bytes.append(buffer, n);
    if (bytes.size() > kMaxConsoleInput)
      throw cfg::InputFileError("-", fmt::format("standard input holds more than {} bytes", kMaxConsoleInput));
  }
  return bytes;
}

bool is_elf(const std::string& bytes) { return bytes.size() >= 4 && bytes.compare(0, 4, "\x7F" "ELF") == 0; }

std::string end_text(const emu::SystemRunResult& r) {
  using End = emu::SystemRunResult::End;
  switch (r.end) {
    case End::DisabledWait: return fmt::format("disabled wait on I-stream {}", r.istream);
    case End::EnabledWait: return "every I-stream waits for an interruption nothing will bring";
    case End::Stopped: return "every I-stream stopped";
    case End::Limit: return "stopped by --max-instructions";
    case End::Halted: return fmt::format("stopped on I-stream {}: {}", r.istream, r.reason);
    case End::HostLimit: return "stopped at machine.host_storage_limit";
  }
  return "";
}

int status_of(const emu::SystemRunResult& r) {
  using End = emu::SystemRunResult::End;
  switch (r.end) {
    case End::DisabledWait: return int(r.psw.addr & 0xFF);
    case End::Stopped: return 0;
    case End::Halted: return 125;
    default: return 124;
  }
}

}  // namespace

int run_ipl(const IplOptions& opts) {
  std::string bytes;
  try {
    bytes = cfg::read_input_file(opts.image, cfg::kMaxImageBytes, "program image");
  } catch (const cfg::InputFileError& e) {
    fmt::print(stderr, "tpfemu: {}: {}\n", opts.image, e.why);
    return 2;
  }
  emu::ElfImage img;
  const bool elf = is_elf(bytes);
  try {
    if (elf) img = emu::parse_elf(std::vector<uint8_t>(bytes.begin(), bytes.end()),
                                  std::filesystem::path(opts.image).stem().string());
    else img.name = std::filesystem::path(opts.image).stem().string();
  } catch (const emu::ElfError& e) {
    fmt::print(stderr, "tpfemu: {}: {}\n", opts.image, e.what());
    return 2;
  }
  std::string console_input;
  if (!opts.console_input.empty()) {
    try {
      console_input = opts.console_input == "-" ? read_standard_input()
                                                : cfg::read_input_file(opts.console_input, kMaxConsoleInput, "console input");
    } catch (const cfg::InputFileError& e) {
      fmt::print(stderr, "tpfemu: --console-input {}: {}\n", opts.console_input, e.why);
      return 2;
    }
  }
  emu::MachineConfig config;
  try {
    std::vector<std::string> sets{kIplStorage};
    sets.insert(sets.end(), opts.sets.begin(), opts.sets.end());
    config = emu::load_exec_machine_config(opts.config_files, sets);
  } catch (const cfg::ConfigError& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  }
  std::ofstream profile_text, profile_json;
  if (!opts.profile.empty()) {
    profile_text.open(opts.profile);
    profile_json.open(json_path(opts.profile));
    if (!profile_text || !profile_json) {
      fmt::print(stderr, "tpfemu: --profile: cannot write {}: {}\n",
                 profile_text ? json_path(opts.profile) : opts.profile, std::strerror(errno));
      return 2;
    }
  }
  // DAT is off: no translation, so no TLB walk to charge.
  config.tlb_walk = 0;
  const uint64_t real_size = config.storage;
  emu::MachineConfig machine_config = config;
  machine_config.storage = emu::RealStorage::storage_bytes(real_size);
  emu::Machine machine(machine_config, opts.timing);
  emu::SystemMachine system(machine, real_size, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  });
  system.sclp().set_console_input(std::move(console_input));
  std::string error;
  const std::vector<uint8_t> image(bytes.begin(), bytes.end());
  if (!(elf ? system.ipl_elf(img, opts.parameters, error) : system.ipl_binary(image, opts.parameters, error))) {
    fmt::print(stderr, "tpfemu: {}: {}\n", opts.image, error);
    return 2;
  }
  const emu::SystemRunResult r = system.run(opts.max_instructions ? opts.max_instructions : ~0ull);
  std::fflush(stdout);

  // The end, the wait PSW and the counts: the ETIM report's figures in one line.
  uint64_t program = 0, svc = 0, external = 0;
  for (unsigned i = 0; i < machine.istreams(); ++i)
    program += system.cpu(i).program_interruptions, svc += system.cpu(i).svc_interruptions,
        external += system.cpu(i).external_interruptions;
  fmt::print(stderr, "tpfemu: ipl {}: {}; PSW {:016X} {:016X}\n", img.name, end_text(r), r.psw.mask, r.psw.addr);
  fmt::print(stderr, "tpfemu: instructions={} cycles={} interruptions: program={} svc={} external={} sclp_commands={}\n",
             machine.instructions(), machine.elapsed_cycles(), program, svc, external, system.sclp().commands);
  const int status = status_of(r);
  if (!opts.profile.empty()) {
    auto rows = emu::collect_profile(system.real(0).space(), img.symbols, img.name);
    emu::EtimHeader h;
    h.object = std::filesystem::path(opts.image).filename().string();
    for (const auto& row : rows) h.instructions += row.count, h.cycles += row.cycles;
    h.elapsed_cycles = machine.elapsed_cycles();
    h.istreams = machine.istreams();
    emu::write_etim_text(profile_text, h, rows);
    emu::write_etim_json(profile_json, h, rows);
    profile_text.close(), profile_json.close();
    if (!profile_text || !profile_json) {
      fmt::print(stderr, "tpfemu: --profile: cannot write the profile to {}\n", opts.profile);
      return status == 0 ? 2 : status;
    }
  }
  return status;
}

}  // namespace app
