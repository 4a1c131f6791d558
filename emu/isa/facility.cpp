#include "emu/isa/facility.h"

#include <array>

namespace emu {
namespace {

constexpr FacilityDef kFacilities[] = {
#define FACILITY(id, name, bit, generation, listed) {name, bit, Generation::generation, Listing::listed},
#include "emu/isa/facilities.def"
#undef FACILITY
};

constexpr std::array<std::string_view, 9> kGenerationNames = {"z900", "z990", "z9",  "z10", "z196",
                                                              "zEC12", "z13", "z14", "z15"};

}  // namespace

const FacilityDef& facility_def(Facility f) { return kFacilities[size_t(f)]; }

std::vector<uint64_t> facility_list(Generation arch, bool system_mode) {
  std::vector<unsigned> bits = {0, 2};  // N3 installed; z/Architecture architectural mode active
  for (const FacilityDef& f : kFacilities)
    if ((f.listing == Listing::Listed || (system_mode && f.listing == Listing::SystemMode)) && f.first <= arch)
      bits.push_back(f.stfle_bit);
  unsigned highest = 0;
  for (unsigned b : bits) highest = b > highest ? b : highest;
  std::vector<uint64_t> list(highest / 64 + 1, 0);
  for (unsigned b : bits) list[b / 64] |= 1ull << (63 - b % 64);
  return list;
}

std::string_view generation_name(Generation g) { return kGenerationNames[size_t(g)]; }

std::optional<Generation> generation_named(std::string_view name) {
  for (size_t i = 0; i < kGenerationNames.size(); ++i)
    if (kGenerationNames[i] == name) return Generation(i);
  return std::nullopt;
}

}  // namespace emu
