#include "devices/devices_config.h"

#include <fmt/format.h>
#include <sstream>

namespace devices {
namespace {

const std::string kSeed2 = "seed 002 (IBM, Flash Express z/OS presentation, 2013)";

uint64_t increments(uint64_t bytes) { return bytes / flashsim::ScmConfig{}.increment_bytes; }

// "0.1,1.0" -> {(0,1), (1,0)}
std::vector<std::pair<unsigned, unsigned>> cards(const std::string& text) {
  std::vector<std::pair<unsigned, unsigned>> v;
  if (text == "none") return v;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    unsigned pair = 0, card = 0;
    char dot = 0, extra = 0;
    std::istringstream one(item);
    if (!(one >> pair >> dot >> card) || dot != '.' || (one >> extra) || pair > 3 || card > 1)
      throw cfg::ConfigError(fmt::format("\"{}\" is not PAIR.CARD (pair 0..3, card 0 or 1)", item));
    v.emplace_back(pair, card);
  }
  return v;
}

// "0.975" -> 0.975; a fraction from 0 to 1.
double ratio(const std::string& t) {
  size_t used = 0;
  double x = -1;
  try {
    x = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != t.size() || !(x >= 0 && x <= 1))
    throw cfg::ConfigError(fmt::format("\"{}\" is not a fraction from 0 to 1", t));
  return x;
}

cfg::Section<DevicesConfig> make_devices_section() {
  cfg::Section<DevicesConfig> s;
  using T = cfg::ValueType;
  using C = DevicesConfig;
  const flashsim::ScmConfig scm;
  const flashsim::DasdConfig dasd;
  s.key_with({.path = "machine.scm.card_pairs", .type = T::Integer, .default_value = "0", .min = "0", .max = "4",
              .unit = "card pairs",
              .description = "Flash Express card pairs (RAID 10 mirrored, 1.4 TB usable each); 0: the machine has "
                             "no storage-class memory.",
              .source = kSeed2 + ": 1 to 4 card pairs. 0 by default so that runs without paging have no devices."},
             [](C& c, const cfg::ConfigValue& v) { c.scm.card_pairs = unsigned(std::get<int64_t>(v)); });
  s.key_with({.path = "machine.scm.defined", .type = T::Size, .default_value = "80G", .min = "16G", .max = "5600G",
              .unit = "bytes, 16G increments",
              .description = "SCM defined to the partition (its increments, online or offline-available).",
              .source = kSeed2 + ": D M=SCM shows 80G defined, in increments of 16G."},
             [](C& c, const cfg::ConfigValue& v) { c.scm.defined_increments = unsigned(increments(std::get<uint64_t>(v))); });
  s.key_with({.path = "machine.scm.online", .type = T::Size, .default_value = "64G", .min = "0", .max = "5600G",
              .unit = "bytes, 16G increments",
              .description = "SCM online at the start (the lowest increments); the rest of machine.scm.defined is "
                             "offline-available (CF SCM(16G),ONLINE brings it online).",
              .source = kSeed2 + ": D M=SCM shows 0G-64G online, 16G offline-available."},
             [](C& c, const cfg::ConfigValue& v) { c.scm.online_increments = unsigned(increments(std::get<uint64_t>(v))); });
  s.key_with({.path = "machine.scm.failed_cards", .type = T::String, .default_value = "none",
              .unit = "PAIR.CARD, comma separated",
              .description = "Cards failed from the start (a fault to inject: the pair serves from its mirror, "
                             "nothing is lost); e.g. \"0.1\"; none: every card works.",
              .source = kSeed2 + ": RAID 10 covers an adapter's failure."},
             [](C& c, const cfg::ConfigValue& v) { c.failed_cards = cards(std::get<std::string>(v)); });
  const auto scm_key = [&](std::string key, T type, std::string value, std::string min, std::string max,
                           std::string unit, std::string what, std::string source, auto field) {
    s.key({.path = "machine.scm." + key, .type = type, .default_value = value, .min = min, .max = max, .unit = unit,
           .description = what, .source = source}, field);
  };
  const auto ns = [](uint64_t v) { return std::to_string(v) + "ns"; };
  scm_key("card_parallelism", T::Integer, std::to_string(scm.card_parallelism), "1", "1024", "operations",
          "Media operations a card has in progress at once (flash channels and dies).",
          "estimate: IBM publishes none; with read_latency_4k it sets the peak read rate.",
          [](C& c) -> auto& { return c.scm.card_parallelism; });
  scm_key("read_latency_4k", T::Duration, ns(scm.read_latency_4k_ns), "1ns", "1s", "simulated time",
          "A 4 KB block's media read on a card (a slot held that long).",
          "calibrated estimate (IBM publishes no per-page latency): 2 cards x 1 pair x 8 slots / 61,538 ns = "
          "260,000 4 KB reads a second, the peak page-in rate of " + kSeed2 + "'s test.",
          [](C& c) -> auto& { return c.scm.read_latency_4k_ns; });
  scm_key("read_latency_1m", T::Duration, ns(scm.read_latency_1m_ns), "1ns", "1s", "simulated time",
          "A 1 MB block's media read.", "estimate: striped over the card's dies, well under 256 x 4 KB.",
          [](C& c) -> auto& { return c.scm.read_latency_1m_ns; });
  scm_key("write_latency_4k", T::Duration, ns(scm.write_latency_4k_ns), "1ns", "1s", "simulated time",
          "A 4 KB block's media write (on both cards of the pair).", "estimate: NAND programs slower than it reads.",
          [](C& c) -> auto& { return c.scm.write_latency_4k_ns; });
  scm_key("write_latency_1m", T::Duration, ns(scm.write_latency_1m_ns), "1ns", "10s", "simulated time",
          "A 1 MB block's media write.", "estimate.", [](C& c) -> auto& { return c.scm.write_latency_1m_ns; });
  scm_key("meta_latency", T::Duration, ns(scm.meta_latency_ns), "0ns", "1s", "simulated time",
          "A clear or release (firmware metadata, no data moved).", "estimate.",
          [](C& c) -> auto& { return c.scm.meta_latency_ns; });
  s.key_with({.path = "machine.scm.card_bandwidth", .type = T::Integer,
              .default_value = std::to_string(scm.card_bandwidth_bytes_per_s / 1000000), .min = "1", .max = "100000",
              .unit = "MB a second", .description = "Data rate of one card's link (every block's data moves over it).",
              .source = "estimate: a PCIe adapter of the time, about 1 GB/s."},
             [](C& c, const cfg::ConfigValue& v) { c.scm.card_bandwidth_bytes_per_s = uint64_t(std::get<int64_t>(v)) * 1000000; });
  scm_key("request_overhead", T::Duration, ns(scm.request_overhead_ns), "0ns", "1s", "simulated time",
          "An AOB's start and completion (adds latency, holds no card slot).", "estimate.",
          [](C& c) -> auto& { return c.scm.request_overhead_ns; });

  const auto dasd_key = [&](std::string key, T type, std::string value, std::string min, std::string max,
                            std::string unit, std::string what, std::string source, auto field) {
    s.key({.path = "machine.dasd." + key, .type = type, .default_value = value, .min = min, .max = max, .unit = unit,
           .description = what, .source = source}, field);
  };
  dasd_key("page_volumes", T::Integer, "0", "0", "256", "volumes",
           "3390 page volumes (local page data sets), devices 0980, 0981, ...; 0: none.",
           kSeed2 + ": the DASD tests configured 16 local page data sets. 0 by default (no paging).",
           &C::dasd_volumes);
  dasd_key("dump_volumes", T::Integer, "0", "0", "16", "volumes",
           "3390 volumes of the SVC dump data sets (SYS1.DUMPnn), devices 09A0, 09A1, ...: a dump's captured "
           "storage is written there after its capture, its frames freed as it goes (the paging subsystem's SVC "
           "dumps). 0: none; a dump then ends with its capture.",
           "estimate: z/OS writes SVC dumps to DASD dump data sets; " + kSeed2 + " gives their elapsed time, not "
           "their volumes.",
           &C::dump_volumes);
  s.key({.path = "machine.dasd.plpa_volume", .type = T::Bool, .default_value = "false", .unit = "on/off",
         .description = "A 3390 volume, device 02E6, for the PLPA page data set (SYS1.PLPA.PAGE) and the COMMON "
                        "one after it (SYS1.COMMON.PAGE): with system.paging.pageable_programs the program image's "
                        "read-only pages are written to it at IPL, besides SCM, and read back from it when SCM has "
                        "no copy; with system.paging.pageable_common changed common pages are written to it. Off: "
                        "no such volume.",
         .source = kSeed2 + ": at IPL/NIP time PLPA pages are placed both on Flash and disk; its D ASM shows "
                   "SYS1.PLPA.PAGCOM on device 02E6. Off by default (no paging)."},
        &C::plpa_volume);
  dasd_key("lcus", T::Integer, "8", "1", "256", "control units",
           "Logical control units the volumes are spread over (volume i behind LCU i mod lcus).",
           kSeed2 + ": 16 local page data sets spread across 8 LCUs (DS8800 2107-951).", &C::dasd_lcus);
  dasd_key("pav_aliases", T::Integer, std::to_string(dasd.pav_aliases), "0", "255", "aliases",
           "PAV aliases per volume: I/Os a volume serves at once beyond its own one.",
           "assumption: the document names no PAV.", [](C& c) -> auto& { return c.dasd.pav_aliases; });
  s.key_with({.path = "machine.dasd.cache_hit_ratio", .type = T::String, .default_value = "0.975",
              .unit = "fraction of reads", .description = "Reads the control unit's cache serves (the rest are "
              "staged from the drives), decided per record by a seeded function of its address.",
              .source = kSeed2 + ": DS8800 with 60 GB cache, read hit ratios of 95-100% observed; the middle."},
             [](C& c, const cfg::ConfigValue& v) { c.dasd.cache_hit_ratio = ratio(std::get<std::string>(v)); });
  dasd_key("cylinders", T::Integer, std::to_string(dasd.cylinders), "1", "65520", "cylinders",
           "Cylinders of each volume (15 tracks of 12 4 KB records each): its page data set's slots; a page "
           "volume that is full takes no more pages.",
           "assumption: a 3390-9 (10,017 cylinders), a page volume size of the time; the seed does not say.",
           [](C& c) -> auto& { return c.dasd.cylinders; });
  dasd_key("max_pages_per_io", T::Integer, std::to_string(dasd.max_blocks_per_io), "1", "1024", "4 KB records",
           "Records one channel program may move.", "estimate: our limit, well above the 16 of the document's I/Os.",
           [](C& c) -> auto& { return c.dasd.max_blocks_per_io; });
  dasd_key("start_io", T::Duration, ns(dasd.start_io_ns), "0ns", "1s", "simulated time",
           "An I/O's start: channel and control unit overhead and the ending status.", "estimate.",
           [](C& c) -> auto& { return c.dasd.start_io_ns; });
  dasd_key("page_hit", T::Duration, ns(dasd.page_hit_ns), "1ns", "1s", "simulated time",
           "A 4 KB record the cache serves (transfer and control unit time).",
           "calibrated estimate: 16 volumes, 16 pages an I/O (the document's RMF: 16.5 pages an I/O) sustain "
           "75,000 page-ins a second, the DASD peak of " + kSeed2 + ".",
           [](C& c) -> auto& { return c.dasd.page_hit_ns; });
  dasd_key("page_miss", T::Duration, ns(dasd.page_miss_ns), "1ns", "10s", "simulated time",
           "A 4 KB record staged from the drives (a miss).", "estimate: a seek and half a rotation of a 15k rpm drive.",
           [](C& c) -> auto& { return c.dasd.page_miss_ns; });
  s.describe("machine.scm", "Flash Express storage-class memory (flashsim/): card pairs, increments, timing.");
  s.describe("machine.dasd", "3390 page volumes behind DS8800 control units (flashsim/).");
  s.check("machine.scm and machine.dasd describe devices flashsim can build", [](const cfg::Config& c) {
    DevicesConfig d;
    // The keys whose text is parsed here: their errors get the key's place.
    try {
      cards(c.get_string("machine.scm.failed_cards"));
    } catch (const cfg::ConfigError& e) {
      throw c.error({"machine.scm.failed_cards"}, e.what());
    }
    try {
      ratio(c.get_string("machine.dasd.cache_hit_ratio"));
    } catch (const cfg::ConfigError& e) {
      throw c.error({"machine.dasd.cache_hit_ratio"}, e.what());
    }
    d = devices_section().read(c);
    if (d.scm.card_pairs > 0) {
      if (c.get_uint("machine.scm.defined") % flashsim::ScmConfig{}.increment_bytes ||
          c.get_uint("machine.scm.online") % flashsim::ScmConfig{}.increment_bytes)
        throw c.error({"machine.scm.defined"}, "SCM is defined and brought online in increments of 16G");
      const std::string why = d.scm.validate();
      if (!why.empty()) throw c.error({"machine.scm.card_pairs"}, why);
      for (auto [pair, card] : d.failed_cards)
        if (pair >= d.scm.card_pairs)
          throw c.error({"machine.scm.failed_cards"}, fmt::format("pair {} of {} card pairs", pair, d.scm.card_pairs));
    }
    if (d.dasd_volumes > 0) {
      const std::string why = d.dasd.validate();
      if (!why.empty()) throw c.error({"machine.dasd.page_volumes"}, why);
    }
  });
  return s;
}

}  // namespace

const cfg::Section<DevicesConfig>& devices_section() {
  static const cfg::Section<DevicesConfig> section = make_devices_section();
  return section;
}

}  // namespace devices
