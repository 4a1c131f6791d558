// pl_uniqc: runs of equal lines on standard input, counted, as `uniq -c` prints them
// (the pipeline test's last stage).
#include <stdio.h>
#include <string.h>

int main(void) {
  char prev[256] = "", line[256];
  long count = 0;
  while (fgets(line, sizeof line, stdin)) {
    if (count && strcmp(line, prev) == 0) {
      ++count;
      continue;
    }
    if (count) printf("%7ld %s", count, prev);
    strcpy(prev, line);
    count = 1;
  }
  if (count) printf("%7ld %s", count, prev);
  return 0;
}
