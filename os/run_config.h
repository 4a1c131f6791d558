// The control program's settings (`system:`) and the workload (`workload:`): values
// only; defaults, units, checks and sources are declared once in run_config.cpp's
// schema, like the machine's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <memory>

#include "config/config.h"
#include "emu/machine_config.h"
#include "os/operator.h"
#include "os/subsystem.h"
#include "os/ztrap_config.h"

namespace os {

struct SystemConfig {
  std::string image;            // guest ELF holding the application programs (resolved: see Config::get_path)
  double time_slice_ms = 0;     // an ECB running this long without giving up control is sliced
  double timeout_ms = 0;        // CPU time an ECB may use in all before the CTL-10-style timeout
  unsigned svc_cost = 0;        // cycles of SVC entry and exit (every service pays it)
  unsigned service_cost = 0;    // cycles of a host-implemented service's own work (default for all)
  unsigned create_cost = 0;     // creating an ECB (address space, ECB block)
  unsigned exit_cost = 0;       // ECB exit (returning its storage)
  unsigned dispatch_cost = 0;   // CPU loop: taking an ECB from a list and loading it
  uint64_t stack_size = 0;      // bytes of stack per ECB or thread
  uint64_t heap31_size = 0;     // bytes of the 31-bit heap area per ECB (private storage, brk)
  uint64_t heap64_size = 0;     // bytes of the 64-bit heap area per ECB
  unsigned max_threads = 0;     // threads per process
  uint64_t shared_size = 0;     // bytes of system storage shared by all ECBs (TPF_EVM_SHARED)
  double timeline_s = 0;        // system.timeline: a row of timeline.txt this often (0: none)
  std::string headline;         // system.headline: the summary's headline figure's key ("auto": chosen)
  std::string trace_file;       // system.trace.file: the Trace Event file ("": none; relative: to the run's folder)
  uint64_t trace_max_events = 0;  // system.trace.max_events: the trace stops adding events here
};

enum class Arrivals { Closed, Open };

struct WorkloadConfig {
  std::string program;          // the program each input message enters
  std::string prelude;          // if not empty: entered once at the start; messages begin when it ends
  std::string prelude_text;     // its message text
  Arrivals arrivals = Arrivals::Closed;
  unsigned terminals = 0;       // closed: this many terminals, one message outstanding each
  bool route_by_terminal = false; // terminal t's messages to I-stream t % istreams (else round-robin)
  double think_ms = 0;          // closed: mean think time (exponential); 0: none
  double rate = 0;              // open: messages per second (Poisson arrivals)
  uint64_t message_size = 0;    // bytes of each input message (min)
  std::string message_text;     // if not empty, every message is this text
  std::string data_file;        // if not empty, a TLS trace mapped read-only at TPF_EVM_DATA (resolved)
  uint64_t message_size_max = 0;// uniform between message_size and this (0: fixed size)
  uint64_t messages = 0;        // stop after this many messages complete (0: use seconds)
  double seconds = 0;           // or after this many simulated seconds
  uint64_t warmup_messages = 0; // completed messages excluded from the figures
  uint64_t seed = 0;            // the deterministic generator's seed
};

struct RunConfig {
  emu::MachineConfig machine;
  SystemConfig system;
  WorkloadConfig workload;
  ZtrapConfig ztrap;                     // system.ztrap.*, system.console.* (os/ztrap_config.h)
  std::vector<OperatorEntry> operators;  // `operator:` commands, in time order (os/operator.h)
  OperatorGrammars operator_grammars;    // the subsystems' commands (ZTRAP's too)
  std::string source;  // the YAML file it came from (for relative paths)
  // The subsystems that plug into the control program, and the loaded values their
  // own keys (system.<name>.*) are bound from when the control program makes them.
  SubsystemFactory subsystems;
  std::shared_ptr<const cfg::Schema> schema;
  std::shared_ptr<const cfg::Config> values;
};

// The schema of a run: machine, system (the control program's keys, then each
// subsystem's), workload and operator sections.
cfg::Schema run_schema(const Subsystems& subsystems);
// The control program's part of a validated configuration (no subsystems); `grammars`:
// the subsystems' operator commands, for the operator: entries.
RunConfig run_config(const cfg::Config& config, const OperatorGrammars& grammars);
// Every operator command grammar of `subsystems`, in their order.
OperatorGrammars operator_grammars_of(const Subsystems& subsystems);
// Defaults, then the files in order, then the overrides; throws cfg::ConfigError.
RunConfig load_run_config(const SubsystemFactory& subsystems, const std::vector<std::string>& files,
                          const std::vector<std::string>& sets = {});

}  // namespace os
