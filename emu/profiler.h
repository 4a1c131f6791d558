// The instruction profiler: per (program, displacement, mnemonic) the exact
// executions and cycles, and the time-weighted samples of ZTRAP EI, taken from the
// decode cache's per-address counters (Insn::count and spent(), DecodedPage::samples);
// and the ETIM instruction count report (layout of z/TPF's ZTRAP EI software profiler).
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "emu/address_space.h"
#include "emu/elf_loader.h"
#include "report/report_json.h"

namespace emu {

// The counters of one decoded instruction slot.
struct SlotCounts {
  uint64_t address = 0;
  uint64_t count = 0;    // executions
  uint64_t spent = 0;    // cycles, storage references included
  uint64_t samples = 0;  // profiler samples
  uint16_t id = 0;       // instruction table line
};

// Every slot of `space` that executed or was sampled, in address order.
std::vector<SlotCounts> slot_counts(AddressSpace& space);

struct ProfileRow {
  std::string prog;   // the symbol (function) the instruction lies in
  uint64_t disp = 0;  // offset of the instruction from the start of `prog`
  uint64_t address = 0;
  std::string inst;     // mnemonic
  uint64_t count = 0;   // executions
  uint64_t cycles = 0;  // cycles those executions took (storage references included)
  uint64_t samples = 0; // ZTRAP EI samples that found it executing (time-weighted)
  int istream = -1;     // the one I-stream its samples came from; -1: several, or none known
  // The state it ran in: P problem (all of run's and exec's programs), or under tpfemu ipl
  // S supervisor, P problem, B both (EtimHeader::states).
  char state = 'P';
};

// Rows for the given slots (address order kept), named from the symbols.
std::vector<ProfileRow> profile_rows(const std::vector<SlotCounts>& slots, const SymbolTable& symbols,
                                     const std::string& fallback_prog);
// Rows for every executed instruction of `space`, in address order.
std::vector<ProfileRow> collect_profile(AddressSpace& space, const SymbolTable& symbols,
                                        const std::string& fallback_prog);

struct EtimHeader {
  std::string object;       // the program image, e.g. "demo.elf"
  std::string ssu = "BSS";  // subsystem user, as ZTRAP EI names it
  unsigned istream = 0;
  uint64_t instructions = 0;
  uint64_t cycles = 0;      // what the rows add up to: the CPU cycles of all I-streams
  // tpfemu exec: the simulated time from start to end (0: not given) and the I-streams
  // that ran, so that CYCLES (CPU) and elapsed time are never mistaken for each other.
  uint64_t elapsed_cycles = 0;
  unsigned istreams = 0;
  // Sampled (ZTRAP EI): COUNT is samples, and the rows also show executions and
  // cycles. Not sampled (tpfemu exec --profile): COUNT is exact executions.
  bool sampled = false;
  uint64_t interval = 0;    // cycles between samples, per I-stream
  std::string window;       // what the report covers, e.g. "2ms..10ms", for people
  std::string filter;       // PROG= of the collection ("" : every program)
  // tpfemu ipl: the rows' states are their own (S, P or B), said so in the legend and
  // given in the JSON; else every row is P (problem state), as run's and exec's programs.
  bool states = false;
};

// COUNT of a row: samples when sampled, executions otherwise.
inline uint64_t etim_count(const EtimHeader& h, const ProfileRow& r) { return h.sampled ? r.samples : r.count; }

// Text report: grouped by program (first address order), rows by displacement, then
// the top rows by COUNT with their percentage. When sampled, rows without samples
// are left out of the listing (they stay in the JSON) but not out of their program's
// EXECUTIONS and CYCLES, which add up to the header's. `after_summary`, if given, writes
// a section of the caller's after the programs' summary (ZTRAP's view by ECB program).
void write_etim_text(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows,
                     size_t top_n = 20, const std::function<void(std::ostream&)>& after_summary = {});
// The same rows as JSON: {"object":..., "rows":[{ssu, istream, prog, disp, address, inst,
// count, executions, cycles}]}; count is COUNT (samples when sampled). A caller with
// more to say (ZTRAP's view by ECB program) adds members to etim_json's and writes it
// with kEtimLayout's one_per_line and its own.
report_json::Json etim_json(const EtimHeader& h, const std::vector<ProfileRow>& rows);
inline const report_json::Layout kEtimLayout{.one_per_line = {"rows"}};
void write_etim_json(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows);

}  // namespace emu
