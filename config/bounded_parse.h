// A trial of a parse in a child process bounded in host time and memory, for a parser
// (yaml-cpp 0.7) that loops on some malformed input, allocating without end: the child
// pays for it, under RLIMIT_AS and RLIMIT_CPU, and is killed when its time is up, so
// the caller parses in-process only text that is known to finish. A watchdog on the
// host, not the model: it changes no figure.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace cfg {

struct ParseBounds {
  int seconds = 4;            // host time, wall clock and CPU
  uint64_t bytes = 64 << 20;  // address space the child may add to what the process holds
};

struct TrialParse {
  enum Outcome { Finished, Runaway } outcome = Finished;
  std::string why;  // for Runaway: "took over 4 s", "needed over 64 MB of host memory", ...
};

// Runs `parse` in a child process within `bounds`. Finished: it returned or threw
// something other than std::bad_alloc (the caller parses again, in-process, for the
// result or the message). Runaway: out of memory, out of time, or killed. A process
// that cannot fork runs no trial (Finished).
TrialParse trial_parse(const std::function<void()>& parse, const ParseBounds& bounds);

}  // namespace cfg
