// Member lists: what a library is built from. A text file, one member a line:
//   NAME SIZE [entry=N] [rld=N] [csects=N] [externals=N] [aliases=A,B] [initial=N] [rent] [reus] [refr]
// sizes and numbers in decimal, 0x hex, or with K / M (x1024, x1024^2); '#' begins a
// comment. And a synthetic SYS1.LINKLIB-like list (its distribution stated below).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fetch/load_module.h"

namespace fetch {

// Throws std::invalid_argument naming the line ("members.txt:12: ...").
std::vector<MemberSpec> parse_member_list(const std::string& text, const std::string& source_name);

// A synthetic library like SYS1.LINKLIB, the same for the same (count, seed). Seed 001
// copied a z/OS 2.3 SYS1.LINKLIB whose member sizes it does not give; ours are ESTIMATES:
//   - IEFBR14 (8 bytes, the seed's) and ARCCTL (4 MB, the seed's) among them;
//   - the others' sizes log-uniform between 256 bytes and 1 MB (many small modules, a few
//     large: the shape of a system library), from a fixed-seed generator;
//   - one relocatable address constant per 128 bytes of text; one control section per
//     32 KB (at most 64) and as many external references; every tenth member one alias.
std::vector<MemberSpec> synthetic_linklib(uint32_t count = 300, uint64_t seed = 1);

std::string member_list_text(const std::vector<MemberSpec>& members);   // parse_member_list's format

}  // namespace fetch
