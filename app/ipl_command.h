// `tpfemu ipl IMAGE`: a bare-metal s390x program that owns the whole machine (system
// mode: supervisor state, interruptions through the lowcore, the SCLP console), loaded
// as QEMU's -kernel loads one. Needs nothing of the control program.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emu/system/vm_description.h"

namespace app {

struct IplOptions {
  std::string image;
  std::string parameters;            // after --, joined by spaces: the kernel command line
  uint64_t max_instructions = 0;     // 0: no limit
  std::string profile;               // ETIM report path; JSON beside it (.json)
  std::string console_input;         // a file whose bytes are the SCLP console's input ("-": stdin)
  bool timing = true;                // cache model (false: base cycles only)
  std::vector<std::string> config_files;
  std::vector<std::string> sets;
  std::vector<std::string> dasd;     // 3390 volume images, one subchannel each (emu/system/eckd.h)
  bool scm = false;                  // Flash Express behind an EADM subchannel, after the volumes
  std::vector<std::string> devices;  // --device NAME: virtio-net-ccw (emu/system/virtio_ccw.h), after SCM
  std::string watchdog;              // the diag288 watchdog's expiry action; empty: no watchdog
  emu::VirtualMachineDescription vm;  // STSI 3.2.2: --vm-name, --vm-uuid, --control-program
};

// Exit status: the low byte of the disabled-wait PSW's instruction address (the
// program's own code; 0 when every I-stream is stopped); 124 when --max-instructions stopped
// it, when every I-stream waits for an interruption nothing will bring, or at the host
// memory limit; 125 when it did something tpfemu does not model yet (stderr says what);
// 2 for bad input.
int run_ipl(const IplOptions& opts);

}  // namespace app
