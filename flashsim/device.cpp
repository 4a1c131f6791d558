#include "flashsim/device.h"

#include "report/report_json.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <zstd.h>

namespace flashsim {

const char* op_name(Op op) {
  switch (op) {
    case Op::Read: return "read";
    case Op::Write: return "write";
    case Op::Clear: return "clear";
    case Op::Release: return "release";
  }
  return "?";
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Ok: return "ok";
    case Status::EmptyRequest: return "empty request";
    case Status::TooManyBlocks: return "too many blocks";
    case Status::BadBlockSize: return "bad block size";
    case Status::Misaligned: return "misaligned";
    case Status::BeyondOnline: return "beyond online storage";
    case Status::IncrementOffline: return "increment offline";
    case Status::PendingOffline: return "increment pending offline";
    case Status::PairFailed: return "card pair failed";
    case Status::NotSupported: return "not supported";
    case Status::TimeOrder: return "submitted out of time order";
  }
  return "?";
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// ---- Histogram ----
unsigned Histogram::bucket(uint64_t v) {
  if (v < kSub) return unsigned(v);
  int e = 63 - __builtin_clzll(v);                      // v in [2^e, 2^(e+1))
  unsigned sub = unsigned((v >> (e - 4)) & (kSub - 1));  // the next 4 bits (kSub = 16)
  return unsigned(e - 3) * kSub + sub;
}
uint64_t Histogram::upper(unsigned b) {
  if (b < kSub) return b;
  unsigned e = b / kSub + 3, sub = b % kSub;
  return ((uint64_t(kSub + sub + 1)) << (e - 4)) - 1;
}
void Histogram::add(uint64_t v) {
  counts_[bucket(v)]++;
  n_++;
  max_ = std::max(max_, v);
}
uint64_t Histogram::quantile(double q) const {
  if (n_ == 0) return 0;
  uint64_t rank = uint64_t(q * double(n_) + 0.999999);
  rank = std::clamp<uint64_t>(rank, 1, n_);
  uint64_t seen = 0;
  for (unsigned b = 0; b < counts_.size(); b++) {
    seen += counts_[b];
    if (seen >= rank) return std::min(upper(b), max_);
  }
  return max_;
}

// ---- SparseStore ----
namespace {
// zstd's fastest regular level: pages go out and come back at the model's page-out rate,
// so speed counts more than the last few percent of size.
constexpr int kZstdLevel = 1;

// One context each way, reused (creating one per page costs more than the page).
ZSTD_CCtx* compressor() {
  static thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> c(ZSTD_createCCtx(), ZSTD_freeCCtx);
  return c.get();
}
ZSTD_DCtx* decompressor() {
  static thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> d(ZSTD_createDCtx(), ZSTD_freeDCtx);
  return d.get();
}
bool all_zero(const uint8_t* p) {
  return std::all_of(p, p + kBlock4K, [](uint8_t b) { return b == 0; });
}

// A unit as 512 big-endian 8-byte words (guest storage's byte order).
constexpr unsigned kWords = kBlock4K / 8;
uint64_t word_at(const uint8_t* p, unsigned k) {
  uint64_t w;
  std::memcpy(&w, p + 8 * k, 8);
  return __builtin_bswap64(w);
}
void put_word(uint8_t* p, unsigned k, uint64_t w) {
  w = __builtin_bswap64(w);
  std::memcpy(p + 8 * k, &w, 8);
}
// Whether most of the unit's words are the one before plus the same step (a table of
// addresses, E3's region where every word holds its own address): zstd finds no
// repeats in such a unit (about 520 bytes a page), but its differences repeat.
bool evenly_spaced(const uint8_t* p) {
  unsigned same = 0;
  uint64_t before = word_at(p, 1) - word_at(p, 0);
  for (unsigned k = 2; k < kWords; ++k) {
    const uint64_t step = word_at(p, k) - word_at(p, k - 1);
    same += step == before;
    before = step;
  }
  return same >= kWords / 2;
}
// The unit's first word, then each word less the one before (modulo 2^64); undone by
// add_back_words.
void delta_words(const uint8_t* p, uint8_t* out) {
  put_word(out, 0, word_at(p, 0));
  for (unsigned k = 1; k < kWords; ++k) put_word(out, k, word_at(p, k) - word_at(p, k - 1));
}
void add_back_words(uint8_t* p) {
  for (unsigned k = 1; k < kWords; ++k) put_word(p, k, word_at(p, k) + word_at(p, k - 1));
}
}  // namespace

void SparseStore::set(Unit& u, const uint8_t* data) {
  if (u.bytes) allocated_--, allocated_bytes_ -= u.size;
  u.bytes.reset(), u.size = 0, u.differences = false;
  if (!data || all_zero(data)) return;
  uint8_t differences[kBlock4K];
  const bool spaced = evenly_spaced(data);
  if (spaced) delta_words(data, differences);
  uint8_t packed[ZSTD_COMPRESSBOUND(kBlock4K)];
  size_t n = ZSTD_compressCCtx(compressor(), packed, sizeof packed, spaced ? differences : data, kBlock4K, kZstdLevel);
  if (ZSTD_isError(n) || n >= kBlock4K) n = kBlock4K;  // incompressible: kept as it is
  u.bytes.reset(new uint8_t[n]);
  std::memcpy(u.bytes.get(), n == kBlock4K ? data : packed, n);
  u.size = uint32_t(n);
  u.differences = spaced && n < kBlock4K;
  allocated_++, allocated_bytes_ += n;
}

uint64_t SparseStore::write(uint64_t address, uint32_t size, const uint8_t* data) {
  uint64_t fresh = 0;
  for (uint32_t off = 0; off < size; off += kBlock4K) {
    auto [it, inserted] = units_.try_emplace((address + off) / kBlock4K);
    if (inserted) fresh++;
    set(it->second, data ? data + off : nullptr);
  }
  return fresh;
}
void SparseStore::read(uint64_t address, uint32_t size, uint8_t* out) const {
  for (uint32_t off = 0; off < size; off += kBlock4K) {
    auto it = units_.find((address + off) / kBlock4K);
    if (it == units_.end() || !it->second.bytes) {
      std::memset(out + off, 0, kBlock4K);
    } else if (it->second.size == kBlock4K) {
      std::memcpy(out + off, it->second.bytes.get(), kBlock4K);
    } else {
      size_t n = ZSTD_decompressDCtx(decompressor(), out + off, kBlock4K, it->second.bytes.get(), it->second.size);
      if (n != kBlock4K) throw std::logic_error("flashsim: a stored 4 KB unit does not decompress to 4 KB");
      if (it->second.differences) add_back_words(out + off);
    }
  }
}
uint64_t SparseStore::erase(uint64_t address, uint32_t size) {
  uint64_t held = 0;
  for (uint32_t off = 0; off < size; off += kBlock4K) {
    auto it = units_.find((address + off) / kBlock4K);
    if (it == units_.end()) continue;
    set(it->second, nullptr);
    units_.erase(it);
    held++;
  }
  return held;
}

// ---- Device ----
void Device::account(const Request& req, const Completion& c) {
  DeviceStats& s = stats_;
  s.requests++;
  s.last_completion_ns = std::max(s.last_completion_ns, c.time_ns);
  if (!c.ok()) {
    s.errors++;
    s.errors_by_status[int(c.status)]++;
    return;
  }
  for (const Block& b : req.blocks) {
    (b.size == kBlock1M ? s.blocks_1m : s.blocks_4k)++;
    switch (b.op) {
      case Op::Read: s.reads++; s.bytes_read += b.size; break;
      case Op::Write: s.writes++; s.bytes_written += b.size; break;
      case Op::Clear: s.clears++; break;
      case Op::Release: s.releases++; break;
    }
  }
  // Busy: the union of [submit, completion] over requests (submits never go back).
  if (c.submit_ns >= busy_until_ns_) {
    s.busy_ns += c.time_ns - c.submit_ns;
    busy_until_ns_ = c.time_ns;
  } else if (c.time_ns > busy_until_ns_) {
    s.busy_ns += c.time_ns - busy_until_ns_;
    busy_until_ns_ = c.time_ns;
  }
  s.wait_ns_sum += c.start_ns - c.submit_ns;
  s.response_ns_sum += c.time_ns - c.submit_ns;
  s.response.add(c.time_ns - c.submit_ns);
}

Completion Device::reject(uint64_t now_ns, const Request& req, uint64_t overhead_ns, Status st, int block,
                          std::string error) {
  Completion c;
  c.tag = req.tag;
  c.submit_ns = c.start_ns = now_ns;
  c.time_ns = now_ns + overhead_ns;
  c.status = st;
  c.block = block;
  c.error = name_ + ": " + std::move(error);
  account(req, c);
  return c;
}

// ---- Reports ----
namespace {
struct Row {
  double util, queue, in_system, mean_us, p50_us, p99_us, mb;
};
Row row(const Device& d, uint64_t elapsed_ns) {
  const DeviceStats& s = d.stats();
  double el = elapsed_ns ? double(elapsed_ns) : 1.0;
  uint64_t ok = s.requests - s.errors;
  Row r;
  r.util = double(s.busy_ns) / el;
  r.queue = double(s.wait_ns_sum) / el;
  r.in_system = double(s.response_ns_sum) / el;
  r.mean_us = ok ? double(s.response_ns_sum) / double(ok) / 1e3 : 0.0;
  r.p50_us = double(s.response.quantile(0.50)) / 1e3;
  r.p99_us = double(s.response.quantile(0.99)) / 1e3;
  r.mb = double(s.bytes_read + s.bytes_written) / 1e6;
  return r;
}
}  // namespace

void write_devices_text(std::ostream& out, const std::vector<const Device*>& devices, uint64_t elapsed_ns,
                        const NumberStyle& style) {
  const auto whole = [&](uint64_t v) { return style.whole(v); };
  const auto dec = [&](double v, int digits) {
    if (style.decimal) return style.decimal(v, digits);
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return std::string(b);
  };
  char line[512];
  std::snprintf(line, sizeof line, "DEVICES  elapsed %s s\n", dec(double(elapsed_ns) / 1e9, 6).c_str());
  out << line;
  std::snprintf(line, sizeof line, "%-12s %-5s %10s %10s %9s %12s %10s %6s %7s %7s %10s %10s %10s %7s\n", "DEVICE",
                "KIND", "REQUESTS", "4K BLOCKS", "1M BLOCKS", "MB MOVED", "BUSY MS", "UTIL%", "QUEUE", "IN SYS",
                "MEAN US", "P50 US", "P99 US", "ERRORS");
  out << line;
  for (const Device* d : devices) {
    const DeviceStats& s = d->stats();
    Row r = row(*d, elapsed_ns);
    std::snprintf(line, sizeof line, "%-12s %-5s %10s %10s %9s %12s %10s %6s %7s %7s %10s %10s %10s %7s\n",
                  d->name().c_str(), d->kind(), whole(s.requests).c_str(), whole(s.blocks_4k).c_str(),
                  whole(s.blocks_1m).c_str(), dec(r.mb, 1).c_str(), dec(double(s.busy_ns) / 1e6, 3).c_str(),
                  dec(100.0 * r.util, 1).c_str(), dec(r.queue, 2).c_str(), dec(r.in_system, 2).c_str(),
                  dec(r.mean_us, 1).c_str(), dec(r.p50_us, 1).c_str(), dec(r.p99_us, 1).c_str(),
                  whole(s.errors).c_str());
    out << line;
  }
  for (const Device* d : devices) {
    const DeviceStats& s = d->stats();
    out << "\n" << d->name() << ": reads " << whole(s.reads) << ", writes " << whole(s.writes) << ", clears "
        << whole(s.clears) << ", releases " << whole(s.releases) << "; bytes read " << whole(s.bytes_read)
        << ", written " << whole(s.bytes_written) << "\n";
    for (int st = 1; st <= int(Status::TimeOrder); st++) {
      auto it = s.errors_by_status.find(st);
      if (it != s.errors_by_status.end())
        out << "  errors: " << status_name(Status(st)) << " " << whole(it->second) << "\n";
    }
    for (const std::string& l : d->detail_lines()) out << "  " << l << "\n";
  }
}

void write_devices_json(std::ostream& out, const std::vector<const Device*>& devices, uint64_t elapsed_ns) {
  using report_json::Json;
  const auto figure = [](double v) { return report_json::significant(v, 6); };
  Json list = Json::array();
  for (const Device* d : devices) {
    const DeviceStats& s = d->stats();
    const Row r = row(*d, elapsed_ns);
    Json errors = Json::object();
    for (int st = 1; st <= int(Status::TimeOrder); st++) {
      auto it = s.errors_by_status.find(st);
      if (it != s.errors_by_status.end()) errors[status_name(Status(st))] = it->second;
    }
    list.push_back({{"name", d->name()},
                    {"kind", d->kind()},
                    {"requests", s.requests},
                    {"errors", s.errors},
                    {"blocks_4k", s.blocks_4k},
                    {"blocks_1m", s.blocks_1m},
                    {"reads", s.reads},
                    {"writes", s.writes},
                    {"clears", s.clears},
                    {"releases", s.releases},
                    {"bytes_read", s.bytes_read},
                    {"bytes_written", s.bytes_written},
                    {"busy_ns", s.busy_ns},
                    {"utilization", figure(r.util)},
                    {"mean_queue_length", figure(r.queue)},
                    {"mean_in_system", figure(r.in_system)},
                    {"response_ns",
                     {{"mean", figure(r.mean_us * 1e3)},
                      {"p50", s.response.quantile(0.5)},
                      {"p99", s.response.quantile(0.99)},
                      {"max", s.response.max()}}},
                    {"errors_by_status", errors},
                    {"detail", d->detail_lines()}});
  }
  report_json::write(out, {{"elapsed_ns", elapsed_ns}, {"devices", list}}, {.one_per_line = {"devices"}});
}

}  // namespace flashsim
