// The machine: I-streams over one absolute storage and one cache hierarchy,
// interleaved deterministically on one host thread, and the event queue.
//
// Scheduling: the running I-stream with the smallest clock runs next, for at most
// `quantum` cycles; ties go to the lower number. Events (device completions,
// timers, arrivals) are ordered by (time, sequence) and fire when the smallest
// clock among running I-streams reaches their time (or at once when every
// I-stream is idle: idle clocks jump to the event). The same inputs give the same
// interleaving, bit for bit.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "emu/cache.h"
#include "emu/cpu.h"
#include "emu/io.h"
#include "emu/machine_config.h"
#include "emu/storage.h"

namespace emu {

enum class IStreamState : uint8_t { Running, Idle, Stopped };

struct IStreamCounters {
  uint64_t instructions = 0, cycles = 0, busy_cycles = 0, idle_cycles = 0;
  double utilization = 0;  // busy over elapsed
};

class EventQueue {
 public:
  void schedule(uint64_t time, std::function<void()> fn) { q_.push(Event{time, seq_++, std::move(fn)}); }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }
  uint64_t next_time() const { return q_.top().time; }
  void fire_next() {
    Event e = q_.top();
    q_.pop();
    e.fn();
  }

 private:
  struct Event {
    uint64_t time, seq;
    std::function<void()> fn;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<>> q_;
  uint64_t seq_ = 0;
};

// What keeps the I-streams busy: the layer above (the control program) hands out
// work. emu/ only knows that an I-stream needs something to run.
class Dispatcher {
 public:
  enum class Why { GaveUp, TimeUp, Woken };
  virtual ~Dispatcher() = default;
  // The I-stream's program gave up control (its SVC asked to stop), its deadline
  // passed, or it was woken while idle: load work and return true, or false to idle.
  virtual bool dispatch(unsigned istream, Why why) = 0;
  // A program check on the I-stream: deal with it (end the work) and return true to go
  // on (the I-stream is then dispatched), false to end the run with it.
  virtual bool program_check(unsigned istream, const RunResult& r) = 0;
};

struct MachineRunResult {
  enum class Reason { AllStopped, Limit, ProgramCheck, Ended, HostStop, HostLimit } reason = Reason::AllStopped;
  unsigned istream = 0;  // the one that took the program check
  RunResult check;
};

class Machine : public CpuGroup, public CacheListener {
 public:
  // `timing` false: instructions cost base cycles only (no cache or TLB model), the
  // fast mode of `tpfemu exec`.
  Machine(const MachineConfig& config, bool timing);
  ~Machine() override;

  const MachineConfig& config() const { return config_; }
  Storage& storage() { return storage_; }
  MemoryHierarchy* caches() { return caches_.get(); }
  EventQueue& events() { return events_; }
  // An event an instruction starts (a device's completion, a timer, a watchdog): the
  // running I-stream's turn ends after that instruction, so that its next run stops at
  // the event (a run's end is chosen from the events there when it starts; one that
  // runs alone would otherwise go past it to the next one, or to its limit).
  void schedule_from_instruction(uint64_t at, std::function<void()> fn) {
    events_.schedule(at, std::move(fn));
    if (running_ >= 0) cpus_[unsigned(running_)]->end_slice();
  }
  ChannelSubsystem& io() { return io_; }

  // Creates the I-streams, all in `space` (each can switch later).
  void start(AddressSpace& space);
  unsigned istreams() const { return unsigned(cpus_.size()); }
  Cpu& cpu(unsigned i) { return *cpus_[i]; }
  // The compiled blocks of every I-stream (machine.engine: compile on a host that has
  // the compiler), for --stats; nullptr when the I-streams interpret.
  const jit::CodeCache* code_cache() const { return code_cache_.get(); }
  IStreamState state(unsigned i) const { return state_[i]; }
  void set_state(unsigned i, IStreamState s) { state_[i] = s; }
  void set_dispatcher(Dispatcher* d) { dispatcher_ = d; }
  // The I-stream's current work runs until this clock at most (a time slice).
  void set_deadline(unsigned i, uint64_t cycle) { deadline_[i] = cycle; }
  // New work for an idle I-stream: its clock jumps to `now` and it is dispatched.
  void wake(unsigned i, uint64_t now);
  // Every I-stream's micro-TLB (after reference or change bits were reset).
  void purge_micro_tlbs() {
    for (auto& c : cpus_) c->flush_micro_tlb();
  }
  // Ends run() after the current step (the workload is done).
  void end_run() { end_ = true; }
  // A flag the host sets (a signal handler) to end run() at the next step with
  // Reason::HostStop. It decides only when the run stops, never what it computes.
  void set_host_stop(const std::atomic<int>* flag) { host_stop_ = flag; }

  // Runs until every I-stream has stopped, `max_instructions` in total have run, or
  // an I-stream takes a program check (which ends the run: the caller reports it).
  MachineRunResult run(uint64_t max_instructions = ~0ull);

  // Elapsed simulated cycles (the largest clock) and per-I-stream accounting.
  uint64_t elapsed_cycles() const;
  IStreamCounters counters(unsigned i) const;
  uint64_t instructions() const;

  // CpuGroup / CacheListener
  void code_created(const Frame& f) override;
  void code_invalidated(const DecodedPage* old) override;
  void line_lost(unsigned istream, uint64_t line) override;

 private:
  void redispatch(unsigned i, Dispatcher::Why why);

  MachineConfig config_;
  Storage storage_;
  std::unique_ptr<MemoryHierarchy> caches_;
  bool timing_;
  std::vector<std::unique_ptr<Cpu>> cpus_;
  std::shared_ptr<jit::CodeCache> code_cache_;  // shared by the I-streams, as the decoded pages are
  std::vector<IStreamState> state_;
  std::vector<uint64_t> deadline_;
  int lone_runner_ = -1;  // the I-stream running alone to the next event, if any
  int running_ = -1;      // the I-stream in Cpu::run, if any
  EventQueue events_;
  ChannelSubsystem io_{events_};
  Dispatcher* dispatcher_ = nullptr;
  bool end_ = false;
  const std::atomic<int>* host_stop_ = nullptr;
};

}  // namespace emu
