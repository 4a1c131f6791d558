#include "app/console_client.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <thread>

namespace app {
namespace {

using boost::asio::ip::tcp;

// "PORT", "HOST:PORT" or "[V6HOST]:PORT" into host and port (host 127.0.0.1 when absent,
// as the console listens there).
bool split_address(const std::string& address, std::string& host, std::string& port) {
  const size_t colon = address.rfind(':');
  host = colon == std::string::npos ? "127.0.0.1" : address.substr(0, colon);
  port = colon == std::string::npos ? address : address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return !host.empty() && !port.empty() && port.find_first_not_of("0123456789") == std::string::npos;
}

// Prints what the console sends until it closes the connection.
void print_answers(tcp::socket& socket) {
  char buf[4096];
  boost::system::error_code ec;
  for (;;) {
    const size_t n = socket.read_some(boost::asio::buffer(buf), ec);
    if (ec) return;
    std::fwrite(buf, 1, n, stdout);
    std::fflush(stdout);
  }
}

}  // namespace

int console_client(const std::string& address) {
  std::string host, port;
  if (!split_address(address, host, port)) {
    fmt::print(stderr, "tpfemu: console {}: not [HOST:]PORT (e.g. 127.0.0.1:3270)\n", address);
    return 2;
  }
  boost::asio::io_context io;
  tcp::socket socket(io);
  boost::system::error_code ec;
  tcp::resolver resolver(io);
  const auto endpoints = resolver.resolve(host, port, ec);
  if (!ec) boost::asio::connect(socket, endpoints, ec);
  if (ec) {
    fmt::print(stderr, "tpfemu: console {}:{}: cannot connect: {} (is `tpfemu run --console {}` running?)\n", host,
               port, ec.message(), port);
    return 2;
  }
  // The answers on a thread of their own, so that they show while the user types. When
  // the console closes (the run ended, its last line printed), the client ends at once,
  // even if the user is in the middle of a line: nobody is left to answer it.
  std::thread answers([&socket] {
    print_answers(socket);
    std::fflush(stdout);
    std::_Exit(0);
  });
  std::string line;
  while (std::getline(std::cin, line)) {
    line += '\n';
    boost::asio::write(socket, boost::asio::buffer(line), ec);
    if (ec) break;
  }
  // Standard input ended: the console still answers what was sent, then closes.
  socket.shutdown(tcp::socket::shutdown_send, ec);
  answers.join();
  return 0;
}

}  // namespace app
