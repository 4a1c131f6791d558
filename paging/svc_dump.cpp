// SVC dumps (z/OS SDUMP, as seed 002 measures them): an operator's DUMP command or a
// program's TPF_SVC_SDUMP captures the storage of one or more processes. First the
// shared area, with nothing dispatched (the system is nondispatchable); then each
// process in turn, its ECBs nondispatchable while its storage is captured: resident
// pages are copied (system.paging.dump_copy each, one after another), pages on
// auxiliary storage are read into frames that are given to the dump (the page stays
// out), system.paging.dump_reads requests at most in flight. The captured pages hold
// frames (the dump's data space) until they are written to the dump data sets
// (machine.dasd.dump_volumes), so a big dump pushes other pages out, as in the seed.
// The dump's contents are not kept: the writes cost what they cost and store nothing.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "devices/devices.h"
#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "os/simulated_time.h"
#include "paging/paging.h"

namespace paging {

struct Paging::DumpRun : DumpVolumeWrites {
  struct Read {
    Slot slot;
    uint32_t bytes = 0;  // a group of 4 KB blocks, or one 1 MB block
    std::vector<uint64_t> addresses;
  };
  size_t record = 0;                       // index in dumps_
  std::vector<uint64_t> pids;              // to capture, in order
  size_t next = 0;                         // the next of pids
  os::Process* current = nullptr;          // being captured
  std::vector<Read> reads;                 // of the current process, not started
  size_t next_read = 0;
  uint64_t reads_in_flight = 0;
  uint64_t copy_end = 0;                   // the current process's copies are done then
  bool capture_done = false;
};

Paging::Paging() = default;
Paging::~Paging() = default;

uint64_t Paging::dump_cycles(uint64_t ns) const {
  return uint64_t(double(ns) * system_->machine().config().clock_ghz);
}

std::string Paging::request_dump(const std::string& title, const std::string& by,
                                 const std::vector<std::string>& names, uint64_t now) {
  std::vector<uint64_t> pids;
  for (const std::string& n : names) {
    const size_t before = pids.size();
    system_->for_each_process([&](os::Process& p) {
      if (p.name == n && std::find(pids.begin(), pids.end(), p.id) == pids.end()) pids.push_back(p.id);
    });
    if (pids.size() == before) return fmt::format("ERROR: SVC DUMP NOT TAKEN: NO JOB {} IS RUNNING", n);
  }
  return start_dump(title, by, pids, now);
}

std::string Paging::start_dump(const std::string& title, const std::string& by, std::vector<uint64_t> pids,
                               uint64_t now) {
  if (dump_) return "ERROR: SVC DUMP NOT TAKEN: A DUMP IS IN PROGRESS";
  dump_ = std::make_unique<DumpRun>();
  dump_->pids = std::move(pids);
  dump_->record = dumps_.size();
  dump_->volume_busy.assign(devices_->dump_volumes().size(), false);
  SvcDumpRecord r;
  r.number = unsigned(dumps_.size() + 1);
  r.title = title, r.by = by;
  r.start = r.system_nd_start = r.system_set_nd = now;
  // The shared area (system storage every ECB sees), copied while nothing is dispatched.
  r.global_pages = system_->config().system.shared_size / kPage;
  r.system_reset = now + r.global_pages * dump_cycles(config_.dump_copy_ns);
  dumps_.push_back(r);
  system_->set_dispatchable(nullptr, false, now);
  dump_frames_ += r.global_pages;
  dump_->to_write += r.global_pages;
  system_->at(r.system_reset, [this, t = r.system_reset] {
    system_->set_dispatchable(nullptr, true, t);
    write_dump(t);
    capture_next(t);
  });
  std::string ids;
  for (uint64_t pid : dump_->pids) ids += fmt::format("{}{:04X}", ids.empty() ? "" : ",", pid);
  const std::string line = fmt::format("IEA045I AN SVC DUMP HAS STARTED AT TIME={} FOR ASIDS({}) DUMPID={:03}",
                                       os::console_time(uint64_t(double(now) / system_->machine().config().clock_ghz)),
                                       ids, r.number);
  return line;
}

// The next process's local storage, or the end of the capture.
void Paging::capture_next(uint64_t now) {
  DumpRun& d = *dump_;
  SvcDumpRecord& r = dumps_[d.record];
  os::Process* p = nullptr;
  while (!p && d.next < d.pids.size()) {
    const uint64_t pid = d.pids[d.next++];
    system_->for_each_process([&](os::Process& q) {
      if (q.id == pid) p = &q;
    });
  }
  if (!p) {
    d.capture_done = true;
    r.capture_end = now;
    system_->console_message(now, fmt::format("IEA794I SVC DUMP HAS CAPTURED: DUMPID={:03} REQUESTED BY {} TITLE={}",
                                              r.number, r.by, r.title));
    return write_dump(now);
  }
  d.current = p;
  system_->set_dispatchable(p, false, now);
  DumpedAddressSpace s;
  s.process = p->id, s.name = p->name, s.local_start = now;
  // Resident pages are copied; pages out are read (grouped by device for the reads).
  uint64_t copies = 0;
  p->space->for_each_own_page([&](uint64_t, emu::Frame&) { ++copies; });
  p->space->for_each_large_segment([&](uint64_t) { copies += kPagesPerSegment; });
  d.reads.clear(), d.next_read = 0;
  if (auto it = processes_.find(p->id); it != processes_.end()) {
    std::map<int, DumpRun::Read> open;  // per device: the group being filled
    for (auto [va, pg] : it->second.pages) {
      if (pg.state == State::Resident) continue;
      if (pg.state == State::Zero || pg.state == State::Writing) {
        ++copies;
        continue;
      }
      DumpRun::Read& g = open[pg.slot.device];
      g.slot = g.addresses.empty() ? pg.slot : g.slot;
      g.addresses.push_back(pg.slot.address);
      g.bytes = uint32_t(kPage);
      if (g.addresses.size() == config_.group) d.reads.push_back(std::move(g)), open.erase(pg.slot.device);
    }
    for (auto& [dev, g] : open) d.reads.push_back(std::move(g));
    for (auto& [va, sg] : it->second.large) {
      if (sg.state == State::Resident) continue;
      if (sg.state == State::Writing) {
        copies += kPagesPerSegment;
        continue;
      }
      d.reads.push_back({sg.slot, uint32_t(kSegment), {sg.slot.address}});
    }
  }
  s.copied = copies;
  r.spaces.push_back(s);
  dump_frames_ += copies;
  d.to_write += copies;
  d.copy_end = now + copies * dump_cycles(config_.dump_copy_ns);
  issue_dump_reads(now);
  if (d.reads.empty()) system_->at(d.copy_end, [this, t = d.copy_end] { end_local_capture(t); });
  write_dump(now);
}

void Paging::issue_dump_reads(uint64_t now) {
  DumpRun& d = *dump_;
  while (d.next_read < d.reads.size() && d.reads_in_flight < config_.dump_reads) {
    const DumpRun::Read& g = d.reads[d.next_read++];
    auto t = std::make_shared<devices::Transfer>();
    t->buffers.resize(g.addresses.size());
    for (size_t k = 0; k < g.addresses.size(); ++k) {
      t->buffers[k].resize(g.bytes);
      t->request.blocks.push_back({flashsim::Op::Read, g.addresses[k], g.bytes, t->buffers[k].data()});
    }
    const uint64_t pages = g.bytes == kSegment ? kPagesPerSegment : g.addresses.size();
    const int dev = g.slot.device;
    ++d.reads_in_flight;
    started(dev, pages);
    system_->start_io(subchannel(g.slot), now, t, [this, pages, dev](const emu::IoInterruption& i) {
      completed(dev, i.time - i.started, pages);
      stats_.pages_in[dev == 0 ? 0 : 1] += pages;
      DumpRun& d = *dump_;
      --d.reads_in_flight;
      DumpedAddressSpace& s = dumps_[d.record].spaces.back();
      s.input_io += pages, s.reassigned += pages;
      dump_frames_ += pages;
      d.to_write += pages;
      issue_dump_reads(i.time);
      write_dump(i.time);
      if (d.reads_in_flight == 0 && d.next_read == d.reads.size()) {
        const uint64_t t = std::max(i.time, d.copy_end);
        system_->at(t, [this, t] { end_local_capture(t); });
      }
    });
  }
}

void Paging::end_local_capture(uint64_t now) {
  DumpRun& d = *dump_;
  DumpedAddressSpace& s = dumps_[d.record].spaces.back();
  s.local_end = s.tasks_reset = now;
  system_->set_dispatchable(d.current, true, now);
  d.current = nullptr;
  capture_next(now);
}

// The captured pages to the dump data sets, a channel program of machine.dasd's
// max_pages_per_io at a time on each volume; their frames are free once written.
// Without dump volumes they are free when the capture ends.
void Paging::write_dump(uint64_t now) {
  DumpRun& d = *dump_;
  const auto& volumes = devices_->dump_volumes();
  if (volumes.empty()) {
    if (d.capture_done) {
      dump_frames_ -= d.to_write, d.to_write = 0;
      frames_freed(now);
      finish_dump(now);
    }
    return;
  }
  start_dump_writes(d, now, [this](uint64_t n, uint64_t time) {
    dump_frames_ -= n;
    frames_freed(time);
    dumps_[dump_->record].written_pages += n;
    write_dump(time);
  });
  if (d.capture_done && d.to_write == 0 && d.writes_in_flight == 0) finish_dump(now);
}

void Paging::start_dump_writes(DumpVolumeWrites& w, uint64_t now,
                               std::function<void(uint64_t n, uint64_t time)> written) {
  const auto& volumes = devices_->dump_volumes();
  for (size_t v = 0; v < volumes.size() && w.to_write; ++v) {
    if (w.volume_busy[v]) continue;
    const flashsim::DasdConfig& c = volumes[v]->config();
    const uint64_t n = std::min<uint64_t>(w.to_write, c.max_blocks_per_io);
    auto t = std::make_shared<devices::Transfer>();
    for (uint64_t k = 0; k < n; ++k) {
      const uint64_t block = w.next_block++ % c.capacity_blocks();
      t->request.blocks.push_back({flashsim::Op::Clear, block * kPage, uint32_t(kPage), nullptr});
    }
    w.to_write -= n;
    w.volume_busy[v] = true;
    ++w.writes_in_flight;
    // `w` lives as long as its dump, which waits for its writes.
    system_->start_io(devices_->dump_subchannel(v), now, t, [&w, v, n, written](const emu::IoInterruption& i) {
      w.volume_busy[v] = false;
      --w.writes_in_flight;
      written(n, i.time);
    });
  }
}

void Paging::finish_dump(uint64_t now) {
  SvcDumpRecord& r = dumps_[dump_->record];
  r.end = now;
  if (!devices_->dump_volumes().empty())
    system_->console_message(now, fmt::format("IEA611I COMPLETE DUMP ON SYS1.DUMP{:02} DUMPID={:03} ({} pages)",
                                              (r.number - 1) % 100, r.number, r.written_pages));
  dump_.reset();
}

}  // namespace paging

namespace paging {

// DUMP COMM=(title),JOBNAME=(name[,name...]): z/OS's DUMP command with the reply's
// JOBNAME= on the same line. Throws cfg::ConfigError with what is wrong.
DumpCommand parse_dump_command(std::string_view text) {
  auto upper = [](std::string_view s) {
    std::string u;
    for (char c : s) u += char(std::toupper(static_cast<unsigned char>(c)));
    return u;
  };
  const std::string u = upper(text);
  size_t at = u.find_first_not_of(' ');
  if (at == std::string::npos || u.compare(at, 4, "DUMP") != 0) throw cfg::ConfigError("not a DUMP command");
  at = u.find_first_not_of(' ', at + 4);
  DumpCommand d;
  // The value after KEY=: parenthesized (commas inside), or up to the next comma.
  const auto value = [&](size_t& p) {
    if (p < u.size() && u[p] == '(') {
      const size_t close = u.find(')', p);
      if (close == std::string::npos) throw cfg::ConfigError("a ( without its )");
      std::string v(text.substr(p + 1, close - p - 1));
      p = close + 1;
      return v;
    }
    const size_t end = std::min(u.find(',', p), u.size());
    std::string v(text.substr(p, end - p));
    p = end;
    return v;
  };
  while (at != std::string::npos && at < u.size()) {
    const size_t eq = u.find('=', at);
    if (eq == std::string::npos) throw cfg::ConfigError(fmt::format("\"{}\": KEY=value expected", text.substr(at)));
    std::string key = u.substr(at, eq - at);
    key.erase(std::remove(key.begin(), key.end(), ' '), key.end());
    size_t p = eq + 1;
    const std::string v = value(p);
    if (key == "COMM" || key == "TITLE") {
      d.title = v;
    } else if (key == "JOBNAME") {
      std::string name;
      for (char c : upper(v) + ",") {
        if (c == ',') {
          if (!name.empty()) d.jobs.push_back(name);
          name.clear();
        } else if (c != ' ') {
          name += c;
        }
      }
    } else {
      throw cfg::ConfigError(fmt::format("DUMP: unknown keyword {} (COMM=, JOBNAME=)", key));
    }
    if (p < u.size() && u[p] == ',') ++p;
    at = p < u.size() ? u.find_first_not_of(' ', p) : std::string::npos;
  }
  if (d.jobs.empty()) throw cfg::ConfigError("DUMP needs JOBNAME=(name,...): the programs whose processes to dump");
  return d;
}

// TPF_SVC_SDUMP: r2 = the title's address (NUL-terminated, at most 100 bytes). The
// calling ECB's process is dumped; the ECB is nondispatchable from now until its
// storage is captured. r2 = the dump's number, or 0 if another is in progress.
void Paging::sdump(emu::Cpu& cpu, os::Ecb& e) {
  std::string title;
  for (uint64_t a = cpu.gr[2]; a && title.size() < 100; ++a) {
    uint8_t c = 0;
    if (!e.process->space->read_bytes(a, &c, 1) || !c) break;
    title += char(c);
  }
  const size_t before = dumps_.size();
  const std::string answer = start_dump(title, "PROGRAM " + e.program, {e.process->id}, cpu.cycles);
  cpu.gr[2] = dumps_.size() > before ? dumps_.size() : 0;
  system_->log(fmt::format("{:>12} ECB {:<6} {}", cpu.cycles, e.id, answer));
}

}  // namespace paging
