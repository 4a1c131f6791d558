// The z/TPF-like control program: ECBs with their own address spaces (EVM), the
// CPU loop's lists per I-stream, the SVC services, thread processes, and the
// workload driver that turns arrivals into input messages. It uses the machine
// (emu/) through its small interfaces: Dispatcher, SvcHandler, EventQueue.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "heap/heap_stats.h"
#include "lock/lock_stats.h"
#include "lock/syslog_drain.h"
#include "os/run_config.h"
#include "os/summary.h"

namespace os {

// EVM layout, the same in every ECB's address space.
struct Evm {
  static constexpr uint64_t kMessage = 0x00100000;   // the input message (ECB block area)
  static constexpr uint64_t kHeap31 = 0x10000000;    // 31-bit heap area: brk grows up from here
  static constexpr uint64_t kSystem = 0x40000000;    // system storage (GETSTOR)
  static constexpr uint64_t kData = 0x50000000;      // workload.data_file, read-only in every ECB
  static constexpr uint64_t kShared = 0x60000000;    // system storage shared by all ECBs
  static constexpr uint64_t kStackTop = 0x7F000000;  // first stack; thread stacks below it
  static constexpr uint64_t kHeap64 = 0x100000000;   // 64-bit heap area
};

struct Process;
class ZtrapEi;
class OperatorConsole;

struct Ecb {
  uint64_t id = 0;
  std::string program;
  std::shared_ptr<Process> process;
  unsigned thread = 0;  // 0: the process's own ECB; otherwise its thread id
  unsigned home = 0;    // I-stream whose lists it returns to
  // Saved state while it is not running.
  uint64_t gr[16] = {}, fpr[16] = {};
  uint32_t ar[16] = {};
  uint64_t psw = 0;
  uint8_t cc = 0, prog_mask = 0;
  uint64_t cpu_cycles = 0;   // CPU time used, for the timeout
  uint64_t dispatched_at = 0;
  // The input message it serves (0: none).
  uint64_t message = 0, arrival = 0;
  unsigned terminal = 0;
  unsigned joiner_of = 0;  // waiting in THREAD_JOIN for this thread id (0: not waiting)
};

struct Process {
  std::unique_ptr<emu::AddressSpace> space;
  uint64_t brk = Evm::kHeap31, brk_mapped = Evm::kHeap31;
  uint64_t system_next = Evm::kSystem;
  std::map<uint64_t, uint64_t> system_blocks;  // GETSTOR address -> bytes
  unsigned next_thread = 1, live_threads = 0;
  // The ECB heap (heap/): how far each area is mapped, the process's heap lock (the
  // SVC lock of the baseline heap) and whether its figures were taken.
  uint64_t heap31_end = Evm::kHeap31, heap64_end = Evm::kHeap64;
  Ecb* heap_lock_holder = nullptr;
  std::deque<Ecb*> heap_lock_waiters;
  bool heap_harvested = false;
  std::map<unsigned, uint64_t> thread_results;  // exited threads' return values
  std::vector<Ecb*> joiners;
};

struct InputMessage {
  uint64_t seq = 0, arrival = 0;
  unsigned terminal = 0;
  std::vector<uint8_t> bytes;
};

class ControlProgram : public emu::Dispatcher, public emu::SvcHandler, public emu::PageFaultHandler {
 public:
  ControlProgram(emu::Machine& machine, const RunConfig& config);
  ~ControlProgram() override;

  // Starts the workload and runs until it is done; returns the figures.
  RunSummary run();
  const std::string& log() const { return log_; }
  const std::string& dumps() const { return dumps_; }
  uint64_t frames_in_use() const;
  // Sets a variable of the program image before any ECB runs (each process's copy of
  // static storage starts from it). False if the image has no such symbol.
  bool set_image_value(const std::string& symbol, uint64_t value, unsigned size);
  // The shared system area, for host-side services that read or write it.
  emu::AddressSpace& system_space() { return image_space_; }

  // Dispatcher / SvcHandler
  bool dispatch(unsigned istream, Why why) override;
  bool program_check(unsigned istream, const emu::RunResult& r) override;
  void supervisor_call(emu::Cpu& cpu, uint8_t number) override;
  // A process touching a writable page of the program image gets its own copy.
  Action page_fault(emu::Cpu& cpu, uint64_t address) override;

  // Called after each completed message (host-side display only).
  void set_progress(std::function<void(uint64_t done, uint64_t target, double simulated_s)> f) {
    progress_ = std::move(f);
  }

  // ZTRAP EI (os/ztrap.h): the constructor schedules the configuration's operator
  // commands (config.operators) as events. After run(): writes etim.txt and etim.json
  // text and returns true if ZTRAP EI was started, else writes nothing and returns false.
  bool write_etim(std::ostream& text, std::ostream& json);
  ZtrapEi* ztrap() { return ztrap_.get(); }

  // The operator console (os/console.h): set before run(); polled every
  // system.console.poll_interval of simulated time while the run goes on.
  void set_console(OperatorConsole* console) { console_ = console; }
  // One operator command at simulated time `now` (cycles): the answer for the console
  // (errors too: an operator's typing error never stops the run). Logged in run.log
  // with the operator: entry that replays it.
  std::string operator_command(const std::string& text, uint64_t now);

  // syslog() and the simple locks (lock/): the ring buffer drained into text (or a
  // sink set before run()), and after run() the locks' statistics from the shared area.
  lock::SyslogDrain& syslog() { return *syslog_; }
  // The ECB heap's figures (heap/heap_stats.h): every process's heap, read as it ended
  // (after run(), those still alive too).
  const heap::HeapTotals& heap_totals() const { return heap_totals_; }
  std::vector<lock::LockStats> lock_stats();
  lock::SyslogStats syslog_stats();

  // For tests: the lists' contents (ECB numbers, top first) and the ECBs in flight.
  std::vector<uint64_t> list_contents(unsigned istream, const char* which) const;
  size_t ecbs_in_flight() const { return ecbs_.size(); }

 private:
  Ecb* new_ecb(const std::string& program, std::shared_ptr<Process> process, unsigned home);
  std::shared_ptr<Process> new_process();
  bool start_program(Ecb& e, uint64_t entry, uint64_t r2, uint64_t r3, uint64_t r14);
  Ecb* take_next(unsigned istream);
  void load(unsigned istream, Ecb& e);
  void save(unsigned istream, Ecb& e);
  void give_up(emu::Cpu& cpu);
  void park(emu::Cpu& cpu, Ecb& e, std::deque<Ecb*>& list);  // save, leave the I-stream, wait on list
  static std::string register_lines(const Ecb& e);          // GR0-15 lines of a dump
  void finish(unsigned istream, Ecb& e, int64_t rc);
  void end_ecb(Ecb& e);
  void make_ready(Ecb& e, bool cross, uint64_t now);
  void timeout(unsigned istream, Ecb& e);
  uint64_t entry_of(const std::string& program) const;
  std::string read_string(Ecb& e, uint64_t addr);
  uint64_t now(unsigned istream) const { return machine_.cpu(istream).cycles; }
  void charge(emu::Cpu& cpu, emu::Cause why, unsigned cycles) { cpu.charge(why, cycles); }

  // Services
  int64_t svc_write(Ecb& e, uint64_t fd, uint64_t buf, uint64_t len);
  int64_t svc_brk(Ecb& e, uint64_t addr);
  int64_t svc_create(emu::Cpu& cpu, Ecb& e);
  int64_t svc_getstor(Ecb& e, uint64_t bytes);
  int64_t svc_relstor(Ecb& e, uint64_t addr);
  int64_t svc_thread_create(emu::Cpu& cpu, Ecb& e);
  void svc_thread_join(emu::Cpu& cpu, Ecb& e);
  void svc_wait(emu::Cpu& cpu, Ecb& e);
  void svc_post(emu::Cpu& cpu, Ecb& e);
  void svc_word_wait(emu::Cpu& cpu, Ecb& e);
  uint64_t svc_word_wake(emu::Cpu& cpu, Ecb& e);
  void append_log(std::string line);

  // Workload
  void arrive(unsigned terminal, uint64_t time);
  void schedule_arrival(unsigned terminal, uint64_t after);
  void message_done(const Ecb& e, uint64_t time);
  double uniform();
  uint64_t cycles_of_ms(double ms) const;

  emu::Machine& machine_;
  RunConfig config_;
  emu::ElfImage image_;
  emu::AddressSpace image_space_;
  struct ImagePage {
    uint64_t vaddr, frame;
    uint8_t prot;
  };
  std::vector<ImagePage> image_pages_;           // read-only: shared by every process
  std::map<uint64_t, ImagePage> image_data_;     // writable: copied into a process on first touch
  uint64_t ecb_return_ = 0, thread_return_ = 0;

  std::vector<Ecb*> current_;  // per I-stream: the ECB it runs
  std::deque<Ecb*> cross_;
  std::vector<std::deque<Ecb*>> ready_, deferred_;
  std::vector<std::deque<InputMessage>> input_;
  std::map<uint64_t, std::unique_ptr<Ecb>> ecbs_;
  struct EventCount {
    uint64_t posts = 0;
    std::deque<Ecb*> waiters;
  };
  std::map<uint64_t, EventCount> events_;
  // ECBs waiting on a storage word (WORD_WAIT), by the word's absolute address.
  std::map<uint64_t, std::deque<Ecb*>> word_waiters_;
  uint64_t next_ecb_ = 1;

  // Workload state and figures.
  std::mt19937_64 rng_;
  uint64_t next_message_ = 1, next_input_istream_ = 0;
  uint64_t completed_ = 0, window_start_ = 0;
  bool window_open_ = false;
  std::vector<uint64_t> window_busy0_, window_insns0_;
  std::vector<emu::CyclesByCause> window_causes0_;
  std::vector<double> responses_ms_;
  uint64_t last_completion_ = 0;
  RunSummary stats_;
  std::string log_, dumps_;
  uint64_t frames_at_start_ = 0;
  std::function<void(uint64_t, uint64_t, double)> progress_;
  void install_operator_commands();
  ZtrapEi& ztrap_ei();  // created on first use
  void schedule_console_poll(uint64_t after);
  OperatorConsole* console_ = nullptr;
  void install_simple_lock();  // sets the lock algorithm in the image
  void install_ecb_heap();     // sets the heap variant and its settings in the image
  void map_data_file(const std::string& path);  // workload.data_file at Evm::kData
  bool set_image_array(const std::string& symbol, size_t index, uint64_t value, unsigned size);
  int64_t svc_heap_frame(Ecb& e, uint64_t area64);
  void svc_heap_error(emu::Cpu& cpu, Ecb& e);
  void svc_heap_lock(emu::Cpu& cpu, Ecb& e);
  void heap_unlock(Ecb& e, uint64_t now);
  void harvest_heap(Process& p);
  heap::HeapTotals heap_totals_;
  void schedule_syslog_drain(uint64_t after);
  bool still_running() const;  // for periodic events: re-arm only while something can run  // drains syslog every system.syslog.drain_interval
  std::unique_ptr<lock::SyslogDrain> syslog_;
  std::unique_ptr<ZtrapEi> ztrap_;
};

}  // namespace os
