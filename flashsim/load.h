// A closed-loop load on a set of devices, for the throughput tests, the curve
// (flashsim_curve) and the benchmark (flashsim_bench): `concurrency` requests are kept
// outstanding, stream i on device i mod devices (so the load is spread evenly: the
// document's page data sets are equally busy); each completion submits its stream's
// next request, to the same device, at its completion time. Each request moves `blocks_per_request`
// consecutive 4 KB blocks at a pseudo-random aligned address (seeded, deterministic)
// below `space_bytes`. No data moves (timing only).
#pragma once
#include <cstdint>
#include <vector>

#include "flashsim/device.h"

namespace flashsim {

struct LoadResult {
  uint64_t requests = 0;        // completed, measured ones
  uint64_t blocks = 0;
  uint64_t window_ns = 0;       // from the end of the warm-up to the last completion
  double blocks_per_second = 0;
  double mean_response_ns = 0;
};

// Runs `warmup + requests` requests; measures the completions after the first
// `warmup` until the last request is submitted (not the drain after it).
LoadResult closed_loop(const std::vector<Device*>& devices, unsigned concurrency, unsigned blocks_per_request,
                       Op op, uint64_t requests, uint64_t warmup, uint64_t space_bytes, uint64_t seed = 1);

}  // namespace flashsim
