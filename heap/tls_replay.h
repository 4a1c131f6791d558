// A text TLS allocation trace (heap/traces, heap/tools/tls_trace) turned into the
// image guest code replays (os/guest/include/tls_trace.h). The trace must hold one
// connection: a handshake phase, message phases, a close phase.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace heap {

// Throws std::runtime_error naming the file and line of the first problem.
std::vector<uint8_t> tls_trace_image(const std::string& path);
// The same from the trace's text; `name` stands for the file in messages.
std::vector<uint8_t> tls_trace_image_of(const std::string& text, const std::string& name);

}  // namespace heap
