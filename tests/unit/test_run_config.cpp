// The run configuration (os/run_config.cpp): the `system:` and `workload:` sections
// beside `machine:`, their defaults, every error path with its place and key, the
// cross-field checks, --set overrides and the example files in configs/. Also the
// generic duration unit of emu/config (1ms, 500us, 2s, 0.5ms).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "app/subsystems.h"
#include "config/config.h"
#include "config/number_text.h"
#include "heap/ecb_heap.h"
#include "lock/lock_subsystem.h"
#include "os/run_config.h"
#include "os/ztrap_subsystem.h"

namespace {

using cfg::Config;
using cfg::ConfigError;

const std::string kConfigs = std::string(TPFEMU_SOURCE_DIR) + "/configs/";
const std::string kReference = kConfigs + "system-reference.yaml";

// The .yaml files of a folder of configs/ that git tracks (tests/source_tree.py's rule): a
// user's own configuration beside the project's is not the project's to test. Outside a
// git checkout, every .yaml file in the folder.
std::vector<std::filesystem::path> tracked_yaml(const std::string& folder) {
  std::vector<std::filesystem::path> found;
  const std::string command = "git -C '" + folder + "' ls-files -- '*.yaml' 2>/dev/null";
  if (FILE* git = popen(command.c_str(), "r")) {
    char line[4096];
    while (fgets(line, sizeof line, git)) {
      std::string name(line);
      if (!name.empty() && name.back() == '\n') name.pop_back();
      if (name.find('/') == std::string::npos) found.push_back(std::filesystem::path(folder) / name);
    }
    if (pclose(git) == 0 && !found.empty()) return found;
  }
  found.clear();
  for (const auto& e : std::filesystem::directory_iterator(folder))
    if (e.path().extension() == ".yaml") found.push_back(e.path());
  std::sort(found.begin(), found.end());
  return found;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

Config from_yaml(const std::string& text) {
  Config c(app::run_schema());
  c.load_yaml(text, "configs/x.yaml");
  c.validate();
  return c;
}

std::string yaml_error(const std::string& text) {
  return error_of([&] { os::run_config(from_yaml(text), os::operator_grammars_of(app::subsystems())); });
}

std::string set_error(const std::vector<std::string>& sets) {
  return error_of([&] { app::load_run_config({}, sets); });
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The system: and workload: part of the run schema's example file: from the blank line
// before `system:`'s description to the end.
std::string system_workload_example(const std::string& header) {
  std::ostringstream full;
  app::run_schema().write_example(full);
  const std::string marker =
      fmt::format("\n# {}\nsystem:\n", std::string(app::run_schema().section_description("system")));
  const std::string text = full.str();
  const size_t at = text.find(marker);
  REQUIRE(at != std::string::npos);
  std::string out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) out += (line.empty() ? "#" : "# " + line) + "\n";
  return out + text.substr(at);
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// ---- The duration unit (emu/config) --------------------------------------------------

TEST_CASE("run config: durations: a decimal number with s, ms, us or ns, held in nanoseconds", "[run_config][config]") {
  CHECK(cfg::parse_duration_ns("1ms") == 1000000);
  CHECK(cfg::parse_duration_ns("500us") == 500000);
  CHECK(cfg::parse_duration_ns("2s") == 2000000000);
  CHECK(cfg::parse_duration_ns("0.5ms") == 500000);
  CHECK(cfg::parse_duration_ns("1.25us") == 1250);
  CHECK(cfg::parse_duration_ns("40ns") == 40);
  CHECK(cfg::parse_duration_ns("0") == 0);
  CHECK(cfg::parse_duration_ns("0ms") == 0);
  CHECK(cfg::parse_duration_ns("1.000000000s") == 1000000000);
  CHECK(cfg::parse_duration_ns("18446744073709551615ns") == 18446744073709551615ull);

  auto err = [](const char* text) { return error_of([&] { cfg::parse_duration_ns(text); }); };
  const std::string hint = " is not a duration (use e.g. 2s, 1ms, 0.5ms, 500us or 40ns)";
  for (const char* bad : {"1", "1 ms", "1MS", "1Ms", "ms", "", ".5ms", "1.ms", "-1ms", "1min", "1msec", "1e3us", "0.0"})
    CHECK(err(bad) == fmt::format("\"{}\"{}", bad, hint));
  CHECK(err("0.5ns") == "\"0.5ns\" is finer than 1 ns");
  CHECK(err("1.0000000001s") == "\"1.0000000001s\" is finer than 1 ns");
  CHECK(err("18446744073709551616ns") == "\"18446744073709551616ns\" is too large for a duration");
  CHECK(err("18446744074s") == "\"18446744074s\" is too large for a duration");
}

TEST_CASE("run config: durations print in their shortest exact form and parse back", "[run_config][config]") {
  CHECK(cfg::format_duration(0) == "0");
  CHECK(cfg::format_duration(1000000) == "1ms");
  CHECK(cfg::format_duration(500000) == "500us");
  CHECK(cfg::format_duration(1500000) == "1.5ms");
  CHECK(cfg::format_duration(2000000000) == "2s");
  CHECK(cfg::format_duration(40) == "40ns");
  CHECK(cfg::format_duration(1000000001) == "1.000000001s");
  for (uint64_t ns : {0ull, 1ull, 999ull, 1000ull, 1001ull, 123456789ull, 5000000000ull, 18446744073709551615ull})
    CHECK(cfg::parse_duration_ns(cfg::format_duration(ns)) == ns);
}

TEST_CASE("run config: a duration key has a range and reads as milliseconds", "[run_config][config]") {
  cfg::Schema s;
  s.add({.path = "t.wait", .type = cfg::ValueType::Duration, .default_value = "1ms", .min = "1us", .max = "1s",
         .unit = "time", .description = "wait"});
  Config c(s);
  CHECK(c.get_uint("t.wait") == 1000000);
  CHECK(c.get_ms("t.wait") == 1.0);
  c.set("t.wait=250us");
  CHECK(c.get_ms("t.wait") == 0.25);
  CHECK(error_of([&] { c.set("t.wait=2s"); }) == "--set: t.wait: 2s is out of range 1us..1s");
  CHECK(error_of([&] { c.set("t.wait=500ns"); }) == "--set: t.wait: 500ns is out of range 1us..1s");
  CHECK(error_of([&] { c.set("t.wait=5"); }) ==
        "--set: t.wait: \"5\" is not a duration (use e.g. 2s, 1ms, 0.5ms, 500us or 40ns)");
  CHECK(std::string(cfg::type_name(cfg::ValueType::Duration)) == "duration");
  CHECK_THROWS_AS(c.get_ms("t.nope"), std::logic_error);
}

// ---- Defaults ------------------------------------------------------------------------

TEST_CASE("run config: an empty run configuration gives the documented defaults", "[run_config]") {
  const os::RunConfig r = app::load_run_config({});
  CHECK(r.machine.istreams == 1);
  CHECK(r.machine.clock_ghz == 5.2);
  CHECK(r.source.empty());

  const os::SystemConfig& s = r.system;
  CHECK(s.image == std::string(TPFEMU_GUEST_DIR) + "/tpf_apps.elf");  // tpf_apps.elf, in the guest folder
  CHECK(s.time_slice_ms == 1.0);
  CHECK(s.timeout_ms == 500.0);
  CHECK(s.svc_cost == 150);
  CHECK(s.service_cost == 400);
  CHECK(s.create_cost == 2000);
  CHECK(s.exit_cost == 1000);
  CHECK(s.dispatch_cost == 300);
  CHECK(s.stack_size == 64 * 1024);
  CHECK(s.heap31_size == 16 * 1024 * 1024);
  CHECK(s.heap64_size == 256ull * 1024 * 1024);
  CHECK(s.max_threads == 64);

  const os::WorkloadConfig& w = r.workload;
  CHECK(w.program == "QZZ0");
  CHECK(w.arrivals == os::Arrivals::Closed);
  CHECK(w.terminals == 16);
  CHECK(w.think_ms == 0.0);
  CHECK(w.rate == 1000.0);
  CHECK(w.message_size == 256);
  CHECK(w.message_size_max == 0);
  CHECK(w.messages == 10000);
  CHECK(w.seconds == 0.0);
  CHECK(w.warmup_messages == 0);
  CHECK(w.seed == 1);
}

TEST_CASE("run config: the run schema is machine, system and workload, every key documented", "[run_config]") {
  const cfg::Schema& s = app::run_schema();
  const std::vector<std::string> top = {"machine", "system", "workload"};
  CHECK(s.children("") == top);
  // The machine's own keys, the devices' (machine.scm.*: 12, machine.dasd.*: 11), system (paging: 18, le: 4,
  // fetch: 13, trace: 2), workload.
  CHECK(s.keys().size() == emu::machine_schema().keys().size() + 12 + 11 + 34 + 18 + 4 + 13 + 2 + 16);
  for (const auto& k : s.keys()) {
    INFO(k.path);
    CHECK(!k.description.empty());
    CHECK(!k.unit.empty());
    CHECK(!k.source.empty());
  }
  for (const char* sec : {"system", "workload"}) CHECK(!s.section_description(sec).empty());
  std::ostringstream listing;
  s.write_listing(listing);
  CHECK(listing.str().find("\nsystem.time_slice = 1ms\n") != std::string::npos);
  CHECK(listing.str().find("duration, CPU time, 1us..10s") != std::string::npos);
  CHECK(listing.str().find("\nworkload.arrivals = closed\n") != std::string::npos);
  CHECK(listing.str().find("one of: closed, open") != std::string::npos);
}

TEST_CASE("run config: run_config reads every key into the structs", "[run_config]") {
  Config c = from_yaml(
      "machine: {istreams: 8}\n"
      "system:\n"
      "  image: /tmp/apps.elf\n"
      "  time_slice: 250us\n"
      "  timeout: 2s\n"
      "  svc_cost: 1\n"
      "  service_cost: 2\n"
      "  create_cost: 3\n"
      "  exit_cost: 4\n"
      "  dispatch_cost: 5\n"
      "  stack_size: 128K\n"
      "  heap31_size: 1M\n"
      "  heap64_size: 1G\n"
      "  max_threads: 7\n"
      "workload:\n"
      "  program: ABC1\n"
      "  arrivals: open\n"
      "  terminals: 0\n"
      "  think_time: 0.5ms\n"
      "  rate: 12345\n"
      "  message_size: 100\n"
      "  message_size_max: 4K\n"
      "  messages: 0\n"
      "  duration: 1.5s\n"
      "  warmup: 10\n"
      "  seed: 42\n");
  const os::RunConfig r = os::run_config(c, os::operator_grammars_of(app::subsystems()));
  CHECK(r.machine.istreams == 8);
  CHECK(r.system.image == "/tmp/apps.elf");
  CHECK(r.system.time_slice_ms == 0.25);
  CHECK(r.system.timeout_ms == 2000.0);
  CHECK(r.system.svc_cost == 1);
  CHECK(r.system.service_cost == 2);
  CHECK(r.system.create_cost == 3);
  CHECK(r.system.exit_cost == 4);
  CHECK(r.system.dispatch_cost == 5);
  CHECK(r.system.stack_size == 128 * 1024);
  CHECK(r.system.heap31_size == 1024 * 1024);
  CHECK(r.system.heap64_size == 1024 * 1024 * 1024);
  CHECK(r.system.max_threads == 7);
  CHECK(r.workload.program == "ABC1");
  CHECK(r.workload.arrivals == os::Arrivals::Open);
  CHECK(r.workload.terminals == 0);
  CHECK(r.workload.think_ms == 0.5);
  CHECK(r.workload.rate == 12345.0);
  CHECK(r.workload.message_size == 100);
  CHECK(r.workload.message_size_max == 4096);
  CHECK(r.workload.messages == 0);
  CHECK(r.workload.seconds == 1.5);
  CHECK(r.workload.warmup_messages == 10);
  CHECK(r.workload.seed == 42);
}

// ---- Errors: place, key, problem ------------------------------------------------------

TEST_CASE("run config: an unknown system or workload key names its line and suggests the near miss", "[run_config]") {
  CHECK(yaml_error("workload:\n  messages: 5\n  progam: QZZ0\n") ==
        "configs/x.yaml:3: workload.progam: unknown key (did you mean program?)");
  CHECK(yaml_error("system:\n  time_slise: 1ms\n") ==
        "configs/x.yaml:2: system.time_slise: unknown key (did you mean time_slice?)");
  CHECK(starts_with(yaml_error("system:\n  frobnicate: 1\n"), "configs/x.yaml:2: system.frobnicate: unknown key (known here: image, "));
  CHECK(yaml_error("sytem:\n  image: x\n") == "configs/x.yaml:1: sytem: unknown section (did you mean system?)");
  CHECK(yaml_error("workloads: {}\n") == "configs/x.yaml:1: workloads: unknown section (did you mean workload?)");
  CHECK(set_error({"workload.warmpu=5"}) == "--set: workload.warmpu: unknown key (did you mean warmup?)");
}

TEST_CASE("run config: a bad unit names the value and shows the form to use", "[run_config]") {
  const std::string duration = " is not a duration (use e.g. 2s, 1ms, 0.5ms, 500us or 40ns)";
  CHECK(yaml_error("system:\n  time_slice: 1\n") == "configs/x.yaml:2: system.time_slice: \"1\"" + duration);
  CHECK(yaml_error("system:\n  timeout: 500 ms\n") == "configs/x.yaml:2: system.timeout: \"500 ms\"" + duration);
  CHECK(yaml_error("workload:\n  think_time: 5sec\n") == "configs/x.yaml:2: workload.think_time: \"5sec\"" + duration);
  CHECK(yaml_error("workload:\n  messages: 0\n  duration: 2\n") == "configs/x.yaml:3: workload.duration: \"2\"" + duration);
  CHECK(yaml_error("system:\n  stack_size: 64Kb\n") ==
        "configs/x.yaml:2: system.stack_size: \"64Kb\" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)");
  CHECK(yaml_error("workload:\n  message_size: 1.5K\n") ==
        "configs/x.yaml:2: workload.message_size: \"1.5K\" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)");
  CHECK(yaml_error("system:\n  svc_cost: 150cycles\n") ==
        "configs/x.yaml:2: system.svc_cost: \"150cycles\" is not a whole number of cycles (use e.g. 40)");
  CHECK(yaml_error("workload:\n  rate: 1.5\n") == "configs/x.yaml:2: workload.rate: \"1.5\" is not a whole number (use e.g. 8)");
  CHECK(yaml_error("workload:\n  messages: lots\n") ==
        "configs/x.yaml:2: workload.messages: \"lots\" is not a whole number (use e.g. 8)");
  CHECK(yaml_error("system:\n  image:\n") == "configs/x.yaml:2: system.image: no value given (the default is tpf_apps.elf)");
  CHECK(yaml_error("workload:\n  program: [A, B]\n") == "configs/x.yaml:2: workload.program: expected a string, got a sequence");
}

TEST_CASE("run config: a value out of range names the range", "[run_config]") {
  CHECK(yaml_error("system:\n  time_slice: 0\n") == "configs/x.yaml:2: system.time_slice: 0 is out of range 1us..10s");
  CHECK(yaml_error("system:\n  timeout: 2000s\n") == "configs/x.yaml:2: system.timeout: 2000s is out of range 1us..1000s");
  CHECK(yaml_error("system:\n  max_threads: 0\n") == "configs/x.yaml:2: system.max_threads: 0 is out of range 1..4096");
  CHECK(yaml_error("system:\n  stack_size: 2K\n") == "configs/x.yaml:2: system.stack_size: 2K is out of range 4K..16M");
  CHECK(yaml_error("system:\n  heap31_size: 1G\n") == "configs/x.yaml:2: system.heap31_size: 1G is out of range 4K..768M");
  CHECK(yaml_error("system:\n  svc_cost: 2000000\n") == "configs/x.yaml:2: system.svc_cost: 2000000 is out of range 0..1000000");
  CHECK(yaml_error("workload:\n  terminals: -1\n") == "configs/x.yaml:2: workload.terminals: -1 is out of range 0..1000000");
  CHECK(yaml_error("workload:\n  message_size: 0\n") == "configs/x.yaml:2: workload.message_size: 0 is out of range 1..15M");
  // The message area ends where the program image begins (tpf_evm.h): a larger message
  // would have been written over the image's shared pages.
  CHECK(yaml_error("workload:\n  message_size_max: 16M\n") ==
        "configs/x.yaml:2: workload.message_size_max: 16M is out of range 0..15M");
  CHECK(yaml_error("workload:\n  think_time: 1001s\n") == "configs/x.yaml:2: workload.think_time: 1001s is above the maximum 1000s");
  CHECK(yaml_error("workload:\n  seed: -1\n") == "configs/x.yaml:2: workload.seed: -1 is below the minimum 0");
  CHECK(set_error({"workload.rate=-5"}) == "--set: workload.rate: -5 is out of range 0..1000000000");
}

TEST_CASE("run config: a wrong arrival process names the choices", "[run_config]") {
  CHECK(yaml_error("workload:\n  arrivals: poisson\n") ==
        "configs/x.yaml:2: workload.arrivals: \"poisson\" is not one of: closed, open");
  CHECK(yaml_error("workload:\n  arrivals: Open\n") ==
        "configs/x.yaml:2: workload.arrivals: \"Open\" is not one of: closed, open (did you mean open?)");
}

TEST_CASE("run config: cross-field checks name the key that was set, and where", "[run_config]") {
  // Arrivals need their parameter.
  CHECK(yaml_error("workload:\n  arrivals: open\n  rate: 0\n") ==
        "configs/x.yaml:3: workload.rate: open arrivals need a rate above 0 messages per second (set workload.rate)");
  CHECK(set_error({"workload.rate=0", "workload.arrivals=open"}) ==
        "--set: workload.rate: open arrivals need a rate above 0 messages per second (set workload.rate)");
  CHECK(yaml_error("workload:\n  terminals: 0\n") ==
        "configs/x.yaml:2: workload.terminals: closed arrivals need at least 1 terminal (set workload.terminals)");
  CHECK(yaml_error("workload:\n  arrivals: open\n  terminals: 0\n") == "(no error)");  // terminals unused when open
  CHECK(yaml_error("workload:\n  rate: 0\n") == "(no error)");                         // rate unused when closed

  // Message sizes.
  CHECK(yaml_error("workload:\n  message_size: 1K\n  message_size_max: 512\n") ==
        "configs/x.yaml:3: workload.message_size_max: the largest message (512) is smaller than the smallest "
        "(workload.message_size 1K); set it at least as large, or 0 for fixed-size messages");
  CHECK(yaml_error("workload:\n  message_size: 1K\n  message_size_max: 1K\n") == "(no error)");
  CHECK(set_error({"workload.message_size=4K"}) == "(no error)");  // max 0: fixed size

  // Exactly one stop condition.
  CHECK(yaml_error("workload:\n  messages: 0\n") ==
        "configs/x.yaml:2: workload.messages: workload.messages and workload.duration are both 0; set one of them "
        "to say when the run stops");
  CHECK(yaml_error("workload:\n  duration: 2s\n") ==
        "configs/x.yaml:2: workload.duration: workload.messages (10000) and workload.duration (2s) are both set; "
        "set the other one to 0 (e.g. workload.messages: 0 to run for a time)");
  CHECK(yaml_error("workload:\n  messages: 0\n  duration: 2s\n") == "(no error)");

  // Warm-up.
  CHECK(yaml_error("workload:\n  messages: 100\n  warmup: 100\n") ==
        "configs/x.yaml:3: workload.warmup: the warm-up (100 messages) must be less than workload.messages (100), "
        "or no message would be measured");
  CHECK(set_error({"workload.warmup=20000"}) ==
        "--set: workload.warmup: the warm-up (20000 messages) must be less than workload.messages (10000), or no "
        "message would be measured");
  CHECK(yaml_error("workload:\n  messages: 0\n  duration: 1s\n  warmup: 500\n") == "(no error)");

  // Time slice and timeout.
  CHECK(yaml_error("system:\n  time_slice: 500ms\n") ==
        "configs/x.yaml:2: system.time_slice: the time slice (500ms) must be shorter than the timeout (500ms), so "
        "a looping ECB is sliced, letting other work run, before it times out");
  CHECK(set_error({"system.timeout=1ms"}) ==
        "--set: system.timeout: the time slice (1ms) must be shorter than the timeout (1ms), so a looping ECB is "
        "sliced, letting other work run, before it times out");

  // Whole pages, and program names.
  CHECK(yaml_error("system:\n  stack_size: 6K\n") == "configs/x.yaml:2: system.stack_size: 6K is not a whole number of 4K pages");
  CHECK(set_error({"system.heap64_size=5000"}) == "--set: system.heap64_size: 5000 is not a whole number of 4K pages");
  CHECK(yaml_error("workload:\n  program: QZZ 0\n") ==
        "configs/x.yaml:2: workload.program: \"QZZ 0\" is not a program name (1 to 32 letters, digits or _, e.g. QZZ0)");
}

TEST_CASE("run config: run_config refuses a Config that fails its checks", "[run_config]") {
  Config c(app::run_schema());
  c.set("workload.messages=0");
  CHECK(error_of([&] { os::run_config(c, os::operator_grammars_of(app::subsystems())); }) ==
        "--set: workload.messages: workload.messages and workload.duration are both 0; set one of them to say when "
        "the run stops");
}

// ---- --set --------------------------------------------------------------------------

TEST_CASE("run config: --set overrides the defaults and the file, in order", "[run_config]") {
  const std::string demo = kConfigs + "demo.yaml";
  os::RunConfig r = app::load_run_config({demo}, {"workload.messages=50", "system.time_slice=250us",
                                                 "machine.istreams=2", "workload.arrivals=open",
                                                 "workload.rate=300", "workload.messages=60"});
  CHECK(r.workload.messages == 60);
  CHECK(r.system.time_slice_ms == 0.25);
  CHECK(r.machine.istreams == 2);
  CHECK(r.workload.arrivals == os::Arrivals::Open);
  CHECK(r.workload.rate == 300.0);
  CHECK(r.workload.terminals == 16);  // from the file
  CHECK(r.source == demo);

  Config c = cfg::load_config(app::run_schema(), {demo}, {"workload.seed=9"});
  CHECK(c.origin("workload.seed") == "--set");
  CHECK(c.origin("workload.messages") == demo + ":29");
  CHECK(c.is_default("system.svc_cost"));
  CHECK(set_error({"workload.seed"}) == "--set: \"workload.seed\" is not key=value (e.g. machine.istreams=8)");
}

TEST_CASE("run config: the same run configuration loads to the same values twice", "[run_config]") {
  auto show = [](const os::RunConfig& r) {
    return fmt::format("{} {} {} {} {} {} {} {}", r.system.image, r.system.time_slice_ms, r.system.timeout_ms,
                       r.workload.program, r.workload.messages, r.workload.seconds, r.workload.rate, r.workload.seed);
  };
  const std::vector<std::string> files = {kConfigs + "open-arrivals.yaml"};
  CHECK(show(app::load_run_config(files, {"workload.seed=3"})) == show(app::load_run_config(files, {"workload.seed=3"})));
}

// ---- The example files ----------------------------------------------------------------

TEST_CASE("run config: configs/demo.yaml is the README's job: 4 I-streams, closed arrivals, QZZ0, 2000 messages", "[run_config]") {
  const os::RunConfig r = app::load_run_config({kConfigs + "demo.yaml"});
  CHECK(r.machine.istreams == 4);
  CHECK(r.workload.arrivals == os::Arrivals::Closed);
  CHECK(r.workload.program == "QZZ0");
  CHECK(r.workload.messages == 2000);
  CHECK(r.workload.terminals == 16);
  CHECK(r.workload.seconds == 0.0);
  CHECK(r.system.image == std::string(TPFEMU_GUEST_DIR) + "/tpf_apps.elf");  // not in configs/: the guest folder
}

TEST_CASE("run config: configs/open-arrivals.yaml runs open arrivals for a simulated time", "[run_config]") {
  const os::RunConfig r = app::load_run_config({kConfigs + "open-arrivals.yaml"});
  CHECK(r.machine.istreams == 4);
  CHECK(r.workload.arrivals == os::Arrivals::Open);
  CHECK(r.workload.rate == 5000.0);
  CHECK(r.workload.messages == 0);
  CHECK(r.workload.seconds == 0.2);
  CHECK(r.workload.message_size == 128);
  CHECK(r.workload.message_size_max == 1024);
  CHECK(r.workload.warmup_messages == 100);
}

TEST_CASE("run config: every file in configs/ loads as a run configuration", "[run_config]") {
  size_t n = 0;
  for (const auto& path : tracked_yaml(kConfigs)) {
    INFO(path.string());
    CHECK(error_of([&] { app::load_run_config({path.string()}); }) == "(no error)");
    ++n;
  }
  CHECK(n >= 4);
}

TEST_CASE("run config: configs/system-reference.yaml sets every system and workload key to its default", "[run_config]") {
  Config c = cfg::load_config(app::run_schema(), {kReference});
  size_t n = 0;
  for (const auto& k : app::run_schema().keys()) {
    INFO(k.path);
    if (starts_with(k.path, "machine.")) {
      CHECK(c.is_default(k.path));
      continue;
    }
    CHECK(starts_with(c.origin(k.path), kReference + ":"));
    CHECK(c.text(k.path) == k.default_value);
    ++n;
  }
  CHECK(n == 87);  // system (fetch: 13, trace: 2) and workload
}

TEST_CASE("run config: configs/system-reference.yaml is the schema's own example (descriptions, units, sources)", "[run_config]") {
  const std::string file = read(kReference);
  REQUIRE(!file.empty());
  std::istringstream lines(file);
  std::string header, line;
  while (std::getline(lines, line) && starts_with(line, "#")) header += (line.size() > 2 ? line.substr(2) : "") + "\n";
  const std::string expected = system_workload_example(header);
  if (expected != file) {
    const std::string fresh = (std::filesystem::path(TPFEMU_TEST_OUT_DIR) / "system-reference.yaml.expected").string();
    std::ofstream(fresh) << expected;
    FAIL("configs/system-reference.yaml differs from the schema; the expected text is in " << fresh
                                                                                           << " ");
  }
}

TEST_CASE("run config: every overlay in configs/overlays/ loads on top of the configuration its first line names",
          "[run_config]") {
  size_t n = 0;
  for (const auto& path : tracked_yaml(kConfigs + "overlays")) {
    INFO(path.string());
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    const std::string tag = "# overlay of ";
    REQUIRE(first.rfind(tag, 0) == 0);
    CHECK(error_of([&] { app::load_run_config({kConfigs + first.substr(tag.size()), path.string()}); }) ==
          "(no error)");
    ++n;
  }
  CHECK(n >= 2);
}

TEST_CASE("run config: machine-z15.yaml and system-reference.yaml say which workload they run as they are",
          "[run_config]") {
  // Neither file names a workload of its own: run as it is, each runs the defaults,
  // and its header says what they are (from the schema, so that it cannot go stale).
  auto default_of = [](const std::string& path) {
    for (const auto& k : app::run_schema().keys())
      if (k.path == path) return k.default_value;
    FAIL("no key " << path);
    return std::string();
  };
  auto unquoted = [](std::string v) {
    if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
    return v;
  };
  const std::string workload =
      fmt::format("{} terminals sending {}-byte messages to program\n{} until {} messages complete, on {} I-stream",
                  default_of("workload.terminals"), default_of("workload.message_size"),
                  unquoted(default_of("workload.program")),
                  cfg::grouped(std::stoull(default_of("workload.messages"))),
                  default_of("machine.istreams"));
  for (const std::string name : {"machine-z15.yaml", "system-reference.yaml"}) {
    INFO(name);
    std::istringstream lines(read(kConfigs + name));
    std::string header, line;
    while (std::getline(lines, line) && starts_with(line, "#")) header += (line.size() > 2 ? line.substr(2) : "") + " ";
    for (char& c : header) c = c == '\n' ? ' ' : c;
    std::string words;  // the header's prose on one line, single spaces
    for (char c : header)
      if (!(c == ' ' && !words.empty() && words.back() == ' ')) words += c;
    std::string want = workload;
    for (char& c : want) c = c == '\n' ? ' ' : c;
    CHECK(words.find("runs the default workload") != std::string::npos);
    CHECK(words.find(want) != std::string::npos);
  }
}
