#include "app/subsystems.h"

#include "devices/devices.h"
#include "fetch/fetch_subsystem.h"
#include "heap/ecb_heap.h"
#include "le/le_subsystem.h"
#include "lock/lock_subsystem.h"
#include "os/displays.h"
#include "os/instruction_trace.h"
#include "os/rmf_workload.h"
#include "os/zstat.h"
#include "os/ztrap_subsystem.h"
#include "paging/paging.h"

namespace app {

os::Subsystems subsystems() {
  os::Subsystems s;
  s.push_back(std::make_unique<heap::EcbHeap>());
  s.push_back(std::make_unique<lock::LockSubsystem>());
  s.push_back(std::make_unique<le::LeStorage>());
  s.push_back(std::make_unique<devices::DeviceSubsystem>());
  s.push_back(std::make_unique<paging::Paging>());  // pages out to the devices: installed after them
  s.push_back(std::make_unique<fetch::ProgramFetch>());
  s.push_back(std::make_unique<os::ZtrapSubsystem>());
  s.push_back(std::make_unique<os::SystemStatusDisplay>());
  s.push_back(std::make_unique<os::SystemDisplays>());
  s.push_back(std::make_unique<os::RmfWorkloadActivity>());
  s.push_back(std::make_unique<os::InstructionTrace>());
  return s;
}

const cfg::Schema& run_schema() {
  static const cfg::Schema schema = os::run_schema(subsystems());
  return schema;
}

os::RunConfig load_run_config(const std::vector<std::string>& files, const std::vector<std::string>& sets) {
  return os::load_run_config(subsystems, files, sets);
}

}  // namespace app
