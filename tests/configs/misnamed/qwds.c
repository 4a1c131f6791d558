/* A program file named for QWDS holding QWDX: cmake/ProgramSource.cmake refuses it (cli.program_source_misnamed). */
int QWDX(void *msg, long len) {
  (void)msg;
  return (int)len;
}
