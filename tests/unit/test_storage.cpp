#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "harness.h"

using namespace test;

namespace {

constexpr uint64_t kData = TestMachine::kData;

bool ok(const emu::RunResult& r) { return r.reason != emu::StopReason::ProgramCheck; }

void poke_bytes(TestMachine& m, uint64_t a, const Bytes& b) { m.space.write_bytes(a, b.data(), b.size()); }
void poke_str(TestMachine& m, uint64_t a, const std::string& s) {
  m.space.write_bytes(a, reinterpret_cast<const uint8_t*>(s.data()), s.size());
}
Bytes peek_bytes(TestMachine& m, uint64_t a, size_t n) {
  Bytes b(n);
  m.space.read_bytes(a, b.data(), n);
  return b;
}

}  // namespace

// --- MVC, MVN, MVZ ----------------------------------------------------------------------

TEST_CASE("MVC moves bytes and propagates with a one-byte overlap", "[storage]") {
  TestMachine m;
  m.cpu.gr[1] = kData;
  poke_bytes(m, kData, {0x5A, 1, 2, 3, 4, 5, 6, 7, 8});
  m.run(SS(0xD2, 7, 1, 1, 1, 0));  // MVC 1(8,r1),0(r1)
  CHECK(peek_bytes(m, kData, 9) == Bytes(9, 0x5A));
  // Overlap two bytes ahead: a repeating two-byte pattern.
  poke_bytes(m, kData, {0xA1, 0xB2, 0, 0, 0, 0, 0, 0});
  m.run(SS(0xD2, 5, 1, 2, 1, 0));  // MVC 2(6,r1),0(r1)
  CHECK(peek_bytes(m, kData, 8) == Bytes{0xA1, 0xB2, 0xA1, 0xB2, 0xA1, 0xB2, 0xA1, 0xB2});
  // Destination before the source: an ordinary move.
  poke_bytes(m, kData, {0, 1, 2, 3, 4, 5});
  m.run(SS(0xD2, 4, 1, 0, 1, 1));  // MVC 0(5,r1),1(r1)
  CHECK(peek_bytes(m, kData, 6) == Bytes{1, 2, 3, 4, 5, 5});
}

TEST_CASE("MVC across a page boundary", "[storage]") {
  TestMachine m;
  Bytes src(32);
  for (int k = 0; k < 32; ++k) src[k] = uint8_t(0xC0 + k);
  poke_bytes(m, kData + 0x2000, src);
  m.cpu.gr[1] = kData + 0xFF8;
  m.cpu.gr[2] = kData + 0x2000;
  REQUIRE(ok(m.run(SS(0xD2, 31, 1, 0, 2, 0))));
  CHECK(peek_bytes(m, kData + 0xFF8, 32) == src);
  // Both operands crossing, overlapping by one: propagation across the boundary.
  m.poke<uint8_t>(kData + 0x1FF0, 0x77);
  m.cpu.gr[1] = kData + 0x1FF0;
  REQUIRE(ok(m.run(SS(0xD2, 31, 1, 1, 1, 0))));
  CHECK(peek_bytes(m, kData + 0x1FF0, 33) == Bytes(33, 0x77));
  // Source crossing into the page after, destination within one page.
  m.cpu.gr[1] = kData + 0x3000;
  m.cpu.gr[2] = kData + 0xFF8;
  REQUIRE(ok(m.run(SS(0xD2, 31, 1, 0, 2, 0))));
  CHECK(peek_bytes(m, kData + 0x3000, 32) == src);
}

TEST_CASE("MVC into an unmapped page stores nothing", "[storage]") {
  TestMachine m;
  uint64_t end = kData + 0x10000;  // first byte after the data area
  poke_bytes(m, end - 8, Bytes(8, 0x11));
  poke_bytes(m, kData, Bytes(16, 0x22));
  m.cpu.gr[1] = end - 8, m.cpu.gr[2] = kData;
  auto r = m.run(SS(0xD2, 15, 1, 0, 2, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::PageTranslation);
  CHECK(r.check.interrupt.address == end);
  CHECK(peek_bytes(m, end - 8, 8) == Bytes(8, 0x11));
}

TEST_CASE("MVC under EXECUTE takes its length from the register", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData + 0x3000, SS(0xD2, 0, 1, 0, 2, 0));  // MVC 0(1,r1),0(r2), the EX target
  poke_bytes(m, kData, Bytes(8, 0xEE));
  m.cpu.gr[1] = kData + 0x100, m.cpu.gr[2] = kData;
  m.cpu.gr[3] = 4;  // length code 4: five bytes
  m.cpu.gr[4] = kData + 0x3000;
  REQUIRE(ok(m.run(RX(0x44, 3, 0, 4, 0))));
  CHECK(peek_bytes(m, kData + 0x100, 6) == Bytes{0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0});
}

TEST_CASE("MVN and MVZ move half bytes", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData, {0x12, 0x34, 0x56});
  poke_bytes(m, kData + 0x10, {0xAB, 0xCD, 0xEF});
  m.cpu.gr[1] = kData + 0x10, m.cpu.gr[2] = kData;
  m.run(SS(0xD1, 2, 1, 0, 2, 0));  // MVN
  CHECK(peek_bytes(m, kData + 0x10, 3) == Bytes{0xA2, 0xC4, 0xE6});
  m.run(SS(0xD3, 2, 1, 0, 2, 0));  // MVZ
  CHECK(peek_bytes(m, kData + 0x10, 3) == Bytes{0x12, 0x34, 0x56});
}

// --- CLC, XC, NC, OC ----------------------------------------------------------------------

TEST_CASE("CLC compares unsigned bytes", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData, {'A', 'B', 0x80, 'Z'});
  poke_bytes(m, kData + 0x10, {'A', 'B', 0x7F, 'A'});
  m.cpu.gr[1] = kData, m.cpu.gr[2] = kData + 0x10;
  m.run(SS(0xD5, 3, 1, 0, 2, 0));
  CHECK(m.cpu.cc == 2);  // 0x80 > 0x7F unsigned
  m.run(SS(0xD5, 3, 2, 0, 1, 0));
  CHECK(m.cpu.cc == 1);
  m.run(SS(0xD5, 1, 1, 0, 2, 0));  // first two bytes
  CHECK(m.cpu.cc == 0);
  // Across a page boundary, the difference in the second page.
  poke_bytes(m, kData + 0xFFC, {1, 2, 3, 4, 5, 0xFF});
  poke_bytes(m, kData + 0x2000, {1, 2, 3, 4, 5, 0x00});
  m.cpu.gr[1] = kData + 0xFFC, m.cpu.gr[2] = kData + 0x2000;
  m.run(SS(0xD5, 5, 1, 0, 2, 0));
  CHECK(m.cpu.cc == 2);
  m.run(SS(0xD5, 4, 2, 0, 1, 0));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("XC zeroes a field with itself and sets the CC", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData, Bytes(300, 0xAB));
  m.cpu.cc = 3;
  m.cpu.gr[1] = kData;
  m.run(SS(0xD7, 255, 1, 0, 1, 0));  // XC 0(256,r1),0(r1)
  CHECK(m.cpu.cc == 0);
  CHECK(peek_bytes(m, kData, 256) == Bytes(256, 0));
  CHECK(m.peek<uint8_t>(kData + 256) == 0xAB);
  // Across a page boundary.
  poke_bytes(m, kData + 0xFF0, Bytes(32, 0xCD));
  m.cpu.gr[1] = kData + 0xFF0;
  m.run(SS(0xD7, 31, 1, 0, 1, 0));
  CHECK(peek_bytes(m, kData + 0xFF0, 32) == Bytes(32, 0));
  // Different operands.
  poke_bytes(m, kData, {0xF0, 0x0F, 0xFF, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC});
  poke_bytes(m, kData + 0x10, {0xFF, 0xFF, 0xFF, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBD});
  m.cpu.gr[1] = kData, m.cpu.gr[2] = kData + 0x10;
  m.run(SS(0xD7, 9, 1, 0, 2, 0));
  CHECK(m.cpu.cc == 1);
  CHECK(peek_bytes(m, kData, 10) == Bytes{0x0F, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0x01});
  m.run(SS(0xD7, 8, 1, 0, 1, 0));  // a field XORed with itself
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("XC with overlapping operands works one byte at a time", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData, {1, 2, 4, 8, 16});
  m.cpu.gr[1] = kData;
  m.run(SS(0xD7, 3, 1, 1, 1, 0));  // XC 1(4,r1),0(r1): running XOR
  CHECK(peek_bytes(m, kData, 5) == Bytes{1, 3, 7, 15, 31});
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("NC and OC set CC 0 for a zero result and 1 otherwise", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData, {0xF0, 0x0F, 0x55, 0xAA, 1, 2, 3, 4, 5, 6, 7, 8});
  poke_bytes(m, kData + 0x20, {0x0F, 0xF0, 0xAA, 0x55, 0, 0, 0, 0, 0, 0, 0, 0});
  m.cpu.gr[1] = kData, m.cpu.gr[2] = kData + 0x20;
  m.run(SS(0xD4, 11, 1, 0, 2, 0));  // NC: all zero
  CHECK(m.cpu.cc == 0);
  CHECK(peek_bytes(m, kData, 12) == Bytes(12, 0));
  poke_bytes(m, kData, {0xF0, 0x0F, 0x55});
  m.run(SS(0xD6, 2, 1, 0, 2, 0));  // OC
  CHECK(m.cpu.cc == 1);
  CHECK(peek_bytes(m, kData, 3) == Bytes{0xFF, 0xFF, 0xFF});
  poke_bytes(m, kData + 0x40, {0x80, 0x01});
  m.cpu.gr[2] = kData + 0x40;
  m.run(SS(0xD4, 1, 1, 0, 2, 0));  // NC keeps two bits
  CHECK(m.cpu.cc == 1);
  CHECK(peek_bytes(m, kData, 2) == Bytes{0x80, 0x01});
  poke_bytes(m, kData + 0x50, {0, 0});
  m.cpu.gr[1] = kData + 0x50;
  m.run(SS(0xD6, 1, 1, 0, 1, 0));  // OC of zeros with themselves
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("XC on a read-only page is a protection exception", "[storage]") {
  TestMachine m;
  m.cpu.gr[1] = TestMachine::kCode + 0x800;
  auto r = m.run(SS(0xD7, 7, 1, 0, 1, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Protection);
}

// --- TR, TRT -------------------------------------------------------------------------------

TEST_CASE("TR translates through a 256-byte table", "[storage]") {
  TestMachine m;
  Bytes table(256);
  for (int k = 0; k < 256; ++k) table[k] = uint8_t(k + 1);
  poke_bytes(m, kData + 0x100, table);
  poke_bytes(m, kData, {0x00, 0x41, 0xFF, 0x7F});
  m.cpu.gr[1] = kData, m.cpu.gr[2] = kData + 0x100;
  m.cpu.cc = 2;
  m.run(SS(0xDC, 3, 1, 0, 2, 0));
  CHECK(peek_bytes(m, kData, 4) == Bytes{0x01, 0x42, 0x00, 0x80});
  CHECK(m.cpu.cc == 2);  // unchanged
}

TEST_CASE("TRT finds the first nonzero function byte", "[storage]") {
  TestMachine m;
  Bytes table(256, 0);
  table[','] = 0x04;
  table[';'] = 0x08;
  poke_bytes(m, kData + 0x100, table);
  poke_str(m, kData, "abc,de;f");
  m.cpu.gr[1] = 0x1111111111111111ull;
  m.cpu.gr[2] = 0x2222222222222222ull;
  m.cpu.gr[5] = kData, m.cpu.gr[6] = kData + 0x100;
  m.run(SS(0xDD, 7, 5, 0, 6, 0));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[1] == kData + 3);
  CHECK(m.cpu.gr[2] == 0x2222222222222204ull);
  m.run(SS(0xDD, 2, 5, 4, 6, 0));  // "de;": found on the last byte
  CHECK(m.cpu.cc == 2);
  CHECK(m.cpu.gr[1] == kData + 6);
  CHECK(m.cpu.gr[2] == 0x2222222222222208ull);
  m.cpu.gr[1] = 7, m.cpu.gr[2] = 9;
  m.run(SS(0xDD, 2, 5, 0, 6, 0));  // "abc": none
  CHECK(m.cpu.cc == 0);
  CHECK(m.cpu.gr[1] == 7);
  CHECK(m.cpu.gr[2] == 9);
}

// --- MVCL, CLCL, MVCLE, CLCLE ---------------------------------------------------------------

TEST_CASE("MVCL pads the destination and sets the CC from the lengths", "[storage]") {
  TestMachine m;
  poke_str(m, kData, "HELLO");
  poke_bytes(m, kData + 0x100, Bytes(20, 0xEE));
  m.cpu.gr[2] = kData + 0x100, m.cpu.gr[3] = 0xABCDEF0177000010ull;  // bits 32-39 = 0x77, length 16
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 0x0000000140000005ull;           // pad 0x40, length 5
  REQUIRE(ok(m.run(RR(0x0E, 2, 4))));
  CHECK(m.cpu.cc == 2);  // first operand longer
  Bytes want = {'H', 'E', 'L', 'L', 'O'};
  want.resize(16, 0x40);
  CHECK(peek_bytes(m, kData + 0x100, 16) == want);
  CHECK(m.peek<uint8_t>(kData + 0x110) == 0xEE);
  CHECK(m.cpu.gr[2] == kData + 0x110);
  CHECK(m.cpu.gr[3] == 0xABCDEF0177000000ull);  // only bits 40-63 change
  CHECK(m.cpu.gr[4] == kData + 5);
  CHECK(m.cpu.gr[5] == 0x0000000140000000ull);
  // Shorter destination: CC 1, source length left over.
  m.cpu.gr[2] = kData + 0x200, m.cpu.gr[3] = 3;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 5;
  m.run(RR(0x0E, 2, 4));
  CHECK(m.cpu.cc == 1);
  CHECK(peek_bytes(m, kData + 0x200, 4) == Bytes{'H', 'E', 'L', 0});
  CHECK(m.cpu.gr[5] == 2);
  CHECK(m.cpu.gr[4] == kData + 3);
  // Equal lengths: CC 0.
  m.cpu.gr[2] = kData + 0x300, m.cpu.gr[3] = 5, m.cpu.gr[4] = kData, m.cpu.gr[5] = 5;
  m.run(RR(0x0E, 2, 4));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("MVCL clears storage across pages with a zero source length", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData + 0x800, Bytes(10002, 0x99));
  m.cpu.gr[6] = kData + 0x800, m.cpu.gr[7] = 10000;
  m.cpu.gr[8] = 0, m.cpu.gr[9] = 0;
  m.run(RR(0x0E, 6, 8));
  CHECK(m.cpu.cc == 2);
  CHECK(peek_bytes(m, kData + 0x800, 10000) == Bytes(10000, 0));
  CHECK(m.peek<uint8_t>(kData + 0x800 + 10000) == 0x99);
  CHECK(m.cpu.gr[6] == kData + 0x800 + 10000);
  CHECK(m.cpu.gr[7] == 0);
}

TEST_CASE("MVCL destructive overlap sets CC 3 and moves nothing; odd registers", "[storage]") {
  TestMachine m;
  poke_bytes(m, kData, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  m.cpu.gr[2] = kData + 1, m.cpu.gr[3] = 10;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 10;
  m.run(RR(0x0E, 2, 4));
  CHECK(m.cpu.cc == 3);
  CHECK(peek_bytes(m, kData, 11) == Bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(m.cpu.gr[2] == kData + 1);
  CHECK(m.cpu.gr[3] == 10);
  // Destination before the source overlaps harmlessly.
  m.cpu.gr[2] = kData, m.cpu.gr[3] = 10;
  m.cpu.gr[4] = kData + 1, m.cpu.gr[5] = 10;
  m.run(RR(0x0E, 2, 4));
  CHECK(m.cpu.cc == 0);
  CHECK(peek_bytes(m, kData, 11) == Bytes{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11});
  // Destination starting right after the moved part of the source: no overlap.
  m.cpu.gr[2] = kData + 4, m.cpu.gr[3] = 4;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 4;
  m.run(RR(0x0E, 2, 4));
  CHECK(m.cpu.cc == 0);
  CHECK(peek_bytes(m, kData, 8) == Bytes{2, 3, 4, 5, 2, 3, 4, 5});
  auto r = m.run(RR(0x0E, 3, 4));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RR(0x0F, 2, 5)).check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("CLCL compares with padding and points at the first difference", "[storage]") {
  TestMachine m;
  poke_str(m, kData, "ABC");
  poke_str(m, kData + 0x10, "AB");
  m.cpu.gr[2] = kData, m.cpu.gr[3] = 3;
  m.cpu.gr[4] = kData + 0x10, m.cpu.gr[5] = uint64_t('C') << 24 | 2;
  m.run(RR(0x0F, 2, 4));
  CHECK(m.cpu.cc == 0);  // "AB" padded with 'C'
  CHECK(m.cpu.gr[2] == kData + 3);
  CHECK(m.cpu.gr[3] == 0);
  CHECK(m.cpu.gr[4] == kData + 0x12);
  CHECK(m.cpu.gr[5] == uint64_t('C') << 24);
  m.cpu.gr[2] = kData, m.cpu.gr[3] = 3;
  m.cpu.gr[4] = kData + 0x10, m.cpu.gr[5] = uint64_t(' ') << 24 | 2;
  m.run(RR(0x0F, 2, 4));
  CHECK(m.cpu.cc == 2);  // 'C' > ' '
  CHECK(m.cpu.gr[2] == kData + 2);
  CHECK(m.cpu.gr[3] == 1);
  CHECK(m.cpu.gr[4] == kData + 0x12);
  CHECK(m.cpu.gr[5] == uint64_t(' ') << 24);
  // The shorter operand is the first one: padding byte 0xFF is high.
  m.cpu.gr[2] = kData + 0x10, m.cpu.gr[3] = 2;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 3;
  m.cpu.gr[5] |= uint64_t(0xFF) << 24;
  m.run(RR(0x0F, 2, 4));
  CHECK(m.cpu.cc == 2);  // pad 0xFF vs 'C'
  CHECK(m.cpu.gr[2] == kData + 0x12);
  CHECK(m.cpu.gr[4] == kData + 2);
  CHECK((m.cpu.gr[5] & 0xFFFFFF) == 1);
  // Unsigned byte compare, both lengths zero.
  poke_bytes(m, kData + 0x20, {0x80});
  poke_bytes(m, kData + 0x30, {0x7F});
  m.cpu.gr[2] = kData + 0x20, m.cpu.gr[3] = 1, m.cpu.gr[4] = kData + 0x30, m.cpu.gr[5] = 1;
  m.run(RR(0x0F, 2, 4));
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[3] = 0, m.cpu.gr[5] = 0;
  m.run(RR(0x0F, 2, 4));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("MVCLE and CLCLE use 64-bit lengths and the padding byte from the address", "[storage]") {
  TestMachine m;
  poke_str(m, kData, "xyz");
  m.cpu.gr[2] = kData + 0x1FFE, m.cpu.gr[3] = 6;  // crosses a page
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 3;
  m.cpu.gr[7] = 0x1200;  // pad = low byte of the address 0x1200 + 0x2A = '*'
  REQUIRE(ok(m.run(RS(0xA8, 2, 4, 7, 0x2A))));
  CHECK(m.cpu.cc == 2);
  CHECK(peek_bytes(m, kData + 0x1FFE, 6) == Bytes{'x', 'y', 'z', '*', '*', '*'});
  CHECK(m.cpu.gr[2] == kData + 0x2004);
  CHECK(m.cpu.gr[3] == 0);
  CHECK(m.cpu.gr[4] == kData + 3);
  CHECK(m.cpu.gr[5] == 0);
  // CLCLE: equal with padding.
  m.cpu.gr[2] = kData + 0x1FFE, m.cpu.gr[3] = 6;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 3;
  m.run(RS(0xA9, 2, 4, 0, '*'));
  CHECK(m.cpu.cc == 0);
  CHECK(m.cpu.gr[3] == 0);
  CHECK(m.cpu.gr[5] == 0);
  // Unequal in the padded part: operand 1 '*' vs pad '+'.
  m.cpu.gr[2] = kData + 0x1FFE, m.cpu.gr[3] = 6;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 3;
  m.run(RS(0xA9, 2, 4, 0, '+'));
  CHECK(m.cpu.cc == 1);  // '*' (0x2A) is low against the padding byte '+' (0x2B)
  CHECK(m.cpu.gr[2] == kData + 0x2001);
  CHECK(m.cpu.gr[3] == 3);
  CHECK(m.cpu.gr[4] == kData + 3);
  CHECK(m.cpu.gr[5] == 0);
  // Lengths above 24 bits are used in full: shorter destination, CC 1.
  m.cpu.gr[2] = kData + 0x4000, m.cpu.gr[3] = 2;
  m.cpu.gr[4] = kData, m.cpu.gr[5] = 0x100000000ull;
  m.run(RS(0xA8, 2, 4, 0, 0));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[5] == 0xFFFFFFFEull);
  CHECK(m.run(RS(0xA8, 2, 5, 0, 0)).check.interrupt.code == emu::Pic::Specification);
}

// --- CLST, MVST, SRST -----------------------------------------------------------------------

TEST_CASE("CLST compares terminated strings", "[storage]") {
  TestMachine m;
  m.cpu.gr[0] = 0;
  poke_str(m, kData, std::string("abc\0", 4));
  poke_str(m, kData + 0x100, std::string("abd\0", 4));
  m.cpu.gr[4] = kData, m.cpu.gr[5] = kData + 0x100;
  m.run(RRE(0xB25D, 4, 5));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[4] == kData + 2);
  CHECK(m.cpu.gr[5] == kData + 0x102);
  m.cpu.gr[4] = kData + 0x100, m.cpu.gr[5] = kData;
  m.run(RRE(0xB25D, 4, 5));
  CHECK(m.cpu.cc == 2);
  // Equal: registers unchanged.
  poke_str(m, kData + 0x200, std::string("abc\0", 4));
  m.cpu.gr[4] = kData, m.cpu.gr[5] = kData + 0x200;
  m.run(RRE(0xB25D, 4, 5));
  CHECK(m.cpu.cc == 0);
  CHECK(m.cpu.gr[4] == kData);
  CHECK(m.cpu.gr[5] == kData + 0x200);
  // The ending character is lower than any byte, even when it is 0xFF.
  m.cpu.gr[0] = 0xFFFFFFFF000000FFull;  // bits 0-31 are ignored
  poke_bytes(m, kData + 0x300, {'a', 0xFF});
  poke_bytes(m, kData + 0x400, {'a', 0x10, 0xFF});
  m.cpu.gr[4] = kData + 0x300, m.cpu.gr[5] = kData + 0x400;
  REQUIRE(ok(m.run(RRE(0xB25D, 4, 5))));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[4] == kData + 0x301);
  CHECK(m.cpu.gr[5] == kData + 0x401);
  m.cpu.gr[4] = kData + 0x400, m.cpu.gr[5] = kData + 0x300;
  m.run(RRE(0xB25D, 4, 5));
  CHECK(m.cpu.cc == 2);
  // Strings across a page boundary.
  m.cpu.gr[0] = 0;
  poke_str(m, kData + 0xFFD, std::string("hello\0", 6));
  poke_str(m, kData + 0x2FFE, std::string("hellp\0", 6));
  m.cpu.gr[4] = kData + 0xFFD, m.cpu.gr[5] = kData + 0x2FFE;
  m.run(RRE(0xB25D, 4, 5));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[4] == kData + 0xFFD + 4);
  m.cpu.gr[0] = 0x100;  // bits 32-55 must be zero
  auto r = m.run(RRE(0xB25D, 4, 5));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("MVST copies through the ending character", "[storage]") {
  TestMachine m;
  m.cpu.gr[0] = 0;
  poke_str(m, kData + 0xFFA, std::string("copy me\0tail", 12));
  poke_bytes(m, kData + 0x2000, Bytes(16, 0xEE));
  m.cpu.gr[6] = kData + 0x2000, m.cpu.gr[7] = kData + 0xFFA;
  m.run(RRE(0xB255, 6, 7));
  CHECK(m.cpu.cc == 1);
  CHECK(peek_bytes(m, kData + 0x2000, 9) == Bytes{'c', 'o', 'p', 'y', ' ', 'm', 'e', 0, 0xEE});
  CHECK(m.cpu.gr[6] == kData + 0x2007);
  CHECK(m.cpu.gr[7] == kData + 0xFFA);
  m.cpu.gr[0] = '/';
  m.cpu.gr[6] = kData + 0x3000;
  poke_str(m, kData + 0x100, "/rest");
  m.cpu.gr[7] = kData + 0x100;
  m.run(RRE(0xB255, 6, 7));  // empty string: only the ending character
  CHECK(m.cpu.gr[6] == kData + 0x3000);
  CHECK(m.peek<uint8_t>(kData + 0x3000) == '/');
}

TEST_CASE("SRST searches up to the end address", "[storage]") {
  TestMachine m;
  poke_str(m, kData + 0xFF0, "0123456789abcdefghijklmnop");
  m.cpu.gr[0] = 'h';
  m.cpu.gr[2] = kData + 0xFF0 + 26, m.cpu.gr[3] = kData + 0xFF0;
  m.run(RRE(0xB25E, 2, 3));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[2] == kData + 0xFF0 + 17);
  CHECK(m.cpu.gr[3] == kData + 0xFF0);
  m.cpu.gr[2] = kData + 0xFF0 + 17;  // end before the 'h': not found
  m.run(RRE(0xB25E, 2, 3));
  CHECK(m.cpu.cc == 2);
  CHECK(m.cpu.gr[2] == kData + 0xFF0 + 17);
  CHECK(m.cpu.gr[3] == kData + 0xFF0);
  m.cpu.gr[2] = kData + 0xFF0;  // empty range
  m.run(RRE(0xB25E, 2, 3));
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[0] = 0x10000 | 'h';
  CHECK(m.run(RRE(0xB25E, 2, 3)).check.interrupt.code == emu::Pic::Specification);
}

// --- CS, CSG, CDS, CDSG ------------------------------------------------------------------

TEST_CASE("CS and CSG swap on equal and load on unequal", "[storage]") {
  TestMachine m;
  m.poke<uint32_t>(kData + 4, 0x11111111);
  m.cpu.gr[1] = 0xAAAAAAAA11111111ull, m.cpu.gr[3] = 0xBBBBBBBB22222222ull, m.cpu.gr[5] = kData;
  m.run(RS(0xBA, 1, 3, 5, 4));  // CS 1,3,4(5)
  CHECK(m.cpu.cc == 0);
  CHECK(m.peek<uint32_t>(kData + 4) == 0x22222222);
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA11111111ull);
  m.run(RSY(0xEB14, 1, 3, 5, 4));  // CSY: now unequal
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA22222222ull);  // high half kept
  CHECK(m.peek<uint32_t>(kData + 4) == 0x22222222);
  m.poke<uint64_t>(kData + 8, 0x0123456789ABCDEFull);
  m.cpu.gr[1] = 0x0123456789ABCDEFull, m.cpu.gr[3] = 0xFEDCBA9876543210ull;
  m.run(RSY(0xEB30, 1, 3, 5, 8));  // CSG
  CHECK(m.cpu.cc == 0);
  CHECK(m.peek<uint64_t>(kData + 8) == 0xFEDCBA9876543210ull);
  m.run(RSY(0xEB30, 1, 3, 5, 8));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[1] == 0xFEDCBA9876543210ull);
}

TEST_CASE("compare and swap needs an aligned operand and store access", "[storage]") {
  TestMachine m;
  m.cpu.gr[5] = kData;
  auto r = m.run(RS(0xBA, 1, 3, 5, 2));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RSY(0xEB30, 1, 3, 5, 4)).check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RSY(0xEB3E, 2, 4, 5, 8)).check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RS(0xBB, 2, 4, 5, 4)).check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RSY(0xEB3E, 3, 4, 5, 0)).check.interrupt.code == emu::Pic::Specification);  // odd R1
  // A failing compare on a read-only page still needs store access.
  m.cpu.gr[1] = 0x12345678;
  m.cpu.gr[5] = TestMachine::kCode + 0x800;
  CHECK(m.run(RS(0xBA, 1, 3, 5, 0)).check.interrupt.code == emu::Pic::Protection);
}

TEST_CASE("CDS and CDSG use even-odd pairs", "[storage]") {
  TestMachine m;
  m.poke<uint64_t>(kData, 0x1111111122222222ull);
  m.cpu.gr[2] = 0xFFFFFFFF11111111ull, m.cpu.gr[3] = 0xFFFFFFFF22222222ull;
  m.cpu.gr[4] = 0x33333333ull, m.cpu.gr[5] = 0x44444444ull, m.cpu.gr[9] = kData;
  m.run(RS(0xBB, 2, 4, 9, 0));  // CDS
  CHECK(m.cpu.cc == 0);
  CHECK(m.peek<uint64_t>(kData) == 0x3333333344444444ull);
  m.run(RSY(0xEB31, 2, 4, 9, 0));  // CDSY unequal
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[2] == 0xFFFFFFFF33333333ull);
  CHECK(m.cpu.gr[3] == 0xFFFFFFFF44444444ull);

  m.poke<uint64_t>(kData + 16, 0x0102030405060708ull);
  m.poke<uint64_t>(kData + 24, 0x090A0B0C0D0E0F10ull);
  m.cpu.gr[6] = 0x0102030405060708ull, m.cpu.gr[7] = 0x090A0B0C0D0E0F10ull;
  m.cpu.gr[10] = 0xA1A2A3A4A5A6A7A8ull, m.cpu.gr[11] = 0xB1B2B3B4B5B6B7B8ull;
  m.run(RSY(0xEB3E, 6, 10, 9, 16));  // CDSG
  CHECK(m.cpu.cc == 0);
  CHECK(m.peek<uint64_t>(kData + 16) == 0xA1A2A3A4A5A6A7A8ull);
  CHECK(m.peek<uint64_t>(kData + 24) == 0xB1B2B3B4B5B6B7B8ull);
  m.cpu.gr[7] = 0;  // the low halves differ only
  m.cpu.gr[6] = 0xA1A2A3A4A5A6A7A8ull;
  m.run(RSY(0xEB3E, 6, 10, 9, 16));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[6] == 0xA1A2A3A4A5A6A7A8ull);
  CHECK(m.cpu.gr[7] == 0xB1B2B3B4B5B6B7B8ull);
  CHECK(m.peek<uint64_t>(kData + 16) == 0xA1A2A3A4A5A6A7A8ull);
}

// --- interlocked access ------------------------------------------------------------------

TEST_CASE("load and add returns the old value and sets the CC of the sum", "[storage]") {
  TestMachine m;
  m.cpu.gr[9] = kData;
  m.poke<uint32_t>(kData, 5);
  m.cpu.gr[1] = 0xAAAAAAAAAAAAAAAAull, m.cpu.gr[3] = uint64_t(-7);
  REQUIRE(ok(m.run(RSY(0xEBF8, 1, 3, 9, 0))));  // LAA
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA00000005ull);
  CHECK(m.peek<uint32_t>(kData) == uint32_t(-2));
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[3] = 2;
  m.run(RSY(0xEBF8, 1, 3, 9, 0));
  CHECK(m.peek<uint32_t>(kData) == 0);
  CHECK(m.cpu.cc == 0);
  m.poke<uint32_t>(kData, 0x7FFFFFFF);
  m.cpu.gr[3] = 1;
  m.run(RSY(0xEBF8, 1, 3, 9, 0));  // overflow: completes, CC 3
  CHECK(m.cpu.cc == 3);
  CHECK(m.peek<uint32_t>(kData) == 0x80000000u);
  CHECK(m.cpu.r32(1) == 0x7FFFFFFF);
  // R1 = R3: the addend is read before R1 receives the old value.
  m.poke<uint64_t>(kData + 8, 100);
  m.cpu.gr[4] = 23;
  m.run(RSY(0xEBE8, 4, 4, 9, 8));  // LAAG 4,4
  CHECK(m.cpu.gr[4] == 100);
  CHECK(m.peek<uint64_t>(kData + 8) == 123);
  CHECK(m.cpu.cc == 2);
  // Logical: carry.
  m.poke<uint32_t>(kData, 0xFFFFFFFF);
  m.cpu.gr[3] = 1;
  m.run(RSY(0xEBFA, 1, 3, 9, 0));  // LAAL: zero with carry
  CHECK(m.cpu.cc == 2);
  CHECK(m.peek<uint32_t>(kData) == 0);
  m.poke<uint64_t>(kData + 8, 5);
  m.run(RSY(0xEBEA, 1, 3, 9, 8));  // LAALG: nonzero, no carry
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[1] == 5);
  CHECK(m.peek<uint64_t>(kData + 8) == 6);
  // Alignment.
  CHECK(m.run(RSY(0xEBF8, 1, 3, 9, 2)).check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RSY(0xEBE8, 1, 3, 9, 4)).check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("load and and / or / exclusive or", "[storage]") {
  TestMachine m;
  m.cpu.gr[9] = kData;
  m.poke<uint32_t>(kData, 0xF0F0F0F0);
  m.cpu.gr[3] = 0x0F0F0F0F;
  m.run(RSY(0xEBF4, 1, 3, 9, 0));  // LAN: zero
  CHECK(m.cpu.cc == 0);
  CHECK(m.cpu.r32(1) == 0xF0F0F0F0);
  CHECK(m.peek<uint32_t>(kData) == 0);
  m.run(RSY(0xEBF6, 1, 3, 9, 0));  // LAO
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.r32(1) == 0);
  CHECK(m.peek<uint32_t>(kData) == 0x0F0F0F0F);
  m.run(RSY(0xEBF7, 1, 3, 9, 0));  // LAX with itself: zero
  CHECK(m.cpu.cc == 0);
  CHECK(m.peek<uint32_t>(kData) == 0);
  m.poke<uint64_t>(kData + 8, 0xFF00000000000001ull);
  m.cpu.gr[3] = 0x8000000000000001ull;
  m.run(RSY(0xEBE4, 1, 3, 9, 8));  // LANG
  CHECK(m.cpu.gr[1] == 0xFF00000000000001ull);
  CHECK(m.peek<uint64_t>(kData + 8) == 0x8000000000000001ull);
  CHECK(m.cpu.cc == 1);
  m.run(RSY(0xEBE7, 1, 3, 9, 8));  // LAXG
  CHECK(m.peek<uint64_t>(kData + 8) == 0);
  CHECK(m.cpu.cc == 0);
  m.run(RSY(0xEBE6, 1, 3, 9, 8));  // LAOG
  CHECK(m.peek<uint64_t>(kData + 8) == 0x8000000000000001ull);
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 1);
}
