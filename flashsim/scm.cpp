#include "flashsim/scm.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace flashsim {

const char* increment_state_name(IncrementState s) {
  switch (s) {
    case IncrementState::OfflineAvailable: return "OFFLINE-AVAILABLE";
    case IncrementState::Online: return "ONLINE";
    case IncrementState::PendingOffline: return "PENDING OFFLINE";
  }
  return "?";
}

std::string gigabytes(uint64_t bytes) { return std::to_string(bytes >> 30) + "G"; }

bool parse_amount(const std::string& s, uint64_t& bytes) {
  if (s.size() < 2) return false;
  uint64_t n = 0;
  size_t i = 0;
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); i++) {
    if (n > (1ull << 40)) return false;
    n = n * 10 + uint64_t(s[i] - '0');
  }
  if (i == 0 || i + 1 != s.size()) return false;
  switch (std::toupper(static_cast<unsigned char>(s[i]))) {
    case 'M': bytes = n << 20; return true;
    case 'G': bytes = n << 30; return true;
    case 'T': bytes = n << 40; return true;
  }
  return false;
}

std::string ScmConfig::validate() const {
  if (card_pairs < 1 || card_pairs > 4) return "card_pairs: " + std::to_string(card_pairs) + " is out of range 1..4";
  if (increment_bytes == 0 || increment_bytes % kBlock1M) return "increment_bytes: must be a positive multiple of 1 MB";
  uint64_t cap = uint64_t(card_pairs) * pair_usable_bytes / increment_bytes;
  if (defined_increments > cap)
    return "defined_increments: " + std::to_string(defined_increments) + " (" +
           gigabytes(uint64_t(defined_increments) * increment_bytes) + ") exceed the " + std::to_string(card_pairs) +
           " card pair(s)' " + std::to_string(cap) + " increments";
  if (online_increments > defined_increments)
    return "online_increments: " + std::to_string(online_increments) + " exceed the " +
           std::to_string(defined_increments) + " defined";
  if (max_blocks_per_request < 1) return "max_blocks_per_request: must be at least 1";
  if (card_parallelism < 1 || card_parallelism > 1024) return "card_parallelism: out of range 1..1024";
  if (card_bandwidth_bytes_per_s == 0) return "card_bandwidth_bytes_per_s: must be positive";
  return "";
}

ScmDevice::ScmDevice(ScmConfig cfg, std::string name) : Device(std::move(name)), cfg_(cfg) {
  std::string err = cfg_.validate();
  if (!err.empty()) throw std::invalid_argument("flashsim scm: " + err);
  cards_.resize(cfg_.card_pairs * 2);
  for (Card& c : cards_) c.slot_free.assign(cfg_.card_parallelism, 0);
  incs_.resize(cfg_.defined_increments);
  for (unsigned i = 0; i < cfg_.online_increments; i++) incs_[i].state = IncrementState::Online;
}

uint64_t ScmDevice::take_slot(Card& card, uint64_t from, uint64_t lat) {
  auto it = std::min_element(card.slot_free.begin(), card.slot_free.end());
  uint64_t start = std::max(from, *it);
  *it = start + lat;
  card.c.slot_busy_ns += lat;
  return start + lat;
}

Status ScmDevice::check_block(const Block& b, int i, std::string& err) const {
  std::string msb = "MSB " + std::to_string(i) + ": ";
  if (b.size != kBlock4K && b.size != kBlock1M) {
    err = msb + "block size " + std::to_string(b.size) + " at address " + hex(b.address) + " is neither 4 KB nor 1 MB";
    return Status::BadBlockSize;
  }
  if (b.address % b.size) {
    err = msb + "address " + hex(b.address) + " is not aligned to its " + (b.size == kBlock4K ? "4 KB" : "1 MB") +
          " block";
    return Status::Misaligned;
  }
  uint64_t inc = b.address / cfg_.increment_bytes;
  if (inc >= incs_.size()) {
    err = msb + "address " + hex(b.address) + " is beyond the defined SCM (" +
          gigabytes(incs_.size() * cfg_.increment_bytes) + ")";
    return Status::BeyondOnline;
  }
  std::string where = "address " + hex(b.address) + " is in increment " + gigabytes(inc * cfg_.increment_bytes);
  if (incs_[inc].state == IncrementState::OfflineAvailable) {
    err = msb + where + ", which is offline";
    return Status::IncrementOffline;
  }
  if (incs_[inc].state == IncrementState::PendingOffline && b.op == Op::Write) {
    err = msb + where + ", which is pending offline (no new writes)";
    return Status::PendingOffline;
  }
  unsigned pair = unsigned((b.address / kBlock1M) % cfg_.card_pairs);
  if (cards_[2 * pair].c.failed && cards_[2 * pair + 1].c.failed) {
    err = msb + "address " + hex(b.address) + " is on card pair " + std::to_string(pair) +
          ", both of whose cards have failed";
    return Status::PairFailed;
  }
  return Status::Ok;
}

Completion ScmDevice::submit(uint64_t now_ns, const Request& req) {
  const uint64_t ovh = cfg_.request_overhead_ns;
  if (!check_order(now_ns))
    return reject(now_ns, req, ovh, Status::TimeOrder, -1,
                  "request submitted at " + std::to_string(now_ns) + " ns, before the previous one at " +
                      std::to_string(last_submit_ns_) + " ns");
  if (req.blocks.empty()) return reject(now_ns, req, ovh, Status::EmptyRequest, -1, "AOB holds no MSBs");
  if (req.blocks.size() > cfg_.max_blocks_per_request)
    return reject(now_ns, req, ovh, Status::TooManyBlocks, int(cfg_.max_blocks_per_request),
                  "AOB holds " + std::to_string(req.blocks.size()) + " MSBs, at most " +
                      std::to_string(cfg_.max_blocks_per_request) + "; MSB " +
                      std::to_string(cfg_.max_blocks_per_request) + " at address " +
                      hex(req.blocks[cfg_.max_blocks_per_request].address) + " is one too many");
  for (size_t i = 0; i < req.blocks.size(); i++) {
    std::string err;
    Status s = check_block(req.blocks[i], int(i), err);
    if (s != Status::Ok) return reject(now_ns, req, ovh, s, int(i), std::move(err));
  }

  // Timing.
  uint64_t done = now_ns, start = UINT64_MAX;
  const double bw = double(cfg_.card_bandwidth_bytes_per_s);
  for (const Block& b : req.blocks) {
    unsigned pair = unsigned((b.address / kBlock1M) % cfg_.card_pairs);
    Card* cs[2] = {&cards_[2 * pair], &cards_[2 * pair + 1]};
    bool live[2] = {!cs[0]->c.failed, !cs[1]->c.failed};
    if (!live[0] || !live[1]) degraded_blocks_++;
    const bool big = b.size == kBlock1M;
    const uint64_t xfer = uint64_t(double(b.size) * 1e9 / bw + 0.5);
    uint64_t end = now_ns;
    if (b.op == Op::Read) {
      // The less busy live card: the earlier start (a free slot now, or the earliest
      // to free up), then the fewer slots busy now, then card 0.
      int k = 0;
      if (!live[0]) k = 1;
      else if (live[1]) {
        uint64_t s[2];
        unsigned busy[2] = {0, 0};
        for (int j = 0; j < 2; j++) {
          s[j] = std::max(now_ns, *std::min_element(cs[j]->slot_free.begin(), cs[j]->slot_free.end()));
          for (uint64_t f : cs[j]->slot_free) busy[j] += f > now_ns;
        }
        if (s[1] < s[0] || (s[1] == s[0] && busy[1] < busy[0])) k = 1;
      }
      Card& c = *cs[k];
      uint64_t lat = big ? cfg_.read_latency_1m_ns : cfg_.read_latency_4k_ns;
      uint64_t media = take_slot(c, now_ns, lat);
      start = std::min(start, media - lat);
      uint64_t ts = std::max(media, c.link_free);
      c.link_free = ts + xfer;
      c.c.link_busy_ns += xfer;
      c.c.reads++;
      end = c.link_free;
    } else {
      for (int k = 0; k < 2; k++) {
        if (!live[k]) continue;
        Card& c = *cs[k];
        uint64_t e;
        if (b.op == Op::Write) {
          uint64_t ts = std::max(now_ns, c.link_free);
          start = std::min(start, ts);
          c.link_free = ts + xfer;
          c.c.link_busy_ns += xfer;
          e = take_slot(c, c.link_free, big ? cfg_.write_latency_1m_ns : cfg_.write_latency_4k_ns);
          c.c.writes++;
        } else {
          e = take_slot(c, now_ns, cfg_.meta_latency_ns);
          start = std::min(start, e - cfg_.meta_latency_ns);
          c.c.metas++;
        }
        end = std::max(end, e);
      }
    }
    done = std::max(done, end);
  }

  // Contents and increments' use.
  for (const Block& b : req.blocks) {
    unsigned inc = unsigned(b.address / cfg_.increment_bytes);
    switch (b.op) {
      case Op::Read:
        if (b.data) store_.read(b.address, b.size, b.data);
        break;
      case Op::Write:
        incs_[inc].used_units += store_.write(b.address, b.size, b.data);
        break;
      case Op::Clear:
      case Op::Release:
        incs_[inc].used_units -= store_.erase(b.address, b.size);
        maybe_finish_offline(inc);
        break;
    }
  }

  Completion c;
  c.tag = req.tag;
  c.submit_ns = now_ns;
  c.start_ns = std::max(now_ns, std::min(start, done));
  c.time_ns = done + ovh;
  account(req, c);
  return c;
}

void ScmDevice::poke(uint64_t address, uint32_t size, const uint8_t* data) {
  const unsigned inc = unsigned(address / cfg_.increment_bytes);
  if (inc < incs_.size()) incs_[inc].used_units += store_.write(address, size, data);
}

std::string ScmDevice::fail_card(unsigned pair, unsigned card, uint64_t now_ns) {
  if (pair >= cfg_.card_pairs || card > 1)
    return "FLASH: NO CARD " + std::to_string(card) + " IN PAIR " + std::to_string(pair) + " (" +
           std::to_string(cfg_.card_pairs) + " PAIR(S), CARDS 0 AND 1)";
  CardCounters& c = cards_[2 * pair + card].c;
  if (c.failed) return "FLASH: PAIR " + std::to_string(pair) + " CARD " + std::to_string(card) + " HAS ALREADY FAILED";
  c.failed = true;
  c.failed_at_ns = now_ns;
  const CardCounters& mirror = cards_[2 * pair + (1 - card)].c;
  if (mirror.failed)
    return "FLASH: PAIR " + std::to_string(pair) + " CARD " + std::to_string(card) +
           " FAILED; BOTH CARDS OF THE PAIR HAVE FAILED, ITS DATA IS UNAVAILABLE";
  return "FLASH: PAIR " + std::to_string(pair) + " CARD " + std::to_string(card) +
         " FAILED; PAIR SERVING FROM ITS MIRROR, CARD " + std::to_string(1 - card) + ", NO DATA LOST";
}

std::vector<std::string> ScmDevice::card_status_lines() const {
  std::vector<std::string> out;
  for (unsigned p = 0; p < cfg_.card_pairs; p++) {
    for (unsigned k = 0; k < 2; k++) {
      const CardCounters& c = cards_[2 * p + k].c;
      std::string l = "PAIR " + std::to_string(p) + " CARD " + std::to_string(k) + " ";
      if (!c.failed) l += "OK";
      else {
        l += "FAILED AT " + std::to_string(c.failed_at_ns) + " NS";
        l += cards_[2 * p + 1 - k].c.failed ? ", PAIR UNAVAILABLE"
                                            : ", PAIR SERVING FROM CARD " + std::to_string(1 - k);
      }
      l += "; READS " + std::to_string(c.reads) + " WRITES " + std::to_string(c.writes) + " CLEAR/RELEASE " +
           std::to_string(c.metas) + " SLOT-BUSY " + std::to_string(c.slot_busy_ns) + " NS LINK-BUSY " +
           std::to_string(c.link_busy_ns) + " NS";
      out.push_back(std::move(l));
    }
  }
  return out;
}

std::vector<std::string> ScmDevice::detail_lines() const {
  std::vector<std::string> out = card_status_lines();
  out.push_back("BLOCKS SERVED WITH ONE CARD OF THE PAIR FAILED " + std::to_string(degraded_blocks_));
  unsigned on = 0, off = 0, pend = 0;
  for (const Increment& i : incs_)
    (i.state == IncrementState::Online ? on : i.state == IncrementState::PendingOffline ? pend : off)++;
  out.push_back("INCREMENTS " + std::to_string(incs_.size()) + " DEFINED, " + std::to_string(on) + " ONLINE, " +
                std::to_string(off) + " OFFLINE-AVAILABLE, " + std::to_string(pend) + " PENDING OFFLINE; " +
                std::to_string(used_bytes()) + " BYTES IN USE; HOST MEMORY " + std::to_string(contents_bytes()) +
                " BYTES");
  return out;
}

uint64_t ScmDevice::online_bytes() const {
  uint64_t n = 0;
  for (const Increment& i : incs_)
    if (i.state != IncrementState::OfflineAvailable) n++;
  return n * cfg_.increment_bytes;
}

uint64_t ScmDevice::used_bytes() const {
  uint64_t u = 0;
  for (const Increment& i : incs_) u += i.used_units;
  return u * kBlock4K;
}

void ScmDevice::maybe_finish_offline(unsigned inc) {
  if (incs_[inc].state == IncrementState::PendingOffline && incs_[inc].used_units == 0)
    incs_[inc].state = IncrementState::OfflineAvailable;
}

namespace {
// Runs of consecutive increment numbers: "IEE195I SCM LOCATIONS 64G TO 80G <what>".
void locations(std::vector<std::string>& out, const std::vector<unsigned>& incs, uint64_t inc_bytes,
               const char* what) {
  for (size_t i = 0; i < incs.size();) {
    size_t j = i;
    while (j + 1 < incs.size() && incs[j + 1] == incs[j] + 1) j++;
    out.push_back("IEE195I SCM LOCATIONS " + gigabytes(incs[i] * inc_bytes) + " TO " +
                  gigabytes((incs[j] + 1) * inc_bytes) + " " + what);
    i = j + 1;
  }
}
const char* kComplete = "IEE712I CONFIG   PROCESSING COMPLETE";
}  // namespace

std::vector<std::string> ScmDevice::config_online(uint64_t amount) {
  const uint64_t ib = cfg_.increment_bytes;
  if (amount == 0 || amount % ib)
    return {"CF SCM: " + gigabytes(amount) + " IS NOT A MULTIPLE OF THE SCM INCREMENT SIZE " + gigabytes(ib)};
  std::vector<unsigned> avail;
  for (unsigned i = 0; i < incs_.size(); i++)
    if (incs_[i].state == IncrementState::OfflineAvailable) avail.push_back(i);
  uint64_t want = amount / ib;
  if (want > avail.size())
    return {"CF SCM: " + gigabytes(amount) + " REQUESTED, ONLY " + gigabytes(avail.size() * ib) +
            " OFFLINE-AVAILABLE"};
  avail.resize(want);
  for (unsigned i : avail) incs_[i].state = IncrementState::Online;
  std::vector<std::string> out;
  locations(out, avail, ib, "ONLINE");
  out.push_back(kComplete);
  return out;
}

std::vector<std::string> ScmDevice::offline_increments(const std::vector<unsigned>& which) {
  std::vector<unsigned> off, pend;
  for (unsigned i : which) {
    if (incs_[i].used_units == 0) {
      incs_[i].state = IncrementState::OfflineAvailable;
      off.push_back(i);
    } else {
      incs_[i].state = IncrementState::PendingOffline;
      pend.push_back(i);
    }
  }
  std::vector<std::string> out;
  locations(out, off, cfg_.increment_bytes, "OFFLINE");
  locations(out, pend, cfg_.increment_bytes, "PENDING OFFLINE");
  out.push_back(kComplete);
  return out;
}

std::vector<std::string> ScmDevice::config_offline(uint64_t amount) {
  const uint64_t ib = cfg_.increment_bytes;
  if (amount == 0 || amount % ib)
    return {"CF SCM: " + gigabytes(amount) + " IS NOT A MULTIPLE OF THE SCM INCREMENT SIZE " + gigabytes(ib)};
  std::vector<unsigned> online;
  for (unsigned i = unsigned(incs_.size()); i-- > 0;)
    if (incs_[i].state == IncrementState::Online) online.push_back(i);
  uint64_t want = amount / ib;
  if (want > online.size())
    return {"CF SCM: " + gigabytes(amount) + " REQUESTED, ONLY " + gigabytes(online.size() * ib) + " ONLINE"};
  online.resize(want);
  std::sort(online.begin(), online.end());
  return offline_increments(online);
}

std::vector<std::string> ScmDevice::config_offline_range(uint64_t start, uint64_t end) {
  const uint64_t ib = cfg_.increment_bytes;
  const uint64_t defined = incs_.size() * ib;
  std::string range = gigabytes(start) + "-" + gigabytes(end);
  if (start % ib || end % ib)
    return {"CF SCM: " + range + " DOES NOT START AND END ON A " + gigabytes(ib) + " INCREMENT BOUNDARY"};
  if (end <= start || end > defined)
    return {"CF SCM: " + range + " IS NOT A RANGE WITHIN THE DEFINED SCM 0G-" + gigabytes(defined)};
  std::vector<unsigned> which;
  for (uint64_t i = start / ib; i < end / ib; i++)
    if (incs_[i].state == IncrementState::Online) which.push_back(unsigned(i));
  if (which.empty()) return {"CF SCM: NO ONLINE SCM IN " + range};
  return offline_increments(which);
}

std::vector<std::string> ScmDevice::config_command(const std::string& operand, bool online) {
  auto dash = operand.find('-');
  if (dash == std::string::npos) {
    uint64_t amount;
    if (!parse_amount(operand, amount))
      return {"CF SCM: " + operand + " IS NOT AN AMOUNT (FOR EXAMPLE 16G) OR A RANGE (FOR EXAMPLE 48G-64G)"};
    return online ? config_online(amount) : config_offline(amount);
  }
  uint64_t a, b;
  if (!parse_amount(operand.substr(0, dash), a) || !parse_amount(operand.substr(dash + 1), b))
    return {"CF SCM: " + operand + " IS NOT AN AMOUNT (FOR EXAMPLE 16G) OR A RANGE (FOR EXAMPLE 48G-64G)"};
  if (online) return {"CF SCM: A RANGE (" + operand + ") IS ACCEPTED WITH OFFLINE ONLY; ONLINE TAKES AN AMOUNT"};
  return config_offline_range(a, b);
}

namespace {
unsigned percent(uint64_t part, uint64_t whole) {
  return whole ? unsigned((part * 100 + whole / 2) / whole) : 0;
}
}  // namespace

std::vector<std::string> ScmDevice::display(const std::string& hhmmss, unsigned msgno) const {
  const uint64_t ib = cfg_.increment_bytes;
  std::vector<std::string> out;
  out.push_back("IEE174I " + hhmmss + " DISPLAY M " + std::to_string(msgno));
  out.push_back("STORAGE-CLASS MEMORY STATUS");
  out.push_back(gigabytes(incs_.size() * ib) + " DEFINED");
  out.push_back("ONLINE");
  std::string ranges;
  uint64_t off = 0, pend = 0;
  for (unsigned i = 0; i < incs_.size();) {
    if (incs_[i].state != IncrementState::Online) {
      (incs_[i].state == IncrementState::PendingOffline ? pend : off)++;
      i++;
      continue;
    }
    unsigned j = i;
    while (j + 1 < incs_.size() && incs_[j + 1].state == IncrementState::Online) j++;
    ranges += (ranges.empty() ? "" : " ") + gigabytes(uint64_t(i) * ib) + "-" + gigabytes(uint64_t(j + 1) * ib);
    i = j + 1;
  }
  out.push_back(ranges.empty() ? "NONE" : ranges);
  out.push_back(gigabytes(off * ib) + " OFFLINE-AVAILABLE");
  if (pend) out.push_back(gigabytes(pend * ib) + " PENDING OFFLINE");
  out.push_back(std::to_string(percent(used_bytes(), online_bytes())) + "% IN USE");
  out.push_back("SCM INCREMENT SIZE IS " + gigabytes(ib));
  return out;
}

std::vector<std::string> ScmDevice::display_detail(const std::string& hhmmss, unsigned msgno) const {
  const uint64_t ib = cfg_.increment_bytes;
  std::vector<std::string> out;
  out.push_back("IEE174I " + hhmmss + " DISPLAY M " + std::to_string(msgno));
  out.push_back("STORAGE-CLASS MEMORY STATUS - INCREMENT DETAIL");
  out.push_back(gigabytes(incs_.size() * ib) + " DEFINED");
  out.push_back("ADDRESS  IN USE  STATUS");
  uint64_t on = 0, off = 0, pend = 0;
  char line[96];
  for (unsigned i = 0; i < incs_.size(); i++) {
    const Increment& inc = incs_[i];
    if (inc.state == IncrementState::OfflineAvailable) {
      off++;
      continue;
    }
    (inc.state == IncrementState::Online ? on : pend)++;
    std::string pct = std::to_string(percent(inc.used_units * kBlock4K, ib)) + "%";
    std::snprintf(line, sizeof line, "%7s%8s  %s", gigabytes(uint64_t(i) * ib).c_str(), pct.c_str(),
                  increment_state_name(inc.state));
    out.push_back(line);
  }
  out.push_back("ONLINE: " + gigabytes(on * ib) + "  OFFLINE-AVAILABLE: " + gigabytes(off * ib) +
                "  PENDING OFFLINE: " + gigabytes(pend * ib));
  out.push_back(std::to_string(percent(used_bytes(), online_bytes())) + "% IN USE");
  out.push_back("SCM INCREMENT SIZE IS " + gigabytes(ib));
  return out;
}

}  // namespace flashsim
