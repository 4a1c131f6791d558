#include "fetch/fetch_subsystem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "fetch/guest/csv.h"
#include "fetch/library_builder.h"
#include "fetch/library_check.h"
#include "fetch/load_module.h"
#include "fetch/member_list.h"
#include "fetch/module_reader.h"
#include "fetch/pdse_format.h"
#include "os/guest/include/tpf_svc.h"
#include "config/number_text.h"
#include "report/report_json.h"

namespace fetch {

namespace ckd = flashsim::ckd;

namespace {

constexpr uint8_t kRW = emu::kProtRead | emu::kProtWrite;
constexpr uint64_t kPage = 4096;
// The most records a 3390 track can hold (a record of one data byte: 20 cells of 1,729):
// a chained read of the rest of a cylinder never needs more Read Data commands than this
// for each of its tracks.
constexpr uint32_t kMaxRecordsPerTrack = flashsim::dasd3390::kCellsPerTrack / 20;

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("system.fetch: cannot read {}", path));
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> b = read_file(path);
  return {b.begin(), b.end()};
}

}  // namespace

emu::IoResult LibraryDevice::start(uint64_t now, emu::IoOperation& op) {
  auto* p = dynamic_cast<ChannelProgram*>(&op);
  if (!p) return {now, 1, "not a channel program for " + name_};
  const uint64_t ns = std::max(ns_of(now), last_ns_);
  last_ns_ = ns;
  p->result = volume_.execute(ns, p->ccws);
  return {std::max(now, cycles_of(p->result.time_ns)), p->result.ok() ? 0u : 1u, p->result.error};
}

void ProgramFetch::install(os::System& system) {
  system_ = &system;
  if (!config_.enabled()) return;
  // The library: an image file, or built now as the binder would write it.
  if (!config_.library.empty()) {
    const std::vector<uint8_t> bytes = read_file(config_.library);
    ParsedImage p = parse_image(bytes.data(), bytes.size());
    if (!p.ok) throw std::runtime_error(fmt::format("system.fetch.library: {}: {}", config_.library, p.error));
    volume_ = std::move(p.volume);
  } else {
    std::vector<MemberSpec> members = !config_.members.empty() ? parse_member_list(read_text(config_.members), config_.members)
                                      : config_.synthetic > 0 ? synthetic_linklib(config_.synthetic)
                                                              : std::vector<MemberSpec>{};
    for (MemberSpec& m : image_programs(system)) members.push_back(std::move(m));
    try {
      volume_ = build_library(std::move(members), config_.build).volume;
    } catch (const std::exception& x) {
      throw std::runtime_error(fmt::format("system.fetch: the library cannot be built: {}", x.what()));
    }
  }
  tracks_used_ = uint32_t(volume_.tracks.size());
  // The programs fetched at their first reference leave the image now: their pages fault
  // until the fetch brings them (page_fault).
  for (auto& [name, f] : fetchable_)
    for (uint64_t page : f.pages) {
      system.withdraw_common_page(page);
      fetchable_page_[page] = name;
    }
  // A bad library still runs: its LOADs abend where they meet the damage (as a damaged
  // library on z/OS); run.log says what the checker found.
  const LibraryCheck check = check_library(volume_);
  library_check_ = check.ok ? "" : check.error;
  tracks_ = std::make_unique<LibraryTracks>(volume_);
  ckd::CkdConfig cc = ckd::ckd_config(flashsim::DasdConfig{});
  cc.cached = config_.dasd_cache;
  cc.record_overhead_ns = config_.record_overhead_ns;
  device_ = std::make_unique<LibraryDevice>(fmt::format("LIB {}", volume_.dsname), *tracks_, cc,
                                            system.machine().config().clock_ghz);
  subchannel_ = system.attach_device(*device_);
  system.log(fmt::format("fetch: {} ({}, BLKSIZE {}, {} tracks, {} directory blocks), LLA {}, {}{}", volume_.dsname,
                         organization_name(volume_.organization), volume_.block_size, tracks_used_,
                         volume_.directory_blocks, lla_name(config_.lla),
                         config_.dasd_cache ? "cached control unit" : "uncached 3390",
                         library_check_.empty() ? "" : "; library check: " + library_check_));

  using C = os::SvcCost;
  system.add_svc({TPF_SVC_LOAD, "LOAD", C::Entry, [this](emu::Cpu& c, os::Ecb& e) { svc(c, e, Kind::Load); }});
  system.add_svc({TPF_SVC_BLDL, "BLDL", C::Entry, [this](emu::Cpu& c, os::Ecb& e) { svc(c, e, Kind::Bldl); }});
  system.add_svc({TPF_SVC_DELETE, "DELETE", C::Entry, [this](emu::Cpu& c, os::Ecb& e) { delete_svc(c, e); }});
  system.add_report({.name = "fetch.txt", .write = [this](std::ostream& o) { o << report_text(); }});
  system.add_report({.name = "fetch.json", .write = [this](std::ostream& o) {
                       ::report_json::write(o, report_json(), {.one_per_line = {"modules", "jobs"}});
                     }});
  system.add_summary_counter({.key = "fetch_loads", .label = "LOADs (program fetch)", .value = [this] { return loads_; }});
  system.add_summary_counter({.key = "fetch_excps", .label = "EXCPs (program fetch)", .value = [this] { return excps_; }});
  system.add_summary_counter({.key = "fetch_abends", .label = "LOADs ended by an abend", .value = [this] { return abends_; }});
  // E5's question: how long the LOAD/DELETE loop took, with its CPU and EXCPs (the seed's job figures).
  system.add_summary_headline({.key = "fetch_job_elapsed_seconds",
                               .label = "elapsed seconds of the LOAD/DELETE job",
                               .note = "simulated, from the job's arrival to its end; fetch.txt's JOBS",
                               .reason = "an ECB used program fetch: E5's figure",
                               .digits = 3,
                               .applies = [this] { return !jobs_.empty(); },
                               .value = [this] { return seconds(jobs_total().elapsed_cycles); },
                               .detail = [this] {
                                 const JobStats t = jobs_total();
                                 return fmt::format("CPU {:.4f} s, {} EXCPs, {} LOADs, {} DELETEs ({} job{})",
                                                    seconds(t.cpu_cycles), cfg::grouped(t.excps), cfg::grouped(t.loads),
                                                    cfg::grouped(t.deletes), jobs_.size(), jobs_.size() == 1 ? "" : "s");
                               }});
}

// Members made of the image's programs of system.fetch.programs: each its read-only pages
// from its slot's first (its code and constants as linked at their addresses: no
// relocation), its entry point its symbol's offset there.
std::vector<MemberSpec> ProgramFetch::image_programs(os::System& system) {
  std::vector<MemberSpec> members;
  const std::vector<os::CommonPage> pages = system.program_pages();
  for (const std::string& name : config_.programs) {
    const emu::Symbol* sym = system.symbols().find(name);
    if (!sym || sym->address < TPF_EVM_PROGRAMS || sym->address >= TPF_EVM_IMAGE_END)
      throw std::runtime_error(fmt::format("system.fetch.programs: {} is not a program of the image", name));
    const std::string why = check_member_name(name);
    if (!why.empty()) throw std::runtime_error(fmt::format("system.fetch.programs: {}", why));
    Fetchable& f = fetchable_[name];
    f.slot = sym->address & ~uint64_t(TPF_EVM_PROGRAM_SLOT - 1);
    for (const os::CommonPage& pg : pages)
      if (pg.address >= f.slot && pg.address < f.slot + TPF_EVM_PROGRAM_SLOT) f.pages.push_back(pg.address);
    if (f.pages.empty()) throw std::runtime_error(fmt::format("system.fetch.programs: {} has no code pages", name));
    MemberSpec m;
    m.name = name;
    m.size = uint32_t(f.pages.back() + kPage - f.slot);
    m.entry = uint32_t(sym->address - f.slot);
    m.text.assign(m.size, 0);
    for (uint64_t a : f.pages) system.system_space().read_bytes(a, m.text.data() + (a - f.slot), kPage);
    m.initial_bytes = m.size;   // a PDSE: all in INITIAL (an ENTER runs the program at once)
    members.push_back(std::move(m));
  }
  return members;
}

emu::PageFaultHandler::Action ProgramFetch::page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) {
  using A = emu::PageFaultHandler::Action;
  if (address >= CSV_AREA_END && address < TPF_EVM_FETCHED_END) return deferred_fault(cpu, e, address);
  auto page = fetchable_page_.find(address & ~(kPage - 1));
  if (page == fetchable_page_.end()) return A::Fail;
  Fetchable& f = fetchable_[page->second];
  if (f.resident) return A::Fail;
  if (f.fetcher && f.fetcher != e.id) {   // another ECB's fetch brings it: wait for that
    ++modules_[page->second].waits;
    system_->park(cpu, e, f.waiters, "the fetch of " + page->second);
    return A::Wait;
  }
  auto it = pending_.find(e.id);
  if (it == pending_.end()) {
    Pending p;
    p.kind = Kind::Enter;
    p.name = page->second;
    p.ecb = &e;
    p.started = cpu.cycles;
    p.cpu_start = ecb_cpu(cpu, e);
    f.fetcher = e.id;
    it = pending_.emplace(e.id, std::move(p)).first;
  }
  Pending& p = it->second;
  if (p.io) {   // the reference made again after its channel program ended
    consume(cpu, e, p);
    p.io.reset();
  }
  switch (advance(cpu, e, p)) {
    case Step::Guest:   // never asked of a reference's fetch
    case Step::Parked: return A::Wait;
    case Step::Finished: return finish_enter(cpu, p) ? A::Retry : A::Fail;
    case Step::Failed: break;
  }
  // The reference takes its program check (the dump); run.log says why.
  p.cpu_cycles = ecb_cpu(cpu, e) - p.cpu_start;
  count_abend(p);
  system_->log(fmt::format("{:>12} {}", cpu.cycles, dump_text(p, e, cpu.istream())));
  f.fetcher = 0;
  for (os::Ecb* w : f.waiters) system_->make_ready(*w, cpu.cycles);
  f.waiters.clear();
  pending_.erase(e.id);
  return A::Fail;
}

// The program read: its pages back in the image for every ECB, checked against what
// the library held; the ECBs that waited for it go on.
// A PDS member's text and adcons from its reader (a PDSE's pages are in p.image already).
void ProgramFetch::take_module(Pending& p) {
  if (!p.reader) return;
  p.image = std::move(p.reader->image());
  p.adcons = p.reader->adcons();
  p.reader.reset();
}

bool ProgramFetch::finish_enter(emu::Cpu& cpu, Pending& p) {
  take_module(p);
  Fetchable& f = fetchable_[p.name];
  ModuleStats& m = modules_[p.name];
  for (uint64_t a : f.pages) system_->restore_common_page(a);
  std::vector<uint8_t> now(kPage);
  bool same = p.image.size() >= f.pages.back() + kPage - f.slot;
  for (uint64_t a : f.pages) {
    if (!same) break;
    system_->system_space().read_bytes(a, now.data(), kPage);
    same = std::equal(now.begin(), now.end(), p.image.begin() + (a - f.slot));
  }
  f.resident = true;
  f.fetcher = 0;
  for (os::Ecb* w : f.waiters) system_->make_ready(*w, cpu.cycles);
  f.waiters.clear();
  ++m.loads, ++m.fetches, ++loads_;
  m.size = uint32_t(p.image.size());
  m.cpu_cycles += ecb_cpu(cpu, *p.ecb) - p.cpu_start;
  m.elapsed_cycles += cpu.cycles - p.started;
  const std::string name = p.name;
  const size_t bytes = p.image.size();
  pending_.erase(p.ecb->id);   // p goes with it
  if (!same) {
    system_->log(fmt::format("{:>12} fetch: {}: the library's copy differs from the image's program", cpu.cycles, name));
    ++m.abends, ++abends_;
    return false;
  }
  system_->log(fmt::format("{:>12} fetch: {} fetched ({} bytes, {} EXCPs) and resident", cpu.cycles, name, bytes,
                           m.excps));
  return true;
}

// ---- the services ------------------------------------------------------------------------

// Host work charged as service cycles: only LLA's staged copy (16 bytes a cycle).
void ProgramFetch::charge(emu::Cpu& cpu, Pending&, uint64_t cycles) { cpu.charge(emu::Cause::Service, cycles); }

uint64_t ProgramFetch::ecb_cpu(const emu::Cpu& cpu, const os::Ecb& e) {
  return e.cpu_cycles + (cpu.cycles - e.dispatched_at);
}

void ProgramFetch::fail(Pending& p, const std::string& code, const std::string& why) {
  if (!p.error.empty()) return;
  p.error_code = code;
  p.error = why;
}

// The abend's dump lines (before the registers): z/OS's message for the code, then ours.
std::string ProgramFetch::dump_text(const Pending& p, const os::Ecb& e, unsigned istream) const {
  const std::string message =
      p.error_code.rfind("806", 0) == 0
          ? fmt::format("CSV003I REQUESTED MODULE {} NOT FOUND", p.name)
          : fmt::format("CSV011I FETCH FAILED FOR MODULE {}, RETURN CODE {}", p.name, p.error_code.substr(4));
  return fmt::format("ABEND {} -- ECB {} (program {}, I-stream {}): {} of {} from {}\n  {}\n  {}\n", p.error_code,
                     e.id, e.program, istream, p.kind == Kind::Load ? "LOAD" : p.kind == Kind::Bldl ? "BLDL" : "ENTER", p.name, volume_.dsname, message,
                     p.error);
}

std::string ProgramFetch::where(Ttr ttr) const { return describe(volume_, ttr); }

// ---- the guest's steps (fetch/guest/csv.h) ---------------------------------------------------

// A step for the contents supervisor's guest code, with `bytes` placed in the work
// area's buffer (as the channel program put them in storage) and `count` its items.
void ProgramFetch::ask(os::Ecb& e, Pending& p, uint32_t step, const std::vector<uint8_t>& bytes, uint32_t count,
                       uint64_t at) {
  p.asked = step;
  p.ask_count = count;
  p.ask_data = at;
  if (!bytes.empty()) e.process->space->write_bytes(at, bytes.data(), bytes.size());
}

void ProgramFetch::put_request(os::Ecb& e, const Pending& p, uint32_t step) {
  uint8_t b[CSV_RQ_BYTES - 8] = {};
  auto put = [&](uint32_t off, uint64_t v, int n) {
    for (int k = n - 1; k >= 0; k--, v >>= 8) b[off - 8 + k] = uint8_t(v);
  };
  put(CSV_RQ_STEP, step, 4);
  put(CSV_RQ_COUNT, p.ask_count, 4);
  put(CSV_RQ_DATA, p.ask_data, 8);
  put(CSV_RQ_MODULE, p.module_at, 8);
  // B_RLD's items relocate the adcons of the part loaded now (a DEFERRED class's come in
  // unrelocated at their reference: not modelled).
  put(CSV_RQ_SIZE, step == CSV_PDSE_RLD ? p.loaded_bytes : p.module_size, 4);
  put(CSV_RQ_ENTRY, p.entry.entry, 4);
  e.process->space->write_bytes(p.request + 8, b, CSV_RQ_ANSWER - 8);
}

// The SVC returns to the guest with the step asked (r2 and the request block).
void ProgramFetch::hand_to_guest(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  put_request(e, p, p.asked);
  cpu.gr[2] = p.asked;
}

int64_t ProgramFetch::guest_answer(os::Ecb& e, const Pending& p) {
  uint8_t b[8] = {};
  e.process->space->read_bytes(p.request + CSV_RQ_ANSWER, b, 8);
  return int64_t(get_be(b, 8));
}

// The guest did the step asked: what it found decides the next.
void ProgramFetch::take_answer(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  const uint32_t step = p.asked;
  p.asked = 0;
  const int64_t answer = guest_answer(e, p);
  switch (step) {
    case CSV_FIND_CDE:
      if (answer != 0) {   // in the process already: its use count went up
        p.resident = true;
        p.phase = Phase::Done;
        return;
      }
      return look_in_lla(cpu, e, p);
    case CSV_LLA:
      if (answer >= 0) take_lla_entry(cpu, p);
      return;
    case CSV_PDS_BLOCK: return take_pds_entry(p, p.block, answer);
    case CSV_PDSE_PAGE: return take_pdse_entry(p, p.block, answer);
    case CSV_RECORDS:
    case CSV_PDSE_RLD:
      if (answer < 0) return fail(p, "106-0E", "a control record's text runs past the module");
      p.relocated += uint64_t(answer);
      return;
    case CSV_BUILD_CDE:
      if (answer == 0) return fail(p, "106-0C", "no storage for the module's contents directory entry (the CDE pool is full)");
      p.cde_built = true;
      return;
  }
}

void ProgramFetch::svc(emu::Cpu& cpu, os::Ecb& e, Kind kind) {
  auto it = pending_.find(e.id);
  if (it == pending_.end()) {
    if (!begin(cpu, e, kind)) return;   // answered at once
    it = pending_.find(e.id);
  } else if (it->second.asked) {
    take_answer(cpu, e, it->second);
  }
  Pending& p = it->second;
  if (p.io) {   // the SVC issued again after its channel program ended
    consume(cpu, e, p);
    p.io.reset();
  }
  switch (p.asked ? Step::Guest : advance(cpu, e, p)) {
    case Step::Guest: return hand_to_guest(cpu, e, p);
    case Step::Parked: return;
    case Step::Finished: return finish(cpu, e, p);
    case Step::Failed: return end_with_abend(cpu, e, p);
  }
}

// The LOAD (or BLDL) failed: counted, and its ECB ends with the abend's dump.
void ProgramFetch::end_with_abend(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  if (p.module_at && !p.cde_built) {   // the storage obtained for the module goes back
    e.process->space->unmap(p.module_at, p.module_bytes);
    areas_[e.process->id].given_back.emplace(p.module_bytes, p.module_at);
  }
  p.cpu_cycles = ecb_cpu(cpu, e) - p.cpu_start;
  count_abend(p);
  const std::string dump = dump_text(p, e, cpu.istream());
  pending_.erase(e.id);   // p goes with it
  system_->abend(cpu, e, dump);
}

void ProgramFetch::count_abend(const Pending& p) {
  ModuleStats& m = modules_[p.name];
  ++m.abends, ++abends_;
  m.cpu_cycles += p.cpu_cycles;
}

// The work area at the start of the process's fetched-programs area (csv.h): the guest's
// CDEs, LLA's directory and the records' buffer, demand-zero, there for every process.
void ProgramFetch::process_starting(os::Process& p) {
  if (!config_.enabled() || !p.space) return;
  p.space->reserve(CSV_AREA, CSV_AREA_BUFFER_END - CSV_AREA, kRW);
}

// A new LOAD or BLDL: its name, then the guest's search of the process's CDEs. False if
// it is answered at once (a name that is not one).
bool ProgramFetch::begin(emu::Cpu& cpu, os::Ecb& e, Kind kind) {
  const uint64_t request = cpu.gr[2];
  char raw[9] = {};
  e.process->space->read_bytes(request + CSV_RQ_NAME, raw, 8);
  std::string name(raw, strnlen(raw, 8));
  Pending p;
  p.kind = kind;
  p.name = name;
  p.ecb = &e;
  p.request = request;
  p.started = cpu.cycles;
  p.cpu_start = ecb_cpu(cpu, e);
  const std::string bad_name = check_member_name(name);
  ModuleStats& m = modules_[bad_name.empty() ? name : "(not a name)"];
  if (!bad_name.empty()) {
    uint8_t at[8] = {};
    e.process->space->read_bytes(request + CSV_RQ_DATA, at, 8);
    p.name = "'" + name + "'";
    fail(p, "806-04", fmt::format("the name at {:#x} is not a program name: {}", get_be(at, 8), bad_name));
    ++m.abends, ++abends_;
    system_->abend(cpu, e, dump_text(p, e, cpu.istream()));
    return false;
  }
  if (kind == Kind::Load) {
    ask(e, p, CSV_FIND_CDE, {}, 0, 0);
  } else {
    ++m.bldls;
    look_in_lla(cpu, e, p);
  }
  pending_.emplace(e.id, std::move(p));
  return true;
}

// LLA's directory, searched by the guest (as the process sees it: the entries LLA
// holds, in name order, in the work area); a reference's fetch (Enter) looks itself.
void ProgramFetch::look_in_lla(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  if (config_.lla == Lla::None || lla_directory_.empty()) return;
  if (p.kind == Kind::Enter) {
    if (lla_directory_.count(p.name)) take_lla_entry(cpu, p);
    return;
  }
  std::vector<uint8_t> table;
  const size_t most = (CSV_AREA_LLA_END - CSV_AREA_LLA) / CSV_LLA_ENTRY_BYTES;
  uint32_t i = 0;
  for (const auto& [name, entry] : lla_directory_) {
    if (i == most) break;
    std::vector<uint8_t> row(CSV_LLA_ENTRY_BYTES, 0);
    // The guest compares the names as the caller gave them (csv.h): the same bytes.
    std::memcpy(row.data(), name.data(), name.size());
    put_be(row, 8, i, 4);
    table.insert(table.end(), row.begin(), row.end());
    ++i;
  }
  ask(e, p, CSV_LLA, table, i, CSV_AREA_LLA);
}

void ProgramFetch::take_lla_entry(emu::Cpu& cpu, Pending& p) {
  auto d = lla_directory_.find(p.name);
  if (d == lla_directory_.end()) return;
  ModuleStats& m = modules_[p.name];
  p.entry = d->second;
  p.phase = Phase::Module;
  ++m.directory_from_lla;
  if (p.kind == Kind::Load && config_.lla == Lla::Modules) {
    if (auto s = lla_modules_.find(p.name); s != lla_modules_.end()) {
      // LLA's staged copy (VLF): moved into the program's storage by the CPU, 16
      // bytes a cycle (as the control program's static page copies are charged).
      p.image = s->second;
      charge(cpu, p, p.image.size() / 16);
      p.phase = Phase::Done;
      p.staged = true;
      ++m.from_lla;
    }
  }
}

// Storage for the module in the process's fetched-programs area, after the work area:
// page-rounded ranges, one given back reused by the next module of its size. Only its
// first `loaded` bytes are there at once; the rest (a PDSE's DEFERRED classes) comes in
// at its first reference (page_fault).
bool ProgramFetch::obtain_storage(os::Ecb& e, Pending& p, uint32_t size, uint32_t loaded) {
  Area& area = areas_[e.process->id];
  const uint64_t bytes = std::max<uint64_t>(kPage, (uint64_t(size) + kPage - 1) / kPage * kPage);
  uint64_t at = 0;
  if (auto g = area.given_back.find(bytes); g != area.given_back.end()) {
    at = g->second;
    area.given_back.erase(g);
  } else if (area.next + bytes <= TPF_EVM_FETCHED_END) {
    at = area.next;
    area.next += bytes;
  } else {
    fail(p, "106-0C", fmt::format("no storage for the module's {} bytes (reason 14): the fetched-programs area "
                                  "(TPF_EVM_FETCHED) is full", size));
    return false;
  }
  p.module_at = at;
  p.module_bytes = bytes;
  p.module_size = size;
  const uint64_t now = std::min<uint64_t>(bytes, (uint64_t(loaded) + kPage - 1) / kPage * kPage);
  // Backed as first referenced: the channel programs' data backs the pages it lands in
  // (a host write, the I/O's page fix: not charged); a page no text record fills is
  // backed at the guest's first reference to it, a page fault the paging subsystem takes
  // (a frame and its cost, counted in paging.txt).
  if (now) e.process->space->reserve(at, now, kRW, /*first_reference_faults=*/true);
  return true;
}

// The next channel program (the ECB parked for it), or the end: the module (or BLDL's
// entry) complete, or an error that ends the ECB; or a step for the guest.
ProgramFetch::Step ProgramFetch::advance(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  for (;;) {
    if (!p.error.empty() && p.kind == Kind::Bldl && p.error_code == "806-04") {   // BLDL: not found is an answer
      p.entry.found = false;
      p.error.clear();
      p.phase = Phase::Done;
      continue;
    }
    if (!p.error.empty()) return Step::Failed;
    if (p.asked) return Step::Guest;
    if (p.phase == Phase::Directory) {
      if (volume_.organization == Organization::Pds) {
        if (p.started_directory) {   // the block came back without the name in it
          fail(p, "806-04", "not in the library's directory");
          continue;
        }
        p.started_directory = true;
        start(cpu, e, p, bldl_program(p.name, p.directory_cylinder));
        return Step::Parked;
      }
      // PDSE: the page in storage goes on at once; else it is read.
      if (auto d = pdse_directory_.find(p.pdse_page); d != pdse_directory_.end()) {
        pdse_directory_page(e, p, d->second);
        continue;
      }
      start(cpu, e, p, chained_read(pdse_page_ttr(p.pdse_page), 1));
      return Step::Parked;
    }
    if (p.phase == Phase::Module) {
      if (p.kind == Kind::Bldl) {
        p.phase = Phase::Done;
        continue;
      }
      if (volume_.organization == Organization::Pds) {
        if (p.module_ended) {
          p.phase = Phase::Done;
          continue;
        }
        if (!p.module_started) {
          p.module_started = true;
          p.next = p.at = p.entry.ttr;
          p.reader = std::make_unique<ModuleReader>(p.entry.size);
          if (p.kind == Kind::Load && !obtain_storage(e, p, p.entry.size, p.entry.size)) continue;
        }
        const Cchhr a = volume_.address(p.next);
        start(cpu, e, p, chained_read(p.next, (flashsim::dasd3390::kTracksPerCylinder - a.head) * kMaxRecordsPerTrack));
        return Step::Parked;
      }
      if (!p.descriptor_read) {
        start(cpu, e, p, chained_read(pdse_page_ttr(p.entry.descriptor), 1));
        return Step::Parked;
      }
      if (p.runs.empty()) {
        p.phase = Phase::Done;
        continue;
      }
      // A run's pages within one cylinder: one channel program.
      PageRun& r = p.runs.front();
      const Ttr t = pdse_page_ttr(r.first);
      const Cchhr a = volume_.address(t);
      const uint32_t in_cylinder = (flashsim::dasd3390::kTracksPerCylinder - a.head) * 12 - (t.record - 1);
      const uint32_t n = std::min(r.count, in_cylinder);
      start(cpu, e, p, chained_read(t, n));
      return Step::Parked;
    }
    return Step::Finished;
  }
}

void ProgramFetch::start(emu::Cpu& cpu, os::Ecb& e, Pending& p, std::vector<ckd::Ccw> ccws) {
  auto op = std::make_shared<ChannelProgram>();
  op->ccws = std::move(ccws);
  p.io = op;
  ModuleStats& m = modules_[p.name];
  ++m.excps, ++excps_;
  count_job(e, 1, false, false);
  const uint64_t id = e.id;
  system_->start_io(subchannel_, cpu.cycles, op, [this, id](const emu::IoInterruption& i) { io_done(id, i); });
  system_->park(cpu, e, p.waiters, "program fetch I/O");
}

// The channel program ended: its LOAD's SVC is issued again, to go on.
void ProgramFetch::io_done(uint64_t ecb, const emu::IoInterruption& i) {
  auto it = pending_.find(ecb);
  if (it == pending_.end()) return;
  Pending& p = it->second;
  modules_[p.name].io_ns += p.io->result.device_ns();
  if (!p.waiters.empty()) p.waiters.pop_front();
  if (p.kind == Kind::Load || p.kind == Kind::Bldl) p.ecb->psw -= 2;   // the SVC (2 bytes) runs again (a reference: by itself)
  system_->make_ready(*p.ecb, i.time);
}

void ProgramFetch::consume(emu::Cpu&, os::Ecb& e, Pending& p) {
  const ckd::Result& r = p.io->result;
  ModuleStats& m = modules_[p.name];
  m.records += r.records_read;
  m.bytes += r.bytes_read;
  if (p.kind == Kind::Deferred) return deferred_page(e, p, r);
  if (p.phase == Phase::Directory) {
    if (volume_.organization == Organization::Pds) {
      m.directory_blocks += r.key_searches;
      if (r.status == ckd::Status::EndOfCylinder) {   // the directory goes on on the next cylinder
        ++p.directory_cylinder;
        p.started_directory = false;
        return;
      }
      if (r.status == ckd::Status::EndOfFile) return fail(p, "806-04", fmt::format("not in the library's directory "
                                                                                     "({} blocks searched)", r.key_searches));
      if (!r.ok() || r.reads.size() != 1) return fail(p, "106-0F", "I/O error in the directory search: " + r.error);
      return directory_block(e, p, r.reads[0]);
    }
    ++m.directory_blocks;
    if (!r.ok() || r.reads.size() != 1)
      return fail(p, "106-0F", fmt::format("I/O error reading directory page {}: {}", p.pdse_page, r.error));
    pdse_directory_[p.pdse_page] = r.reads[0];
    return pdse_directory_page(e, p, r.reads[0]);
  }
  if (volume_.organization == Organization::Pds) return module_records(e, p, r);
  if (!r.ok()) return fail(p, "106-0F", "I/O error reading the program object: " + r.error);
  if (!p.descriptor_read) {
    p.descriptor_read = true;
    if (r.reads.size() != 1) return fail(p, "106-0F", "the descriptor page was not read");
    pdse_descriptor(p, r.reads[0]);
    if (p.error.empty() && p.kind == Kind::Load) obtain_storage(e, p, p.entry.size, p.loaded_bytes);
    return;
  }
  // A text class's pages land in the module's storage, its bytes after the classes
  // before it; the B_RLD pages' items go to the guest, which relocates the adcons.
  PageRun& run = p.runs.front();
  std::vector<uint8_t> items;
  for (const std::vector<uint8_t>& page : r.reads) {
    if (run.rld_bytes) {
      const uint32_t n = std::min<uint32_t>(uint32_t(page.size()), run.rld_bytes);
      items.insert(items.end(), page.begin(), page.begin() + n);
      run.rld_bytes -= n;
      continue;
    }
    const uint32_t n = std::min<uint32_t>(uint32_t(page.size()), run.text_bytes);
    if (uint64_t(run.dest) + n > p.image.size()) return fail(p, "106-0E", "a class's text runs past the object's size");
    std::copy_n(page.begin(), n, p.image.begin() + run.dest);
    if (p.module_at && n) e.process->space->write_bytes(p.module_at + run.dest, page.data(), n);
    run.dest += n, run.text_bytes -= n;
  }
  run.first += uint32_t(r.reads.size());
  run.count -= std::min<uint32_t>(run.count, uint32_t(r.reads.size()));
  if (run.count == 0) p.runs.erase(p.runs.begin());
  if (!items.empty() && p.kind == Kind::Load)
    ask(e, p, CSV_PDSE_RLD, items, uint32_t(items.size() / pdse::kRldBytesPerAdcon), CSV_AREA_BUFFER);
}

// ---- PDS ---------------------------------------------------------------------------------

std::vector<ckd::Ccw> ProgramFetch::bldl_program(const std::string& name, uint32_t cylinder) const {
  Cchhr d = volume_.address(Ttr{0, 1});
  if (cylinder > 0) d.cylinder += cylinder, d.head = 0, d.record = 1;   // the directory's next cylinder
  const auto key = ebcdic_name(name);
  // Seek, orient on the first directory block, search the blocks' keys (the highest
  // name in each) multitrack until one is not lower than the name, read that block.
  return {ckd::seek(d.cylinder, d.head), ckd::search_id_equal(d.cylinder, d.head, d.record), ckd::tic(1),
          ckd::search_key(ckd::Cmd::SearchKeyHighOrEqual, {key.begin(), key.end()}, true), ckd::tic(3),
          ckd::read(ckd::Cmd::ReadData, pds2::kBlockBytes)};
}

// Seek to `from`, find it, read it and the `records` - 1 records after it, multitrack.
std::vector<ckd::Ccw> ProgramFetch::chained_read(Ttr from, uint32_t records) const {
  const Cchhr a = volume_.address(from);
  std::vector<ckd::Ccw> p = {ckd::seek(a.cylinder, a.head), ckd::search_id_equal(a.cylinder, a.head, a.record),
                             ckd::tic(1), ckd::read(ckd::Cmd::ReadData, 65535)};
  for (uint32_t i = 1; i < records; i++) p.push_back(ckd::read(ckd::Cmd::ReadData, 65535, true));
  p.back().chain = false;
  return p;
}

// The directory block BLDL read: its entries compared, until the name or a higher one, by
// the guest (a reference's fetch, Enter, compares them itself).
void ProgramFetch::directory_block(os::Ecb& e, Pending& p, const std::vector<uint8_t>& b) {
  if (b.size() != pds2::kBlockBytes) return fail(p, "106-0F", fmt::format("a directory block of {} bytes", b.size()));
  const uint32_t used = uint32_t(get_be(b.data(), 2));
  if (used < 2 || used > b.size())
    return fail(p, "106-0F", fmt::format("a directory block's used count is {} (2..256)", used));
  if (p.kind != Kind::Enter) {
    p.block = b;
    return ask(e, p, CSV_PDS_BLOCK, b, 1, CSV_AREA_BUFFER);
  }
  const auto want = ebcdic_name(p.name);
  uint32_t at = 2;
  while (at + pds2::kFixedBytes <= used) {
    const int cmp = std::memcmp(b.data() + at, want.data(), 8);
    if (cmp > 0) break;   // past it (the end marker, X'FF's, included)
    if (cmp == 0) return take_pds_entry(p, b, at);
    at += pds2::kFixedBytes + 2 * (b[at + 11] & pds2::kHalfwordsMask);
  }
  take_pds_entry(p, b, -1);
}

// The entry at `at` in a directory block (-1: the name is not there).
void ProgramFetch::take_pds_entry(Pending& p, const std::vector<uint8_t>& b, int64_t at) {
  const uint32_t used = uint32_t(get_be(b.data(), 2));
  const auto want = ebcdic_name(p.name);
  if (at < 2 || uint64_t(at) + pds2::kFixedBytes > used || std::memcmp(b.data() + at, want.data(), 8) != 0)
    return fail(p, "806-04", "not in the library's directory");
  const uint8_t* e = b.data() + at;
  const uint32_t len = pds2::kFixedBytes + 2 * (e[11] & pds2::kHalfwordsMask);
  if (uint64_t(at) + len > used || len < pds2::kBasicEnd)
    return fail(p, "106-0F", fmt::format("the directory entry of {} has {} bytes of user data, not a load module's",
                                         p.name, len - pds2::kFixedBytes));
  Entry& x = p.entry;
  x.found = true;
  x.alias = e[11] & pds2::kAlias;
  x.ttr = Ttr::unpack(uint32_t(get_be(e + 8, 3)));
  x.size = uint32_t(get_be(e + pds2::kStor, 3));
  x.entry = uint32_t(get_be(e + (x.alias && len >= pds2::kAliasEnd ? pds2::kAliasEpa : pds2::kEpa), 3));
  if (x.ttr.track >= volume_.tracks_allocated)
    return fail(p, "106-20", fmt::format("its TTR {:06X} is beyond the library's extent of {} tracks",
                                         x.ttr.packed(), volume_.tracks_allocated));
  if (config_.lla != Lla::None) lla_directory_[p.name] = x;
  p.phase = Phase::Module;
}

// The records of one channel program of a member's read, in order: each checked by the
// reader (an abend names what is wrong); the text records are where the channel put
// them, in the module's storage; the others go to the guest, which processes the
// control records and relocates the adcons the RLD items name.
void ProgramFetch::module_records(os::Ecb& e, Pending& p, const ckd::Result& r) {
  std::vector<uint8_t> batch;
  uint32_t count = 0;
  for (const std::vector<uint8_t>& d : r.reads) {
    if (!p.reader->record(d, where(p.at))) return fail(p, p.reader->code(), p.reader->error());
    p.at = volume_.next(p.at);
    if (!p.module_at) continue;
    if (p.reader->last_was_text()) {
      e.process->space->write_bytes(p.module_at + p.reader->last_text_address(), d.data(), d.size());
      continue;
    }
    const size_t at = batch.size();
    batch.resize(at + 4 + ((d.size() + 3) & ~size_t(3)), 0);
    for (int k = 0; k < 4; k++) batch[at + k] = uint8_t(d.size() >> (24 - 8 * k));
    std::copy(d.begin(), d.end(), batch.begin() + at + 4);
    ++count;
  }
  p.module_ended = p.reader->ended();
  if (count) {
    if (batch.size() > CSV_AREA_BUFFER_END - CSV_AREA_BUFFER)
      return fail(p, "106-0F", fmt::format("{} bytes of records in one channel program: more than the fetch's buffer",
                                           batch.size()));
    ask(e, p, CSV_RECORDS, batch, count, CSV_AREA_BUFFER);
  }
  if (p.module_ended && r.status == ckd::Status::EndOfFile) return;
  switch (r.status) {
    case ckd::Status::EndOfFile:
      return fail(p, "106-0D", fmt::format("{}: end of file before the end of the module (a truncated member)",
                                           where(p.at)));
    case ckd::Status::EndOfCylinder: {
      // The next channel program seeks to the next cylinder's first track.
      const Cchhr a = volume_.address(p.next);
      const uint32_t first = volume_.first_cylinder * flashsim::dasd3390::kTracksPerCylinder + volume_.first_head;
      p.next = Ttr{(a.cylinder + 1) * flashsim::dasd3390::kTracksPerCylinder - first, 1};
      p.at = p.next;
      if (p.module_ended) return fail(p, "106-0D", "no end-of-file record after the end of the module");
      return;
    }
    case ckd::Status::Ok:
      if (p.module_ended) return fail(p, "106-0D", "no end-of-file record after the end of the module");
      return fail(p, "106-0F", "the module's records run on past its channel program");
    default:
      return fail(p, "106-0F", fmt::format("I/O error reading the module: {}: {}", ckd::status_name(r.status), r.error));
  }
}

// ---- PDSE --------------------------------------------------------------------------------

// A directory page (or the header, page 0): where the search goes next. The guest
// compares the names (a reference's fetch, Enter, compares them itself).
void ProgramFetch::pdse_directory_page(os::Ecb& e, Pending& p, const std::vector<uint8_t>& pg) {
  if (pg.size() != pdse::kPageBytes) return fail(p, "106-0F", fmt::format("PDSE page {} of {} bytes", p.pdse_page, pg.size()));
  if (p.pdse_page == 0) {
    if (std::memcmp(pg.data(), "PDSE", 4) != 0) return fail(p, "106-0F", "page 0 is not a PDSE's header");
    p.pdse_page = uint32_t(get_be(&pg[8], 4));
    if (p.pdse_page == 0) return fail(p, "106-0F", "the PDSE's header names no root directory page");
    return;
  }
  const uint8_t type = pg[0];
  const uint32_t n = uint32_t(get_be(&pg[2], 2));
  if ((type != pdse::kLeaf && type != pdse::kIndex) || n > pdse::kEntriesPerPage)
    return fail(p, "106-0F", fmt::format("directory page {}: type {} with {} entries", p.pdse_page, type, n));
  if (p.kind != Kind::Enter) {
    p.block = pg;
    return ask(e, p, CSV_PDSE_PAGE, pg, 1, CSV_AREA_BUFFER);
  }
  const auto want = ebcdic_name(p.name);
  for (uint32_t i = 0; i < n; i++) {
    const int cmp = std::memcmp(pg.data() + pdse::kPageHeaderBytes + i * pdse::kEntryBytes, want.data(), 8);
    if ((type == pdse::kIndex && cmp >= 0) || (type == pdse::kLeaf && cmp == 0)) return take_pdse_entry(p, pg, i);
    if (cmp > 0) break;
  }
  take_pdse_entry(p, pg, -1);
}

// The entry `i` of a directory page the search follows (-1: none).
void ProgramFetch::take_pdse_entry(Pending& p, const std::vector<uint8_t>& pg, int64_t i) {
  const uint8_t type = pg[0];
  const uint32_t n = uint32_t(get_be(&pg[2], 2));
  if (i < 0 || uint64_t(i) >= n) return fail(p, "806-04", "not in the PDSE's directory");
  const uint8_t* e = pg.data() + pdse::kPageHeaderBytes + i * pdse::kEntryBytes;
  if (type == pdse::kIndex) {
    const uint32_t child = uint32_t(get_be(e + 8, 4));
    if (child == 0 || child == p.pdse_page) return fail(p, "106-0F", fmt::format("directory page {}: a bad child page", p.pdse_page));
    p.pdse_page = child;
    return;
  }
  const auto want = ebcdic_name(p.name);
  if (std::memcmp(e, want.data(), 8) != 0) return fail(p, "806-04", "not in the PDSE's directory");
  p.entry.found = true;
  p.entry.alias = e[12] & pdse::kEntryAlias;
  p.entry.descriptor = uint32_t(get_be(e + 8, 4));
  p.phase = Phase::Module;
  if (p.kind == Kind::Bldl) p.entry.size = 0;   // a PDSE's size is in its descriptor; BLDL does not read it
  if (config_.lla != Lla::None) lla_directory_[p.name] = p.entry;
}

// The program object's descriptor: its size and entry, and the pages to read. DEFERRED
// classes (without PACK,PRIME) are left for their first reference (page_fault).
void ProgramFetch::pdse_descriptor(Pending& p, const std::vector<uint8_t>& d) {
  if (d.size() != pdse::kPageBytes) return fail(p, "106-0D", "a descriptor page of the wrong size");
  p.entry.size = uint32_t(get_be(&d[8], 4));
  p.entry.entry = uint32_t(get_be(&d[12], 4));
  const bool whole = (d[16] & (pdse::kPack | pdse::kPrime)) == (pdse::kPack | pdse::kPrime) || p.kind == Kind::Enter;
  const uint32_t classes = uint32_t(get_be(&d[18], 2));
  if (classes > pdse::kMaxClasses || p.entry.size > kMaxLoadModuleBytes || p.entry.entry > p.entry.size)
    return fail(p, "106-0D", fmt::format("descriptor page {}: {} classes, size {}, entry {}", p.entry.descriptor,
                                         classes, p.entry.size, p.entry.entry));
  p.image.assign(p.entry.size, 0);
  p.deferred.clear();
  uint64_t text = 0, loaded = 0;
  for (uint32_t c = 0; c < classes; c++) {
    const uint8_t* e = d.data() + pdse::kClassTableOffset + c * pdse::kClassEntryBytes;
    const uint8_t load = e[16];
    const uint32_t length = uint32_t(get_be(e + 20, 4)), first = uint32_t(get_be(e + 24, 4)),
                   pages = uint32_t(get_be(e + 28, 4));
    const std::string name = ascii_text(e, 16);
    if (pages == 0) continue;
    if (uint64_t(first) + pages > uint64_t(volume_.tracks_allocated) * 12)
      return fail(p, "106-20", fmt::format("class {}: pages {}..{} beyond the library's extent", name, first, first + pages - 1));
    // B_RLD: compared as stored, EBCDIC ('_' is X'6D', which ascii_text does not turn back).
    static constexpr uint8_t kBRld[5] = {0xC2, 0x6D, 0xD9, 0xD3, 0xC4};
    const bool rld = std::memcmp(e, kBRld, 5) == 0;
    if (load == pdse::kInitial || load == pdse::kDeferred) {
      if (text + length > p.entry.size) return fail(p, "106-0E", fmt::format("class {} runs past the object's size", name));
      if (load == pdse::kInitial || whole) {
        p.runs.push_back({first, pages, length, uint32_t(text), 0});
        if (text == loaded) loaded += length;
      } else {
        p.deferred.push_back({first, pages, length, uint32_t(text), 0});
      }
      text += length;
    } else if (rld) {
      p.rld_items += length / pdse::kRldBytesPerAdcon;
      p.runs.push_back({first, pages, 0, 0, length});
    }
  }
  p.loaded_bytes = uint32_t(loaded);
  if (p.deferred.empty()) p.loaded_bytes = uint32_t(text);
  p.image.resize(text);
}

// ---- a PDSE's DEFERRED class: brought in at its first reference --------------------------

// The reference to a page of a loaded module's DEFERRED class: its page read (the ECB
// waits), placed, and the reference made again.
emu::PageFaultHandler::Action ProgramFetch::deferred_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) {
  using A = emu::PageFaultHandler::Action;
  auto mine = loaded_.find(e.process->id);
  if (mine == loaded_.end()) return A::Fail;
  const uint64_t page = address & ~(kPage - 1);
  for (auto& [name, l] : mine->second) {
    if (page < l.address || page >= l.address + l.bytes) continue;
    for (const PageRun& c : l.deferred) {
      const uint64_t from = l.address + c.dest, to = from + c.text_bytes;
      if (address < from || address >= to) continue;
      auto it = pending_.find(e.id);
      if (it == pending_.end()) {
        Pending p;
        p.kind = Kind::Deferred;
        p.name = name;
        p.ecb = &e;
        p.started = cpu.cycles;
        p.cpu_start = ecb_cpu(cpu, e);
        p.module_at = l.address;
        p.fault_page = page;
        // The class's pages that hold the faulting page's bytes (a class begins on a page of
        // its own; its bytes follow the classes before it in the module).
        const uint64_t in_class = std::max<uint64_t>(page, from) - from;
        const uint32_t first = uint32_t(in_class / kPage), last = uint32_t(std::min<uint64_t>(page + kPage, to) - 1 - from) / uint32_t(kPage);
        p.runs.push_back({c.first + first, std::min(c.count - first, last - first + 1), c.text_bytes, c.dest, 0});
        p.deferred_first_byte = first * uint32_t(kPage);
        ++modules_[name].deferred_faults;
        it = pending_.emplace(e.id, std::move(p)).first;
        start(cpu, e, it->second, chained_read(pdse_page_ttr(it->second.runs.front().first), it->second.runs.front().count));
        return A::Wait;
      }
      Pending& p = it->second;
      if (p.io) {
        consume(cpu, e, p);
        p.io.reset();
      }
      const bool ok = p.error.empty();
      if (!ok) system_->log(fmt::format("{:>12} fetch: {}: DEFERRED page at {:#x}: {}", cpu.cycles, name, page, p.error));
      modules_[name].cpu_cycles += ecb_cpu(cpu, e) - p.cpu_start;
      pending_.erase(it);
      return ok ? A::Retry : A::Fail;
    }
  }
  return A::Fail;
}

// The pages of a DEFERRED class read at a reference: the module's page(s) mapped and
// filled (bytes of the class that fall in them).
void ProgramFetch::deferred_page(os::Ecb& e, Pending& p, const ckd::Result& r) {
  if (!r.ok() || r.reads.empty()) return fail(p, "106-0F", "I/O error reading a DEFERRED class: " + r.error);
  const PageRun& run = p.runs.front();
  uint32_t offset = p.deferred_first_byte;   // in the class
  for (const std::vector<uint8_t>& page : r.reads) {
    if (offset >= run.text_bytes) break;
    const uint32_t n = std::min<uint32_t>(uint32_t(page.size()), run.text_bytes - offset);
    const uint64_t to = p.module_at + run.dest + offset;
    for (uint64_t pg = to & ~(kPage - 1); pg < to + n; pg += kPage)
      if (!e.process->space->is_mapped(pg)) e.process->space->map(pg, kPage, kRW);
    e.process->space->write_bytes(to, page.data(), n);
    offset += n;
  }
}

// ---- the LOAD's end --------------------------------------------------------------------------

// The LOAD or BLDL is over: its answer in the request block (after the guest built the
// module's CDE, for a LOAD that fetched it).
void ProgramFetch::finish(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  ModuleStats& m = modules_[p.name];
  if (p.kind == Kind::Bldl) {
    p.ask_count = p.entry.found;
    p.module_size = p.entry.size;
    return done(cpu, e, p, m);
  }
  if (p.resident) {   // the guest found its CDE: the use count went up, no fetch
    ++m.loads, ++m.resident, ++loads_;
    count_job(e, 0, true, false);
    return done(cpu, e, p, m);
  }
  if (!p.cde_built) {
    take_module(p);
    if (p.staged) {   // LLA's copy: storage for it, and the copy moved there
      if (!obtain_storage(e, p, uint32_t(p.image.size()), uint32_t(p.image.size()))) return end_with_abend(cpu, e, p);
      e.process->space->write_bytes(p.module_at, p.image.data(), p.image.size());
    } else if (!p.module_at) {   // a module of no bytes read (nothing obtained yet)
      if (!obtain_storage(e, p, uint32_t(p.image.size()), uint32_t(p.image.size()))) return end_with_abend(cpu, e, p);
    }
    if (config_.lla == Lla::Modules && !p.staged && !lla_modules_.count(p.name)) lla_modules_[p.name] = p.image;
    p.asked = CSV_BUILD_CDE;
    p.ask_count = 0;
    p.ask_data = 0;
    return hand_to_guest(cpu, e, p);
  }
  const bool fetched = p.module_started || p.descriptor_read;   // read from the library (not LLA's copy)
  Loaded l{p.module_at, p.module_bytes, p.module_size, p.entry.entry, 1, {}};
  l.deferred = p.deferred;
  loaded_[e.process->id][p.name] = std::move(l);
  ++m.loads, ++loads_;
  if (fetched) ++m.fetches;
  m.size = p.module_size;
  m.rld_items += p.relocated;
  count_job(e, 0, true, false);
  done(cpu, e, p, m);
}

// The answer in the request block; the SVC returns CSV_DONE.
void ProgramFetch::done(emu::Cpu& cpu, os::Ecb& e, Pending& p, ModuleStats& m) {
  p.asked = CSV_DONE;
  if (p.resident) {   // the guest has the CDE's address, size and entry point: only the step
    const uint8_t step[4] = {0, 0, 0, CSV_DONE};
    e.process->space->write_bytes(p.request + CSV_RQ_STEP, step, 4);
    cpu.gr[2] = CSV_DONE;
  } else {
    hand_to_guest(cpu, e, p);
  }
  m.cpu_cycles += ecb_cpu(cpu, e) - p.cpu_start;
  m.elapsed_cycles += cpu.cycles - p.started;
  pending_.erase(e.id);
}

// DELETE: the guest found the CDE and lowered its use count (csv.h's answer); at 0 the
// module's storage goes back.
void ProgramFetch::delete_svc(emu::Cpu& cpu, os::Ecb& e) {
  const uint64_t request = cpu.gr[2];
  char raw[9] = {};
  e.process->space->read_bytes(request + CSV_RQ_NAME, raw, 8);
  const std::string name(raw, strnlen(raw, 8));
  uint8_t b[8] = {};
  e.process->space->read_bytes(request + CSV_RQ_ANSWER, b, 8);
  const uint64_t answer = get_be(b, 8);
  auto& mine = loaded_[e.process->id];
  auto l = mine.find(name);
  if (answer == CSV_DELETE_NOT_LOADED || l == mine.end()) {
    cpu.gr[2] = 4;
    return;
  }
  ModuleStats& m = modules_[name];
  ++m.deletes;
  count_job(e, 0, false, true);
  if (answer == CSV_DELETE_RELEASED) {
    e.process->space->unmap(l->second.address, l->second.bytes);
    areas_[e.process->id].given_back.emplace(l->second.bytes, l->second.address);
    mine.erase(l);
  }
  cpu.gr[2] = 0;
}

JobStats ProgramFetch::jobs_total() const {
  JobStats t;
  for (const JobStats& j : jobs_)
    t.loads += j.loads, t.deletes += j.deletes, t.excps += j.excps, t.cpu_cycles += j.cpu_cycles,
        t.elapsed_cycles += j.elapsed_cycles;
  return t;
}

double ProgramFetch::seconds(uint64_t cycles) const {
  return double(cycles) / system_->machine().config().clock_ghz / 1e9;
}

void ProgramFetch::count_job(os::Ecb& e, uint64_t excps, bool load, bool del) {
  JobStats& j = running_jobs_[e.id];
  j.ecb = e.id;
  j.program = e.program;
  j.excps += excps;
  j.loads += load;
  j.deletes += del;
}

void ProgramFetch::ecb_ending(os::Ecb& e, uint64_t now) {
  pending_.erase(e.id);
  auto j = running_jobs_.find(e.id);
  if (j == running_jobs_.end()) return;
  j->second.cpu_cycles = e.cpu_cycles;
  j->second.elapsed_cycles = now - e.arrival;
  jobs_.push_back(j->second);
  running_jobs_.erase(j);
}

void ProgramFetch::process_ending(os::Process& p) {
  loaded_.erase(p.id);
  areas_.erase(p.id);
}

// ---- reports -------------------------------------------------------------------------------

nlohmann::ordered_json ProgramFetch::report_json() const {
  auto s = [this](uint64_t cycles) { return seconds(cycles); };
  nlohmann::ordered_json j;
  j["library"] = {{"dsname", volume_.dsname},
                  {"organization", organization_name(volume_.organization)},
                  {"block_size", volume_.block_size},
                  {"tracks_used", tracks_used_},
                  {"tracks_allocated", volume_.tracks_allocated},
                  {"directory_blocks", volume_.directory_blocks},
                  {"check", library_check_.empty() ? "ok" : library_check_}};
  j["settings"] = {{"lla", lla_name(config_.lla)},
                   {"dasd_cache", config_.dasd_cache},
                   {"record_overhead_ns", config_.record_overhead_ns},
                   {"cpu", "guest code (fetch/guest/qcsv.c): counted as executed"}};
  const ckd::CkdStats& v = device_->volume().stats();
  j["device"] = {{"excps", v.excps},           {"end_of_file", v.end_of_file}, {"end_of_cylinder", v.end_of_cylinder},
                 {"errors", v.errors - v.end_of_file - v.end_of_cylinder},
                 {"records_read", v.records_read}, {"bytes_read", v.bytes_read},
                 {"records_searched", v.records_searched}, {"cache_misses", v.cache_misses},
                 {"device_seconds", double(v.device_ns) / 1e9}};
  nlohmann::ordered_json mods = nlohmann::ordered_json::array();
  for (const auto& [name, m] : modules_) {
    const double per = m.loads ? 1.0 / double(m.loads) : 0.0;
    mods.push_back({{"name", name},
                    {"size", m.size},
                    {"loads", m.loads},
                    {"fetches", m.fetches},
                    {"resident", m.resident},
                    {"from_lla", m.from_lla},
                    {"bldls", m.bldls},
                    {"deletes", m.deletes},
                    {"abends", m.abends},
                    {"waits", m.waits},
                    {"deferred_faults", m.deferred_faults},
                    {"excps", m.excps},
                    {"directory_blocks", m.directory_blocks},
                    {"directory_from_lla", m.directory_from_lla},
                    {"records", m.records},
                    {"bytes", m.bytes},
                    {"rld_items", m.rld_items},
                    {"io_seconds", double(m.io_ns) / 1e9},
                    {"cpu_seconds", s(m.cpu_cycles)},
                    {"elapsed_seconds", s(m.elapsed_cycles)},
                    {"cpu_us_per_load", s(m.cpu_cycles) * 1e6 * per},
                    {"elapsed_us_per_load", s(m.elapsed_cycles) * 1e6 * per},
                    {"excps_per_load", double(m.excps) * per}});
  }
  j["modules"] = mods;
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  for (const JobStats& b : jobs_)
    jobs.push_back({{"ecb", b.ecb},
                    {"program", b.program},
                    {"loads", b.loads},
                    {"deletes", b.deletes},
                    {"excps", b.excps},
                    {"cpu_seconds", s(b.cpu_cycles)},
                    {"elapsed_seconds", s(b.elapsed_cycles)}});
  j["jobs"] = jobs;
  return j;
}

std::string ProgramFetch::report_text() const {
  const nlohmann::ordered_json j = report_json();
  std::ostringstream o;
  const auto& l = j["library"];
  o << "PROGRAM FETCH (fetch/; seed 001, \"Load Library Performance\")\n\n";
  o << fmt::format("LIBRARY  {}  {}  BLKSIZE {}  {} tracks used of {}  {} directory blocks{}\n",
                   l["dsname"].get<std::string>(), l["organization"].get<std::string>(), l["block_size"].get<uint32_t>(),
                   l["tracks_used"].get<uint32_t>(), l["tracks_allocated"].get<uint32_t>(),
                   l["directory_blocks"].get<uint32_t>(),
                   library_check_.empty() ? "" : "\n  CHECK: " + library_check_);
  o << fmt::format("LLA {}   DASD {}   record overhead {} ns   CPU: the contents supervisor's guest code (QCSV), "
                   "as executed\n\n",
                   lla_name(config_.lla), config_.dasd_cache ? "cached control unit" : "uncached 3390",
                   config_.record_overhead_ns);
  o << fmt::format("{:<8} {:>9} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8} {:>10} {:>13} {:>9} {:>10} {:>10} {:>11}\n", "MODULE",
                   "SIZE", "LOADS", "FETCHED", "RESIDENT", "FROM LLA", "EXCPS", "DIR BLKS", "RECORDS", "BYTES",
                   "ABENDS", "I/O S", "CPU US/LD", "ELAPS US/LD");
  for (const auto& m : j["modules"])
    o << fmt::format("{:<8} {:>9} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8} {:>10} {:>13} {:>9} {:>10.4f} {:>10.2f} {:>11.2f}\n",
                     m["name"].get<std::string>(), m["size"].get<uint32_t>(), m["loads"].get<uint64_t>(),
                     m["fetches"].get<uint64_t>(), m["resident"].get<uint64_t>(), m["from_lla"].get<uint64_t>(),
                     m["excps"].get<uint64_t>(), m["directory_blocks"].get<uint64_t>(), m["records"].get<uint64_t>(),
                     m["bytes"].get<uint64_t>(), m["abends"].get<uint64_t>(), m["io_seconds"].get<double>(),
                     m["cpu_us_per_load"].get<double>(), m["elapsed_us_per_load"].get<double>());
  o << "\nJOBS (an ECB that used program fetch, as the seed measured its job: CPU, EXCPs, elapsed)\n";
  o << fmt::format("{:<8} {:<8} {:>8} {:>8} {:>9} {:>12} {:>12}\n", "ECB", "PROGRAM", "LOADS", "DELETES", "EXCPS",
                   "CPU S", "ELAPSED S");
  for (const auto& b : j["jobs"])
    o << fmt::format("{:<8} {:<8} {:>8} {:>8} {:>9} {:>12.6f} {:>12.6f}\n", b["ecb"].get<uint64_t>(),
                     b["program"].get<std::string>(), b["loads"].get<uint64_t>(), b["deletes"].get<uint64_t>(),
                     b["excps"].get<uint64_t>(), b["cpu_seconds"].get<double>(), b["elapsed_seconds"].get<double>());
  const auto& d = j["device"];
  o << fmt::format("\nDEVICE   {} EXCPs ({} ended at an end-of-file record, {} at a cylinder's end, {} in error), {} records read, "
                   "{} bytes, {} records searched, {} tracks staged from the disk (cache misses), {:.6f} s busy\n",
                   d["excps"].get<uint64_t>(), d["end_of_file"].get<uint64_t>(), d["end_of_cylinder"].get<uint64_t>(), d["errors"].get<uint64_t>(), d["records_read"].get<uint64_t>(),
                   d["bytes_read"].get<uint64_t>(), d["records_searched"].get<uint64_t>(),
                   d["cache_misses"].get<uint64_t>(), d["device_seconds"].get<double>());
  return o.str();
}

}  // namespace fetch
