// The stand-alone dump (SADMP; z/OS MVS Diagnosis: Tools and Service Aids, "Stand-alone
// dump"), as seed 002 measures it ("Improvements in Stand-Alone Dump time when dumping
// data that are paged out"). The operator stops the system and IPLs the dump program:
// from then nothing is dispatched again and RSM does not run. It writes the real
// storage in use first (AMDSADMP REAL=USED: every frame in use, the processes' pages,
// 1 MB pages, the system's and fixed frames), then every address space's paged-out
// pages: a batch (system.paging.sadmp_batch pages) read back from SCM or the page data
// sets through the same devices as paging's own reads, waited for (paging I/O wait),
// written to the dump volumes (machine.dasd.dump_volumes), then the next batch, so the
// reads do not overlap the writes (the seed: total time less paging I/O wait is about
// the same on DASD and Flash). The dump's contents are not kept: every I/O costs what
// the devices make it cost and stores nothing. The system stays stopped: the run ends
// when the dump is complete (nothing else is pending then; a summary note says so), or
// at workload.duration if that comes first (the dump is then "not complete").
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "devices/devices.h"
#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "paging/paging.h"

namespace paging {

struct Paging::SadmpRun : DumpVolumeWrites {
  struct Item {  // a page on auxiliary storage: a 4 KB slot or a 1 MB slot on SCM
    Slot slot;
    bool large = false;
  };
  struct Space {  // an address space's pages in aux, for AMD010I
    size_t first = 0, count = 0;
    std::string line;
  };
  SadmpRecord record;
  std::vector<Item> aux;  // in the order they are read: by address space, then address
  std::vector<Space> spaces;
  size_t next = 0, next_space = 0;  // the next of aux, and of spaces
  uint64_t batch_start = 0, batch_pages = 0, reads_in_flight = 0;
  bool reading = false;   // false: real storage is being written
};

const SadmpRecord* Paging::sadmp() const { return sadmp_ ? &sadmp_->record : nullptr; }

void Paging::install_sadmp(os::System& system) {
  system.add_operator_commands(
      "SADMP", "SADMP TITLE=(title)           stop the system and take a stand-alone dump (sadmp.txt)\n",
      [this](const os::OperatorCommand& c, uint64_t now, uint64_t, bool) {
        SadmpCommand d;
        try {
          d = parse_sadmp_command(c.text);
        } catch (const cfg::ConfigError& e) {
          return system_->operator_answer(now, c.text, {std::string("ERROR: ") + e.what()});
        }
        return system_->operator_answer(now, c.text, request_sadmp(d.title, now));
      });
  system.add_report({.name = "sadmp.txt", .write = [this](std::ostream& out) { write_sadmp_text(out); },
                     .wanted = [this] { return sadmp_ != nullptr; }});
  system.add_summary_note([this] {
    if (!sadmp_) return std::string();
    const double ghz = system_->machine().config().clock_ghz;
    const SadmpRecord& r = sadmp_->record;
    return r.end ? fmt::format("the operator stopped the system for a stand-alone dump at {:.6f} s; nothing ran "
                               "after; the run ended when the dump was complete, at {:.6f} s (sadmp.txt)",
                               double(r.start) / ghz / 1e9, double(r.end) / ghz / 1e9)
                 : fmt::format("the operator stopped the system for a stand-alone dump at {:.6f} s; nothing ran "
                               "after; the run ended before the dump was complete (sadmp.txt)",
                               double(r.start) / ghz / 1e9);
  });
  system.add_summary_headline({.key = "sadmp_total_dump_s",
                               .label = "seconds of stand-alone dump (simulated)",
                               .note = "from the operator's SADMP to the last page written; sadmp.txt",
                               .reason = "the operator took a stand-alone dump: E3e's figure",
                               .digits = 6,
                               .applies = [this] { return sadmp_ && sadmp_->record.end != 0; },
                               .value = [this] {
                                 const SadmpRecord& r = sadmp_->record;
                                 return double(r.end - r.start) / system_->machine().config().clock_ghz / 1e9;
                               }});
  system.add_report({.name = "sadmp.json", .write = [this](std::ostream& out) { out << sadmp_json(); },
                     .wanted = [this] { return sadmp_ != nullptr; }});
}

std::vector<std::string> Paging::request_sadmp(const std::string& title, uint64_t now) {
  if (sadmp_) return {"ERROR: SADMP NOT TAKEN: THE SYSTEM IS ALREADY DOWN FOR A STAND-ALONE DUMP"};
  if (devices_->dump_volumes().empty()) return {"ERROR: SADMP NOT TAKEN: NO DUMP VOLUME (machine.dasd.dump_volumes)"};
  // The SVC dump's I/O would go on under the stand-alone dump: not modelled, so refused.
  if (dump_) return {"ERROR: SADMP NOT TAKEN: AN SVC DUMP IS IN PROGRESS (WAIT FOR IEA611I)"};
  sadmp_ = std::make_shared<SadmpRun>();
  SadmpRun& d = *sadmp_;
  SadmpRecord& r = d.record;
  r.title = title, r.start = now;
  system_->set_dispatchable(nullptr, false, now);  // never set dispatchable again
  sadmp_real_storage(r);
  sadmp_paged_out(d);
  d.volume_busy.assign(devices_->dump_volumes().size(), false);
  d.to_write = r.real_pages();
  // The answer first (run.log has it at the command), then the dump's own lines.
  std::vector<std::string> answer = {
      fmt::format("AMD083I AMDSADMP: STAND-ALONE DUMP INITIALIZED TITLE={} (THE SYSTEM IS STOPPED)", title),
      fmt::format("AMD005I DUMPING OF REAL STORAGE NOW IN PROGRESS ({} PAGES IN USE)", r.real_pages())};
  system_->at(now, [this, now] { sadmp_write(now); });
  return answer;
}

// The paged-out pages, as they are at the stop: out, or being read in (the copy on
// auxiliary storage is still there), by address space; pages being written are in
// real storage, pages never stored into nowhere.
void Paging::sadmp_paged_out(SadmpRun& d) {
  const auto space = [&](std::string line) {
    d.spaces.push_back({.first = d.aux.size(), .count = 0, .line = std::move(line)});
  };
  const auto space_end = [&] { d.spaces.back().count = d.aux.size() - d.spaces.back().first; };
  system_->for_each_process([&](os::Process& p) {
    auto it = processes_.find(p.id);
    if (it == processes_.end()) return;
    space(fmt::format("AMD010I PROCESSING ASID={:04X} JOBNAME={}", p.id, p.name));
    for (const auto [va, pg] : it->second.pages) {
      if (pg.state == State::Out || pg.state == State::Reading) d.aux.push_back({pg.slot, false});
      if (pg.state == State::Zero) ++d.record.zero_pages;
    }
    for (const auto& [va, sg] : it->second.large)
      if (sg.state == State::Out || sg.state == State::Reading) d.aux.push_back({sg.slot, true});
    space_end();
  });
  space("PROCESSING THE PLPA PAGES (COMMON STORAGE)");
  for (const auto& [va, pg] : programs_)  // PLPA-like pages: SCM's copy if it has one
    if (pg.state != State::Resident) d.aux.push_back({pg.scm.device >= 0 ? pg.scm : pg.dasd, false});
  space_end();
}

// Real storage in use at the stop (REAL=USED): the machine's allocated frames and the
// frames of pages being paged out (freed in the model's storage, still taken in RSM's).
void Paging::sadmp_real_storage(SadmpRecord& r) {
  const emu::Storage& st = system_->machine().storage();
  const uint64_t all = st.allocated_4k() + st.allocated_1m() * kPagesPerSegment;
  system_->for_each_process([&](os::Process& p) {
    p.space->for_each_own_page([&](uint64_t, emu::Frame&) { ++r.process_pages; });
    p.space->for_each_large_segment([&](uint64_t) { ++r.large_pages; });
  });
  const uint64_t processes = r.process_pages + r.large_pages * kPagesPerSegment;
  r.system_pages = all > processes ? all - processes : 0;
  r.writing_pages = writing_frames_;
}

// The next batch of paged-out pages: its requests all started now, grouped by device
// (system.paging.group 4 KB slots a request, a 1 MB page alone); when the last
// completes, the batch is written.
void Paging::sadmp_next_batch(uint64_t now) {
  SadmpRun& d = *sadmp_;
  SadmpRecord& r = d.record;
  if (!d.reading) d.reading = true, r.real_end = now;
  if (d.next == d.aux.size()) {
    r.end = now;
    system_->log(fmt::format("{:>12} SADMP COMPLETE: {} PAGES WRITTEN TO {} DUMP VOLUMES, {} OF THEM FROM AUXILIARY "
                             "STORAGE",
                             now, r.written_pages, d.volume_busy.size(), r.aux_total()));
    return;
  }
  ++r.batches;
  d.batch_start = now, d.batch_pages = 0;
  std::map<int, std::vector<uint64_t>> open;  // per device: the 4 KB slots of its request being filled
  std::vector<std::pair<Slot, std::vector<uint64_t>>> requests;
  while (d.next < d.aux.size() && d.batch_pages < config_.sadmp_batch) {
    // An address space's first paged-out page: its AMD010I (those with none are passed).
    while (d.next_space < d.spaces.size() && d.spaces[d.next_space].first <= d.next) {
      const SadmpRun::Space& sp = d.spaces[d.next_space++];
      if (sp.count)
        system_->log(fmt::format("{:>12} {} ({} PAGES ON AUXILIARY STORAGE)", now, sp.line, sp.count));
    }
    const SadmpRun::Item& it = d.aux[d.next++];
    if (it.large) {
      requests.push_back({it.slot, {}});
      d.batch_pages += kPagesPerSegment;
      continue;
    }
    std::vector<uint64_t>& g = open[it.slot.device];
    g.push_back(it.slot.address);
    ++d.batch_pages;
    if (g.size() == config_.group) requests.push_back({it.slot, std::move(g)}), open.erase(it.slot.device);
  }
  for (auto& [dev, g] : open) requests.push_back({Slot{dev, g.front()}, std::move(g)});
  for (auto& [slot, blocks] : requests) {
    const bool large = blocks.empty();
    const uint64_t pages = large ? kPagesPerSegment : blocks.size();
    auto t = std::make_shared<devices::Transfer>();
    if (large) blocks.push_back(slot.address);
    t->buffers.resize(blocks.size());
    for (size_t k = 0; k < blocks.size(); ++k) {
      t->buffers[k].resize(large ? kSegment : kPage);
      t->request.blocks.push_back(
          {flashsim::Op::Read, blocks[k], uint32_t(t->buffers[k].size()), t->buffers[k].data()});
    }
    const int kind = slot.device == 0 ? 0 : 1;
    ++r.read_ios[kind], r.aux_pages[kind] += pages, r.aux_large += large;
    ++d.reads_in_flight;
    system_->start_io(subchannel(slot), now, t, [this, kind, pages](const emu::IoInterruption& i) {
      SadmpRun& d = *sadmp_;
      stats_.pages_in[kind] += pages;  // the timeline's page-in rates show the dump's reads
      if (--d.reads_in_flight) return;
      d.record.io_wait += i.time - d.batch_start;
      d.to_write = d.batch_pages;
      sadmp_write(i.time);
    });
  }
}

// Pages to the dump volumes, a channel program of machine.dasd's max_pages_per_io at a
// time on each; when all are written, the next batch is read.
void Paging::sadmp_write(uint64_t now) {
  SadmpRun& d = *sadmp_;
  const uint64_t before = d.writes_in_flight;
  start_dump_writes(d, now, [this](uint64_t n, uint64_t time) {
    sadmp_->record.written_pages += n;
    sadmp_write(time);
  });
  d.record.write_ios += d.writes_in_flight - before;
  if (d.to_write == 0 && d.writes_in_flight == 0) sadmp_next_batch(now);
}

namespace {
// The seed's total dump time: hh:mm:ss.ff.
std::string hms(double seconds) {
  const uint64_t cs = uint64_t(seconds * 100 + 0.5);
  return fmt::format("{:02}:{:02}:{:02}.{:02}", cs / 360000, cs / 6000 % 60, cs / 100 % 60, cs % 100);
}
constexpr double kMiB = 1048576.0, kGiB = 1073741824.0;
}  // namespace

// Seed 002's table ("Tests / Total dump time / Paging I/O wait time / Batch read rate /
// Total GB dumped / GB of data from aux"), then the counts behind it. MB and GB are
// binary (2^20, 2^30 bytes), as the seed's: its 17.7 GB from aux over 41.30 s of wait
// is its 438 MB/s only so.
void Paging::write_sadmp_text(std::ostream& out) const {
  const SadmpRecord& r = sadmp_->record;
  const double ghz = system_->machine().config().clock_ghz;
  const auto s = [ghz](uint64_t c) { return double(c) / ghz / 1e9; };
  const bool done = r.end != 0;
  const double total = s(r.end - r.start), wait = s(r.io_wait);
  const double aux_bytes = double(r.aux_total()) * kPage, rate = wait > 0 ? aux_bytes / kMiB / wait : 0.0;
  const std::string kind = devices_->scm() && config_.scm_limit > 0 ? "Flash for paging" : "DASD page data sets";
  out << fmt::format("STAND-ALONE DUMP  TITLE={}  (simulated time; the system stopped at {:.6f} s, for good)\n\n",
                     r.title, s(r.start));
  out << "Tests                  Total dump time  Paging I/O wait  Batch read rate  Total GB  GB of data\n";
  out << "                       (hh:mm:ss.ff)    (seconds)        (MB/s)           dumped    from aux\n";
  out << fmt::format("{:<22} {:<16} {:>15.2f}  {:>15.2f}  {:>8.3f}  {:>10.3f}\n", kind,
                     done ? hms(total) : "not complete", wait, rate, double(r.written_pages) * kPage / kGiB,
                     aux_bytes / kGiB);
  out << "  (MB = 2^20 bytes, GB = 2^30 bytes; batch read rate = GB from aux / paging I/O wait)\n";
  if (!done) out << "  (the run ended before the dump was complete: the figures are those up to then)\n";
  out << "\n";
  const auto line = [&out](const std::string& what, uint64_t v) { out << fmt::format("  {:<56}{:>12}\n", what, v); };
  line("pages from real storage (4 KB, frames in use at the stop)", r.real_pages());
  line("  the processes' resident 4 KB pages", r.process_pages);
  line("  their 1 MB pages (256 pages each)", r.large_pages);
  line("  pages being paged out (still in their frames)", r.writing_pages);
  line("  the system's and fixed frames (image, shared area, tables)", r.system_pages);
  line("pages from auxiliary storage", r.aux_total());
  line("  from SCM", r.aux_pages[0]);
  line("    of them in 1 MB pages read whole (1 MB pages)", r.aux_large);
  line("  from page data sets (DASD)", r.aux_pages[1]);
  line("read requests to SCM", r.read_ios[0]);
  line("read requests (channel programs) to page data sets", r.read_ios[1]);
  line(fmt::format("batches (system.paging.sadmp_batch = {} pages)", config_.sadmp_batch), r.batches);
  line(fmt::format("write channel programs to the dump volumes ({})", devices_->dump_volumes().size()), r.write_ios);
  line("pages written", r.written_pages);
  line("pages never stored into (no frame, no slot: not dumped)", r.zero_pages);
  out << fmt::format("  {:<56}{:>12.6f}\n", "real storage written in (s)", s(r.real_end - r.start));
  out << fmt::format("  {:<56}{:>12.6f}\n", "paged-out pages read and written in (s)",
                     done ? s(r.end - r.real_end) : 0.0);
  out << fmt::format("  {:<56}{:>12.6f}\n", "writing, total less paging I/O wait (s)", done ? total - wait : 0.0);
}

std::string Paging::sadmp_json() const {
  using report_json::Json, report_json::fixed;
  const SadmpRecord& r = sadmp_->record;
  const double ghz = system_->machine().config().clock_ghz;
  const auto s = [ghz](uint64_t c) { return double(c) / ghz / 1e9; };
  const double wait = s(r.io_wait), aux_bytes = double(r.aux_total()) * kPage;
  Json j = {{"title", r.title},
            {"aux_kind", devices_->scm() && config_.scm_limit > 0 ? "SCM" : "DASD"},
            {"complete", r.end != 0},
            {"start_s", fixed(s(r.start), 9)},
            {"end_s", fixed(r.end ? s(r.end) : 0.0, 9)},
            {"total_dump_s", fixed(r.end ? s(r.end - r.start) : 0.0, 9)},
            {"real_storage_s", fixed(s(r.real_end - r.start), 9)},
            {"paging_io_wait_s", fixed(wait, 9)},
            {"batch_read_rate_mib_per_s", fixed(wait > 0 ? aux_bytes / kMiB / wait : 0.0, 3)},
            {"dumped_gib", fixed(double(r.written_pages) * kPage / kGiB, 6)},
            {"from_aux_gib", fixed(aux_bytes / kGiB, 6)},
            {"real_storage_pages", r.real_pages()},
            {"process_pages", r.process_pages},
            {"large_1m_page_count", r.large_pages},
            {"writing_pages", r.writing_pages},
            {"system_pages", r.system_pages},
            {"aux_scm_pages", r.aux_pages[0]},
            {"aux_dasd_pages", r.aux_pages[1]},
            {"aux_large_1m_page_count", r.aux_large},
            {"scm_read_ios", r.read_ios[0]},
            {"dasd_read_ios", r.read_ios[1]},
            {"batch_pages", config_.sadmp_batch},
            {"batches", r.batches},
            {"write_ios", r.write_ios},
            {"written_pages", r.written_pages},
            {"zero_pages", r.zero_pages}};
  return report_json::text(j, {});
}

// SADMP [TITLE=(title)]: the operator's stop and IPL of the stand-alone dump, its title
// (AMDSADMP's TITLE prompt) on the same line. Throws cfg::ConfigError with what is wrong.
SadmpCommand parse_sadmp_command(std::string_view text) {
  std::string u;
  for (char c : text) u += char(std::toupper(static_cast<unsigned char>(c)));
  size_t at = u.find_first_not_of(' ');
  if (at == std::string::npos || u.compare(at, 5, "SADMP") != 0) throw cfg::ConfigError("not a SADMP command");
  at = u.find_first_not_of(' ', at + 5);
  SadmpCommand d;
  if (at == std::string::npos) return d;
  if (u.compare(at, 6, "TITLE=") != 0)
    throw cfg::ConfigError(fmt::format("SADMP: \"{}\": TITLE=(title) or nothing expected", text.substr(at)));
  size_t p = at + 6, end = 0;
  if (p < u.size() && u[p] == '(') {
    end = u.find(')', p);
    if (end == std::string::npos) throw cfg::ConfigError("SADMP: TITLE=( without its )");
    d.title = std::string(text.substr(p + 1, end - p - 1));
    ++end;
  } else {
    end = std::min(u.find(' ', p), u.size());
    d.title = std::string(text.substr(p, end - p));
  }
  if (d.title.empty()) throw cfg::ConfigError("SADMP: TITLE= is empty");
  if (d.title.size() > 100) throw cfg::ConfigError("SADMP: the title is longer than 100 characters");
  if (u.find_first_not_of(' ', end) != std::string::npos)
    throw cfg::ConfigError(fmt::format("SADMP: \"{}\" after the title: only TITLE= is known", text.substr(end)));
  return d;
}

}  // namespace paging
