// Static ELF64 s390x executables: segments, entry point and symbols. Bad input is
// rejected with an ElfError naming the problem and the file offset.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <set>
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
  // The source file of a local (static) symbol, from the symbol table's FILE entry before
  // it ("eheap.c"): what tells two static functions of one name apart. "" for a global.
  std::string file;
};

// Symbols sorted by address; finds the one an address lies in.
class SymbolTable {
 public:
  explicit SymbolTable(std::vector<Symbol> symbols = {});
  // The function or object containing `address` (or the nearest one before it when
  // sizes are unknown); nullptr when the address precedes every symbol.
  const Symbol* find(uint64_t address) const;
  const Symbol* find(const std::string& name) const;
  // A name two symbols share (static functions of one name in two files: "put"): reports
  // then name it with its file ("eheap_core.c:put").
  bool ambiguous(const std::string& name) const { return shared_.count(name) != 0; }
  // The symbol's name as reports give it: its file before it when the name is ambiguous.
  std::string display_name(const Symbol& s) const {
    return ambiguous(s.name) && !s.file.empty() ? s.file + ":" + s.name : s.name;
  }
  size_t size() const { return symbols_.size(); }
  const std::vector<Symbol>& all() const { return symbols_; }  // by address

 private:
  std::vector<Symbol> symbols_;
  std::set<std::string> shared_;  // names more than one symbol has
};

struct ElfSegment {
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
  uint8_t prot = 0;
  uint64_t header = 0;  // file offset of its program header, for messages
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

// Loadable segments of size 0 are ignored (as Linux does); one that reaches past
// AddressSpace::kDefaultLimit is refused, naming its header, field and value.
ElfImage parse_elf(std::vector<uint8_t> bytes, const std::string& name);
// Throws ElfError (offset 0) if the file cannot be read, is not a regular file or is
// larger than kMaxImageBytes (config/input_file.h).
ElfImage read_elf_file(const std::string& path);
// The first byte of the segments past what `space` can address, as an ElfError naming
// the program header (nothing if they fit).
void check_fits(const ElfImage& image, const AddressSpace& space);
// Maps and fills the segments; false when storage ran out of frames (or they do not
// fit the space: check_fits says why). The work is that of the file's bytes: a
// segment's zero-filled part beyond kEagerZeroBytes is reserved (mapped page by page
// at its first touch, AddressSpace::reserve), so a huge p_memsz costs nothing unless used.
constexpr uint64_t kEagerZeroBytes = 64ull << 20;
bool load_elf(const ElfImage& image, AddressSpace& space);

}  // namespace emu
