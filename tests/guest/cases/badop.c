/* An opcode the core does not implement (B2FF is unassigned): an operation exception
   that names the bytes and the address. */
int main(void) {
  __asm__ volatile(".long 0xB2FF0000");
  return 0;
}
