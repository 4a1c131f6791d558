/* The working directory and path calls: chdir/fchdir/getcwd, relative paths from the
 * working directory, rename, chmod, truncate, utime/utimensat, symlink/readlink.
 * Run with a root holding tmp/ (COMPARE_ROOT). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

static void check(const char *what, int rc) { printf("%s: %d %s\n", what, rc, rc < 0 ? strerror(errno) : ""); }

static char start[256];
/* The working directory below the one the program started in (QEMU runs it in the
 * root's host directory, tpfemu in the guest's "/"). */
static const char *below(const char *cwd) { return cwd ? cwd + strlen(start) : "(null)"; }

int main(void) {
  char cwd[256];
  getcwd(start, sizeof start);
  if (strcmp(start, "/") == 0) start[0] = 0;
  struct stat st;
  check("mkdir", mkdir("tmp/cwdtest", 0755));
  check("chdir", chdir("tmp/cwdtest"));
  printf("getcwd: %s\n", below(getcwd(cwd, sizeof cwd)));
  int fd = open("a", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  check("write", (int)write(fd, "0123456789", 10));
  close(fd);
  check("rename", rename("a", "b"));
  check("stat a", stat("a", &st));
  check("chmod", chmod("b", 0600));
  check("truncate", truncate("b", 4));
  struct utimbuf tb = {.actime = 2001, .modtime = 2000};
  check("utime", utime("b", &tb));
  check("stat b", stat("b", &st));
  printf("size %ld mode %o mtime %ld atime %ld\n", (long)st.st_size, st.st_mode & 0777, (long)st.st_mtime,
         (long)st.st_atime);
  struct timespec ts[2] = {{.tv_sec = 0, .tv_nsec = UTIME_OMIT}, {.tv_sec = 3000, .tv_nsec = 5}};
  check("utimensat", utimensat(AT_FDCWD, "b", ts, 0));
  stat("b", &st);
  printf("mtime %ld.%09ld atime %ld\n", (long)st.st_mtime, st.st_mtim.tv_nsec, (long)st.st_atime);
  check("symlink", symlink("b", "c"));
  char link[64] = {0};
  check("readlink", (int)readlink("c", link, sizeof link - 1));
  printf("link: %s\n", link);
  check("lstat", lstat("c", &st));
  printf("is link %d\n", S_ISLNK(st.st_mode));
  check("mkdir sub", mkdir("sub", 0755));
  check("chdir sub", chdir("sub"));
  check("chdir ..", chdir(".."));
  printf("getcwd: %s\n", below(getcwd(cwd, sizeof cwd)));
  check("chdir missing", chdir("nothere"));
  check("chdir file", chdir("b"));
  int dfd = open("sub", O_RDONLY | O_DIRECTORY);
  check("fchdir", fchdir(dfd));
  close(dfd);
  printf("getcwd: %s\n", below(getcwd(cwd, sizeof cwd)));
  printf("getcwd small: %p %s\n", (void *)getcwd(cwd, 3), strerror(errno));
  check("chdir back", chdir(*start ? start : "/"));
  check("unlink c", unlink("tmp/cwdtest/c"));
  check("unlink b", unlink("tmp/cwdtest/b"));
  check("rmdir sub", rmdir("tmp/cwdtest/sub"));
  check("rmdir", rmdir("tmp/cwdtest"));
  return 0;
}
