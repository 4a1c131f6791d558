#include "os/measurement.h"

#include <algorithm>
#include <cmath>

#include "os/run_config.h"

namespace os {

// A run whose messages never began (its prelude never ended) has an empty window.
Measurement::Measurement(emu::Machine& machine, const WorkloadConfig& workload)
    : machine_(machine), workload_(workload) {
  const unsigned n = machine_.config().istreams;
  busy0_.assign(n, 0), insns0_.assign(n, 0);
  causes0_.assign(n, emu::CyclesByCause{});
}

void Measurement::start(uint64_t now) {
  if (workload_.warmup_messages == 0) open(now);
}

// With workload.duration, the window closes that long after it opened.
void Measurement::end_after(uint64_t time) {
  if (workload_.seconds <= 0) return;
  const uint64_t end = time + emu::cycles_of_ms(machine_.config(), workload_.seconds * 1000);
  machine_.events().schedule(end, [this, end] { last_completion_ = end, machine_.end_run(); });
}

void Measurement::open(uint64_t time) {
  window_open_ = true;
  window_start_ = time;
  for (unsigned k = 0; k < machine_.istreams(); ++k) {
    busy0_[k] = machine_.counters(k).busy_cycles;
    insns0_[k] = machine_.cpu(k).instructions;
    causes0_[k] = machine_.cpu(k).cycles_by_cause();
  }
  end_after(time);
  for (const auto& fn : on_open_) fn(time);
}

void Measurement::completed(uint64_t arrival, uint64_t time) {
  ++completed_;
  response_ms_total_ += double(time - arrival) / (machine_.config().clock_ghz * 1e6);
  if (window_open_) {
    responses_ms_.push_back(double(time - arrival) / (machine_.config().clock_ghz * 1e6));
    ++measured_;
    last_completion_ = time;
  } else if (completed_ >= workload_.warmup_messages) {
    open(time);
  }
}

bool Measurement::target_reached() const { return workload_.messages && measured_ >= workload_.messages; }

MeasurementWindow Measurement::window() const { return {window_start_, std::max(last_completion_, window_start_)}; }

void Measurement::figures(RunSummary& s) const {
  const unsigned n = machine_.istreams();
  const MeasurementWindow w = this->window();
  const uint64_t window = w.end - w.start;
  const double hz = machine_.config().clock_ghz * 1e9;
  s.messages = measured_;
  s.simulated_seconds = double(window) / hz;
  s.istreams.resize(n);
  uint64_t busy_total = 0;
  for (unsigned k = 0; k < n; ++k) {
    auto c = machine_.counters(k);
    IStreamSummary& is = s.istreams[k];
    is.instructions = c.instructions - insns0_[k];
    is.busy_cycles = std::min(c.busy_cycles - busy0_[k], window);
    is.cycles = window;
    is.idle_cycles = window - is.busy_cycles;
    is.utilization = window ? double(is.busy_cycles) / double(window) : 0;
    is.cycles_by_cause =
        window_cycles_by_cause(causes0_[k], machine_.cpu(k).cycles_by_cause(), is.busy_cycles, is.idle_cycles);
    busy_total += is.busy_cycles;
    s.instructions += is.instructions;
  }
  s.cycles = window * n;  // all I-streams, like instructions
  s.cpu_utilization = window ? double(busy_total) / double(window * n) : 0;
  s.messages_per_second = s.simulated_seconds > 0 ? double(s.messages) / s.simulated_seconds : 0;
  s.ms_per_message = s.messages ? double(busy_total) / hz * 1e3 / double(s.messages) : 0;
  std::vector<double> rt = responses_ms_;
  std::sort(rt.begin(), rt.end());
  auto pct = [&](double p) {  // nearest rank
    if (rt.empty()) return 0.0;
    const size_t rank = size_t(std::ceil(p * double(rt.size())));
    return rt[std::clamp<size_t>(rank, 1, rt.size()) - 1];
  };
  double sum = 0;
  for (double x : rt) sum += x;
  s.response_mean_ms = rt.empty() ? 0 : sum / double(rt.size());
  s.response_p50_ms = pct(0.50), s.response_p90_ms = pct(0.90), s.response_p99_ms = pct(0.99);
  s.response_groups = response_groups(rt);
  s.headline.value = s.messages_per_second;  // unless a subsystem's headline applies
}

}  // namespace os
