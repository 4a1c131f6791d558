// The machine's parameters: what the `machine:` section of a configuration sets.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "emu/isa/facility.h"

namespace emu {

constexpr unsigned kLineSize = 256;  // IBM Z cache line
constexpr unsigned kLineShift = 8;
constexpr unsigned kMaxIStreams = 64;

// Values only: defaults, units, checks and sources are declared once, in the schema
// (machine_config.cpp). Take a default machine from default_machine_config().
struct CacheLevelConfig {
  uint64_t size = 0;     // bytes
  unsigned ways = 0;     // associativity
  unsigned latency = 0;  // load-to-use cycles when the access is served at this level
};

struct TlbConfig {
  unsigned entries = 0;
  unsigned ways = 0;
};

// Which engine runs guest code (machine.engine): both give the same reports. Cosim is
// Compile with every block also interpreted in a copy of the process and compared.
enum class Engine : uint8_t { Interpret, Compile, Cosim };

struct MachineConfig {
  Engine engine = Engine::Interpret;  // machine.engine
  unsigned block_length = 0;       // most instructions in one compiled block
  uint64_t compile_cache = 0;      // host bytes of compiled code kept
  bool skip_spin_loops = true;     // loops that wait without effect done in one step
  Generation arch = Generation::Z196;  // the instructions it decodes (machine.arch)
  unsigned istreams = 0;
  double clock_ghz = 0;
  uint64_t storage = 0;            // absolute storage size, bytes (sparse)
  uint64_t placement_shift = 0;    // bytes the frame allocator skips (a layout perturbation: emu::Storage)
  uint64_t host_storage_limit = 0; // host bytes the touched frames and their decoded code may take
  uint64_t quantum = 0;            // cycles an I-stream runs before the scheduler looks again
  CacheLevelConfig l1, l2, l3;     // l1 and l2 private per I-stream, l3 shared
  unsigned memory_latency = 0;     // cycles to fetch a line from memory
  unsigned transfer_latency = 0;   // move a line held by another I-stream
  unsigned invalidate_latency = 0; // invalidate copies held by other I-streams
  bool serialize_lines = true;     // one ownership change of a line at a time
  TlbConfig tlb4k, tlb1m;
  unsigned tlb_walk = 0;           // cycles for a DAT table walk on a TLB miss
};

// Simulated milliseconds as cycles of the machine's clock (truncated).
inline uint64_t cycles_of_ms(const MachineConfig& m, double ms) { return uint64_t(ms * m.clock_ghz * 1e6); }

// The machine with every `machine:` key at its schema default (a z15-like I-stream).
MachineConfig default_machine_config();

// The `machine:` section's keys (machine_config.cpp), declared on the configuration
// engine (config/config.h).
void declare_machine_schema(cfg::Schema& schema);
// A schema with only the `machine:` section.
const cfg::Schema& machine_schema();
// The MachineConfig a validated Config describes.
MachineConfig machine_config(const cfg::Config& config);
// Load files and overrides against machine_schema() and return the machine.
MachineConfig load_machine_config(const std::vector<std::string>& files,
                                  const std::vector<std::string>& sets = {});
// tpfemu exec's: the same, but machine.arch, when no file or --set gives it, is the
// newest level the emulator implements (kNewestGeneration), as QEMU's user mode runs
// the newest CPU; AT_HWCAP and STFLE follow the level. `tpfemu run` keeps the key's
// default (its configurations pin a level).
MachineConfig load_exec_machine_config(const std::vector<std::string>& files,
                                       const std::vector<std::string>& sets = {});

}  // namespace emu
