// What the control program tells an observer of its dispatching, as it happens: an
// I-stream looking for work, an ECB loaded and giving up control, idle time, SVCs, page
// waits, the timeline's rows, the run's end. A trace of the run (trace/trace_writer.h)
// is one; os/ knows no trace format. Every time is the I-stream's clock in cycles
// (simulated time). With no observer set the control program tests one null pointer.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "os/ecb.h"

namespace os {

class DispatchObserver {
 public:
  virtual ~DispatchObserver() = default;
  // The I-stream looks for work at `now` (the top of the CPU loop). Its instruction
  // counter is current here (it is not inside an SVC or a page fault, where an ECB may
  // give up control while the interpreter still holds its count).
  virtual void seeking(unsigned istream, uint64_t now, uint64_t instructions) = 0;
  // The CPU loop loaded `e`: it runs from `now` (the dispatch cost paid).
  virtual void dispatched(unsigned istream, const Ecb& e, uint64_t now) = 0;
  // The running ECB gave up the I-stream at `now` (its state saved).
  virtual void undispatched(unsigned istream, const Ecb& e, uint64_t now) = 0;
  // The CPU loop found no work at `now`: idle, for a page-in (`page_wait`) or for nothing.
  virtual void idle(unsigned istream, uint64_t now, bool page_wait) = 0;
  // An SVC of the running ECB (number `ecb`), from its instruction to its handler's
  // return (`end`; a handler that gave up control returns after the ECB left the
  // I-stream, and one that ended it after the ECB is gone: hence its number only).
  virtual void svc(unsigned istream, uint64_t ecb, std::string_view name, uint64_t begin, uint64_t end) = 0;
  // `e` waits for a page-in from `now` (a page fault parked it), until made ready.
  virtual void page_wait_began(const Ecb& e, uint64_t now) = 0;
  virtual void page_wait_ended(const Ecb& e, uint64_t now) = 0;
  // A row of the timeline (os/timeline.h) at `seconds` of simulated time: its columns'
  // keys and values, as timeline.json has them.
  virtual void timeline_row(double seconds, const std::vector<std::string>& keys,
                            const std::vector<double>& values) = 0;
  // The run is over at `end` (the furthest I-stream clock): each I-stream's clock and
  // instruction counter (index: I-stream). ECBs still loaded leave their I-streams here.
  virtual void run_ended(uint64_t end, const std::vector<uint64_t>& clocks,
                         const std::vector<uint64_t>& instructions) = 0;
};

}  // namespace os
