// The configuration mechanism (config/config.h) and the `machine:` section
// (emu/machine_config.cpp): units, defaults, every error path with its place and
// key, --set overrides, cross-field checks, the schema listing, determinism, and
// the example file configs/machine-z15.yaml.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "config/config.h"
#include "emu/machine_config.h"

namespace {

using cfg::Config;
using cfg::ConfigError;
using emu::MachineConfig;

const std::string kExample = std::string(TPFEMU_SOURCE_DIR) + "/configs/machine-z15.yaml";

// The message of the ConfigError `f` throws, or "(no error)".
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

Config from_yaml(const std::string& text) {
  Config c(emu::machine_schema());
  c.load_yaml(text, "configs/x.yaml");
  c.validate();
  return c;
}

std::string yaml_error(const std::string& text) {
  return error_of([&] { from_yaml(text); });
}

std::string set_error(const std::vector<std::string>& sets) {
  return error_of([&] { emu::load_machine_config({}, sets); });
}

// Every field of a MachineConfig, keyed by its configuration path.
std::vector<std::pair<std::string, std::string>> fields(const MachineConfig& m) {
  std::vector<std::pair<std::string, std::string>> f = {
      {"machine.arch", std::string(emu::generation_name(m.arch))},
      {"machine.istreams", fmt::format("{}", m.istreams)},
      {"machine.clock", fmt::format("{}", m.clock_ghz)},
      {"machine.storage", fmt::format("{}", m.storage)},
      {"machine.placement_shift", fmt::format("{}", m.placement_shift)},
      {"machine.host_storage_limit", fmt::format("{}", m.host_storage_limit)},
      {"machine.quantum", fmt::format("{}", m.quantum)},
      {"machine.engine", m.engine == emu::Engine::Compile ? "compile" : m.engine == emu::Engine::Cosim ? "cosim" : "interpret"},
      {"machine.compile.block_length", fmt::format("{}", m.block_length)},
      {"machine.compile.cache", fmt::format("{}", m.compile_cache)},
      {"machine.skip_spin_loops", m.skip_spin_loops ? "true" : "false"},
  };
  for (auto [name, l] : {std::pair{"l1", m.l1}, std::pair{"l2", m.l2}, std::pair{"l3", m.l3}}) {
    f.emplace_back(fmt::format("machine.cache.{}.size", name), fmt::format("{}", l.size));
    f.emplace_back(fmt::format("machine.cache.{}.ways", name), fmt::format("{}", l.ways));
    f.emplace_back(fmt::format("machine.cache.{}.latency", name), fmt::format("{}", l.latency));
  }
  f.emplace_back("machine.memory_latency", fmt::format("{}", m.memory_latency));
  f.emplace_back("machine.coherence.transfer_latency", fmt::format("{}", m.transfer_latency));
  f.emplace_back("machine.coherence.invalidate_latency", fmt::format("{}", m.invalidate_latency));
  f.emplace_back("machine.coherence.serialize_lines", m.serialize_lines ? "true" : "false");
  for (auto [name, t] : {std::pair{"4k", m.tlb4k}, std::pair{"1m", m.tlb1m}}) {
    f.emplace_back(fmt::format("machine.tlb.{}.entries", name), fmt::format("{}", t.entries));
    f.emplace_back(fmt::format("machine.tlb.{}.ways", name), fmt::format("{}", t.ways));
  }
  f.emplace_back("machine.tlb.walk", fmt::format("{}", m.tlb_walk));
  return f;
}

std::string describe(const MachineConfig& m) {
  std::string out;
  for (const auto& [k, v] : fields(m)) out += k + "=" + v + "\n";
  return out;
}

// The z15 defaults, written out here so that a changed default fails a test.
const char* const kDefaults =
    "machine.arch=z196\n"
    "machine.istreams=1\n"
    "machine.clock=5.2\n"
    "machine.storage=1099511627776\n"
    "machine.placement_shift=0\n"
    "machine.host_storage_limit=17179869184\n"
    "machine.quantum=40\n"
    "machine.engine=compile\n"
    "machine.compile.block_length=64\n"
    "machine.compile.cache=67108864\n"
    "machine.skip_spin_loops=true\n"
    "machine.cache.l1.size=131072\n"
    "machine.cache.l1.ways=8\n"
    "machine.cache.l1.latency=4\n"
    "machine.cache.l2.size=4194304\n"
    "machine.cache.l2.ways=8\n"
    "machine.cache.l2.latency=16\n"
    "machine.cache.l3.size=268435456\n"
    "machine.cache.l3.ways=32\n"
    "machine.cache.l3.latency=50\n"
    "machine.memory_latency=350\n"
    "machine.coherence.transfer_latency=110\n"
    "machine.coherence.invalidate_latency=40\n"
    "machine.coherence.serialize_lines=true\n"
    "machine.tlb.4k.entries=2048\n"
    "machine.tlb.4k.ways=8\n"
    "machine.tlb.1m.entries=128\n"
    "machine.tlb.1m.ways=4\n"
    "machine.tlb.walk=60\n";

}  // namespace

// ---- Defaults ----------------------------------------------------------------------

TEST_CASE("an empty configuration gives the z15 defaults", "[config]") {
  CHECK(describe(emu::machine_config(Config(emu::machine_schema()))) == kDefaults);
  CHECK(describe(emu::load_machine_config({})) == kDefaults);
  CHECK(describe(emu::machine_config(from_yaml(""))) == kDefaults);
  CHECK(describe(emu::machine_config(from_yaml("# only a comment\n"))) == kDefaults);
  CHECK(describe(emu::machine_config(from_yaml("machine:\n"))) == kDefaults);
  CHECK(emu::load_machine_config({}).clock_ghz == 5.2);
}

TEST_CASE("the schema has one key per MachineConfig field, and the defaults come from it", "[config]") {
  const auto& schema = emu::machine_schema();
  const auto schema_defaults = fields(emu::machine_config(Config(schema)));
  REQUIRE(schema.keys().size() == schema_defaults.size());
  for (const auto& [key, value] : schema_defaults) CHECK(schema.find(key) != nullptr);
  CHECK(fields(emu::default_machine_config()) == schema_defaults);
}

// ---- Units ---------------------------------------------------------------------------

TEST_CASE("sizes: bytes, K/M/G/T powers of 1024 in either case, with optional B or iB", "[config]") {
  CHECK(cfg::parse_size("256") == 256);
  CHECK(cfg::parse_size("0") == 0);
  CHECK(cfg::parse_size("256B") == 256);
  CHECK(cfg::parse_size("4K") == 4096);
  CHECK(cfg::parse_size("4k") == 4096);
  CHECK(cfg::parse_size("4KB") == 4096);
  CHECK(cfg::parse_size("4KiB") == 4096);
  CHECK(cfg::parse_size("1M") == (1u << 20));
  CHECK(cfg::parse_size("1mB") == (1u << 20));
  CHECK(cfg::parse_size("16G") == (16ull << 30));
  CHECK(cfg::parse_size("1T") == (1ull << 40));
  CHECK(cfg::parse_size("1TiB") == (1ull << 40));
  CHECK(cfg::parse_size("1536K") == 1536 * 1024);
  CHECK(cfg::parse_size("16777215T") == (16777215ull << 40));

  for (const char* bad : {"", "K", "4 K", " 4K", "4K ", "4Kb", "4kb", "4b", "1.5M", "-1", "+4K", "4X", "4KK",
                          "0x100", "4KiBB", "4iB", "16E", "4M B"}) {
    INFO("\"" << bad << "\"");
    CHECK(error_of([&] { cfg::parse_size(bad); }) ==
          fmt::format("\"{}\" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)", bad));
  }
  CHECK(error_of([] { cfg::parse_size("16777216T"); }) == "\"16777216T\" is too large for a size");
  CHECK(error_of([] { cfg::parse_size("99999999999999999999"); }) ==
        "\"99999999999999999999\" is too large for a size");
}

TEST_CASE("frequencies: a decimal number with GHz, MHz, kHz or Hz, held in Hz", "[config]") {
  CHECK(cfg::parse_frequency_hz("5.2GHz") == 5200000000ull);
  CHECK(cfg::parse_frequency_hz("5GHz") == 5000000000ull);
  CHECK(cfg::parse_frequency_hz("5.20GHz") == 5200000000ull);
  CHECK(cfg::parse_frequency_hz("5200MHz") == 5200000000ull);
  CHECK(cfg::parse_frequency_hz("800MHz") == 800000000ull);
  CHECK(cfg::parse_frequency_hz("1.5kHz") == 1500);
  CHECK(cfg::parse_frequency_hz("100Hz") == 100);
  CHECK(cfg::parse_frequency_hz("1.000000000000GHz") == 1000000000ull);
  CHECK(cfg::parse_frequency_hz("0.000000001GHz") == 1);

  for (const char* bad : {"", "5.2", "5.2 GHz", "5.2 Ghz", "5.2ghz", "5.2Ghz", "5.2GHZ", "GHz", ".5GHz", "5.GHz",
                          "5,2GHz", "-1GHz", "5.2GHz ", "5.2THz", "5e9Hz"}) {
    INFO("\"" << bad << "\"");
    CHECK(error_of([&] { cfg::parse_frequency_hz(bad); }) ==
          fmt::format("\"{}\" is not a frequency (use e.g. 5.2GHz or 800MHz)", bad));
  }
  CHECK(error_of([] { cfg::parse_frequency_hz("0.5Hz"); }) == "\"0.5Hz\" is finer than 1 Hz");
  CHECK(error_of([] { cfg::parse_frequency_hz("1.0000000001GHz"); }) == "\"1.0000000001GHz\" is finer than 1 Hz");
  CHECK(error_of([] { cfg::parse_frequency_hz("99999999999GHz"); }) == "\"99999999999GHz\" is too large for a frequency");
}

TEST_CASE("cycles, integers and bools", "[config]") {
  CHECK(cfg::parse_cycles("40") == 40);
  CHECK(cfg::parse_cycles("0") == 0);
  CHECK(cfg::parse_cycles("007") == 7);
  for (const char* bad : {"", "40c", "40 cycles", "4.0", "-1", "+1", " 40", "1e3", "1_000"}) {
    INFO("\"" << bad << "\"");
    CHECK(error_of([&] { cfg::parse_cycles(bad); }) ==
          fmt::format("\"{}\" is not a whole number of cycles (use e.g. 40)", bad));
  }
  CHECK(error_of([] { cfg::parse_cycles("18446744073709551616"); }) ==
        "\"18446744073709551616\" is too large for a number of cycles");

  CHECK(cfg::parse_integer("8") == 8);
  CHECK(cfg::parse_integer("-3") == -3);
  CHECK(cfg::parse_integer("-9223372036854775808") == INT64_MIN);
  for (const char* bad : {"", "-", "8.5", "+8", "8 ", "0x10", "eight"}) {
    INFO("\"" << bad << "\"");
    CHECK(error_of([&] { cfg::parse_integer(bad); }) == fmt::format("\"{}\" is not a whole number (use e.g. 8)", bad));
  }
  CHECK(error_of([] { cfg::parse_integer("9223372036854775808"); }) ==
        "\"9223372036854775808\" is too large for a whole number");

  CHECK(cfg::parse_bool("true"));
  CHECK(cfg::parse_bool("True"));
  CHECK_FALSE(cfg::parse_bool("FALSE"));
  for (const char* bad : {"yes", "no", "1", "0", "on", ""}) {
    INFO("\"" << bad << "\"");
    CHECK(error_of([&] { cfg::parse_bool(bad); }) == fmt::format("\"{}\" is not true or false", bad));
  }
}

TEST_CASE("sizes and frequencies print in their shortest exact form and parse back", "[config]") {
  CHECK(cfg::format_size(0) == "0");
  CHECK(cfg::format_size(300) == "300");
  CHECK(cfg::format_size(4096) == "4K");
  CHECK(cfg::format_size(1536 * 1024) == "1536K");
  CHECK(cfg::format_size(256ull << 20) == "256M");
  CHECK(cfg::format_size(1ull << 40) == "1T");
  CHECK(cfg::format_frequency(5200000000ull) == "5.2GHz");
  CHECK(cfg::format_frequency(800000000ull) == "800MHz");
  CHECK(cfg::format_frequency(1500) == "1.5kHz");
  CHECK(cfg::format_frequency(7) == "7Hz");
  CHECK(cfg::format_frequency(0) == "0Hz");
  for (uint64_t v : {0ull, 1ull, 1000ull, 4096ull, 1536ull << 10, 3ull << 40, 123456789ull}) {
    CHECK(cfg::parse_size(cfg::format_size(v)) == v);
    CHECK(cfg::parse_frequency_hz(cfg::format_frequency(v)) == v);
  }
}

// ---- Errors in a file: place, key, problem ---------------------------------------------

TEST_CASE("an unknown key names its line and path and suggests the near miss", "[config]") {
  CHECK(yaml_error("machine:\n"
                   "  istreams: 2\n"
                   "  cache:\n"
                   "    l1:\n"
                   "      size: 64K\n"
                   "      sise: 64K\n") ==
        "configs/x.yaml:6: machine.cache.l1.sise: unknown key (did you mean size?)");
  CHECK(yaml_error("machine:\n  Istreams: 2\n") == "configs/x.yaml:2: machine.Istreams: unknown key (did you mean istreams?)");
  CHECK(yaml_error("machine:\n  memory_latncy: 300\n") ==
        "configs/x.yaml:2: machine.memory_latncy: unknown key (did you mean memory_latency?)");
  CHECK(yaml_error("machine:\n  cache:\n    l4: {size: 1G}\n") ==
        "configs/x.yaml:3: machine.cache.l4: unknown key (known here: l1, l2, l3)");
  CHECK(yaml_error("machine:\n  frobnicate: 1\n") ==
        "configs/x.yaml:2: machine.frobnicate: unknown key (known here: arch, istreams, clock, storage, placement_shift, host_storage_limit, quantum, engine, compile, skip_spin_loops, cache, "
        "memory_latency, coherence, tlb)");
}

TEST_CASE("an unknown top-level section is an error too", "[config]") {
  CHECK(yaml_error("mahcine:\n  istreams: 2\n") == "configs/x.yaml:1: mahcine: unknown section (did you mean machine?)");
  CHECK(yaml_error("machine:\n  istreams: 2\nworkload:\n  rate: 5\n") ==
        "configs/x.yaml:3: workload: unknown section (known sections: machine)");
}

TEST_CASE("a value out of range names the range", "[config]") {
  CHECK(yaml_error("\n\n\n\n\n\nmachine: {istreams: 65}\n") == "configs/x.yaml:7: machine.istreams: 65 is out of range 1..64");
  CHECK(yaml_error("machine:\n  istreams: 0\n") == "configs/x.yaml:2: machine.istreams: 0 is out of range 1..64");
  CHECK(yaml_error("machine:\n  storage: 32T\n") == "configs/x.yaml:2: machine.storage: 32T is out of range 16M..16T");
  CHECK(yaml_error("machine:\n  storage: 8M\n") == "configs/x.yaml:2: machine.storage: 8M is out of range 16M..16T");
  CHECK(yaml_error("machine:\n  host_storage_limit: 1M\n") ==
        "configs/x.yaml:2: machine.host_storage_limit: 1M is out of range 64M..16T");
  CHECK(yaml_error("machine:\n  clock: 20GHz\n") == "configs/x.yaml:2: machine.clock: 20GHz is out of range 1MHz..10GHz");
  CHECK(yaml_error("machine:\n  cache:\n    l1:\n      ways: 257\n") ==
        "configs/x.yaml:4: machine.cache.l1.ways: 257 is out of range 1..256");
  CHECK(yaml_error("machine:\n  quantum: 0\n") == "configs/x.yaml:2: machine.quantum: 0 is out of range 1..1000000");
}

TEST_CASE("a bad unit names the value and shows the form to use", "[config]") {
  CHECK(yaml_error("\n\n\n\n\n\n\n\nmachine:\n  clock: 5.2 Ghz\n") ==
        "configs/x.yaml:10: machine.clock: \"5.2 Ghz\" is not a frequency (use e.g. 5.2GHz or 800MHz)");
  CHECK(yaml_error("machine:\n  clock: \"5.2 Ghz\"\n") ==
        "configs/x.yaml:2: machine.clock: \"5.2 Ghz\" is not a frequency (use e.g. 5.2GHz or 800MHz)");
  CHECK(yaml_error("machine:\n  clock: 5.2\n") ==
        "configs/x.yaml:2: machine.clock: \"5.2\" is not a frequency (use e.g. 5.2GHz or 800MHz)");
  CHECK(yaml_error("machine:\n  storage: 1 TB\n") ==
        "configs/x.yaml:2: machine.storage: \"1 TB\" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)");
  CHECK(yaml_error("machine:\n  cache: {l2: {size: 4Mb}}\n") ==
        "configs/x.yaml:2: machine.cache.l2.size: \"4Mb\" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)");
  CHECK(yaml_error("machine:\n  quantum: 40cycles\n") ==
        "configs/x.yaml:2: machine.quantum: \"40cycles\" is not a whole number of cycles (use e.g. 40)");
  CHECK(yaml_error("machine:\n  istreams: eight\n") ==
        "configs/x.yaml:2: machine.istreams: \"eight\" is not a whole number (use e.g. 8)");
}

TEST_CASE("a map or a sequence where a value belongs, and a value where a section belongs", "[config]") {
  CHECK(yaml_error("machine:\n  istreams:\n    count: 4\n") ==
        "configs/x.yaml:2: machine.istreams: expected a whole number, got a map");
  CHECK(yaml_error("machine:\n  clock: [5, GHz]\n") == "configs/x.yaml:2: machine.clock: expected a frequency, got a sequence");
  CHECK(yaml_error("machine:\n  istreams:\n") == "configs/x.yaml:2: machine.istreams: no value given (the default is 1)");
  CHECK(yaml_error("machine:\n  istreams: \"\"\n") ==
        "configs/x.yaml:2: machine.istreams: no value given (the default is 1)");
  CHECK(yaml_error("machine:\n  cache: 64K\n") ==
        "configs/x.yaml:2: machine.cache: expected a map of keys (l1, l2, l3), got a scalar");
  CHECK(yaml_error("machine:\n  tlb:\n    - 4k\n") ==
        "configs/x.yaml:3: machine.tlb: expected a map of keys (4k, 1m, walk), got a sequence");
  CHECK(yaml_error("machine: 4\n") ==
        "configs/x.yaml:1: machine: expected a map of keys (arch, istreams, clock, storage, placement_shift, host_storage_limit, quantum, engine, compile, skip_spin_loops, cache, "
        "memory_latency, "
        "coherence, tlb), got a scalar");
  CHECK(yaml_error("- machine\n") == "configs/x.yaml:1: the top level must be a map of sections (machine:), got a sequence");
  CHECK(yaml_error("machine:\n  ? [a, b]\n  : 1\n") == "configs/x.yaml:2: machine: a key must be a plain name, got a sequence");
}

TEST_CASE("a key given twice is an error, whichever way it is spelled", "[config]") {
  CHECK(yaml_error("machine:\n  istreams: 2\n  clock: 5GHz\n  istreams: 4\n") ==
        "configs/x.yaml:4: machine.istreams: duplicate key (first at line 2)");
  CHECK(yaml_error("machine:\n  istreams: 2\nmachine.istreams: 4\n") ==
        "configs/x.yaml:3: machine.istreams: set twice (first at configs/x.yaml:2)");
}

TEST_CASE("dotted keys in the file are the same keys", "[config]") {
  MachineConfig m = emu::machine_config(from_yaml("machine:\n  cache.l1.size: 64K\nmachine.tlb.walk: 90\n"));
  CHECK(m.l1.size == 64 * 1024);
  CHECK(m.tlb_walk == 90);
}

TEST_CASE("YAML syntax errors name the line", "[config]") {
  CHECK(yaml_error("machine:\n  istreams: 2\n  clock: [5.2GHz\n") ==
        "configs/x.yaml:4: YAML syntax error: end of sequence flow not found (column 1)");
  CHECK(yaml_error("machine:\n  istreams: 2\n clock: 5.2GHz\n") ==
        "configs/x.yaml:3: YAML syntax error: end of map not found (column 2)");
  CHECK(yaml_error("machine:\n  istreams: 2\n  clock: 5.2GHz: 4\n") ==
        "configs/x.yaml:3: YAML syntax error: illegal map value (column 16)");
  CHECK(yaml_error("machine:\n  istreams: 2\n---\nmachine:\n  istreams: 3\n") ==
        "configs/x.yaml:4: more than one YAML document; put every section in the first");
}

TEST_CASE("a missing file is an error naming it", "[config]") {
  CHECK(error_of([] { emu::load_machine_config({"configs/does-not-exist.yaml"}); }) ==
        "configs/does-not-exist.yaml: cannot open: No such file or directory");
}

// ---- --set overrides ------------------------------------------------------------------

TEST_CASE("--set overrides a default and a file", "[config]") {
  MachineConfig m = emu::load_machine_config({}, {"machine.istreams=8", "machine.clock=800MHz",
                                                  "machine.cache.l2.size=2M", " machine.quantum = 20 "});
  CHECK(m.istreams == 8);
  CHECK(m.clock_ghz == 0.8);
  CHECK(m.l2.size == 2u << 20);
  CHECK(m.quantum == 20);

  // The last word wins: a file, then the overrides in order.
  m = emu::load_machine_config({kExample}, {"machine.istreams=4", "machine.istreams=16"});
  CHECK(m.istreams == 16);
  Config c = cfg::load_config(emu::machine_schema(), {kExample}, {"machine.tlb.walk=80"});
  CHECK(c.origin("machine.tlb.walk") == "--set");
  CHECK(c.text("machine.tlb.walk") == "80");
  CHECK(c.origin("machine.tlb.1m.ways").rfind(kExample + ":", 0) == 0);
}

TEST_CASE("a bad --set names the key and the problem", "[config]") {
  CHECK(set_error({"machine.istreams=65"}) == "--set: machine.istreams: 65 is out of range 1..64");
  CHECK(set_error({"machine.clock=5.2 Ghz"}) ==
        "--set: machine.clock: \"5.2 Ghz\" is not a frequency (use e.g. 5.2GHz or 800MHz)");
  CHECK(set_error({"machine.cache.l1.sise=64K"}) == "--set: machine.cache.l1.sise: unknown key (did you mean size?)");
  CHECK(set_error({"machine.cahce.l1.size=64K"}) ==
        "--set: machine.cahce.l1.size: unknown key cahce (did you mean machine.cache?)");
  CHECK(set_error({"mahcine.istreams=2"}) == "--set: mahcine.istreams: unknown section mahcine (did you mean machine?)");
  CHECK(set_error({"system.seed=1"}) == "--set: system.seed: unknown section system (known sections: machine)");
  CHECK(set_error({"machine.cache=64K"}) == "--set: machine.cache: is a section, not a key (keys below it: l1, l2, l3)");
  CHECK(set_error({"machine.istreams.count=2"}) == "--set: machine.istreams.count: machine.istreams is a key, not a section");
  CHECK(set_error({"machine.istreams"}) == "--set: \"machine.istreams\" is not key=value (e.g. machine.istreams=8)");
  CHECK(set_error({"machine.istreams="}) == "--set: machine.istreams: no value given (the default is 1)");
  CHECK(set_error({"=8"}) == "--set: \"=8\" is not key=value (e.g. machine.istreams=8)");
}

// ---- Cross-field checks -----------------------------------------------------------------

TEST_CASE("the quantum must stay below a line transfer, and the error says why", "[config]") {
  const std::string why =
      "a longer quantum lets an I-stream run past the moment another I-stream's line transfer completes, which "
      "distorts lock hand-offs";
  CHECK(yaml_error("machine:\n  istreams: 4\n  quantum: 110\n") ==
        "configs/x.yaml:3: machine.quantum: the quantum (110 cycles) must be less than the line-transfer latency "
        "machine.coherence.transfer_latency (110 cycles): " + why);
  // When only the transfer latency was set, it is the key named.
  CHECK(yaml_error("machine:\n  coherence:\n    transfer_latency: 30\n") ==
        "configs/x.yaml:3: machine.coherence.transfer_latency: the quantum (40 cycles) must be less than the "
        "line-transfer latency machine.coherence.transfer_latency (30 cycles): " + why);
  CHECK(set_error({"machine.quantum=500"}) ==
        "--set: machine.quantum: the quantum (500 cycles) must be less than the line-transfer latency "
        "machine.coherence.transfer_latency (110 cycles): " + why);
  // Fixed by a later override: checks run after everything is in.
  CHECK(set_error({"machine.quantum=500", "machine.coherence.transfer_latency=600"}) == "(no error)");
  CHECK(emu::load_machine_config({}, {"machine.quantum=109"}).quantum == 109);
}

TEST_CASE("cache and TLB geometry must give whole sets", "[config]") {
  CHECK(yaml_error("machine:\n  cache:\n    l1:\n      ways: 7\n") ==
        "configs/x.yaml:4: machine.cache.l1.ways: 128K with 7 ways is not a whole number of sets: the size must be a "
        "multiple of ways x 256-byte line = 1792");
  CHECK(yaml_error("machine:\n  cache:\n    l2:\n      size: 4097K\n") ==
        "configs/x.yaml:4: machine.cache.l2.size: 4097K with 8 ways is not a whole number of sets: the size must be a "
        "multiple of ways x 256-byte line = 2K");
  CHECK(yaml_error("machine:\n  cache:\n    l1: {size: 1K, ways: 8}\n") ==
        "configs/x.yaml:3: machine.cache.l1.size: 1K with 8 ways is not a whole number of sets: the size must be a "
        "multiple of ways x 256-byte line = 2K");
  // Real IBM geometries that are not powers of two in size are accepted.
  MachineConfig m = emu::machine_config(from_yaml(
      "machine:\n  cache:\n    l1: {size: 96K, ways: 6}\n    l2: {size: 1536K, ways: 12}\n    l3: {size: 960M, ways: 60}\n"));
  CHECK(m.l1.size == 96 * 1024);
  CHECK(m.l3.ways == 60);

  CHECK(yaml_error("machine:\n  tlb:\n    4k:\n      entries: 100\n") ==
        "configs/x.yaml:4: machine.tlb.4k.entries: 100 entries do not divide into sets of 8 ways (entries must be a "
        "multiple of ways)");
  CHECK(set_error({"machine.tlb.1m.ways=256"}) ==
        "--set: machine.tlb.1m.ways: 128 entries do not divide into sets of 256 ways (entries must be a multiple of "
        "ways)");
  CHECK(emu::load_machine_config({}, {"machine.tlb.1m.ways=128"}).tlb1m.ways == 128);  // fully associative
}

TEST_CASE("each cache level is at least as large and as slow as the one inside it", "[config]") {
  CHECK(yaml_error("machine:\n  cache:\n    l2: {size: 64K}\n") ==
        "configs/x.yaml:3: machine.cache.l2.size: the L2 (64K) is smaller than the L1 (128K); each level must hold "
        "at least what the level inside it holds");
  CHECK(yaml_error("machine:\n  cache:\n    l3:\n      latency: 10\n") ==
        "configs/x.yaml:4: machine.cache.l3.latency: the L3 latency (10 cycles) is less than the L2 latency (16 "
        "cycles); a level further out cannot be faster than the one inside it");
  CHECK(yaml_error("machine:\n  cache:\n    l1:\n      latency: 20\n") ==
        "configs/x.yaml:4: machine.cache.l1.latency: the L2 latency (16 cycles) is less than the L1 latency (20 "
        "cycles); a level further out cannot be faster than the one inside it");
  CHECK(set_error({"machine.memory_latency=40"}) ==
        "--set: machine.memory_latency: the memory latency (40 cycles) is less than the L3 latency (50 cycles); a "
        "level further out cannot be faster than the one inside it");
  CHECK(set_error({"machine.cache.l1.latency=8", "machine.coherence.transfer_latency=6", "machine.quantum=4"}) ==
        "--set: machine.coherence.transfer_latency: the line-transfer latency (6 cycles) is less than the L1 latency "
        "(8 cycles); taking a line from another I-stream cannot cost less than an L1 hit");
}

TEST_CASE("storage is whole 1 MB frames", "[config]") {
  CHECK(set_error({"machine.storage=16385K"}) == "--set: machine.storage: 16385K is not a whole number of 1M frames");
  CHECK(emu::load_machine_config({}, {"machine.storage=1536G"}).storage == 1536ull << 30);
}

TEST_CASE("the placement shift is whole pages, well inside storage", "[config]") {
  CHECK(set_error({"machine.placement_shift=6K"}) == "--set: machine.placement_shift: 6K is not a whole number of 4K pages");
  CHECK(set_error({"machine.storage=64M", "machine.placement_shift=32M"}) ==
        "--set: machine.placement_shift: 32M is more than a quarter of machine.storage (64M)");
  CHECK(emu::load_machine_config({}, {"machine.placement_shift=1028K"}).placement_shift == 1028ull << 10);
}

TEST_CASE("machine_config refuses a Config that fails its checks", "[config]") {
  Config c(emu::machine_schema());
  c.set("machine.quantum=200");
  CHECK(error_of([&] { emu::machine_config(c); }).rfind("--set: machine.quantum: the quantum (200 cycles)", 0) == 0);
}

// ---- The schema ---------------------------------------------------------------------------

TEST_CASE("every key has a description, a default, a unit and a source, and the listing shows them", "[config]") {
  const auto& schema = emu::machine_schema();
  std::ostringstream listing;
  schema.write_listing(listing);
  const std::string text = listing.str();
  REQUIRE(schema.keys().size() == 29);
  for (const auto& k : schema.keys()) {
    INFO(k.path);
    CHECK(!k.description.empty());
    CHECK(!k.default_value.empty());
    CHECK(!k.unit.empty());
    CHECK(!k.source.empty());
    if (k.type == cfg::ValueType::Enum) {  // a choice: its values instead of a range
      CHECK(!k.choices.empty());
    } else if (k.type != cfg::ValueType::Bool) {  // a switch has no range
      CHECK(!k.min.empty());
      CHECK(!k.max.empty());
    }
    CHECK(text.find("\n" + k.path + " = " + k.default_value + "\n    " + k.description + "\n") != std::string::npos);
    CHECK(text.find("    source: " + k.source + "\n") != std::string::npos);
  }
  CHECK(text.find("\nmachine.clock = 5.2GHz\n"
                  "    Clock rate of every I-stream; turns cycles into simulated time.\n"
                  "    frequency, GHz, 1MHz..10GHz\n"
                  "    source: z15: 5.2 GHz (IBM z15 Technical Guide, SG24-8851).\n") != std::string::npos);
  CHECK(text.find("\n[machine.cache.l1] L1 data cache, private to each I-stream.\n") != std::string::npos);
  CHECK(schema.check_count() == 7);
}

TEST_CASE("a declaration that is wrong is a programming error", "[config]") {
  using cfg::KeyDecl;
  using cfg::ValueType;
  auto decl = [](std::string path, ValueType t, std::string def) {
    return KeyDecl{.path = std::move(path), .type = t, .default_value = std::move(def), .description = "d"};
  };
  cfg::Schema s;
  s.add(decl("sec.a", ValueType::Integer, "1"));
  CHECK_THROWS_AS(s.add(decl("sec.a", ValueType::Integer, "1")), std::logic_error);        // twice
  CHECK_THROWS_AS(s.add(decl("sec.a.b", ValueType::Integer, "1")), std::logic_error);      // under a key
  CHECK_THROWS_AS(s.add(decl("sec", ValueType::Integer, "1")), std::logic_error);          // not in a section
  CHECK_THROWS_AS(s.add(decl("sec.Big", ValueType::Integer, "1")), std::logic_error);      // upper case
  CHECK_THROWS_AS(s.add(decl("sec.b", ValueType::Size, "4 K")), std::logic_error);         // bad default
  CHECK_THROWS_AS(s.add(decl("sec.b", ValueType::Integer, "")), std::logic_error);         // no default
  CHECK_THROWS_AS(s.add(KeyDecl{.path = "sec.b", .default_value = "1"}), std::logic_error);  // no description
  CHECK_THROWS_AS(s.add(KeyDecl{.path = "sec.b", .default_value = "9", .min = "1", .max = "8", .description = "d"}),
                  std::logic_error);  // default out of range
  CHECK_THROWS_AS(s.add(KeyDecl{.path = "sec.b", .default_value = "1", .min = "8", .max = "1", .description = "d"}),
                  std::logic_error);  // min above max
  CHECK_THROWS_AS(s.add(decl("sec.e", ValueType::Enum, "x")), std::logic_error);  // enum without choices
  s.add(decl("sec.sub.x", ValueType::Integer, "1"));
  s.add(decl("other.y", ValueType::Integer, "1"));
  CHECK_THROWS_AS(s.add(decl("sec.z", ValueType::Integer, "1")), std::logic_error);  // section sec is closed
  CHECK(s.keys().size() == 3);
  CHECK_THROWS_AS(s.describe("nope", "x"), std::logic_error);
  Config c(s);
  CHECK_THROWS_AS(c.get_uint("sec.a"), std::logic_error);  // an integer, not a size
  CHECK_THROWS_AS(c.get_int("sec.nope"), std::logic_error);
}

TEST_CASE("other sections plug in beside machine: with every type", "[config]") {
  using cfg::KeyDecl;
  using cfg::ValueType;
  cfg::Schema s;
  emu::declare_machine_schema(s);
  s.add({.path = "test.seed", .type = ValueType::Integer, .default_value = "-1", .min = "-1", .description = "seed"});
  s.add({.path = "test.policy",
         .type = ValueType::Enum,
         .default_value = "lru",
         .choices = {"lru", "plru", "random"},
         .description = "policy"});
  s.add({.path = "test.trace", .type = ValueType::Bool, .default_value = "false", .description = "trace"});
  s.add({.path = "test.name", .type = ValueType::String, .default_value = "run", .description = "name"});
  s.check("seed and trace", [](const Config& c) {
    if (c.get_bool("test.trace") && c.get_int("test.seed") < 0)
      throw c.error({"test.trace", "test.seed"}, "tracing needs a seed");
  });

  Config c(s);
  c.load_yaml("machine: {istreams: 2}\ntest:\n  seed: 7\n  policy: plru\n  trace: True\n  name: 'a: b'\n", "t.yaml");
  c.validate();
  CHECK(emu::machine_config(c).istreams == 2);
  CHECK(c.get_int("test.seed") == 7);
  CHECK(c.get_string("test.policy") == "plru");
  CHECK(c.get_bool("test.trace"));
  CHECK(c.get_string("test.name") == "a: b");
  CHECK(c.origin("test.seed") == "t.yaml:3");
  CHECK(c.is_default("machine.clock"));

  auto err = [&](const std::string& yaml) {
    return error_of([&] {
      Config d(s);
      d.load_yaml(yaml, "t.yaml");
      d.validate();
    });
  };
  CHECK(err("test:\n  policy: pLRU\n") == "t.yaml:2: test.policy: \"pLRU\" is not one of: lru, plru, random (did you mean plru?)");
  CHECK(err("test:\n  policy: fifo\n") == "t.yaml:2: test.policy: \"fifo\" is not one of: lru, plru, random");
  CHECK(err("test:\n  trace: yes\n") == "t.yaml:2: test.trace: \"yes\" is not true or false");
  CHECK(err("test:\n  seed: -2\n") == "t.yaml:2: test.seed: -2 is below the minimum -1");
  CHECK(err("test:\n  trace: true\n") == "t.yaml:2: test.trace: tracing needs a seed");
  CHECK(err("tset: {}\n") == "t.yaml:1: tset: unknown section (did you mean test?)");

  std::ostringstream example;
  s.write_example(example);
  Config round(s);
  round.load_yaml(example.str(), "example");
  round.validate();
  for (const auto& k : s.keys()) {
    INFO(k.path);
    CHECK(round.text(k.path) == k.default_value);
    CHECK(round.origin(k.path).rfind("example:", 0) == 0);
  }
  CHECK(round.get_string("test.name") == "run");
}

// ---- Determinism and the example file ------------------------------------------------------

TEST_CASE("loading the same configuration twice gives the same values and the same listing", "[config]") {
  const std::vector<std::string> sets = {"machine.istreams=12", "machine.clock=5.5GHz"};
  MachineConfig a = emu::load_machine_config({kExample}, sets), b = emu::load_machine_config({kExample}, sets);
  CHECK(describe(a) == describe(b));
  CHECK(a.clock_ghz == 5.5);
  std::ostringstream l1, l2;
  emu::machine_schema().write_listing(l1);
  emu::machine_schema().write_listing(l2);
  CHECK(l1.str() == l2.str());
}

TEST_CASE("configs/machine-z15.yaml sets every machine key to its default", "[config]") {
  Config c = cfg::load_config(emu::machine_schema(), {kExample});
  CHECK(describe(emu::machine_config(c)) == kDefaults);
  for (const auto& k : emu::machine_schema().keys()) {
    INFO(k.path);
    CHECK(c.origin(k.path).rfind(kExample + ":", 0) == 0);  // set by the file, not left to the default
    CHECK(c.text(k.path) == k.default_value);
  }
}

TEST_CASE("configs/machine-z15.yaml is the schema's own example (descriptions, units, sources)", "[config]") {
  std::ifstream in(kExample);
  REQUIRE(in);
  std::stringstream file;
  file << in.rdbuf();
  // The leading comment block is free text; the rest is generated from the schema.
  std::istringstream lines(file.str());
  std::string header, line;
  while (std::getline(lines, line) && line.rfind("#", 0) == 0)
    header += (line.size() > 2 ? line.substr(2) : std::string()) + "\n";
  std::ostringstream expected;
  emu::machine_schema().write_example(expected, header);
  if (expected.str() != file.str()) {
    const std::string fresh = (std::filesystem::path(TPFEMU_TEST_OUT_DIR) / "machine-z15.yaml.expected").string();
    std::ofstream(fresh) << expected.str();
    FAIL("configs/machine-z15.yaml differs from the schema; the expected text is in " << fresh
                                                                                       << " ");
  }
}

TEST_CASE("a relative path is looked for in its YAML file's folder, then in the fallback folder", "[config]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / fmt::format("tpfemu-paths-{}", getpid());
  fs::remove_all(root);
  fs::create_directories(root / "cfg");
  fs::create_directories(root / "guest");
  for (const fs::path& p : {root / "cfg" / "both.elf", root / "guest" / "both.elf", root / "guest" / "guest.elf"})
    std::ofstream(p) << "x";
  cfg::Schema s;
  s.add({.path = "sec.file", .type = cfg::ValueType::Path, .default_value = "guest.elf", .unit = "path",
         .description = "a file"});
  const std::string yaml = (root / "cfg" / "run.yaml").string();
  const std::string cfg = (root / "cfg").string(), guest = (root / "guest").string();
  auto from = [&](const std::string& value) {
    std::ofstream(yaml) << "sec:\n  file: " << value << "\n";
    Config c(s);
    c.load_file(yaml);
    return c;
  };
  CHECK(from("both.elf").get_path("sec.file", guest) == cfg + "/both.elf");  // the file's folder first
  CHECK(from("guest.elf").get_path("sec.file", guest) == guest + "/guest.elf");  // then the fallback
  CHECK(from("../guest/guest.elf").get_path("sec.file", guest) == cfg + "/../guest/guest.elf");
  CHECK(from("/no/such/file").get_path("sec.file", guest) == "/no/such/file");  // absolute: as it is
  CHECK(from("both.elf").get_string("sec.file") == "both.elf");                 // as written
  CHECK(error_of([&] { from("none.elf").get_path("sec.file", guest); }) ==
        yaml + ":2: sec.file: none.elf: not found (looked in " + cfg + "/, " + guest + "/)");

  // A default was set by no file: only the fallback.
  Config d(s);
  CHECK(d.get_path("sec.file", guest) == guest + "/guest.elf");
  CHECK(error_of([&] { d.get_path("sec.file", cfg); }) ==
        "sec.file: guest.elf (the default): not found (looked in " + cfg + "/)");

  // --set: the current directory (what a user typing it means), then the fallback.
  const fs::path before = fs::current_path();
  fs::current_path(cfg);
  Config e(s);
  e.set("sec.file=both.elf");
  const std::string here = e.get_path("sec.file", guest);
  e.set("sec.file=guest.elf");
  const std::string there = e.get_path("sec.file", guest);
  e.set("sec.file=none.elf");
  const std::string none = error_of([&] { e.get_path("sec.file", guest); });
  fs::current_path(before);
  CHECK(here == "both.elf");
  CHECK(there == guest + "/guest.elf");
  CHECK(none == "--set: sec.file: none.elf: not found (looked in ./, " + guest + "/)");
  fs::remove_all(root);
}

namespace {
// A small schema with a nested section, a string, a path and a list (for the record).
cfg::Schema record_schema() {
  using T = cfg::ValueType;
  cfg::Schema s;
  s.add({.path = "box.count", .type = T::Integer, .default_value = "2", .description = "count", .source = "s"});
  s.add({.path = "box.inner.size", .type = T::Size, .default_value = "4K", .description = "size", .source = "s"});
  s.add({.path = "box.name", .type = T::String, .default_value = "plain", .description = "name", .source = "s"});
  s.add({.path = "box.file", .type = T::Path, .default_value = "(none)", .description = "file", .source = "s"});
  s.add_list({.name = "steps",
              .fields = {{.path = "at", .type = T::Duration, .default_value = "", .description = "when"},
                         {.path = "what", .type = T::String, .default_value = "go", .description = "what"}},
              .description = "steps"});
  return s;
}
}  // namespace

TEST_CASE("the effective configuration: every key with where its value came from, loadable again", "[config]") {
  const cfg::Schema schema = record_schema();
  Config c(schema);
  c.load_yaml("box:\n  inner:\n    size: 8K\n  name: 'say \"hi\" # now'\nsteps:\n  - at: 2ms\n", "runs/x.yaml");
  c.set("box.count=7");
  std::ostringstream out;
  c.write_effective(out, [](std::string_view key) { return key == "box.file" ? std::string("/abs/f") : std::string(); });
  // A value's comment starts in column 49 (after at least two spaces).
  auto line = [](std::string body, const std::string& where) {
    body.resize(std::max<size_t>(body.size() + 2, 48), ' ');
    return body + "# " + where + "\n";
  };
  const std::string expected = "box:\n" + line("  count: 7", "--set") + "  inner:\n" +
                               line("    size: 8K", "runs/x.yaml:3") +
                               line("  name: \"say \\\"hi\\\" # now\"", "runs/x.yaml:4") +
                               line("  file: \"/abs/f\"", "default, written (none)") + "steps:\n" +
                               line("  - at: 2ms", "runs/x.yaml:6") + line("    what: \"go\"", "default");
  CHECK(out.str() == expected);

  // Loaded back, every value is the same (the path as it was shown), each from the record.
  Config again(schema);
  again.load_yaml(out.str(), "record.yaml");
  for (const cfg::KeyDecl& k : schema.keys())
    if (k.path != "box.file") CHECK(again.value(k.path) == c.value(k.path));
  CHECK(again.get_string("box.file") == "/abs/f");
  CHECK(again.origin("box.inner.size") == "record.yaml:4");
  REQUIRE(again.list("steps").size() == 1);
  CHECK(again.list("steps")[0].get_uint("at") == 2000000);

  // Same input, same bytes.
  std::ostringstream twice;
  c.write_effective(twice, [](std::string_view key) { return key == "box.file" ? std::string("/abs/f") : std::string(); });
  CHECK(twice.str() == out.str());

  // No list entries: an empty list, marked as the default.
  std::ostringstream defaults;
  Config(schema).write_effective(defaults);
  CHECK_THAT(defaults.str(), Catch::Matchers::EndsWith(line("steps: []", "default")));
}

// Issue 16: deep nesting said only "bad file", a NUL in a value "unknown escape
// character" (with a wrong line, or the message cut at the NUL).
TEST_CASE("deep nesting and control characters are named with their place", "[config]") {
  CHECK(yaml_error("machine:\n  istreams: " + std::string(600, '[') + "1" + std::string(600, ']') + "\n") ==
        "configs/x.yaml:2: YAML nested 500 levels deep, as deep as the parser goes: no configuration needs more "
        "than a few");
  CHECK(yaml_error("machine:\n  istreams: \"4\\0\"\n") ==
        "configs/x.yaml:2: machine.istreams: a NUL byte at character 2 of the value: a value cannot hold control "
        "characters");
  CHECK(yaml_error(std::string("machine:\n  clock: 5 GHz\0\n", 25)) ==
        "configs/x.yaml:2: YAML syntax error: a NUL byte (column 15): YAML text cannot hold control characters (a "
        "binary file?)");
  CHECK(set_error({std::string("machine.istreams=4\x01") + "8"}) ==
        "--set: machine.istreams: control character 0x01 at character 2 of the value: a value cannot hold control "
        "characters");
  CHECK_NOTHROW(from_yaml("machine:\r\n  istreams: 2  # a comment\twith a tab\r\n"));  // line ends, tabs: fine
}

TEST_CASE("machine.arch: the default is z196; the levels z10 to z15 are accepted, others named", "[config][arch]") {
  CHECK(emu::default_machine_config().arch == emu::Generation::Z196);
  CHECK(emu::machine_config(from_yaml("machine:\n  arch: z15\n")).arch == emu::Generation::Z15);
  CHECK(emu::machine_config(from_yaml("machine:\n  arch: zEC12\n")).arch == emu::Generation::ZEC12);
  CHECK_THAT(yaml_error("machine:\n  arch: z16\n"), Catch::Matchers::Contains("machine.arch"));
}
