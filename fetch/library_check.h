// Reading a library image back, and checking everything in it: the image's structure
// (header, tracks, count areas, cells a track holds), then the directory (blocks and
// their counts, keys, entry order, the end marker; a PDSE's tree) and every member
// (its TTR within the extent, its records as load module records, control records
// against their text records, RLD items, the end of module; a program object's classes
// and pages). A bad image gives one clear error naming the place: the image offset, or
// the TTR with its cylinder, head and record and the offset inside the record.
//
// Never crashes, never loops, never allocates more than the image's own size (plus a
// bounded amount a record): every count read from the image is checked against the
// bytes that remain before it is used; every walk moves forward or visits each page
// once. tests/fuzz/fuzz_library.cpp holds it to that.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fetch/library_image.h"

namespace fetch {

struct ParsedImage {
  bool ok = false;
  std::string error;          // when !ok
  LibraryVolume volume;       // when ok
};
// The image's structure only: header, track headers, count areas, cells.
ParsedImage parse_image(const uint8_t* data, size_t size);

struct LibraryCheck {
  bool ok = false;
  std::string error;                  // the first problem found, with its place
  std::vector<std::string> names;     // the directory's names in its order (members and aliases)
  uint32_t members = 0, aliases = 0;
};
// Everything. `expected`: names that must be in the directory (a member missing).
LibraryCheck check_library(const LibraryVolume& v, const std::vector<std::string>& expected = {});
LibraryCheck check_library(const uint8_t* data, size_t size, const std::vector<std::string>& expected = {});

// "TTR 000305 (cylinder 1, head 3, record 5)".
std::string describe(const LibraryVolume& v, Ttr ttr);

}  // namespace fetch
