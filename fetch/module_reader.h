// A load module's records as program fetch takes them, one after another (the records
// of a PDS member as the binder writes them, load_module.h): ESD, IDR and SYM records
// passed over; a control record's CCW placing the text record after it in the module's
// storage; RLD items naming the address constants to relocate; the end-of-module flag.
// What a record gets wrong ends the read with the abend reason z/OS gives for it
// (106-0D a record that is not a load module's, 106-0E an address outside the module).
// Reads only the bytes it is given: never beyond a record, never beyond the module's
// storage (tests/fuzz/fuzz_library.cpp feeds it damaged images).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace fetch {

class ModuleReader {
 public:
  // `size`: the storage the module takes (its directory entry's PDS2STOR).
  explicit ModuleReader(uint32_t size) : image_(size, 0) {}
  // The next record's data; false when it ends the read with an error (where: the place
  // the caller names the record by, for the message).
  bool record(const std::vector<uint8_t>& d, const std::string& where);
  bool ended() const { return ended_; }                  // the end of module has been read
  const std::string& code() const { return code_; }      // "106-0D" ... when failed
  const std::string& error() const { return error_; }
  std::vector<uint8_t>& image() { return image_; }
  const std::vector<uint32_t>& adcons() const { return adcons_; }   // offsets of the 4-byte adcons to relocate
  uint64_t records() const { return records_; }
  // The record just taken was a text record (at last_text_address() in the module).
  bool last_was_text() const { return last_was_text_; }
  uint32_t last_text_address() const { return text_address_; }

 private:
  bool fail(const char* code, std::string why);
  std::vector<uint8_t> image_;
  std::vector<uint32_t> adcons_;
  bool last_was_text_ = false;
  bool expect_text_ = false, end_after_text_ = false, ended_ = false;
  uint32_t text_address_ = 0, text_length_ = 0;
  uint64_t records_ = 0;
  std::string code_, error_;
};

}  // namespace fetch
