#include "emu/profiler.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>
#include <ostream>

#include "config/number_text.h"
#include "emu/isa/table.h"
#include "emu/jit/block_cache.h"

namespace emu {
using cfg::grouped;

std::vector<SlotCounts> slot_counts(AddressSpace& space) {
  std::vector<SlotCounts> out;
  space.for_each_page([&](uint64_t vaddr, const Frame& frame) {
    if (!frame.code) return;
    jit::fold_counts(*frame.code);  // compiled blocks count once per entry: make the slots exact
    for (unsigned k = 0; k < kPageSize / 2; ++k) {
      const Insn& in = frame.code->slot[k];
      const uint64_t samples = frame.code->samples_at(k);
      if (!in.fn || !(in.count | samples)) continue;
      out.push_back({vaddr + 2 * k, in.count, in.spent(), samples, in.id});
    }
  });
  return out;
}

std::vector<ProfileRow> profile_rows(const std::vector<SlotCounts>& slots, const SymbolTable& symbols,
                                     const std::string& fallback_prog) {
  std::vector<ProfileRow> rows;
  rows.reserve(slots.size());
  auto table = instruction_table();
  for (const auto& c : slots) {
    ProfileRow r;
    r.address = c.address;
    const Symbol* s = symbols.find(r.address);
    r.prog = s ? symbols.display_name(*s) : fallback_prog;
    r.disp = s ? r.address - s->address : r.address;
    r.inst = c.id < table.size() ? table[c.id].mnemonic : "?";
    r.count = c.count;
    r.cycles = c.spent;
    r.samples = c.samples;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<ProfileRow> collect_profile(AddressSpace& space, const SymbolTable& symbols,
                                        const std::string& fallback_prog) {
  std::vector<SlotCounts> slots = slot_counts(space);
  std::erase_if(slots, [](const SlotCounts& c) { return c.count == 0; });
  return profile_rows(slots, symbols, fallback_prog);
}

namespace {
double pct(uint64_t part, uint64_t total) { return total ? 100.0 * double(part) / double(total) : 0.0; }

// One program's rows, and their sums.
struct ProgramRows {
  std::string prog;
  std::vector<const ProfileRow*> rows;
  uint64_t count = 0, executions = 0, cycles = 0;
};

// Rows grouped by program in order of first appearance (address order), each
// program's rows by displacement. When sampled, rows without samples are left out.
std::vector<ProgramRows> by_program(const EtimHeader& h, const std::vector<ProfileRow>& rows) {
  std::vector<ProgramRows> out;
  std::map<std::string, size_t> index;
  for (const auto& r : rows) {
    auto [at, added] = index.try_emplace(r.prog, out.size());
    if (added) out.push_back({r.prog, {}, 0, 0, 0});
    ProgramRows& p = out[at->second];
    if (!h.sampled || r.samples) p.rows.push_back(&r);   // listed; counted either way
    p.count += etim_count(h, r), p.executions += r.count, p.cycles += r.cycles;
  }
  for (auto& p : out)
    std::stable_sort(p.rows.begin(), p.rows.end(), [](auto* a, auto* b) { return a->disp < b->disp; });
  return out;
}

// The programs by COUNT (ties in address order): where the time went, before the rows.
// EXECUTIONS only when COUNT is samples (otherwise it is COUNT).
void write_program_summary(std::ostream& out, const EtimHeader& h, std::vector<ProgramRows> programs, uint64_t total,
                           size_t prog_width) {
  std::stable_sort(programs.begin(), programs.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
  fmt::print(out, "PROGRAMS BY COUNT ({})\n", h.sampled ? "samples" : "executions");
  fmt::print(out, "{:<{}} {:>14} {:>7}{} {:>18}\n", "PROG", prog_width, "COUNT", "PCT",
             h.sampled ? fmt::format(" {:>16}", "EXECUTIONS") : "", "CYCLES");
  for (const auto& p : programs)
    fmt::print(out, "{:<{}} {:>14} {:>6.2f}%{} {:>18}\n", p.prog, prog_width, grouped(p.count), pct(p.count, total),
               h.sampled ? fmt::format(" {:>16}", grouped(p.executions)) : "", grouped(p.cycles));
  fmt::print(out, "\n");
}
}  // namespace

void write_etim_text(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows,
                     size_t top_n, const std::function<void(std::ostream&)>& after_summary) {
  const char* what = h.sampled ? "samples" : "executions";
  uint64_t total = 0;
  size_t prog_width = 20;  // the PROG column fits the longest name (a C++ symbol can be long)
  for (const auto& r : rows) {
    total += etim_count(h, r);
    if (!h.sampled || r.samples) prog_width = std::max(prog_width, r.prog.size());
  }
  fmt::print(out, "ETIM INSTRUCTION COUNT REPORT   OBJECT {}   INSTRUCTIONS {}   CYCLES {}{}\n", h.object,
             grouped(h.instructions), grouped(h.cycles),
             h.elapsed_cycles ? fmt::format(" (CPU, {} I-STREAM{})   ELAPSED {}", h.istreams, h.istreams == 1 ? "" : "S",
                                            grouped(h.elapsed_cycles))
                              : "");
  if (h.sampled) {
    fmt::print(out, "ZTRAP EI {}   PROG={}   SAMPLE EVERY {} CYCLES PER I-STREAM   SAMPLES {}\n",
               h.window.empty() ? "collection" : "window " + h.window, h.filter.empty() ? "*" : h.filter + "*",
               grouped(h.interval), grouped(total));
    fmt::print(out,
               "COUNT is samples: the instruction each I-stream was executing when its clock passed a sample\n"
               "point (time-weighted: a stall shows up often). EXECUTIONS and CYCLES are exact, for the same\n"
               "window; a program's add up over all its rows, listed or not, to the header's. P = problem\n"
               "state, then the I-stream its samples came from (***: several).\n\n");
  } else {
    fmt::print(out,
               "COUNT is exact executions; CYCLES the simulated cycles they took (storage references included).\n"
               "{}{}, then the I-stream number.\n\n",
               h.elapsed_cycles ? "The header's CYCLES is the rows' sum, the CPU cycles of all I-streams; ELAPSED the "
                                  "simulated time\nfrom start to end (on one I-stream that never waits, the two are the same).\n"
                                : "",
               h.states ? "S = supervisor state, P = problem state, B = both (or run while I-streams were in different\n"
                          "states)"
                        : "P = problem state");
  }

  const std::vector<ProgramRows> programs = by_program(h, rows);
  write_program_summary(out, h, programs, total, prog_width);
  if (after_summary) after_summary(out);
  // The listing: a line per program (SSU, PROG - OBJECT, its share), then its rows:
  // P and the I-stream, DISP from the program's start, the instruction and figures.
  auto executions = [&](const std::string& v) { return h.sampled ? fmt::format(" {:>16}", v) : std::string(); };
  fmt::print(out, "SSU  PROG - OBJECT   (COUNT, PCT)\n");
  fmt::print(out, "{:<5} {:<16} {:<8} {:>14}{} {:>18}\n", "P IS", "DISP", "INST", "COUNT", executions("EXECUTIONS"),
             "CYCLES");
  for (const auto& p : programs) {
    if (p.rows.empty()) continue;   // executed, never sampled: in the summary only
    fmt::print(out, "{:<4} {} - {}   ({} {}, {:.2f}%)\n", h.ssu, p.prog, h.object, grouped(p.count), what,
               pct(p.count, total));
    for (auto* r : p.rows) {
      const std::string is = !h.sampled ? fmt::format("{:03}", h.istream)
                             : r->istream >= 0 ? fmt::format("{:03}", r->istream) : std::string("***");
      fmt::print(out, "{} {} {:016X} {:<8} {:>14}{} {:>18}\n", r->state, is, r->disp, r->inst, grouped(etim_count(h, *r)),
                 executions(grouped(r->count)), grouped(r->cycles));
    }
  }

  std::vector<const ProfileRow*> top;
  for (const auto& r : rows)
    if (etim_count(h, r)) top.push_back(&r);
  std::stable_sort(top.begin(), top.end(),
                   [&](auto* a, auto* b) { return etim_count(h, *a) > etim_count(h, *b); });
  if (top.size() > top_n) top.resize(top_n);
  fmt::print(out, "\nTOP {} INSTRUCTIONS BY COUNT ({})\n", top.size(), what);
  fmt::print(out, "{:<{}} {:<16} {:<8} {:>14} {:>7}\n", "PROG", prog_width, "DISP", "INST", "COUNT", "PCT");
  for (auto* r : top)
    fmt::print(out, "{:<{}} {:016X} {:<8} {:>14} {:>6.2f}%\n", r->prog, prog_width, r->disp, r->inst,
               grouped(etim_count(h, *r)), pct(etim_count(h, *r), total));
}

report_json::Json etim_json(const EtimHeader& h, const std::vector<ProfileRow>& rows) {
  using report_json::Json;
  uint64_t total = 0;
  for (const auto& r : rows) total += etim_count(h, r);
  Json j = {{"object", h.object},
            {"instructions", h.instructions},
            {"cycles", h.cycles},
            {"count_is", h.sampled ? "samples" : "executions"},
            {"interval", h.interval},
            {"window", h.window},
            {"prog_filter", h.filter},
            {"total_count", total},
            {"rows", Json::array()}};
  if (h.elapsed_cycles) {  // tpfemu exec: cycles is the CPU of all I-streams, this the time
    j["elapsed_cycles"] = h.elapsed_cycles;
    j["istreams"] = h.istreams;
  }
  Json& out = j["rows"];
  for (const auto& r : rows)
    out.push_back({{"ssu", h.ssu},
                   {"istream", h.sampled ? r.istream : int(h.istream)},
                   {"prog", r.prog},
                   {"disp", r.disp},
                   {"address", r.address},
                   {"inst", r.inst},
                   {"count", etim_count(h, r)},
                   {"executions", r.count},
                   {"cycles", r.cycles}});
  if (h.states)  // (only then: run's and exec's reports keep their bytes)
    for (size_t k = 0; k < rows.size(); ++k) out[k]["state"] = std::string(1, rows[k].state);
  return j;
}

void write_etim_json(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows) {
  report_json::write(out, etim_json(h, rows), kEtimLayout);
}

}  // namespace emu
