// Field extraction for every instruction format, on bytes the GNU assembler
// produced (s390x-linux-gnu-as -march=z13), so the decoder is checked against an
// independent encoder.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "emu/cpu.h"
#include "emu/isa/table.h"

namespace {

emu::Insn dec(std::vector<uint8_t> b, uint64_t at = 0x1000) {
  b.resize(6);
  emu::Insn in;
  REQUIRE(emu::decode(b.data(), at, in, emu::kNewestGeneration));
  return in;
}
std::string name(const emu::Insn& in) { return emu::mnemonic(in.id); }
constexpr uint8_t Z = emu::kZeroReg;

}  // namespace

TEST_CASE("E, RR, RRE, RRF and I formats", "[decode]") {
  auto tam = dec({0x01, 0x0B});
  CHECK(name(tam) == "TAM");
  CHECK(tam.len == 2);
  auto epsw = dec({0xB9, 0x8D, 0x00, 0x12});  // epsw %r1,%r2
  CHECK(name(epsw) == "EPSW");
  CHECK((epsw.r1 == 1 && epsw.r2 == 2 && epsw.len == 4));
  auto ark = dec({0xB9, 0xF8, 0x30, 0x12});  // ark %r1,%r2,%r3 (RRF-a: R3 in bits 16-19)
  CHECK((name(ark) == "ARK" && ark.r1 == 1 && ark.r2 == 2 && ark.r3 == 3));
  auto locgr = dec({0xB9, 0xE2, 0x80, 0x45});  // locgre %r4,%r5 (RRF-c: M3 = 8)
  CHECK((locgr.m3 == 8 && locgr.r1 == 4 && locgr.r2 == 5));
  auto svc = dec({0x0A, 0xF8});
  CHECK((name(svc) == "SVC" && svc.imm == 0xF8));
}

TEST_CASE("RX, RXY, RXE: base and index 0 mean none, long displacements are signed", "[decode]") {
  auto l = dec({0x58, 0x10, 0x00, 0x10});  // l %r1,16
  CHECK((l.x2 == Z && l.b2 == Z && l.d2 == 16));
  auto lg = dec({0xE3, 0x12, 0x3F, 0xF8, 0xFF, 0x04});  // lg %r1,-8(%r2,%r3)
  CHECK((name(lg) == "LG" && lg.r1 == 1 && lg.x2 == 2 && lg.b2 == 3 && lg.d2 == -8));
  auto lgmax = dec({0xE3, 0x10, 0x2F, 0xFF, 0x7F, 0x04});  // lg %r1,524287(%r2)
  CHECK(lgmax.d2 == 524287);
  auto lcbb = dec({0xE7, 0x10, 0x20, 0x08, 0x30, 0x27});  // lcbb %r1,8(%r2),3
  CHECK((name(lcbb) == "LCBB" && lcbb.r1 == 1 && lcbb.b2 == 2 && lcbb.d2 == 8 && lcbb.m3 == 3));
}

TEST_CASE("RS, RSY, RSI, RSL", "[decode]") {
  auto stmg = dec({0xEB, 0x6F, 0xF0, 0x30, 0x00, 0x24});  // stmg %r6,%r15,48(%r15)
  CHECK((stmg.r1 == 6 && stmg.r3 == 15 && stmg.b2 == 15 && stmg.d2 == 48));
  auto brxh = dec({0x84, 0x13, 0xFF, 0xFC}, 0x44);  // brxh %r1,%r3,0x3c
  CHECK((name(brxh) == "BRXH" && brxh.r1 == 1 && brxh.r3 == 3 && brxh.target == 0x3C));
  auto tp = dec({0xEB, 0x30, 0x30, 0x00, 0x00, 0xC0});  // tp 0(4,%r3)
  CHECK((name(tp) == "TP" && tp.l1 == 3 && tp.b1 == 3 && tp.d1 == 0));
}

TEST_CASE("RI, RIL, RIE variants, RIS, RRS: relative targets are precomputed", "[decode]") {
  auto brc = dec({0xA7, 0x84, 0xFF, 0xFE}, 0x2000);  // jne .-4
  CHECK((name(brc) == "BRC" && brc.r1 == 8 && brc.target == 0x2000 - 4));
  auto larl = dec({0xC0, 0x10, 0x80, 0x00, 0x00, 0x00}, 0x100000000ull);  // larl %r1, -2^32
  CHECK(larl.target == 0);
  auto clgij = dec({0xEC, 0x14, 0x00, 0x06, 0xC8, 0x7D}, 0x32);  // clgijl %r1,200,0x3e
  CHECK((name(clgij) == "CLGIJ" && clgij.r1 == 1 && clgij.m3 == 4 && uint8_t(clgij.imm) == 200 &&
         clgij.target == 0x3E));
  auto ahik = dec({0xEC, 0x13, 0xFF, 0xF9, 0x00, 0xD8});  // ahik %r1,%r3,-7
  CHECK((ahik.r1 == 1 && ahik.r3 == 3 && ahik.imm == -7));
  auto risbg = dec({0xEC, 0x12, 0x28, 0x3F, 0x08, 0x55});  // risbg %r1,%r2,40,63,8
  CHECK((risbg.i3 == 40 && risbg.i4 == 63 && risbg.i5 == 8 && risbg.r2 == 2));
  auto cgib = dec({0xEC, 0x18, 0x40, 0x0C, 0xFB, 0xFC});  // cgibe %r1,-5,12(%r4)
  CHECK((name(cgib) == "CGIB" && cgib.m3 == 8 && cgib.imm == -5 && cgib.b2 == 4 && cgib.d2 == 12));
  auto cgrb = dec({0xEC, 0x12, 0x50, 0x10, 0x60, 0xE4});  // cgrbne %r1,%r2,16(%r5)
  CHECK((name(cgrb) == "CGRB" && cgrb.r2 == 2 && cgrb.m3 == 6 && cgrb.b2 == 5 && cgrb.d2 == 16));
}

TEST_CASE("SI, SIY, SIL, SS", "[decode]") {
  auto asi = dec({0xEB, 0xFD, 0x2F, 0xF8, 0xFF, 0x6A});  // asi -8(%r2),-3
  CHECK((name(asi) == "ASI" && asi.imm == -3 && asi.b1 == 2 && asi.d1 == -8));
  auto mvhi = dec({0xE5, 0x4C, 0x60, 0x04, 0xFF, 0xFE});  // mvhi 4(%r6),-2
  CHECK((name(mvhi) == "MVHI" && mvhi.b1 == 6 && mvhi.d1 == 4 && mvhi.imm == -2));
  auto mvc = dec({0xD2, 0x06, 0x10, 0x01, 0x30, 0x02});  // mvc 1(7,%r1),2(%r3)
  CHECK((name(mvc) == "MVC" && mvc.l1 == 6 && mvc.b1 == 1 && mvc.d1 == 1 && mvc.b2 == 3 && mvc.d2 == 2));
  auto cli = dec({0x95, 0xFF, 0x00, 0x00});  // cli 0,255
  CHECK((cli.b1 == Z && uint8_t(cli.imm) == 0xFF));
}
