// flashsim: Flash Express SCM and DASD page volumes (issue 13; seed 002).
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "flashsim/dasd.h"
#include "flashsim/load.h"
#include "flashsim/scm.h"

using namespace flashsim;

namespace {

constexpr uint64_t G = 1ull << 30;

Request one(Op op, uint64_t addr, uint32_t size = kBlock4K, uint8_t* data = nullptr, uint64_t tag = 0) {
  Request r;
  r.tag = tag;
  r.blocks.push_back(Block{op, addr, size, data});
  return r;
}

std::vector<uint8_t> pattern(size_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  uint64_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    b = uint8_t(x >> 56);
  }
  return v;
}

std::vector<std::unique_ptr<DasdVolume>> document_volumes() {
  std::vector<std::unique_ptr<DasdVolume>> v;
  for (const DasdConfig& c : document_dasd()) v.push_back(std::make_unique<DasdVolume>(c));
  return v;
}

}  // namespace

TEST_CASE("flashsim: SCM 4 KB and 1 MB transfer times", "[flashsim]") {
  ScmDevice scm;
  const ScmConfig& c = scm.config();
  // One block alone: overhead + media + link (4 KB: 4,096 ns, 1 MB: 1,048,576 ns at 1 GB/s).
  Completion r4 = scm.submit(0, one(Op::Read, 0));
  CHECK(r4.ok());
  CHECK(r4.time_ns == c.request_overhead_ns + c.read_latency_4k_ns + 4096);
  CHECK(r4.time_ns == 75'634);
  Completion r1 = scm.submit(10'000'000, one(Op::Read, 16 * kBlock1M, kBlock1M));
  CHECK(r1.time_ns - 10'000'000 == c.request_overhead_ns + c.read_latency_1m_ns + 1'048'576);
  // A write: the link, then the program, on both cards at once.
  Completion w4 = scm.submit(20'000'000, one(Op::Write, 0));
  CHECK(w4.time_ns - 20'000'000 == c.request_overhead_ns + 4096 + c.write_latency_4k_ns);
  Completion w1 = scm.submit(30'000'000, one(Op::Write, kBlock1M, kBlock1M));
  CHECK(w1.time_ns - 30'000'000 == c.request_overhead_ns + 1'048'576 + c.write_latency_1m_ns);
  // Two 4 KB reads at once go to the two cards: neither waits.
  Completion a = scm.submit(40'000'000, one(Op::Read, 0));
  Completion b = scm.submit(40'000'000, one(Op::Read, 4096));
  CHECK(a.time_ns == b.time_ns);
  CHECK(scm.card(0, 0).reads == 3);   // r4, r1 and a
  CHECK(scm.card(0, 1).reads == 1);   // b
  // A request of 17 4 KB reads: 16 slots on the two cards, the 17th waits for one.
  Request many;
  for (int i = 0; i < 17; i++) many.blocks.push_back(Block{Op::Read, uint64_t(i) * 4096, kBlock4K, nullptr});
  Completion m = scm.submit(50'000'000, many);
  CHECK(m.time_ns - 50'000'000 >= c.request_overhead_ns + 2 * c.read_latency_4k_ns);
}

TEST_CASE("flashsim: DASD channel program times", "[flashsim]") {
  DasdVolume v(document_dasd()[0]);
  const DasdConfig& c = v.config();
  Completion one_page = v.submit(0, one(Op::Read, 0));
  uint64_t expect = c.start_io_ns + c.page_hit_ns + (v.cache_hit(0) ? 0 : c.page_miss_ns);
  CHECK(one_page.time_ns == expect);
  Request r;
  uint64_t t = c.start_io_ns;
  for (int i = 0; i < 16; i++) {
    uint64_t a = uint64_t(1000 + i) * kBlock4K;
    r.blocks.push_back(Block{Op::Read, a, kBlock4K, nullptr});
    t += c.page_hit_ns + (v.cache_hit(a) ? 0 : c.page_miss_ns);
  }
  Completion sixteen = v.submit(100'000'000, r);
  CHECK(sixteen.time_ns - 100'000'000 == t);
  // One I/O at a time without PAV: a second one queues behind the first.
  Completion q1 = v.submit(200'000'000, one(Op::Write, 0));
  Completion q2 = v.submit(200'000'000, one(Op::Write, 4096));
  CHECK(q1.time_ns == 200'000'000 + c.start_io_ns + c.page_hit_ns);
  CHECK(q2.start_ns == q1.time_ns);
  CHECK(q2.time_ns == q1.time_ns + c.start_io_ns + c.page_hit_ns);
  // With 1 PAV alias, two at once.
  DasdConfig pc = c;
  pc.pav_aliases = 1;
  DasdVolume p(pc);
  Completion p1 = p.submit(0, one(Op::Write, 0));
  Completion p2 = p.submit(0, one(Op::Write, 4096));
  CHECK(p1.time_ns == p2.time_ns);
  // The cache-hit ratio over many records is the configured one.
  uint64_t hits = 0;
  for (uint64_t a = 0; a < 100000; a++) hits += v.cache_hit(a * kBlock4K);
  CHECK(double(hits) / 100000.0 == Approx(c.cache_hit_ratio).margin(0.003));
}

TEST_CASE("flashsim: SCM throughput saturates at 260,000 4 KB reads a second", "[flashsim]") {
  double prev = 0;
  for (unsigned conc : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 256u}) {
    ScmDevice scm;
    std::vector<Device*> d{&scm};
    LoadResult r = closed_loop(d, conc, 1, Op::Read, 100000, 5000, scm.online_bytes());
    INFO("concurrency " << conc << ": " << r.blocks_per_second << " pages/s");
    CHECK(r.blocks_per_second >= prev * 0.99);
    CHECK(r.blocks_per_second <= 260000 * 1.02);
    if (conc == 1) CHECK(r.blocks_per_second == Approx(1e9 / 75634).epsilon(0.01));
    if (conc >= 32) CHECK(r.blocks_per_second == Approx(260000).epsilon(0.03));
    prev = r.blocks_per_second;
  }
}

TEST_CASE("flashsim: DASD throughput saturates at 75,000 pages a second on the document's 16 volumes", "[flashsim]") {
  double prev = 0;
  for (unsigned conc : {1u, 4u, 16u, 64u, 256u}) {
    auto vols = document_volumes();
    std::vector<Device*> d;
    for (auto& v : vols) d.push_back(v.get());
    LoadResult r = closed_loop(d, conc, 16, Op::Read, 20000, 1000 + 4 * conc, vols[0]->config().capacity_blocks() * kBlock4K);
    INFO("concurrency " << conc << ": " << r.blocks_per_second << " pages/s");
    CHECK(r.blocks_per_second >= prev * 0.98);
    CHECK(r.blocks_per_second <= 75000 * 1.04);
    if (conc >= 64) CHECK(r.blocks_per_second == Approx(75000).epsilon(0.04));
    prev = r.blocks_per_second;
  }
  // 16 volumes on 8 LCUs.
  auto cfgs = document_dasd();
  REQUIRE(cfgs.size() == 16);
  CHECK(cfgs[15].lcu == 7);
}

TEST_CASE("flashsim: RAID 10 writes both cards and survives one card's failure", "[flashsim]") {
  ScmConfig cfg;
  cfg.card_pairs = 2;
  ScmDevice scm(cfg);
  // 64 4 KB blocks and 8 1 MB blocks over both pairs (1 MB stripes), each its own bytes.
  std::vector<std::pair<uint64_t, uint32_t>> blocks;
  for (int i = 0; i < 64; i++) blocks.push_back({uint64_t(i) * 37 * kBlock4K, kBlock4K});
  for (int i = 0; i < 8; i++) blocks.push_back({(100 + uint64_t(i)) * kBlock1M, kBlock1M});
  std::vector<std::vector<uint8_t>> data;
  uint64_t t = 0;
  for (size_t i = 0; i < blocks.size(); i++) {
    data.push_back(pattern(blocks[i].second, i));
    Completion c = scm.submit(t, one(Op::Write, blocks[i].first, blocks[i].second, data.back().data()));
    REQUIRE(c.ok());
    t += 1000;
  }
  for (unsigned p = 0; p < 2; p++) {
    CHECK(scm.card(p, 0).writes > 0);
    CHECK(scm.card(p, 0).writes == scm.card(p, 1).writes);
  }
  CHECK(scm.card(0, 0).writes + scm.card(1, 0).writes == blocks.size());

  std::string msg = scm.fail_card(0, 1, t);
  CHECK(msg == "FLASH: PAIR 0 CARD 1 FAILED; PAIR SERVING FROM ITS MIRROR, CARD 0, NO DATA LOST");
  CHECK(scm.fail_card(0, 1, t).find("ALREADY FAILED") != std::string::npos);
  CHECK(scm.fail_card(4, 0, t).find("NO CARD") != std::string::npos);
  const uint64_t reads_before = scm.card(0, 1).reads, writes_before = scm.card(0, 1).writes;
  for (size_t i = 0; i < blocks.size(); i++) {
    std::vector<uint8_t> back(blocks[i].second, 0xEE);
    Completion c = scm.submit(t, one(Op::Read, blocks[i].first, blocks[i].second, back.data()));
    REQUIRE(c.ok());
    CHECK(back == data[i]);
  }
  CHECK(scm.card(0, 1).reads == reads_before);   // nothing from the failed card
  CHECK(scm.degraded_blocks() > 0);
  // Writes after the failure go to the survivor only, and read back.
  std::vector<uint8_t> fresh = pattern(kBlock4K, 999);
  REQUIRE(scm.submit(t, one(Op::Write, 0, kBlock4K, fresh.data())).ok());
  CHECK(scm.card(0, 1).writes == writes_before);
  std::vector<uint8_t> back(kBlock4K);
  REQUIRE(scm.submit(t, one(Op::Read, 0, kBlock4K, back.data())).ok());
  CHECK(back == fresh);
  auto lines = scm.card_status_lines();
  REQUIRE(lines.size() == 4);
  CHECK(lines[1].rfind("PAIR 0 CARD 1 FAILED AT ", 0) == 0);
  CHECK(lines[1].find("PAIR SERVING FROM CARD 0") != std::string::npos);
  CHECK(lines[0].rfind("PAIR 0 CARD 0 OK", 0) == 0);

  // Both cards of pair 0: an error naming the pair; pair 1 still serves.
  CHECK(scm.fail_card(0, 0, t).find("BOTH CARDS") != std::string::npos);
  Completion dead = scm.submit(t, one(Op::Read, 0));
  CHECK(dead.status == Status::PairFailed);
  CHECK(dead.error.find("card pair 0") != std::string::npos);
  Completion alive = scm.submit(t, one(Op::Read, kBlock1M));   // the second 1 MB stripe: pair 1
  CHECK(alive.ok());
}

TEST_CASE("flashsim: SCM increments online, offline, pending offline, and their displays", "[flashsim]") {
  ScmDevice scm;   // 80G defined, 0G-64G online (the seed's D M=SCM)
  CHECK(scm.online_bytes() == 64 * G);
  // 55% of increment 0 in use, as in the seed: 9,011 1 MB blocks (timing only, no data kept).
  Request r;
  uint64_t t = 0;
  for (uint64_t i = 0; i < 9011; i++) {
    r.blocks.push_back(Block{Op::Write, i * kBlock1M, kBlock1M, nullptr});
    if (r.blocks.size() == 124 || i == 9010) {
      REQUIRE(scm.submit(t, r).ok());
      r.blocks.clear();
    }
  }
  CHECK(scm.contents_bytes() < 200ull << 20);   // no data kept: map entries only
  std::vector<std::string> d = scm.display("17.57.26", 230);
  CHECK(d == std::vector<std::string>{"IEE174I 17.57.26 DISPLAY M 230", "STORAGE-CLASS MEMORY STATUS", "80G DEFINED",
                                      "ONLINE", "0G-64G", "16G OFFLINE-AVAILABLE", "14% IN USE",
                                      "SCM INCREMENT SIZE IS 16G"});
  std::vector<std::string> dd = scm.display_detail("17.57.30", 232);
  CHECK(dd == std::vector<std::string>{"IEE174I 17.57.30 DISPLAY M 232",
                                       "STORAGE-CLASS MEMORY STATUS - INCREMENT DETAIL",
                                       "80G DEFINED",
                                       "ADDRESS  IN USE  STATUS",
                                       "     0G     55%  ONLINE",
                                       "    16G      0%  ONLINE",
                                       "    32G      0%  ONLINE",
                                       "    48G      0%  ONLINE",
                                       "ONLINE: 64G  OFFLINE-AVAILABLE: 16G  PENDING OFFLINE: 0G",
                                       "14% IN USE",
                                       "SCM INCREMENT SIZE IS 16G"});
  // Offline increment: an error before, fine after CF SCM(16G),ONLINE.
  CHECK(scm.submit(t, one(Op::Write, 64 * G)).status == Status::IncrementOffline);
  CHECK(scm.config_command("16G", true) ==
        std::vector<std::string>{"IEE195I SCM LOCATIONS 64G TO 80G ONLINE", "IEE712I CONFIG   PROCESSING COMPLETE"});
  CHECK(scm.increment_state(4) == IncrementState::Online);
  REQUIRE(scm.submit(t, one(Op::Write, 64 * G)).ok());
  // CF SCM(32G),OFFLINE: the highest two; 64G holds a block, so it goes pending offline.
  CHECK(scm.config_command("32G", false) ==
        std::vector<std::string>{"IEE195I SCM LOCATIONS 48G TO 64G OFFLINE",
                                 "IEE195I SCM LOCATIONS 64G TO 80G PENDING OFFLINE",
                                 "IEE712I CONFIG   PROCESSING COMPLETE"});
  CHECK(scm.increment_state(3) == IncrementState::OfflineAvailable);
  CHECK(scm.increment_state(4) == IncrementState::PendingOffline);
  std::vector<std::string> d2 = scm.display("18.00.00", 240);
  CHECK(d2[4] == "0G-48G");
  CHECK(d2[5] == "16G OFFLINE-AVAILABLE");
  CHECK(d2[6] == "16G PENDING OFFLINE");
  std::vector<std::string> dd2 = scm.display_detail("18.00.01", 241);
  CHECK(dd2[7] == "    64G      0%  PENDING OFFLINE");
  CHECK(dd2[8] == "ONLINE: 48G  OFFLINE-AVAILABLE: 16G  PENDING OFFLINE: 16G");
  // Pending offline: reads yes, writes no; the release of its last block takes it offline.
  CHECK(scm.submit(t, one(Op::Read, 64 * G)).ok());
  Completion pw = scm.submit(t, one(Op::Write, 64 * G + 4096));
  CHECK(pw.status == Status::PendingOffline);
  CHECK(pw.error.find("increment 64G") != std::string::npos);
  REQUIRE(scm.submit(t, one(Op::Release, 64 * G)).ok());
  CHECK(scm.increment_state(4) == IncrementState::OfflineAvailable);
  // A range: 0G-16G holds data (pending), the clear of its blocks empties it.
  CHECK(scm.config_command("0G-16G", false) ==
        std::vector<std::string>{"IEE195I SCM LOCATIONS 0G TO 16G PENDING OFFLINE",
                                 "IEE712I CONFIG   PROCESSING COMPLETE"});
  for (uint64_t i = 0; i < 9011; i++) {
    r.blocks.push_back(Block{Op::Clear, i * kBlock1M, kBlock1M, nullptr});
    if (r.blocks.size() == 124 || i == 9010) {
      REQUIRE(scm.submit(t, r).ok());
      r.blocks.clear();
    }
  }
  CHECK(scm.increment_state(0) == IncrementState::OfflineAvailable);
  CHECK(scm.used_bytes() == 0);
  CHECK(scm.contents_bytes() == 0);
  CHECK(scm.display("18.01.00", 250)[4] == "16G-48G");
  // Bad operands: one message, no change.
  CHECK(scm.config_command("20G", true) ==
        std::vector<std::string>{"CF SCM: 20G IS NOT A MULTIPLE OF THE SCM INCREMENT SIZE 16G"});
  CHECK(scm.config_command("160G", true) ==
        std::vector<std::string>{"CF SCM: 160G REQUESTED, ONLY 48G OFFLINE-AVAILABLE"});
  CHECK(scm.config_command("64G", false) == std::vector<std::string>{"CF SCM: 64G REQUESTED, ONLY 32G ONLINE"});
  CHECK(scm.config_command("48G-208G", false) ==
        std::vector<std::string>{"CF SCM: 48G-208G IS NOT A RANGE WITHIN THE DEFINED SCM 0G-80G"});
  CHECK(scm.config_command("8G-16G", false)[0].find("BOUNDARY") != std::string::npos);
  CHECK(scm.config_command("64G-80G", false) == std::vector<std::string>{"CF SCM: NO ONLINE SCM IN 64G-80G"});
  CHECK(scm.config_command("LOTS", true)[0].find("IS NOT AN AMOUNT") != std::string::npos);
  CHECK(scm.config_command("0G-16G", true)[0].find("OFFLINE ONLY") != std::string::npos);
  CHECK(scm.online_bytes() == 32 * G);
  // Configuration limits.
  ScmConfig bad;
  bad.card_pairs = 5;
  CHECK(bad.validate().find("card_pairs") != std::string::npos);
  CHECK_THROWS_AS(ScmDevice(bad), std::invalid_argument);
  bad.card_pairs = 1;
  bad.defined_increments = 82;   // 1.4 TB holds 81 increments of 16 GiB
  CHECK(bad.validate().find("exceed") != std::string::npos);
  bad.defined_increments = 81;
  bad.online_increments = 81;
  CHECK(bad.validate().empty());
}

TEST_CASE("flashsim: every error status, with the block and the address named", "[flashsim]") {
  ScmDevice scm;
  uint8_t buf[kBlock4K] = {1, 2, 3};
  auto check = [&](Device& d, uint64_t now, const Request& r, Status s, int block, const char* text) {
    uint64_t errors = d.stats().errors;
    Completion c = d.submit(now, r);
    INFO(c.error);
    CHECK(c.status == s);
    CHECK(c.block == block);
    CHECK(c.error.find(text) != std::string::npos);
    CHECK(c.time_ns >= now);
    CHECK(d.stats().errors == errors + 1);
  };
  check(scm, 100, Request{}, Status::EmptyRequest, -1, "no MSBs");
  Request big;
  for (int i = 0; i < 125; i++) big.blocks.push_back(Block{Op::Read, uint64_t(i) * 4096, kBlock4K, nullptr});
  check(scm, 100, big, Status::TooManyBlocks, 124, "AOB holds 125 MSBs, at most 124; MSB 124 at address 0x7c000");
  // The bad MSB after a good write: the whole AOB is rejected, nothing written.
  Request mixed;
  mixed.blocks.push_back(Block{Op::Write, 0, kBlock4K, buf});
  mixed.blocks.push_back(Block{Op::Read, 8192, 8192, nullptr});
  check(scm, 100, mixed, Status::BadBlockSize, 1, "MSB 1: block size 8192 at address 0x2000");
  CHECK(scm.used_bytes() == 0);
  check(scm, 100, one(Op::Read, 0x800), Status::Misaligned, 0, "MSB 0: address 0x800 is not aligned to its 4 KB");
  check(scm, 100, one(Op::Read, 4096, kBlock1M), Status::Misaligned, 0, "not aligned to its 1 MB");
  check(scm, 100, one(Op::Read, 80 * G), Status::BeyondOnline, 0,
        "MSB 0: address 0x1400000000 is beyond the defined SCM (80G)");
  check(scm, 100, one(Op::Write, 64 * G), Status::IncrementOffline, 0,
        "MSB 0: address 0x1000000000 is in increment 64G, which is offline");
  check(scm, 50, one(Op::Read, 0), Status::TimeOrder, -1, "before the previous one");
  REQUIRE(scm.submit(200, one(Op::Write, 48 * G)).ok());
  scm.config_offline(16 * G);
  check(scm, 300, one(Op::Write, 48 * G + 4096), Status::PendingOffline, 0, "pending offline");
  scm.fail_card(0, 0);
  scm.fail_card(0, 1);
  check(scm, 400, one(Op::Read, 0), Status::PairFailed, 0, "both of whose cards have failed");

  DasdVolume v(document_dasd()[0]);
  check(v, 100, Request{}, Status::EmptyRequest, -1, "no records");
  Request many;
  for (int i = 0; i < 65; i++) many.blocks.push_back(Block{Op::Read, uint64_t(i) * 4096, kBlock4K, nullptr});
  check(v, 100, many, Status::TooManyBlocks, 64, "record 64 at address 0x40000 is one too many");
  check(v, 100, one(Op::Read, 0, kBlock1M), Status::BadBlockSize, 0, "4 KB records only");
  check(v, 100, one(Op::Write, 0x1001), Status::Misaligned, 0, "record 0: address 0x1001");
  check(v, 100, one(Op::Read, v.config().capacity_blocks() * kBlock4K), Status::BeyondOnline, 0,
        "beyond the volume (10017 cylinders, 1803060 records)");
  check(v, 10, one(Op::Read, 0), Status::TimeOrder, -1, "before the previous one");
  CHECK(v.stats().errors_by_status.size() == 6);
}

TEST_CASE("flashsim: the same request stream gives the same completions twice", "[flashsim]") {
  auto run = [] {
    ScmConfig cfg;
    cfg.card_pairs = 2;
    ScmDevice scm(cfg);
    auto vols = document_volumes();
    std::vector<uint64_t> out;
    uint64_t x = 12345, t = 0;
    for (int i = 0; i < 20000; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      t += (x >> 40) % 20000;
      Op op = Op((x >> 20) % 4);
      bool big = (x >> 30) % 8 == 0;
      uint64_t addr = big ? ((x >> 8) % 65536) * kBlock1M : ((x >> 8) % (64 * G / kBlock4K)) * kBlock4K;
      Completion c = scm.submit(t, one(op, addr, big ? kBlock1M : kBlock4K, nullptr, uint64_t(i)));
      out.push_back(c.time_ns);
      out.push_back(uint64_t(c.status));
      Request r;
      for (int k = 0; k < 1 + int(x % 16); k++)
        r.blocks.push_back(Block{op == Op::Release ? Op::Read : op, ((x >> 12) % 100000 + uint64_t(k)) * kBlock4K,
                                 kBlock4K, nullptr});
      out.push_back(vols[i % 16]->submit(t, r).time_ns);
    }
    std::ostringstream rep;
    std::vector<const Device*> devs{&scm};
    for (auto& v : vols) devs.push_back(v.get());
    write_devices_text(rep, devs, t);
    write_devices_json(rep, devs, t);
    return std::make_pair(out, rep.str());
  };
  auto a = run();
  auto b = run();
  CHECK(a.first == b.first);
  CHECK(a.second == b.second);
}

TEST_CASE("flashsim: contents are kept sparse and read back identical", "[flashsim]") {
  ScmDevice scm;
  CHECK(scm.contents_bytes() == 0);
  // 1,000 4 KB blocks spread over 64 GB: memory for those only.
  std::vector<std::vector<uint8_t>> data;
  for (uint64_t i = 0; i < 1000; i++) {
    data.push_back(pattern(kBlock4K, i + 7));
    REQUIRE(scm.submit(i, one(Op::Write, i * 16411 * kBlock4K, kBlock4K, data.back().data())).ok());
  }
  CHECK(scm.contents_bytes() >= 1000 * 4096);
  CHECK(scm.contents_bytes() <= 1000 * (4096 + 64));
  for (uint64_t i = 0; i < 1000; i++) {
    std::vector<uint8_t> back(kBlock4K);
    REQUIRE(scm.submit(2000, one(Op::Read, i * 16411 * kBlock4K, kBlock4K, back.data())).ok());
    CHECK(back == data[i]);
  }
  // Never written: zeroes. Cleared: zeroes, and the memory is given back.
  std::vector<uint8_t> z(kBlock4K, 0xFF);
  REQUIRE(scm.submit(3000, one(Op::Read, 5 * kBlock4K, kBlock4K, z.data())).ok());
  CHECK(z == std::vector<uint8_t>(kBlock4K, 0));
  REQUIRE(scm.submit(3000, one(Op::Clear, 0)).ok());
  REQUIRE(scm.submit(3000, one(Op::Release, 16411 * kBlock4K)).ok());
  CHECK(scm.contents_bytes() <= 998 * (4096 + 64));
  z.assign(kBlock4K, 0xFF);
  REQUIRE(scm.submit(3000, one(Op::Read, 0, kBlock4K, z.data())).ok());
  CHECK(z == std::vector<uint8_t>(kBlock4K, 0));
  // A 1 MB block: its 4 KB parts read back as parts of it.
  std::vector<uint8_t> mb = pattern(kBlock1M, 3);
  REQUIRE(scm.submit(4000, one(Op::Write, 32 * G, kBlock1M, mb.data())).ok());
  std::vector<uint8_t> part(kBlock4K);
  REQUIRE(scm.submit(4000, one(Op::Read, 32 * G + 5 * kBlock4K, kBlock4K, part.data())).ok());
  CHECK(std::equal(part.begin(), part.end(), mb.begin() + 5 * kBlock4K));
  // DASD the same.
  DasdVolume v;
  std::vector<uint8_t> page = pattern(kBlock4K, 11), got(kBlock4K);
  REQUIRE(v.submit(0, one(Op::Write, 1000 * kBlock4K, kBlock4K, page.data())).ok());
  REQUIRE(v.submit(0, one(Op::Read, 1000 * kBlock4K, kBlock4K, got.data())).ok());
  CHECK(got == page);
  CHECK(v.contents_bytes() <= 4096 + 64);
}

TEST_CASE("flashsim: device reports (devices.txt and its JSON twin)", "[flashsim]") {
  ScmDevice scm;
  DasdVolume v(document_dasd()[3]);
  std::vector<Device*> d{&scm};
  LoadResult r = closed_loop(d, 8, 1, Op::Read, 10000, 0, scm.online_bytes());
  v.submit(0, one(Op::Read, 0));
  v.submit(0, one(Op::Read, 0, kBlock1M));   // an error
  uint64_t elapsed = scm.stats().last_completion_ns;
  const DeviceStats& s = scm.stats();
  CHECK(s.requests == 10000);
  CHECK(s.blocks_4k == 10000);
  CHECK(s.bytes_read == 10000ull * 4096);
  CHECK(s.response.quantile(0.5) >= 75634);
  CHECK(s.response.quantile(0.99) >= s.response.quantile(0.5));
  CHECK(double(s.response.quantile(0.5)) <= r.mean_response_ns * 1.5);
  std::ostringstream txt, js;
  std::vector<const Device*> devs{&scm, &v};
  write_devices_text(txt, devs, elapsed);
  write_devices_json(js, devs, elapsed);
  INFO(txt.str());
  CHECK(txt.str().find("SCM          scm        10000") != std::string::npos);
  CHECK(txt.str().find("DASD0983     dasd           2") != std::string::npos);
  CHECK(txt.str().find("errors: bad block size 1") != std::string::npos);
  CHECK(txt.str().find("PAIR 0 CARD 1 OK") != std::string::npos);
  CHECK(txt.str().find("ON LCU 1") != std::string::npos);
  CHECK(js.str().find("\"name\": \"SCM\", \"kind\": \"scm\", \"requests\": 10000") != std::string::npos);
  CHECK(js.str().find("\"errors_by_status\": {\"bad block size\": 1}") != std::string::npos);
  // The caller's number style (the emulator's groups thousands) for every count.
  std::ostringstream styled;
  NumberStyle marked;
  marked.whole = [](uint64_t v) { return "<" + std::to_string(v) + ">"; };
  write_devices_text(styled, devs, elapsed, marked);
  CHECK(styled.str().find("scm      <10000>") != std::string::npos);
  CHECK(styled.str().find("bytes read <40960000>") != std::string::npos);
  // Utilization of a busy device: near 1.
  double util = double(s.busy_ns) / double(elapsed);
  CHECK(util > 0.95);
  CHECK(util <= 1.0);
}
