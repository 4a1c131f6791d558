// `tpfemu exec PROGRAM.elf`: one standalone guest program in Linux-compatible mode.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace os {

struct ExecOptions {
  std::string program;
  std::vector<std::string> args;     // argv[1..] for the guest
  bool stats = false;                // one line of counts and speed on stderr
  std::string profile;               // ETIM report path; JSON beside it (.json)
  uint64_t max_instructions = 0;     // 0: no limit
};

// Exit status: the guest's own on exit; 128+signal for a program check (as if Linux
// had delivered the signal); 124 when --max-instructions stopped it; 2 for bad input.
int run_exec(const ExecOptions& opts);

}  // namespace os
