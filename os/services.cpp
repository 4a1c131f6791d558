// The control program's own services: the SVC table's lines for them, and the
// handlers that are more than a line. Subsystems add theirs the same way
// (System::add_svc). The numbers are the guest's ABI, os/guest/include/tpf_svc.h;
// exit, write and brk also answer to Linux's numbers, so that the C runtime works
// in ECBs.
#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <spdlog/spdlog.h>

#include "os/control_program.h"
#include "os/guest/include/tpf_svc.h"

namespace os {
namespace {

enum : uint64_t { kLinuxExit = 1, kLinuxWrite = 4, kLinuxBrk = 45, kLinuxExitGroup = 248 };
constexpr int64_t kEnosys = 38, kEbadf = 9, kEfault = 14;

// The absolute address of a guest doubleword (so that every address space mapping
// the same storage names the same word), or nothing if it is not mapped.
std::optional<uint64_t> word_absolute(emu::AddressSpace& space, uint64_t addr) {
  emu::Translation t;
  if ((addr & 7) != 0 || space.translate(addr, t) != emu::Translate::Ok) return std::nullopt;
  return t.frame->absolute() + (addr & 0xFFF);
}

}  // namespace

void ControlProgram::install_services() {
  using C = SvcCost;
  auto exit = [this](emu::Cpu& cpu, Ecb& e) {
    loop_.save(cpu.istream(), e);
    finish(cpu.istream(), e, int64_t(cpu.gr[2]));
    cpu.request_stop();
  };
  const SvcLine lines[] = {
      {kLinuxExit, "exit (Linux)", C::Entry, exit},
      {kLinuxExitGroup, "exit_group (Linux)", C::Entry, exit},
      {TPF_SVC_EXIT, "EXIT", C::Entry, exit},
      {TPF_SVC_THREAD_EXIT, "THREAD_EXIT", C::Entry, exit},
      {kLinuxWrite, "write (Linux)", C::Service,
       [this](emu::Cpu& c, Ecb& e) { c.gr[2] = uint64_t(svc_write(e, c.gr[2], c.gr[3], c.gr[4])); }},
      {kLinuxBrk, "brk (Linux)", C::Service,
       [this](emu::Cpu& c, Ecb& e) { c.gr[2] = uint64_t(evm_.brk(*e.process, c.gr[2])); }},
      {TPF_SVC_ENTER, "ENTER", C::Service,
       [this](emu::Cpu& c, Ecb& e) {
         std::string name = read_string(e, c.gr[2]);
         c.gr[2] = evm_.entry_of(name);
         if (c.gr[2]) e.entered.push_back(std::move(name));  // in control until its BACK
       }},
      {TPF_SVC_BACK, "BACK", C::Entry,
       [](emu::Cpu&, Ecb& e) {
         if (!e.entered.empty()) e.entered.pop_back();
       }},
      {TPF_SVC_CREATE, "CREATE", C::Service, [this](emu::Cpu& c, Ecb& e) { c.gr[2] = uint64_t(svc_create(c, e)); }},
      {TPF_SVC_DEFER, "DEFER", C::Entry,
       [this](emu::Cpu& c, Ecb& e) { loop_.park(c, e, loop_.deferred(c.istream()), ""); }},
      {TPF_SVC_DELAY, "DELAY", C::Entry, [this](emu::Cpu& c, Ecb& e) { svc_delay(c, e); }},
      {TPF_SVC_GETSTOR, "GETSTOR", C::Service, [this](emu::Cpu& c, Ecb& e) { svc_getstor(c, e, false); }},
      {TPF_SVC_GETSTOR_VIO, "GETSTOR_VIO", C::Service, [this](emu::Cpu& c, Ecb& e) { svc_getstor(c, e, true); }},
      {TPF_SVC_GETSTOR64, "GETSTOR64", C::Service,
       [this](emu::Cpu& c, Ecb& e) { svc_getstor(c, e, false, true); }},
      {TPF_SVC_RELSTOR, "RELSTOR", C::Service,
       [this](emu::Cpu& c, Ecb& e) { c.gr[2] = uint64_t(evm_.relstor(*e.process, c.gr[2])); }},
      {TPF_SVC_THREAD_CREATE, "THREAD_CREATE", C::Service,
       [this](emu::Cpu& c, Ecb& e) { c.gr[2] = uint64_t(svc_thread_create(c, e)); }},
      {TPF_SVC_THREAD_JOIN, "THREAD_JOIN", C::Entry, [this](emu::Cpu& c, Ecb& e) { svc_thread_join(c, e); }},
      {TPF_SVC_WAIT, "WAIT", C::Entry, [this](emu::Cpu& c, Ecb& e) { svc_wait(c, e); }},
      {TPF_SVC_POST, "POST", C::Service, [this](emu::Cpu& c, Ecb&) { svc_post(c); }},
      {TPF_SVC_WORD_WAIT, "WORD_WAIT", C::Service, [this](emu::Cpu& c, Ecb& e) { svc_word_wait(c, e); }},
      {TPF_SVC_WORD_WAKE, "WORD_WAKE", C::Service, [this](emu::Cpu& c, Ecb& e) { c.gr[2] = svc_word_wake(c, e); }},
      {TPF_SVC_LOG, "LOG", C::Service, [this](emu::Cpu& c, Ecb& e) { svc_log(c, e); }},
      {TPF_SVC_ECB_INFO, "ECB_INFO", C::Entry, [this](emu::Cpu& c, Ecb& e) { svc_ecb_info(c, e); }},
  };
  for (const SvcLine& l : lines) svcs_.add(l);
}

void ControlProgram::supervisor_call(emu::Cpu& cpu, uint8_t number) {
  Ecb& e = *loop_.current(cpu.istream());
  ++stats_.svcs;
  const uint64_t nr = number ? number : cpu.gr[1];
  DispatchObserver* o = loop_.observer();
  if (!o) [[likely]]
    return call_svc(cpu, e, nr);
  // `e` may be gone when the handler returns (EXIT): the observer gets its number.
  const uint64_t began = cpu.cycles, ecb = e.id;
  const SvcLine* line = svcs_.find(nr);
  const std::string name = line ? line->name : fmt::format("SVC {}", nr);
  call_svc(cpu, e, nr);
  o->svc(cpu.istream(), ecb, name, began, cpu.cycles);
}

void ControlProgram::call_svc(emu::Cpu& cpu, Ecb& e, uint64_t nr) {
  if (svcs_.call(cpu, e, nr)) return;
  cpu.gr[2] = uint64_t(-kEnosys);
  spdlog::warn("ECB {} ({}): SVC {} is not a service of the control program", e.id, e.program, nr);
}

std::string ControlProgram::read_string(Ecb& e, uint64_t addr) {
  std::string s;
  char ch;
  while (s.size() < 256 && e.process->space->read_bytes(addr + s.size(), &ch, 1) && ch) s += ch;
  return s;
}

int64_t ControlProgram::svc_write(Ecb& e, uint64_t fd, uint64_t buf, uint64_t len) {
  if (fd != 1 && fd != 2) return -kEbadf;
  std::string s(std::min<uint64_t>(len, 1 << 16), '\0');
  if (!e.process->space->read_bytes(buf, s.data(), s.size())) return -kEfault;
  log_ += s;
  return int64_t(s.size());
}

void ControlProgram::svc_log(emu::Cpu& cpu, Ecb& e) {
  std::string s(std::min<uint64_t>(cpu.gr[3], 4096), '\0');
  cpu.gr[2] = e.process->space->read_bytes(cpu.gr[2], s.data(), s.size()) ? 0 : uint64_t(-kEfault);
  log(fmt::format("{:>12} ECB {:<6} {}", cpu.cycles, e.id, s));
}

void ControlProgram::svc_ecb_info(emu::Cpu& cpu, Ecb& e) {
  uint64_t& a = cpu.gr[2];
  switch (a) {
    case TPF_INFO_ECB: a = e.id; return;
    case TPF_INFO_ISTREAM: a = cpu.istream(); return;
    case TPF_INFO_ISTREAMS: a = machine_.istreams(); return;
    case TPF_INFO_THREAD: a = e.thread; return;
    case TPF_INFO_TIME_US: a = uint64_t(double(cpu.cycles) / (machine_.config().clock_ghz * 1e3)); return;
    case TPF_INFO_SHARED_SIZE: a = config_.system.shared_size; return;
  }
  auto it = ecb_info_.find(a);  // a subsystem's (TPF_INFO_HEAP_CLASS: the ECB heap's)
  a = it != ecb_info_.end() ? it->second(e) : uint64_t(-kEnosys);
}

void ControlProgram::svc_delay(emu::Cpu& cpu, Ecb& e) {
  const unsigned i = cpu.istream();
  loop_.save(i, e);
  loop_.leave(i);
  const uint64_t at = cpu.cycles + uint64_t(double(cpu.gr[2]) * machine_.config().clock_ghz * 1e3);
  Ecb* ep = &e;
  machine_.events().schedule(at, [this, ep, at] { loop_.make_ready(*ep, false, at); });
  cpu.request_stop();
}

int64_t ControlProgram::svc_create(emu::Cpu& cpu, Ecb& e) {
  const unsigned i = cpu.istream();
  const std::string program = read_string(e, cpu.gr[2]);
  const uint64_t entry = evm_.entry_of(program);
  if (!entry) return -1;
  const uint64_t len = std::min<uint64_t>(cpu.gr[4], 1 << 20);
  std::vector<uint8_t> msg(len);
  if (len && !e.process->space->read_bytes(cpu.gr[3], msg.data(), len)) return -1;
  cpu.charge(emu::Cause::Create, config_.system.create_cost);
  Ecb* c = new_ecb(program, new_process(), i);
  if (!evm_.map_message(*c->process, msg) ||
      !evm_.start_program(*c, entry, len ? TPF_EVM_MESSAGE : 0, len, ecb_return_)) {
    end_ecb(*c);
    return -1;
  }
  const uint64_t id = c->id;
  switch (cpu.gr[5]) {
    case TPF_CREATE_DEFERRED: loop_.add_deferred(i, *c); break;
    case TPF_CREATE_ANY: loop_.make_ready(*c, true, cpu.cycles); break;
    default: loop_.add_ready(i, *c); break;
  }
  return int64_t(id);
}

int64_t ControlProgram::svc_thread_create(emu::Cpu& cpu, Ecb& e) {
  Process& p = *e.process;
  if (p.live_threads >= config_.system.max_threads) return -1;
  Ecb* t = new_ecb(e.program, e.process, cpu.istream());
  t->thread = p.next_thread++;
  if (!evm_.start_program(*t, cpu.gr[2], cpu.gr[3], 0, thread_return_)) {
    end_ecb(*t);
    return -1;
  }
  ++p.live_threads;
  loop_.make_ready(*t, true, cpu.cycles);  // any I-stream may run it
  return t->thread;
}

// A subsystem may make the ECB wait for frames first: the SVC is then done again when
// it runs (the PSW goes back over it; the control program's SVCs are never the target
// of an EXECUTE).
void ControlProgram::svc_getstor(emu::Cpu& cpu, Ecb& e, bool vio, bool above_the_bar) {
  constexpr uint64_t kSvcLength = 2;
  const uint64_t frames = std::max<uint64_t>(1, cpu.gr[2] / emu::kPageSize + ((cpu.gr[2] & emu::kPageMask) != 0));
  cpu.psw_addr -= kSvcLength;
  for (auto& s : subsystems_)
    if (s->frames_wanted(cpu, e, frames)) return;
  cpu.psw_addr += kSvcLength;
  cpu.gr[2] = uint64_t(above_the_bar ? evm_.getstor64(*e.process, cpu.gr[2]) : evm_.getstor(*e.process, cpu.gr[2], vio));
}

void ControlProgram::svc_thread_join(emu::Cpu& cpu, Ecb& e) {
  Process& p = *e.process;
  const unsigned tid = unsigned(cpu.gr[2]);
  if (auto it = p.thread_results.find(tid); it != p.thread_results.end()) {
    cpu.gr[2] = it->second;
    return;
  }
  if (tid == 0 || tid >= p.next_thread) {
    cpu.gr[2] = uint64_t(-1);
    return;
  }
  const unsigned i = cpu.istream();
  loop_.save(i, e);
  loop_.leave(i);
  e.joiner_of = tid;
  e.waiting_on = fmt::format("thread {} of its process to end", tid);
  p.joiners.push_back(&e);
  cpu.request_stop();
  end_if_stuck(p, i);
}

void ControlProgram::svc_wait(emu::Cpu& cpu, Ecb& e) {
  EventCount& ev = events_[cpu.gr[2]];
  if (ev.posts) {
    --ev.posts;
    cpu.gr[2] = 0;
    return;
  }
  loop_.park(cpu, e, ev.waiters, fmt::format("event {} (WAIT)", cpu.gr[2]));
  e.gr[2] = 0;
}

void ControlProgram::svc_post(emu::Cpu& cpu) {
  const uint64_t event = cpu.gr[2];
  EventCount& ev = events_[event];
  cpu.gr[2] = 0;
  if (ev.waiters.empty()) {
    ++ev.posts;
    return;
  }
  Ecb* w = ev.waiters.front();
  ev.waiters.pop_front();
  if (ev.waiters.empty() && ev.posts == 0) events_.erase(event);  // nothing left to remember
  loop_.make_ready(*w, false, cpu.cycles);
}

// The word is read and compared in the same step as the ECB is queued: a WORD_WAKE
// that a releasing ECB issues after changing the word either finds this ECB queued
// or comes before the check, which then sees the new value.
void ControlProgram::svc_word_wait(emu::Cpu& cpu, Ecb& e) {
  const auto key = word_absolute(*e.process->space, cpu.gr[2]);
  uint8_t b[8];
  if (!key || !e.process->space->read_bytes(cpu.gr[2], b, 8)) {
    cpu.gr[2] = uint64_t(-kEfault);
    return;
  }
  if (emu::Cpu::load_be<uint64_t>(b) != cpu.gr[3]) {
    cpu.gr[2] = 1;
    return;
  }
  loop_.park(cpu, e, word_waiters_[*key], fmt::format("the storage word at {:#x}{} (WORD_WAIT)", cpu.gr[2],
                                                     symbol_suffix(cpu.gr[2])));
  e.word_wait = cpu.gr[2], e.word_key = *key;
  e.gr[2] = 0;
  ++stats_.word_waits;
  end_if_stuck(*e.process, cpu.istream());
}

uint64_t ControlProgram::svc_word_wake(emu::Cpu& cpu, Ecb& e) {
  const auto key = word_absolute(*e.process->space, cpu.gr[2]);
  if (!key) return uint64_t(-kEfault);
  auto it = word_waiters_.find(*key);
  uint64_t woken = 0;
  for (; it != word_waiters_.end() && !it->second.empty() && woken < cpu.gr[3]; ++woken) {
    Ecb* w = it->second.front();
    it->second.pop_front();
    loop_.make_ready(*w, false, cpu.cycles);
  }
  if (it != word_waiters_.end() && it->second.empty()) word_waiters_.erase(it);
  return woken;
}

}  // namespace os
