// The operator console: z/TPF-style commands typed while a run goes on (ZTRAP EI
// START/STOP, HELP), over TCP with Boost.Asio. The control program polls it at
// simulated-time intervals (system.console.poll_interval) and answers each command
// on the connection it came from. A command takes effect at the simulated time of
// the poll that saw it, which depends on how fast the host ran: the run log records
// that time and the operator: entry that replays the command deterministically.
//
// The console never holds the simulation up unless asked to: every read and write is
// asynchronous and done by the polls, each client's lines and answers are bounded, and
// a client that does not keep up is dropped (with a line in run.log) instead of waited
// for. What holds it up on purpose, so that a person can type (--console-wait, --pace,
// PAUSE), holds up the host only: the model never sees the host's clock, so a paced or
// paused run's figures are those of the same run unpaced.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace os {

struct ConsoleLine {
  uint64_t session = 0;  // answer with reply(session, ...)
  std::string text;      // one line, without its end
};

// What the control program needs of a console.
class OperatorConsole {
 public:
  virtual ~OperatorConsole() = default;
  // Does the host I/O that is ready, without waiting; returns the complete lines.
  virtual std::vector<ConsoleLine> poll() = 0;
  // Queues the answer; it is sent as the client reads (never waited for).
  virtual void reply(uint64_t session, const std::string& text) = 0;
  // An unsolicited message (z/OS's IEA794I, IEA611I: what the system says when it is
  // done, not the answer to a line): to every client connected now.
  virtual void broadcast(const std::string& text) { (void)text; }
  // Lines for run.log since the last call: clients dropped or refused, and why.
  virtual std::vector<std::string> notices() { return {}; }
  // Called before each poll with its simulated time: a paced console waits here (host
  // time) until the run is not ahead of its pace.
  virtual void pace(uint64_t simulated_ns) { (void)simulated_ns; }
  // While the run is paused: the lines that come within a short host wait.
  virtual std::vector<ConsoleLine> wait_for_lines() { return poll(); }
  // Whether anyone could still type (a client that reads is connected, and the host was
  // not told to stop): a pause nobody can end ends by itself.
  virtual bool attended() const { return false; }
};

// A TCP console on 127.0.0.1 (port 0: any free port). Lines end with \n (a \r before
// it is dropped); each connection is a session. A client that half-closes its side
// still gets the answers to what it sent. Throws std::runtime_error naming the port if
// it cannot listen.
class TcpConsole : public OperatorConsole {
 public:
  // Bounds per client (and on clients), each far above what an operator types or reads.
  static constexpr size_t kMaxLineBytes = 4096;        // longer: the client is dropped
  static constexpr size_t kMaxQueuedBytes = 256 << 10; // answers not yet read; more: dropped
  static constexpr unsigned kMaxLinesPerPoll = 64;     // the rest wait for the next poll
  static constexpr unsigned kMaxClients = 256;         // more connections are refused

  explicit TcpConsole(uint16_t port);
  ~TcpConsole() override;
  uint16_t port() const;
  std::vector<ConsoleLine> poll() override;
  void reply(uint64_t session, const std::string& text) override;
  void broadcast(const std::string& text) override;
  std::vector<std::string> notices() override;
  size_t clients() const;

  // Host-side holds, for a person at the console (none of them changes a figure):
  // the simulated time runs at `ratio` times the host's (0: as fast as it can), from
  // now, the start of the run;
  void set_pace(double ratio);
  // What a client is greeted with when it connects (every command the run takes).
  void set_greeting(std::string text);
  // SIGINT or SIGTERM (the run's host stop flag) end every wait;
  void set_host_stop(const std::atomic<int>* stop) { host_stop_ = stop; }
  // blocks until a client connects (false: the host was told to stop first);
  bool wait_for_client();
  // the run's last words to every client, sent (within a few seconds) before the
  // connections close.
  void close_with(const std::string& text);
  void pace(uint64_t simulated_ns) override;
  std::vector<ConsoleLine> wait_for_lines() override;
  bool attended() const override;

  // The clock pacing reads (the host's steady clock; a test's own).
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  void set_clock(Clock clock) { clock_ = std::move(clock); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool stopping() const { return host_stop_ && host_stop_->load(); }
  // Serves the connections for up to `d` of host time (less when stopping).
  void serve_for(std::chrono::steady_clock::duration d);
  double pace_ratio_ = 0;
  const std::atomic<int>* host_stop_ = nullptr;
  Clock clock_ = [] { return std::chrono::steady_clock::now(); };
  std::chrono::steady_clock::time_point pace_origin_;  // the host time of simulated time 0
};

}  // namespace os
