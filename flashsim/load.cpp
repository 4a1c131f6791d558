#include "flashsim/load.h"

#include <queue>
#include <tuple>

namespace flashsim {

LoadResult closed_loop(const std::vector<Device*>& devices, unsigned concurrency, unsigned blocks_per_request,
                       Op op, uint64_t requests, uint64_t warmup, uint64_t space_bytes, uint64_t seed) {
  LoadResult r;
  if (devices.empty() || concurrency == 0 || blocks_per_request == 0) return r;
  uint64_t x = seed;
  auto next_random = [&x] {   // splitmix64
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  const uint64_t groups = space_bytes / (uint64_t(blocks_per_request) * kBlock4K);
  Request req;
  req.blocks.resize(blocks_per_request);
  uint64_t submitted = 0, completed = 0, seq = 0;
  using Ev = std::tuple<uint64_t, uint64_t, uint64_t, size_t>;   // time, sequence, submit time, device
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> events;
  auto submit = [&](uint64_t now, size_t dev) {
    uint64_t base = (next_random() % groups) * uint64_t(blocks_per_request) * kBlock4K;
    for (unsigned i = 0; i < blocks_per_request; i++) req.blocks[i] = Block{op, base + uint64_t(i) * kBlock4K, kBlock4K, nullptr};
    req.tag = submitted++;
    Completion c = devices[dev]->submit(now, req);
    events.emplace(c.time_ns, seq++, now, dev);
  };
  const uint64_t total = warmup + requests;
  for (unsigned i = 0; i < concurrency && submitted < total; i++) submit(0, i % devices.size());
  uint64_t t_warm = 0, t_last = 0;
  bool draining = false;
  double resp = 0;
  while (!events.empty()) {
    auto [t, s, sub, dev] = events.top();
    events.pop();
    completed++;
    if (completed == warmup) t_warm = t;
    // Measured: from the end of the warm-up until the last request is submitted (the
    // drain after it, with devices running empty one by one, is left out).
    if (completed > warmup && !draining) {
      r.requests++;
      r.blocks += blocks_per_request;
      resp += double(t - sub);
      t_last = t;
    }
    if (submitted < total) submit(t, dev);
    else draining = true;
  }
  r.window_ns = t_last - t_warm;
  r.blocks_per_second = r.window_ns ? double(r.blocks) * 1e9 / double(r.window_ns) : 0.0;
  r.mean_response_ns = r.requests ? resp / double(r.requests) : 0.0;
  return r;
}

}  // namespace flashsim
