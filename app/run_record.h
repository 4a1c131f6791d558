// A run's config.yaml: what it ran, written into its output directory before it
// starts, and printed by `tpfemu config --config X.yaml`. Also what `tpfemu compare`
// reads to show how two runs' configurations differ.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "os/run_config.h"

namespace app {

// The record's text: comment lines naming tpfemu's version, the command line, the
// configuration files and each file a path key resolved to with its SHA-256; then the
// effective configuration (cfg::Config::write_effective: every key, each followed by
// where its value came from), path keys written as the files they resolved to, so that
// `tpfemu run config.yaml` runs the same again. Nothing in it is host time.
void write_run_record(std::ostream& out, const os::RunConfig& config, const std::vector<std::string>& command_line,
                      const std::vector<std::string>& files);

// A record read back: the header's "name: value" lines ("tpfemu", "system.image sha256",
// ...) and every key and list field of the configuration by its dotted path
// ("machine.istreams", "operator[1].command"), each as written in the file.
struct RunRecord {
  std::map<std::string, std::string> header;
  std::map<std::string, std::string> values;
};
// Throws std::runtime_error naming the file if it cannot be read or is not YAML.
RunRecord read_run_record(const std::string& path);

// For each configuration file that is a run's config.yaml: the files its header recorded
// (the image, a trace) whose SHA-256 differs from the file this configuration now
// resolves, one warning each naming both (a run of it may not give the recorded figures).
std::vector<std::string> recorded_file_changes(const os::RunConfig& config, const std::vector<std::string>& files);

// The command line as a shell would take it back: arguments with spaces or quotes in
// single quotes.
std::string shell_command_line(const std::vector<std::string>& args);

}  // namespace app
