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
  emu::SymbolTable t({{"b", 0x200, 0x10}, {"a", 0x100, 0x20}, {"label", 0x300, 0}});
  CHECK(t.find(0x50) == nullptr);
  CHECK(t.find(0x100)->name == "a");
  CHECK(t.find(0x11F)->name == "a");
  CHECK(t.find(0x205)->name == "b");
  CHECK(t.find(0x400)->name == "label");
}
