#include "emu/elf_loader.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iterator>

#include "config/input_file.h"

namespace emu {
using cfg::InputFileError;
using cfg::read_input_file;
using cfg::kMaxImageBytes;

ElfError::ElfError(const std::string& what, uint64_t off)
    : std::runtime_error(fmt::format("{} (at file offset {:#x})", what, off)), offset(off) {}

SymbolTable::SymbolTable(std::vector<Symbol> symbols) : symbols_(std::move(symbols)) {
  std::stable_sort(symbols_.begin(), symbols_.end(),
                   [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
  std::set<std::string> seen;
  for (const Symbol& s : symbols_)
    if (!seen.insert(s.name).second) shared_.insert(s.name);
}

const Symbol* SymbolTable::find(uint64_t address) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address,
                             [](uint64_t a, const Symbol& s) { return a < s.address; });
  if (it == symbols_.begin()) return nullptr;
  // The nearest symbol at or before the address that contains it; a label without
  // a size (assembler code) extends to the next symbol.
  for (auto p = it; p != symbols_.begin();) {
    --p;
    if (p->size == 0 || address < p->address + p->size) return &*p;
  }
  return &*std::prev(it);
}

const Symbol* SymbolTable::find(const std::string& name) const {
  for (const auto& s : symbols_)
    if (s.name == name) return &s;
  return nullptr;
}

namespace {

constexpr uint16_t kEmS390 = 22;
constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kShtSymtab = 2;

// Big-endian reads with bounds checks that name the offset.
class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& b) : b_(b) {}
  uint64_t get(uint64_t off, unsigned n, const char* what) const {
    if (off > b_.size() || n > b_.size() - off)
      throw ElfError(fmt::format("truncated ELF file: {} needs {} bytes, file has {}", what,
                                 off + n, b_.size()),
                     off);
    uint64_t v = 0;
    for (unsigned k = 0; k < n; ++k) v = v << 8 | b_[off + k];
    return v;
  }
  void need(uint64_t off, uint64_t len, const std::string& what) const {
    if (off > b_.size() || len > b_.size() - off)
      throw ElfError(fmt::format("{} extends past the end of the file ({} bytes at {:#x}, file has {})",
                                 what, len, off, b_.size()),
                     off);
  }

 private:
  const std::vector<uint8_t>& b_;
};

std::vector<Symbol> read_symbols(const Reader& r, const std::vector<uint8_t>& bytes, uint64_t shoff,
                                 unsigned shnum, unsigned shentsize) {
  std::vector<Symbol> out;
  if (shoff == 0 || shnum == 0) return out;
  if (shentsize < 64) throw ElfError(fmt::format("section header entry size {} is too small", shentsize), 0x3A);
  r.need(shoff, uint64_t(shnum) * shentsize, "section header table");
  for (unsigned s = 0; s < shnum; ++s) {
    uint64_t sh = shoff + uint64_t(s) * shentsize;
    if (r.get(sh + 4, 4, "section type") != kShtSymtab) continue;
    uint64_t off = r.get(sh + 24, 8, "symtab offset"), size = r.get(sh + 32, 8, "symtab size");
    unsigned link = unsigned(r.get(sh + 40, 4, "symtab link"));
    if (link >= shnum) throw ElfError(fmt::format("symbol table links to section {} of {}", link, shnum), sh + 40);
    uint64_t strsh = shoff + uint64_t(link) * shentsize;
    uint64_t stroff = r.get(strsh + 24, 8, "strtab offset"), strsize = r.get(strsh + 32, 8, "strtab size");
    r.need(off, size, fmt::format("symbol table (section {})", s));
    r.need(stroff, strsize, fmt::format("string table (section {})", link));
    std::string file;  // the last FILE entry: the source file of the local symbols after it
    for (uint64_t e = off; e + 24 <= off + size; e += 24) {
      uint32_t name = uint32_t(r.get(e, 4, "symbol name"));
      const unsigned info = unsigned(r.get(e + 4, 1, "symbol info"));
      unsigned type = info & 0xF;
      const bool local = (info >> 4) == 0;
      uint64_t value = r.get(e + 8, 8, "symbol value"), sz = r.get(e + 16, 8, "symbol size");
      if (type == 4) {  // FILE
        file = name && name < strsize
                   ? std::string(reinterpret_cast<const char*>(bytes.data() + stroff + name),
                                 strnlen(reinterpret_cast<const char*>(bytes.data() + stroff + name), strsize - name))
                   : std::string();
        continue;
      }
      if (type != 0 && type != 1 && type != 2) continue;  // NOTYPE, OBJECT, FUNC
      if (name == 0 || name >= strsize || value == 0) continue;
      const char* p = reinterpret_cast<const char*>(bytes.data() + stroff + name);
      size_t n = strnlen(p, strsize - name);
      std::string sym(p, n);
      if (sym.empty() || sym[0] == '.' || sym[0] == '$') continue;  // local labels
      out.push_back({sym, value, sz, local ? file : std::string()});
    }
  }
  return out;
}

}  // namespace

ElfImage parse_elf(std::vector<uint8_t> bytes, const std::string& name) {
  Reader r(bytes);
  r.need(0, 64, "ELF header");
  if (!(bytes[0] == 0x7F && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F'))
    throw ElfError("not an ELF file (bad magic number)", 0);
  if (bytes[4] != 2) throw ElfError(fmt::format("ELF class {} is not ELFCLASS64", bytes[4]), 4);
  if (bytes[5] != 2) throw ElfError("ELF data encoding is not big-endian (ELFDATA2MSB)", 5);
  uint16_t type = uint16_t(r.get(16, 2, "e_type"));
  uint16_t machine = uint16_t(r.get(18, 2, "e_machine"));
  if (machine != kEmS390)
    throw ElfError(fmt::format("wrong machine {} in e_machine (EM_S390 is 22)", machine), 18);
  if (type != 2)
    throw ElfError(fmt::format("ELF type {} is not a static executable (ET_EXEC); link with -static -no-pie", type), 16);

  ElfImage img;
  img.name = name;
  img.entry = r.get(24, 8, "e_entry");
  uint64_t phoff = r.get(32, 8, "e_phoff"), shoff = r.get(40, 8, "e_shoff");
  unsigned phentsize = unsigned(r.get(54, 2, "e_phentsize")), phnum = unsigned(r.get(56, 2, "e_phnum"));
  unsigned shentsize = unsigned(r.get(58, 2, "e_shentsize")), shnum = unsigned(r.get(60, 2, "e_shnum"));
  if (phnum == 0) throw ElfError("no program headers", 56);
  if (phentsize < 56) throw ElfError(fmt::format("program header entry size {} is too small", phentsize), 54);
  r.need(phoff, uint64_t(phnum) * phentsize, "program header table");

  for (unsigned k = 0; k < phnum; ++k) {
    uint64_t ph = phoff + uint64_t(k) * phentsize;
    if (r.get(ph, 4, "p_type") != kPtLoad) continue;
    uint32_t flags = uint32_t(r.get(ph + 4, 4, "p_flags"));
    ElfSegment s;
    s.offset = r.get(ph + 8, 8, "p_offset");
    s.vaddr = r.get(ph + 16, 8, "p_vaddr");
    s.filesz = r.get(ph + 32, 8, "p_filesz");
    s.memsz = r.get(ph + 40, 8, "p_memsz");
    s.prot = uint8_t((flags & 4 ? kProtRead : 0) | (flags & 2 ? kProtWrite : 0) | (flags & 1 ? kProtExec : 0));
    s.header = ph;
    if (s.filesz > s.memsz)
      throw ElfError(fmt::format("segment {} has p_filesz {:#x} larger than p_memsz {:#x}", k, s.filesz, s.memsz), ph + 32);
    if (s.memsz == 0) continue;  // occupies nothing (a retyped PT_GNU_STACK, say)
    if (s.vaddr >= AddressSpace::kDefaultLimit)
      throw ElfError(fmt::format("segment {}: p_vaddr {:#x} is beyond the address space (its limit is {:#x})", k,
                                 s.vaddr, AddressSpace::kDefaultLimit),
                     ph + 16);
    if (s.memsz > AddressSpace::kDefaultLimit - s.vaddr)
      throw ElfError(fmt::format("segment {}: p_memsz {:#x} at p_vaddr {:#x} reaches beyond the address space "
                                 "(its limit is {:#x})",
                                 k, s.memsz, s.vaddr, AddressSpace::kDefaultLimit),
                     ph + 40);
    r.need(s.offset, s.filesz, fmt::format("segment {} (program header at {:#x})", k, ph));
    for (size_t j = 0; j < img.segments.size(); ++j) {
      const ElfSegment& o = img.segments[j];
      if (s.memsz && o.memsz && s.vaddr < o.vaddr + o.memsz && o.vaddr < s.vaddr + s.memsz)
        throw ElfError(fmt::format("segment {} [{:#x}, {:#x}) overlaps an earlier loadable segment [{:#x}, {:#x})",
                                   k, s.vaddr, s.vaddr + s.memsz, o.vaddr, o.vaddr + o.memsz),
                       ph + 16);
    }
    img.image_end = std::max(img.image_end, s.vaddr + s.memsz);
    img.segments.push_back(s);
  }
  if (img.segments.empty()) throw ElfError("no loadable (PT_LOAD) segment", phoff);
  img.phentsize = phentsize, img.phnum = phnum;
  for (const auto& s : img.segments)
    if (phoff >= s.offset && phoff + uint64_t(phnum) * phentsize <= s.offset + s.filesz)
      img.phdr_vaddr = s.vaddr + (phoff - s.offset);
  bool entry_ok = std::any_of(img.segments.begin(), img.segments.end(), [&](const ElfSegment& s) {
    return (s.prot & kProtExec) && img.entry >= s.vaddr && img.entry < s.vaddr + s.memsz;
  });
  if (!entry_ok)
    throw ElfError(fmt::format("entry point {:#x} is not inside an executable segment", img.entry), 24);
  img.symbols = SymbolTable(read_symbols(r, bytes, shoff, shnum, shentsize));
  img.bytes = std::move(bytes);
  return img;
}

ElfImage read_elf_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxImageBytes, "program image");
  } catch (const InputFileError& e) {
    throw ElfError(e.why, 0);
  }
  std::vector<uint8_t> bytes(text.begin(), text.end());
  return parse_elf(std::move(bytes), std::filesystem::path(path).stem().string());
}

void check_fits(const ElfImage& img, const AddressSpace& space) {
  for (const auto& s : img.segments)
    if (s.vaddr >= space.limit() || s.memsz > space.limit() - s.vaddr)
      throw ElfError(fmt::format("segment at p_vaddr {:#x} with p_memsz {:#x} reaches beyond the address space "
                                 "(its limit is {:#x})",
                                 s.vaddr, s.memsz, space.limit()),
                     s.header + 40);
}

bool load_elf(const ElfImage& img, AddressSpace& space) {
  for (const auto& s : img.segments)
    if (s.vaddr >= space.limit() || s.memsz > space.limit() - s.vaddr) return false;
  for (const auto& s : img.segments) {
    // Segments sharing a page get the union of their rights, as Linux maps them. They do
    // not overlap, so only a segment's first and last pages can be shared.
    uint8_t prot = s.prot;
    for (uint64_t edge : {s.vaddr, s.vaddr + s.memsz - 1}) {
      Translation t;
      if (space.translate(edge & ~kPageMask, t) == Translate::Ok) prot |= t.prot;
    }
    const uint64_t eager = std::min(s.memsz, s.filesz + kEagerZeroBytes);
    if (!space.map(s.vaddr, eager, prot)) return false;
    if (eager < s.memsz) {
      const uint64_t next_page = ((s.vaddr + eager - 1) | kPageMask) + 1;  // past the last page mapped
      if (next_page < s.vaddr + s.memsz) space.reserve(next_page, s.vaddr + s.memsz - next_page, prot);
    }
    space.write_bytes(s.vaddr, img.bytes.data() + s.offset, s.filesz);
  }
  return true;
}

}  // namespace emu
