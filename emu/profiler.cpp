#include "emu/profiler.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>
#include <ostream>

#include "emu/isa/table.h"

namespace emu {

std::vector<SlotCounts> slot_counts(AddressSpace& space) {
  std::vector<SlotCounts> out;
  space.for_each_page([&](uint64_t vaddr, const Frame& frame) {
    if (!frame.code) return;
    for (unsigned k = 0; k < kPageSize / 2; ++k) {
      const Insn& in = frame.code->slot[k];
      if (!in.fn || !(in.count | in.samples)) continue;
      out.push_back({vaddr + 2 * k, in.count, in.spent, in.samples, in.id});
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
    r.prog = s ? s->name : fallback_prog;
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
}  // namespace

void write_etim_text(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows,
                     size_t top_n) {
  const char* what = h.sampled ? "samples" : "executions";
  uint64_t total = 0;
  for (const auto& r : rows) total += etim_count(h, r);
  fmt::print(out, "ETIM INSTRUCTION COUNT REPORT   OBJECT {}   INSTRUCTIONS {}   CYCLES {}\n",
             h.object, h.instructions, h.cycles);
  if (h.sampled) {
    fmt::print(out, "ZTRAP EI {}   PROG={}   SAMPLE EVERY {} CYCLES PER I-STREAM   SAMPLES {}\n",
               h.window.empty() ? "collection" : "window " + h.window, h.filter.empty() ? "*" : h.filter + "*",
               h.interval, total);
    fmt::print(out,
               "COUNT is samples: the instruction each I-stream was executing when its clock passed a sample\n"
               "point (time-weighted: a stall shows up often). EXECUTIONS and CYCLES are exact, for the same\n"
               "window. P = problem state, then the I-stream (000: all I-streams; the counters are shared).\n\n");
  } else {
    fmt::print(out, "COUNT is exact executions; P = problem state, then the I-stream number.\n\n");
  }

  // Group by program in order of first appearance (address order), rows by displacement.
  std::map<std::string, std::vector<const ProfileRow*>> by_prog;
  std::vector<std::string> order;
  for (const auto& r : rows) {
    if (h.sampled && r.samples == 0) continue;
    auto& v = by_prog[r.prog];
    if (v.empty()) order.push_back(r.prog);
    v.push_back(&r);
  }
  if (h.sampled)
    fmt::print(out, "{:<4} {:<20} {:<16} {:<8} {:>12} {:>14} {:>16}\n", "SSU", "PROG", "DISP", "INST", "COUNT",
               "EXECUTIONS", "CYCLES");
  else
    fmt::print(out, "{:<4} {:<20} {:<16} {:<8} {:>12}\n", "SSU", "PROG", "DISP", "INST", "COUNT");
  for (const auto& prog : order) {
    auto& v = by_prog[prog];
    std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->disp < b->disp; });
    uint64_t sum = 0;
    for (auto* r : v) sum += etim_count(h, *r);
    fmt::print(out, "{:<4} {} - {}   ({} {}, {:.2f}%)\n", h.ssu, prog, h.object, sum, what, pct(sum, total));
    for (auto* r : v) {
      if (h.sampled)
        fmt::print(out, "P {:03} {:016X} {:<8} {:>12} {:>14} {:>16}\n", h.istream, r->disp, r->inst, r->samples,
                   r->count, r->cycles);
      else
        fmt::print(out, "P {:03} {:016X} {:<8} {:>12}\n", h.istream, r->disp, r->inst, r->count);
    }
  }

  std::vector<const ProfileRow*> top;
  for (const auto& r : rows)
    if (etim_count(h, r)) top.push_back(&r);
  std::stable_sort(top.begin(), top.end(),
                   [&](auto* a, auto* b) { return etim_count(h, *a) > etim_count(h, *b); });
  if (top.size() > top_n) top.resize(top_n);
  fmt::print(out, "\nTOP {} INSTRUCTIONS BY COUNT ({})\n", top.size(), what);
  fmt::print(out, "{:<20} {:<16} {:<8} {:>12} {:>7}\n", "PROG", "DISP", "INST", "COUNT", "PCT");
  for (auto* r : top)
    fmt::print(out, "{:<20} {:016X} {:<8} {:>12} {:>6.2f}%\n", r->prog, r->disp, r->inst, etim_count(h, *r),
               pct(etim_count(h, *r), total));
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\', o += char(ch);
    else if (ch < 0x20) o += fmt::format("\\u{:04x}", ch);
    else o += char(ch);
  }
  return o;
}

void write_etim_json(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows) {
  uint64_t total = 0;
  for (const auto& r : rows) total += etim_count(h, r);
  fmt::print(out,
             "{{\n  \"object\": \"{}\",\n  \"instructions\": {},\n  \"cycles\": {},\n  \"count_is\": \"{}\",\n"
             "  \"interval\": {},\n  \"window\": \"{}\",\n  \"prog_filter\": \"{}\",\n  \"total_count\": {},\n"
             "  \"rows\": [",
             json_escape(h.object), h.instructions, h.cycles, h.sampled ? "samples" : "executions", h.interval,
             json_escape(h.window), json_escape(h.filter), total);
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    fmt::print(out,
               "{}\n    {{\"ssu\": \"{}\", \"istream\": {}, \"prog\": \"{}\", \"disp\": {}, \"address\": {}, "
               "\"inst\": \"{}\", \"count\": {}, \"executions\": {}, \"cycles\": {}}}",
               k ? "," : "", json_escape(h.ssu), h.istream, json_escape(r.prog), r.disp, r.address, r.inst,
               etim_count(h, r), r.count, r.cycles);
  }
  fmt::print(out, "\n  ]\n}}\n");
}

}  // namespace emu
