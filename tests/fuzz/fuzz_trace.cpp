// Fuzz target: the TLS allocation trace parser (heap/tls_replay.h) that turns a text
// trace (workload.data_file) into the image guest code replays. Any outcome but a
// std::runtime_error naming the problem or an image is a finding.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "heap/tls_replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)heap::tls_trace_image_of(std::string(reinterpret_cast<const char*>(data), size), "fuzz.trace");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
