#include "config/bounded_parse.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <new>

namespace cfg {

namespace {

// How the child ended, as its exit status: numbers no runtime uses for its own exits (a
// sanitizer's out-of-memory report exits with 1, which must read as a runaway).
enum ChildStatus : int { kReturned = 0, kThrew = 97, kOutOfMemory = 98, kOrphaned = 99 };

// The process's address space now (the first field of /proc/self/statm, in pages).
uint64_t address_space_bytes() {
  unsigned long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return uint64_t(pages) * uint64_t(sysconf(_SC_PAGESIZE));
}

// Lowers a soft limit to `value` (never raises one, nor touches the hard limit).
void lower_limit(int resource, rlim_t value) {
  rlimit l{};
  if (getrlimit(resource, &l) != 0) return;
  if (l.rlim_cur != RLIM_INFINITY && l.rlim_cur <= value) return;
  l.rlim_cur = (l.rlim_max != RLIM_INFINITY && l.rlim_max < value) ? l.rlim_max : value;
  setrlimit(resource, &l);
}

[[noreturn]] void run_child(const std::function<void()>& parse, const ParseBounds& bounds, pid_t parent,
                            uint64_t held) {
  // Never outlive the caller (a fuzzer's worker killed for its time, say): a runaway
  // parse must not keep a core busy after the caller gave up on it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(kOrphaned);
  lower_limit(RLIMIT_AS, rlim_t(held + bounds.bytes));
  lower_limit(RLIMIT_CPU, rlim_t(bounds.seconds) + 1);  // SIGXCPU, should the parent's clock not serve
  lower_limit(RLIMIT_CORE, 0);
  int status = kReturned;
  try {
    parse();
  } catch (const std::bad_alloc&) {
    status = kOutOfMemory;
  } catch (...) {
    status = kThrew;
  }
  _exit(status);  // no atexit handlers, no flush of the caller's buffers
}

// Waits until the pipe's write end closes (the child ended) or the time is up; true if in time.
bool wait_closed(int fd, int seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int r = poll(&p, 1, int(left));
    if (r > 0 || (r < 0 && errno != EINTR)) return true;
  }
}

}  // namespace

TrialParse trial_parse(const std::function<void()>& parse, const ParseBounds& bounds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {};
  const uint64_t held = address_space_bytes();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return {};
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(parse, bounds, parent, held);
  }
  close(fds[1]);
  const bool in_time = wait_closed(fds[0], bounds.seconds);
  close(fds[0]);
  if (!in_time) kill(pid, SIGKILL);
  int status = 0;
  pid_t r;
  while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  const std::string took = fmt::format("took over {} s of host time", bounds.seconds);
  if (!in_time) return {TrialParse::Runaway, took};
  if (r < 0) return {};  // reaped elsewhere (SIGCHLD ignored): the end was in time
  if (WIFEXITED(status)) {
    switch (WEXITSTATUS(status)) {
      case kReturned:
      case kThrew: return {};
      case kOutOfMemory:
        return {TrialParse::Runaway, fmt::format("needed over {} MB of host memory", bounds.bytes >> 20)};
      default: return {TrialParse::Runaway, fmt::format("ended with status {}", WEXITSTATUS(status))};
    }
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) return {TrialParse::Runaway, took};
  return {TrialParse::Runaway, fmt::format("was ended by signal {}", WIFSIGNALED(status) ? WTERMSIG(status) : 0)};
}

}  // namespace cfg
