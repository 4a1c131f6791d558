#include "heap/tls_replay.h"

#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

#include "config/input_file.h"
#include "emu/cpu.h"
#include "os/guest/include/tls_trace.h"

namespace heap {
namespace {

struct Phase {
  uint32_t first = 0, count = 0;
};

void put32(std::vector<uint8_t>& out, size_t at, uint32_t v) { emu::Cpu::store_be<uint32_t>(out.data() + at, v); }

}  // namespace

std::vector<uint8_t> tls_trace_image(const std::string& path) {
  return tls_trace_image_of(cfg::read_input_file(path, cfg::kMaxTraceBytes, "trace"), path);
}

std::vector<uint8_t> tls_trace_image_of(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  struct Event {
    uint32_t op, id, size;
  };
  std::vector<Event> events;
  Phase handshake, close;
  std::vector<Phase> messages;
  Phase* current = nullptr;
  uint32_t buffers = 1;
  int phases = 0;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto fail = [&](const std::string& why) {
      return std::runtime_error(fmt::format("{}:{}: {}: {}", path, n, why, line));
    };
    if (line.empty() || line.rfind("#!", 0) == 0) continue;
    if (line[0] == '#') {
      Phase* next = nullptr;
      if (line.rfind("# handshake", 0) == 0) next = &handshake;
      else if (line.rfind("# message", 0) == 0) next = &messages.emplace_back();
      else if (line.rfind("# close", 0) == 0) next = &close;
      else throw fail("unknown phase");
      if (line.find("conn=1") == std::string::npos) throw fail("the trace must hold one connection (conn=1)");
      ++phases;
      next->first = uint32_t(events.size());
      current = next;
      continue;
    }
    if (!current) throw fail("an event before the first phase");
    std::istringstream words(line);
    char op = 0;
    uint64_t id = 0, size = 0;
    words >> op >> id;
    if (op == 'm' || op == 'r') words >> size;
    if (!words || (op != 'm' && op != 'r' && op != 'f') || id == 0 || id > 10000000 || size > (1u << 30))
      throw fail("not an event (m ID SIZE, r ID SIZE or f ID)");
    events.push_back({uint32_t(op), uint32_t(id), uint32_t(size)});
    ++current->count;
    buffers = std::max(buffers, uint32_t(id + 1));
  }
  if (handshake.count == 0 || messages.empty() || phases != int(messages.size()) + 2)
    throw std::runtime_error(fmt::format("{}: a trace needs a handshake, message phases and a close", path));
  const uint32_t m = uint32_t(messages.size());
  const size_t events_at = sizeof(::tls_trace_image) + 8 * size_t(m);
  std::vector<uint8_t> out(events_at + events.size() * sizeof(tls_trace_event));
  emu::Cpu::store_be<uint64_t>(out.data(), TLS_TRACE_MAGIC);
  put32(out, offsetof(::tls_trace_image, buffers), buffers);
  put32(out, offsetof(::tls_trace_image, events), uint32_t(events.size()));
  put32(out, offsetof(::tls_trace_image, handshake_first), handshake.first);
  put32(out, offsetof(::tls_trace_image, handshake_count), handshake.count);
  put32(out, offsetof(::tls_trace_image, close_first), close.first);
  put32(out, offsetof(::tls_trace_image, close_count), close.count);
  put32(out, offsetof(::tls_trace_image, messages), m);
  put32(out, offsetof(::tls_trace_image, events_offset), uint32_t(events_at));
  for (uint32_t k = 0; k < m; ++k) {
    put32(out, sizeof(::tls_trace_image) + 4 * k, messages[k].first);
    put32(out, sizeof(::tls_trace_image) + 4 * (m + k), messages[k].count);
  }
  for (size_t k = 0; k < events.size(); ++k) {
    const size_t at = events_at + k * sizeof(tls_trace_event);
    put32(out, at, events[k].op);
    put32(out, at + 4, events[k].id);
    put32(out, at + 8, events[k].size);
  }
  return out;
}

}  // namespace heap
