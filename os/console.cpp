#include "os/console.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <fmt/format.h>
#include <map>
#include <stdexcept>

namespace os {

using boost::asio::ip::tcp;

struct TcpConsole::Impl {
  struct Session {
    tcp::socket socket;
    boost::asio::streambuf in;
    explicit Session(tcp::socket s) : socket(std::move(s)) {}
  };

  boost::asio::io_context io;
  tcp::acceptor acceptor{io};
  std::map<uint64_t, std::shared_ptr<Session>> sessions;
  std::vector<ConsoleLine> lines;
  uint64_t next_session = 1;

  void accept() {
    acceptor.async_accept([this](const boost::system::error_code& ec, tcp::socket s) {
      if (ec) return;  // the acceptor was closed
      const uint64_t id = next_session++;
      auto session = std::make_shared<Session>(std::move(s));
      sessions[id] = session;
      write(*session, "tpfemu operator console: ZTRAP EI START [PROG=name], ZTRAP EI STOP, HELP\n");
      read(id, session);
      accept();
    });
  }

  void read(uint64_t id, std::shared_ptr<Session> s) {
    boost::asio::async_read_until(s->socket, s->in, '\n',
                                  [this, id, s](const boost::system::error_code& ec, std::size_t n) {
                                    if (ec) {  // closed by the operator (or broken): forget it
                                      sessions.erase(id);
                                      return;
                                    }
                                    std::string line(n, '\0');
                                    s->in.sgetn(line.data(), std::streamsize(n));
                                    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
                                      line.pop_back();
                                    if (!line.empty()) lines.push_back({id, std::move(line)});
                                    read(id, s);
                                  });
  }

  static void write(Session& s, const std::string& text) {
    boost::system::error_code ec;  // a console that went away gets nothing, the run goes on
    boost::asio::write(s.socket, boost::asio::buffer(text), ec);
  }
};

TcpConsole::TcpConsole(uint16_t port) : impl_(std::make_unique<Impl>()) {
  boost::system::error_code ec;
  tcp::endpoint at(boost::asio::ip::address_v4::loopback(), port);
  impl_->acceptor.open(at.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(at, ec);
  if (!ec) impl_->acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error(fmt::format("--console {}: cannot listen on 127.0.0.1:{}: {}", port, port, ec.message()));
  impl_->accept();
}

TcpConsole::~TcpConsole() = default;

uint16_t TcpConsole::port() const { return impl_->acceptor.local_endpoint().port(); }

std::vector<ConsoleLine> TcpConsole::poll() {
  impl_->io.poll();
  impl_->io.restart();
  return std::exchange(impl_->lines, {});
}

void TcpConsole::reply(uint64_t session, const std::string& text) {
  auto it = impl_->sessions.find(session);
  if (it == impl_->sessions.end()) return;
  Impl::write(*it->second, text.empty() || text.back() == '\n' ? text : text + "\n");
}

}  // namespace os
