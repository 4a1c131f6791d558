// How a subsystem (the ECB heap, simple locks and syslog, LE storage, the devices,
// paging, program fetch, ZTRAP EI, ZSTAT) plugs into the control program. os/ includes
// none of their headers: each is a Subsystem that declares its configuration keys and
// its operator commands' grammar and, once the program image is loaded, registers what
// it needs through System: its SVCs (one line each of the SVC table), image variables,
// periodic events, operator command handlers, dump lines, report files and summary
// counters; one finds another it uses with System::find_subsystem. The control
// program calls it back when a process or an ECB ends and when the run is over.
//
// docs/architecture.md, "Add a subsystem", walks through the heap as the example.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "emu/machine.h"
#include "os/ecb.h"
#include "os/measurement.h"
#include "os/operator.h"
#include "os/timeline.h"

namespace os {

struct RunConfig;
class Subsystem;
struct RunSummary;

// What an SVC costs besides what its handler charges itself (ECB creation, exit):
// every SVC pays system.svc_cost for entry and exit; a service the host implements
// pays system.service_cost for its own work on top.
enum class SvcCost { Entry, Service };

// One line of the SVC table. The handler runs after the cost is charged; it reads
// its arguments from the I-stream's registers (r2, r3, ...) and answers in r2, or
// gives up control (System::park, System::abend).
struct SvcLine {
  uint64_t number = 0;
  const char* name = "";
  SvcCost cost = SvcCost::Service;
  std::function<void(emu::Cpu&, Ecb&)> handler;
};

// A report file written in the run's output folder after the run, if `wanted` (or
// wanted is empty). A streamed report gets its file before the run instead (or none,
// in tests) and writes it as it goes.
// Every member has an initializer, so that designated initializers may leave any out.
struct ReportFile {
  std::string name{};                                 // e.g. "heap.txt"
  std::function<void(std::ostream&)> write{};         // after the run
  std::function<bool()> wanted{};                     // e.g. etim.txt only if ZTRAP EI ran
  std::function<void(std::ostream*)> stream{};        // set instead of write: before the run
};

// A figure of summary.json's control_program block and summary.txt's counters, placed
// after the counter named `after` (or at the end).
struct SummaryCounter {
  std::string key{}, label{}, after{};
  std::function<uint64_t()> value{};
  bool fails_run = false;  // a value other than 0 makes the run's exit status non-zero
};

// The headline of summary.txt and summary.json when `applies` after the run (the first
// subsystem's that does), in place of the messages a second: e.g. the syslog lines a
// simulated second of a run that logged.
struct SummaryHeadline {
  std::string key{}, label{}, note{};
  std::string reason{};   // why it is the headline when it applies, e.g. "the run logged with syslog()"
  int digits = 0;
  std::function<bool()> applies{};
  std::function<double()> value{};
  // The figures the experiment reads beside the headline, as one line ("" or unset: none),
  // e.g. E4's heap segments beside its CPU seconds.
  std::function<std::string()> detail{};
};

// An operator command's effect: `now` is the simulated time in cycles, `ns` the same
// in nanoseconds as the operator gave it; `console` is true when it was typed (then
// it may be refused, e.g. a STOP while off) and false when it comes from the
// configuration (checked at load time). The answer is for the console; one that
// starts with "ERROR" did nothing.
using OperatorHandler =
    std::function<std::string(const OperatorCommand&, uint64_t now, uint64_t ns, bool console)>;

// A common page, mapped shared into every process and the system space: a read-only
// page of the program image (its programs' code and constants, at a frame set apart
// for it by its address: os/evm.cpp) or a page of the shared area (TPF_EVM_SHARED, the
// system storage every ECB sees, z/OS's CSA). Its frame keeps its contents while it is
// withdrawn.
struct CommonPage {
  uint64_t address = 0, frame = 0;
};

// What the control program holds now, for an operator's status display (ZSTAT).
struct IStreamStatus {
  std::string running;                 // the program of the ECB it runs ("" when idle)
  size_t ready = 0, deferred = 0, input = 0;
  uint64_t cycles = 0, busy_cycles = 0;   // its clock, and the part it ran work
};
// A process (an address space, for z/OS's D A,L) and its ECBs in use.
struct AddressSpaceStatus {
  uint64_t id = 0;                     // its first ECB's number (the ASID D A,L shows)
  std::string name;                    // its first ECB's program
  size_t ecbs = 0;                     // its ECBs and threads in use
  uint64_t cpu_cycles = 0;             // CPU its ECBs used so far
  bool nondispatchable = false;
};
struct SystemStatus {
  size_t ecbs = 0;                     // ECBs in use (made, not yet exited)
  size_t cross = 0, held = 0;          // the cross list; ready ECBs of nondispatchable processes
  std::vector<IStreamStatus> istreams;
  std::vector<AddressSpaceStatus> spaces;  // in the order of their ECBs
};

// The control program as a subsystem sees it.
class System {
 public:
  virtual ~System() = default;
  virtual emu::Machine& machine() = 0;
  virtual const RunConfig& config() const = 0;
  // After the run: the figures of the measurement window.
  virtual const RunSummary& summary() const = 0;
  // After the run: the measurement window's bounds (simulated cycles), for a subsystem
  // that counts its own events inside it.
  virtual MeasurementWindow measurement_window() const = 0;
  // The program image: symbols, and the system's own address space (the image and the
  // shared area; what host-side services read and write).
  virtual const emu::SymbolTable& symbols() const = 0;
  virtual emu::AddressSpace& system_space() = 0;
  // "QZZ0+0x2a" for a code address, "" if no symbol holds it.
  virtual std::string symbolize(uint64_t address) const = 0;

  // ---- registration, during Subsystem::install -------------------------------------
  virtual void add_svc(SvcLine line) = 0;
  // A value of TPF_SVC_ECB_INFO (code r2 = TPF_INFO_*).
  virtual void add_ecb_info(uint64_t code, std::function<uint64_t(const Ecb&)> value) = 0;
  // Sets a variable of the program image before any ECB runs (each process's copy of
  // static storage starts from it); false if the image has no such symbol.
  virtual bool set_image_array(const std::string& symbol, size_t index, uint64_t value, unsigned size) = 0;
  bool set_image_value(const std::string& symbol, uint64_t value, unsigned size) {
    return set_image_array(symbol, 0, value, size);
  }
  // Every `interval` cycles of simulated time from the start of the run, while anything
  // can still run (an event that only re-arms itself would keep a finished run going).
  virtual void every(uint64_t interval, std::function<void(uint64_t now)> fn) = 0;
  // Once, at simulated time `when` (cycles).
  virtual void at(uint64_t when, std::function<void()> fn) = 0;
  // The handler of the operator commands `owner` names (os/operator.h: "ZTRAP", or an
  // OperatorGrammar's owner), their HELP lines.
  virtual void add_operator_commands(std::string owner, std::string help, OperatorHandler handler) = 0;
  virtual void add_report(ReportFile report) = 0;
  virtual void add_summary_counter(SummaryCounter counter) = 0;
  // A line of summary.txt's Notes (and summary.json's "notes") after the run, when
  // `text` returns one: what a reader of the figures must know, e.g. a fallback taken.
  virtual void add_summary_note(std::function<std::string()> text) = 0;
  virtual void add_summary_headline(SummaryHeadline headline) = 0;
  // A column of timeline.txt/json (ignored when system.timeline is 0).
  virtual void add_timeline_column(TimelineColumn column) = 0;
  // `fn` runs at the end of every timeline interval (at its time, `now` in cycles),
  // after the timeline took its row: a subsystem's own report a block per interval
  // (paging's RMF monitors). Never without system.timeline.
  virtual void on_timeline_interval(std::function<void(uint64_t now)> fn) = 0;
  // What turns workload.data_file into the bytes mapped at TPF_EVM_DATA.
  virtual void set_data_reader(std::function<std::vector<uint8_t>(const std::string& path)> reader) = 0;

  // A device of the subsystem on the machine's next subchannel (emu/io.h); the device
  // outlives the run.
  virtual unsigned attach_device(emu::IoDevice& device) = 0;

  // ---- while the run goes on -----------------------------------------------------------
  // Starts `op` on a subchannel at cycle `now` (the requester's clock); `done` runs at
  // its I/O interruption, the completion's simulated time. A requesting ECB parks
  // itself meanwhile and `done` makes it ready; its I-stream runs other work. False
  // (nothing started) for an unknown subchannel.
  virtual bool start_io(unsigned subchannel, uint64_t now, std::shared_ptr<emu::IoOperation> op,
                        std::function<void(const emu::IoInterruption&)> done) = 0;
  // The running ECB gives up control to wait on `list` (another service makes it ready);
  // `waiting_on` names what for, in the message of a run that cannot go on.
  virtual void park(emu::Cpu& cpu, Ecb& e, WaitList& list, std::string waiting_on = "a subsystem's service") = 0;
  // A waiting ECB becomes ready on its home I-stream at simulated time `now`.
  virtual void make_ready(Ecb& e, uint64_t now) = 0;
  // A process's ECBs (or, with nullptr, all work) stop being dispatched at `now` (one
  // running gives up its I-stream), until set dispatchable again.
  virtual void set_dispatchable(Process* p, bool dispatchable, uint64_t now) = 0;
  // Ends the running ECB with a dump: `dump` (its lines), then its registers.
  virtual void abend(emu::Cpu& cpu, Ecb& e, const std::string& dump) = 0;
  virtual void log(const std::string& line) = 0;  // a line of run.log
  // A message the system issues on its own at `now` (cycles), not as a command's answer
  // (IEA794I when an SVC dump is captured, IEA611I when it is written): a line of
  // run.log ("      <now> <text>") and a line on every console client.
  virtual void console_message(uint64_t now, const std::string& text) = 0;
  // An operator command's answer (a display, a configuration message): the command and
  // each line in run.log at `now`, and the lines for the console.
  std::string operator_answer(uint64_t now, const std::string& command, const std::vector<std::string>& lines) {
    const std::string at = std::to_string(now), pad(at.size() < 12 ? 12 - at.size() : 0, ' ');
    log(pad + at + " operator: " + command);
    std::string answer;
    for (const std::string& l : lines) {
      log(pad + at + "   " + l);
      answer += l + "\n";
    }
    return answer;
  }
  // Every process still alive, once each, in the order of their ECBs.
  virtual void for_each_process(const std::function<void(Process&)>& fn) = 0;
  // The ECBs in use and each I-stream's lists and clock, now.
  virtual SystemStatus status() const = 0;
  // The ECB an I-stream runs now (nullptr: none).
  virtual const Ecb* running(unsigned istream) const = 0;
  // `fn` runs when the summary's measurement window opens (after the warm-up), at its time.
  virtual void on_measurement_open(std::function<void(uint64_t now)> fn) = 0;

  // ---- the common pages, for a subsystem managing real storage ----
  // The image's read-only pages and the shared area's, each in address order.
  virtual std::vector<CommonPage> program_pages() const = 0;
  virtual std::vector<CommonPage> shared_area_pages() const = 0;
  // Unmapped in every process and (an image page) in the system space, and not mapped
  // in processes made while it is out, so that the next reference to it faults
  // (Subsystem::page_fault, or the system space's host fault handler); the CPUs drop
  // their translations as for any unmap. The system space keeps a shared area page (it
  // owns the frame), so host-side services still reach it. Restored: mapped again in
  // all of them at once, as z/OS's common area pages are valid in every address space
  // once one page-in brings them back.
  virtual void withdraw_common_page(uint64_t address) = 0;
  virtual void restore_common_page(uint64_t address) = 0;
  // The run's subsystems, in the order they were installed.
  virtual std::vector<Subsystem*> subsystems() const = 0;
  // The run's subsystem of type T, or nullptr: how one subsystem uses another's
  // services (paging writes pages to the devices') without app/ wiring them together
  // and without os/ knowing either.
  template <class T> T* find_subsystem() const {
    for (Subsystem* s : subsystems())
      if (auto* t = dynamic_cast<T*>(s)) return t;
    return nullptr;
  }
  // A subsystem page-fixed [va, va+len) of `p` (a page-fixed heap: z/OS's fixed frames,
  // PGSER FIX, IARV64 PAGEFRAMESIZE=1MEG fixed): every subsystem is told
  // (Subsystem::pages_fixed), so that one managing real storage never steals them.
  void fix_pages(Process& p, uint64_t va, uint64_t len);
};

class Subsystem {
 public:
  virtual ~Subsystem() = default;
  // Its configuration keys (system.<name>.*), each declared once with the field its
  // value lands in (config/config_section.h).
  virtual void declare(cfg::Schema& schema) const = 0;
  // Keys of hardware it brings to the machine (machine.<name>.*, e.g. devices), declared
  // among the machine's own.
  virtual void declare_machine(cfg::Schema&) const {}
  // The operator commands it owns, grammar included (their handler: add_operator_commands).
  virtual OperatorGrammars operator_grammars() const { return {}; }
  // Takes its settings from the loaded configuration (before install).
  virtual void configure(const cfg::Config& config) = 0;
  // Registers what it needs. The image is loaded; no ECB has run.
  virtual void install(System& system) = 0;
  // A process begins (before its first ECB runs) and ends (its last ECB exits, or the
  // run ends with it alive).
  virtual void process_starting(Process&) {}
  virtual void process_ending(Process&) {}
  // An ECB ends (exit, program check, timeout, abend), at simulated time `now`.
  virtual void ecb_ending(Ecb&, uint64_t /*now*/) {}
  // The machine has stopped; the figures are not taken yet.
  virtual void run_ended() {}
  // A page-translation exception in the running ECB's storage that the control program
  // does not resolve itself: Retry (the page is mapped now), Wait (the subsystem parked
  // the ECB, whose instruction runs again when it is made ready), or Fail (not its
  // page: the next subsystem is asked, then the ECB takes the program check).
  virtual emu::PageFaultHandler::Action page_fault(emu::Cpu&, Ecb&, uint64_t /*address*/) {
    return emu::PageFaultHandler::Action::Fail;
  }
  // The running ECB asks for `frames` frames of new storage (GETSTOR). A subsystem that
  // manages real storage may park it until frames are free (true: the request is made
  // again when it runs), as z/OS makes a task wait for frames rather than promise more
  // real storage than there is.
  virtual bool frames_wanted(emu::Cpu&, Ecb&, uint64_t /*frames*/) { return false; }
  // [va, va+len) of `p` is fixed from now on (System::fix_pages): resident, its frames
  // counted in real storage, never stolen, a 1 MB page never demoted.
  virtual void pages_fixed(Process&, uint64_t /*va*/, uint64_t /*len*/) {}
};

inline void System::fix_pages(Process& p, uint64_t va, uint64_t len) {
  for (Subsystem* s : subsystems()) s->pages_fixed(p, va, len);
}

using Subsystems = std::vector<std::unique_ptr<Subsystem>>;
// Makes the subsystems of a run, in the order they are declared and installed.
using SubsystemFactory = std::function<Subsystems()>;

}  // namespace os
