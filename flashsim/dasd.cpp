#include "flashsim/dasd.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace flashsim {

std::string DasdConfig::validate() const {
  if (cylinders < 1 || tracks_per_cylinder < 1 || records_per_track < 1) return "geometry: must be positive";
  if (pav_aliases > 255) return "pav_aliases: " + std::to_string(pav_aliases) + " is out of range 0..255";
  if (max_blocks_per_io < 1) return "max_blocks_per_io: must be at least 1";
  if (!(cache_hit_ratio >= 0.0 && cache_hit_ratio <= 1.0)) return "cache_hit_ratio: must be within 0..1";
  return "";
}

DasdVolume::DasdVolume(DasdConfig cfg, std::string name)
    : Device(name.empty() ? [&] {
        char b[16];
        std::snprintf(b, sizeof b, "DASD%04X", cfg.device_number);
        return std::string(b);
      }()
                          : std::move(name)),
      cfg_(cfg) {
  std::string err = cfg_.validate();
  if (!err.empty()) throw std::invalid_argument("flashsim dasd: " + err);
  server_free_.assign(1 + cfg_.pav_aliases, 0);
}

bool DasdVolume::cache_hit(uint64_t address) const {
  uint64_t h = splitmix64(cfg_.seed ^ splitmix64(uint64_t(cfg_.device_number) << 40 ^ (address / kBlock4K)));
  return double(h >> 11) * 0x1.0p-53 < cfg_.cache_hit_ratio;
}

Completion DasdVolume::submit(uint64_t now_ns, const Request& req) {
  const uint64_t ovh = cfg_.start_io_ns;
  if (!check_order(now_ns))
    return reject(now_ns, req, ovh, Status::TimeOrder, -1,
                  "channel program submitted at " + std::to_string(now_ns) + " ns, before the previous one at " +
                      std::to_string(last_submit_ns_) + " ns");
  if (req.blocks.empty()) return reject(now_ns, req, ovh, Status::EmptyRequest, -1, "channel program moves no records");
  if (req.blocks.size() > cfg_.max_blocks_per_io)
    return reject(now_ns, req, ovh, Status::TooManyBlocks, int(cfg_.max_blocks_per_io),
                  "channel program of " + std::to_string(req.blocks.size()) + " records, at most " +
                      std::to_string(cfg_.max_blocks_per_io) + "; record " + std::to_string(cfg_.max_blocks_per_io) +
                      " at address " + hex(req.blocks[cfg_.max_blocks_per_io].address) + " is one too many");
  const uint64_t cap = cfg_.capacity_blocks() * kBlock4K;
  for (size_t i = 0; i < req.blocks.size(); i++) {
    const Block& b = req.blocks[i];
    std::string rec = "record " + std::to_string(i) + ": ";
    if (b.size != kBlock4K)
      return reject(now_ns, req, ovh, Status::BadBlockSize, int(i),
                    rec + "block size " + std::to_string(b.size) + " at address " + hex(b.address) +
                        ": a 3390 page volume takes 4 KB records only");
    if (b.address % kBlock4K)
      return reject(now_ns, req, ovh, Status::Misaligned, int(i),
                    rec + "address " + hex(b.address) + " is not aligned to its 4 KB record");
    if (b.address >= cap)
      return reject(now_ns, req, ovh, Status::BeyondOnline, int(i),
                    rec + "address " + hex(b.address) + " is beyond the volume (" + std::to_string(cfg_.cylinders) +
                        " cylinders, " + std::to_string(cfg_.capacity_blocks()) + " records)");
  }

  uint64_t service = cfg_.start_io_ns, disc = 0;
  for (const Block& b : req.blocks) {
    switch (b.op) {
      case Op::Read:
        service += cfg_.page_hit_ns;
        if (cache_hit(b.address)) hits_++;
        else {
          misses_++;
          service += cfg_.page_miss_ns;
          disc += cfg_.page_miss_ns;
        }
        if (b.data) store_.read(b.address, b.size, b.data);
        break;
      case Op::Write:
        service += cfg_.page_hit_ns;
        store_.write(b.address, b.size, b.data);
        break;
      case Op::Clear:   // zeroes written: a write of nothing kept
        service += cfg_.page_hit_ns;
        store_.erase(b.address, b.size);
        break;
      case Op::Release:  // nothing moves; the contents are forgotten
        store_.erase(b.address, b.size);
        break;
    }
  }
  auto it = std::min_element(server_free_.begin(), server_free_.end());
  uint64_t start = std::max(now_ns, *it);
  *it = start + service;
  Completion c;
  c.tag = req.tag;
  c.submit_ns = now_ns;
  c.start_ns = start;
  c.time_ns = start + service;
  account(req, c);
  stats_.split = true;
  stats_.pend_ns_sum += cfg_.start_io_ns;
  stats_.disc_ns_sum += disc;
  stats_.conn_ns_sum += service - cfg_.start_io_ns - disc;
  return c;
}

std::vector<std::string> DasdVolume::detail_lines() const {
  char b[256];
  uint64_t n = hits_ + misses_;
  std::snprintf(b, sizeof b,
                "DEVICE %04X 3390 %u CYL ON LCU %u, PAV ALIASES %u; CACHE READ HITS %llu MISSES %llu (%.2f%%); HOST "
                "MEMORY %llu BYTES",
                cfg_.device_number, cfg_.cylinders, cfg_.lcu, cfg_.pav_aliases, (unsigned long long)hits_,
                (unsigned long long)misses_, n ? 100.0 * double(hits_) / double(n) : 0.0,
                (unsigned long long)contents_bytes());
  return {b};
}

std::vector<DasdConfig> document_dasd(unsigned volumes, DasdConfig base) {
  std::vector<DasdConfig> v;
  for (unsigned i = 0; i < volumes; i++) {
    DasdConfig c = base;
    c.device_number = 0x0980 + i;
    c.lcu = i / 2;
    v.push_back(c);
  }
  return v;
}

}  // namespace flashsim
