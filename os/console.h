// The operator console: z/TPF-style commands typed while a run goes on (ZTRAP EI
// START/STOP, HELP), over TCP with Boost.Asio. The control program polls it at
// simulated-time intervals (system.console.poll_interval) and answers each command
// on the connection it came from. A command takes effect at the simulated time of
// the poll that saw it, which depends on how fast the host ran: the run log records
// that time and the operator: entry that replays the command deterministically.
//
// The console never holds the simulation up: every read and write is asynchronous and
// done by the polls, each client's lines and answers are bounded, and a client that
// does not keep up is dropped (with a line in run.log) instead of waited for.
#pragma once
#include <cstdint>
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
  // Lines for run.log since the last call: clients dropped or refused, and why.
  virtual std::vector<std::string> notices() { return {}; }
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
  std::vector<std::string> notices() override;
  size_t clients() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace os
