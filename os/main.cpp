// tpfemu: the command line.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <string>
#include <string_view>

#include "os/exec_command.h"

namespace {

constexpr const char* kUsage = R"(usage: tpfemu [--log-level LEVEL] COMMAND ...

commands:
  exec PROGRAM.elf [options] [-- guest args...]
      Run a static s390x Linux program (Linux-compatible mode).
      --stats               print instructions=N host_seconds=S mips=M on stderr
      --profile FILE        write the ETIM instruction count report to FILE and
                            the same rows as JSON to FILE with .json
      --max-instructions N  stop a runaway program after N instructions

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
    } else if (a == "--istreams") {
      const char* v = value("--istreams");
      uint64_t n = 0;
      if (!v || !parse_u64(v, n) || n < 1 || n > emu::kMaxIStreams)
        return usage_error("--istreams needs a number from 1 to 64");
      o.machine.istreams = unsigned(n);
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

}  // namespace

int main(int argc, char** argv) {
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
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    fmt::print("{}", kUsage);
    return 0;
  }
  return usage_error(fmt::format("unknown command {}", cmd));
}
