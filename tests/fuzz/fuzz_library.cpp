// Fuzz target: the library image reader and checker (fetch/library_check.h), what a
// program fetch will trust to read a load library. Any input gets a result: an image
// that checks, or one error naming its place. A crash, a sanitizer report, a hang or
// memory out of bounds is a finding; so is an image that parses but whose own
// re-serialization does not parse and check to the same verdict.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fetch/library_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fetch::ParsedImage p = fetch::parse_image(data, size);
  if (!p.ok) {
    if (p.error.empty()) std::abort();   // a refusal always says why
    return 0;
  }
  fetch::LibraryCheck c = fetch::check_library(p.volume, {"IEFBR14"});
  if (!c.ok && c.error.empty()) std::abort();
  std::vector<uint8_t> again = fetch::serialize(p.volume);
  fetch::ParsedImage q = fetch::parse_image(again.data(), again.size());
  if (!q.ok || fetch::check_library(q.volume, {"IEFBR14"}).ok != c.ok) std::abort();
  return 0;
}
