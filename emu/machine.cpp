#include "emu/machine.h"

#include <algorithm>

namespace emu {

Machine::Machine(const MachineConfig& config, bool timing)
    : config_(config), storage_(config.storage, config.placement_shift), timing_(timing) {
  if (timing_) {
    caches_ = std::make_unique<MemoryHierarchy>(config_);
    caches_->set_listener(this);
  }
  // The I-stream that touched the frame over the limit ends its slice after this
  // instruction; run() then ends.
  storage_.set_host_limit(config.host_storage_limit, [this] {
    if (running_ >= 0) cpus_[running_]->end_slice();
  });
}

Machine::~Machine() = default;

void Machine::start(AddressSpace& space) {
  cpus_.clear();
  if (config_.engine != Engine::Interpret && jit::CodeCache::available() && !code_cache_)
    code_cache_ = std::make_shared<jit::CodeCache>(config_.compile_cache, config_.block_length, Cpu::compiled_layout());
  for (unsigned i = 0; i < config_.istreams; ++i) {
    auto cpu = std::make_unique<Cpu>(space);
    cpu->clock_ghz = config_.clock_ghz;
    cpu->set_arch(config_.arch);
    cpu->set_group(this);
    cpu->set_code_cache(code_cache_);
    cpu->set_cosim(config_.engine == Engine::Cosim);
    cpu->set_spin_skip(config_.skip_spin_loops);
    if (timing_) cpu->set_timing(CpuTiming{caches_.get(), i, config_.tlb4k, config_.tlb1m, config_.tlb_walk});
    cpus_.push_back(std::move(cpu));
  }
  state_.assign(cpus_.size(), IStreamState::Running);
  deadline_.assign(cpus_.size(), ~0ull);
}

void Machine::wake(unsigned i, uint64_t now) {
  if (state_[i] != IStreamState::Idle) return;
  Cpu& c = *cpus_[i];
  c.idle_until(now);
  if (dispatcher_ && dispatcher_->dispatch(i, Dispatcher::Why::Woken)) {
    state_[i] = IStreamState::Running;
    // A lone runner's slice goes to the next event; now that it has company it must
    // interleave again, or it would run far ahead of the I-stream it woke.
    if (lone_runner_ >= 0 && unsigned(lone_runner_) != i) cpus_[unsigned(lone_runner_)]->end_slice();
  }
}

MachineRunResult Machine::run(uint64_t max_instructions) {
  uint64_t done = 0;
  end_ = false;
  for (;;) {
    if (end_) return MachineRunResult{MachineRunResult::Reason::Ended, 0, {}};
    if (host_stop_ && host_stop_->load(std::memory_order_relaxed)) [[unlikely]]
      return MachineRunResult{MachineRunResult::Reason::HostStop, 0, {}};
    if (storage_.over_host_limit()) [[unlikely]]
      return MachineRunResult{MachineRunResult::Reason::HostLimit, 0, {}};
    // The running I-stream with the smallest clock; ties to the lower number. One key
    // per I-stream, clock then number (8 bits), and the least key: no branches on the
    // clocks, which a host predicts badly when many I-streams take turns.
    static_assert(kMaxIStreams <= 256);
    uint64_t least = ~0ull, clocks = 0;
    unsigned running = 0;
    for (unsigned i = 0; i < cpus_.size(); ++i) {
      const bool runs = state_[i] == IStreamState::Running;
      const uint64_t clock = cpus_[i]->cycles;
      clocks |= clock;
      least = std::min<uint64_t>(least, runs ? clock << 8 | i : ~0ull);
      running += runs;
    }
    int next = least == ~0ull ? -1 : int(least & 0xFF);
    if (clocks >> 56) [[unlikely]] {  // a clock too large for the key (after 160 simulated days)
      next = -1;
      for (unsigned i = 0; i < cpus_.size(); ++i)
        if (state_[i] == IStreamState::Running && (next < 0 || cpus_[i]->cycles < cpus_[next]->cycles)) next = int(i);
    }
    if (!events_.empty() && (next < 0 || events_.next_time() <= cpus_[next]->cycles)) {
      uint64_t t = events_.next_time();
      for (unsigned i = 0; i < cpus_.size(); ++i)  // idle clocks jump to the event
        if (state_[i] == IStreamState::Idle) cpus_[i]->idle_until(t);
      events_.fire_next();
      continue;
    }
    if (next < 0) return MachineRunResult{MachineRunResult::Reason::AllStopped, 0, {}};
    if (done >= max_instructions) return MachineRunResult{MachineRunResult::Reason::Limit, 0, {}};
    Cpu& c = *cpus_[next];
    uint64_t before = c.instructions;
    // A lone running I-stream has no one to interleave with: it runs to the next event.
    const bool alone = running == 1;
    uint64_t end = !alone ? c.cycles + config_.quantum : events_.empty() ? ~0ull : events_.next_time();
    end = std::min(end, deadline_[next]);
    lone_runner_ = alone ? next : -1;
    running_ = next;
    RunResult r = c.run(max_instructions - done, end);
    running_ = lone_runner_ = -1;
    done += c.instructions - before;
    unsigned i = unsigned(next);
    if (r.reason == StopReason::ProgramCheck) {
      if (!dispatcher_ || !dispatcher_->program_check(i, r))
        return MachineRunResult{MachineRunResult::Reason::ProgramCheck, i, r};
      redispatch(i, Dispatcher::Why::GaveUp);
    } else if (r.reason == StopReason::Requested) {
      if (dispatcher_) redispatch(i, Dispatcher::Why::GaveUp);
      else state_[i] = IStreamState::Stopped;
    } else if (dispatcher_ && c.cycles >= deadline_[i]) {
      redispatch(i, Dispatcher::Why::TimeUp);
    }
  }
}

void Machine::redispatch(unsigned i, Dispatcher::Why why) {
  deadline_[i] = ~0ull;
  state_[i] = dispatcher_->dispatch(i, why) ? IStreamState::Running : IStreamState::Idle;
}

uint64_t Machine::elapsed_cycles() const {
  uint64_t e = 0;
  for (const auto& c : cpus_) e = std::max(e, c->cycles);
  return e;
}

IStreamCounters Machine::counters(unsigned i) const {
  IStreamCounters k;
  const Cpu& c = *cpus_[i];
  uint64_t elapsed = elapsed_cycles();
  k.instructions = c.instructions;
  k.cycles = elapsed;
  k.busy_cycles = c.cycles - c.cycles_by_cause()[size_t(Cause::Idle)] - c.cycles_by_cause()[size_t(Cause::PageWait)];
  k.idle_cycles = elapsed - k.busy_cycles;  // includes the time after it stopped
  k.utilization = elapsed ? double(k.busy_cycles) / double(elapsed) : 0.0;
  return k;
}

uint64_t Machine::instructions() const {
  uint64_t n = 0;
  for (const auto& c : cpus_) n += c->instructions;
  return n;
}

void Machine::code_created(const Frame& f) {
  storage_.add_code_page();
  for (auto& c : cpus_) c->on_code_created(f);
}

void Machine::code_invalidated(const DecodedPage* old) {
  storage_.remove_code_page();  // retired: it goes when its I-stream enters a code page next
  for (auto& c : cpus_) c->on_code_invalidated(old);
}

void Machine::line_lost(unsigned istream, uint64_t line) {
  if (istream < cpus_.size()) cpus_[istream]->forget_line(line);
}

}  // namespace emu
