#include "os/console.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <stdexcept>

namespace os {

using boost::asio::ip::tcp;

namespace {
// Until the run sets its own (set_greeting: every command its subsystems registered).
const char* const kGreeting =
    "tpfemu operator console: ZTRAP EI START [PROG=name], ZTRAP EI STOP, PAUSE, RESUME, HELP\n";
}

struct TcpConsole::Impl {
  struct Session {
    uint64_t id;
    tcp::socket socket;
    boost::asio::streambuf in{kMaxLineBytes};
    std::deque<std::string> out;  // answers queued; the front one is being written
    size_t queued = 0;            // bytes in `out`
    bool writing = false;
    bool reading = true;    // false once the client has half-closed (or was dropped)
    bool paused = false;    // read kMaxLinesPerPoll lines this poll: reads again at the next
    unsigned lines_this_poll = 0, unanswered = 0;
    Session(uint64_t i, tcp::socket s) : id(i), socket(std::move(s)) {}
  };
  using SessionPtr = std::shared_ptr<Session>;

  boost::asio::io_context io;
  tcp::acceptor acceptor{io};
  std::map<uint64_t, SessionPtr> sessions;
  std::vector<ConsoleLine> lines;
  std::vector<std::string> notices;
  uint64_t next_session = 1;
  std::string greeting = kGreeting;

  void accept() {
    acceptor.async_accept([this](const boost::system::error_code& ec, tcp::socket s) {
      if (ec == boost::asio::error::operation_aborted) return;  // the acceptor was closed
      if (!ec) {
        const uint64_t id = next_session++;
        if (sessions.size() >= kMaxClients) {
          notices.push_back(fmt::format("client {} refused: {} clients connected already", id, sessions.size()));
          boost::system::error_code ignored;
          s.close(ignored);
        } else {
          auto session = std::make_shared<Session>(id, std::move(s));
          session->socket.non_blocking(true);
          sessions[id] = session;
          send(session, greeting);
          read(session);
        }
      }
      accept();
    });
  }

  void read(const SessionPtr& s) {
    boost::asio::async_read_until(s->socket, s->in, '\n', [this, s](const boost::system::error_code& ec, size_t n) {
      if (!sessions.count(s->id)) return;  // dropped meanwhile
      if (ec == boost::asio::error::eof) {  // half-closed: what it sent is still answered
        if (s->in.size()) take_line(*s, s->in.size());
        s->reading = false;
        close_if_done(s);
        return;
      }
      if (ec == boost::asio::error::not_found)
        return drop(*s, fmt::format("a line longer than {} bytes", kMaxLineBytes));
      if (ec) return drop(*s, ec.message());
      take_line(*s, n);
      if (++s->lines_this_poll >= kMaxLinesPerPoll) {
        s->paused = true;
        return;
      }
      read(s);
    });
  }

  void take_line(Session& s, size_t n) {
    std::string line(n, '\0');
    s.in.sgetn(line.data(), std::streamsize(n));
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (line.empty()) return;
    ++s.unanswered;
    lines.push_back({s.id, std::move(line)});
  }

  void send(const SessionPtr& s, std::string text) {
    if (s->queued + text.size() > kMaxQueuedBytes)
      return drop(*s, fmt::format("more than {} bytes of answers not read", kMaxQueuedBytes));
    s->queued += text.size();
    s->out.push_back(std::move(text));
    if (!s->writing) write_next(s);
  }

  void write_next(const SessionPtr& s) {
    if (s->out.empty()) {
      s->writing = false;
      close_if_done(s);
      return;
    }
    s->writing = true;
    boost::asio::async_write(s->socket, boost::asio::buffer(s->out.front()),
                             [this, s](const boost::system::error_code& ec, size_t) {
                               if (!sessions.count(s->id)) return;
                               if (ec) return drop(*s, ec.message());
                               s->queued -= s->out.front().size();
                               s->out.pop_front();
                               write_next(s);
                             });
  }

  // A client that half-closed goes once everything it sent is answered and sent.
  void close_if_done(const SessionPtr& s) {
    if (s->reading || s->unanswered || s->writing || !s->out.empty()) return;
    boost::system::error_code ignored;
    s->socket.shutdown(tcp::socket::shutdown_both, ignored);
    s->socket.close(ignored);
    sessions.erase(s->id);
  }

  void drop(Session& s, const std::string& why) {
    notices.push_back(fmt::format("client {} dropped: {}", s.id, why));
    boost::system::error_code ignored;
    s.socket.close(ignored);  // its pending operations end with operation_aborted
    sessions.erase(s.id);
  }
};

TcpConsole::TcpConsole(uint16_t port) : impl_(std::make_unique<Impl>()) {
  boost::system::error_code ec;
  tcp::endpoint at(boost::asio::ip::address_v4::loopback(), port);
  impl_->acceptor.open(at.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(at, ec);
  if (!ec) impl_->acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
  if (!ec) impl_->acceptor.non_blocking(true, ec);
  if (ec) throw std::runtime_error(fmt::format("--console {}: cannot listen on 127.0.0.1:{}: {}", port, port, ec.message()));
  impl_->accept();
}

TcpConsole::~TcpConsole() = default;

uint16_t TcpConsole::port() const { return impl_->acceptor.local_endpoint().port(); }

size_t TcpConsole::clients() const { return impl_->sessions.size(); }

std::vector<ConsoleLine> TcpConsole::poll() {
  for (auto& [id, s] : impl_->sessions) {
    s->lines_this_poll = 0;
    if (s->paused) {
      s->paused = false;
      impl_->read(s);
    }
  }
  impl_->io.poll();
  impl_->io.restart();
  return std::exchange(impl_->lines, {});
}

void TcpConsole::reply(uint64_t session, const std::string& text) {
  auto it = impl_->sessions.find(session);
  if (it == impl_->sessions.end()) return;  // dropped: the answer goes nowhere, the run goes on
  Impl::SessionPtr s = it->second;
  if (s->unanswered) --s->unanswered;
  impl_->send(s, text.empty() || text.back() == '\n' ? text : text + "\n");
  if (impl_->sessions.count(session)) impl_->close_if_done(s);
}

void TcpConsole::broadcast(const std::string& text) {
  std::vector<Impl::SessionPtr> all;
  for (const auto& [id, s] : impl_->sessions) all.push_back(s);
  for (const auto& s : all)  // a send may drop a client that does not read
    if (impl_->sessions.count(s->id)) impl_->send(s, text.empty() || text.back() == '\n' ? text : text + "\n");
}

std::vector<std::string> TcpConsole::notices() { return std::exchange(impl_->notices, {}); }

void TcpConsole::serve_for(std::chrono::steady_clock::duration d) {
  if (stopping()) return;
  impl_->io.run_for(d);
  impl_->io.restart();
}

void TcpConsole::set_greeting(std::string text) { impl_->greeting = std::move(text); }

void TcpConsole::set_pace(double ratio) {
  pace_ratio_ = ratio;
  if (ratio > 0) pace_origin_ = clock_();
}

void TcpConsole::pace(uint64_t simulated_ns) {
  if (pace_ratio_ <= 0) return;
  const auto due = pace_origin_ + std::chrono::nanoseconds(int64_t(double(simulated_ns) / pace_ratio_));
  // Serving the connections meanwhile: what is typed during the wait is taken at this poll.
  for (auto now = clock_(); now < due && !stopping(); now = clock_())
    serve_for(std::min<std::chrono::steady_clock::duration>(due - now, std::chrono::milliseconds(50)));
}

bool TcpConsole::wait_for_client() {
  while (impl_->sessions.empty() && !stopping()) serve_for(std::chrono::milliseconds(100));
  return !impl_->sessions.empty();
}

std::vector<ConsoleLine> TcpConsole::wait_for_lines() {
  serve_for(std::chrono::milliseconds(50));
  return poll();
}

bool TcpConsole::attended() const {
  if (stopping()) return false;
  for (const auto& [id, s] : impl_->sessions)
    if (s->reading) return true;
  return false;
}

void TcpConsole::close_with(const std::string& text) {
  std::vector<Impl::SessionPtr> all;
  for (const auto& [id, s] : impl_->sessions) all.push_back(s);
  for (const auto& s : all)
    if (impl_->sessions.count(s->id)) impl_->send(s, text);
  // A client that does not read is not waited for long: the run is over.
  const auto give_up = clock_() + std::chrono::seconds(3);
  auto unsent = [&] {
    for (const auto& [id, s] : impl_->sessions)
      if (!s->out.empty()) return true;
    return false;
  };
  while (unsent() && clock_() < give_up) {
    impl_->io.run_for(std::chrono::milliseconds(50));
    impl_->io.restart();
  }
  for (const auto& [id, s] : impl_->sessions) {
    boost::system::error_code ignored;
    s->socket.shutdown(tcp::socket::shutdown_both, ignored);
    s->socket.close(ignored);
  }
  impl_->sessions.clear();
  impl_->io.poll();  // the closed sockets' handlers end
  impl_->io.restart();
}

}  // namespace os
