// The `machine:` section: every field of MachineConfig declared once, with its
// default, unit, range, description and the source or reasoning of the default.
//
// Sources used below:
//  kTG    IBM z15 (8561) Technical Guide, SG24-8851: 5.2 GHz; per core L1 128 KB I +
//         128 KB D, L2 4 MB I + 4 MB D; 256 MB L3 per CP chip shared by its 12 cores;
//         256-byte lines; up to 40 TB of memory.
//  kECAG  the cache geometry a z15 reports through EXTRACT CPU ATTRIBUTE, as recorded
//         in valgrind's test expectations (none/tests/s390x/ecag.stdout.exp-z15):
//         L1D 128 KB 8-way, L2D 4 MB 8-way, L3 256 MB 32-way, all 256-byte lines.
//  kTelum IBM's Hot Chips 2024 presentation of Telum II (the z17 processor), as
//         reported by Chips and Cheese: a 36 MB private L2 at 3.6 ns, about 19 cycles
//         at 5.5 GHz - an upper bound for the much smaller z15 L2.
// IBM does not publish load-to-use latencies per level for the z15, nor TLB entry
// counts per page size; those defaults are estimates, marked so, with the reasoning.
#include <fmt/format.h>

#include "config/config.h"
#include "config/config_section.h"
#include "emu/machine_config.h"

namespace emu {
using cfg::Schema;
using cfg::ValueType;
using cfg::Section;
using cfg::format_size;
using cfg::Config;

namespace {

const std::string kTG = "IBM z15 Technical Guide, SG24-8851";
// machine.engine's default: the block compiler, the same word on every host (so that
// configuration listings and configs/machine-z15.yaml do not depend on the host); a host
// without it (not x86-64, or no asmjit) interprets, which gives the same reports
// (docs/speed.md, "Block compiler").
constexpr const char* kDefaultEngine = "compile";
const std::string kECAG = "z15 ECAG cache attributes, valgrind none/tests/s390x/ecag.stdout.exp-z15";
const std::string kTelum = "Hot Chips 2024, reported by Chips and Cheese";

void check_cache_geometry(const Config& c, const std::string& level) {
  const std::string size_key = "machine.cache." + level + ".size";
  const std::string ways_key = "machine.cache." + level + ".ways";
  const uint64_t size = c.get_uint(size_key);
  const uint64_t ways = uint64_t(c.get_int(ways_key));
  const uint64_t set_bytes = ways * kLineSize;
  if (size % set_bytes != 0)
    throw c.error({size_key, ways_key},
                  fmt::format("{} with {} ways is not a whole number of sets: the size must be a multiple of "
                              "ways x {}-byte line = {}",
                              c.text(size_key), ways, kLineSize, format_size(set_bytes)));
}

void check_tlb_geometry(const Config& c, const std::string& page) {
  const std::string entries_key = "machine.tlb." + page + ".entries";
  const std::string ways_key = "machine.tlb." + page + ".ways";
  const int64_t entries = c.get_int(entries_key), ways = c.get_int(ways_key);
  if (entries % ways != 0)
    throw c.error({entries_key, ways_key},
                  fmt::format("{} entries do not divide into sets of {} ways (entries must be a multiple of ways)",
                              entries, ways));
}

// Each level outward must be no faster than the one inside it.
void check_latency_order(const Config& c, const char* inner_key, const char* inner_name, const char* outer_key,
                         const char* outer_name,
                         const char* why = "a level further out cannot be faster than the one inside it") {
  const uint64_t inner = c.get_uint(inner_key), outer = c.get_uint(outer_key);
  if (outer < inner)
    throw c.error({outer_key, inner_key},
                  fmt::format("the {} latency ({} cycles) is less than the {} latency ({} cycles); {}", outer_name,
                              outer, inner_name, inner, why));
}

void check_size_order(const Config& c, const char* inner_key, const char* inner_name, const char* outer_key,
                      const char* outer_name) {
  const uint64_t inner = c.get_uint(inner_key), outer = c.get_uint(outer_key);
  if (outer < inner)
    throw c.error({outer_key, inner_key},
                  fmt::format("the {} ({}) is smaller than the {} ({}); each level must hold at least what the "
                              "level inside it holds",
                              outer_name, c.text(outer_key), inner_name, c.text(inner_key)));
}

// Every key of `machine:` and the MachineConfig field its value lands in.
Section<MachineConfig> make_machine_section() {
  Section<MachineConfig> s;
  using T = ValueType;
  s.key_with({.path = "machine.arch",
              .type = T::Enum,
              .default_value = "z196",
              .choices = {"z10", "z196", "zEC12", "z13", "z14", "z15"},
              .unit = "IBM Z generation",
              .description = "Architecture level: the facilities installed, and so the instructions the I-streams "
                             "decode (each line of the instruction table names its facility, emu/isa/facilities.def); "
                             "an instruction of a later facility is an operation exception, as on the real machine. "
                             "The timing model (caches, TLBs, clock) is a z15's whatever the level. tpfemu exec's "
                             "default is the newest level implemented (z15), as QEMU's user mode runs the newest CPU.",
              .source = "z196: what the project's guest images need (built with GCC -march=z10, and libgcc's z196 "
                        "instructions); a later level adds RISBGN (zEC12) and LCBB (z13)."},
             [](MachineConfig& m, const cfg::ConfigValue& v) {
               m.arch = *emu::generation_named(std::get<std::string>(v));
             });
  s.key({.path = "machine.istreams",
         .type = T::Integer,
         .default_value = "1",
         .min = "1",
         .max = "64",
         .unit = "I-streams",
         .description = "Number of I-streams (processors) that share storage and run ECBs.",
         .source = "chosen per experiment; 64 is the emulator's limit (kMaxIStreams). A z15 CP chip has 12 "
                   "cores (" + kTG + ")."}, &MachineConfig::istreams);
  s.key({.path = "machine.clock",
         .type = T::Frequency,
         .default_value = "5.2GHz",
         .min = "1MHz",
         .max = "10GHz",
         .unit = "GHz",
         .description = "Clock rate of every I-stream; turns cycles into simulated time.",
         .source = "z15: 5.2 GHz (" + kTG + ")."}, &MachineConfig::clock_ghz);
  s.key({.path = "machine.storage",
         .type = T::Size,
         .default_value = "1T",
         .min = "16M",
         .max = "16T",
         .unit = "bytes",
         .description = "Absolute storage size. Sparse: only the frames a run touches cost host memory.",
         .source = "estimate: 1 TB, a large z/TPF LPAR; a z15 holds up to 40 TB (" + kTG + "); 16T is the "
                   "emulator's bound. Must be a whole number of 1 MB frames."}, &MachineConfig::storage);
  s.key({.path = "machine.placement_shift",
         .type = T::Size,
         .default_value = "0",
         .min = "0",
         .max = "1G",
         .unit = "bytes",
         .description = "A layout perturbation: the frame allocator hands out its first never-used 4 KB frame "
                        "this many bytes higher, and its first 1 MB frame this much (rounded up to whole 1 MB "
                        "frames) lower, so that the same run's storage lies at other absolute addresses (other "
                        "cache sets, other line sharing); nothing else changes. E3's spread (scripts/"
                        "experiment-paging --studies spread) runs with it. A whole number of 4 KB pages.",
         .source = "0: the placement every configuration was measured with."}, &MachineConfig::placement_shift);
  s.key({.path = "machine.host_storage_limit",
         .type = T::Size,
         .default_value = "16G",
         .min = "64M",
         .max = "16T",
         .unit = "bytes",
         .description = "Host memory the sparse storage may take (each touched 4 KB frame, and the decoded "
                        "instructions of each frame code ran from). Past it the run stops, ended early, instead "
                        "of the host running out of memory.",
         .source = "chosen: well above the largest run of the project's configurations and inside a 32 GB "
                   "host; the count depends on the model only, so where a run stops is reproducible."},
        &MachineConfig::host_storage_limit);
  s.key({.path = "machine.quantum",
         .type = T::Cycles,
         .default_value = "40",
         .min = "1",
         .max = "1000000",
         .unit = "cycles",
         .description = "Longest run of one I-stream before the scheduler picks the I-stream with the smallest "
                        "clock again.",
         .source = "scheduler choice, not hardware: below one line transfer "
                   "(machine.coherence.transfer_latency) so lock hand-offs are not distorted (docs/machine.md, "
                   "Scheduler); smaller costs host time."}, &MachineConfig::quantum);

  s.key_with({.path = "machine.engine",
              .type = T::Enum,
              .default_value = kDefaultEngine,
              .choices = {"compile", "cosim", "interpret"},
              .unit = "engine",
              .description = "How the I-streams execute guest code: interpret (the reference engine: one "
                             "instruction at a time through the instruction table) or compile (blocks of decoded "
                             "instructions turned into host code, emu/jit/; x86-64 hosts only, elsewhere it "
                             "interprets). Both give the same reports byte for byte (docs/speed.md, Block compiler). "
                             "cosim: compile, with every compiled block also interpreted in a forked copy of the "
                             "process and compared (registers, PSW, CC, counts, cycles, stored bytes); the first "
                             "difference stops the run with an error naming the block (a test mode, far slower: "
                             "docs/speed.md, Differential testing).",
              .source = "host speed only, not the model: compile, since the whole suite passes under it and the "
                        "differential tests (tests/engines_same.py, reference.outputs against both engines) show it "
                        "exact on every guest program and E1-E5's short runs; interpret is the reference."},
             [](MachineConfig& m, const cfg::ConfigValue& v) {
               const std::string& e = std::get<std::string>(v);
               m.engine = e == "compile" ? Engine::Compile : e == "cosim" ? Engine::Cosim : Engine::Interpret;
             });
  s.key({.path = "machine.compile.block_length",
         .type = T::Integer,
         .default_value = "64",
         .min = "1",
         .max = "1024",
         .unit = "instructions",
         .description = "Most instructions in one compiled block (machine.engine: compile). 1 makes every block "
                        "one instruction: a stress setting for the differential tests.",
         .source = "host speed only: long enough for the straight-line runs between branches of the bench's "
                   "and E1-E5's guest code; a block also ends at a branch and at its page's end."},
        &MachineConfig::block_length);
  s.key({.path = "machine.compile.cache",
         .type = T::Size,
         .default_value = "64M",
         .min = "64K",
         .max = "4G",
         .unit = "bytes",
         .description = "Host memory for compiled blocks (machine.engine: compile); when full, the oldest blocks "
                        "are dropped (and compiled again when they run again).",
         .source = "host limit only: far above the largest run of the project's configurations (a few MB), "
                   "well inside machine.host_storage_limit."},
        &MachineConfig::compile_cache);
  s.key({.path = "machine.skip_spin_loops",
         .type = T::Bool,
         .default_value = "true",
         .unit = "on/off",
         .description = "A loop of register-only instructions that comes back to its head with the registers and "
                        "the CC as it left them (an operating system's `j .` or `nop; j` while it waits for a "
                        "timer) is done up to the I-stream's next stop (the end of its turn, the next event, "
                        "sample point or instruction limit) in one step, adding exactly the counts and cycles "
                        "its passes would have (emu/spin_loop.h). false: every pass is executed.",
         .source = "host speed only, not the model: the reports are the same byte for byte either way "
                   "(tests/system/waitloop.c and tests/unit/test_spin_loop.cpp under both settings and both engines; the whole suite runs with it on)."},
        &MachineConfig::skip_spin_loops);
  s.key({.path = "machine.cache.l1.size",
         .type = T::Size,
         .default_value = "128K",
         .min = "1K",
         .max = "16G",
         .unit = "bytes",
         .description = "Private L1 data cache of each I-stream.",
         .source = "z15: L1 data cache 128 KB per core (" + kTG + "; " + kECAG + ")."},
         [](MachineConfig& m) -> auto& { return m.l1.size; });
  s.key({.path = "machine.cache.l1.ways",
         .type = T::Integer,
         .default_value = "8",
         .min = "1",
         .max = "256",
         .unit = "ways",
         .description = "Associativity of the L1.",
         .source = "z15: L1 data cache 8-way (" + kECAG + ")."}, [](MachineConfig& m) -> auto& { return m.l1.ways; });
  s.key({.path = "machine.cache.l1.latency",
         .type = T::Cycles,
         .default_value = "4",
         .min = "0",
         .max = "1000",
         .unit = "cycles",
         .description = "Load-to-use cycles of an access served by the L1 (0 if base cycles include it).",
         .source = "estimate: 4 cycles load-to-use, usual for an L1 data cache at 5 GHz; IBM publishes no z15 "
                   "figure."}, [](MachineConfig& m) -> auto& { return m.l1.latency; });

  s.key({.path = "machine.cache.l2.size",
         .type = T::Size,
         .default_value = "4M",
         .min = "1K",
         .max = "16G",
         .unit = "bytes",
         .description = "Private L2 (data) cache of each I-stream.",
         .source = "z15: L2 data cache 4 MB per core (" + kTG + "; " + kECAG + ")."},
         [](MachineConfig& m) -> auto& { return m.l2.size; });
  s.key({.path = "machine.cache.l2.ways",
         .type = T::Integer,
         .default_value = "8",
         .min = "1",
         .max = "256",
         .unit = "ways",
         .description = "Associativity of the L2.",
         .source = "z15: L2 data cache 8-way (" + kECAG + ")."}, [](MachineConfig& m) -> auto& { return m.l2.ways; });
  s.key({.path = "machine.cache.l2.latency",
         .type = T::Cycles,
         .default_value = "16",
         .min = "1",
         .max = "10000",
         .unit = "cycles",
         .description = "Load-to-use cycles of an access that misses the L1 and is served by the L2.",
         .source = "estimate: below the 3.6 ns (~19 cycles) of the 9x larger 36 MB L2 of Telum II (" + kTelum + ")."},
         [](MachineConfig& m) -> auto& { return m.l2.latency; });

  s.key({.path = "machine.cache.l3.size",
         .type = T::Size,
         .default_value = "256M",
         .min = "1K",
         .max = "16G",
         .unit = "bytes",
         .description = "L3 cache shared by all I-streams.",
         .source = "z15: 256 MB eDRAM L3 per CP chip, shared by its 12 cores (" + kTG + "; " + kECAG +
                   "); here one L3 serves all I-streams."}, [](MachineConfig& m) -> auto& { return m.l3.size; });
  s.key({.path = "machine.cache.l3.ways",
         .type = T::Integer,
         .default_value = "32",
         .min = "1",
         .max = "256",
         .unit = "ways",
         .description = "Associativity of the L3.",
         .source = "z15: L3 32-way (" + kECAG + ")."}, [](MachineConfig& m) -> auto& { return m.l3.ways; });
  s.key({.path = "machine.cache.l3.latency",
         .type = T::Cycles,
         .default_value = "50",
         .min = "1",
         .max = "10000",
         .unit = "cycles",
         .description = "Load-to-use cycles of an access that misses the L2 and is served by the L3.",
         .source = "estimate: about 10 ns for the on-chip eDRAM L3 at 5.2 GHz."},
         [](MachineConfig& m) -> auto& { return m.l3.latency; });

  s.key({.path = "machine.memory_latency",
         .type = T::Cycles,
         .default_value = "350",
         .min = "1",
         .max = "100000",
         .unit = "cycles",
         .description = "Cycles to fetch a line that no cache level holds (the L4 and memory together).",
         .source = "estimate: about 67 ns at 5.2 GHz, an L4 or local-drawer memory fetch; remote-drawer "
                   "fetches cost more and are not modelled."}, &MachineConfig::memory_latency);

  s.key({.path = "machine.coherence.transfer_latency",
         .type = T::Cycles,
         .default_value = "110",
         .min = "1",
         .max = "100000",
         .unit = "cycles",
         .description = "Cycles to take a line that another I-stream holds (exclusive, or shared for a store).",
         .source = "estimate: an L3 access plus a cross-interrogate of the owning core and the line's "
                   "return, about twice the L3 latency."}, &MachineConfig::transfer_latency);
  s.key({.path = "machine.coherence.invalidate_latency",
         .type = T::Cycles,
         .default_value = "40",
         .min = "0",
         .max = "100000",
         .unit = "cycles",
         .description = "Cycles to invalidate the copies other I-streams hold when a store takes a line "
                        "exclusive.",
         .source = "estimate: a cross-interrogate without data, a little under the L3 latency."},
         &MachineConfig::invalidate_latency);
  s.key({.path = "machine.coherence.serialize_lines",
         .type = T::Bool,
         .default_value = "true",
         .unit = "on/off",
         .description = "A line changes owner one request at a time: a transfer or an exclusive request "
                        "(store, CS, CSG) for a line whose previous ownership change is still in flight waits "
                        "for it, so N I-streams hammering one line queue behind each other. false: every request "
                        "pays only its own latency (an ablation: contention then costs transfers, not queueing).",
         .source = "the L3 directory is the point of coherence and handles conflicting requests for one line "
                   "in turn (IBM z15 Technical Guide SG24-8851, cache design); a line in flight cannot be "
                   "granted again before it arrives."}, &MachineConfig::serialize_lines);

  s.key({.path = "machine.tlb.4k.entries",
         .type = T::Integer,
         .default_value = "2048",
         .min = "1",
         .max = "65536",
         .unit = "entries",
         .description = "Entries of each I-stream's TLB for 4 KB pages.",
         .source = "estimate: z14/z15 pair a first-level TLB in the L1 directory with a larger second-level "
                   "TLB; IBM does not publish entry counts per page size."},
         [](MachineConfig& m) -> auto& { return m.tlb4k.entries; });
  s.key({.path = "machine.tlb.4k.ways",
         .type = T::Integer,
         .default_value = "8",
         .min = "1",
         .max = "65536",
         .unit = "ways",
         .description = "Associativity of the 4 KB TLB.",
         .source = "estimate, as machine.tlb.4k.entries."}, [](MachineConfig& m) -> auto& { return m.tlb4k.ways; });
  s.key({.path = "machine.tlb.1m.entries",
         .type = T::Integer,
         .default_value = "128",
         .min = "1",
         .max = "65536",
         .unit = "entries",
         .description = "Entries of each I-stream's TLB for 1 MB pages.",
         .source = "estimate: 128 entries map 128 MB; a large-page TLB has fewer entries than a 4 KB one."},
         [](MachineConfig& m) -> auto& { return m.tlb1m.entries; });
  s.key({.path = "machine.tlb.1m.ways",
         .type = T::Integer,
         .default_value = "4",
         .min = "1",
         .max = "65536",
         .unit = "ways",
         .description = "Associativity of the 1 MB TLB.",
         .source = "estimate, as machine.tlb.1m.entries."}, [](MachineConfig& m) -> auto& { return m.tlb1m.ways; });
  s.key({.path = "machine.tlb.walk",
         .type = T::Cycles,
         .default_value = "60",
         .min = "0",
         .max = "100000",
         .unit = "cycles",
         .description = "Cycles of a DAT table walk after a TLB miss (the table entries assumed cached).",
         .source = "estimate: a few dependent accesses to region, segment and page tables held in the L2 "
                   "(about 4 x machine.cache.l2.latency)."}, &MachineConfig::tlb_walk);

  s.describe("machine", "The machine: I-streams, clock, storage, caches and coherence, TLBs, scheduler.");
  s.describe("machine.compile", "The block compiler (machine.engine: compile): block length and code cache.");
  s.describe("machine.cache", "Caches: 256-byte lines; L1 and L2 private to each I-stream, L3 shared.");
  s.describe("machine.cache.l1", "L1 data cache, private to each I-stream.");
  s.describe("machine.cache.l2", "L2 cache, private to each I-stream.");
  s.describe("machine.cache.l3", "L3 cache, shared by all I-streams.");
  s.describe("machine.coherence", "Moving lines between I-streams: one exclusive owner or many sharers.");
  s.describe("machine.tlb", "Per-I-stream TLBs for 4 KB and 1 MB pages, and the cost of a miss.");
  s.describe("machine.tlb.4k", "TLB for 4 KB pages.");
  s.describe("machine.tlb.1m", "TLB for 1 MB pages.");

  s.check("machine.storage is whole 1 MB frames", [](const Config& c) {
    if (c.get_uint("machine.storage") % (uint64_t(1) << 20) != 0)
      throw c.error({"machine.storage"},
                    fmt::format("{} is not a whole number of 1M frames", c.text("machine.storage")));
  });
  s.check("machine.placement_shift is whole pages, well inside storage", [](const Config& c) {
    const uint64_t shift = c.get_uint("machine.placement_shift");
    if (shift % 4096 != 0)
      throw c.error({"machine.placement_shift"},
                    fmt::format("{} is not a whole number of 4K pages", c.text("machine.placement_shift")));
    if (shift > c.get_uint("machine.storage") / 4)
      throw c.error({"machine.placement_shift", "machine.storage"},
                    fmt::format("{} is more than a quarter of machine.storage ({})", c.text("machine.placement_shift"),
                                c.text("machine.storage")));
  });
  s.check("cache geometry", [](const Config& c) {
    for (const char* level : {"l1", "l2", "l3"}) check_cache_geometry(c, level);
  });
  s.check("cache sizes grow outward", [](const Config& c) {
    check_size_order(c, "machine.cache.l1.size", "L1", "machine.cache.l2.size", "L2");
    check_size_order(c, "machine.cache.l2.size", "L2", "machine.cache.l3.size", "L3");
  });
  s.check("latencies grow outward", [](const Config& c) {
    check_latency_order(c, "machine.cache.l1.latency", "L1", "machine.cache.l2.latency", "L2");
    check_latency_order(c, "machine.cache.l2.latency", "L2", "machine.cache.l3.latency", "L3");
    check_latency_order(c, "machine.cache.l3.latency", "L3", "machine.memory_latency", "memory");
    check_latency_order(c, "machine.cache.l1.latency", "L1", "machine.coherence.transfer_latency",
                        "line-transfer", "taking a line from another I-stream cannot cost less than an L1 hit");
  });
  s.check("TLB geometry", [](const Config& c) {
    check_tlb_geometry(c, "4k");
    check_tlb_geometry(c, "1m");
  });
  s.check("quantum below a line transfer", [](const Config& c) {
    const uint64_t q = c.get_uint("machine.quantum");
    const uint64_t t = c.get_uint("machine.coherence.transfer_latency");
    if (q >= t)
      throw c.error({"machine.quantum", "machine.coherence.transfer_latency"},
                    fmt::format("the quantum ({} cycles) must be less than the line-transfer latency "
                                "machine.coherence.transfer_latency ({} cycles): a longer quantum lets an I-stream "
                                "run past the moment another I-stream's line transfer completes, which distorts "
                                "lock hand-offs",
                                q, t));
  });
  return s;
}

const Section<MachineConfig>& machine_section() {
  static const Section<MachineConfig> section = make_machine_section();
  return section;
}

}  // namespace

void declare_machine_schema(Schema& schema) { machine_section().declare(schema); }

const Schema& machine_schema() {
  static const Schema schema = [] {
    Schema s;
    declare_machine_schema(s);
    return s;
  }();
  return schema;
}

MachineConfig machine_config(const Config& c) {
  c.validate();
  return machine_section().read(c);
}

MachineConfig load_machine_config(const std::vector<std::string>& files, const std::vector<std::string>& sets) {
  return machine_config(load_config(machine_schema(), files, sets));
}

MachineConfig load_exec_machine_config(const std::vector<std::string>& files, const std::vector<std::string>& sets) {
  const Config c = load_config(machine_schema(), files, sets);
  MachineConfig m = machine_config(c);
  if (c.is_default("machine.arch")) m.arch = kNewestGeneration;
  return m;
}

MachineConfig default_machine_config() {
  static const MachineConfig m = machine_config(Config(machine_schema()));
  return m;
}

}  // namespace emu
