// The z/TPF-like control program, put together from its parts: EVM and processes
// (os/evm.h), the CPU loop (os/cpu_loop.h), the SVC table (os/svc_table.h) and the
// services (os/services.cpp), the workload driver (os/workload.h), the measurement
// window (os/measurement.h), dumps (os/dumps.h) and operator commands
// (os/operator_desk.h). Subsystems plug in through os/subsystem.h. It uses the
// machine (emu/) through its small interfaces: Dispatcher, SvcHandler, EventQueue.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <string>
#include <vector>

#include "emu/machine.h"
#include "os/cpu_loop.h"
#include "os/dispatch_observer.h"
#include "os/dumps.h"
#include "os/evm.h"
#include "os/measurement.h"
#include "os/operator_desk.h"
#include "os/rmf_cpu_activity.h"
#include "os/run_config.h"
#include "os/subsystem.h"
#include "os/summary.h"
#include "os/svc_table.h"
#include "os/workload.h"

namespace os {

class ControlProgram : public emu::Dispatcher,
                       public emu::SvcHandler,
                       public emu::PageFaultHandler,
                       public emu::IoInterruptHandler,
                       public System {
 public:
  // Makes the configuration's subsystems, binds their settings and installs them.
  ControlProgram(emu::Machine& machine, const RunConfig& config);
  ~ControlProgram() override;

  // Starts the workload and runs until it is done; returns the figures.
  RunSummary run();
  const std::string& log() const { return log_; }
  const std::string& dumps() const { return dumps_.text(); }
  uint64_t frames_in_use() const { return evm_.frames_in_use(); }
  void set_progress(Workload::Progress p) { workload_.set_progress(std::move(p)); }
  // A signal number the host stores (SIGINT, SIGTERM) to end the run at the next step
  // of the machine; the run then ends early, its reports written and marked.
  void set_host_stop(const std::atomic<int>* signal) { host_stop_ = signal, machine_.set_host_stop(signal); }
  // The signal that ended run(), 0 if none did.
  int stopped_by_signal() const { return stopped_by_signal_; }
  // The operator console (os/console.h): set before run().
  void set_console(OperatorConsole* console) { desk_.set_console(console); }
  // One operator command at simulated time `now` (cycles), as if typed on the console.
  std::string operator_command(const std::string& text, uint64_t now) { return desk_.command(text, now); }

  // Who hears of every dispatch, SVC, page wait and timeline row (a trace of the run;
  // nullptr: nobody). Set before run(); it must outlive the run.
  void set_observer(DispatchObserver* observer) { loop_.set_observer(observer); }

  // The report files the subsystems registered, in order.
  const std::vector<ReportFile>& reports() const { return reports_; }

  // For tests: the lists' contents (ECB numbers, top first) and the ECBs in flight.
  std::vector<uint64_t> list_contents(unsigned istream, const char* which) const {
    return loop_.list_contents(istream, which);
  }

  // emu::Dispatcher, emu::SvcHandler, emu::PageFaultHandler
  bool dispatch(unsigned istream, Why why) override { return loop_.dispatch(istream, why); }
  bool program_check(unsigned istream, const emu::RunResult& r) override;
  void supervisor_call(emu::Cpu& cpu, uint8_t number) override;
  Action page_fault(emu::Cpu& cpu, uint64_t address) override;
  // emu::IoInterruptHandler: the starter's `done`.
  void io_interruption(const emu::IoInterruption& i) override;

  // System (os/subsystem.h)
  emu::Machine& machine() override { return machine_; }
  const RunConfig& config() const override { return config_; }
  const RunSummary& summary() const override { return stats_; }
  MeasurementWindow measurement_window() const override { return measurement_.window(); }
  const emu::SymbolTable& symbols() const override { return evm_.symbols(); }
  emu::AddressSpace& system_space() override { return evm_.system_space(); }
  std::string symbolize(uint64_t address) const override { return evm_.symbolize(address); }
  void add_svc(SvcLine line) override { svcs_.add(std::move(line)); }
  void add_ecb_info(uint64_t code, std::function<uint64_t(const Ecb&)> value) override;
  bool set_image_array(const std::string& symbol, size_t index, uint64_t value, unsigned size) override {
    return evm_.set_image_array(symbol, index, value, size);
  }
  void every(uint64_t interval, std::function<void(uint64_t now)> fn) override;
  void at(uint64_t when, std::function<void()> fn) override { machine_.events().schedule(when, std::move(fn)); }
  void add_operator_commands(std::string owner, std::string help, OperatorHandler handler) override;
  void add_report(ReportFile report) override { reports_.push_back(std::move(report)); }
  void add_summary_counter(SummaryCounter counter) override { counters_.push_back(std::move(counter)); }
  void add_summary_note(std::function<std::string()> text) override { notes_.push_back(std::move(text)); }
  void add_summary_headline(SummaryHeadline headline) override { headlines_.push_back(std::move(headline)); }
  SystemStatus status() const override;
  const Ecb* running(unsigned istream) const override { return loop_.current(istream); }
  void on_measurement_open(std::function<void(uint64_t now)> fn) override { measurement_.on_open(std::move(fn)); }
  void add_timeline_column(TimelineColumn column) override {
    if (timeline_) timeline_->add(std::move(column));
  }
  void on_timeline_interval(std::function<void(uint64_t now)> fn) override {
    if (timeline_) interval_ends_.push_back(std::move(fn));
  }
  void set_data_reader(std::function<std::vector<uint8_t>(const std::string&)> reader) override;
  void park(emu::Cpu& cpu, Ecb& e, WaitList& list, std::string waiting_on) override {
    loop_.park(cpu, e, list, std::move(waiting_on));
  }
  void make_ready(Ecb& e, uint64_t now) override { loop_.make_ready(e, false, now); }
  void set_dispatchable(Process* p, bool dispatchable, uint64_t now) override {
    dispatchable ? loop_.release(p, now) : loop_.hold(p, now);
  }
  void abend(emu::Cpu& cpu, Ecb& e, const std::string& dump) override;
  void log(const std::string& line) override;
  void console_message(uint64_t now, const std::string& text) override;
  void for_each_process(const std::function<void(Process&)>& fn) override;
  unsigned attach_device(emu::IoDevice& device) override { return machine_.io().attach(device); }
  std::vector<CommonPage> program_pages() const override { return evm_.program_pages(); }
  std::vector<CommonPage> shared_area_pages() const override { return evm_.shared_area_pages(); }
  std::vector<Subsystem*> subsystems() const override;
  void withdraw_common_page(uint64_t address) override;
  void restore_common_page(uint64_t address) override;
  bool start_io(unsigned subchannel, uint64_t now, std::shared_ptr<emu::IoOperation> op,
                std::function<void(const emu::IoInterruption&)> done) override;

 private:
  // The error for a program name (workload.program, workload.prelude) the image does not
  // have: where the name was given, and the programs the image has.
  std::runtime_error not_a_program(std::string_view key, const std::string& name) const;
  // ECBs: made, started, ended.
  Ecb* new_ecb(const std::string& program, std::shared_ptr<Process> process, unsigned home);
  std::shared_ptr<Process> new_process();  // and the subsystems' process_starting
  Ecb* ecb_for_input(unsigned istream, InputMessage m);
  void finish(unsigned istream, Ecb& e, int64_t rc);
  void end_ecb(Ecb& e);
  void timeout(unsigned istream, Ecb& e);
  void start_periodic(uint64_t interval, const std::function<void(uint64_t)>& fn, uint64_t after);
  bool still_running() const;
  void begin_messages(uint64_t now);  // the measurement and the driver start
  void start_prelude();
  void start_timeline();
  // After an ECB of `p` ended abnormally: if every ECB left in it waits on a word of its
  // own storage or on a thread of it, none can ever be released (the one that ended may
  // have held the lock they wait for), so each ends with a dump saying so.
  // The exit costs are charged to `istream`, the one whose service found it out.
  void end_if_stuck(Process& p, unsigned istream);
  // SVC `nr` of the running ECB `e` through the SVC table (ENOSYS if it has none).
  void call_svc(emu::Cpu& cpu, Ecb& e, uint64_t nr);
  // The run's end told to the observer: each I-stream's clock and instruction count.
  void observe_run_end(DispatchObserver& o) const;
  bool stuck(const Ecb& e) const;
  // Why the run cannot go on: which ECBs wait on what (nothing can run, nothing is pending).
  std::string no_progress() const;
  std::string symbol_suffix(uint64_t address) const {
    const std::string s = evm_.symbolize(address);
    return s.empty() ? "" : " (" + s + ")";
  }

  // The control program's own services (os/services.cpp).
  void install_services();
  int64_t svc_create(emu::Cpu& cpu, Ecb& e);
  int64_t svc_thread_create(emu::Cpu& cpu, Ecb& e);
  void svc_getstor(emu::Cpu& cpu, Ecb& e, bool vio, bool above_the_bar = false);
  void svc_thread_join(emu::Cpu& cpu, Ecb& e);
  void svc_delay(emu::Cpu& cpu, Ecb& e);
  void svc_wait(emu::Cpu& cpu, Ecb& e);
  void svc_post(emu::Cpu& cpu);
  void svc_word_wait(emu::Cpu& cpu, Ecb& e);
  uint64_t svc_word_wake(emu::Cpu& cpu, Ecb& e);
  int64_t svc_write(Ecb& e, uint64_t fd, uint64_t buf, uint64_t len);
  void svc_log(emu::Cpu& cpu, Ecb& e);
  void svc_ecb_info(emu::Cpu& cpu, Ecb& e);
  std::string read_string(Ecb& e, uint64_t addr);

  emu::Machine& machine_;
  RunConfig config_;
  Evm evm_;
  Subsystems subsystems_;
  SvcTable svcs_;
  Dumps dumps_;
  CpuLoop loop_;
  Measurement measurement_;
  Workload workload_;
  OperatorDesk desk_;
  uint64_t ecb_return_ = 0, thread_return_ = 0;

  std::map<uint64_t, std::unique_ptr<Ecb>> ecbs_;
  uint64_t next_ecb_ = 1;
  struct EventCount {
    uint64_t posts = 0;
    WaitList waiters;
  };
  std::map<uint64_t, EventCount> events_;
  // ECBs waiting on a storage word (WORD_WAIT), by the word's absolute address.
  std::map<uint64_t, WaitList> word_waiters_;
  std::map<uint64_t, std::function<uint64_t(const Ecb&)>> ecb_info_;
  // Started I/O by its interruption parameter: what to do when it completes.
  std::map<uint64_t, std::function<void(const emu::IoInterruption&)>> io_done_;
  uint64_t next_io_ = 1;

  // What subsystems registered.
  std::vector<std::pair<uint64_t, std::function<void(uint64_t)>>> periodic_;
  size_t periodic_pending_ = 0;  // periodic events in the event queue
  std::vector<ReportFile> reports_;
  std::vector<SummaryCounter> counters_;
  std::vector<std::function<std::string()>> notes_;  // add_summary_note
  std::vector<SummaryHeadline> headlines_;
  void check_headline_choice() const;
  void choose_headline();
  std::unique_ptr<Timeline> timeline_;  // system.timeline, if set
  std::unique_ptr<RmfCpuActivity> rmf_cpu_;  // with the timeline: RMF's CPU Activity by interval
  std::vector<std::function<void(uint64_t now)>> interval_ends_;  // on_timeline_interval's
  std::function<std::vector<uint8_t>(const std::string&)> data_reader_;

  RunSummary stats_;
  std::string log_;
  const std::atomic<int>* host_stop_ = nullptr;
  int stopped_by_signal_ = 0;
};

}  // namespace os
