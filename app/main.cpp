// tpfemu: the command line.
#include <charconv>
#include <iostream>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string>
#include <string_view>

#include "emu/config.h"
#include "os/exec_command.h"
#include "os/run_command.h"
#include "app/console_client.h"
#include "app/subsystems.h"

namespace {

constexpr const char* kUsage = R"(usage: tpfemu [--log-level LEVEL] COMMAND ...

commands:
  run CONFIG.yaml [CONFIG.yaml ...] [--out DIR] [--set KEY=VALUE ...] [--no-progress]
          [--console PORT [--console-wait] [--pace RATIO]]
      Run a workload on the machine and the control program; writes summary.txt,
      summary.json, run.log, dumps.txt, syslog.log, locks.txt/json (and etim.txt/json
      when ZTRAP EI ran) to DIR (default out/<config name>). --console PORT takes
      operator commands (ZTRAP EI START/STOP, PAUSE, RESUME) on 127.0.0.1:PORT while
      it runs (0: any free port); --console-wait starts the run once a client has
      connected; --pace RATIO runs simulated time at RATIO times real time (0.001: a
      simulated millisecond a second). Neither changes a figure of the run.

  console [HOST:]PORT
      A client for a run's operator console: sends the lines typed (or piped) on
      standard input, prints the answers; ends when the run ends.

  compare DIR_A DIR_B
      Two runs' summaries side by side with the ratio B/A of each figure.

  exec PROGRAM.elf [options] [-- guest args...]
      Run a static s390x Linux program (Linux-compatible mode).
      --stats               print instructions=N host_seconds=S mips=M on stderr
      --profile FILE        write the ETIM instruction count report to FILE and
                            the same rows as JSON to FILE with .json
      --max-instructions N  stop a runaway program after N instructions
      --istreams N          N I-streams: the program starts on I-stream 0 and its
                            threads (pthread_create) run on the others
      --all-istreams-start  every I-stream runs the program from its entry point
                            (see os/guest/include/tpfemu.h)
      --config FILE         machine configuration (YAML; repeatable, applied in order)
      --set KEY=VALUE       override one key, e.g. --set machine.quantum=20
      --timing full|base    full: caches, coherence and TLBs (default);
                            base: each instruction costs its base cycles only
      --counters            per-I-stream, cache and TLB counters on stderr
      --large-pages         back the program break with 1 MB pages
      --env K=V             add K=V to the guest's environment (repeatable;
                            the environment is empty otherwise)
      --root DIR            the guest's files: DIR is its "/" and nothing outside
                            is reachable (default: no files, opens fail ENOENT)
      --seed N              seed of AT_RANDOM and getrandom (default 0)

  config [--list | --example] [--config FILE] [--set KEY=VALUE]
      --list: every key with default, unit, range and source; --example: a
      commented YAML file with every key; otherwise check the files and overrides.

  --log-level: trace, debug, info, warn (default), error, off
)";

int usage_error(const std::string& msg) {
  fmt::print(stderr, "tpfemu: {}\n\n{}", msg, kUsage);
  return 2;
}

bool parse_u64(std::string_view s, uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

int exec_main(int argc, char** argv, int i) {
  os::ExecOptions o;
  for (; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)name;
      return argv[++i];
    };
    if (a == "--stats") o.stats = true;
    else if (a == "--profile") {
      const char* v = value("--profile");
      if (!v) return usage_error("--profile needs a file name");
      o.profile = v;
    } else if (a == "--timing") {
      const char* v = value("--timing");
      if (!v || (std::strcmp(v, "full") && std::strcmp(v, "base")))
        return usage_error("--timing needs full or base");
      o.timing = std::strcmp(v, "full") == 0;
    } else if (a == "--counters") {
      o.counters = true;
    } else if (a == "--large-pages") {
      o.large_pages = true;
    } else if (a == "--all-istreams-start") {
      o.all_istreams_start = true;
    } else if (a == "--env") {
      const char* v = value("--env");
      if (!v || !std::strchr(v, '=')) return usage_error("--env needs NAME=VALUE");
      o.env.push_back(v);
    } else if (a == "--root") {
      const char* v = value("--root");
      if (!v) return usage_error("--root needs a directory");
      o.root = v;
    } else if (a == "--seed") {
      const char* v = value("--seed");
      if (!v || !parse_u64(v, o.seed)) return usage_error("--seed needs a number");
    } else if (a == "--istreams") {
      const char* v = value("--istreams");
      if (!v) return usage_error("--istreams needs a number");
      o.sets.push_back(std::string("machine.istreams=") + v);
    } else if (a == "--config") {
      const char* v = value("--config");
      if (!v) return usage_error("--config needs a YAML file");
      o.config_files.push_back(v);
    } else if (a == "--set") {
      const char* v = value("--set");
      if (!v) return usage_error("--set needs key.path=value");
      o.sets.push_back(v);
    } else if (a == "--max-instructions") {
      const char* v = value("--max-instructions");
      if (!v || !parse_u64(v, o.max_instructions) || o.max_instructions == 0)
        return usage_error("--max-instructions needs a positive number");
    } else if (a == "--") {
      for (++i; i < argc; ++i) o.args.push_back(argv[i]);
    } else if (a.starts_with("--")) {
      return usage_error(fmt::format("unknown option {}", a));
    } else if (o.program.empty()) {
      o.program = std::string(a);
    } else {
      o.args.push_back(std::string(a));
    }
  }
  if (o.program.empty()) return usage_error("exec needs a program");
  return os::run_exec(o);
}

int run_main(int argc, char** argv, int i) {
  os::RunOptions o;
  for (; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--out" && i + 1 < argc) o.out = argv[++i];
    else if (a == "--set" && i + 1 < argc) o.sets.push_back(argv[++i]);
    else if (a == "--no-progress") o.progress = false;
    else if (a == "--console" && i + 1 < argc) {
      std::string_view p = argv[++i];
      unsigned port = 0;
      auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), port);
      if (ec != std::errc() || end != p.data() + p.size() || port > 65535)
        return usage_error(fmt::format("run: --console {}: not a port number (0 to 65535)", p));
      o.console_port = int(port);
    } else if (a == "--console-wait") {
      o.console_wait = true;
    } else if (a == "--pace" && i + 1 < argc) {
      const std::string p = argv[++i];
      char* end = nullptr;
      o.pace = std::strtod(p.c_str(), &end);
      if (p.empty() || *end || !(o.pace >= 1e-6 && o.pace <= 1e6))
        return usage_error(fmt::format("run: --pace {}: not a ratio of simulated to real time (1e-6 to 1e6)", p));
    } else if (a.starts_with("--")) return usage_error(fmt::format("run: unknown option {}", a));
    else o.configs.push_back(std::string(a));
  }
  if (o.configs.empty()) return usage_error("run needs a configuration file");
  if ((o.console_wait || o.pace > 0) && o.console_port < 0)
    return usage_error(fmt::format("run: {} needs --console PORT", o.console_wait ? "--console-wait" : "--pace"));
  return os::run_workload(o, app::subsystems);
}

int config_main(int argc, char** argv, int i) {
  bool list = false, example = false;
  std::vector<std::string> files, sets;
  for (; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--list") list = true;
    else if (a == "--example") example = true;
    else if ((a == "--config" || a == "--set") && i + 1 < argc) (a == "--config" ? files : sets).push_back(argv[++i]);
    else return usage_error(fmt::format("config: unexpected argument {}", a));
  }
  if (list) {
    emu::machine_schema().write_listing(std::cout);
    return 0;
  }
  if (example) {
    emu::machine_schema().write_example(std::cout);
    return 0;
  }
  try {
    emu::load_machine_config(files, sets);
  } catch (const emu::ConfigError& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  }
  fmt::print("configuration is valid\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // tpfemu's own messages go to standard error: standard output is the guest's (exec)
  // or the run's report.
  spdlog::set_default_logger(spdlog::stderr_color_st("tpfemu"));
  spdlog::set_level(spdlog::level::warn);
  spdlog::set_pattern("tpfemu: %l: %v");
  int i = 1;
  if (i + 1 < argc && std::strcmp(argv[i], "--log-level") == 0) {
    auto lvl = spdlog::level::from_str(argv[i + 1]);
    if (lvl == spdlog::level::off && std::strcmp(argv[i + 1], "off") != 0)
      return usage_error(fmt::format("unknown log level {}", argv[i + 1]));
    spdlog::set_level(lvl);
    i += 2;
  }
  if (i >= argc) return usage_error("no command");
  std::string_view cmd = argv[i];
  if (cmd == "exec") return exec_main(argc, argv, i + 1);
  if (cmd == "config") return config_main(argc, argv, i + 1);
  if (cmd == "run") return run_main(argc, argv, i + 1);
  if (cmd == "console") {
    if (argc - i != 2) return usage_error("console needs [HOST:]PORT");
    return app::console_client(argv[i + 1]);
  }
  if (cmd == "compare") {
    if (argc - i != 3) return usage_error("compare needs two output directories");
    return os::compare_runs(argv[i + 1], argv[i + 2]);
  }
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    fmt::print("{}", kUsage);
    return 0;
  }
  return usage_error(fmt::format("unknown command {}", cmd));
}
