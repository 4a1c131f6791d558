#include "linux/linux_files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
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
using abi::put64;
using abi::put32;
namespace {

constexpr uint64_t kONofollow = 0400000, kONonblock = 04000, kODirect = 040000;
constexpr uint64_t kAtSymlinkNofollow = 0x100;
constexpr uint64_t kTcgets = 0x5401;
constexpr uint64_t kFDupfd = 0, kFGetfd = 1, kFSetfd = 2, kFGetfl = 3, kFSetfl = 4, kFDupfdCloexec = 1030;
constexpr unsigned kMaxFds = 1024;


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
void stream_stat(uint8_t* st, unsigned fd, bool null_device) {
  std::memset(st, 0, abi::kStatBytes);
  put64(st + abi::kStIno, fd + 1);
  put64(st + abi::kStNlink, 1);
  put32(st + abi::kStMode, null_device ? S_IFCHR | 0666 : S_IFIFO | 0600);
  if (null_device) put64(st + abi::kStRdev, 0x103);  // makedev(1, 3)
  put64(st + abi::kStBlksize, 4096);
}

int64_t host_error() { return -int64_t(errno); }

}  // namespace

// A pipe as Linux keeps one (fs/pipe.c): a ring of at most 16 page buffers. A write
// first tops up the last buffer with the part of it past whole pages, if that fits,
// then fills new buffers a page at a time; a read takes from the first buffers and
// frees each one it empties. Every change is told to the notifier (the kernel wakes
// the threads waiting on the pipe).
struct LinuxFiles::Pipe {
  struct Buffer {
    uint64_t offset = 0;  // where its bytes start in its page
    std::vector<uint8_t> bytes;
  };
  static constexpr unsigned kSlots = unsigned(kPipeCapacity / kPipeAtomic);
  std::deque<Buffer> buffers;
  unsigned readers = 0, writers = 0;
  std::shared_ptr<Notifier> notifier;
  bool empty() const { return buffers.empty(); }
  bool full() const { return buffers.size() >= kSlots; }
  const void* sockets[2] = {};  // a socket pair's pipe: its two ends are woken too (poll waits on them)
  void changed() const {
    if (!*notifier) return;
    (*notifier)(this);
    for (const void* s : sockets)
      if (s) (*notifier)(s);
  }
};

// The ports bound in this run (every process's), and the next ephemeral one.
struct LinuxFiles::Network {
  std::map<uint16_t, const Socket*> ports;
  uint16_t next_ephemeral = 32768;
};

// A socket: its addresses (host values), state, options set, and once connected the
// pipe it reads (`in`, its reader) and the pipe it writes (`out`, its writer).
struct LinuxFiles::Socket {
  uint16_t domain = 0;
  enum class State : uint8_t { Fresh, Listening, Connected } state = State::Fresh;
  bool bound = false, shut_rd = false, shut_wr = false;
  uint32_t addr = 0, peer_addr = 0;
  uint16_t port = 0, peer_port = 0;
  std::map<std::pair<uint64_t, uint64_t>, int32_t> options;
  std::shared_ptr<Pipe> in, out;
  std::deque<std::shared_ptr<Socket>> backlog;  // connections accept has not taken yet
  uint64_t backlog_max = 0;
  std::shared_ptr<Network> net;
  std::shared_ptr<Notifier> notifier;
  ~Socket() {
    if (bound && net->ports.count(port) && net->ports[port] == this) net->ports.erase(port);
    for (Pipe* p : {in.get(), out.get()}) {
      if (!p) continue;
      for (const void*& k : p->sockets)
        if (k == this) k = nullptr;
      if (p == in.get()) p->readers -= 1;
      else if (!shut_wr) p->writers -= 1;
      p->changed();  // the peer hears of it
    }
  }
};

struct LinuxFiles::Description {
  Kind kind = Kind::Null;
  int host_fd = -1;
  std::string path;  // the guest's path (for openat relative to a directory)
  uint64_t status_flags = 0;
  std::shared_ptr<Pipe> pipe;
  std::shared_ptr<Socket> socket;
  Description() = default;
  Description(const Description&) = delete;
  Description& operator=(const Description&) = delete;
  ~Description() {
    if (host_fd >= 0) ::close(host_fd);
    if (!pipe) return;
    (kind == Kind::PipeRead ? pipe->readers : pipe->writers) -= 1;
    pipe->changed();
  }
};

LinuxFiles::Root::~Root() {
  if (fd >= 0) ::close(fd);
}

LinuxFiles::LinuxFiles(const std::string& root, std::FILE* out, std::FILE* err)
    : root_(std::make_shared<Root>()), out_(out), err_(err), notifier_(std::make_shared<Notifier>()),
      net_(std::make_shared<Network>()) {
  if (!root.empty()) {
    root_->fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_->fd < 0) throw std::runtime_error("--root " + root + ": " + std::strerror(errno));
  }
  const Kind standard[3] = {Kind::Stdin, Kind::Stdout, Kind::Stderr};
  for (Kind k : standard) {
    auto d = std::make_shared<Description>();
    d->kind = k;
    d->status_flags = k == Kind::Stdin ? 0 : 1;  // O_RDONLY, O_WRONLY
    fds_.push_back(Slot{d, false});
  }
}

LinuxFiles::~LinuxFiles() = default;

std::unique_ptr<LinuxFiles> LinuxFiles::fork() const {
  auto f = std::unique_ptr<LinuxFiles>(new LinuxFiles("", out_, err_));
  f->root_ = root_;
  f->notifier_ = notifier_;
  f->net_ = net_;
  f->fds_ = fds_;
  f->cwd_ = cwd_;
  return f;
}

void LinuxFiles::close_on_exec() {
  for (Slot& s : fds_)
    if (s.cloexec) s = Slot{};
}

LinuxFiles::Description* LinuxFiles::file(int64_t fd) {
  if (fd < 0 || uint64_t(fd) >= fds_.size()) return nullptr;
  return fds_[size_t(fd)].d.get();
}

int64_t LinuxFiles::install(std::shared_ptr<Description> d, bool cloexec, int64_t min_fd) {
  for (size_t k = size_t(std::max<int64_t>(min_fd, 0)); k < kMaxFds; ++k) {
    if (k >= fds_.size()) fds_.resize(k + 1);
    if (!fds_[k].d) {
      fds_[k] = Slot{std::move(d), cloexec};
      return int64_t(k);
    }
  }
  return -abi::kEmfile;
}

std::string LinuxFiles::guest_path(int64_t dirfd, const std::string& path, int64_t& err) {
  err = 0;
  if (!path.empty() && path[0] == '/') return path;
  if (dirfd == abi::kAtFdcwd) return (cwd_ == "/" ? "" : cwd_) + "/" + path;
  Description* d = file(dirfd);
  if (!d) return err = -abi::kEbadf, "";
  if (d->kind != Kind::Host) return err = -abi::kEnotdir, "";
  return d->path + "/" + path;
}

int LinuxFiles::open_in_root(const std::string& path, uint64_t host_flags, uint64_t mode) {
  if (root_->fd < 0) return errno = ENOENT, -1;
  struct open_how how {};
  how.flags = host_flags | O_CLOEXEC;
  how.mode = (host_flags & O_CREAT) ? (mode & 07777) : 0;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  return int(::syscall(SYS_openat2, root_->fd, path.c_str(), &how, sizeof how));
}

int64_t LinuxFiles::openat(int64_t dirfd, const std::string& path, uint64_t flags, uint64_t mode) {
  if (path.empty()) return -abi::kEnoent;
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  auto d = std::make_shared<Description>();
  d->status_flags = flags & (abi::kOAccmode | abi::kOAppend | kONonblock);
  d->path = p;
  if (p == "/dev/null") {
    d->kind = Kind::Null;  // whatever the root holds: every system has one
  } else {
    // Only the flags whose meaning is the same on the host; the rest are ignored.
    const uint64_t known = abi::kOAccmode | abi::kOCreat | abi::kOExcl | abi::kOTrunc | abi::kOAppend |
                           abi::kODirectory | kONofollow | kONonblock;
    int fd = open_in_root(p, flags & known, mode);
    if (fd < 0) return host_error();
    d->kind = Kind::Host, d->host_fd = fd;
  }
  return install(std::move(d), flags & abi::kOCloexec);
}

int64_t LinuxFiles::close(int64_t fd) {
  if (!file(fd)) return -abi::kEbadf;
  fds_[size_t(fd)] = Slot{};
  return 0;
}

int64_t LinuxFiles::pipe2(uint64_t flags, int64_t fds[2]) {
  if (flags & ~(abi::kOCloexec | kONonblock | kODirect)) return -abi::kEinval;
  auto pipe = std::make_shared<Pipe>();
  pipe->notifier = notifier_;
  auto r = std::make_shared<Description>(), w = std::make_shared<Description>();
  r->kind = Kind::PipeRead, w->kind = Kind::PipeWrite;
  r->status_flags = flags & kONonblock, w->status_flags = 1 | (flags & kONonblock);
  r->pipe = w->pipe = pipe;
  pipe->readers = pipe->writers = 1;
  fds[0] = install(std::move(r), flags & abi::kOCloexec);
  if (fds[0] < 0) return fds[0];
  fds[1] = install(std::move(w), flags & abi::kOCloexec);
  if (fds[1] < 0) return close(fds[0]), fds[1];
  return 0;
}

int64_t LinuxFiles::read_pipe(Pipe& p, uint8_t* buf, uint64_t len, bool nonblocking) {
  if (len == 0) return 0;
  if (p.empty()) {
    if (!p.writers) return 0;  // end of file
    if (nonblocking) return -abi::kEagain;
    wait_key_ = &p;
    return kWait;
  }
  uint64_t n = 0;
  while (n < len && !p.empty()) {
    Pipe::Buffer& b = p.buffers.front();
    const uint64_t take = std::min<uint64_t>(len - n, b.bytes.size());
    std::copy_n(b.bytes.begin(), take, buf + n);
    b.bytes.erase(b.bytes.begin(), b.bytes.begin() + int64_t(take));
    b.offset += take;
    n += take;
    if (b.bytes.empty()) p.buffers.pop_front();
  }
  p.changed();
  return int64_t(n);
}

int64_t LinuxFiles::write_pipe(Pipe& p, const uint8_t* buf, uint64_t len, bool nonblocking) {
  if (!p.readers) return kBrokenPipe;
  if (len == 0) return 0;
  uint64_t n = 0;
  const uint64_t tail = len % kPipeAtomic;
  if (tail && !p.empty()) {
    Pipe::Buffer& last = p.buffers.back();
    if (last.offset + last.bytes.size() + tail <= kPipeAtomic) {
      last.bytes.insert(last.bytes.end(), buf, buf + tail);
      n = tail;
    }
  }
  while (n < len && !p.full()) {
    const uint64_t take = std::min(len - n, kPipeAtomic);
    p.buffers.push_back(Pipe::Buffer{0, std::vector<uint8_t>(buf + n, buf + n + take)});
    n += take;
  }
  if (n) {
    p.changed();
    return int64_t(n);
  }
  if (nonblocking) return -abi::kEagain;
  wait_key_ = &p;
  return kWait;
}

int64_t LinuxFiles::read(int64_t fd, uint8_t* buf, uint64_t len) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  switch (f->kind) {
    case Kind::Stdin: {
      ssize_t n = ::read(0, buf, len);
      return n < 0 ? host_error() : n;
    }
    case Kind::Host: {
      if ((f->status_flags & abi::kOAccmode) == 1) return -abi::kEbadf;
      ssize_t n = ::read(f->host_fd, buf, len);
      return n < 0 ? host_error() : n;
    }
    case Kind::Null: return 0;
    case Kind::PipeRead: return read_pipe(*f->pipe, buf, len, f->status_flags & kONonblock);
    case Kind::Socket: return recv(fd, buf, len, false);
    default: return -abi::kEbadf;  // opened for writing only
  }
}

int64_t LinuxFiles::pread(int64_t fd, uint8_t* buf, uint64_t len, int64_t offset) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind == Kind::Null) return 0;
  if (f->kind != Kind::Host) return -abi::kEspipe;
  ssize_t n = ::pread(f->host_fd, buf, len, offset);
  return n < 0 ? host_error() : n;
}

int64_t LinuxFiles::write(int64_t fd, const uint8_t* buf, uint64_t len) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  switch (f->kind) {
    case Kind::Stdout: case Kind::Stderr: {
      std::FILE* out = f->kind == Kind::Stdout ? out_ : err_;
      std::fwrite(buf, 1, len, out);
      if (f->kind == Kind::Stderr) std::fflush(out);
      return int64_t(len);
    }
    case Kind::Host: {
      if ((f->status_flags & abi::kOAccmode) == 0) return -abi::kEbadf;
      ssize_t n = ::write(f->host_fd, buf, len);
      return n < 0 ? host_error() : n;
    }
    case Kind::Null: return int64_t(len);
    case Kind::PipeWrite: return write_pipe(*f->pipe, buf, len, f->status_flags & kONonblock);
    case Kind::Socket: return send(fd, buf, len, false);
    default: return -abi::kEbadf;
  }
}

bool LinuxFiles::nonblocking(int64_t fd) {
  Description* f = file(fd);
  return f && (f->status_flags & kONonblock);
}

const void* LinuxFiles::pipe_of(int64_t fd) {
  Description* f = file(fd);
  if (f && f->socket) return f->socket->out.get();
  return f ? f->pipe.get() : nullptr;
}

uint16_t LinuxFiles::poll(int64_t fd, uint16_t events, const void*& key) {
  constexpr uint16_t kPollin = 1, kPollout = 4, kPollerr = 8, kPollhup = 16, kPollnval = 32, kPollrdnorm = 0x40,
                     kPollwrnorm = 0x100;
  key = nullptr;
  Description* f = file(fd);
  if (!f) return kPollnval;
  const uint16_t in = events & (kPollin | kPollrdnorm), out = events & (kPollout | kPollwrnorm);
  switch (f->kind) {
    case Kind::PipeRead: {
      key = f->pipe.get();
      uint16_t r = f->pipe->empty() ? 0 : in;
      if (!f->pipe->writers) r |= kPollhup;
      return r;
    }
    case Kind::PipeWrite: {
      key = f->pipe.get();
      if (!f->pipe->readers) return uint16_t(out | kPollerr);
      return f->pipe->full() ? 0 : out;
    }
    case Kind::Socket: {
      const Socket& s = *f->socket;
      key = &s;
      if (s.state == Socket::State::Listening) return s.backlog.empty() ? 0 : in;
      if (s.state != Socket::State::Connected) return kPollhup;  // as Linux answers an unconnected TCP socket
      uint16_t r = 0;
      if (!s.in->empty() || !s.in->writers || s.shut_rd) r |= in;
      if (!s.out->readers) r |= uint16_t(out | kPollerr);
      else if (!s.shut_wr && !s.out->full()) r |= out;
      if (!s.in->writers && (s.shut_wr || !s.out->readers)) r |= kPollhup;
      return r;
    }
    case Kind::Stdin: return in;
    case Kind::Stdout: case Kind::Stderr: return out;
    default: return uint16_t(in | out);  // files and /dev/null never wait
  }
}

int64_t LinuxFiles::lseek(int64_t fd, int64_t offset, uint64_t whence) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEspipe;
  if (whence > 2) return -abi::kEinval;
  off_t r = ::lseek(f->host_fd, offset, int(whence));
  return r < 0 ? host_error() : int64_t(r);
}

int64_t LinuxFiles::fstat(int64_t fd, uint8_t* st) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind == Kind::Socket) {
    stream_stat(st, unsigned(fd), false);
    put32(st + abi::kStMode, S_IFSOCK | 0777);
    return 0;
  }
  if (f->kind != Kind::Host) return stream_stat(st, unsigned(fd), f->kind == Kind::Null), 0;
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
  Description* f = file(fd);
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
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  constexpr uint64_t kFdCloexec = 1;
  constexpr uint64_t kSettable = abi::kOAppend | kONonblock;  // F_SETFL changes only these
  switch (cmd) {
    case kFDupfd: return dup(fd, int64_t(arg), false);
    case kFDupfdCloexec: return dup(fd, int64_t(arg), true);
    case kFGetfd: return fds_[size_t(fd)].cloexec ? int64_t(kFdCloexec) : 0;
    case kFSetfd: fds_[size_t(fd)].cloexec = arg & kFdCloexec; return 0;
    case kFGetfl: return int64_t(f->status_flags);
    case kFSetfl: f->status_flags = (f->status_flags & ~kSettable) | (arg & kSettable); return 0;
    default: return -abi::kEinval;
  }
}

int64_t LinuxFiles::dup(int64_t fd, int64_t min_fd, bool cloexec) {
  if (!file(fd)) return -abi::kEbadf;
  if (min_fd < 0 || min_fd >= int64_t(kMaxFds)) return -abi::kEinval;
  return install(fds_[size_t(fd)].d, cloexec, min_fd);
}

int64_t LinuxFiles::dup3(int64_t fd, int64_t newfd, uint64_t flags) {
  if (flags & ~abi::kOCloexec) return -abi::kEinval;
  if (!file(fd)) return -abi::kEbadf;
  if (newfd < 0 || newfd >= int64_t(kMaxFds)) return -abi::kEbadf;
  if (newfd == fd) return -abi::kEinval;
  if (uint64_t(newfd) >= fds_.size()) fds_.resize(size_t(newfd) + 1);
  fds_[size_t(newfd)] = Slot{fds_[size_t(fd)].d, bool(flags & abi::kOCloexec)};
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
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEinval;
  return ::ftruncate(f->host_fd, length) < 0 ? host_error() : 0;
}

int64_t LinuxFiles::read_file(int64_t dirfd, const std::string& path, std::vector<uint8_t>& bytes,
                              std::string& guest) {
  constexpr uint64_t kMaxImage = 256ull << 20;  // an executable larger than this is refused (ENOEXEC)
  int fd;
  if (path.empty()) {  // AT_EMPTY_PATH: the file dirfd is open on (fexecve)
    Description* d = file(dirfd);
    if (!d) return -abi::kEbadf;
    if (d->kind != Kind::Host) return -abi::kEacces;
    guest = d->path;
    fd = ::dup(d->host_fd);
  } else {
    int64_t err;
    guest = guest_path(dirfd, path, err);
    if (err) return err;
    fd = open_in_root(guest, O_RDONLY, 0);
  }
  if (fd < 0) return host_error();
  struct stat s;
  int64_t rc = 0;
  if (::fstat(fd, &s) < 0) rc = host_error();
  else if (S_ISDIR(s.st_mode)) rc = -abi::kEacces;
  else if (!S_ISREG(s.st_mode) || uint64_t(s.st_size) > kMaxImage) rc = -abi::kEnoexec;
  else if (!(s.st_mode & 0111)) rc = -abi::kEacces;  // no one may execute it
  if (rc == 0) {
    bytes.resize(size_t(s.st_size));
    ssize_t n = ::pread(fd, bytes.data(), bytes.size(), 0);
    if (n != ssize_t(bytes.size())) rc = n < 0 ? host_error() : -abi::kEio;
  }
  ::close(fd);
  return rc;
}

int64_t LinuxFiles::fsync(int64_t fd) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  return 0;  // the host writes when it will; the guest cannot tell
}

int64_t LinuxFiles::dup_for_mapping(int64_t fd, bool& writable) {
  Description* f = file(fd);
  if (!f) return -abi::kEbadf;
  if (f->kind != Kind::Host) return -abi::kEnodev;  // a terminal or pipe has no pages
  const uint64_t mode = f->status_flags & abi::kOAccmode;
  if (mode == 1) return -abi::kEacces;  // O_WRONLY: a mapping reads
  writable = mode == 2;
  const int d = ::fcntl(f->host_fd, F_DUPFD_CLOEXEC, 0);
  return d < 0 ? host_error() : d;
}

std::string LinuxFiles::guest_path_of(int host_fd) const {
  auto link = [](int fd) {
    char buf[4096];
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    ssize_t n = ::readlink(proc.c_str(), buf, sizeof buf);
    return n <= 0 || size_t(n) >= sizeof buf ? std::string() : std::string(buf, size_t(n));
  };
  const std::string root = link(root_->fd), host = link(host_fd);
  if (root.empty() || host.compare(0, root.size(), root) != 0) return "";
  if (root == "/") return host;
  if (host.size() == root.size()) return "/";
  return host[root.size()] == '/' ? host.substr(root.size()) : "";
}

int64_t LinuxFiles::chdir(int64_t dirfd, const std::string& path) {
  int fd;
  if (path.empty()) {  // fchdir
    Description* d = file(dirfd);
    if (!d) return -abi::kEbadf;
    if (d->kind != Kind::Host) return -abi::kEnotdir;
    fd = ::dup(d->host_fd);
    if (fd < 0) return host_error();
    struct stat s;
    if (::fstat(fd, &s) < 0 || !S_ISDIR(s.st_mode)) return ::close(fd), -abi::kEnotdir;
  } else {
    int64_t err;
    std::string p = guest_path(dirfd, path, err);
    if (err) return err;
    fd = open_in_root(p, O_PATH | O_DIRECTORY, 0);
    if (fd < 0) return host_error();
  }
  // The directory's own path, as Linux keeps it: "..", "." and links resolved.
  std::string where = guest_path_of(fd);
  ::close(fd);
  if (where.empty()) return -abi::kEnoent;
  cwd_ = where;
  return 0;
}

int64_t LinuxFiles::renameat2(int64_t old_dirfd, const std::string& old_path, int64_t new_dirfd,
                              const std::string& new_path, uint64_t flags) {
  constexpr uint64_t kRenameNoreplace = 1, kRenameExchange = 2;
  if (flags & ~(kRenameNoreplace | kRenameExchange)) return -abi::kEinval;
  int from, to;
  std::string from_name, to_name;
  if (int64_t e = open_parent(old_dirfd, old_path, from, from_name)) return e;
  if (int64_t e = open_parent(new_dirfd, new_path, to, to_name)) return ::close(from), e;
  int r = ::renameat2(from, from_name.c_str(), to, to_name.c_str(), unsigned(flags));
  int64_t rc = r < 0 ? host_error() : 0;
  ::close(from), ::close(to);
  return rc;
}

int64_t LinuxFiles::fchmodat(int64_t dirfd, const std::string& path, uint64_t mode) {
  const mode_t m = mode_t(mode & 07777);
  if (path.empty()) {  // fchmod
    Description* d = file(dirfd);
    if (!d) return -abi::kEbadf;
    if (d->kind != Kind::Host) return 0;  // a pipe's or a device's mode: nothing to keep here
    return ::fchmod(d->host_fd, m) < 0 ? host_error() : 0;
  }
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  int fd = open_in_root(p, O_PATH, 0);  // follows links, inside the root
  if (fd < 0) return host_error();
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  int64_t rc = ::chmod(proc.c_str(), m) < 0 ? host_error() : 0;
  ::close(fd);
  return rc;
}

int64_t LinuxFiles::truncate(const std::string& path, int64_t length) {
  if (path.empty()) return -abi::kEnoent;
  if (length < 0) return -abi::kEinval;
  int64_t err;
  std::string p = guest_path(abi::kAtFdcwd, path, err);
  if (err) return err;
  int fd = open_in_root(p, O_WRONLY, 0);
  if (fd < 0) return host_error();
  int64_t rc = ::ftruncate(fd, length) < 0 ? host_error() : 0;
  ::close(fd);
  return rc;
}

int64_t LinuxFiles::symlinkat(const std::string& target, int64_t dirfd, const std::string& path) {
  if (target.empty()) return -abi::kEnoent;
  int parent;
  std::string name;
  if (int64_t e = open_parent(dirfd, path, parent, name)) return e;
  // The link's text is kept as given: it is resolved inside the root when followed.
  int64_t rc = ::symlinkat(target.c_str(), parent, name.c_str()) < 0 ? host_error() : 0;
  ::close(parent);
  return rc;
}

int64_t LinuxFiles::readlinkat(int64_t dirfd, const std::string& path, std::string& target) {
  int parent;
  std::string name;
  if (int64_t e = open_parent(dirfd, path, parent, name)) return e;
  char buf[4096];
  ssize_t n = ::readlinkat(parent, name.c_str(), buf, sizeof buf);
  int64_t rc = n < 0 ? host_error() : 0;
  ::close(parent);
  if (n >= 0) target.assign(buf, size_t(n));
  return rc;
}

int64_t LinuxFiles::utimensat(int64_t dirfd, const std::string& path, const int64_t times[4], uint64_t flags) {
  if (flags & ~(kAtSymlinkNofollow | abi::kAtEmptyPath)) return -abi::kEinval;
  struct timespec ts[2] = {{times[0], times[1]}, {times[2], times[3]}};
  if (path.empty()) {  // futimens
    if (dirfd == abi::kAtFdcwd) return -abi::kEnoent;
    Description* d = file(dirfd);
    if (!d) return -abi::kEbadf;
    if (d->kind != Kind::Host) return 0;
    return ::futimens(d->host_fd, ts) < 0 ? host_error() : 0;
  }
  int64_t rc;
  if (flags & kAtSymlinkNofollow) {  // the last component itself: nothing to follow out of the root
    int parent;
    std::string name;
    if (int64_t e = open_parent(dirfd, path, parent, name)) return e;
    rc = ::utimensat(parent, name.c_str(), ts, AT_SYMLINK_NOFOLLOW) < 0 ? host_error() : 0;
    ::close(parent);
    return rc;
  }
  int64_t err;
  std::string p = guest_path(dirfd, path, err);
  if (err) return err;
  int fd = open_in_root(p, O_PATH, 0);
  if (fd < 0) return host_error();
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  rc = ::utimensat(AT_FDCWD, proc.c_str(), ts, 0) < 0 ? host_error() : 0;
  ::close(fd);
  return rc;
}

// --- sockets ------------------------------------------------------------------------
namespace {
constexpr uint16_t kAfUnix = 1, kAfInet = 2;
constexpr uint64_t kSockStream = 1, kSockTypeMask = 0xF, kSockNonblock = 04000, kSockCloexec = 02000000;
constexpr uint64_t kIpprotoTcp = 6, kSolSocket = 1;
constexpr uint64_t kSoReuseaddr = 2, kSoType = 3, kSoError = 4, kSoKeepalive = 9, kSoReuseport = 15,
                   kSoAcceptconn = 30, kSoDomain = 39, kTcpNodelay = 1;
constexpr uint32_t kLoopback = 0x7F000001;
enum : int64_t {
  kEnotsock = 88, kEprotonosupport = 93, kEopnotsupp = 95, kEafnosupport = 97, kEaddrinuse = 98,
  kEaddrnotavail = 99, kEnetunreach = 101, kEisconn = 106, kEnotconn = 107, kEconnrefused = 111,
  kEinprogress = 115, kEnoprotoopt = 92,
};
bool is_loopback(uint32_t addr) { return (addr >> 24) == 127; }
// struct sockaddr_in as the guest stores it: family, port and address big-endian.
int64_t parse_inet(const uint8_t* a, uint64_t len, uint32_t& addr, uint16_t& port) {
  if (len < 16) return -abi::kEinval;
  if (emu::Cpu::load_be<uint16_t>(a) != kAfInet) return -kEafnosupport;
  port = emu::Cpu::load_be<uint16_t>(a + 2), addr = emu::Cpu::load_be<uint32_t>(a + 4);
  return 0;
}
void put_inet(uint8_t* a, uint32_t addr, uint16_t port) {
  std::memset(a, 0, 16);
  emu::Cpu::store_be<uint16_t>(a, kAfInet);
  emu::Cpu::store_be<uint16_t>(a + 2, port);
  emu::Cpu::store_be<uint32_t>(a + 4, addr);
}
}  // namespace

LinuxFiles::Socket* LinuxFiles::socket_of(int64_t fd, int64_t& err) {
  Description* f = file(fd);
  err = !f ? -abi::kEbadf : f->kind != Kind::Socket ? -kEnotsock : 0;
  return err ? nullptr : f->socket.get();
}

std::shared_ptr<LinuxFiles::Socket> LinuxFiles::new_socket(uint16_t domain) {
  auto s = std::make_shared<Socket>();
  s->domain = domain, s->net = net_, s->notifier = notifier_;
  return s;
}

void LinuxFiles::connect_pair(Socket& a, Socket& b) {
  auto ab = std::make_shared<Pipe>(), ba = std::make_shared<Pipe>();
  ab->notifier = ba->notifier = a.notifier;
  ab->readers = ab->writers = ba->readers = ba->writers = 1;
  ab->sockets[0] = ba->sockets[0] = &a, ab->sockets[1] = ba->sockets[1] = &b;
  a.out = b.in = ab, a.in = b.out = ba;
  a.state = b.state = Socket::State::Connected;
}

int64_t LinuxFiles::bind_port(Socket& s, uint32_t addr, uint16_t port) {
  if (port == 0) {  // an ephemeral port: the next free one
    for (unsigned tries = 0; tries < 28232; ++tries) {
      const uint16_t p = net_->next_ephemeral;
      net_->next_ephemeral = p >= 60999 ? 32768 : uint16_t(p + 1);
      if (!net_->ports.count(p)) {
        port = p;
        break;
      }
    }
    if (port == 0) return -kEaddrinuse;
  } else if (net_->ports.count(port)) {
    return -kEaddrinuse;
  } else if (port < 1024) {
    return -abi::kEacces;  // the guest's user is not privileged
  }
  s.addr = addr, s.port = port, s.bound = true;
  net_->ports[port] = &s;
  return 0;
}

int64_t LinuxFiles::socket(uint64_t domain, uint64_t type, uint64_t protocol) {
  if (type & ~(kSockTypeMask | kSockNonblock | kSockCloexec)) return -abi::kEinval;
  if (domain != kAfInet) return -kEafnosupport;  // AF_UNIX addresses, IPv6, ...: not here
  if ((type & kSockTypeMask) != kSockStream || (protocol != 0 && protocol != kIpprotoTcp)) return -kEprotonosupport;
  auto d = std::make_shared<Description>();
  d->kind = Kind::Socket, d->status_flags = 2 | (type & kSockNonblock);
  d->socket = new_socket(kAfInet);
  return install(std::move(d), type & kSockCloexec);
}

int64_t LinuxFiles::socketpair(uint64_t domain, uint64_t type, uint64_t protocol, int64_t fds[2]) {
  if (type & ~(kSockTypeMask | kSockNonblock | kSockCloexec)) return -abi::kEinval;
  if (domain == kAfInet) return -kEopnotsupp;
  if (domain != kAfUnix) return -kEafnosupport;
  if ((type & kSockTypeMask) != kSockStream || protocol != 0) return -kEprotonosupport;
  std::shared_ptr<Description> d[2];
  for (auto& x : d) {
    x = std::make_shared<Description>();
    x->kind = Kind::Socket, x->status_flags = 2 | (type & kSockNonblock);
    x->socket = new_socket(kAfUnix);
  }
  connect_pair(*d[0]->socket, *d[1]->socket);
  fds[0] = install(d[0], type & kSockCloexec);
  if (fds[0] < 0) return fds[0];
  fds[1] = install(d[1], type & kSockCloexec);
  if (fds[1] < 0) return close(fds[0]), fds[1];
  return 0;
}

LinuxFiles::Socket* LinuxFiles::inet_socket(int64_t fd, const uint8_t* a, uint64_t len, uint32_t& addr,
                                             uint16_t& port, int64_t& err) {
  Socket* s = socket_of(fd, err);
  if (!s) return nullptr;
  if (s->domain != kAfInet) return err = -abi::kEinval, nullptr;
  if ((err = parse_inet(a, len, addr, port))) return nullptr;
  return s;
}

int64_t LinuxFiles::bind(int64_t fd, const uint8_t* a, uint64_t len) {
  int64_t err;
  uint32_t addr;
  uint16_t port;
  Socket* s = inet_socket(fd, a, len, addr, port, err);
  if (!s) return err;
  if (addr != 0 && !is_loopback(addr)) return -kEaddrnotavail;  // this run's one interface is loopback
  if (s->bound || s->state != Socket::State::Fresh) return -abi::kEinval;
  return bind_port(*s, addr, port);
}

int64_t LinuxFiles::listen(int64_t fd, int64_t backlog) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (s->domain != kAfInet || s->state == Socket::State::Connected) return -abi::kEinval;
  if (!s->bound)
    if (int64_t e = bind_port(*s, 0, 0)) return e;
  s->state = Socket::State::Listening;
  s->backlog_max = uint64_t(std::clamp<int64_t>(backlog, 0, 4096));
  return 0;
}

int64_t LinuxFiles::connect(int64_t fd, const uint8_t* a, uint64_t len) {
  int64_t err;
  uint32_t addr;
  uint16_t port;
  Socket* s = inet_socket(fd, a, len, addr, port, err);
  if (!s) return err;
  if (s->state == Socket::State::Connected) return -kEisconn;
  if (s->state == Socket::State::Listening) return -abi::kEinval;
  if (addr == 0) addr = kLoopback;  // INADDR_ANY: this host
  if (!is_loopback(addr)) return -kEnetunreach;
  auto it = net_->ports.find(port);
  const Socket* target = it == net_->ports.end() ? nullptr : it->second;
  if (!target || target->state != Socket::State::Listening || (target->addr && target->addr != addr))
    return -kEconnrefused;
  Socket& listener = const_cast<Socket&>(*target);
  // Linux lets backlog + 1 connections wait for accept; past that a connect waits.
  if (listener.backlog.size() > listener.backlog_max) {
    if (nonblocking(fd)) return -abi::kEagain;
    wait_key_ = &listener;
    return kWait;
  }
  if (!s->bound)
    if (int64_t e = bind_port(*s, kLoopback, 0)) return e;
  if (!s->addr) s->addr = kLoopback;
  auto server = new_socket(kAfInet);
  server->addr = addr, server->port = port;
  server->peer_addr = s->addr, server->peer_port = s->port;
  s->peer_addr = addr, s->peer_port = port;
  connect_pair(*s, *server);
  listener.backlog.push_back(std::move(server));
  (*notifier_)(&listener);
  // A non-blocking connect says the handshake is under way; here it is already done.
  return nonblocking(fd) ? -kEinprogress : 0;
}

int64_t LinuxFiles::accept(int64_t fd, uint64_t flags, uint8_t peer[16], uint64_t& peer_len) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (flags & ~(kSockNonblock | kSockCloexec)) return -abi::kEinval;
  if (s->state != Socket::State::Listening) return -abi::kEinval;
  if (s->backlog.empty()) {
    if (nonblocking(fd)) return -abi::kEagain;
    wait_key_ = s;
    return kWait;
  }
  auto d = std::make_shared<Description>();
  d->kind = Kind::Socket, d->status_flags = 2 | (flags & kSockNonblock);
  d->socket = s->backlog.front();
  put_inet(peer, d->socket->peer_addr, d->socket->peer_port);
  peer_len = 16;
  const int64_t nfd = install(d, flags & kSockCloexec);
  if (nfd >= 0) {
    s->backlog.pop_front();
    (*notifier_)(s);  // a connect waiting for room may go on
  }
  return nfd;
}

int64_t LinuxFiles::sockname(int64_t fd, bool peer, uint8_t a[16]) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (peer && s->state != Socket::State::Connected) return -kEnotconn;
  if (s->domain == kAfUnix) {  // an unnamed socket: the family alone
    std::memset(a, 0, 16);
    emu::Cpu::store_be<uint16_t>(a, kAfUnix);
    return 2;
  }
  if (peer) put_inet(a, s->peer_addr, s->peer_port);
  else put_inet(a, s->addr, s->port);
  return 16;
}

int64_t LinuxFiles::getsockopt(int64_t fd, uint64_t level, uint64_t name, int32_t& value) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (level == kSolSocket) {
    switch (name) {
      case kSoType: value = int32_t(kSockStream); return 0;
      case kSoError: value = 0; return 0;
      case kSoDomain: value = s->domain; return 0;
      case kSoAcceptconn: value = s->state == Socket::State::Listening; return 0;
      case kSoReuseaddr: case kSoKeepalive: case kSoReuseport: break;
      default: return -kEnoprotoopt;
    }
  } else if (level != kIpprotoTcp || name != kTcpNodelay || s->domain != kAfInet) {
    return -kEnoprotoopt;
  }
  auto it = s->options.find({level, name});
  value = it == s->options.end() ? 0 : it->second;
  return 0;
}

int64_t LinuxFiles::setsockopt(int64_t fd, uint64_t level, uint64_t name, int32_t value) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  // Flags that change nothing a socket of this run does (no TIME_WAIT, no lost peer,
  // no delayed segments), kept so that getsockopt reads them back.
  const bool known = (level == kSolSocket && (name == kSoReuseaddr || name == kSoKeepalive || name == kSoReuseport)) ||
                     (level == kIpprotoTcp && name == kTcpNodelay && s->domain == kAfInet);
  if (!known) return -kEnoprotoopt;
  s->options[{level, name}] = value ? 1 : 0;
  return 0;
}

int64_t LinuxFiles::send(int64_t fd, const uint8_t* buf, uint64_t len, bool dontwait) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (s->state != Socket::State::Connected) return s->state == Socket::State::Fresh ? kBrokenPipe : -kEnotconn;
  if (s->shut_wr) return kBrokenPipe;
  return write_pipe(*s->out, buf, len, dontwait || nonblocking(fd));
}

int64_t LinuxFiles::recv(int64_t fd, uint8_t* buf, uint64_t len, bool dontwait) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (s->state != Socket::State::Connected) return -kEnotconn;
  if (s->shut_rd && s->in->empty()) return 0;
  return read_pipe(*s->in, buf, len, dontwait || nonblocking(fd));
}

int64_t LinuxFiles::shutdown(int64_t fd, uint64_t how) {
  int64_t err;
  Socket* s = socket_of(fd, err);
  if (!s) return err;
  if (how > 2) return -abi::kEinval;
  if (s->state != Socket::State::Connected) return -kEnotconn;
  if (how != 1) s->shut_rd = true, s->in->changed();
  if (how != 0 && !s->shut_wr) s->shut_wr = true, s->out->writers -= 1, s->out->changed();
  return 0;
}

}  // namespace linux_user
