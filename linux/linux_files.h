// The files of a Linux process under `tpfemu exec`: standard input, output and error,
// pipes, /dev/null, and host files below one directory (--root DIR), which is the
// guest's "/". Nothing outside it is reachable: paths resolve with the host kernel's
// RESOLVE_IN_ROOT, so "..", absolute paths and symbolic links all stay inside. Without
// a root every other open fails with ENOENT.
//
// As in Linux, a descriptor names an open file description (offset, status flags, the
// pipe end) that dup and fork share; close-on-exec belongs to the descriptor. A pipe
// holds 16 pages, as Linux's; a read of an empty pipe, or a write to a full one, asks
// the caller to wait (kWait, with the pipe as what will wake it), unless the
// description is O_NONBLOCK (-EAGAIN). Every change a waiter could be waiting for (data in, space
// freed, an end closed) is told to the kernel through the notifier.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace linux_user {

class LinuxFiles {
 public:
  // Returned by read and write when the caller must wait for `wait_key()` to change
  // (Linux's -ERESTARTSYS, never seen by the guest).
  static constexpr int64_t kWait = -512;
  static constexpr uint64_t kPipeCapacity = 65536, kPipeAtomic = 4096;  // PIPE_BUF
  using Notifier = std::function<void(const void* key)>;

  // `root` empty: no files. Throws std::runtime_error when the root cannot be opened.
  LinuxFiles(const std::string& root, std::FILE* out, std::FILE* err);
  ~LinuxFiles();
  LinuxFiles(const LinuxFiles&) = delete;
  LinuxFiles& operator=(const LinuxFiles&) = delete;

  // What a pipe's change is told to (the kernel wakes who waits on it); forks share it.
  void set_notifier(Notifier n) { *notifier_ = std::move(n); }
  // fork: the same descriptors, sharing their descriptions.
  std::unique_ptr<LinuxFiles> fork() const;
  // execve: descriptors marked close-on-exec close.
  void close_on_exec();

  // Each returns what the system call returns (negative: -errno). Buffers are host
  // memory; the caller copies to and from guest storage. Stat results are the s390x
  // struct stat, big-endian (144 bytes).
  int64_t openat(int64_t dirfd, const std::string& path, uint64_t flags, uint64_t mode);
  int64_t close(int64_t fd);
  int64_t pipe2(uint64_t flags, int64_t fds[2]);
  int64_t read(int64_t fd, uint8_t* buf, uint64_t len);
  int64_t pread(int64_t fd, uint8_t* buf, uint64_t len, int64_t offset);
  int64_t write(int64_t fd, const uint8_t* buf, uint64_t len);
  int64_t lseek(int64_t fd, int64_t offset, uint64_t whence);
  int64_t fstat(int64_t fd, uint8_t* st);
  int64_t fstatat(int64_t dirfd, const std::string& path, uint8_t* st, uint64_t flags);
  int64_t getdents64(int64_t fd, uint8_t* buf, uint64_t len);
  int64_t ioctl(int64_t fd, uint64_t request);
  int64_t fcntl(int64_t fd, uint64_t cmd, uint64_t arg);
  int64_t dup(int64_t fd, int64_t min_fd = 0, bool cloexec = false);
  int64_t dup3(int64_t fd, int64_t newfd, uint64_t flags);
  int64_t unlinkat(int64_t dirfd, const std::string& path, uint64_t flags);
  int64_t mkdirat(int64_t dirfd, const std::string& path, uint64_t mode);
  int64_t faccessat(int64_t dirfd, const std::string& path);
  int64_t ftruncate(int64_t fd, int64_t length);
  int64_t fsync(int64_t fd);
  // The working directory: a guest path ("/" at first), where relative paths start; fork
  // copies it. chdir with an empty path is fchdir(dirfd).
  const std::string& cwd() const { return cwd_; }
  int64_t chdir(int64_t dirfd, const std::string& path);
  int64_t renameat2(int64_t old_dirfd, const std::string& old_path, int64_t new_dirfd, const std::string& new_path,
                    uint64_t flags);
  // fchmodat; an empty path is fchmod(dirfd).
  int64_t fchmodat(int64_t dirfd, const std::string& path, uint64_t mode);
  int64_t truncate(const std::string& path, int64_t length);
  int64_t symlinkat(const std::string& target, int64_t dirfd, const std::string& path);
  int64_t readlinkat(int64_t dirfd, const std::string& path, std::string& target);
  // utimensat: times holds {atime sec, nsec, mtime sec, nsec}, each nsec possibly
  // UTIME_OMIT (the caller has made UTIME_NOW a time already); an empty path is the fd.
  int64_t utimensat(int64_t dirfd, const std::string& path, const int64_t times[4], uint64_t flags);
  // Sockets, within this run only (no host network): TCP over IPv4 between its processes
  // (addresses 127.0.0.0/8 and INADDR_ANY; ephemeral ports from 32768 up, in order),
  // and AF_UNIX stream socketpairs. A connected socket is two pipes, one each way, so
  // reads, writes, waits, EOF and EPIPE are a pipe's; a connect completes at once
  // into the listener's backlog (it waits while that is full). Addresses are the
  // guest's struct sockaddr_in bytes (16). Each returns what the system call returns.
  int64_t socket(uint64_t domain, uint64_t type, uint64_t protocol);
  int64_t socketpair(uint64_t domain, uint64_t type, uint64_t protocol, int64_t fds[2]);
  int64_t bind(int64_t fd, const uint8_t* addr, uint64_t len);
  int64_t listen(int64_t fd, int64_t backlog);
  int64_t connect(int64_t fd, const uint8_t* addr, uint64_t len);
  int64_t accept(int64_t fd, uint64_t flags, uint8_t peer[16], uint64_t& peer_len);
  // getsockname (peer false) or getpeername: the address's length, its bytes in addr.
  int64_t sockname(int64_t fd, bool peer, uint8_t addr[16]);
  int64_t getsockopt(int64_t fd, uint64_t level, uint64_t name, int32_t& value);
  int64_t setsockopt(int64_t fd, uint64_t level, uint64_t name, int32_t value);
  int64_t send(int64_t fd, const uint8_t* buf, uint64_t len, bool dontwait);
  int64_t recv(int64_t fd, uint8_t* buf, uint64_t len, bool dontwait);
  int64_t shutdown(int64_t fd, uint64_t how);

  // The whole of a regular file under the root that may be executed (execve's image;
  // `path` empty: the file `dirfd` is open on), and its guest path: -errno if none.
  int64_t read_file(int64_t dirfd, const std::string& path, std::vector<uint8_t>& bytes, std::string& guest_path);

  // What kWait waits for (the pipe of the last call that returned it).
  const void* wait_key() const { return wait_key_; }
  // poll's view of a descriptor: the events of `events` (POLLIN, POLLOUT) that hold, with
  // POLLHUP, POLLERR and POLLNVAL as Linux adds them; `key` is what a change would wake.
  uint16_t poll(int64_t fd, uint16_t events, const void*& key);
  // The descriptor is O_NONBLOCK (a write that moved part of its bytes returns then).
  bool nonblocking(int64_t fd);
  // The pipe a descriptor is an end of (what a wait on it waits for), nullptr if none.
  const void* pipe_of(int64_t fd);
  // A write to a pipe without readers (-EPIPE): the caller sends SIGPIPE.
  static constexpr int64_t kBrokenPipe = -32;
  // A host descriptor of fd's file for mmap, the caller's to close, and whether fd was
  // opened for writing (-EACCES if it cannot be read, -ENODEV if it is no file).
  int64_t dup_for_mapping(int64_t fd, bool& writable);

 private:
  enum class Kind : uint8_t { Stdin, Stdout, Stderr, Host, Null, PipeRead, PipeWrite, Socket };
  struct Pipe;
  struct Socket;
  struct Network;
  struct Description;
  struct Slot {
    std::shared_ptr<Description> d;
    bool cloexec = false;
  };
  struct Root {
    int fd = -1;
    ~Root();
  };
  Description* file(int64_t fd);
  // The guest path of `path` seen from `dirfd` ("" when dirfd is not a directory fd).
  std::string guest_path(int64_t dirfd, const std::string& path, int64_t& err);
  int open_in_root(const std::string& path, uint64_t host_flags, uint64_t mode);
  // Opens the directory holding `path`'s last component inside the root and gives the
  // component: how calls that name an entry (unlink, mkdir) stay inside the root.
  int64_t open_parent(int64_t dirfd, const std::string& path, int& parent_fd, std::string& name);
  int64_t install(std::shared_ptr<Description> d, bool cloexec, int64_t min_fd = 0);
  // The guest path of a host descriptor that lies under the root ("" if it does not).
  std::string guest_path_of(int host_fd) const;
  int64_t read_pipe(Pipe& p, uint8_t* buf, uint64_t len, bool nonblocking);
  int64_t write_pipe(Pipe& p, const uint8_t* buf, uint64_t len, bool nonblocking);
  Socket* socket_of(int64_t fd, int64_t& err);
  // An IPv4 socket and the address it is given (bind, connect); nullptr with err set if
  // fd is none or the address is not one.
  Socket* inet_socket(int64_t fd, const uint8_t* addr_bytes, uint64_t len, uint32_t& addr, uint16_t& port,
                      int64_t& err);
  std::shared_ptr<Socket> new_socket(uint16_t domain);
  int64_t bind_port(Socket& s, uint32_t addr, uint16_t port);
  static void connect_pair(Socket& a, Socket& b);

  std::shared_ptr<Root> root_;
  std::FILE* out_;
  std::FILE* err_;
  std::shared_ptr<Notifier> notifier_;
  std::shared_ptr<Network> net_;
  std::vector<Slot> fds_;
  std::string cwd_ = "/";
  const void* wait_key_ = nullptr;
};

}  // namespace linux_user
