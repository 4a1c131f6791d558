// flashsim_curve: pages a second against concurrent requests, Flash Express (the
// default ScmDevice: one card pair, 4 KB reads, one block a request) and DASD (the
// document's 16 page volumes on 8 LCUs, 16 pages a channel program), as CSV.
//
// usage: flashsim_curve [--scm-blocks N] [--dasd-pages N] [--max-concurrency N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "flashsim/dasd.h"
#include "flashsim/load.h"
#include "flashsim/scm.h"

using namespace flashsim;

int main(int argc, char** argv) {
  unsigned scm_blocks = 1, dasd_pages = 16, max_c = 256;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (i + 1 < argc && a == "--scm-blocks") scm_blocks = unsigned(std::atoi(argv[++i]));
    else if (i + 1 < argc && a == "--dasd-pages") dasd_pages = unsigned(std::atoi(argv[++i]));
    else if (i + 1 < argc && a == "--max-concurrency") max_c = unsigned(std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: flashsim_curve [--scm-blocks N] [--dasd-pages N] [--max-concurrency N]\n");
      return 2;
    }
  }
  if (scm_blocks < 1 || scm_blocks > 124 || dasd_pages < 1 || dasd_pages > 64 || max_c < 1) {
    std::fprintf(stderr, "flashsim_curve: --scm-blocks 1..124, --dasd-pages 1..64, --max-concurrency >= 1\n");
    return 2;
  }
  std::printf("concurrency,scm_pages_per_s,scm_mean_response_us,dasd_pages_per_s,dasd_mean_response_us\n");
  for (unsigned c = 1; c <= max_c; c *= 2) {
    ScmDevice scm;
    std::vector<Device*> sd{&scm};
    LoadResult s = closed_loop(sd, c, scm_blocks, Op::Read, 200000, 20000 + 4 * c, scm.online_bytes(), 7);
    std::vector<std::unique_ptr<DasdVolume>> vols;
    std::vector<Device*> dd;
    for (const DasdConfig& dc : document_dasd()) {
      vols.push_back(std::make_unique<DasdVolume>(dc));
      dd.push_back(vols.back().get());
    }
    LoadResult d = closed_loop(dd, c, dasd_pages, Op::Read, 20000, 2000 + 4 * c,
                               vols[0]->config().capacity_blocks() * kBlock4K, 7);
    std::printf("%u,%.0f,%.1f,%.0f,%.1f\n", c, s.blocks_per_second, s.mean_response_ns / 1e3, d.blocks_per_second,
                d.mean_response_ns / 1e3);
  }
  return 0;
}
