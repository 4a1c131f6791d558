// Storage keys [Principles of Operation, chapter 3, "Storage Key" (3.4.1), "Key-Controlled
// Protection" (3.4.4), "Fetch-Protection Override" and "Reference Recording", "Change
// Recording" (3.4.5, 3.4.6)]: one key per 4 KB block of absolute storage, seven bits:
// the access-control bits (ACC), the fetch-protection bit (F), the reference bit (R) and
// the change bit (C). SSKE takes them, and ISKE gives them, in bits 56-62 of a register:
// this header's byte is that register's low byte.
//
// Where they live (one place per fact): R and C are the FrameKey bits of Storage::key,
// which DAT's fill of a TLB entry sets for every I-stream's loads and stores, in every
// mode; ACC and F are Storage::access_key, which only system mode sets and reads.
#pragma once
#include <cstdint>

#include "emu/storage.h"

namespace emu::storage_key {

constexpr uint8_t kAccessControl = 0xF0;  // bits 56-59: ACC
constexpr uint8_t kFetchProtection = 0x08;  // bit 60: F
constexpr uint8_t kReference = 0x04;        // bit 61: R
constexpr uint8_t kChange = 0x02;           // bit 62: C
constexpr uint8_t kKeyBits = 0xFE;          // bit 63 is not part of the key

// The key of Storage frame `number` in the register's form.
inline uint8_t read(Storage& s, uint64_t number) {
  const uint8_t frame_key = s.key(number);
  return uint8_t((s.access_key(number) & (kAccessControl | kFetchProtection)) |
                 (frame_key & kKeyReferenced ? kReference : 0) | (frame_key & kKeyChanged ? kChange : 0));
}

// Sets the key of Storage frame `number` from the register's form (SSKE, PFMF). The
// frame's host bits (stored into, holds code) are not the key's: they stay.
inline void write(Storage& s, uint64_t number, uint8_t key) {
  s.access_key(number) = key & (kAccessControl | kFetchProtection);
  uint8_t& frame_key = s.key(number);
  frame_key = uint8_t(frame_key & ~(kKeyReferenced | kKeyChanged));
  if (key & kReference) frame_key |= kKeyReferenced;
  if (key & kChange) frame_key |= kKeyChanged;
}

// Key-controlled protection [3.4.4]: a store is permitted when the access key is 0 or
// equals the block's ACC; a fetch also when the block is not fetch-protected. With CR0's
// storage-protection-override control (bit 39), a block whose ACC is 9 permits both to
// any access key ("Storage-Protection Override").
inline bool store_permitted(uint8_t access_key, uint8_t block, bool storage_override) {
  const uint8_t acc = block >> 4;
  return access_key == 0 || access_key == acc || (storage_override && acc == 9);
}
inline bool fetch_permitted(uint8_t access_key, uint8_t block, bool storage_override) {
  return !(block & kFetchProtection) || store_permitted(access_key, block, storage_override);
}

}  // namespace emu::storage_key
