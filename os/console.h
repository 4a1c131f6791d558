// The operator console: z/TPF-style commands typed while a run goes on (ZTRAP EI
// START/STOP, HELP), over TCP with Boost.Asio. The control program polls it at
// simulated-time intervals (system.console.poll_interval) and answers each command
// on the connection it came from. A command takes effect at the simulated time of
// the poll that saw it, which depends on how fast the host ran: the run log records
// that time and the operator: entry that replays the command deterministically.
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
  virtual void reply(uint64_t session, const std::string& text) = 0;
};

// A TCP console on 127.0.0.1 (port 0: any free port). Lines end with \n (a \r before
// it is dropped); each connection is a session. Throws std::runtime_error naming the
// port if it cannot listen.
class TcpConsole : public OperatorConsole {
 public:
  explicit TcpConsole(uint16_t port);
  ~TcpConsole() override;
  uint16_t port() const;
  std::vector<ConsoleLine> poll() override;
  void reply(uint64_t session, const std::string& text) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace os
