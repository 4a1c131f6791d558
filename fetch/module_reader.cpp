#include "fetch/module_reader.h"

#include <fmt/format.h>

#include <algorithm>

#include "fetch/library_image.h"
#include "fetch/load_module.h"

namespace fetch {

bool ModuleReader::fail(const char* code, std::string why) {
  code_ = code;
  error_ = std::move(why);
  return false;
}

bool ModuleReader::record(const std::vector<uint8_t>& d, const std::string& at) {
  ++records_;
  last_was_text_ = expect_text_;
  if (expect_text_) {   // the text record its control record's CCW described
    expect_text_ = false;
    if (d.size() != text_length_)
      return fail("106-0D", fmt::format("{}: a text record of {} bytes, its control record says {} (truncated record)",
                                        at, d.size(), text_length_));
    std::copy(d.begin(), d.end(), image_.begin() + text_address_);
    if (end_after_text_) ended_ = true;
    return true;
  }
  if (ended_) return fail("106-0D", at + ": a record after the end of the module");
  if (d.empty()) return fail("106-0D", at + ": an empty record");
  const uint8_t id = d[0];
  if (id == lmrec::kCesd || id == lmrec::kSym || id == lmrec::kIdr || id == lmrec::kScatter) return true;
  if ((id & 0xF0) != 0 || (id & 0x03) == 0 || d.size() < lmrec::kHeaderBytes)
    return fail("106-0D", fmt::format("{}: a record of type X'{:02X}' ({} bytes) is not a load module's", at, id, d.size()));
  const uint32_t ctl = uint32_t(get_be(&d[4], 2)), rld = uint32_t(get_be(&d[6], 2));
  if (lmrec::kHeaderBytes + ctl + rld > d.size())
    return fail("106-0D", fmt::format("{}: control and RLD data of {} bytes in a record of {}", at, ctl + rld, d.size()));
  // RLD items: R (2), P (2), flags (1), address (3); after one whose flags say X'01' the
  // next has the same R and P and is 4 bytes.
  size_t q = lmrec::kHeaderBytes;
  bool same = false;
  while (q < lmrec::kHeaderBytes + rld) {
    const size_t len = same ? 4 : 8, f = same ? q : q + 4;
    if (q + len > lmrec::kHeaderBytes + rld)
      return fail("106-0D", fmt::format("{}, offset {}: an RLD item runs past the RLD data", at, q));
    const uint32_t addr = uint32_t(get_be(&d[f + 1], 3));
    if (uint64_t(addr) + 4 > image_.size())
      return fail("106-0E", fmt::format("{}, offset {}: an address constant at {:06X}, beyond the module's {} bytes", at,
                                        f + 1, addr, image_.size()));
    adcons_.push_back(addr);
    same = d[f] & 0x01;
    q += len;
  }
  if (id & lmrec::kControl) {
    text_address_ = uint32_t(get_be(&d[9], 3));
    text_length_ = uint32_t(get_be(&d[14], 2));
    if (uint64_t(text_address_) + text_length_ > image_.size())
      return fail("106-0E", fmt::format("{}: text at {:06X} of {} bytes runs past the module's {} bytes", at,
                                        text_address_, text_length_, image_.size()));
    expect_text_ = true;
    end_after_text_ = id & lmrec::kEndModule;
  } else if (id & lmrec::kEndModule) {
    ended_ = true;
  }
  return true;
}

}  // namespace fetch
