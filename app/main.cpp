// tpfemu: the command line.
#include <charconv>
#include <iostream>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string>
#include <string_view>
#include <vector>

#include "app/console_client.h"
#include "app/exec_command.h"
#include "app/ipl_command.h"
#include "app/run_command.h"
#include "app/subsystems.h"
#include "app/version.h"
#include "config/config.h"
#include "report/html_report.h"

namespace {

constexpr const char* kRunHelp = R"(  run CONFIG.yaml [CONFIG.yaml ...] [--out DIR] [--set KEY=VALUE ...] [--trace FILE] [--no-progress]
          [--console PORT [--console-wait] [--pace RATIO]]
      Run a workload on the machine and the control program. Writes config.yaml (what
      it ran: every key with where its value came from, the image and its SHA-256,
      tpfemu's version, the command line), summary.txt, summary.json, run.log,
      dumps.txt and the subsystems' reports (heap, locks, syslog.log, devices, paging;
      etim.txt/json when ZTRAP EI ran) to DIR (default out/<config name>), after
      removing those files if an earlier run left them there. Several files are
      applied in order, then each --set.
      --out DIR        the output directory
      --set KEY=VALUE  override one key, e.g. --set workload.messages=500
      --trace FILE     also write the run's events as a Trace Event file for
                       Perfetto or chrome://tracing (system.trace.file; at most
                       system.trace.max_events events)
      --no-progress    no progress line on the terminal
      --report         write report.html at the end (as tpfemu report DIR)
      --console PORT   take operator commands (ZTRAP EI START/STOP, PAUSE, RESUME,
                       ...) on 127.0.0.1:PORT while it runs (0: any free port)
      --console-wait   start the run once a console client has connected
      --pace RATIO     run simulated time at RATIO times real time (0.001: a
                       simulated millisecond a second); with --console the default
                       is 0.01 (a simulated 10 ms a second), 0: as fast as it can;
                       neither changes a figure
)";

constexpr const char* kConsoleHelp = R"(  console [HOST:]PORT
      A client for a run's operator console: sends the lines typed (or piped) on
      standard input, prints the answers; ends when the run ends.
)";

constexpr const char* kCompareHelp = R"(  compare DIR_A DIR_B [--all]
      Two runs side by side, the question they were made for first: the headline
      figure with B/A and the change; the configuration keys that differ (from
      their config.yaml); the figures that moved most a message (cycles by cause
      first, then the counters, furthest from B/A = 1 first); every summary figure
      (one I-stream's rows only with --all); then the heap, lock, ETIM, device,
      paging and fetch figures of the JSON reports both runs wrote, a subsystem's
      matched by name across variants (the syslog lock whatever its algorithm);
      ETIM's programs whose cycles moved most first, its (no ECB) figures folded
      away (shown with --all).
)";

constexpr const char* kReportHelp = R"(  report RUN_DIR | report DIR_A DIR_B [-o FILE]
      A run's reports as one page to look at: writes RUN_DIR/report.html and prints
      its path. The page opens from the file system with nothing to fetch: the
      headline, the summary, cycles by cause as stacked bars (the run, each
      I-stream, a message), the timeline's series, the ETIM profile (programs, then
      their displacements; sortable, filtered by program) and each subsystem's
      report (heap, locks, paging, devices, LE storage, fetch) as tables. With two
      run folders: what compare prints, as a page (DIR_A/compare-<DIR_B's name>.html),
      the configuration keys that differ first and a bar per figure for B/A.
      -o FILE   the comparison page's file
)";

constexpr const char* kExecHelp = R"(  exec PROGRAM.elf [options] [-- guest args...]
      Run a static s390x Linux program (Linux-compatible mode).
      --stats               print instructions=N host_seconds=S mips=M, the host
                            memory the model counts (real storage, per simulated
                            GB), the engine (machine.engine; compile: its blocks,
                            code cache size and compile time) and the host's
                            maximum resident size on stderr
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
      --max-processes N     the most processes at once (fork, vfork, clone);
                            a fork past it stops the run, status 124 (default 256)
)";

constexpr const char* kIplHelp = R"(  ipl IMAGE [options] [-- parameters...]
      Run a bare-metal s390x program that owns the machine (system mode, see
      docs/system-mode.md): an ELF image loaded at its addresses and started at its
      entry, or a binary loaded at 0 and started by the IPL PSW in its first 8
      bytes, in 64-bit mode, DAT off, supervisor state, every interruption disabled,
      as QEMU's -kernel starts one. Its SCLP console writes to standard output. The
      run ends on a disabled wait PSW (exit status: the low byte of its instruction
      address), every I-stream stopped by SIGP (0), --max-instructions (124), every
      I-stream waiting for nothing (124), or what tpfemu does not model yet (125).
      The end, the PSW and the counts go to standard error.
      --max-instructions N  stop after N instructions
      --istreams N          N I-streams (the others stopped until SIGP starts them)
      --dasd FILE           a 3390 volume as an ECKD device on the next subchannel
                            (repeatable; device numbers from 0): the file holds its
                            4 KB records, 12 a track; writes stay in memory
      --scm                 Flash Express (flashsim's SCM model, 64 GB online) on
                            an EADM subchannel after the volumes
      --device virtio-net-ccw
                            a virtio network device (virtio-ccw transport, SENSE
                            ID 3832, no packets flow) on the next subchannel
                            after the volumes and SCM (repeatable)
      --watchdog ACTION     the diag288 watchdog (DIAGNOSE X'288', QEMU's -device
                            diag288 --watchdog-action ACTION); its expiry does
                            ACTION: inject-nmi (the restart interruption on
                            I-stream 0), reset (IPL again) or none
      --vm-name NAME        the virtual machine's name STSI 3.2.2 gives (QEMU's
                            -name; default TPFEMU), and its extended name
      --vm-uuid UUID        the virtual machine's UUID in STSI 3.2.2 (QEMU's -uuid)
      --control-program NAME
                            STSI 3.2.2's control-program identifier (default
                            TPFEMU; a KVM guest sees KVM/Linux, z/VM's z/VM)
      --profile FILE        the ETIM instruction count report to FILE, JSON beside it
      --console-input FILE  the SCLP console's input, a line per READ EVENT DATA
                            ("-": standard input, read to its end before the run)
      --config FILE         machine configuration (YAML; repeatable)
      --set KEY=VALUE       override one key (machine.storage defaults to 128M here)
      --timing full|base    full: caches and coherence (default); base: base cycles
      -- parameters         the kernel command line, at absolute 0x10480
)";

constexpr const char* kConfigHelp = R"(  config [--list | --example] [--config FILE ...] [--set KEY=VALUE ...]
      --list: every key of every section (machine, system with its subsystems'
      keys, workload, operator) with default, unit, range and source; --example: a
      commented YAML file with every key. Otherwise check a run configuration (the
      files in order, then the overrides) as `tpfemu run` would, image and programs
      included, without running it, and print its effective configuration: the
      config.yaml a run of it would write.
)";

constexpr const char* kGlobalHelp = R"(  --version    tpfemu's version (and the git commit it was built from)
  --log-level: trace, debug, info, warn (default), error, off
  tpfemu COMMAND --help: one command's options
)";

void print_usage(std::FILE* to) {
  fmt::print(to, "usage: tpfemu [--log-level LEVEL] COMMAND ...\n\ncommands:\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}", kRunHelp,
             kCompareHelp, kReportHelp, kExecHelp, kIplHelp, kConfigHelp, kConsoleHelp, kGlobalHelp);
}

std::string_view help_of(std::string_view command) {
  if (command == "run") return kRunHelp;
  if (command == "compare") return kCompareHelp;
  if (command == "report") return kReportHelp;
  if (command == "exec") return kExecHelp;
  if (command == "ipl") return kIplHelp;
  if (command == "console") return kConsoleHelp;
  return kConfigHelp;
}

// A mistake on the command line: one line saying what is wrong, and where to look.
int usage_error(std::string_view command, const std::string& msg) {
  if (command.empty()) fmt::print(stderr, "tpfemu: {}\nsee tpfemu --help\n", msg);
  else fmt::print(stderr, "tpfemu: {}: {}\nsee tpfemu {} --help\n", command, msg, command);
  return 2;
}

bool is_help(std::string_view a) { return a == "--help" || a == "-h"; }

int print_help(std::string_view command) {
  fmt::print("usage: tpfemu {}", help_of(command).substr(2));
  return 0;
}

bool parse_u64(std::string_view s, uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// The arguments of one command, read left to right.
class Args {
 public:
  Args(int argc, char** argv, int i, std::string_view command) : argc_(argc), argv_(argv), i_(i), command_(command) {}
  bool done() const { return i_ >= argc_; }
  std::string_view next() { return argv_[i_++]; }
  // The value of the option just read: the next argument, unless there is none or it
  // is another option (`--out --set ...` left the directory out).
  const char* value() {
    if (i_ >= argc_ || std::string_view(argv_[i_]).starts_with("--")) return nullptr;
    return argv_[i_++];
  }
  // --set's KEY=VALUE; "" with the message printed if it is not one.
  bool set_value(std::vector<std::string>& sets, int& status) {
    const char* v = value();
    if (!v) {
      status = usage_error(command_, "--set needs KEY=VALUE (e.g. --set machine.istreams=8)");
      return false;
    }
    std::string_view kv = v;
    if (kv.find('=') == std::string_view::npos) {
      // `--set machine.istreams 8`: the value came as an argument of its own.
      if (i_ < argc_ && !std::string_view(argv_[i_]).starts_with("--"))
        status = usage_error(command_, fmt::format("--set {} {}: write the key and its value as one argument, "
                                                   "with '=': --set {}={}",
                                                   kv, argv_[i_], kv, argv_[i_]));
      else
        status = usage_error(command_, fmt::format("--set {}: not KEY=VALUE (e.g. --set machine.istreams=8)", kv));
      return false;
    }
    sets.push_back(v);
    return true;
  }
  int error(const std::string& msg) const { return usage_error(command_, msg); }

 private:
  int argc_;
  char** argv_;
  int i_;
  std::string_view command_;
};

// The options `exec` and `ipl` share (a machine run from the command line): its ETIM
// report, its timing model, its configuration and its instruction limit. True when `a`
// is one of them, with `status` non-zero if its value is wrong.
struct MachineRunOptions {
  std::string& profile;
  bool& timing;
  std::vector<std::string>& sets;
  std::vector<std::string>& config_files;
  uint64_t& max_instructions;
};

bool machine_run_option(Args& args, std::string_view a, MachineRunOptions o, int& status) {
  if (a == "--set") {
    args.set_value(o.sets, status);  // status set when it is wrong
    return true;
  }
  if (a != "--profile" && a != "--timing" && a != "--istreams" && a != "--config" && a != "--max-instructions")
    return false;
  const char* v = args.value();
  if (a == "--profile") {
    if (!v) status = args.error("--profile needs a file name");
    else o.profile = v;
  } else if (a == "--timing") {
    if (!v || (std::strcmp(v, "full") && std::strcmp(v, "base"))) status = args.error("--timing needs full or base");
    else o.timing = std::strcmp(v, "full") == 0;
  } else if (a == "--istreams") {
    if (!v) status = args.error("--istreams needs a number");
    else o.sets.push_back(std::string("machine.istreams=") + v);
  } else if (a == "--config") {
    if (!v) status = args.error("--config needs a YAML file");
    else o.config_files.push_back(v);
  } else if (!v || !parse_u64(v, o.max_instructions) || o.max_instructions == 0) {
    status = args.error("--max-instructions needs a positive number");
  }
  return true;
}

int exec_main(Args args) {
  app::ExecOptions o;
  int status = 0;
  while (!args.done()) {
    std::string_view a = args.next();
    if (is_help(a)) return print_help("exec");
    if (a == "--stats") o.stats = true;
    else if (machine_run_option(args, a, {o.profile, o.timing, o.sets, o.config_files, o.max_instructions}, status)) {
      if (status) return status;
    } else if (a == "--counters") {
      o.counters = true;
    } else if (a == "--large-pages") {
      o.large_pages = true;
    } else if (a == "--all-istreams-start") {
      o.all_istreams_start = true;
    } else if (a == "--env") {
      const char* v = args.value();
      if (!v || !std::strchr(v, '=')) return args.error("--env needs NAME=VALUE");
      o.env.push_back(v);
    } else if (a == "--root") {
      const char* v = args.value();
      if (!v) return args.error("--root needs a directory");
      o.root = v;
    } else if (a == "--seed") {
      const char* v = args.value();
      if (!v || !parse_u64(v, o.seed)) return args.error("--seed needs a number");
    } else if (a == "--max-processes") {
      const char* v = args.value();
      uint64_t n = 0;
      if (!v || !parse_u64(v, n) || n == 0 || n > 65536)
        return args.error("--max-processes needs a number from 1 to 65536");
      o.max_processes = unsigned(n);
    } else if (a == "--") {
      while (!args.done()) o.args.push_back(std::string(args.next()));
    } else if (a.starts_with("--")) {
      return args.error(fmt::format("unknown option {}", a));
    } else if (o.program.empty()) {
      o.program = std::string(a);
    } else {
      o.args.push_back(std::string(a));
    }
  }
  if (o.program.empty()) return args.error("exec needs a program (an s390x ELF file)");
  return app::run_exec(o);
}

int ipl_main(Args args) {
  app::IplOptions o;
  int status = 0;
  while (!args.done()) {
    std::string_view a = args.next();
    if (is_help(a)) return print_help("ipl");
    if (machine_run_option(args, a, {o.profile, o.timing, o.sets, o.config_files, o.max_instructions}, status)) {
      if (status) return status;
    } else if (a == "--scm") {
      o.scm = true;
    } else if (a == "--device") {
      if (args.done()) return args.error("--device needs a device's name (virtio-net-ccw)");
      o.devices.push_back(std::string(args.next()));
    } else if (a == "--watchdog") {
      if (args.done()) return args.error("--watchdog needs an action (inject-nmi, reset or none)");
      o.watchdog = std::string(args.next());
      if (o.watchdog != "inject-nmi" && o.watchdog != "reset" && o.watchdog != "none")
        return args.error(fmt::format("--watchdog {}: the action is inject-nmi, reset or none", o.watchdog));
    } else if (a == "--vm-name" || a == "--control-program") {
      if (args.done()) return args.error(fmt::format("{} needs a name", a));
      const std::string name(args.next());
      const size_t bad = emu::first_unencodable(name);
      if (name.empty() || bad != std::string::npos)
        return args.error(fmt::format("{} {}: a name of letters, digits, space and . - / _ (STSI stores it in EBCDIC){}", a,
                                      name, name.empty() ? "" : fmt::format("; '{}' at {} is not one", name[bad], bad + 1)));
      if (name.size() > 256) return args.error(fmt::format("{}: at most 256 characters (STSI's extended name)", a));
      if (a == "--vm-name") o.vm.name = name, o.vm.extended_name = true;
      else o.vm.control_program = name;
    } else if (a == "--vm-uuid") {
      if (args.done()) return args.error("--vm-uuid needs a UUID (32 hexadecimal digits)");
      const std::string text(args.next());
      if (!emu::parse_uuid(text, o.vm.uuid))
        return args.error(fmt::format("--vm-uuid {}: not a UUID (32 hexadecimal digits, dashes allowed)", text));
    } else if (a == "--dasd") {
      if (args.done()) return args.error("--dasd needs a file (a 3390 volume's image)");
      o.dasd.push_back(std::string(args.next()));
    } else if (a == "--console-input") {
      if (args.done()) return args.error("--console-input needs a file (or - for standard input)");
      o.console_input = std::string(args.next());
    } else if (a == "--") {
      while (!args.done()) {
        if (!o.parameters.empty()) o.parameters += ' ';
        o.parameters += args.next();
      }
    } else if (a.starts_with("--")) {
      return args.error(fmt::format("unknown option {}", a));
    } else if (o.image.empty()) {
      o.image = std::string(a);
    } else {
      return args.error(fmt::format("one image only ({} and {}); the parameters go after --", o.image, a));
    }
  }
  if (o.image.empty()) return args.error("ipl needs an image (a bare-metal s390x ELF, or a binary with its IPL PSW at 0)");
  return app::run_ipl(o);
}

// The options `run` and `config` share; false with `status` set when one is wrong or
// it was --help.
bool run_options(Args& args, std::string_view command, app::RunOptions& o, int& status, bool& list, bool& example) {
  while (!args.done()) {
    std::string_view a = args.next();
    if (is_help(a)) {
      status = print_help(command);
      return false;
    }
    if (a == "--set") {
      if (!args.set_value(o.sets, status)) return false;
    } else if (command == "run" && a == "--out") {
      const char* v = args.value();
      if (!v) {
        status = args.error("--out needs a directory (--out DIR)");
        return false;
      }
      o.out = v;
    } else if (command == "run" && a == "--trace") {
      const char* v = args.value();
      if (!v || !*v) {
        status = args.error("--trace needs a file (--trace FILE)");
        return false;
      }
      // A file the user names from here: absolute, so that system.trace.file's rule (a
      // relative path is in the run's folder) does not move it.
      o.sets.push_back("system.trace.file=" + std::filesystem::absolute(v).lexically_normal().string());
    } else if (command == "run" && a == "--no-progress") {
      o.progress = false;
    } else if (command == "run" && a == "--console") {
      const char* v = args.value();
      std::string_view p = v ? v : "";
      unsigned port = 0;
      auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), port);
      if (!v || ec != std::errc() || end != p.data() + p.size() || port > 65535) {
        status = args.error(v ? fmt::format("--console {}: not a port number (0 to 65535)", p)
                              : std::string("--console needs a port number (0 to 65535)"));
        return false;
      }
      o.console_port = int(port);
    } else if (command == "run" && a == "--report") {
      o.report = true;
    } else if (command == "run" && a == "--console-wait") {
      o.console_wait = true;
    } else if (command == "run" && a == "--pace") {
      const char* v = args.value();
      const std::string p = v ? v : "";
      char* end = nullptr;
      o.pace = std::strtod(p.c_str(), &end);
      if (p.empty() || *end || !(o.pace == 0 || (o.pace >= 1e-6 && o.pace <= 1e6))) {
        status = args.error(fmt::format("--pace {}: not a ratio of simulated to real time (1e-6 to 1e6, or 0)", p));
        return false;
      }
    } else if (command == "config" && a == "--config") {
      const char* v = args.value();
      if (!v) {
        status = args.error("--config needs a YAML file");
        return false;
      }
      o.configs.push_back(v);
    } else if (command == "config" && (a == "--list" || a == "--example")) {
      (a == "--list" ? list : example) = true;
    } else if (a.starts_with("--")) {
      status = args.error(fmt::format("unknown option {}", a));
      return false;
    } else {
      o.configs.push_back(std::string(a));
    }
  }
  return true;
}

int run_main(Args args, std::vector<std::string> command_line) {
  app::RunOptions o;
  o.command_line = std::move(command_line);
  int status = 0;
  bool list = false, example = false;
  if (!run_options(args, "run", o, status, list, example)) return status;
  if (o.configs.empty()) return args.error("run needs a configuration file (e.g. configs/demo.yaml)");
  if ((o.console_wait || o.pace >= 0) && o.console_port < 0)
    return args.error(fmt::format("{} needs --console PORT", o.console_wait ? "--console-wait" : "--pace"));
  return app::run_workload(o, app::subsystems);
}

int config_main(Args args, std::vector<std::string> command_line) {
  app::RunOptions o;
  o.command_line = std::move(command_line);
  int status = 0;
  bool list = false, example = false;
  if (!run_options(args, "config", o, status, list, example)) return status;
  if (list) {
    app::run_schema().write_listing(std::cout);
    return 0;
  }
  if (example) {
    app::run_schema().write_example(std::cout);
    return 0;
  }
  return app::check_run_config(o, app::subsystems);
}

// report RUN_DIR, or report DIR_A DIR_B [-o FILE].
int report_main(Args args) {
  std::vector<std::string> dirs;
  std::string file;
  while (!args.done()) {
    std::string_view a = args.next();
    if (is_help(a)) return print_help("report");
    if (a == "-o") {
      const char* v = args.value();
      if (!v) return args.error("-o needs a file name");
      file = v;
    } else if (a.starts_with("-")) {
      return args.error(fmt::format("unknown option {}", a));
    } else {
      dirs.push_back(std::string(a));
    }
  }
  if (dirs.empty() || dirs.size() > 2) return args.error("report needs a run folder, or two to compare");
  if (dirs.size() == 2) return app::report_compare(dirs[0], dirs[1], file);
  if (!file.empty()) return args.error("-o is for two runs (report DIR_A DIR_B -o FILE)");
  try {
    fmt::print("{}\n", report_html::write_run_report(dirs[0]).string());
    return 0;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // tpfemu's own messages go to standard error: standard output is the guest's (exec)
  // or the run's report.
  spdlog::set_default_logger(spdlog::stderr_color_st("tpfemu"));
  spdlog::set_level(spdlog::level::warn);
  spdlog::set_pattern("tpfemu: %l: %v");
  const std::vector<std::string> command_line(argv, argv + argc);
  int i = 1;
  if (i < argc && std::strcmp(argv[i], "--log-level") == 0) {
    if (i + 1 >= argc) return usage_error("", "--log-level needs a level (trace, debug, info, warn, error, off)");
    auto lvl = spdlog::level::from_str(argv[i + 1]);
    if (lvl == spdlog::level::off && std::strcmp(argv[i + 1], "off") != 0)
      return usage_error("", fmt::format("unknown log level {} (trace, debug, info, warn, error, off)", argv[i + 1]));
    spdlog::set_level(lvl);
    i += 2;
  }
  if (i >= argc) {  // nothing asked: what there is to ask
    print_usage(stderr);
    return 2;
  }
  std::string_view cmd = argv[i];
  if (cmd == "exec") return exec_main(Args(argc, argv, i + 1, cmd));
  if (cmd == "ipl") return ipl_main(Args(argc, argv, i + 1, cmd));
  if (cmd == "config") return config_main(Args(argc, argv, i + 1, cmd), command_line);
  if (cmd == "run") return run_main(Args(argc, argv, i + 1, cmd), command_line);
  if (cmd == "console") {
    if (i + 1 < argc && is_help(argv[i + 1])) return print_help(cmd);
    if (argc - i != 2) return usage_error(cmd, "console needs [HOST:]PORT");
    return app::console_client(argv[i + 1]);
  }
  if (cmd == "compare") {
    if (i + 1 < argc && is_help(argv[i + 1])) return print_help(cmd);
    std::vector<std::string> dirs;
    bool all = false;
    for (int k = i + 1; k < argc; ++k) {
      if (std::string_view(argv[k]) == "--all") all = true;
      else dirs.push_back(argv[k]);
    }
    if (dirs.size() != 2) return usage_error(cmd, "compare needs two output directories (compare DIR_A DIR_B [--all])");
    return app::compare_runs(dirs[0], dirs[1], all);
  }
  if (cmd == "report") return report_main(Args(argc, argv, i + 1, cmd));
  if (cmd == "--version" || cmd == "version") {
    fmt::print("tpfemu {}\n", app::tpfemu_version());
    return 0;
  }
  if (is_help(cmd) || cmd == "help") {
    print_usage(stdout);
    return 0;
  }
  return usage_error("", fmt::format("unknown command {} (run, compare, report, exec, ipl, config, console)", cmd));
}
