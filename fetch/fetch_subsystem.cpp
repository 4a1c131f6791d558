#include "fetch/fetch_subsystem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

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
    charge(cpu, p, config_.cpu_load);
    f.fetcher = e.id;
    it = pending_.emplace(e.id, std::move(p)).first;
  }
  Pending& p = it->second;
  if (p.io) {   // the reference made again after its channel program ended
    consume(cpu, p);
    p.io.reset();
  }
  switch (advance(cpu, e, p)) {
    case Step::Parked: return A::Wait;
    case Step::Finished: return finish_enter(cpu, p) ? A::Retry : A::Fail;
    case Step::Failed: break;
  }
  // The reference takes its program check (the dump); run.log says why.
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
  m.cpu_cycles += p.cpu_cycles;
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

void ProgramFetch::charge(emu::Cpu& cpu, Pending& p, uint64_t cycles) {
  cpu.charge(emu::Cause::Service, cycles);
  p.cpu_cycles += cycles;
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

void ProgramFetch::svc(emu::Cpu& cpu, os::Ecb& e, Kind kind) {
  auto it = pending_.find(e.id);
  if (it == pending_.end()) {
    if (!begin(cpu, e, kind)) return;   // answered at once
    it = pending_.find(e.id);
  }
  Pending& p = it->second;
  if (p.io) {   // the SVC issued again after its channel program ended
    consume(cpu, p);
    p.io.reset();
  }
  switch (advance(cpu, e, p)) {
    case Step::Parked: return;
    case Step::Finished: return finish(cpu, e, p);
    case Step::Failed: return end_with_abend(cpu, e, p);
  }
}

// The LOAD (or BLDL) failed: counted, and its ECB ends with the abend's dump.
void ProgramFetch::end_with_abend(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
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

// A new LOAD or BLDL: its name, then what storage already holds. False if it is answered.
bool ProgramFetch::begin(emu::Cpu& cpu, os::Ecb& e, Kind kind) {
  char raw[9] = {};
  e.process->space->read_bytes(cpu.gr[2], raw, 8);
  std::string name(raw, strnlen(raw, 8));
  Pending p;
  p.kind = kind;
  p.name = name;
  p.ecb = &e;
  p.started = cpu.cycles;
  const std::string bad_name = check_member_name(name);
  ModuleStats& m = modules_[bad_name.empty() ? name : "(not a name)"];
  if (!bad_name.empty()) {
    p.name = "'" + name + "'";
    fail(p, "806-04", fmt::format("the name at {:#x} is not a program name: {}", cpu.gr[2], bad_name));
    ++m.abends, ++abends_;
    system_->abend(cpu, e, dump_text(p, e, cpu.istream()));
    return false;
  }
  if (kind == Kind::Load) {
    charge(cpu, p, config_.cpu_load);
    auto& mine = loaded_[e.process->id];
    if (auto l = mine.find(name); l != mine.end()) {   // in the process already: its use count goes up
      ++l->second.uses;
      ++m.loads, ++m.resident, ++loads_;
      m.cpu_cycles += p.cpu_cycles;
      m.elapsed_cycles += cpu.cycles - p.started;
      count_job(e, 0, true, false);
      cpu.gr[2] = l->second.address + l->second.entry;
      cpu.gr[3] = l->second.size;
      return false;
    }
  } else {
    ++m.bldls;
  }
  if (config_.lla != Lla::None) {
    if (auto d = lla_directory_.find(name); d != lla_directory_.end()) {
      p.entry = d->second;
      p.phase = Phase::Module;
      ++m.directory_from_lla;
      if (kind == Kind::Load && config_.lla == Lla::Modules) {
        if (auto s = lla_modules_.find(name); s != lla_modules_.end()) {
          // LLA's staged copy (VLF): moved into the program's storage by the CPU, 16
          // bytes a cycle (as the control program's static page copies are charged).
          p.image = s->second;
          charge(cpu, p, p.image.size() / 16);
          p.phase = Phase::Done;
          ++m.from_lla;
        }
      }
    }
  }
  pending_.emplace(e.id, std::move(p));
  return true;
}

// The next channel program (the ECB parked for it), or the end: the module (or BLDL's
// entry) complete, or an error that ends the ECB.
ProgramFetch::Step ProgramFetch::advance(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  for (;;) {
    if (!p.error.empty() && p.kind == Kind::Bldl && p.error_code == "806-04") {   // BLDL: not found is an answer
      p.entry.found = false;
      p.error.clear();
      p.phase = Phase::Done;
      continue;
    }
    if (!p.error.empty()) return Step::Failed;
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
        pdse_directory_page(cpu, p, d->second);
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
  charge(cpu, p, config_.cpu_excp);
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
  if (p.kind != Kind::Enter) p.ecb->psw -= 2;   // the SVC instruction (2 bytes) runs again (a reference: by itself)
  system_->make_ready(*p.ecb, i.time);
}

void ProgramFetch::consume(emu::Cpu& cpu, Pending& p) {
  const ckd::Result& r = p.io->result;
  ModuleStats& m = modules_[p.name];
  m.records += r.records_read;
  m.bytes += r.bytes_read;
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
      return directory_block(cpu, p, r.reads[0]);
    }
    ++m.directory_blocks;
    if (!r.ok() || r.reads.size() != 1)
      return fail(p, "106-0F", fmt::format("I/O error reading directory page {}: {}", p.pdse_page, r.error));
    pdse_directory_[p.pdse_page] = r.reads[0];
    return pdse_directory_page(cpu, p, r.reads[0]);
  }
  if (volume_.organization == Organization::Pds) return module_records(cpu, p, r);
  if (!r.ok()) return fail(p, "106-0F", "I/O error reading the program object: " + r.error);
  charge(cpu, p, config_.cpu_record * r.reads.size());
  if (!p.descriptor_read) {
    p.descriptor_read = true;
    if (r.reads.size() != 1) return fail(p, "106-0F", "the descriptor page was not read");
    return pdse_descriptor(cpu, p, r.reads[0]);
  }
  // A text class's pages land in the module's storage, its bytes after the classes
  // before it; the B_RLD pages are only counted (their items: pdse_descriptor).
  PageRun& run = p.runs.front();
  for (const std::vector<uint8_t>& page : r.reads) {
    const uint32_t n = std::min<uint32_t>(uint32_t(page.size()), run.text_bytes);
    if (uint64_t(run.dest) + n > p.image.size()) return fail(p, "106-0E", "a class's text runs past the object's size");
    std::copy_n(page.begin(), n, p.image.begin() + run.dest);
    run.dest += n, run.text_bytes -= n;
  }
  run.first += uint32_t(r.reads.size());
  run.count -= std::min<uint32_t>(run.count, uint32_t(r.reads.size()));
  if (run.count == 0) p.runs.erase(p.runs.begin());
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

// The directory block BLDL read: its entries compared until the name or a higher one.
void ProgramFetch::directory_block(emu::Cpu& cpu, Pending& p, const std::vector<uint8_t>& b) {
  if (b.size() != pds2::kBlockBytes) return fail(p, "106-0F", fmt::format("a directory block of {} bytes", b.size()));
  const uint32_t used = uint32_t(get_be(b.data(), 2));
  if (used < 2 || used > b.size())
    return fail(p, "106-0F", fmt::format("a directory block's used count is {} (2..256)", used));
  const auto want = ebcdic_name(p.name);
  uint32_t at = 2, compared = 0;
  while (at + pds2::kFixedBytes <= used) {
    const uint8_t* e = b.data() + at;
    ++compared;
    const int cmp = std::memcmp(e, want.data(), 8);
    if (cmp > 0) break;   // past it (the end marker, X'FF's, included)
    const uint32_t len = pds2::kFixedBytes + 2 * (e[11] & pds2::kHalfwordsMask);
    if (at + len > used) break;
    if (cmp == 0) {
      charge(cpu, p, config_.cpu_directory_entry * compared);
      if (len < pds2::kBasicEnd)
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
      return;
    }
    at += len;
  }
  charge(cpu, p, config_.cpu_directory_entry * compared);
  fail(p, "806-04", "not in the library's directory");
}

// The records of one channel program of a member's read, in order.
void ProgramFetch::module_records(emu::Cpu& cpu, Pending& p, const ckd::Result& r) {
  for (const std::vector<uint8_t>& d : r.reads) {
    charge(cpu, p, config_.cpu_record);
    if (!p.reader->record(d, where(p.at))) return fail(p, p.reader->code(), p.reader->error());
    p.at = volume_.next(p.at);
  }
  p.module_ended = p.reader->ended();
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

// A directory page (or the header, page 0): where the search goes next.
void ProgramFetch::pdse_directory_page(emu::Cpu& cpu, Pending& p, const std::vector<uint8_t>& pg) {
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
  const auto want = ebcdic_name(p.name);
  uint32_t compared = 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t* e = pg.data() + pdse::kPageHeaderBytes + i * pdse::kEntryBytes;
    ++compared;
    const int cmp = std::memcmp(e, want.data(), 8);
    if (type == pdse::kIndex && cmp >= 0) {
      charge(cpu, p, config_.cpu_directory_entry * compared);
      const uint32_t child = uint32_t(get_be(e + 8, 4));
      if (child == 0 || child == p.pdse_page) return fail(p, "106-0F", fmt::format("directory page {}: a bad child page", p.pdse_page));
      p.pdse_page = child;
      return;
    }
    if (type == pdse::kLeaf && cmp == 0) {
      charge(cpu, p, config_.cpu_directory_entry * compared);
      p.entry.found = true;
      p.entry.alias = e[12] & pdse::kEntryAlias;
      p.entry.descriptor = uint32_t(get_be(e + 8, 4));
      p.phase = Phase::Module;
      if (p.kind == Kind::Bldl) p.entry.size = 0;   // a PDSE's size is in its descriptor; BLDL does not read it
      if (config_.lla != Lla::None) lla_directory_[p.name] = p.entry;
      return;
    }
    if (cmp > 0) break;
  }
  charge(cpu, p, config_.cpu_directory_entry * compared);
  fail(p, "806-04", "not in the PDSE's directory");
}

// The program object's descriptor: its size and entry, and the pages to read.
void ProgramFetch::pdse_descriptor(emu::Cpu&, Pending& p, const std::vector<uint8_t>& d) {
  if (d.size() != pdse::kPageBytes) return fail(p, "106-0D", "a descriptor page of the wrong size");
  p.entry.size = uint32_t(get_be(&d[8], 4));
  p.entry.entry = uint32_t(get_be(&d[12], 4));
  const bool whole = (d[16] & (pdse::kPack | pdse::kPrime)) == (pdse::kPack | pdse::kPrime) || p.kind == Kind::Enter;
  const uint32_t classes = uint32_t(get_be(&d[18], 2));
  if (classes > pdse::kMaxClasses || p.entry.size > kMaxLoadModuleBytes || p.entry.entry > p.entry.size)
    return fail(p, "106-0D", fmt::format("descriptor page {}: {} classes, size {}, entry {}", p.entry.descriptor,
                                         classes, p.entry.size, p.entry.entry));
  p.image.assign(p.entry.size, 0);
  uint64_t text = 0;
  for (uint32_t c = 0; c < classes; c++) {
    const uint8_t* e = d.data() + pdse::kClassTableOffset + c * pdse::kClassEntryBytes;
    const uint8_t load = e[16];
    const uint32_t length = uint32_t(get_be(e + 20, 4)), first = uint32_t(get_be(e + 24, 4)),
                   pages = uint32_t(get_be(e + 28, 4));
    const std::string name = ascii_text(e, 16);
    if (pages == 0) continue;
    if (uint64_t(first) + pages > uint64_t(volume_.tracks_allocated) * 12)
      return fail(p, "106-20", fmt::format("class {}: pages {}..{} beyond the library's extent", name, first, first + pages - 1));
    const bool rld = name.rfind("B_RLD", 0) == 0;
    if (load == pdse::kInitial || (load == pdse::kDeferred && whole)) {
      if (text + length > p.entry.size) return fail(p, "106-0E", fmt::format("class {} runs past the object's size", name));
      p.runs.push_back({first, pages, length, uint32_t(text)});
      text += length;
    } else if (rld) {
      p.rld_items += length / pdse::kRldBytesPerAdcon;
      p.runs.push_back({first, pages, 0, 0});
    }
  }
  p.image.resize(text);   // the storage the loaded classes take; DEFERRED pages come when referenced
}

// ---- the LOAD's end --------------------------------------------------------------------------

void ProgramFetch::finish(emu::Cpu& cpu, os::Ecb& e, Pending& p) {
  ModuleStats& m = modules_[p.name];
  if (p.kind == Kind::Bldl) {
    m.cpu_cycles += p.cpu_cycles;
    m.elapsed_cycles += cpu.cycles - p.started;
    cpu.gr[2] = p.entry.found;
    cpu.gr[3] = p.entry.size;
    pending_.erase(e.id);
    return;
  }
  const bool fetched = p.module_started || p.descriptor_read;   // read from the library (not LLA's copy)
  take_module(p);
  if (config_.lla == Lla::Modules && !lla_modules_.count(p.name)) lla_modules_[p.name] = p.image;
  // Storage in the process's fetched-programs area: page-rounded ranges, one given back
  // reused by the next module of its size.
  Area& area = areas_[e.process->id];
  const uint64_t bytes = std::max<uint64_t>(kPage, (p.image.size() + kPage - 1) / kPage * kPage);
  uint64_t at = 0;
  if (auto g = area.given_back.find(bytes); g != area.given_back.end()) {
    at = g->second;
    area.given_back.erase(g);
  } else if (area.next + bytes <= TPF_EVM_FETCHED_END) {
    at = area.next;
    area.next += bytes;
  } else {
    fail(p, "106-0C", fmt::format("no storage for the module's {} bytes (reason 14): the fetched-programs area "
                                  "(TPF_EVM_FETCHED) is full", p.image.size()));
    return end_with_abend(cpu, e, p);
  }
  // Relocation: each adcon gets the load address added (4-byte A-type adcons).
  const uint64_t rld = p.adcons.empty() ? p.rld_items : p.adcons.size();
  for (uint32_t off : p.adcons) {
    uint32_t v = uint32_t(get_be(&p.image[off], 4)) + uint32_t(at);
    for (int k = 3; k >= 0; k--, v >>= 8) p.image[off + k] = uint8_t(v);
  }
  charge(cpu, p, config_.cpu_rld * rld);
  e.process->space->reserve(at, bytes, kRW);
  e.process->space->write_bytes(at, p.image.data(), p.image.size());
  loaded_[e.process->id][p.name] = Loaded{at, bytes, uint32_t(p.image.size()), p.entry.entry, 1};
  ++m.loads, ++loads_;
  if (fetched) ++m.fetches;
  m.size = uint32_t(p.image.size());
  m.rld_items += rld;
  m.cpu_cycles += p.cpu_cycles;
  m.elapsed_cycles += cpu.cycles - p.started;
  count_job(e, 0, true, false);
  cpu.gr[2] = at + p.entry.entry;
  cpu.gr[3] = p.image.size();
  pending_.erase(e.id);
}

void ProgramFetch::delete_svc(emu::Cpu& cpu, os::Ecb& e) {
  char raw[9] = {};
  e.process->space->read_bytes(cpu.gr[2], raw, 8);
  const std::string name(raw, strnlen(raw, 8));
  cpu.charge(emu::Cause::Service, config_.cpu_delete);
  auto& mine = loaded_[e.process->id];
  auto l = mine.find(name);
  if (l == mine.end()) {
    cpu.gr[2] = 4;
    return;
  }
  ModuleStats& m = modules_[name];
  ++m.deletes;
  m.cpu_cycles += config_.cpu_delete;
  count_job(e, 0, false, true);
  if (--l->second.uses == 0) {
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
                   {"cpu_cycles", {{"load", config_.cpu_load},
                                   {"delete", config_.cpu_delete},
                                   {"excp", config_.cpu_excp},
                                   {"record", config_.cpu_record},
                                   {"rld", config_.cpu_rld},
                                   {"directory_entry", config_.cpu_directory_entry}}}};
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
  o << fmt::format("LLA {}   DASD {}   record overhead {} ns   CPU cycles: LOAD {}, DELETE {}, EXCP {}, record {}, "
                   "adcon {}, directory entry {}\n\n",
                   lla_name(config_.lla), config_.dasd_cache ? "cached control unit" : "uncached 3390",
                   config_.record_overhead_ns, config_.cpu_load, config_.cpu_delete, config_.cpu_excp,
                   config_.cpu_record, config_.cpu_rld, config_.cpu_directory_entry);
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
