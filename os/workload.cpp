#include "os/workload.h"

#include <cmath>
#include <fmt/format.h>

#include "os/run_config.h"

namespace os {

Workload::Workload(emu::Machine& machine, const WorkloadConfig& workload, CpuLoop& loop, Measurement& measurement)
    : machine_(machine), workload_(workload), loop_(loop), measurement_(measurement), rng_(workload.seed) {}

double Workload::uniform() { return double(rng_() >> 11) * 0x1.0p-53; }

// Exponential, with mean workload.think_time; 0 without one.
uint64_t Workload::think_time() {
  const double think = workload_.think_ms > 0 ? -std::log(1.0 - uniform()) * workload_.think_ms : 0;
  return emu::cycles_of_ms(machine_.config(), think);
}

void Workload::start(uint64_t now) {
  if (workload_.arrivals == Arrivals::Closed) {
    for (unsigned t = 0; t < workload_.terminals; ++t) schedule_arrival(t, now + think_time());
  } else {
    schedule_arrival(0, now);
  }
}

void Workload::schedule_arrival(unsigned terminal, uint64_t at) {
  machine_.events().schedule(at, [this, terminal, at] { arrive(terminal, at); });
}

void Workload::arrive(unsigned terminal, uint64_t time) {
  const WorkloadConfig& w = workload_;
  InputMessage m;
  m.seq = next_message_++;
  m.arrival = time;
  m.terminal = terminal;
  uint64_t size = w.message_size;
  if (w.message_size_max > w.message_size) size += uint64_t(uniform() * double(w.message_size_max - w.message_size + 1));
  if (!w.message_text.empty()) {
    m.bytes.assign(w.message_text.begin(), w.message_text.end());
  } else {
    m.bytes.resize(size);
    const std::string head = fmt::format("MSG{:08} T{:04} ", m.seq, terminal);
    for (uint64_t k = 0; k < size; ++k) m.bytes[k] = k < head.size() ? uint8_t(head[k]) : uint8_t('A' + (rng_() % 26));
  }
  const bool by_terminal = w.route_by_terminal && w.arrivals == Arrivals::Closed;
  const unsigned i = unsigned((by_terminal ? terminal : next_input_istream_++) % machine_.istreams());
  loop_.add_input(i, std::move(m), time);
  if (w.arrivals == Arrivals::Open)
    schedule_arrival(0, time + std::max<uint64_t>(1, uint64_t(-std::log(1.0 - uniform()) / w.rate *
                                                               machine_.config().clock_ghz * 1e9)));
}

void Workload::message_done(const Ecb& e, uint64_t time) {
  measurement_.completed(e.arrival, time);
  const uint64_t done = measurement_.completed_total();
  if (progress_ && done % 1000 == 0)
    progress_(done, workload_.messages + workload_.warmup_messages,
              double(time) / (machine_.config().clock_ghz * 1e9));
  if (measurement_.target_reached()) return machine_.end_run();
  if (workload_.arrivals == Arrivals::Closed) schedule_arrival(e.terminal, time + think_time());
}

}  // namespace os
