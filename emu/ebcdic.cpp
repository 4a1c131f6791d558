#include "emu/ebcdic.h"

#include <array>

namespace emu::ebcdic {

namespace {

const std::array<char, 256>& ascii_table() {
  static const auto table = [] {
    std::array<char, 256> t;
    t.fill('?');
    auto run = [&](uint8_t from, const char* chars) {
      for (unsigned k = 0; chars[k]; ++k) t[from + k] = chars[k];
    };
    t[0x05] = '\t', t[0x15] = '\n', t[0x25] = '\n';
    run(0x40, " ");
    run(0x4B, ".<(+|&");
    run(0x5A, "!$*);^-/");
    run(0x6A, "|,%_>?");
    run(0x79, "`:#@'=\"");
    run(0x81, "abcdefghi");
    run(0x91, "jklmnopqr");
    run(0xA1, "~stuvwxyz");
    run(0xBA, "[]");
    run(0xC0, "{ABCDEFGHI");
    run(0xD0, "}JKLMNOPQR");
    run(0xE0, "\\");
    run(0xE2, "STUVWXYZ");
    run(0xF0, "0123456789");
    return t;
  }();
  return table;
}

}  // namespace

char to_ascii(uint8_t e) { return ascii_table()[e]; }

uint8_t from_ascii(char c) {
  static const auto table = [] {
    std::array<uint8_t, 256> t{};
    const auto& ascii = ascii_table();
    // The first byte of each character, in byte order (the code page's own byte
    // where a substitute appears twice: '|' is X'4F', not the broken bar's X'6A').
    for (unsigned e = 0x40; e < 256; ++e) {
      const auto a = uint8_t(ascii[e]);
      if (ascii[e] != '?' && !t[a]) t[a] = uint8_t(e);
    }
    t[uint8_t('?')] = 0x6F;
    return t;
  }();
  return table[uint8_t(c)];
}

}  // namespace emu::ebcdic
