#include "config/input_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cfg {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the descriptor on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_input_file(const std::string& path, uint64_t limit, const char* what) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) throw InputFileError(path, fmt::format("cannot open: {}", std::strerror(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw InputFileError(path, fmt::format("cannot read: {}", std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    throw InputFileError(path, fmt::format("is {}, not a regular file ({} expected)", kind_of(st.st_mode), what));
  if (uint64_t(st.st_size) > limit)
    throw InputFileError(path, fmt::format("{} bytes, more than a {} file may hold ({} bytes)", uint64_t(st.st_size),
                                           what, limit));
  std::string bytes;
  bytes.resize(size_t(st.st_size));
  size_t got = 0;
  // Read to the size stat gave, and on while the file grows, at most one byte past the limit.
  while (true) {
    if (got == bytes.size()) {
      if (bytes.size() > limit) break;
      bytes.resize(size_t(std::min<uint64_t>(limit + 1, bytes.size() + (64u << 10))));
    }
    const ssize_t n = ::read(f.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputFileError(path, fmt::format("cannot read: {}", std::strerror(errno)));
    if (n == 0) break;
    got += size_t(n);
  }
  if (got > limit)
    throw InputFileError(path, fmt::format("more than a {} file may hold ({} bytes)", what, limit));
  bytes.resize(got);
  return bytes;
}

}  // namespace cfg
