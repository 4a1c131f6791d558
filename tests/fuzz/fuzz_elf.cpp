// Fuzz target: the ELF loader (emu/elf_loader.h). The input is an ELF file; one that
// parses is loaded into an address space of a terabyte of sparse storage, as
// `tpfemu exec` does. Any outcome but an ElfError, a refusal or a loaded image is a
// finding; so is a load that takes more than a few seconds (libFuzzer's -timeout).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "emu/address_space.h"
#include "emu/elf_loader.h"
#include "emu/storage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    emu::ElfImage image = emu::parse_elf(std::vector<uint8_t>(data, data + size), "fuzz");
    emu::Storage storage(1ull << 40);
    emu::AddressSpace space(storage);
    emu::check_fits(image, space);
    (void)emu::load_elf(image, space);
  } catch (const emu::ElfError&) {
  }
  return 0;
}
