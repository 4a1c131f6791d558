// pl_sort: standard input's lines, sorted (the pipeline test's middle stage, like sort(1)).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

int main(void) {
  size_t n = 0, cap = 1024;
  char** lines = malloc(cap * sizeof *lines);
  char* line = NULL;
  size_t len = 0;
  while (getline(&line, &len, stdin) > 0) {
    if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
    lines[n++] = strdup(line);
  }
  qsort(lines, n, sizeof *lines, by_text);
  for (size_t k = 0; k < n; ++k) fputs(lines[k], stdout);
  return 0;
}
