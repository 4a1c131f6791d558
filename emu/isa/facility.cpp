#include "emu/isa/facility.h"

#include <array>

namespace emu {
namespace {

constexpr FacilityDef kFacilities[] = {
#define FACILITY(id, name, bit, generation) {name, bit, Generation::generation},
#include "emu/isa/facilities.def"
#undef FACILITY
};

constexpr std::array<std::string_view, 9> kGenerationNames = {"z900", "z990", "z9",  "z10", "z196",
                                                              "zEC12", "z13", "z14", "z15"};

}  // namespace

const FacilityDef& facility_def(Facility f) { return kFacilities[size_t(f)]; }

std::string_view generation_name(Generation g) { return kGenerationNames[size_t(g)]; }

std::optional<Generation> generation_named(std::string_view name) {
  for (size_t i = 0; i < kGenerationNames.size(); ++i)
    if (kGenerationNames[i] == name) return Generation(i);
  return std::nullopt;
}

}  // namespace emu
