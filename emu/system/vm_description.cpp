#include "emu/system/vm_description.h"

namespace emu {

uint8_t ebcdic_of(char ch) {
  if (ch >= '0' && ch <= '9') return uint8_t(0xF0 + (ch - '0'));
  if (ch >= 'A' && ch <= 'I') return uint8_t(0xC1 + (ch - 'A'));
  if (ch >= 'J' && ch <= 'R') return uint8_t(0xD1 + (ch - 'J'));
  if (ch >= 'S' && ch <= 'Z') return uint8_t(0xE2 + (ch - 'S'));
  if (ch >= 'a' && ch <= 'i') return uint8_t(0x81 + (ch - 'a'));
  if (ch >= 'j' && ch <= 'r') return uint8_t(0x91 + (ch - 'j'));
  if (ch >= 's' && ch <= 'z') return uint8_t(0xA2 + (ch - 's'));
  switch (ch) {
    case ' ': return 0x40;
    case '.': return 0x4B;
    case '-': return 0x60;
    case '/': return 0x61;
    case '_': return 0x6D;
    default: return 0;
  }
}

void put_ebcdic(uint8_t* at, unsigned width, std::string_view text) {
  for (unsigned k = 0; k < width; ++k) at[k] = k < text.size() && ebcdic_of(text[k]) ? ebcdic_of(text[k]) : 0x40;
}

size_t first_unencodable(std::string_view text) {
  for (size_t k = 0; k < text.size(); ++k)
    if (!ebcdic_of(text[k])) return k;
  return std::string_view::npos;
}

bool parse_uuid(std::string_view text, std::array<uint8_t, 16>& uuid) {
  unsigned digits = 0;
  std::array<uint8_t, 16> out{};
  for (char ch : text) {
    if (ch == '-') continue;
    unsigned v;
    if (ch >= '0' && ch <= '9') v = unsigned(ch - '0');
    else if (ch >= 'a' && ch <= 'f') v = unsigned(ch - 'a' + 10);
    else if (ch >= 'A' && ch <= 'F') v = unsigned(ch - 'A' + 10);
    else return false;
    if (digits == 32) return false;
    out[digits / 2] = uint8_t(out[digits / 2] << 4 | v);
    ++digits;
  }
  if (digits != 32) return false;
  uuid = out;
  return true;
}

}  // namespace emu
