// Fuzz target: the YAML configuration loader and --set (config/config.h) against the
// machine's schema. The input is a YAML file; each of its lines that starts with
// "#set " (a comment to YAML) is also given as a --set assignment. Any outcome but a
// ConfigError or a valid configuration is a finding (libFuzzer: a crash or a
// sanitizer report; the replay program: the same).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "config/config.h"
#include "emu/machine_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    cfg::Config config(emu::machine_schema());
    config.load_yaml(text, "fuzz.yaml");
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("#set ", 0) == 0) config.set(line.substr(5));
    config.validate();
    (void)emu::machine_config(config);
  } catch (const cfg::ConfigError&) {
  }
  return 0;
}
