// E1, ECB heap APAR PJ47265 (seed 000, docs/e1-tls.md): the band of the
// document's effect on a short run of configs/tls-*.yaml (the calibrated baseline,
// pj47265 a prediction), and the request size report's shape. The figures come from
// the guest heap code running on the machine model.
#include <catch2/catch.hpp>

#include <string>

#include "heap/heap_stats.h"
#include "run_reports.h"

namespace {
struct TlsRun {
  double rate = 0, ms = 0;
  uint64_t instructions = 0;
  heap::HeapTotals heap;
  // The run of configs/tls-ALGORITHM.yaml with MESSAGES measured messages: the
  // fixture tls-ALGORITHM-MESSAGES (tests/experiments/CMakeLists.txt sets the keys);
  // ALGORITHM may also be a change of PJ47265, alone on the baseline.
  explicit TlsRun(const std::string& algorithm, long messages) {
    const RunReports r("tls-" + algorithm + "-" + std::to_string(messages));
    INFO(r.dumps);
    REQUIRE(r.s.counter("ecb_heap_errors") == 0);
    REQUIRE(r.s.ecb_program_checks == 0);
    rate = r.s.messages_per_second;
    instructions = r.s.instructions;
    ms = 1000.0 / rate;
    const auto& requests = r.heap.at("request_sizes_32");
    REQUIRE(requests.size() == heap.requests.size());
    for (size_t k = 0; k < heap.requests.size(); ++k) heap.requests[k] = requests[k];
  }
};
}  // namespace

// The band is around what the documented configuration gives (IBM's 150-entry control
// table; docs/e1-tls.md: 5.4% on the full run), not around the document's 11.8%: the
// model's prediction is what it is, and the test keeps it from moving unnoticed.
TEST_CASE("E1: pj47265 cuts ms per message, 4 to 7.5% against the calibrated baseline (short run)",
          "[heap][experiment]") {
  TlsRun base("baseline", 600), pj("pj47265", 600);
  INFO("baseline " << base.ms << " ms, pj47265 " << pj.ms << " ms");
  CHECK(base.ms == Approx(0.068).epsilon(0.03));  // the calibration holds on a short run too
  const double cut = 1 - pj.ms / base.ms;
  CHECK(cut >= 0.04);
  CHECK(cut <= 0.075);
  // The request size report shows the small buffers' dominance (the document: 99.29%
  // in the 64-byte class, 99.73% under 128 bytes in the old layout).
  const auto& q = base.heap.requests;
  uint64_t all = 0;
  for (uint64_t n : q) all += n;
  CHECK(q[0] + q[1] + q[2] + q[3] >= all * 85 / 100);  // up to 128 bytes
  for (size_t k = 0; k < q.size(); ++k)
    if (k != 1) CHECK(q[1] > q[k]);                     // the 64-byte class is the largest
}

// The ablation (docs/e1-tls.md): each change of PJ47265 alone on the baseline. Those that
// act on the TLS workload's path each cut its ms per message; the tag hash table does
// nothing here (the workload tags nothing: the same instructions but for a few) and is
// measured by the locate study (test_ecb_heap.cpp); line alignment is measured by the
// line transfers of threads sharing buffers (test_ecb_heap.cpp), since on this path it
// costs a little (more lines for an application ECB's preallocated buffers).
TEST_CASE("E1 ablation: each change of PJ47265 alone on the baseline", "[heap][experiment]") {
  const TlsRun base("baseline", 600), pj("pj47265", 600);
  double sum = 0;
  for (const std::string change : {"lazy-entries", "lifo", "light-lock", "thread-trace", "thread-avls"}) {
    const TlsRun alone(change, 600);
    INFO(change << ": " << alone.ms << " ms against the baseline's " << base.ms);
    CHECK(alone.ms < base.ms);
    CHECK(alone.ms > pj.ms);  // none alone does what all do
    sum += 1 - alone.ms / base.ms;
  }
  // The same path but for the few instructions of choosing the policies when each
  // process's heap is set up.
  CHECK(double(TlsRun("tag-hash", 600).instructions) == Approx(double(base.instructions)).epsilon(1e-5));
  const TlsRun aligned("line-align", 600);
  CHECK(aligned.ms == Approx(base.ms).epsilon(0.01));
  // They overlap (the thread AVLs avoid the lock the light lock makes cheaper): alone
  // they add up to more than together.
  CHECK(sum > 1 - pj.ms / base.ms);
}
