// Code page 037 (emu/ebcdic.h): the one table SCLP's line-mode text, STSI's names and
// PDS names are converted with.
#include <catch2/catch.hpp>

#include "emu/ebcdic.h"

TEST_CASE("code page 037: the bytes of letters, digits and the national characters", "[ebcdic]") {
  using namespace emu::ebcdic;
  CHECK(from_ascii('A') == 0xC1);
  CHECK(from_ascii('J') == 0xD1);
  CHECK(from_ascii('S') == 0xE2);
  CHECK(from_ascii('a') == 0x81);
  CHECK(from_ascii('s') == 0xA2);
  CHECK(from_ascii('0') == 0xF0);
  CHECK(from_ascii(' ') == 0x40);
  CHECK(from_ascii('$') == 0x5B);
  CHECK(from_ascii('#') == 0x7B);
  CHECK(from_ascii('@') == 0x7C);
  CHECK(from_ascii('.') == 0x4B);
  CHECK(from_ascii('-') == 0x60);
  CHECK(from_ascii('/') == 0x61);
  CHECK(from_ascii('_') == 0x6D);
  CHECK(from_ascii('|') == 0x4F);  // the code page's vertical line, not the broken bar (X'6A')
  CHECK(from_ascii('?') == 0x6F);
  CHECK(from_ascii('\x01') == 0);  // none
  CHECK(to_ascii(0x15) == '\n');
  CHECK(to_ascii(0x00) == '?');
}

TEST_CASE("code page 037: every printable ASCII character with a byte comes back as itself", "[ebcdic]") {
  using namespace emu::ebcdic;
  unsigned with_byte = 0;
  for (char c = ' '; c <= '~'; ++c) {
    CAPTURE(c);
    const uint8_t e = from_ascii(c);
    if (!e) continue;
    ++with_byte;
    CHECK(to_ascii(e) == c);
  }
  CHECK(with_byte == 95);  // all of them
}
