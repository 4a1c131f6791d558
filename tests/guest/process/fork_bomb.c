// A fork bomb: every process forks as long as it can. Under tpfemu exec the process
// limit (--max-processes) stops the run with a message and status 124; it must never
// hang or exhaust the host. (Not run under QEMU.)
#include <unistd.h>

int main(void) {
  for (;;) fork();
}
