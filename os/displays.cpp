#include "os/displays.h"

#include <cctype>
#include <fmt/format.h>

#include "config/config.h"
#include "emu/isa/facility.h"
#include "os/operator.h"
#include "os/simulated_time.h"

namespace os {
namespace {

bool is_display(std::string_view text) {
  const std::string t = squeezed_command(text);
  return t == "DM=CPU" || t.rfind("DA,", 0) == 0 || t.rfind("DIOS", 0) == 0;
}

void check_display(std::string_view text) {
  const std::string t = squeezed_command(text);
  if (t == "DM=CPU" || t == "DA,L" || t == "DIOS" || t == "DIOS,CONFIG") return;
  if (t.rfind("DA,", 0) == 0) throw cfg::ConfigError(fmt::format("\"{}\": D A takes L (D A,L)", text));
  throw cfg::ConfigError(fmt::format("\"{}\": D IOS takes ,CONFIG or nothing", text));
}

// z/OS's CPU time in IEE114I's CT=: seconds to the millisecond, 8 characters (nnnnn.nnn).
std::string cpu_time(uint64_t cycles, double ghz) {
  return fmt::format("{:08.3f}", double(cycles) / ghz / 1e9);
}

}  // namespace

OperatorGrammars SystemDisplays::operator_grammars() const {
  return {{.owner = "DISPLAY", .syntax = "D M=CPU, D A,L, D IOS[,CONFIG]", .mine = is_display, .check = check_display}};
}

void SystemDisplays::install(System& system) {
  system_ = &system;
  system.add_operator_commands(
      "DISPLAY",
      "D M=CPU                     the I-streams (CPs), online, and the machine (IEE174I)\n"
      "D A,L                       the address spaces (processes) and their ECBs in use (IEE114I)\n"
      "D IOS,CONFIG                the subchannels, their devices and the I/O in flight (IOS506I)\n",
      [this](const OperatorCommand& c, uint64_t now, uint64_t ns, bool) { return display(c, now, ns); });
}

std::string SystemDisplays::display(const OperatorCommand& c, uint64_t now, uint64_t ns) {
  const std::string t = squeezed_command(c.text);
  const std::vector<std::string> lines = t == "DM=CPU" ? cpus(ns) : t == "DA,L" ? address_spaces(ns) : io_config(ns);
  return system_->operator_answer(now, c.text, lines);
}

// IEE174I (DISPLAY M=CPU's form): ID, + online; the CPC line names the machine modelled.
std::vector<std::string> SystemDisplays::cpus(uint64_t ns) {
  const emu::Machine& m = system_->machine();
  std::vector<std::string> out = {fmt::format("IEE174I {} DISPLAY M {}", console_time(ns), ++message_number_),
                                  "PROCESSOR STATUS", "ID  CPU                  SERIAL"};
  for (unsigned i = 0; i < m.istreams(); ++i) out.push_back(fmt::format("{:02X}  +                    N/A", i));
  out.push_back(fmt::format("CPC ND = {} (tpfemu), {} GHz, {} I-STREAMS", emu::generation_name(m.config().arch),
                            m.config().clock_ghz, m.istreams()));
  out.push_back("+ ONLINE    - OFFLINE    . DOES NOT EXIST");
  return out;
}

// IEE114I (DISPLAY A,L's form): the counts line, then a line per address space: its
// name, A=asid, its ECBs in use and CT= (CPU so far). The date is 0000.000, z/OS's
// "cannot determine": the model has no date.
std::vector<std::string> SystemDisplays::address_spaces(uint64_t ns) {
  const SystemStatus s = system_->status();
  const double ghz = system_->machine().config().clock_ghz;
  std::vector<std::string> out = {
      fmt::format("IEE114I {} 0000.000 ACTIVITY {}", console_time(ns), ++message_number_),
      " JOBS     M/S    TS USERS    SYSAS    INITS   ACTIVE/MAX VTAM     OAS",
      fmt::format("{:05}    00000    00000      00000    00000    00000/00000       00000", s.spaces.size())};
  for (const AddressSpaceStatus& a : s.spaces)
    out.push_back(fmt::format(" {:<8} {:<8} {:<8} {}  A={:04X}   ECBS={:<4} CT={}", a.name, a.name, a.name,
                              a.nondispatchable ? "NSW" : "OWT", a.id, a.ecbs, cpu_time(a.cpu_cycles, ghz)));
  out.push_back(fmt::format(" {} ECBS IN USE", s.ecbs));
  return out;
}

// IOS506I (DISPLAY IOS,CONFIG's form): the channel subsystem as the model has it, a line
// per subchannel and its device; the model has no IODF and no channel paths.
std::vector<std::string> SystemDisplays::io_config(uint64_t ns) {
  emu::ChannelSubsystem& io = system_->machine().io();
  std::vector<std::string> out = {fmt::format("IOS506I {} I/O CONFIG DATA", console_time(ns)),
                                  "ACTIVE IODF DATA SET = N/A (the devices of machine.scm and machine.dasd)",
                                  "CHANNEL PATHS: NOT MODELLED (a request goes straight to its device)",
                                  fmt::format("SUBCHANNELS {}  I/O STARTED {}  COMPLETED {}  IN FLIGHT {}", io.devices(),
                                              io.started(), io.completed(), io.pending()),
                                  "SCH   DEVICE"};
  for (unsigned sch = 0; sch < io.devices(); ++sch) out.push_back(fmt::format("{:04X}  {}", sch, io.device(sch).name()));
  if (io.devices() == 0) out.push_back("NO DEVICES");
  return out;
}

}  // namespace os
