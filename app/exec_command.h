// `tpfemu exec PROGRAM.elf`: one standalone guest program in Linux-compatible mode,
// on one or more I-streams of the machine model.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emu/machine_config.h"

namespace app {

struct ExecOptions {
  std::string program;
  std::vector<std::string> args;     // argv[1..] for the guest
  bool stats = false;                // one line of counts and speed on stderr
  bool counters = false;             // per-I-stream, cache and TLB counters on stderr
  std::string profile;               // ETIM report path; JSON beside it (.json)
  uint64_t max_instructions = 0;     // 0: no limit
  bool timing = true;                // cache and TLB model (false: base cycles only)
  bool large_pages = false;          // program break in 1 MB pages
  std::vector<std::string> env;      // the guest's environment, K=V (empty by default)
  std::string root;                  // host directory that is the guest's "/" ("" : no files)
  uint64_t seed = 0;                 // AT_RANDOM and getrandom
  bool all_istreams_start = false;   // every I-stream runs the program from its entry
  unsigned max_processes = 256;      // a fork past it stops the run (a fork bomb)
  std::vector<std::string> config_files;  // YAML files, applied in order over the defaults
  std::vector<std::string> sets;          // key.path=value overrides, applied last
};

// Exit status: the guest's own on exit; 128+signal when a signal ended it (a program
// check without a handler, or a signal it sent itself); 124 when --max-instructions
// stopped it, when every thread waits for something nothing will bring, or when a fork
// passed --max-processes; 2 for bad input.
int run_exec(const ExecOptions& opts);

}  // namespace app
