/* The first thing a new user tries: output through write(2) and through stdio. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const char msg[] = "hello via write\n";
  if (write(1, msg, strlen(msg)) != (ssize_t)strlen(msg)) return 1;
  printf("hello via printf, argc=%d\n", argc);
  puts("hello via puts");
  fprintf(stdout, "%s\n", argv[0] ? "argv[0] is set" : "argv[0] is NULL");
  return 0;
}
