// The machine's devices as a subsystem of the control program: Flash Express SCM and
// DASD page volumes (flashsim/) on the machine's I/O path (emu/io.h), the EADM service
// guest programs call (TPF_SVC_EADM: the ECB waits for its request while its I-stream
// runs other work), and devices.txt / devices.json for a run that has devices. The
// paging subsystem (RSM/ASM) starts its page-ins and page-outs through scm() and
// dasd() in the same way.
#pragma once
#include <memory>
#include <vector>

#include "devices/devices_config.h"
#include "emu/io.h"
#include "flashsim/dasd.h"
#include "flashsim/scm.h"
#include "os/operator.h"
#include "os/subsystem.h"

namespace devices {

// A flashsim device on a subchannel: machine cycles to simulated nanoseconds and back.
// Starts from I-streams whose clocks differ by up to a quantum reach the device in the
// order they are made; one that is earlier than the last is taken at the last's time
// (flashsim takes requests in time order).
class Port : public emu::IoDevice {
 public:
  Port(flashsim::Device& device, double clock_ghz) : device_(device), ghz_(clock_ghz) {}
  std::string name() const override { return device_.name(); }
  emu::IoResult start(uint64_t now, emu::IoOperation& op) override;
  flashsim::Device& device() { return device_; }
  uint64_t ns_of(uint64_t cycles) const { return uint64_t(double(cycles) / ghz_); }
  uint64_t cycles_of(uint64_t ns) const { return uint64_t(double(ns) * ghz_ + 0.999999); }

 private:
  flashsim::Device& device_;
  double ghz_;
  uint64_t last_ns_ = 0;
};

// A request for a flashsim device, with the host buffers its blocks move through.
struct Transfer : emu::IoOperation {
  flashsim::Request request;
  std::vector<std::vector<uint8_t>> buffers;
  flashsim::Completion completion;
};

class DeviceSubsystem : public os::Subsystem {
 public:
  void declare(cfg::Schema&) const override {}
  void declare_machine(cfg::Schema& schema) const override { devices_section().declare(schema); }
  void configure(const cfg::Config& config) override { config_ = devices_section().read(config); }
  void install(os::System& system) override;
  // D M=SCM[(DETAIL)], CF SCM(amount|start-end),ONLINE|OFFLINE, F SCM,FAIL,CARD=pair.card
  os::OperatorGrammars operator_grammars() const override;

  flashsim::ScmDevice* scm() { return scm_.get(); }
  const std::vector<std::unique_ptr<flashsim::DasdVolume>>& dasd() const { return dasd_; }
  unsigned scm_subchannel() const { return scm_sch_; }
  unsigned dasd_subchannel(size_t volume) const { return dasd_sch_.at(volume); }
  // The SVC dump data sets' volumes (machine.dasd.dump_volumes).
  const std::vector<std::unique_ptr<flashsim::DasdVolume>>& dump_volumes() const { return dump_; }
  unsigned dump_subchannel(size_t volume) const { return dump_sch_.at(volume); }
  // The PLPA page data set's volume (machine.dasd.plpa_volume), nullptr if none.
  flashsim::DasdVolume* plpa_volume() const { return plpa_.get(); }
  unsigned plpa_subchannel() const { return plpa_sch_; }

 private:
  void eadm(emu::Cpu& cpu, os::Ecb& e);
  void eadm_done(os::Ecb& e, uint64_t aob, const std::shared_ptr<Transfer>& t, const emu::IoInterruption& i);
  std::vector<const flashsim::Device*> all() const;
  std::string command(const os::OperatorCommand& c, uint64_t now, uint64_t ns);

  os::System* system_ = nullptr;
  DevicesConfig config_;
  std::unique_ptr<flashsim::ScmDevice> scm_;
  std::vector<std::unique_ptr<flashsim::DasdVolume>> dasd_;
  std::vector<std::unique_ptr<Port>> ports_;
  unsigned scm_sch_ = ~0u;
  std::vector<unsigned> dasd_sch_;
  std::vector<std::unique_ptr<flashsim::DasdVolume>> dump_;
  std::vector<unsigned> dump_sch_;
  std::unique_ptr<flashsim::DasdVolume> plpa_;
  unsigned plpa_sch_ = ~0u;
  uint64_t eadm_requests_ = 0;  // numbers each request (its tag)
  unsigned message_number_ = 0;  // of the displays (IEE174I ... nnn), from 1
};

}  // namespace devices
