#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

#include "emu/elf_loader.h"
#include "guest_run.h"

using Catch::Matchers::Contains;

namespace {

std::vector<uint8_t> demo_bytes() {
  std::ifstream in(test::guest_path("demo"), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_be(std::vector<uint8_t>& b, size_t off, uint64_t v, unsigned n) {
  for (unsigned k = 0; k < n; ++k) b[off + k] = uint8_t(v >> (8 * (n - 1 - k)));
}

uint64_t get_be(const std::vector<uint8_t>& b, size_t off, unsigned n) {
  uint64_t v = 0;
  for (unsigned k = 0; k < n; ++k) v = v << 8 | b[off + k];
  return v;
}

std::string error_of(std::vector<uint8_t> b, uint64_t* offset = nullptr) {
  try {
    emu::parse_elf(std::move(b), "t");
  } catch (const emu::ElfError& e) {
    if (offset) *offset = e.offset;
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a GCC-built static s390x executable loads with its symbols", "[elf]") {
  auto img = emu::parse_elf(demo_bytes(), "demo");
  CHECK(img.segments.size() >= 2);
  REQUIRE(img.symbols.find("main") != nullptr);
  REQUIRE(img.symbols.find("_start") != nullptr);
  CHECK(img.entry == img.symbols.find("_start")->address);
  const emu::Symbol* m = img.symbols.find("main");
  CHECK(img.symbols.find(m->address + 6)->name == "main");
}

TEST_CASE("bad ELF input is rejected with the problem and the offset", "[elf]") {
  auto good = demo_bytes();
  REQUIRE(error_of(good).empty());
  uint64_t off = 99;

  CHECK_THAT(error_of({}), Contains("ELF header extends past the end of the file"));
  CHECK_THAT(error_of(std::vector<uint8_t>(good.begin(), good.begin() + 40)), Contains("ELF header"));

  auto bad = good;
  bad[1] = 'X';
  CHECK_THAT(error_of(bad, &off), Contains("bad magic"));
  CHECK(off == 0);

  bad = good;
  bad[4] = 1;
  CHECK_THAT(error_of(bad, &off), Contains("not ELFCLASS64"));
  CHECK(off == 4);

  bad = good;
  bad[5] = 1;
  CHECK_THAT(error_of(bad), Contains("not big-endian"));

  bad = good;
  put_be(bad, 18, 62, 2);  // EM_X86_64
  CHECK_THAT(error_of(bad, &off), Contains("wrong machine 62"));
  CHECK(off == 18);

  bad = good;
  put_be(bad, 16, 3, 2);  // ET_DYN
  CHECK_THAT(error_of(bad), Contains("not a static executable"));

  // Truncated in the middle of the loadable segments.
  uint64_t phoff = get_be(good, 32, 8);
  uint64_t seg_off = get_be(good, phoff + 8, 8), seg_size = get_be(good, phoff + 32, 8);
  bad.assign(good.begin(), good.begin() + long(seg_off + seg_size / 2));
  CHECK_THAT(error_of(bad), Contains("extends past the end of the file"));

  // Two loadable segments at the same address.
  bad = good;
  unsigned phnum = unsigned(get_be(good, 56, 2));
  std::vector<uint64_t> loads;
  for (unsigned k = 0; k < phnum; ++k)
    if (get_be(good, phoff + 56 * k, 4) == 1) loads.push_back(phoff + 56 * k);
  REQUIRE(loads.size() >= 2);
  put_be(bad, loads[1] + 16, get_be(good, loads[0] + 16, 8), 8);
  CHECK_THAT(error_of(bad, &off), Contains("overlaps an earlier loadable segment"));
  CHECK(off == loads[1] + 16);

  // An entry point outside the text.
  bad = good;
  put_be(bad, 24, 0x10, 8);
  CHECK_THAT(error_of(bad, &off), Contains("entry point 0x10 is not inside an executable segment"));
  CHECK(off == 24);

  bad = good;
  put_be(bad, loads[0] + 32, get_be(good, loads[0] + 40, 8) + 1, 8);  // filesz > memsz
  CHECK_THAT(error_of(bad), Contains("larger than p_memsz"));
}

TEST_CASE("symbol lookup picks the containing function", "[elf]") {
  emu::SymbolTable t({{"b", 0x200, 0x10, ""}, {"a", 0x100, 0x20, ""}, {"label", 0x300, 0, ""}});
  CHECK(t.find(0x50) == nullptr);
  CHECK(t.find(0x100)->name == "a");
  CHECK(t.find(0x11F)->name == "a");
  CHECK(t.find(0x205)->name == "b");
  CHECK(t.find(0x400)->name == "label");
}

TEST_CASE("a static function's name two files share is given with its file; a unique one alone", "[elf]") {
  emu::SymbolTable t({{"put", 0x100, 0x10, "eheap_core.c"}, {"put", 0x200, 0x10, "qmyh.c"}, {"get", 0x300, 0x10, "x.c"},
                      {"main", 0x400, 0x10, ""}});
  CHECK(t.ambiguous("put"));
  CHECK_FALSE(t.ambiguous("get"));
  CHECK(t.display_name(*t.find(0x105)) == "eheap_core.c:put");
  CHECK(t.display_name(*t.find(0x205)) == "qmyh.c:put");
  CHECK(t.display_name(*t.find(0x305)) == "get");
  CHECK(t.display_name(*t.find(0x405)) == "main");
}

TEST_CASE("the image's static functions know their source file (the symbol table's FILE entries)", "[elf]") {
  const emu::ElfImage img = emu::read_elf_file(std::string(TPFEMU_GUEST_DIR) + "/tpf_apps.elf");
  const emu::Symbol* s = img.symbols.find(std::string("eheap_get.part.0"));
  REQUIRE(s != nullptr);
  CHECK(s->file == "eheap_core.c");
  const emu::Symbol* g = img.symbols.find(std::string("QZZ0"));
  REQUIRE(g != nullptr);
  CHECK(g->file.empty());   // a global: no file
}

namespace {

// The file offsets of the program headers of type `type`.
std::vector<uint64_t> headers_of_type(const std::vector<uint8_t>& b, uint32_t type) {
  const uint64_t phoff = get_be(b, 32, 8);
  std::vector<uint64_t> out;
  for (unsigned k = 0; k < get_be(b, 56, 2); ++k)
    if (get_be(b, phoff + 56 * k, 4) == type) out.push_back(phoff + 56 * k);
  return out;
}

uint64_t pages_loaded(std::vector<uint8_t> bytes) {
  emu::Storage storage(1ull << 40);
  emu::AddressSpace space(storage);
  auto img = emu::parse_elf(std::move(bytes), "t");
  REQUIRE(emu::load_elf(img, space));
  return space.mapped_pages();
}

}  // namespace

TEST_CASE("a loadable segment of size 0 is ignored, even at address 0", "[elf]") {
  const auto good = demo_bytes();
  auto bad = good;
  auto stack = headers_of_type(good, 0x6474E551);  // PT_GNU_STACK: offset, address and sizes 0
  REQUIRE(stack.size() == 1);
  put_be(bad, stack[0], 1, 4);  // retyped as PT_LOAD: the page loop underflowed and never ended
  CHECK(pages_loaded(bad) == pages_loaded(good));
}

TEST_CASE("a huge p_memsz costs only the pages touched; one past the address space is refused", "[elf]") {
  const auto good = demo_bytes();
  const auto loads = headers_of_type(good, 1);
  const uint64_t last = loads.back();  // the data segment: its bss
  const uint64_t vaddr = get_be(good, last + 16, 8);

  auto huge = good;
  put_be(huge, last + 40, 1ull << 52, 8);  // took for ever and all memory
  emu::Storage storage(1ull << 40);
  emu::AddressSpace space(storage);
  auto img = emu::parse_elf(huge, "t");
  REQUIRE(emu::load_elf(img, space));
  CHECK(space.mapped_pages() < pages_loaded(good) + emu::kEagerZeroBytes / emu::kPageSize + 2);
  // The far end of the bss is there, zero, at its first touch, and writable.
  uint64_t word = 1;
  REQUIRE(space.read_bytes(vaddr + (1ull << 52) - 8, &word, 8));
  CHECK(word == 0);
  CHECK(space.write_bytes(vaddr + (1ull << 52) - 8, &word, 8));
  CHECK(space.mapped_pages() < pages_loaded(good) + emu::kEagerZeroBytes / emu::kPageSize + 3);

  auto beyond = good;
  put_be(beyond, last + 40, emu::AddressSpace::kDefaultLimit, 8);
  uint64_t off = 0;
  CHECK_THAT(error_of(beyond, &off), Contains("p_memsz 0x20000000000000 at p_vaddr") &&
                                          Contains("reaches beyond the address space"));
  CHECK(off == last + 40);
  beyond = good;
  put_be(beyond, last + 16, 1ull << 60, 8);
  CHECK_THAT(error_of(beyond, &off), Contains("p_vaddr 0x1000000000000000 is beyond the address space"));
  CHECK(off == last + 16);

  // A space with a smaller limit: check_fits names the segment, load_elf maps nothing.
  emu::AddressSpace small(storage, vaddr + 4096);
  auto fits = emu::parse_elf(good, "t");
  CHECK_THROWS_WITH(emu::check_fits(fits, small), Contains("reaches beyond the address space (its limit is"));
  CHECK_FALSE(emu::load_elf(fits, small));
  CHECK(small.mapped_pages() == 0);
}

TEST_CASE("an ELF file must be a regular file of bounded size", "[elf]") {
  CHECK_THROWS_WITH(emu::read_elf_file(TPFEMU_SOURCE_DIR), Contains("is a directory, not a regular file"));
  CHECK_THROWS_WITH(emu::read_elf_file("/dev/zero"), Contains("is a character device, not a regular file (program image expected)"));
  CHECK_THROWS_WITH(emu::read_elf_file("/nonexistent/x.elf"), Contains("cannot open"));
}
