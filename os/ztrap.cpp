#include "os/ztrap.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "config/config.h"
#include "config/number_text.h"
#include "os/guest/include/tpf_evm.h"

namespace os {

ZtrapEi::ZtrapEi(emu::Machine& machine, emu::AddressSpace& code, const emu::SymbolTable& symbols,
                 std::string object, uint64_t interval, std::function<std::string(unsigned)> running_program)
    : machine_(machine), code_(code), symbols_(symbols), object_(std::move(object)), interval_(interval ? interval : 1),
      running_program_(std::move(running_program)) {}

void ZtrapEi::set_sampling(bool on, uint64_t now) {
  for (unsigned i = 0; i < machine_.istreams(); ++i) {
    emu::Cpu& c = machine_.cpu(i);
    if (on) c.set_sampling(interval_, std::max(now, c.cycles) + interval_, this);
    else c.set_sampling(0, 0);
  }
}

void ZtrapEi::sample(unsigned istream, uint64_t address) {
  if (!on_) return;
  std::string program = running_program_ ? running_program_(istream) : std::string();
  if (program.empty()) program = "(no ECB)";
  if (!prog_.empty() && program.compare(0, prog_.size(), prog_) != 0) return;
  ++attributed_[program][{istream, address}];
}

// Where an address lies, named so that no two places share a name: its segment (the
// program slot it is in, or the image's system part: the TPF runtime, the heap, the
// locks), the source file of a static function, and the function.
ZtrapEi::Place ZtrapEi::place_of(uint64_t address) const {
  Place p;
  const emu::Symbol* s = symbols_.find(address);
  p.function = s ? s->name : fmt::format("{:#x}", address);
  p.file = s ? s->file : "";
  if (address >= TPF_EVM_PROGRAMS && address < TPF_EVM_IMAGE_END) {
    const uint64_t slot = address & ~uint64_t(TPF_EVM_PROGRAM_SLOT - 1);
    // The slot's program: its upper-case symbol (the entry the ECB enters), among the
    // symbols of the slot (the table is in address order).
    const auto& all = symbols_.all();
    auto x = std::lower_bound(all.begin(), all.end(), slot,
                              [](const emu::Symbol& s, uint64_t a) { return s.address < a; });
    for (; x != all.end() && x->address < slot + TPF_EVM_PROGRAM_SLOT; ++x)
      if (!x->name.empty() && std::all_of(x->name.begin(), x->name.end(), [](char c) {
            return std::isupper(uint8_t(c)) || std::isdigit(uint8_t(c));
          })) {
        p.segment = x->name;
        break;
      }
    if (p.segment.empty()) p.segment = "program";
  } else if (address >= TPF_EVM_IMAGE && address < TPF_EVM_PROGRAMS) {
    p.segment = "system";
  } else {
    p.segment = "other";
  }
  return p;
}

std::vector<ZtrapEi::ProgramView> ZtrapEi::by_ecb_program() const {
  std::vector<ProgramView> out;
  for (const auto& [program, samples] : attributed_) {
    ProgramView v;
    v.program = program;
    v.by_istream.assign(machine_.istreams(), 0);
    std::map<std::tuple<std::string, std::string, std::string>, uint64_t> places;
    for (const auto& [key, n] : samples) {
      v.samples += n;
      if (key.first < v.by_istream.size()) v.by_istream[key.first] += n;
      const Place p = place_of(key.second);
      places[{p.segment, p.file, p.function}] += n;
    }
    for (const auto& [k, n] : places) v.places.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k), n});
    std::stable_sort(v.places.begin(), v.places.end(), [](const Place& a, const Place& b) { return a.samples > b.samples; });
    out.push_back(std::move(v));
  }
  std::stable_sort(out.begin(), out.end(), [](const ProgramView& a, const ProgramView& b) { return a.samples > b.samples; });
  return out;
}

void ZtrapEi::write_by_program(std::ostream& out, const std::vector<ProgramView>& view, uint64_t total) const {
  auto pct = [](uint64_t n, uint64_t of) { return of ? 100.0 * double(n) / double(of) : 0.0; };
  fmt::print(out,
             "BY ECB PROGRAM, INCLUSIVE (samples)\n"
             "Each sample goes to the program in control of the running ECB (the one it entered, or one it ENTERed\n"
             "until its BACK), wherever it was: its own code and what it called (the heap, locks, the runtime).\n"
             "Under each program, where its samples fell: SEGMENT (the program slot, or system: the runtime, heap\n"
             "and locks), FILE (of a static function), FUNCTION.\n");
  std::string istreams;
  for (size_t i = 0; i < machine_.istreams(); ++i) istreams += fmt::format(" {:>9}", fmt::format("IS {:03}", i));
  fmt::print(out, "{:<30} {:>10} {:>7}{}\n", "PROGRAM", "SAMPLES", "PCT", istreams);
  if (view.empty()) {  // say why, rather than a header with nothing under it
    std::string named;
    for (const std::string& f : filters_)
      if (!f.empty()) named += (named.empty() ? "" : " or ") + f + "*";
    fmt::print(out, "(no sample: no ECB was in control of {} while ZTRAP EI was on)\n",
               named.empty() ? std::string("any program") : "a program named " + named);
  }
  for (const ProgramView& v : view) {
    std::string per;
    for (uint64_t n : v.by_istream) per += fmt::format(" {:>9}", cfg::grouped(n));
    fmt::print(out, "{:<30} {:>10} {:>6.2f}%{}\n", v.program, cfg::grouped(v.samples), pct(v.samples, total), per);
    for (const Place& p : v.places)
      fmt::print(out, "  {:<10} {:<16} {:<28} {:>10} {:>6.2f}% of {}\n", p.segment, p.file.empty() ? "-" : p.file,
                 p.function, cfg::grouped(p.samples), pct(p.samples, v.samples), v.program);
  }
  fmt::print(out, "\n");
}

report_json::Json ZtrapEi::by_program_json(const std::vector<ProgramView>& view) const {
  using report_json::Json;
  Json programs = Json::array();
  for (const ProgramView& v : view) {
    Json places = Json::array();
    for (const Place& p : v.places)
      places.push_back({{"segment", p.segment}, {"file", p.file}, {"function", p.function}, {"samples", p.samples}});
    programs.push_back(
        {{"program", v.program}, {"samples", v.samples}, {"by_istream", v.by_istream}, {"places", places}});
  }
  return programs;
}

void ZtrapEi::start(const std::string& prog, uint64_t now, uint64_t at_ns) {
  if (on_) return;  // the configuration check refuses this; a console would answer "already on"
  base_ = emu::slot_counts(code_);
  prog_ = prog;
  on_ = true;
  window_start_ns_ = at_ns;
  windows_.push_back(cfg::format_duration(at_ns) + "..end");
  filters_.push_back(prog);
  set_sampling(true, now);
}

void ZtrapEi::stop(uint64_t at_ns) {
  if (!on_) return;
  set_sampling(false, 0);
  for (auto& r : window_rows()) {
    auto [it, fresh] = acc_.try_emplace(r.address, r);
    if (!fresh) it->second.count += r.count, it->second.cycles += r.cycles, it->second.samples += r.samples;
  }
  on_ = false;
  base_.clear();
  std::string& w = windows_.back();
  w = w.substr(0, w.size() - 3) + cfg::format_duration(at_ns);
}

// The open window: the counters now minus the snapshot at START, filtered.
std::vector<emu::ProfileRow> ZtrapEi::window_rows() {
  std::vector<emu::SlotCounts> now = emu::slot_counts(code_), delta;
  size_t b = 0;
  for (const auto& c : now) {
    while (b < base_.size() && base_[b].address < c.address) ++b;
    emu::SlotCounts d = c;
    // The same instruction as at START: the difference. (A slot decoded again since,
    // with counters below the snapshot, counts from 0.)
    if (b < base_.size() && base_[b].address == c.address && base_[b].id == c.id && base_[b].count <= c.count &&
        base_[b].samples <= c.samples && base_[b].spent <= c.spent)
      d.count -= base_[b].count, d.spent -= base_[b].spent, d.samples -= base_[b].samples;
    if (d.count | d.samples) delta.push_back(d);
  }
  std::vector<emu::ProfileRow> rows = emu::profile_rows(delta, symbols_, object_);
  if (!prog_.empty())
    std::erase_if(rows, [&](const emu::ProfileRow& r) { return r.prog.compare(0, prog_.size(), prog_) != 0; });
  return rows;
}

std::vector<emu::ProfileRow> ZtrapEi::rows() {
  std::map<uint64_t, emu::ProfileRow> all = acc_;
  if (on_)
    for (auto& r : window_rows()) {
      auto [it, fresh] = all.try_emplace(r.address, r);
      if (!fresh) it->second.count += r.count, it->second.cycles += r.cycles, it->second.samples += r.samples;
    }
  // Each row's I-stream: the one its samples came from, when there is one.
  std::map<uint64_t, int> istream_of;
  for (const auto& [program, samples] : attributed_)
    for (const auto& [key, n] : samples) {
      auto [it, fresh] = istream_of.try_emplace(key.second, int(key.first));
      if (!fresh && it->second != int(key.first)) it->second = -1;
    }
  std::vector<emu::ProfileRow> out;
  out.reserve(all.size());
  for (auto& [a, r] : all) {
    if (auto it = istream_of.find(a); it != istream_of.end()) r.istream = it->second;
    out.push_back(std::move(r));
  }
  return out;
}

emu::EtimHeader ZtrapEi::header(const std::vector<emu::ProfileRow>& rows) const {
  emu::EtimHeader h;
  h.object = object_;
  h.sampled = true;
  h.interval = interval_;
  for (const auto& r : rows) h.instructions += r.count, h.cycles += r.cycles;
  for (size_t k = 0; k < windows_.size(); ++k) h.window += (k ? ", " : "") + windows_[k];
  bool same = std::all_of(filters_.begin(), filters_.end(), [&](const std::string& f) { return f == filters_.front(); });
  if (!filters_.empty()) {
    if (same) h.filter = filters_.front();
    else
      for (size_t k = 0; k < filters_.size(); ++k)
        h.filter += (k ? "|" : "") + (filters_[k].empty() ? std::string("*") : filters_[k]);
  }
  return h;
}

void ZtrapEi::write(std::ostream& text, std::ostream& json, size_t top_n) {
  std::vector<emu::ProfileRow> r = rows();
  emu::EtimHeader h = header(r);
  const std::vector<ProgramView> view = by_ecb_program();
  // The view's shares are of its own samples: with PROG=, the rows keep only the
  // functions named so, while the view keeps what the programs called too.
  uint64_t view_total = 0;
  for (const ProgramView& v : view) view_total += v.samples;
  emu::write_etim_text(text, h, r, top_n, [&](std::ostream& out) { write_by_program(out, view, view_total); });
  report_json::Json j = emu::etim_json(h, r);
  j["by_ecb_program"] = by_program_json(view);
  report_json::Layout layout = emu::kEtimLayout;
  layout.one_per_line.insert(layout.one_per_line.end(), {"by_ecb_program", "places"});
  report_json::write(json, j, layout);
}

}  // namespace os
