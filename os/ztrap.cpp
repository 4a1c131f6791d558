#include "os/ztrap.h"

#include <algorithm>
#include <fmt/format.h>

#include "emu/config.h"

namespace os {

ZtrapEi::ZtrapEi(emu::Machine& machine, emu::AddressSpace& code, const emu::SymbolTable& symbols,
                 std::string object, uint64_t interval)
    : machine_(machine), code_(code), symbols_(symbols), object_(std::move(object)), interval_(interval ? interval : 1) {}

void ZtrapEi::set_sampling(bool on, uint64_t now) {
  for (unsigned i = 0; i < machine_.istreams(); ++i) {
    emu::Cpu& c = machine_.cpu(i);
    if (on) c.set_sampling(interval_, std::max(now, c.cycles) + interval_);
    else c.set_sampling(0, 0);
  }
}

void ZtrapEi::start(const std::string& prog, uint64_t now, uint64_t at_ns) {
  if (on_) return;  // the configuration check refuses this; a console would answer "already on"
  base_ = emu::slot_counts(code_);
  prog_ = prog;
  on_ = true;
  window_start_ns_ = at_ns;
  windows_.push_back(emu::format_duration(at_ns) + "..end");
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
  w = w.substr(0, w.size() - 3) + emu::format_duration(at_ns);
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
  std::vector<emu::ProfileRow> out;
  out.reserve(all.size());
  for (auto& [a, r] : all) out.push_back(std::move(r));
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
  emu::write_etim_text(text, h, r, top_n);
  emu::write_etim_json(json, h, r);
}

}  // namespace os
