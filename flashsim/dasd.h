// A 3390 page volume behind a DS8800-like control unit (LCU) with a cache, for local
// page data sets. The request contract is device.h's; one request is one channel
// program moving up to `max_blocks_per_io` 4 KB records.
//
// Source: seed 002 (IBM, "Flash Express" z/OS presentation, 2013), its test setup:
// DS8800 2107-951, 60 GB cache, cache hit rates of 95-100% observed, 16 local page
// data sets spread across 8 LCUs, paging the only I/O; peak page-in 75,000 pages a
// second with DASD. 3390 geometry: 15 tracks a cylinder, 12 4 KB records a track.
//
// Timing model: a volume serves one channel program at a time, or 1 + `pav_aliases`
// at once with PAV aliases; requests queue in submission order for the first free
// one. A channel program takes
//     start_io_ns + for each record: page_hit_ns, plus page_miss_ns if it is a read
//     that misses the cache
// (writes are cache fast writes: page_hit_ns; a release moves nothing and costs 0).
// Whether a record hits is a deterministic function of the seed, the device number
// and the record's address: hit iff hash < cache_hit_ratio.
//
// CALIBRATION (the one calibrated estimate: page_hit_ns). Assumption: 16 pages a
// channel program (the seed's RMF page data set report shows 16.5 pages per I/O on a
// DASD page data set). The document's configuration is 16 volumes, no PAV (it names
// none). 75,000 pages/s over 16 volumes is 4,687.5 pages/s a volume, 292.97 channel
// programs a second, 3,413,333 ns each. Expected misses per channel program
// 16 x (1 - 0.975) = 0.4, x 5 ms = 2,000,000 ns; start 200,000 ns; so
//     page_hit_ns = (3,413,333 - 200,000 - 2,000,000) / 16 = 75,833 ns.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "flashsim/dasd3390.h"
#include "flashsim/device.h"

namespace flashsim {

// The cache-hit functions' hash (a DASD volume's, a CKD volume's): SplitMix64's finalizer.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct DasdConfig {
  unsigned device_number = 0;           // e.g. 0x098E; labels the volume and seeds its cache-hit function
  unsigned lcu = 0;                     // the logical control unit it is behind (reports)
  unsigned cylinders = 10017;           // 3390-9 (a page volume size of the time; assumption)
  unsigned tracks_per_cylinder = dasd3390::kTracksPerCylinder;                    // 3390 geometry (dasd3390.h)
  unsigned records_per_track = dasd3390::records_per_track(0, kBlock4K);          // 12 4 KB records a track (dasd3390.h)
  unsigned pav_aliases = 0;             // assumption: the document names no PAV; 0 = one I/O at a time
  unsigned max_blocks_per_io = 64;      // our limit on records in one channel program
  double cache_hit_ratio = 0.975;       // seed: 95-100% observed; the middle
  uint64_t seed = 1;                    // of the cache-hit function
  uint64_t start_io_ns = 200'000;       // estimate: start I/O, channel and control-unit overhead, status
  uint64_t page_hit_ns = 75'833;        // CALIBRATED estimate: 16 volumes x 16 pages an I/O = 75,000 pages/s (above)
  uint64_t page_miss_ns = 5'000'000;    // estimate: a read miss staged from a 15k rpm drive (seek + half a rotation)

  std::string validate() const;         // "" if valid
  uint64_t capacity_blocks() const { return uint64_t(cylinders) * tracks_per_cylinder * records_per_track; }
};

class DasdVolume : public Device {
 public:
  // Throws std::invalid_argument if cfg.validate() says it is invalid.
  explicit DasdVolume(DasdConfig cfg = {}, std::string name = "");
  const char* kind() const override { return "dasd"; }
  Completion submit(uint64_t now_ns, const Request& req) override;
  std::vector<std::string> detail_lines() const override;
  uint64_t contents_bytes() const override { return store_.bytes_allocated() + store_.units_held() * 48; }
  uint64_t contents_written() const override { return store_.units_held() * kBlock4K; }
  void peek(uint64_t address, uint32_t size, uint8_t* out) const override { store_.read(address, size, out); }
  void poke(uint64_t address, uint32_t size, const uint8_t* data) override { store_.write(address, size, data); }
  const DasdConfig& config() const { return cfg_; }
  bool cache_hit(uint64_t address) const;

 private:
  DasdConfig cfg_;
  std::vector<uint64_t> server_free_;   // base device and aliases
  SparseStore store_;
  uint64_t hits_ = 0, misses_ = 0;
};

// The document's DASD configuration: `volumes` page volumes, two on each LCU
// (16 volumes on 8 LCUs), device numbers 0x0980 on (named DASD0980, DASD0981, ...)
std::vector<DasdConfig> document_dasd(unsigned volumes = 16, DasdConfig base = {});

}  // namespace flashsim
