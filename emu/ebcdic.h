// Code page 037 (EBCDIC, the US and Canada's): the one table by which host code turns
// guest text into ASCII and back (an SCLP line-mode message, STSI's names, a PDS
// directory's member and data set names). Each caller keeps its own rule for which
// characters it accepts; the bytes come from here.
#pragma once
#include <cstdint>

namespace emu::ebcdic {

// The ASCII character of EBCDIC byte `e`: '?' where the code page has none (its
// controls but tab and the two new lines, and its national characters), '^' for the
// not sign (X'5F').
char to_ascii(uint8_t e);

// The EBCDIC byte of ASCII character `c`, or 0 where code page 037 has none here.
uint8_t from_ascii(char c);

}  // namespace emu::ebcdic
