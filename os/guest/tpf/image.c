/* The application image still has an ELF entry point (os/guest/rt/crt0.S, which
   calls main): the control program never uses it, since it enters programs by name,
   but someone may run the image as a plain program (tpfemu exec, qemu-s390x). Say
   what it is and fail, instead of running some program without its ECB. */
#include <string.h>
#include <unistd.h>

int main(void) {
  static const char msg[] =
      "this is a TPF application image: its programs run in ECBs under the control program\n"
      "(tpfemu run CONFIG.yaml with system.image naming it), not as a program of its own\n";
  write(2, msg, strlen(msg));
  return 2;
}
