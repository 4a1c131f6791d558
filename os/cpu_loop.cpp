#include "os/cpu_loop.h"

#include <algorithm>
#include <cstring>

#include "os/run_config.h"

namespace os {

CpuLoop::CpuLoop(emu::Machine& machine, const SystemConfig& system, MakeEcb make_ecb, Timeout timeout)
    : machine_(machine), system_(system), make_ecb_(std::move(make_ecb)), timeout_(std::move(timeout)) {
  const unsigned n = machine.config().istreams;  // the I-streams are made when the machine starts
  current_.assign(n, nullptr);
  page_waits_.assign(n, 0);
  ready_.resize(n), deferred_.resize(n), input_.resize(n);
}

Ecb* CpuLoop::take_next(unsigned i) {
  if (system_held_) return nullptr;
  for (;;) {
    Ecb* e = take_listed(i);
    if (!e || !e->process->nondispatchable) return e;
    held_.push_back(e);
  }
}

void CpuLoop::hold(Process* p, uint64_t now) {
  if (p) p->nondispatchable = true;
  else system_held_ = true;
  for (unsigned k = 0; k < current_.size(); ++k)
    if (current_[k] && (!p || current_[k]->process.get() == p)) machine_.set_deadline(k, now);
}

void CpuLoop::release(Process* p, uint64_t now) {
  if (!p) {
    system_held_ = false;
    for (unsigned k = 0; k < machine_.istreams(); ++k) machine_.wake(k, now);
    return;
  }
  p->nondispatchable = false;
  WaitList still;
  for (Ecb* e : held_) {
    if (e->process.get() != p) {
      still.push_back(e);
      continue;
    }
    ready_[e->home].push_back(e);
    machine_.wake(e->home, now);
  }
  held_.swap(still);
}

// z/TPF order: the cross list (shared), then this I-stream's ready, input and deferred
// lists. Add at the bottom, take from the top.
Ecb* CpuLoop::take_listed(unsigned i) {
  auto pop = [](WaitList& l) {
    Ecb* e = l.front();
    l.pop_front();
    return e;
  };
  if (!cross_.empty()) {  // from the cross list, an ECB stays on the I-stream that took it
    Ecb* e = pop(cross_);
    e->home = i;
    return e;
  }
  if (!ready_[i].empty()) return pop(ready_[i]);
  while (!input_[i].empty()) {
    InputMessage m = std::move(input_[i].front());
    input_[i].pop_front();
    if (Ecb* e = make_ecb_(i, std::move(m))) return e;
  }
  if (!deferred_[i].empty()) return pop(deferred_[i]);
  return nullptr;
}

bool CpuLoop::dispatch(unsigned i, emu::Dispatcher::Why why) {
  if (observer_) [[unlikely]] {
    const emu::Cpu& c = machine_.cpu(i);
    observer_->seeking(i, c.cycles, c.instructions);
  }
  if (why == emu::Dispatcher::Why::TimeUp && current_[i]) {
    Ecb& e = *current_[i];
    save(i, e);
    current_[i] = nullptr;
    ++time_slices_;
    if (e.cpu_cycles >= cycles_of_ms(system_.timeout_ms)) timeout_(i, e);
    else ready_[i].push_back(&e);
  }
  Ecb* next = take_next(i);
  if (!next) {
    begin_idle(i);
    return false;
  }
  load(i, *next);
  return true;
}

void CpuLoop::save(unsigned i, Ecb& e) {
  emu::Cpu& c = machine_.cpu(i);
  std::memcpy(e.gr, c.gr, sizeof e.gr);
  std::copy(c.vr, c.vr + 32, e.vr);
  std::memcpy(e.ar, c.ar, sizeof e.ar);
  e.fpc = c.fpc;
  e.psw = c.psw_addr, e.cc = c.cc, e.prog_mask = c.prog_mask;
  e.cpu_cycles += c.cycles - e.dispatched_at;
  if (e.process) e.process->cpu_cycles += c.cycles - e.dispatched_at;
  if (observer_) [[unlikely]]
    observer_->undispatched(i, e, c.cycles);
}

void CpuLoop::load(unsigned i, Ecb& e) {
  emu::Cpu& c = machine_.cpu(i);
  c.charge(emu::Cause::Dispatch, system_.dispatch_cost);
  c.switch_address_space(*e.process->space);
  std::memcpy(c.gr, e.gr, sizeof e.gr);
  std::copy(e.vr, e.vr + 32, c.vr);
  std::memcpy(c.ar, e.ar, sizeof e.ar);
  c.fpc = e.fpc;
  c.psw_addr = e.psw, c.cc = e.cc, c.prog_mask = e.prog_mask;
  e.dispatched_at = c.cycles;
  current_[i] = &e;
  ++dispatches_;
  if (observer_) [[unlikely]]
    observer_->dispatched(i, e, c.cycles);
  // Run until the time slice ends, or the CPU time limit, whichever is first.
  const uint64_t limit = cycles_of_ms(system_.timeout_ms);
  const uint64_t left = limit > e.cpu_cycles ? limit - e.cpu_cycles : 0;
  machine_.set_deadline(i, c.cycles + std::min(cycles_of_ms(system_.time_slice_ms), std::max<uint64_t>(left, 1)));
}

void CpuLoop::park(emu::Cpu& cpu, Ecb& e, WaitList& list, std::string waiting_on) {
  const unsigned i = cpu.istream();
  save(i, e);
  e.waiting_on = std::move(waiting_on);
  current_[i] = nullptr;
  list.push_back(&e);
  cpu.request_stop();
}

void CpuLoop::page_wait_began(Ecb& e, uint64_t now) {
  e.page_wait = true;
  if (observer_) [[unlikely]]
    observer_->page_wait_began(e, now);
  ++page_waits_[e.home];
}

// Idle from now on: page wait while an ECB of its own waits for a page-in.
void CpuLoop::set_idle_cause(unsigned i) {
  machine_.cpu(i).set_idle_cause(page_waits_[i] ? emu::Cause::PageWait : emu::Cause::Idle);
}

void CpuLoop::begin_idle(unsigned i) {
  set_idle_cause(i);
  if (observer_) [[unlikely]]
    observer_->idle(i, machine_.cpu(i).cycles, page_waits_[i] != 0);
}

void CpuLoop::make_ready(Ecb& e, bool cross, uint64_t now) {
  e.waiting_on.clear(), e.word_wait = 0, e.word_key = 0;
  if (e.page_wait) {
    e.page_wait = false;
    if (observer_) [[unlikely]]
      observer_->page_wait_ended(e, now);
    --page_waits_[e.home];
    // Its home I-stream, if idle, stays so for a cause that may now be plain idle. Woken
    // below (not cross) its idle time up to now is charged first, as page wait; woken
    // later, all of it counts as the new cause (its clock is not moved here, which
    // would change when it runs).
    if (cross && machine_.state(e.home) == emu::IStreamState::Idle) set_idle_cause(e.home);
  }
  if (!cross) {
    ready_[e.home].push_back(&e);
    return machine_.wake(e.home, now);
  }
  cross_.push_back(&e);
  for (unsigned k = 0; k < machine_.istreams(); ++k)
    if (machine_.state(k) == emu::IStreamState::Idle) return machine_.wake(k, now);
}

void CpuLoop::add_input(unsigned i, InputMessage m, uint64_t now) {
  input_[i].push_back(std::move(m));
  machine_.wake(i, now);
}

void CpuLoop::clear() {
  std::fill(current_.begin(), current_.end(), nullptr);
  cross_.clear();
  for (auto& l : ready_) l.clear();
  for (auto& l : deferred_) l.clear();
  held_.clear();
  std::fill(page_waits_.begin(), page_waits_.end(), 0);
}

std::vector<uint64_t> CpuLoop::list_contents(unsigned i, const char* which) const {
  std::vector<uint64_t> ids;
  const WaitList* l = std::strcmp(which, "cross") == 0   ? &cross_
                      : std::strcmp(which, "ready") == 0 ? &ready_[i]
                                                         : &deferred_[i];
  for (Ecb* e : *l) ids.push_back(e->id);
  return ids;
}

}  // namespace os
