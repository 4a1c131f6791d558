// Static ELF64 s390x executables: segments, entry point and symbols. Bad input is
// rejected with an ElfError naming the problem and the file offset.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/address_space.h"

namespace emu {

struct ElfError : std::runtime_error {
  ElfError(const std::string& what, uint64_t offset);
  uint64_t offset;
};

struct Symbol {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
};

// Symbols sorted by address; finds the one an address lies in.
class SymbolTable {
 public:
  explicit SymbolTable(std::vector<Symbol> symbols = {});
  // The function or object containing `address` (or the nearest one before it when
  // sizes are unknown); nullptr when the address precedes every symbol.
  const Symbol* find(uint64_t address) const;
  const Symbol* find(const std::string& name) const;
  size_t size() const { return symbols_.size(); }

 private:
  std::vector<Symbol> symbols_;
};

struct ElfSegment {
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
  uint8_t prot = 0;
};

struct ElfImage {
  std::string name;  // the file's base name without extension: the PROG of reports
  uint64_t entry = 0;
  std::vector<ElfSegment> segments;
  std::vector<uint8_t> bytes;
  SymbolTable symbols;
  uint64_t image_end = 0;  // highest byte any segment occupies, +1
  // The program header table as the loaded image holds it (for AT_PHDR; 0 when no
  // loadable segment covers it), its entry size and count.
  uint64_t phdr_vaddr = 0;
  unsigned phentsize = 0, phnum = 0;
};

ElfImage parse_elf(std::vector<uint8_t> bytes, const std::string& name);
ElfImage read_elf_file(const std::string& path);  // throws ElfError (offset 0) if unreadable
// Maps and fills the segments; false when storage ran out of frames.
bool load_elf(const ElfImage& image, AddressSpace& space);

}  // namespace emu
