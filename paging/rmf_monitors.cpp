// RMF's online monitors from a paging run, a block per timeline interval (system.timeline):
// Monitor III's STORF (storage frames by job; rmfstorf.txt/.json) and Monitor II's PGSP
// (page data set activity, SCM's line with them; rmfpgsp.txt/.json), in seed 002's
// layouts. The fields mean what z/OS RMF Report Analysis (SC34-2665) says of the
// "STORF - Storage Frames report" and of Monitor II's "PGSP - Page Data Set Activity",
// mapped onto this model:
//
// STORF, a row per process (an address space; its job name: its first ECB's program),
// most frames first, taken at the end of the interval (one sample: Samples: 1):
// - Frame Occup. TOTAL: its frames, its resident 4 KB pages plus 256 for each resident
//   1 MB page; ACTV: TOTAL if it ran in the interval (its ECBs used CPU time, or one
//   runs now), else 0; IDLE: the other way round;
// - Active Frames WSET: its working set while active: its frames when it ran (a page
//   resident at the end of an interval it ran in was kept by its references); FIXED: the
//   frames paging may not steal from it: its page-fixed segments' (a fixed heap,
//   system.ecb_heap.fixed: 256 for each 1 MB); the system's fixed frames (the image and
//   the system area) belong to no job; DIV: 0, no
//   data-in-virtual object (DIV maps a VSAM linear data set; nothing here maps one);
// - AUX SLOTS: the 4 KB slots its pages hold on page data sets and SCM (256 for a 1 MB
//   page on SCM), out or with a valid copy; PGIN RATE: the pages read back into it from
//   auxiliary storage (faults, the speculative pages with them, 1 MB pages) a second;
// - C, Service Class, Cr: there is no WLM here, so no service class ("N/A") and no
//   storage- or CPU-critical mark (blank); C is S, as RMF shows a started task: every
//   process is started by the control program, none is a batch job, TSO user or OMVS
//   process in z/OS's sense.
//
// PGSP, a line per data set of Paging::data_sets() (the one list D ASM and Monitor I
// show), in delta mode: the interval's figures (the seed's screen reads "Total" and shows
// dashes for the transfer time and the request rate):
// - %SLOTS IN USE: D ASM's figure (its slots in use at the end of the interval), to
//   two decimals; PAGE TRAN TIME: the interval's I/O time over the pages moved, seconds
//   a page (dashes: none moved); I/O REQ RATE: paging's requests started in the interval
//   a second; AVG PAGES PER I/O: their pages over them; V: it accepts VIO pages;
// - the header: CPU= the I-streams' busy % over the interval; UIC= the highest
//   unreferenced interval count of a resident page, in seconds (z/OS's is in seconds);
//   PR= pages read in from auxiliary storage a second, all processes and PLPA pages.
//
// The cost: at each interval end, a count per segment of every process's address space
// and one walk of the pages paging holds for it (less than the aging pass paging makes
// every system.paging.uic_interval), and the per-device figures copied.
#include <algorithm>
#include <fmt/format.h>

#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "os/simulated_time.h"
#include "paging/paging.h"

namespace paging {

struct Paging::RmfMonitors {
  struct Job {
    uint64_t asid = 0;  // the process's id
    std::string name;
    bool active = false;
    uint64_t frames = 0, aux_slots = 0, fixed = 0, page_ins = 0;
  };
  struct Storf {
    uint64_t start = 0, end = 0;  // cycles
    std::vector<Job> jobs{};
  };
  struct Set {
    DataSet set;
    double slots_percent = 0;
    uint64_t requests = 0, pages = 0, io_cycles = 0;
  };
  struct Pgsp {
    uint64_t start = 0, end = 0;
    double cpu_percent = 0, uic_s = 0;
    uint64_t pages_in = 0;
    std::vector<Set> sets{};
  };
  std::vector<Storf> storf;
  std::vector<Pgsp> pgsp;
  // The counts at the last interval's end, to take the next one's differences from.
  uint64_t last_end = 0, last_busy = 0, last_pages_in = 0;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> seen;  // process id -> (CPU cycles, pages in)
  std::vector<Activity> last_activity;
  // The blocks of the interval ending `now`; `uic`: the highest count of a resident page.
  Storf storf_block(const Paging& pg, uint64_t now, uint32_t& uic);
  Job job(const Paging& pg, os::Process& p, uint32_t& uic) const;
  Pgsp pgsp_block(const Paging& pg, uint64_t now, uint32_t uic);
};

namespace {
// A frame count in a 5-wide column: RMF's K beyond it.
std::string frames5(uint64_t v) { return v > 99999 ? fmt::format("{}K", v / 1000) : std::to_string(v); }

// `v` to `decimals` places, or fewer so that it fits `width` (RMF's fixed columns).
std::string fit(double v, size_t width, int decimals) {
  std::string t = fmt::format("{:.{}f}", v, decimals);
  while (t.size() > width && decimals > 0) t = fmt::format("{:.{}f}", v, --decimals);
  return t;
}

// STORF's columns: Jobname C Service-class Cr, then the counts 5 wide, PGIN RATE last
// (seed 002's positions).
constexpr const char* kStorfRow = "{:<8} {:1} {:<8}{:<2} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {}";
// PGSP's: S/T, volume serial, device number and type, then the figures.
constexpr const char* kPgspRow = "{:1} {:<6} {:<4} {:<5} {:>8} {:>9} {:>7} {:>9} {:1}  {}";
}  // namespace

void Paging::install_rmf(os::System& system) {
  if (system.config().system.timeline_s <= 0) return;
  rmf_ = std::make_shared<RmfMonitors>();
  system.on_timeline_interval([this](uint64_t now) { rmf_interval(now); });
  system.add_report({.name = "rmfstorf.txt", .write = [this](std::ostream& out) { write_storf_text(out); }});
  system.add_report({.name = "rmfstorf.json", .write = [this](std::ostream& out) { write_storf_json(out); }});
  system.add_report({.name = "rmfpgsp.txt", .write = [this](std::ostream& out) { write_pgsp_text(out); }});
  system.add_report({.name = "rmfpgsp.json", .write = [this](std::ostream& out) { write_pgsp_json(out); }});
}

// The end of a timeline interval: a STORF and a PGSP block.
void Paging::rmf_interval(uint64_t now) {
  RmfMonitors& r = *rmf_;
  uint32_t uic = 0;
  r.storf.push_back(r.storf_block(*this, now, uic));
  r.pgsp.push_back(r.pgsp_block(*this, now, uic));
  r.last_end = now;
}

// A job's row: its frames, its slots, its page-ins since the last interval, whether it ran.
Paging::RmfMonitors::Job Paging::RmfMonitors::job(const Paging& pg, os::Process& p, uint32_t& uic) const {
  Job j{.asid = p.id, .name = p.name};
  j.frames = p.space->owned_frames();
  static const ProcessPages kNone;
  const auto it = pg.processes_.find(p.id);  // paging adopts every process at its start
  const ProcessPages& pp = it == pg.processes_.end() ? kNone : it->second;
  j.fixed = pp.fixed.size() * kPagesPerSegment;  // the heap fixes whole segments, mapped as it fixes them
  for (const auto [va, page] : pp.pages) {
    j.aux_slots += page.slot.device >= 0;
    if (page.state == State::Resident) uic = std::max(uic, pg.aging_.uic(page.aging));
  }
  for (const auto& [va, sg] : pp.large) j.aux_slots += sg.slot.device >= 0 ? kPagesPerSegment : 0;
  const auto last = seen.find(p.id);
  const uint64_t cpu0 = last == seen.end() ? 0 : last->second.first;
  const uint64_t in0 = last == seen.end() ? 0 : last->second.second;
  j.page_ins = pp.pages_in - in0;
  j.active = p.cpu_cycles > cpu0;
  for (unsigned i = 0; i < pg.system_->machine().istreams(); ++i)
    if (const os::Ecb* e = pg.system_->running(i); e && e->process.get() == &p) j.active = true;
  return j;
}

Paging::RmfMonitors::Storf Paging::RmfMonitors::storf_block(const Paging& pg, uint64_t now, uint32_t& uic) {
  Storf storf{.start = last_end, .end = now};
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> now_seen;
  pg.system_->for_each_process([&](os::Process& p) {
    storf.jobs.push_back(job(pg, p, uic));
    const auto it = pg.processes_.find(p.id);
    now_seen[p.id] = {p.cpu_cycles, it == pg.processes_.end() ? 0 : it->second.pages_in};
  });
  std::stable_sort(storf.jobs.begin(), storf.jobs.end(),
                   [](const Job& a, const Job& b) { return a.frames > b.frames; });  // RMF's order: TOTAL
  seen = std::move(now_seen);
  return storf;
}

Paging::RmfMonitors::Pgsp Paging::RmfMonitors::pgsp_block(const Paging& pg, uint64_t now, uint32_t uic) {
  const emu::Machine& m = pg.system_->machine();
  uint64_t busy = 0;
  for (unsigned k = 0; k < m.istreams(); ++k) busy += m.counters(k).busy_cycles;
  Pgsp pgsp{.start = last_end, .end = now};
  const uint64_t span = now - last_end;
  pgsp.cpu_percent = span ? 100.0 * double(busy - last_busy) / double(span * m.istreams()) : 0.0;
  pgsp.uic_s = double(uic) * double(pg.config_.uic_interval_ns) / 1e9;
  const uint64_t pages_in = pg.stats_.pages_in[0] + pg.stats_.pages_in[1];
  pgsp.pages_in = pages_in - last_pages_in;
  if (last_activity.size() != pg.activity_.size()) last_activity.assign(pg.activity_.size(), {});
  for (const DataSet& s : pg.data_sets()) {
    const Activity &a = pg.activity_[s.device], &b = last_activity[s.device];
    pgsp.sets.push_back({.set = s,
                         .slots_percent = pg.slots_percent(s.device),
                         .requests = a.ios - b.ios,
                         .pages = a.pages - b.pages,
                         .io_cycles = a.io_cycles - b.io_cycles});
  }
  last_activity = pg.activity_;
  last_busy = busy, last_pages_in = pages_in;
  return pgsp;
}

void Paging::write_storf_text(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  for (const RmfMonitors::Storf& s : rmf_->storf) {
    const double interval = double(s.end - s.start) / ghz / 1e9;
    out << fmt::format("RMF V2R1   Storage Frames                   Line 1 of {}\n\n", s.jobs.size());
    out << fmt::format("Samples: 1       System: N/A   Date: N/A       Time: {}  Range: {:.6f}  Sec\n\n",
                       os::simulated_clock(s.start, ghz, '.'), interval);
    out << "           Service    -- Frame Occup.-- - Active Frames - AUX   PGIN\n";
    out << fmt::format(kStorfRow, "Jobname", "C", "Class", "Cr", "TOTAL", "ACTV", "IDLE", "WSET", "FIXED", "DIV",
                       "SLOTS", "RATE")
        << "\n";
    for (const RmfMonitors::Job& j : s.jobs) {
      const double rate = double(j.page_ins) / interval;
      out << fmt::format(kStorfRow, j.name.substr(0, 8), "S", "N/A", "", frames5(j.frames),
                         frames5(j.active ? j.frames : 0), frames5(j.active ? 0 : j.frames),
                         frames5(j.active ? j.frames : 0), frames5(j.fixed), 0, frames5(j.aux_slots),
                         j.page_ins ? fmt::format("{:.1f}", rate) : "0")
          << "\n";
    }
    out << "\n";
  }
}

void Paging::write_storf_json(std::ostream& out) const {
  using report_json::Json, report_json::fixed;
  const double ghz = system_->machine().config().clock_ghz;
  Json intervals = Json::array();
  for (const RmfMonitors::Storf& s : rmf_->storf) {
    const double interval = double(s.end - s.start) / ghz / 1e9;
    Json jobs = Json::array();
    for (const RmfMonitors::Job& j : s.jobs)
      jobs.push_back({{"job", j.name},
                      {"asid", j.asid},
                      {"class", "S"},
                      {"service_class", "N/A"},
                      {"total_frames", j.frames},
                      {"active_frames", j.active ? j.frames : 0},
                      {"idle_frames", j.active ? 0 : j.frames},
                      {"working_set_frames", j.active ? j.frames : 0},
                      {"fixed_frames", j.fixed},
                      {"div_frames", 0},
                      {"aux_slots", j.aux_slots},
                      {"page_ins", j.page_ins},
                      {"page_in_rate_per_s", fixed(double(j.page_ins) / interval, 3)}});
    intervals.push_back({{"start_s", fixed(double(s.start) / ghz / 1e9, 6)},
                         {"end_s", fixed(double(s.end) / ghz / 1e9, 6)},
                         {"jobs", jobs}});
  }
  report_json::write(out, {{"report", "RMF Monitor III STORF (storage frames by job)"},
                           {"interval_s", system_->config().system.timeline_s},
                           {"samples_per_interval", 1},
                           {"intervals", intervals}},
                     {.one_per_line = {"intervals", "jobs"}});
}

void Paging::write_pgsp_text(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  for (const RmfMonitors::Pgsp& p : rmf_->pgsp) {
    const double interval = double(p.end - p.start) / ghz / 1e9;
    const auto k4 = [](uint64_t v) { return v > 9999 ? fmt::format("{}K", v / 1000) : std::to_string(v); };
    out << fmt::format("RMF - PGSP Page Data Set Activity              Line 1 of {}\n\n", p.sets.size());
    out << fmt::format("CPU={:>3}     UIC={:>4} PR={:>4}         System= N/A  Delta\n\n", uint64_t(p.cpu_percent + 0.5),
                       k4(uint64_t(p.uic_s)), k4(uint64_t(double(p.pages_in) / interval + 0.5)));
    out << fmt::format(kPgspRow, "S", "VOLUME", "DEV", "DEV", "%SLOTS", "PAGE", "I/O REQ", "AVG PAGES", " ", "")
        << "      " << os::simulated_clock(p.end, ghz, ':') << "\n";
    out << fmt::format(kPgspRow, "T", "SERIAL", "NUM", "TYPE", "IN USE", "TRAN TIME", "RATE", "PER I/O", "V",
                       "DATA SET NAME")
        << "\n";
    for (const RmfMonitors::Set& s : p.sets) {
      const std::string tran =
          s.pages ? fmt::format("{:.6f}", double(s.io_cycles) / ghz / 1e9 / double(s.pages)) : "------";
      out << fmt::format(kPgspRow, s.set.type.substr(0, 1), s.set.serial, s.set.number, s.set.device_type,
                         s.slots_percent >= 100 ? fmt::format("{:.1f}", s.slots_percent) : fmt::format("{:.2f}", s.slots_percent), tran,
                         fit(double(s.requests) / interval, 7, 3),
                         fit(s.requests ? double(s.pages) / double(s.requests) : 0.0, 9, 3),
                         s.set.vio ? "Y" : " ", s.set.name)
          << "\n";
    }
    out << "\n";
  }
}

void Paging::write_pgsp_json(std::ostream& out) const {
  using report_json::Json, report_json::fixed;
  const double ghz = system_->machine().config().clock_ghz;
  Json intervals = Json::array();
  for (const RmfMonitors::Pgsp& p : rmf_->pgsp) {
    const double interval = double(p.end - p.start) / ghz / 1e9;
    Json sets = Json::array();
    for (const RmfMonitors::Set& s : p.sets)
      sets.push_back({{"type", s.set.type},
                      {"volume", s.set.serial},
                      {"device", s.set.number},
                      {"device_type", s.set.device_type},
                      {"slots_in_use_percent", fixed(s.slots_percent, 2)},
                      {"page_transfer_s", fixed(s.pages ? double(s.io_cycles) / ghz / 1e9 / double(s.pages) : 0.0, 6)},
                      {"io_requests", s.requests},
                      {"io_requests_per_s", fixed(double(s.requests) / interval, 3)},
                      {"pages", s.pages},
                      {"pages_per_io", fixed(s.requests ? double(s.pages) / double(s.requests) : 0.0, 3)},
                      {"vio", s.set.vio},
                      {"data_set", s.set.name}});
    intervals.push_back({{"start_s", fixed(double(p.start) / ghz / 1e9, 6)},
                         {"end_s", fixed(double(p.end) / ghz / 1e9, 6)},
                         {"cpu_percent", fixed(p.cpu_percent, 1)},
                         {"uic_s", fixed(p.uic_s, 3)},
                         {"pages_in_per_s", fixed(double(p.pages_in) / interval, 3)},
                         {"data_sets", sets}});
  }
  report_json::write(out, {{"report", "RMF Monitor II PGSP (page data set activity)"},
                           {"interval_s", system_->config().system.timeline_s},
                           {"intervals", intervals}},
                     {.one_per_line = {"intervals", "data_sets"}});
}

}  // namespace paging
