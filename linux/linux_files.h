// The files of a Linux process under `tpfemu exec`: standard input, output and error,
// and host files below one directory (--root DIR), which is the guest's "/". Nothing
// outside it is reachable: paths resolve with the host kernel's RESOLVE_IN_ROOT, so
// "..", absolute paths and symbolic links all stay inside. Without a root every open
// fails with ENOENT.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace linux_user {

class LinuxFiles {
 public:
  // `root` empty: no files. Throws std::runtime_error when the root cannot be opened.
  LinuxFiles(const std::string& root, std::FILE* out, std::FILE* err);
  ~LinuxFiles();
  LinuxFiles(const LinuxFiles&) = delete;
  LinuxFiles& operator=(const LinuxFiles&) = delete;

  // Each returns what the system call returns (negative: -errno). Buffers are host
  // memory; the caller copies to and from guest storage. Stat results are the s390x
  // struct stat, big-endian (144 bytes).
  int64_t openat(int64_t dirfd, const std::string& path, uint64_t flags, uint64_t mode);
  int64_t close(int64_t fd);
  int64_t read(int64_t fd, uint8_t* buf, uint64_t len);
  int64_t pread(int64_t fd, uint8_t* buf, uint64_t len, int64_t offset);
  int64_t write(int64_t fd, const uint8_t* buf, uint64_t len);
  int64_t lseek(int64_t fd, int64_t offset, uint64_t whence);
  int64_t fstat(int64_t fd, uint8_t* st);
  int64_t fstatat(int64_t dirfd, const std::string& path, uint8_t* st, uint64_t flags);
  int64_t getdents64(int64_t fd, uint8_t* buf, uint64_t len);
  int64_t ioctl(int64_t fd, uint64_t request);
  int64_t fcntl(int64_t fd, uint64_t cmd, uint64_t arg);
  int64_t dup(int64_t fd, int64_t min_fd = 0);
  int64_t dup3(int64_t fd, int64_t newfd);
  int64_t unlinkat(int64_t dirfd, const std::string& path, uint64_t flags);
  int64_t mkdirat(int64_t dirfd, const std::string& path, uint64_t mode);
  int64_t faccessat(int64_t dirfd, const std::string& path);
  int64_t ftruncate(int64_t fd, int64_t length);
  int64_t fsync(int64_t fd);
  // A host descriptor of fd's file for mmap, the caller's to close, and whether fd was
  // opened for writing (-EACCES if it cannot be read, -ENODEV if it is no file).
  int64_t dup_for_mapping(int64_t fd, bool& writable);

 private:
  enum class Kind : uint8_t { Closed, Stdin, Stdout, Stderr, Host };
  struct OpenFile {
    Kind kind = Kind::Closed;
    int host_fd = -1;
    std::string path;  // the guest's path (for openat relative to a directory)
    uint64_t status_flags = 0;
  };
  OpenFile* file(int64_t fd);
  // The guest path of `path` seen from `dirfd` ("" when dirfd is not a directory fd).
  std::string guest_path(int64_t dirfd, const std::string& path, int64_t& err);
  int open_in_root(const std::string& path, uint64_t host_flags, uint64_t mode);
  // Opens the directory holding `path`'s last component inside the root and gives the
  // component: how calls that name an entry (unlink, mkdir) stay inside the root.
  int64_t open_parent(int64_t dirfd, const std::string& path, int& parent_fd, std::string& name);
  int64_t install(OpenFile f, int64_t min_fd = 0);
  void release(OpenFile& f);

  int root_fd_ = -1;
  std::FILE* out_;
  std::FILE* err_;
  std::vector<OpenFile> fds_;
};

}  // namespace linux_user
