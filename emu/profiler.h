// The instruction profiler: exact executions per (program, displacement,
// mnemonic), taken from the decode cache's per-address counters, and the ETIM
// instruction count report (layout of z/TPF's ZTRAP EI software profiler).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "emu/address_space.h"
#include "emu/elf_loader.h"

namespace emu {

struct ProfileRow {
  std::string prog;   // the symbol (function) the instruction lies in
  uint64_t disp = 0;  // offset of the instruction from the start of `prog`
  uint64_t address = 0;
  std::string inst;   // mnemonic
  uint64_t count = 0;   // executions
  uint64_t cycles = 0;  // base cycles of those executions
};

// Rows for every executed instruction, in address order.
std::vector<ProfileRow> collect_profile(AddressSpace& space, const SymbolTable& symbols,
                                        const std::string& fallback_prog);

struct EtimHeader {
  std::string object;   // the program image, e.g. "demo.elf"
  std::string ssu = "BSS";  // subsystem user, as ZTRAP EI names it
  unsigned istream = 0;
  uint64_t instructions = 0;
  uint64_t cycles = 0;
};

// Text report: grouped by program, rows by displacement, then the top rows by count.
void write_etim_text(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows,
                     size_t top_n = 20);
// The same rows as JSON: {"object":..., "rows":[{ssu, prog, disp, inst, count, cycles}]}.
void write_etim_json(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows);

std::string json_escape(const std::string& s);

}  // namespace emu
