// The CPU loop: each I-stream's lists (the cross list, shared by all, then its own
// ready, input and deferred lists, served in that order, added at the bottom and
// taken from the top), dispatching an ECB (its registers, address space and time
// slice) and saving it when it gives up control or its slice ends, and the CTL-10
// limit on the CPU time an ECB may use.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "emu/machine.h"
#include "os/dispatch_observer.h"
#include "os/ecb.h"

namespace os {

struct SystemConfig;

class CpuLoop {
 public:
  // An input message taken from an input list becomes an ECB (or nullptr: dropped).
  using MakeEcb = std::function<Ecb*(unsigned istream, InputMessage message)>;
  // An ECB that used its CPU time limit (system.timeout) is ended by the caller.
  using Timeout = std::function<void(unsigned istream, Ecb& e)>;
  CpuLoop(emu::Machine& machine, const SystemConfig& system, MakeEcb make_ecb, Timeout timeout);

  // emu::Dispatcher's question: the I-stream needs work (see emu/machine.h).
  bool dispatch(unsigned istream, emu::Dispatcher::Why why);
  Ecb* current(unsigned istream) const { return current_[istream]; }
  void leave(unsigned istream) { current_[istream] = nullptr; }
  // The running ECB's state back into its ECB block (its CPU time counted).
  void save(unsigned istream, Ecb& e);
  // The running ECB gives up control to wait on `list`; its I-stream looks for other work.
  // `waiting_on` says for what (see Ecb::waiting_on).
  void park(emu::Cpu& cpu, Ecb& e, WaitList& list, std::string waiting_on);

  // Work becomes ready: to the bottom of its home I-stream's ready list, or of the
  // cross list (any I-stream); an idle I-stream that can take it is woken.
  void make_ready(Ecb& e, bool cross, uint64_t now);
  // A page fault parked the ECB until its page is in: while it waits, its home
  // I-stream's idle time is page wait (cycles by cause), until make_ready.
  void page_wait_began(Ecb& e, uint64_t now);
  void add_ready(unsigned istream, Ecb& e) { ready_[istream].push_back(&e); }
  void add_deferred(unsigned istream, Ecb& e) { deferred_[istream].push_back(&e); }
  WaitList& deferred(unsigned istream) { return deferred_[istream]; }
  void add_input(unsigned istream, InputMessage m, uint64_t now);
  // Nondispatchability (an SVC dump's capture): a process's ECBs (`p`), or all work
  // (nullptr), are not dispatched until released; one running now gives up its
  // I-stream at once. Their work waits off the lists, in order, and comes back to
  // the bottom of its home I-stream's ready list.
  void hold(Process* p, uint64_t now);
  void release(Process* p, uint64_t now);
  bool system_held() const { return system_held_; }
  // Who hears of every dispatch, idle time and page wait (nullptr: nobody; a trace).
  void set_observer(DispatchObserver* observer) { observer_ = observer; }
  DispatchObserver* observer() const { return observer_; }
  // The run is over: ECBs still on lists are dropped with it.
  void clear();

  uint64_t cycles_of_ms(double ms) const { return emu::cycles_of_ms(machine_.config(), ms); }
  uint64_t dispatches() const { return dispatches_; }
  uint64_t time_slices() const { return time_slices_; }
  // The lists' lengths, for the operator's status display (ZSTAT).
  size_t ready_count(unsigned istream) const { return ready_[istream].size(); }
  size_t deferred_count(unsigned istream) const { return deferred_[istream].size(); }
  size_t input_count(unsigned istream) const { return input_[istream].size(); }
  size_t cross_count() const { return cross_.size(); }
  size_t held_count() const { return held_.size(); }
  // For tests: a list's ECB numbers, top first ("cross", "ready" or "deferred").
  std::vector<uint64_t> list_contents(unsigned istream, const char* which) const;

 private:
  Ecb* take_next(unsigned istream);
  Ecb* take_listed(unsigned istream);
  void load(unsigned istream, Ecb& e);

  emu::Machine& machine_;
  const SystemConfig& system_;
  MakeEcb make_ecb_;
  Timeout timeout_;
  std::vector<Ecb*> current_;  // per I-stream: the ECB it runs
  WaitList cross_;
  std::vector<WaitList> ready_, deferred_;
  std::vector<std::deque<InputMessage>> input_;
  uint64_t dispatches_ = 0, time_slices_ = 0;
  WaitList held_;              // ready ECBs of nondispatchable processes
  std::vector<unsigned> page_waits_;  // per home I-stream: its ECBs waiting for page-ins
  void set_idle_cause(unsigned istream);
  void begin_idle(unsigned istream);  // no work: the idle cause set, the observer told
  bool system_held_ = false;   // nothing is dispatched
  DispatchObserver* observer_ = nullptr;
};

}  // namespace os
