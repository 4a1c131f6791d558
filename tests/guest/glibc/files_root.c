/* Files through stdio and the system calls below it, run with the test data folder
   as the root (tpfemu exec --root DIR) or as the working directory (QEMU): fopen,
   fread, fgets, fseek/ftell, stat, a directory listing (sorted), and the errors for
   a file that is not there. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

int main(void) {
  FILE* f = fopen("input.txt", "r");
  if (!f) return printf("fopen failed: %s\n", strerror(errno)), 1;
  char line[128];
  int lines = 0;
  while (fgets(line, sizeof line, f)) printf("line %d: %s", ++lines, line);
  printf("ftell at end: %ld\n", ftell(f));
  fseek(f, 6, SEEK_SET);
  char word[6] = {0};
  size_t n = fread(word, 1, 5, f);
  printf("fread at 6: %zu \"%s\"\n", n, word);
  fclose(f);

  struct stat st;
  if (stat("input.txt", &st) == 0) printf("stat: size %lld regular %d\n", (long long)st.st_size, S_ISREG(st.st_mode));
  int fd = open("sub/data.bin", O_RDONLY);
  unsigned char b[8];
  printf("open sub/data.bin: %s, read %zd\n", fd >= 0 ? "ok" : strerror(errno), fd >= 0 ? read(fd, b, sizeof b) : -1);
  if (fd >= 0) printf("bytes %02x %02x %02x\n", b[0], b[1], b[2]), close(fd);

  errno = 0;
  printf("missing file: %s\n", fopen("no-such-file", "r") ? "opened?" : strerror(errno));

  DIR* d = opendir(".");
  char* names[32];
  int count = 0;
  struct dirent* e;
  while (d && (e = readdir(d)) && count < 32)
    if (e->d_name[0] != '.') names[count++] = strdup(e->d_name);
  if (d) closedir(d);
  qsort(names, count, sizeof names[0], cmp);
  printf("directory:");
  for (int k = 0; k < count; ++k) printf(" %s", names[k]), free(names[k]);
  printf("\n");
  return 0;
}
