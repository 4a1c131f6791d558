// Facilities and machine generations: which instructions a machine of a given
// architecture level has (machine.arch). Each line of the instruction table names its
// facility; the facility's first generation decides, so the table alone says what an
// architecture level decodes [Principles of Operation, chapter 4, "Facility
// Indications"]. An instruction of a facility the machine does not have is an
// operation exception, as on the real machine.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace emu {

// IBM Z generations, in order.
enum class Generation : uint8_t { Z900, Z990, Z9, Z10, Z196, ZEC12, Z13, Z14, Z15 };
constexpr Generation kNewestGeneration = Generation::Z15;

enum class Facility : uint8_t {
#define FACILITY(id, name, bit, generation, listed) id,
#include "emu/isa/facilities.def"
#undef FACILITY
};

// Whether STORE FACILITY LIST EXTENDED reports a facility (facilities.def's last column).
enum class Listing : uint8_t {
  Unlisted,    // never: the table holds only part of it
  Listed,      // at the levels that have it
  SystemMode,  // in system mode only (tpfemu ipl), never under a host control program
};

struct FacilityDef {
  std::string_view name;
  unsigned stfle_bit;
  Generation first;
  Listing listing;
};

const FacilityDef& facility_def(Facility f);

// Does a machine of generation `arch` have facility `f`?
inline bool facility_installed(Facility f, Generation arch) { return facility_def(f).first <= arch; }

// The facility list STORE FACILITY LIST EXTENDED stores on a machine of `arch`, as
// doublewords (bit 0 the leftmost bit of the first), as long as its highest bit needs:
// the architectural bits (0: N3 installed, 2: z/Architecture active) and each listed
// facility the level has (with `system_mode`, the system-mode ones too) [Principles of
// Operation, "Facility Indications"].
std::vector<uint64_t> facility_list(Generation arch, bool system_mode = false);

// "z196" <-> Generation::Z196 (the spelling of machine.arch and of IBM's names).
std::string_view generation_name(Generation g);
std::optional<Generation> generation_named(std::string_view name);

}  // namespace emu
