#include "emu/profiler.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>
#include <ostream>

#include "emu/isa/table.h"

namespace emu {

std::vector<ProfileRow> collect_profile(AddressSpace& space, const SymbolTable& symbols,
                                        const std::string& fallback_prog) {
  std::vector<ProfileRow> rows;
  auto table = instruction_table();
  space.for_each_page([&](uint64_t vaddr, const Frame& frame) {
    if (!frame.code) return;
    for (unsigned k = 0; k < kPageSize / 2; ++k) {
      const Insn& in = frame.code->slot[k];
      if (!in.fn || !in.count) continue;
      ProfileRow r;
      r.address = vaddr + 2 * k;
      const Symbol* s = symbols.find(r.address);
      r.prog = s ? s->name : fallback_prog;
      r.disp = s ? r.address - s->address : r.address;
      r.inst = table[in.id].mnemonic;
      r.count = in.count;
      r.cycles = in.count * table[in.id].cycles;
      rows.push_back(std::move(r));
    }
  });
  return rows;
}

void write_etim_text(std::ostream& out, const EtimHeader& h, const std::vector<ProfileRow>& rows,
                     size_t top_n) {
  uint64_t total = 0;
  for (const auto& r : rows) total += r.count;
  fmt::print(out, "ETIM INSTRUCTION COUNT REPORT   OBJECT {}   INSTRUCTIONS {}   CYCLES {}\n",
             h.object, h.instructions, h.cycles);
  fmt::print(out, "COUNT is exact executions; P = problem state, then the I-stream number.\n\n");

  // Group by program in order of first appearance (address order), rows by displacement.
  std::map<std::string, std::vector<const ProfileRow*>> by_prog;
  std::vector<std::string> order;
  for (const auto& r : rows) {
    auto& v = by_prog[r.prog];
    if (v.empty()) order.push_back(r.prog);
    v.push_back(&r);
  }
  fmt::print(out, "{:<4} {:<20} {:<16} {:<8} {:>12}\n", "SSU", "PROG", "DISP", "INST", "COUNT");
  for (const auto& prog : order) {
    auto& v = by_prog[prog];
    std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->disp < b->disp; });
    uint64_t sum = 0;
    for (auto* r : v) sum += r->count;
    fmt::print(out, "{:<4} {} - {}   ({} executions, {:.2f}%)\n", h.ssu, prog, h.object, sum,
               total ? 100.0 * double(sum) / double(total) : 0.0);
    for (auto* r : v)
      fmt::print(out, "P {:03} {:016X} {:<8} {:>12}\n", h.istream, r->disp, r->inst, r->count);
  }

  std::vector<const ProfileRow*> top;
  for (const auto& r : rows) top.push_back(&r);
  std::stable_sort(top.begin(), top.end(), [](auto* a, auto* b) { return a->count > b->count; });
  if (top.size() > top_n) top.resize(top_n);
  fmt::print(out, "\nTOP {} INSTRUCTIONS BY COUNT\n", top.size());
  fmt::print(out, "{:<20} {:<16} {:<8} {:>12} {:>7}\n", "PROG", "DISP", "INST", "COUNT", "PCT");
  for (auto* r : top)
    fmt::print(out, "{:<20} {:016X} {:<8} {:>12} {:>6.2f}%\n", r->prog, r->disp, r->inst, r->count,
               total ? 100.0 * double(r->count) / double(total) : 0.0);
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
  fmt::print(out, "{{\n  \"object\": \"{}\",\n  \"instructions\": {},\n  \"cycles\": {},\n  \"rows\": [",
             json_escape(h.object), h.instructions, h.cycles);
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    fmt::print(out,
               "{}\n    {{\"ssu\": \"{}\", \"istream\": {}, \"prog\": \"{}\", \"disp\": {}, \"address\": {}, "
               "\"inst\": \"{}\", \"count\": {}, \"cycles\": {}}}",
               k ? "," : "", json_escape(h.ssu), h.istream, json_escape(r.prog), r.disp, r.address, r.inst,
               r.count, r.cycles);
  }
  fmt::print(out, "\n  ]\n}}\n");
}

}  // namespace emu
