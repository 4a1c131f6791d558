#include "emu/system/vm_description.h"

#include "emu/ebcdic.h"

namespace emu {

uint8_t ebcdic_of(char ch) {
  const bool allowed = (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == ' ' ||
                       ch == '.' || ch == '-' || ch == '/' || ch == '_';
  return allowed ? ebcdic::from_ascii(ch) : 0;
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
