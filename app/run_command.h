// `tpfemu run CONFIG.yaml [--out DIR] [--set key.path=value ...]` and
// `tpfemu compare DIR_A DIR_B`.
#pragma once
#include <string>
#include <vector>

#include "os/subsystem.h"

namespace app {

// A run with an operator console and no --pace runs a simulated 10 ms a host second, so
// that a person has time to type before the run is over (--pace 0: as fast as it can).
inline constexpr double kConsolePace = 0.01;

struct RunOptions {
  std::vector<std::string> configs;  // YAML files, applied in order
  std::vector<std::string> sets;     // overrides, applied last
  std::string out;                   // output directory (default out/<config name>)
  bool progress = true;              // a progress line on a terminal for long runs
  int console_port = -1;             // >= 0: the operator console on 127.0.0.1 (0: any port)
  std::vector<std::string> command_line;  // as typed, for the run's config.yaml
  bool console_wait = false;         // the run starts once a console client connects
  // > 0: simulated time runs at this ratio to real time (console polls); 0: as fast as it
  // can; < 0 (not given): kConsolePace with a console, else as fast as it can.
  double pace = -1;
  bool report = false;               // --report: report.html at the end (report/html_report.h)
};

// Runs the configuration with the subsystems `subsystems` makes; writes summary.txt,
// summary.json, run.log, dumps.txt and the subsystems' reports to the output
// directory. Exit status 0, or 2 for bad configuration (the message names the place).
// Before the run, the output directory gets config.yaml (app/run_record.h); the files a
// run of this configuration may write are removed first (others are left alone), and
// a run that fails before it starts creates no directory.
int run_workload(const RunOptions& opts, const os::SubsystemFactory& subsystems);
// `tpfemu config --config X.yaml`: loads the configuration and builds the machine and
// the control program as a run would (the image read, its programs and the operator
// commands checked), runs nothing, and prints the record a run would write as
// config.yaml. Exit status 0, or 2 with the message naming the place.
int check_run_config(const RunOptions& opts, const os::SubsystemFactory& subsystems);

// run.log's first lines: what it holds, and the label of its first column (the
// simulated time in cycles).
std::string run_log_header(double clock_ghz);
// run.log's closing lines: the host memory the run took, from the model's counts.
std::string run_log_host_memory(emu::Machine& machine);

// The progress line of a run on a terminal: the messages done, of how many when the
// run stops after a number of them, or the simulated time it runs for when it stops
// after workload.duration (`duration_s` > 0); the host seconds so far.
std::string progress_line(uint64_t done, uint64_t target, double simulated_s, double duration_s, double host_s);

// `all`: each I-stream's rows too.
int compare_runs(const std::string& dir_a, const std::string& dir_b, bool all = false);
// `tpfemu report A B`: the same comparison as a page (report/comparison.h), written to
// `file` (default A/compare-<B's folder name>.html); prints its path.
int report_compare(const std::string& dir_a, const std::string& dir_b, const std::string& file);

}  // namespace app
