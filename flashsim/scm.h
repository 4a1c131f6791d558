// Flash Express storage-class memory (SCM) as one partition sees it: card pairs
// mirrored (RAID 10), the partition's SCM address space in 16 GB increments, EADM
// requests (AOBs of up to 124 MSBs, each a 4 KB or 1 MB block), and a timing model.
// The request contract is device.h's.
//
// Source: seed 002 (IBM, "Flash Express" z/OS presentation, 2013): 1.4 TB usable per
// card pair, at most 4 pairs, RAID 10 mirrored pair, 4 KB or 1 MB EADM transfers,
// increments of 16G, D M=SCM / D M=SCM(DETAIL) (IEE174I), CF SCM (IEE195I, IEE712I),
// peak page-in 260,000 pages a second with Flash Express in the morning-transition test.
//
// Timing model, per card: `card_parallelism` media operations at once (flash channels
// and dies; each holds a slot for its media latency) and one link of
// `card_bandwidth` bytes a second over which every block's data moves, in submission
// order. A read takes the earliest free slot of the less busy live card of its pair,
// then the link; a write moves its data over the links of both cards of the pair, then
// programs on a slot of each (both busy), and is done when both are. Clear and release
// take a slot of each live card for `meta_latency_ns` (they move no data). A request
// (AOB) completes when its last block does, plus `request_overhead_ns`. Blocks are
// spread over the pairs in 1 MB stripes (pair = address / 1 MB mod pairs).
//
// CALIBRATION (the one calibrated estimate: read_latency_4k_ns). IBM publishes no
// per-block latency for Flash Express. With enough reads outstanding every slot of
// every live card is busy, so the peak 4 KB read rate is
//     2 cards x card_pairs x card_parallelism / read_latency_4k
// (the link is not the limit: 4 KB / 1 GB/s = 4.1 us a block, 244,000 blocks a second
// per card). The default configuration is one card pair (the seed's minimum; it does
// not say how many pairs its test machine had, one is our assumption), 8 slots per card
// (estimate), so 260,000 pages a second (the seed's peak) needs
//     read_latency_4k = 2 x 1 x 8 / 260,000 s = 61,538 ns.
// One 4 KB read alone then takes 10,000 (overhead) + 61,538 + 4,096 (link) = 75,634 ns.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "flashsim/device.h"

namespace flashsim {

struct ScmConfig {
  unsigned card_pairs = 1;                        // seed: min 1, max 4 card pairs; the test's count unstated: 1 (assumption)
  uint64_t pair_usable_bytes = 1'400'000'000'000; // seed: 1.4 TB usable per pair (decimal TB)
  uint64_t increment_bytes = 16ull << 30;         // seed: "SCM INCREMENT SIZE IS 16G"
  unsigned defined_increments = 5;                // seed's D M=SCM: 80G DEFINED
  unsigned online_increments = 4;                 // seed's D M=SCM: ONLINE 0G-64G, 16G OFFLINE-AVAILABLE
  unsigned max_blocks_per_request = 124;          // EADM: an AOB holds up to 124 MSBs (issue 13)
  unsigned card_parallelism = 8;                  // estimate: media operations in progress at once per card
  uint64_t read_latency_4k_ns = 61'538;           // CALIBRATED estimate: 16 slots / 61,538 ns = 260,000 reads/s (above)
  uint64_t read_latency_1m_ns = 500'000;          // estimate: a 1 MB block's media read (striped over the card's dies)
  uint64_t write_latency_4k_ns = 150'000;         // estimate: NAND program of a 4 KB block (slower than a read)
  uint64_t write_latency_1m_ns = 2'000'000;       // estimate: a 1 MB block's media write
  uint64_t meta_latency_ns = 5'000;               // estimate: clear / release (firmware metadata, no data moved)
  uint64_t card_bandwidth_bytes_per_s = 1'000'000'000;  // estimate: data rate of one card's link
  uint64_t request_overhead_ns = 10'000;          // estimate: AOB start and completion interrupt (adds latency, holds no slot)

  // "" if valid, else what is wrong (pairs 1..4, defined within the pairs' capacity, online <= defined, ...).
  std::string validate() const;
};

enum class IncrementState : uint8_t { OfflineAvailable, Online, PendingOffline };
const char* increment_state_name(IncrementState s);   // "OFFLINE-AVAILABLE", "ONLINE", "PENDING OFFLINE"

struct CardCounters {
  bool failed = false;
  uint64_t failed_at_ns = 0;
  uint64_t reads = 0, writes = 0, metas = 0;   // blocks served
  uint64_t slot_busy_ns = 0;                   // sum of slot occupancy
  uint64_t link_busy_ns = 0;
};

class ScmDevice : public Device {
 public:
  // Throws std::invalid_argument if cfg.validate() says it is invalid (validate the configuration first).
  explicit ScmDevice(ScmConfig cfg = {}, std::string name = "SCM");
  const char* kind() const override { return "scm"; }
  Completion submit(uint64_t now_ns, const Request& req) override;
  std::vector<std::string> detail_lines() const override;
  uint64_t contents_bytes() const override { return store_.bytes_allocated() + store_.units_held() * 48; }
  uint64_t contents_written() const override { return store_.units_held() * kBlock4K; }
  void peek(uint64_t address, uint32_t size, uint8_t* out) const override { store_.read(address, size, out); }
  void poke(uint64_t address, uint32_t size, const uint8_t* data) override;  // the increment's use counts it
  const ScmConfig& config() const { return cfg_; }

  // ---- RAID 10 ----
  // Fails card `card` (0 or 1) of pair `pair` at `now_ns`. Returns a message (the
  // status line), or an error message for a bad pair/card or a card already failed.
  // Reads go to the mirror, writes to the survivor only; nothing is lost. With both
  // cards of a pair failed every request touching the pair gets Status::PairFailed.
  std::string fail_card(unsigned pair, unsigned card, uint64_t now_ns = 0);
  const CardCounters& card(unsigned pair, unsigned card) const { return cards_[pair * 2 + card].c; }
  uint64_t degraded_blocks() const { return degraded_blocks_; }   // blocks served with one card of the pair failed
  std::vector<std::string> card_status_lines() const;             // "PAIR 0 CARD 1 FAILED AT 1000 NS, PAIR SERVING FROM CARD 0"

  // ---- Increments ----
  unsigned defined_increments() const { return unsigned(incs_.size()); }
  IncrementState increment_state(unsigned i) const { return incs_.at(i).state; }
  uint64_t online_bytes() const;              // online and pending offline
  uint64_t used_bytes() const;

  // The operator's commands; each returns the console lines (IEE195I ..., IEE712I ...)
  // or, for bad operands, one error line (the seed shows no IBM error message; ours
  // begin "CF SCM:"). Amounts and addresses are bytes, multiples of the increment.
  //   CF SCM(amount),ONLINE:   the lowest offline-available increments
  //   CF SCM(amount),OFFLINE:  the highest online increments
  //   CF SCM(start-end),OFFLINE: the increments in [start, end)
  // An increment holding data goes PENDING OFFLINE (no new writes) and becomes
  // offline-available when its last block is released or cleared.
  std::vector<std::string> config_online(uint64_t amount);
  std::vector<std::string> config_offline(uint64_t amount);
  std::vector<std::string> config_offline_range(uint64_t start, uint64_t end);
  // Parses and runs an operand of CF SCM: "16G", "32G", "48G-64G" with "ONLINE"/"OFFLINE".
  std::vector<std::string> config_command(const std::string& operand, bool online);

  // D M=SCM and D M=SCM(DETAIL), IEE174I, in the seed's layout. `hhmmss` is the
  // time of day as z/OS shows it ("17.57.26"), `msgno` the console's message number.
  std::vector<std::string> display(const std::string& hhmmss, unsigned msgno) const;
  std::vector<std::string> display_detail(const std::string& hhmmss, unsigned msgno) const;

 private:
  struct Card {
    std::vector<uint64_t> slot_free;   // when each media slot is free
    uint64_t link_free = 0;
    CardCounters c;
  };
  struct Increment {
    IncrementState state = IncrementState::OfflineAvailable;
    uint64_t used_units = 0;           // 4 KB units holding data
  };
  // Occupies a slot of card `ci` for `lat` from `from`; returns when the slot is done.
  uint64_t take_slot(Card& card, uint64_t from, uint64_t lat);
  Status check_block(const Block& b, int i, std::string& err) const;
  std::vector<std::string> offline_increments(const std::vector<unsigned>& which);
  void maybe_finish_offline(unsigned inc);

  ScmConfig cfg_;
  std::vector<Card> cards_;            // pair p: cards 2p, 2p+1
  std::vector<Increment> incs_;
  SparseStore store_;
  uint64_t degraded_blocks_ = 0;
};

// "64G", "1024G": a byte amount in G as D M=SCM shows it.
std::string gigabytes(uint64_t bytes);
// Parses "16G", "16384M", "1T" (case-insensitive) into bytes; false if it is not an amount.
bool parse_amount(const std::string& s, uint64_t& bytes);

}  // namespace flashsim
