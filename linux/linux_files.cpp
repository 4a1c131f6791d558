#include "linux/linux_files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emu/cpu.h"
#include "linux/linux_abi.h"

namespace linux_user {
namespace abi = linux_abi;
namespace {

constexpr uint64_t kONofollow = 0400000, kONonblock = 04000;
constexpr uint64_t kAtSymlinkNofollow = 0x100;
constexpr uint64_t kTcgets = 0x5401;
constexpr uint64_t kFDupfd = 0, kFGetfd = 1, kFSetfd = 2, kFGetfl = 3, kFSetfl = 4, kFDupfdCloexec = 1030;
constexpr unsigned kMaxFds = 1024;

void put64(uint8_t* p, uint64_t v) { emu::Cpu::store_be<uint64_t>(p, v); }
void put32(uint8_t* p, uint32_t v) { emu::Cpu::store_be<uint32_t>(p, v); }

// The host's struct stat in the guest's layout.
void to_guest_stat(const struct stat& s, uint8_t* st) {
  std::memset(st, 0, abi::kStatBytes);
  put64(st + abi::kStDev, s.st_dev);
  put64(st + abi::kStIno, s.st_ino);
  put64(st + abi::kStNlink, s.st_nlink);
  put32(st + abi::kStMode, s.st_mode);
  put32(st + abi::kStUid, s.st_uid);
  put32(st + abi::kStGid, s.st_gid);
  put64(st + abi::kStRdev, s.st_rdev);
  put64(st + abi::kStSize, uint64_t(s.st_size));
  put64(st + abi::kStAtime, uint64_t(s.st_atim.tv_sec)), put64(st + abi::kStAtime + 8, uint64_t(s.st_atim.tv_nsec));
  put64(st + abi::kStMtime, uint64_t(s.st_mtim.tv_sec)), put64(st + abi::kStMtime + 8, uint64_t(s.st_mtim.tv_nsec));
  put64(st + abi::kStCtime, uint64_t(s.st_ctim.tv_sec)), put64(st + abi::kStCtime + 8, uint64_t(s.st_ctim.tv_nsec));
  put64(st + abi::kStBlksize, uint64_t(s.st_blksize));
  put64(st + abi::kStBlocks, uint64_t(s.st_blocks));
}

// Standard streams look the same on every run (a pipe, 4 KB buffers), whatever the
// host's are: what the guest's stdio decides from them must not vary.
void stream_stat(uint8_t* st, unsigned fd) {
  std::memset(st, 0, abi::kStatBytes);
  put64(st + abi::kStIno, fd + 1);
  put64(st + abi::kStNlink, 1);
  put32(st + abi::kStMode, S_IFIFO | 0600);
  put64(st + abi::kStBlksize, 4096);
}

int64_t host_error() { return -int64_t(errno); }

}  // namespace

LinuxFiles::LinuxFiles(const std::string& root, std::FILE* out, std::FILE* err) : out_(out), err_(err) {
  if (!root.empty()) {
    root_fd_ = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd_ < 0) throw std::runtime_error("--root " + root + ": " + std::strerror(errno));
  }
  fds_.resize(3);
  fds_[0].kind = Kind::Stdin, fds_[1].kind = Kind::Stdout, fds_[2].kind = Kind::Stderr;
  fds_[1].status_flags = fds_[2].status_flags = 1;  // O_WRONLY
}

LinuxFiles::~LinuxFiles() {
  for (auto& f : fds_) release(f);
  if (root_fd_ >= 0) ::close(root_fd_);
}

void LinuxFiles::release(OpenFile& f) {
  if (f.kind == Kind::Host) ::close(f.host_fd);
  f = OpenFile{};
}

LinuxFiles::OpenFile* LinuxFiles::file(int64_t fd) {
  if (fd < 0 || uint64_t(fd) >= fds_.size() || fds_[size_t(fd)].kind == Kind::Closed) return nullptr;
  return &fds_[size_t(fd)];
}

int64_t LinuxFiles::install(OpenFile f, int64_t min_fd) {
  for (size_t k = size_t(std::max<int64_t>(min_fd, 0)); k < kMaxFds; ++k) {
    if (k >= fds_.size()) fds_.resize(k + 1);
    if (fds_[k].kind == Kind::Closed) {
      fds_[k] = std::move(f);
      return int64_t(k);
    }
  }
  release(f);
  return -abi::kEmfile;
}

std::string LinuxFiles::guest_path(int64_t dirfd, const std::string& path, int64_t& err) {
  err = 0;
  if (!path.empty() && path[0] == '/') return path;
  if (dirfd == abi::kAtFdcwd) return "/" + path;  // the guest's working directory is "/"
  OpenFile* d = file(dirfd);
  if (!d) return err = -abi::kEbadf, "";
  if (d->kind != Kind::Host) return err = -abi::kEnotdir, "";
  return d->path + "/" + path;
}

int LinuxFiles::open_in_root(const std::string& path, uint64_t host_flags, uint64_t mode) {
  if (root_fd_ < 0) return errno = ENOENT, -1;
  struct open_how how {};
  how.flags = host_flags | O_CLOEXEC;
  how.mode = (host_flags & O_CREAT) ? (mode & 07777) : 0;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  return int(::syscall(SYS_openat2, root_fd_, path.c_str(), &how, sizeof how));
}

int64_t LinuxFiles::openat(int64_t dirfd, const std::string& path, uint64_t flags, uint64_t mode) {
  if (path.empty()) return -abi::kEnoent;
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  // Only the flags whose meaning is the same on the host; the rest are ignored.
  const uint64_t known = abi::kOAccmode | abi::kOCreat | abi::kOExcl | abi::kOTrunc | abi::kOAppend |
                         abi::kODirectory | kONofollow | kONonblock;
  int fd = open_in_root(p, flags & known, mode);
  if (fd < 0) return host_error();
  OpenFile f;
  f.kind = Kind::Host, f.host_fd = fd, f.path = p, f.status_flags = flags & (abi::kOAccmode | abi::kOAppend);
  return install(std::move(f));
}

int64_t LinuxFiles::close(int64_t fd) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  release(*f);
  return 0;
}

int64_t LinuxFiles::read(int64_t fd, uint8_t* buf, uint64_t len) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  switch (f->kind) {
    case Kind::Stdin: {
      ssize_t n = ::read(0, buf, len);
      return n < 0 ? host_error() : n;
    }
    case Kind::Host: {
      ssize_t n = ::read(f->host_fd, buf, len);
      return n < 0 ? host_error() : n;
    }
    default: return -abi::kEbadf;  // opened for writing only
  }
}

int64_t LinuxFiles::pread(int64_t fd, uint8_t* buf, uint64_t len, int64_t offset) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEspipe;
  ssize_t n = ::pread(f->host_fd, buf, len, offset);
  return n < 0 ? host_error() : n;
}

int64_t LinuxFiles::write(int64_t fd, const uint8_t* buf, uint64_t len) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  switch (f->kind) {
    case Kind::Stdout: case Kind::Stderr: {
      std::FILE* out = f->kind == Kind::Stdout ? out_ : err_;
      std::fwrite(buf, 1, len, out);
      if (f->kind == Kind::Stderr) std::fflush(out);
      return int64_t(len);
    }
    case Kind::Host: {
      ssize_t n = ::write(f->host_fd, buf, len);
      return n < 0 ? host_error() : n;
    }
    default: return -abi::kEbadf;
  }
}

int64_t LinuxFiles::lseek(int64_t fd, int64_t offset, uint64_t whence) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEspipe;
  if (whence > 2) return -abi::kEinval;
  off_t r = ::lseek(f->host_fd, offset, int(whence));
  return r < 0 ? host_error() : int64_t(r);
}

int64_t LinuxFiles::fstat(int64_t fd, uint8_t* st) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return stream_stat(st, unsigned(fd)), 0;
  struct stat s;
  if (::fstat(f->host_fd, &s) < 0) return host_error();
  to_guest_stat(s, st);
  return 0;
}

int64_t LinuxFiles::fstatat(int64_t dirfd, const std::string& path, uint8_t* st, uint64_t flags) {
  if (path.empty()) {
    if (!(flags & abi::kAtEmptyPath)) return -abi::kEnoent;
    return dirfd == abi::kAtFdcwd ? fstatat(dirfd, "/", st, 0) : fstat(dirfd, st);
  }
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  int fd = open_in_root(p, O_PATH | ((flags & kAtSymlinkNofollow) ? O_NOFOLLOW : 0), 0);
  if (fd < 0) return host_error();
  struct stat s;
  int r = ::fstat(fd, &s);
  int64_t e = r < 0 ? host_error() : 0;
  ::close(fd);
  if (r == 0) to_guest_stat(s, st);
  return e;
}

int64_t LinuxFiles::getdents64(int64_t fd, uint8_t* buf, uint64_t len) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEnotdir;
  long n = ::syscall(SYS_getdents64, f->host_fd, buf, len);
  if (n < 0) return host_error();
  // linux_dirent64 has the same layout on both sides; only the byte order differs.
  for (long off = 0; off < n;) {
    uint8_t* d = buf + off;
    uint64_t ino, doff;
    uint16_t reclen;
    std::memcpy(&ino, d, 8), std::memcpy(&doff, d + 8, 8), std::memcpy(&reclen, d + 16, 2);
    put64(d, ino), put64(d + 8, doff), emu::Cpu::store_be<uint16_t>(d + 16, reclen);
    if (reclen == 0) break;
    off += reclen;
  }
  return n;
}

int64_t LinuxFiles::ioctl(int64_t fd, uint64_t request) {
  if (!file(fd)) return -abi::kEbadf;
  (void)request;  // TCGETS and every other terminal request: not a terminal
  return -abi::kEnotty;
}

int64_t LinuxFiles::fcntl(int64_t fd, uint64_t cmd, uint64_t arg) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  switch (cmd) {
    case kFDupfd: case kFDupfdCloexec: return dup(fd, int64_t(arg));
    case kFGetfd: return 1;  // FD_CLOEXEC: nothing is ever exec'd
    case kFSetfd: return 0;
    case kFGetfl: return int64_t(f->status_flags);
    case kFSetfl: return 0;
    default: return -abi::kEinval;
  }
}

int64_t LinuxFiles::dup(int64_t fd, int64_t min_fd) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  OpenFile copy = *f;
  if (copy.kind == Kind::Host && (copy.host_fd = ::fcntl(f->host_fd, F_DUPFD_CLOEXEC, 0)) < 0) return host_error();
  return install(std::move(copy), min_fd);
}

int64_t LinuxFiles::dup3(int64_t fd, int64_t newfd) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (newfd < 0 || newfd >= int64_t(kMaxFds)) return -abi::kEbadf;
  if (newfd == fd) return -abi::kEinval;
  if (uint64_t(newfd) >= fds_.size()) fds_.resize(size_t(newfd) + 1);
  OpenFile copy = *f;
  if (copy.kind == Kind::Host && (copy.host_fd = ::fcntl(f->host_fd, F_DUPFD_CLOEXEC, 0)) < 0) return host_error();
  release(fds_[size_t(newfd)]);
  fds_[size_t(newfd)] = std::move(copy);
  return newfd;
}

int64_t LinuxFiles::open_parent(int64_t dirfd, const std::string& path, int& parent_fd, std::string& name) {
  if (path.empty()) return -abi::kEnoent;
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  name = p.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") return -abi::kEinval;
  parent_fd = open_in_root(slash == 0 ? "/" : p.substr(0, slash), O_PATH | O_DIRECTORY, 0);
  return parent_fd < 0 ? host_error() : 0;
}

int64_t LinuxFiles::unlinkat(int64_t dirfd, const std::string& path, uint64_t flags) {
  constexpr uint64_t kAtRemovedir = 0x200;
  int parent;
  std::string name;
  if (int64_t e = open_parent(dirfd, path, parent, name)) return e;
  int r = ::unlinkat(parent, name.c_str(), (flags & kAtRemovedir) ? AT_REMOVEDIR : 0);
  int64_t rc = r < 0 ? host_error() : 0;
  ::close(parent);
  return rc;
}

int64_t LinuxFiles::mkdirat(int64_t dirfd, const std::string& path, uint64_t mode) {
  int parent;
  std::string name;
  if (int64_t e = open_parent(dirfd, path, parent, name)) return e;
  int r = ::mkdirat(parent, name.c_str(), mode_t(mode & 07777));
  int64_t rc = r < 0 ? host_error() : 0;
  ::close(parent);
  return rc;
}

int64_t LinuxFiles::faccessat(int64_t dirfd, const std::string& path) {
  // The guest owns what it can reach: existence is the answer.
  if (path.empty()) return -abi::kEnoent;
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  int fd = open_in_root(p, O_PATH, 0);
  if (fd < 0) return host_error();
  ::close(fd);
  return 0;
}

int64_t LinuxFiles::ftruncate(int64_t fd, int64_t length) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEinval;
  return ::ftruncate(f->host_fd, length) < 0 ? host_error() : 0;
}

int64_t LinuxFiles::fsync(int64_t fd) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  return 0;  // the host writes when it will; the guest cannot tell
}

int64_t LinuxFiles::dup_for_mapping(int64_t fd, bool& writable) {
  OpenFile* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEnodev;  // a terminal or pipe has no pages
  const uint64_t mode = f->status_flags & abi::kOAccmode;
  if (mode == 1) return -abi::kEacces;  // O_WRONLY: a mapping reads
  writable = mode == 2;
  const int d = ::fcntl(f->host_fd, F_DUPFD_CLOEXEC, 0);
  return d < 0 ? host_error() : d;
}

}  // namespace linux_user
