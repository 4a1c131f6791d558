#include "app/ipl_command.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>

#include "config/config.h"
#include "config/input_file.h"
#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "emu/profiler.h"
#include "emu/system/eckd.h"
#include "emu/system/system_machine.h"
#include "emu/system/virtio_ccw.h"
#include "flashsim/ckd.h"
#include "flashsim/dasd3390.h"
#include "flashsim/scm.h"

namespace app {

namespace {

// The devices --device names (one so far).
constexpr const char* kVirtioNet = "virtio-net-ccw";

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

// The 3390 model's facts (flashsim: dasd3390.h's geometry, ckd.h's seek and rotation,
// dasd.h's channel-program overhead) for an ECKD device of emu/, which cannot see them;
// the volume as many cylinders as the image needs (at least one), at most the model's.
bool eckd_model(uint64_t image_bytes, emu::EckdModel& m, std::string& error) {
  namespace d = flashsim::dasd3390;
  const flashsim::ckd::CkdConfig ckd = flashsim::ckd::ckd_config(flashsim::DasdConfig{});
  m.tracks_per_cylinder = d::kTracksPerCylinder;
  m.cells_per_track = d::kCellsPerTrack;
  m.record_bytes = flashsim::kBlock4K;
  m.records_per_track = d::records_per_track(0, m.record_bytes);
  const uint64_t cylinder_bytes = uint64_t(m.records_per_track) * m.record_bytes * m.tracks_per_cylinder;
  const uint64_t cylinders = std::max<uint64_t>(1, (image_bytes + cylinder_bytes - 1) / cylinder_bytes);
  if (cylinders > ckd.cylinders) {
    error = fmt::format("{} bytes need {} cylinders of {} bytes; the 3390 model has {}", image_bytes, cylinders,
                        cylinder_bytes, ckd.cylinders);
    return false;
  }
  m.cylinders = uint32_t(cylinders);
  m.record_cells = [](uint32_t key_length, uint32_t data_length) { return d::record_cells(key_length, data_length); };
  m.seek_ns = [ckd](uint32_t distance) { return ckd.seek_ns(distance); };
  m.revolution_ns = ckd.revolution_ns();
  m.start_io_ns = ckd.start_io_ns;
  return true;
}

// Flash Express behind an EADM subchannel: flashsim's SCM model (its default
// configuration: one card pair, 80 GB defined in 16 GB increments, 64 GB online) moves
// the AOB's blocks and gives their time, as it does for `run`'s paging.
class ScmEadm final : public emu::EadmDevice {
 public:
  std::string name() const override { return "SCM"; }
  emu::EadmAnswer move(uint64_t now_ns, std::vector<emu::EadmBlock>& blocks) override {
    // The model takes its requests in time order; I-streams' clocks may differ.
    now_ns = last_ns_ = std::max(now_ns, last_ns_);
    flashsim::Request request;
    for (emu::EadmBlock& b : blocks) {
      using Op = emu::EadmBlock::Op;
      const flashsim::Op op = b.op == Op::Read    ? flashsim::Op::Read
                              : b.op == Op::Write ? flashsim::Op::Write
                              : b.op == Op::Clear ? flashsim::Op::Clear
                                                  : flashsim::Op::Release;
      request.blocks.push_back({op, b.scm_address, b.one_megabyte ? flashsim::kBlock1M : flashsim::kBlock4K,
                                b.data.data()});
    }
    const flashsim::Completion c = scm_.submit(now_ns, request);
    emu::EadmAnswer a;
    a.ok = c.ok(), a.failed_block = c.block < 0 ? 0 : unsigned(c.block), a.error = c.error;
    a.ns = c.time_ns - now_ns;
    return a;
  }

 private:
  flashsim::ScmDevice scm_{flashsim::ScmConfig{}};
  uint64_t last_ns_ = 0;
};

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
  const uint64_t real_size = config.storage;
  emu::MachineConfig machine_config = config;
  machine_config.storage = emu::RealStorage::storage_bytes(real_size);
  emu::Machine machine(machine_config, opts.timing);
  emu::SystemMachine system(machine, real_size, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  });
  system.sclp().set_console_input(std::move(console_input));
  std::string error;
  for (const std::string& path : opts.dasd) {
    std::string volume;
    try {
      volume = cfg::read_input_file(path, cfg::kMaxImageBytes, "3390 volume image");
    } catch (const cfg::InputFileError& e) {
      fmt::print(stderr, "tpfemu: --dasd {}: {}\n", path, e.why);
      return 2;
    }
    emu::EckdModel model;
    if (!eckd_model(volume.size(), model, error)) {
      fmt::print(stderr, "tpfemu: --dasd {}: {}\n", path, error);
      return 2;
    }
    system.css().attach(std::make_unique<emu::EckdDevice>(std::filesystem::path(path).filename().string(), model,
                                                          std::vector<uint8_t>(volume.begin(), volume.end())));
  }
  if (opts.scm) system.css().attach_eadm(std::make_unique<ScmEadm>());
  for (const std::string& device : opts.devices) {
    if (device != kVirtioNet) {
      fmt::print(stderr, "tpfemu: --device {}: not a device tpfemu models (it has {})\n", device, kVirtioNet);
      return 2;
    }
    // A locally administered MAC address (bit 1 of the first byte), the last byte the
    // subchannel's number: two devices, two addresses.
    const uint8_t last = uint8_t(system.css().subchannels());
    system.css().attach(std::make_unique<emu::VirtioNetCcw>(device, std::array<uint8_t, 6>{0x02, 0, 0, 0, 0, last}));
  }
  system.set_vm_description(opts.vm);
  if (!opts.watchdog.empty())
    system.set_watchdog(opts.watchdog == "inject-nmi" ? emu::SystemMachine::WatchdogAction::InjectNmi
                        : opts.watchdog == "reset"    ? emu::SystemMachine::WatchdogAction::Reset
                                                      : emu::SystemMachine::WatchdogAction::None);
  const std::vector<uint8_t> image(bytes.begin(), bytes.end());
  if (!(elf ? system.ipl_elf(img, opts.parameters, error) : system.ipl_binary(image, opts.parameters, error))) {
    fmt::print(stderr, "tpfemu: {}: {}\n", opts.image, error);
    return 2;
  }
  const emu::SystemRunResult r = system.run(opts.max_instructions ? opts.max_instructions : ~0ull);
  std::fflush(stdout);

  // The end, the wait PSW and the counts: the ETIM report's figures in one line.
  uint64_t program = 0, svc = 0, external = 0, io = 0;
  for (unsigned i = 0; i < machine.istreams(); ++i)
    program += system.cpu(i).program_interruptions, svc += system.cpu(i).svc_interruptions,
        external += system.cpu(i).external_interruptions, io += system.cpu(i).io_interruptions;
  fmt::print(stderr, "tpfemu: ipl {}: {}; PSW {:016X} {:016X}\n", img.name, end_text(r), r.psw.mask, r.psw.addr);
  fmt::print(stderr, "tpfemu: instructions={} cycles={} interruptions: program={} svc={} external={} sclp_commands={}{}\n",
             machine.instructions(), machine.elapsed_cycles(), program, svc, external, system.sclp().commands,
             system.css().subchannels() ? fmt::format(" io={} start_subchannel={}", io, system.css().starts) : "");
  // The modelled TLBs' counts, summed over the I-streams: guest DAT's 4 KB pages and its
  // EDAT frames' 1 MB segments (docs/system-mode.md, "How the TLBs serve it").
  uint64_t hits4k = 0, misses4k = 0, hits1m = 0, misses1m = 0;
  for (unsigned i = 0; i < machine.istreams(); ++i) {
    const emu::Cpu& c = machine.cpu(i);
    hits4k += c.tlb4k().hits, misses4k += c.tlb4k().misses, hits1m += c.tlb1m().hits, misses1m += c.tlb1m().misses;
  }
  fmt::print(stderr, "tpfemu: tlb4k_hits={} tlb4k_misses={} tlb1m_hits={} tlb1m_misses={}\n", hits4k, misses4k, hits1m,
             misses1m);
  const int status = status_of(r);
  if (!opts.profile.empty()) {
    auto rows = emu::collect_profile(system.real(0).space(), img.symbols, img.name);
    // Each row's state, supervisor or problem (or both), as it ran.
    const emu::ExecutionStates& states = system.execution_states();
    for (auto& row : rows) row.state = emu::ExecutionStates::mark(states.of(row.address));
    emu::EtimHeader h;
    h.states = true;
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
