// What paging shows: D ASM and D ASM,SCM, paging.txt (with RMF's page data set
// activity) and paging.json, and the activity they are made from.
#include "paging/paging.h"


#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "config/number_text.h"
#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "os/simulated_time.h"

namespace paging {

os::OperatorGrammars Paging::operator_grammars() const {
  const auto squeeze = [](std::string_view text) {
    std::string t;
    for (char ch : text)
      if (ch != ' ' && ch != '\t') t += char(std::toupper(static_cast<unsigned char>(ch)));
    return t;
  };
  return {{.owner = "ASM",
           .syntax = "D ASM[,SCM]",
           .mine = [squeeze](std::string_view text) { return squeeze(text).rfind("DASM", 0) == 0; },
           .check = [squeeze](std::string_view text) {
             const std::string t = squeeze(text);
             if (t != "DASM" && t != "DASM,SCM")
               throw cfg::ConfigError(fmt::format("\"{}\": D ASM takes ,SCM or nothing", text));
           }},
          {.owner = "DUMP",
           .syntax = "DUMP COMM=(title),JOBNAME=(name,...)",
           .mine = [squeeze](std::string_view text) { return squeeze(text).rfind("DUMP", 0) == 0; },
           .check = [](std::string_view text) { parse_dump_command(text); }},
          {.owner = "SADMP",
           .syntax = "SADMP [TITLE=(title)]",
           .mine = [squeeze](std::string_view text) { return squeeze(text).rfind("SADMP", 0) == 0; },
           .check = [](std::string_view text) { parse_sadmp_command(text); }}};
}

uint64_t Paging::capacity(size_t device) const {
  if (device == 0) {
    const flashsim::ScmDevice* d = devices_->scm();
    return d ? std::min(config_.scm_limit, d->online_bytes()) / kPage : 0;
  }
  if (int(device) == plpa_device_) return stats_.plpa_pages;  // formatted at IPL to hold the PLPA
  if (int(device) == common_device_) return config_.common_slots;
  return devices_->dasd()[device - 1]->config().capacity_blocks();
}

// The page data sets and SCM, in the reports' order: the PLPA data set (with pageable
// programs), the COMMON one (with pageable common storage), the local page data sets
// (the first system.paging.vio_volumes accept VIO), SCM when paging uses it.
std::vector<Paging::DataSet> Paging::data_sets() const {
  std::vector<DataSet> sets;
  const auto number = [](const flashsim::DasdVolume& v) { return fmt::format("{:04X}", v.config().device_number); };
  if (plpa_device_ >= 0)
    sets.push_back({.device = size_t(plpa_device_), .type = "PLPA", .serial = "PLPA01",
                    .number = number(*devices_->plpa_volume()), .device_type = "33909", .name = "SYS1.PLPA.PAGE"});
  if (common_device_ >= 0)  // after the PLPA on its volume
    sets.push_back({.device = size_t(common_device_), .type = "COMMON", .serial = "PLPA01",
                    .number = number(*devices_->plpa_volume()), .device_type = "33909", .name = "SYS1.COMMON.PAGE"});
  for (size_t v = 0; v < devices_->dasd().size(); ++v)
    sets.push_back({.device = v + 1, .type = "LOCAL", .serial = fmt::format("PAGE{:02}", v + 1),
                    .number = number(*devices_->dasd()[v]), .device_type = "33909",
                    .name = fmt::format("SYS1.LOCAL.PAGE{:02}", v + 1), .vio = accepts_vio(v + 1)});
  if (devices_->scm() && config_.scm_limit > 0)
    sets.push_back({.device = 0, .type = "SCM", .serial = "N/A", .number = "N/A", .device_type = "N/A", .name = "N/A"});
  return sets;
}

// How full a data set is: D ASM shows it in whole percent (truncated), PGSP to two decimals.
double Paging::slots_percent(size_t d) const {
  const uint64_t c = capacity(d);
  return c ? 100.0 * double(used_.empty() ? 0 : used_[d]) / double(c) : 100.0;
}

// IEE200I: a line per data set, as the seed shows them.
std::vector<std::string> Paging::display_asm(uint64_t ns) {
  std::vector<std::string> out = {fmt::format("IEE200I {} DISPLAY ASM {}", os::console_time(ns), ++message_number_)};
  if (budget_frames_ == 0) {
    out.push_back("NO PAGING: system.paging.real_storage IS 0");
    return out;
  }
  out.push_back("TYPE     FULL STAT   DEV  DATASET NAME");
  for (const DataSet& s : data_sets()) {
    const unsigned p = unsigned(slots_percent(s.device));
    out.push_back(fmt::format("{:<7} {:>3}% {:>4}  {:>4}  {}", s.type, p, p >= 100 ? "FULL" : "OK", s.number,
                              s.type == "SCM" ? " N/A" : s.name));
  }
  out.push_back("PAGEDEL COMMAND IS NOT ACTIVE");  // z/OS's last line: no PAGEDEL drains a data set (none is modelled)
  return out;
}

// IEE207I: SCM for paging in 4 KB slots.
std::vector<std::string> Paging::display_asm_scm(uint64_t ns) {
  std::vector<std::string> out = {fmt::format("IEE207I {} DISPLAY ASM {}", os::console_time(ns), ++message_number_)};
  if (!devices_->scm() || config_.scm_limit == 0 || budget_frames_ == 0) {
    out.push_back("SCM IS NOT USED FOR PAGING");
    return out;
  }
  const uint64_t size = capacity(0), used = used_.empty() ? 0 : used_[0];
  const auto commas = [](uint64_t v) {
    const std::string digits = std::to_string(v);
    std::string s;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i && (digits.size() - i) % 3 == 0) s += ',';
      s += digits[i];
    }
    return s;
  };
  out.push_back("STATUS      FULL     SIZE             USED         IN-ERROR");
  out.push_back(fmt::format("IN-USE      {:>3}%    {:<16} {:<12} {:>4}", size ? used * 100 / size : 0, commas(size),
                            commas(used), 0));
  return out;
}

void Paging::started(int device, size_t pages) {
  Activity& a = activity_[size_t(device)];
  ++a.ios, a.pages += pages, ++a.in_flight;
}

void Paging::completed(int device, uint64_t cycles, size_t pages) {
  Activity& a = activity_[size_t(device)];
  a.io_cycles += cycles;
  if (a.in_flight) --a.in_flight;
  // The measured time a page, per kind of device: what self-tuning placement compares.
  double& m = measured_[device == 0 ? 0 : 1];
  const double sample = double(cycles) / double(std::max<size_t>(pages, 1));
  m = m == 0 ? sample : 0.9 * m + 0.1 * sample;
}

void Paging::sample() {
  ++samples_;
  for (size_t d = 0; d < activity_.size(); ++d) {
    Activity& a = activity_[d];
    a.used_min = std::min(a.used_min, used_[d]);
    a.used_max = std::max(a.used_max, used_[d]);
    a.used_sum += used_[d];
    a.busy_samples += a.in_flight > 0;
  }
}

namespace {
// RMF's way with big counts: 33554K, 17.19M.
std::string rmf_count(uint64_t v) {
  if (v >= 10000000) return fmt::format("{:.2f}M", double(v) / 1e6);
  if (v >= 1000000) return fmt::format("{}K", v / 1000);
  return std::to_string(v);
}
}  // namespace

// RMF Monitor I's PAGE DATA SET ACTIVITY, as the seed shows it: the PLPA data set's
// line (with pageable programs), a line per local page data set (V: it accepts VIO
// pages) and one for SCM; slots in 4 KB pages, sampled every check interval; % IN USE
// the samples with paging I/O in flight; PAGE TRANS TIME seconds a page.
void Paging::write_rmf(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  out << "                                P A G E   D A T A   S E T   A C T I V I T Y\n";
  out << fmt::format("NUMBER OF SAMPLES = {:>9}    CYCLE {:.6f} SECONDS    PAGE DATA SET AND SCM USAGE\n",
                     rmf_count(samples_), double(config_.check_interval_ns) / 1e9);
  out << "PAGE                                                                 %    PAGE                  V\n";
  out << "SPACE   VOLUME  DEV  DEVICE    SLOTS  ---- SLOTS USED --- BAD       IN   TRANS  NUMBER  PAGES  I\n";
  out << "TYPE    SERIAL  NUM  TYPE      ALLOC    MIN    MAX   AVG   SLOTS     USE  TIME   IO REQ  XFER'D O  "
         "DATA SET NAME\n";
  const auto row = [&](size_t d, const std::string& type, const std::string& serial, const std::string& num,
                       const std::string& dev, const std::string& vio, const std::string& name) {
    const Activity& a = activity_[d];
    const uint64_t avg = samples_ ? a.used_sum / samples_ : 0;
    const double in_use = samples_ ? 100.0 * double(a.busy_samples) / double(samples_) : 0.0;
    const double trans = a.pages ? double(a.io_cycles) / ghz / 1e9 / double(a.pages) : 0.0;
    out << fmt::format("{:<7} {:<7} {:<4} {:<6} {:>9} {:>6} {:>6} {:>6} {:>6} {:>7.2f} {:>6.3f} {:>7} {:>7} {:<1}  {}\n",
                       type, serial, num, dev, rmf_count(capacity(d)), rmf_count(samples_ ? a.used_min : 0),
                       rmf_count(a.used_max), rmf_count(avg), 0, in_use, trans, rmf_count(a.ios),
                       rmf_count(a.pages), vio, name);
  };
  for (const DataSet& s : data_sets())
    row(s.device, s.type, s.serial, s.number, s.device_type, s.vio ? "Y" : " ", s.name);
}

report_json::Json Paging::data_sets_json() const {
  using report_json::Json, report_json::fixed;
  const double ghz = system_->machine().config().clock_ghz;
  Json list = Json::array();
  std::vector<DataSet> sets = data_sets();  // by device, as paging.json has always listed them
  std::stable_sort(sets.begin(), sets.end(), [](const DataSet& a, const DataSet& b) { return a.device < b.device; });
  for (const DataSet& s : sets) {
    const size_t d = s.device;
    const Activity& a = activity_[d];
    Json set = {{"type", s.type}, {"device", s.number}};
    // Whether it accepts VIO pages: only when VIO is in play, so that other runs' files stay as they were.
    if (shows_vio() && s.type == "LOCAL") set["vio"] = s.vio;
    set["slots"] = capacity(d);
    set["slots_used_min"] = samples_ ? a.used_min : 0;
    set["slots_used_max"] = a.used_max;
    set["slots_used_avg"] = samples_ ? a.used_sum / samples_ : 0;
    set["in_use_percent"] = fixed(samples_ ? 100.0 * double(a.busy_samples) / double(samples_) : 0.0, 2);
    set["page_transfer_seconds"] = fixed(a.pages ? double(a.io_cycles) / ghz / 1e9 / double(a.pages) : 0.0, 6);
    set["io_requests"] = a.ios;
    set["pages"] = a.pages;
    list.push_back(set);
  }
  return list;
}

void Paging::write_text(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  auto line = [&](const std::string& what, uint64_t v) { out << fmt::format("  {:<52}{:>14}\n", what, cfg::grouped(v)); };
  out << fmt::format("PAGING  real storage for pageable pages {} frames ({} MB); available frames: steal below {}, "
                     "up to {}\n",
                     cfg::grouped(budget_frames_), cfg::grouped(budget_frames_ * kPage >> 20), config_.afq_low,
                     config_.afq_ok);
  line("steal passes", stats_.scans);
  line("pages stolen", stats_.stolen);
  line("  written to auxiliary storage", stats_.written);
  line("    to SCM", stats_.scm_pages);
  line("    to page data sets (DASD)", stats_.dasd_pages);
  line("  freed (copy on auxiliary storage still valid)", stats_.freed_clean);
  line("  freed (never changed: a zero page on its fault)", stats_.freed_zero);
  line("  1 MB pages written to SCM", stats_.large_out);
  line("  1 MB pages demoted to 4 KB pages", stats_.demoted);
  if (stats_.fixed_pages) line("4 KB pages page-fixed (never stolen; a 1 MB page 256)", stats_.fixed_pages);
  line("page-out requests", stats_.write_ios);
  line("pages passed over: page-out requests at their bound", stats_.write_bound);
  line("GETSTORs that waited for frames", stats_.frame_waits);
  if (stats_.frame_waits) {
    out << fmt::format("  {:<52}{:>14.1f}\n", "  their waits (ms)", double(stats_.frame_wait_cycles) / ghz / 1e6);
    line("  their parks (each page-out's completion wakes them)", stats_.frame_wait_parks);
  }
  if (stats_.first_references) {
    line("first references (a fault and a frame each)", stats_.first_references);
    line("  their cycles", stats_.first_reference_cycles);
  }
  line("page faults that waited for a page-in", stats_.fault_waits);
  line("pages read in on a fault", stats_.page_ins);
  line("pages read in with them (speculative, SCM)", stats_.speculative);
  line("1 MB pages read in", stats_.large_in);
  line("pages taken back while being written (reclaims)", stats_.reclaims);
  line("pages put back for a host-side service", stats_.host_restores);
  line("slots in use, most at once", stats_.slots_high);
  if (config_.pageable_programs) {  // PLPA-like pages: the program image's read-only pages
    line("program pages (PLPA), on the PLPA data set from IPL", stats_.plpa_pages);
    line("  with a copy on SCM from IPL", stats_.plpa_scm_copies);
    line("  stolen (no write: their copies stay valid)", stats_.plpa_stolen);
    line("  read in from SCM", stats_.plpa_in_scm);
    line("  read in from the PLPA data set", stats_.plpa_in_dasd);
    line("  SCM reads failed, read from the PLPA data set", stats_.plpa_scm_failed);
    line("  passed over: changed since IPL", stats_.plpa_changed);
    line("  read back unlike the image (lost)", stats_.plpa_wrong);
  }
  if (config_.pageable_common) {  // the shared area's pages, on the COMMON data set
    line("common pages (the shared area), pageable", stats_.common_pages);
    line("  stolen", stats_.common_stolen);
    line("  written to the COMMON data set", stats_.common_written);
    line("  page-out requests to it", stats_.common_write_ios);
    line("  read in from it", stats_.common_in);
    line("  back without I/O: unchanged since IPL", stats_.common_unchanged);
    line("  taken back while being written", stats_.common_reclaims);
    line("  passed over: the COMMON data set full", stats_.common_kept);
    line("  read back unlike what storage held (lost)", stats_.common_wrong);
  }
  if (shows_vio()) {  // VIO-like pages: page data sets only
    line(fmt::format("VIO pages written ({} of {} page data sets accept VIO)", vio_volumes(), devices_->dasd().size()),
         stats_.vio_written);
    line("  to data sets that do not (the others were full)", stats_.vio_spilled);
    line("VIO pages not stolen: no room on page data sets", stats_.vio_kept);
  }
  out << fmt::format("  {:<52}{:>14.1f}\n", "page-in time, mean (us)",
                     stats_.page_ins ? double(stats_.page_in_cycles) / double(stats_.page_ins) / ghz / 1e3 : 0.0);
  out << fmt::format("  {:<52}{:>14.1f}\n", "page-in time, longest (us)", double(stats_.page_in_max_cycles) / ghz / 1e3);
  out << "\n";
  write_rmf(out);
  if (rmf_)  // with system.timeline: RMF's online monitors, a block per interval
    out << fmt::format("\nRMF Monitor III STORF (storage frames by job) and Monitor II PGSP (page data set activity),\n"
                       "every {:g} ms of simulated time: rmfstorf.txt, rmfpgsp.txt (JSON: rmfstorf.json, rmfpgsp.json)\n",
                       system_->config().system.timeline_s * 1e3);
}

// The placement counts (PLPA, VIO), when they are in play: none otherwise, so that
// other runs' paging.json stays as it was.
void Paging::add_placement_json(report_json::Json& j) const {
  if (config_.pageable_programs)
    j["plpa"] = {{"pages", stats_.plpa_pages},         {"scm_copies", stats_.plpa_scm_copies},
                 {"stolen", stats_.plpa_stolen},       {"in_scm", stats_.plpa_in_scm},
                 {"in_dasd", stats_.plpa_in_dasd},     {"scm_failed", stats_.plpa_scm_failed},
                 {"changed", stats_.plpa_changed},     {"wrong", stats_.plpa_wrong}};
  if (config_.pageable_common)
    j["common"] = {{"pages", stats_.common_pages},         {"stolen", stats_.common_stolen},
                   {"written", stats_.common_written},     {"write_ios", stats_.common_write_ios},
                   {"in", stats_.common_in},               {"unchanged", stats_.common_unchanged},
                   {"reclaims", stats_.common_reclaims},   {"kept", stats_.common_kept},
                   {"wrong", stats_.common_wrong}};
  if (shows_vio())
    j["vio"] = {{"volumes", vio_volumes()},
                {"written", stats_.vio_written},
                {"spilled", stats_.vio_spilled},
                {"kept", stats_.vio_kept}};
}

void Paging::write_first_references_text(std::ostream& out) const {
  auto line = [&](const std::string& what, uint64_t v) { out << fmt::format("  {:<52}{:>14}\n", what, cfg::grouped(v)); };
  out << "PAGING  real storage not modelled (system.paging.real_storage 0): every page stays resident\n";
  line("first references (a fault and a frame each)", stats_.first_references);
  line("  their cycles", stats_.first_reference_cycles);
  out << fmt::format("  {:<52}{:>14}\n", "  each (system.service_cost + first_reference_cost)",
                     cfg::grouped(system_->config().system.service_cost + config_.first_reference_cost));
}

void Paging::write_first_references_json(std::ostream& out) const {
  report_json::Json j = {{"real_storage_frames", 0},
                         {"first_references", stats_.first_references},
                         {"first_reference_cycles", stats_.first_reference_cycles}};
  report_json::write(out, j, {});
}

void Paging::write_json(std::ostream& out) const {
  using report_json::fixed;
  const double ghz = system_->machine().config().clock_ghz;
  report_json::Json j = {
      {"real_storage_frames", budget_frames_}, {"afq_low", config_.afq_low},
      {"afq_ok", config_.afq_ok},              {"scans", stats_.scans},
      {"stolen", stats_.stolen},               {"written", stats_.written},
      {"scm_pages", stats_.scm_pages},         {"dasd_pages", stats_.dasd_pages},
      {"freed_clean", stats_.freed_clean},     {"freed_zero", stats_.freed_zero},
      {"write_ios", stats_.write_ios},         {"write_bound", stats_.write_bound},
      {"frame_waits", stats_.frame_waits},     {"large_out", stats_.large_out},
      {"large_in", stats_.large_in},           {"demoted", stats_.demoted}, {"fixed_pages", stats_.fixed_pages},
      {"fault_waits", stats_.fault_waits},     {"page_ins", stats_.page_ins},
      {"speculative", stats_.speculative},     {"reclaims", stats_.reclaims},
      {"host_restores", stats_.host_restores}, {"slots_high", stats_.slots_high},
      {"page_in_mean_us",
       fixed(stats_.page_ins ? double(stats_.page_in_cycles) / double(stats_.page_ins) / ghz / 1e3 : 0.0, 3)},
      {"page_in_max_us", fixed(double(stats_.page_in_max_cycles) / ghz / 1e3, 3)}};
  if (stats_.first_references) {
    j["first_references"] = stats_.first_references;
    j["first_reference_cycles"] = stats_.first_reference_cycles;
  }
  if (stats_.frame_waits) {
    j["frame_wait_cycles"] = stats_.frame_wait_cycles;
    j["frame_wait_parks"] = stats_.frame_wait_parks;
  }
  add_placement_json(j);
  j["samples"] = samples_;
  j["data_sets"] = data_sets_json();
  report_json::write(out, j, {.one_per_line = {"data_sets"}});
}

}  // namespace paging

namespace paging {

void Paging::add_timeline_columns(os::System& system) {
  using K = os::TimelineColumn::Kind;
  system.add_timeline_column({.key = "page_ins_scm_per_s", .label = "in SCM/s", .kind = K::Rate,
                              .value = [this] { return double(stats_.pages_in[0]); }});
  system.add_timeline_column({.key = "page_ins_dasd_per_s", .label = "in DASD/s", .kind = K::Rate,
                              .value = [this] { return double(stats_.pages_in[1]); }});
  system.add_timeline_column({.key = "page_outs_per_s", .label = "out/s", .kind = K::Rate,
                              .value = [this] { return double(stats_.written); }});
  system.add_timeline_column({.key = "frames_available", .label = "avail frames", .kind = K::Level,
                              .value = [this] { return double(available_frames()); }});
  system.add_timeline_column({.key = "dump_frames", .label = "dump frames", .kind = K::Level,
                              .value = [this] { return double(dump_frames_); }});
}

namespace {
// IEAVTSFS's times: hh:mm:ss.ffffff of simulated time (from the run's start; no date).
std::string clock_time(uint64_t cycles, double ghz) {
  const uint64_t us = uint64_t(double(cycles) / ghz / 1e3);
  return fmt::format("{:02}:{:02}:{:02}.{:06}", us / 3600000000ull, us / 60000000ull % 60, us / 1000000ull % 60,
                     us % 1000000ull);
}
}  // namespace

// VERBX IEAVTSFS's SVC dump statistics (seed 002's layout), a block per dump.
void Paging::write_dumps_text(std::ostream& out) const {
  const double ghz = system_->machine().config().clock_ghz;
  const auto t = [ghz](uint64_t c) { return clock_time(c, ghz); };
  const auto line = [&out](const std::string& label, const std::string& v) {
    out << fmt::format("{:<34}{}\n", label, v);
  };
  const auto count = [](uint64_t v) { return fmt::format("{:>10}", v); };
  out << "SVC DUMP STATISTICS  (times from the start of the run, simulated)\n";
  for (const SvcDumpRecord& r : dumps_) {
    out << fmt::format("\nDump {:03}  title: {}  requested by: {}\n\n", r.number, r.title, r.by);
    line("Dump start", t(r.start));
    line("Dump end", t(r.end));
    line("Total dump capture time", t(r.capture_end - r.start));
    line("Dump elapsed time", t(r.end - r.start) + (devices_->dump_volumes().empty()
                                                         ? "  (no dump volumes: ends with the capture)"
                                                         : fmt::format("  ({} pages written)", r.written_pages)));
    line("System nondispatchability start", t(r.system_nd_start));
    line("System set nondispatchable", t(r.system_set_nd));
    line("Time to become nondispatchable", t(r.system_set_nd - r.system_nd_start));
    line("System reset dispatchable", t(r.system_reset));
    line("System was nondispatchable", t(r.system_reset - r.system_set_nd));
    line("Global storage pages copied", count(r.global_pages));
    for (const DumpedAddressSpace& s : r.spaces) {
      out << fmt::format("\nAsid {:04X} ({}):\n", s.process, s.name);
      line("  Local storage start", t(s.local_start));
      line("  Local storage end", t(s.local_end));
      line("  Local storage capture time", t(s.local_end - s.local_start));
      line("  Tasks reset dispatchable", t(s.tasks_reset));
      line("  Tasks were nondispatchable", t(s.tasks_reset - s.local_start));
      line("  Pages requiring input I/O", count(s.input_io));
      line("  Source page copied to target", count(s.copied));
      line("  Source frames re-assigned", count(s.reassigned));
    }
  }
}

std::string Paging::dumps_json() const {
  using report_json::Json;
  const double ns = 1.0 / system_->machine().config().clock_ghz;
  const auto s_of = [ns](uint64_t c) { return double(c) * ns / 1e9; };
  Json dumps = Json::array();
  for (const SvcDumpRecord& r : dumps_) {
    Json spaces = Json::array();
    for (const DumpedAddressSpace& s : r.spaces)
      spaces.push_back({{"asid", s.process},
                        {"job", s.name},
                        {"local_start_s", s_of(s.local_start)},
                        {"capture_s", s_of(s.local_end - s.local_start)},
                        {"nondispatchable_s", s_of(s.tasks_reset - s.local_start)},
                        {"pages_input_io", s.input_io},
                        {"pages_copied", s.copied},
                        {"frames_reassigned", s.reassigned}});
    dumps.push_back({{"number", r.number},
                     {"title", r.title},
                     {"requested_by", r.by},
                     {"start_s", s_of(r.start)},
                     {"end_s", s_of(r.end)},
                     {"capture_s", s_of(r.capture_end - r.start)},
                     {"elapsed_s", s_of(r.end - r.start)},
                     {"system_nondispatchable_s", s_of(r.system_reset - r.system_set_nd)},
                     {"global_pages", r.global_pages},
                     {"written_pages", r.written_pages},
                     {"address_spaces", spaces}});
  }
  return report_json::text({{"svc_dumps", dumps}}, {.one_per_line = {"svc_dumps", "address_spaces"}});
}

}  // namespace paging
