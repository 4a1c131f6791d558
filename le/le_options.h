// Language Environment run-time options, as LE spells them (issue 25, item 2):
//
//   HEAP(init,incr,ANYWHERE|ANY|BELOW,KEEP|FREE,init24,incr24)
//   ANYHEAP(init,incr,ANYWHERE|ANY|BELOW,KEEP|FREE)      BELOWHEAP(init,incr,KEEP|FREE)
//   STACK(init,incr,ANYWHERE|ANY|BELOW,KEEP|FREE,dsinit,dsincr)
//   THREADSTACK(ON|OFF,init,incr,ANYWHERE|ANY|BELOW,KEEP|FREE,dsinit,dsincr)
//   LIBSTACK(init,incr,KEEP|FREE)
//   STORAGE(heap_alloc,heap_free,dsa_alloc,reserve)      each fill NONE, two hex digits, CLEAR (dsa_alloc)
//   HEAPPOOLS(ON|OFF,cell1,percent1,...,cell12,percent12)
//   RPTSTG(ON|OFF)
//
// A string holds any number of them, separated by blanks or commas; a later option
// overrides an earlier one, and an operand left out (HEAP(,64K)) keeps the value it had
// before, as LE merges options. Names and keywords may be in any case; an option name
// may be shortened down to the minimum abbreviation IBM's syntax diagrams show (H, AN,
// BE, STA, LIBS, STO, HEAPP, RPTS; THREADSTACK only in full: see le_options.cpp).
//
// This is host code: it turns configuration text into numbers. The LE storage that
// uses them (the guest heaps and stacks, RPTSTG's report) is le/le_subsystem.*.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "config/config.h"

namespace le {

// A bad option string. The message names the option and the operand at fault, e.g.
//   HEAP: operand 4 "KEPP" is not KEEP or FREE
// but no place: le_config.cpp puts the file, line and key in front.
class OptionError : public cfg::ConfigError {
 public:
  using cfg::ConfigError::ConfigError;
};

enum class Location : uint8_t { Anywhere, Below };   // ANYWHERE (or ANY) | BELOW the 16 MB line
enum class Disposition : uint8_t { Keep, Free };     // an emptied increment is KEEPt or FREEd

// HEAP: the user heap (malloc). Sizes are bytes, already rounded up to a multiple of 8.
struct HeapOption {
  uint64_t init_size = 0, incr_size = 0;
  Location location = Location::Anywhere;
  Disposition disposition = Disposition::Keep;
  uint64_t init24 = 0, incr24 = 0;  // the heap's initial size and increment below the line, when it must go there
  bool operator==(const HeapOption&) const = default;
};

// ANYHEAP: LE's own (library) heap anywhere.
struct AnyHeapOption {
  uint64_t init_size = 0, incr_size = 0;
  Location location = Location::Anywhere;
  Disposition disposition = Disposition::Keep;
  bool operator==(const AnyHeapOption&) const = default;
};

// BELOWHEAP and LIBSTACK: a library heap or stack below the line, so no location.
struct BelowOption {
  uint64_t init_size = 0, incr_size = 0;
  Disposition disposition = Disposition::Keep;
  bool operator==(const BelowOption&) const = default;
};

// STACK: the upward-growing stack (init, incr) and XPLINK's downward-growing one (ds*).
struct StackOption {
  uint64_t init_size = 0, incr_size = 0;
  Location location = Location::Anywhere;
  Disposition disposition = Disposition::Keep;
  uint64_t dsinit_size = 0, dsincr_size = 0;
  bool operator==(const StackOption&) const = default;
};

// THREADSTACK: a thread's stack but the initial thread's; OFF: threads use STACK's values.
struct ThreadStackOption {
  bool on = false;
  StackOption stack;
  bool operator==(const ThreadStackOption&) const = default;
};

// One STORAGE fill: NONE (storage left as it is), a byte, or (dsa_alloc only) CLEAR.
struct Fill {
  enum Kind : uint8_t { None, Byte, Clear };
  Kind kind = None;
  uint8_t byte = 0;  // Byte only
  bool operator==(const Fill&) const = default;
};

// STORAGE: what a heap element is filled with when got and when freed, what every stack
// frame (DSA) is filled with when a routine is entered, and the storage held back for
// the out-of-storage condition (bytes, as written: no rounding is documented for it).
struct StorageOption {
  Fill heap_alloc, heap_free, dsa_alloc;
  uint64_t reserve_size = 0;
  bool operator==(const StorageOption&) const = default;
};

constexpr size_t kHeapPools = 12;           // "one to twelve heap pools" (IBM)
constexpr uint32_t kMaxCellSize = 65536;    // see le_options.cpp, HEAPPOOLS
constexpr uint32_t kMinPercent = 1, kMaxPercent = 90;

struct HeapPool {
  uint32_t cell_size = 0;  // bytes, a multiple of 8; 0 ends the list of pools
  uint32_t percent = 0;    // of HEAP's init_size, per extent of the pool
  bool operator==(const HeapPool&) const = default;
};

// HEAPPOOLS: cell pools in front of the user heap. All twelve pairs are kept, as LE's
// options report writes them; the pools in use are those before the first cell size 0.
struct HeapPoolsOption {
  bool on = false;
  std::array<HeapPool, kHeapPools> pools{};
  size_t count() const;  // pools in use (before the first cell size 0)
  bool operator==(const HeapPoolsOption&) const = default;
};

// Every option this project models. A default-constructed Options is all zeros (the
// member initializers above are only the first of each choice), not IBM's defaults:
// start from ibm_defaults(), whose one statement is kIbmDefaults.
struct Options {
  AnyHeapOption anyheap;
  BelowOption belowheap;
  HeapOption heap;
  HeapPoolsOption heappools;
  BelowOption libstack;
  bool rptstg = false;
  StackOption stack;
  StorageOption storage;
  ThreadStackOption threadstack;
  bool operator==(const Options&) const = default;
};

// IBM's defaults for non-CICS applications, written as LE writes them (the one place
// they are stated; ibm_defaults() is this text parsed).
extern const std::string_view kIbmDefaults;
const Options& ibm_defaults();

// `text` applied on top of `base` (later options override earlier ones, omitted operands
// keep base's values). Throws OptionError; `base` is unchanged then.
Options apply_options(const Options& base, std::string_view text);
// `text` on top of IBM's defaults.
Options parse_options(std::string_view text);

// The options in LE's canonical form, as its options report (RPTOPTS) writes them:
// sizes in bytes, keywords in full, all operands; the options in alphabetical order,
// separated by one blank. Parsing it gives the same Options back.
//   ANYHEAP(16384,8192,ANYWHERE,FREE) BELOWHEAP(8192,4096,FREE) HEAP(32768,32768,ANYWHERE,KEEP,8192,4096) ...
std::string canonical(const Options& o);
// One option of it, by name ("HEAP", any case or documented abbreviation); OptionError
// for a name that is not one.
std::string canonical(const Options& o, std::string_view option);

// s without its leading and trailing blanks and tabs (options and configuration text).
std::string_view trim_blanks(std::string_view s);

}  // namespace le
