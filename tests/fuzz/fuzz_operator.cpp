// Fuzz target: the operator command parser (os/operator.h) with every subsystem's
// grammar (ZTRAP, the devices' SCM commands, paging's DASM and DUMP), as a command
// typed on the console or written in an operator: entry reaches it. Each line of the
// input is one command. Any outcome but a parsed command or an cfg::ConfigError is a
// finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "app/subsystems.h"
#include "os/operator.h"

namespace {

os::OperatorGrammars all_grammars() {
  os::OperatorGrammars g;
  for (const auto& sub : app::subsystems())
    for (auto& one : sub->operator_grammars()) g.push_back(std::move(one));
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const os::OperatorGrammars grammars = all_grammars();
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) {
    try {
      (void)os::parse_operator_command(line, grammars);
    } catch (const cfg::ConfigError&) {
    }
  }
  return 0;
}
