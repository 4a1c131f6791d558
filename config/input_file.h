// Files the user names (configurations, program images, traces): read only when they
// are regular files of at most a stated size, so that a directory, a FIFO or /dev/zero
// is refused with a clear message instead of read as empty or until memory runs out.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cfg {

struct InputFileError : std::runtime_error {
  InputFileError(const std::string& path, const std::string& why) : std::runtime_error(path + ": " + why), why(why) {}
  std::string why;  // the message without the path, for callers that name it themselves
};

// Upper bounds, each far above what the project's own files need.
constexpr uint64_t kMaxConfigBytes = 4ull << 20;   // a YAML configuration
constexpr uint64_t kMaxImageBytes = 256ull << 20;  // an ELF program image
constexpr uint64_t kMaxTraceBytes = 256ull << 20;  // a workload trace

// The bytes of `path`; throws InputFileError "PATH: why" if it cannot be opened, is not
// a regular file, or holds more than `limit` bytes (`what` names the kind: "configuration").
std::string read_input_file(const std::string& path, uint64_t limit, const char* what);

}  // namespace cfg
