// flashsim_bench: host cost of the device models, in host nanoseconds per simulated
// request and per block (best of 3). Speed is measured here, never in tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "flashsim/dasd.h"
#include "flashsim/load.h"
#include "flashsim/scm.h"

using namespace flashsim;

namespace {
template <class F> double best_ns(F&& f) {
  double best = 1e300;
  for (int i = 0; i < 3; i++) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, double(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
  }
  return best;
}
void row(const char* what, uint64_t requests, uint64_t blocks, double ns) {
  std::printf("%-52s %10llu %10.0f %10.0f %12.2f\n", what, (unsigned long long)requests, ns / double(requests),
              ns / double(blocks), double(blocks) / (ns / 1e9) / 1e6);
}
}  // namespace

int main() {
  std::printf("%-52s %10s %10s %10s %12s\n", "case", "requests", "ns/req", "ns/block", "Mblocks/s");
  const uint64_t n = 500000;
  {
    double ns = best_ns([&] {
      ScmDevice scm;
      std::vector<Device*> d{&scm};
      closed_loop(d, 32, 1, Op::Read, n, 0, scm.online_bytes());
    });
    row("SCM 4 KB read, 1 MSB an AOB, 32 outstanding", n, n, ns);
  }
  {
    const uint64_t m = n / 16;
    double ns = best_ns([&] {
      ScmDevice scm;
      std::vector<Device*> d{&scm};
      closed_loop(d, 32, 16, Op::Read, m, 0, scm.online_bytes());
    });
    row("SCM 4 KB read, 16 MSBs an AOB, 32 outstanding", m, m * 16, ns);
  }
  {
    const uint64_t m = 40000;
    std::vector<uint8_t> buf(kBlock4K, 0x5a);
    double ns = best_ns([&] {
      ScmDevice scm;
      Request r;
      r.blocks.resize(1);
      for (uint64_t i = 0; i < m; i++) {   // write 20,000 blocks with data, then read them back
        r.blocks[0] = Block{i < m / 2 ? Op::Write : Op::Read, (i % (m / 2)) * kBlock4K, kBlock4K, buf.data()};
        scm.submit(i * 1000, r);
      }
    });
    row("SCM 4 KB write then read with data (80 MB kept)", m, m, ns);
  }
  {
    const uint64_t m = n / 16;
    double ns = best_ns([&] {
      std::vector<std::unique_ptr<DasdVolume>> vols;
      std::vector<Device*> d;
      for (const DasdConfig& c : document_dasd()) {
        vols.push_back(std::make_unique<DasdVolume>(c));
        d.push_back(vols.back().get());
      }
      closed_loop(d, 64, 16, Op::Read, m, 0, vols[0]->config().capacity_blocks() * kBlock4K);
    });
    row("DASD 16 volumes, 16 pages a channel program, 64 out", m, m * 16, ns);
  }
  return 0;
}
