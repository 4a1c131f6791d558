#include "paging/paging_config.h"

#include <fmt/format.h>

#include "flashsim/scm.h"

namespace paging {
namespace {

const std::string kSeed2 = "seed 002 (IBM, Flash Express z/OS presentation, 2013)";

// system.paging.vio_volumes: "all" or a count of page volumes.
uint64_t vio_volumes(const std::string& text) {
  if (text == "all") return ~0ull;
  size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || text[0] == '-' || n > 256)
    throw cfg::ConfigError(fmt::format("\"{}\" is not all or a count of page volumes (0 to 256)", text));
  return n;
}

// PAGESCM: ALL, NONE, or an amount ("64G").
uint64_t pagescm(const std::string& text) {
  if (text == "ALL") return ~0ull;
  if (text == "NONE") return 0;
  uint64_t bytes = 0;
  if (!flashsim::parse_amount(text, bytes))
    throw cfg::ConfigError(fmt::format("\"{}\" is not ALL, NONE or an amount (for example 64G)", text));
  return bytes;
}

cfg::Section<PagingConfig> make_paging_section() {
  cfg::Section<PagingConfig> s;
  using T = cfg::ValueType;
  s.key({.path = "system.paging.real_storage", .type = T::Size, .default_value = "0", .min = "0", .max = "1T",
         .unit = "bytes",
         .description = "Real storage for the ECBs' pageable 4 KB pages (their stacks, GETSTOR storage, data): "
                        "when the frames in use leave fewer than system.paging.afq_low available, the least "
                        "recently used pages are stolen and paged out to SCM or the page data sets. 0: no paging "
                        "(every page stays). Pages in 1 MB frames (the ECB heap's) are not paged yet.",
         .source = "a run's choice: the experiments size it below their working sets (" + kSeed2 + ")."},
        &PagingConfig::real_storage);
  s.key({.path = "system.paging.afq_low", .type = T::Integer, .default_value = "400", .min = "1", .max = "100000000",
         .unit = "frames",
         .description = "Available frames below which pages are stolen (the available frame queue's low threshold).",
         .source = "z/OS IEAOPTxx MCCAFCTH default (400,600): RSM replenishes the available frame queue when it "
                   "falls below 400 frames."},
        &PagingConfig::afq_low);
  s.key({.path = "system.paging.afq_ok", .type = T::Integer, .default_value = "600", .min = "1", .max = "100000000",
         .unit = "frames", .description = "Available frames stealing stops at.",
         .source = "z/OS IEAOPTxx MCCAFCTH default (400,600)."},
        &PagingConfig::afq_ok);
  s.key_with({.path = "system.paging.scm", .type = T::String, .default_value = "ALL",
              .unit = "ALL, NONE or an amount",
              .description = "PAGESCM: how much storage-class memory paging may use (machine.scm.*); pages go to "
                             "SCM while it has room, else to the local page data sets (machine.dasd.page_volumes).",
              .source = kSeed2 + ": PAGESCM=ALL is the default; SCM is preferred while it is faster and has room."},
             [](PagingConfig& c, const cfg::ConfigValue& v) {
               c.pagescm = std::get<std::string>(v);
               c.scm_limit = pagescm(c.pagescm);
             });
  s.key({.path = "system.paging.group", .type = T::Integer, .default_value = "16", .min = "1", .max = "64",
         .unit = "pages",
         .description = "Pages a page-out I/O writes at most (one AOB or one channel program).",
         .source = kSeed2 + ": the RMF page data set report shows about 16.5 pages an I/O."},
        &PagingConfig::group);
  s.key({.path = "system.paging.max_writes", .type = T::Integer, .default_value = "64", .min = "1",
         .max = "100000", .unit = "requests",
         .description = "Page-out requests in flight at most: past it a steal pass takes only pages that need no "
                        "write, so stealing cannot run ahead of what auxiliary storage takes.",
         .source = "estimate: enough to keep every SCM card slot (2 x 8) and 16 page volumes (one I/O each) "
                   "busy several times over; IBM publishes no ASM limit in the seed."},
        &PagingConfig::max_writes);
  s.key({.path = "system.paging.speculative", .type = T::Bool, .default_value = "true", .unit = "on/off",
         .description = "A page-in from SCM also reads the rest of the faulting process's pages that were written "
                        "in the same request and are still out (speculative page-in); off: only the page.",
         .source = kSeed2 + ": z/OS begins speculative page-in of 4K pages only on Flash."},
        &PagingConfig::speculative);
  s.key({.path = "system.paging.self_tuning", .type = T::Bool, .default_value = "true", .unit = "on/off",
         .description = "With both SCM and page data sets: a page-out goes to the kind measured faster a page "
                        "(a moving average of page-outs and page-ins; every 32nd request to the other kind, so "
                        "that its measurement stays current). Off: SCM while it has room.",
         .source = kSeed2 + ": the paging subsystem works with a mix of Flash and disk, self-tuning based on "
                   "measured performance."},
        &PagingConfig::self_tuning);
  s.key({.path = "system.paging.check_interval", .type = T::Duration, .default_value = "50us", .min = "1us",
         .max = "1s", .unit = "simulated time",
         .description = "How often the control program looks at the available frames and steals when they are "
                        "low.",
         .source = "estimate: much shorter than a page-in (75 us on SCM), so stealing keeps up."},
        &PagingConfig::check_interval_ns);
  s.key({.path = "system.paging.uic_interval", .type = T::Duration, .default_value = "1ms", .min = "1us",
         .max = "100s", .unit = "simulated time",
         .description = "How often every resident page's unreferenced interval count (UIC) goes up by one if the "
                        "page was not referenced since the last time (a steal pass in between only sets the "
                        "referenced ones back to 0), so that the count measures how long a page has gone "
                        "unreferenced, whether storage is short or not.",
         .source = "estimate: z/OS RSM updates UICs about once a second; the experiments' runs are shorter than "
                   "the seed's by their scale factor, and 1 ms keeps several updates in a run of 0.1 s."},
        &PagingConfig::uic_interval_ns);
  s.key({.path = "system.paging.dump_copy", .type = T::Duration, .default_value = "1us", .min = "1ns",
         .max = "1ms", .unit = "simulated time",
         .description = "An SVC dump's copy of one resident 4 KB page into the dump (the copies of a process's "
                        "pages follow one another).",
         .source = "estimate: a 4 KB move at about 4 GB/s (MVCLE on a zEC12 of the seed's time)."},
        &PagingConfig::dump_copy_ns);
  s.key({.path = "system.paging.first_reference_cost", .type = T::Cycles, .default_value = "256", .min = "0",
         .max = "10000000", .unit = "cycles",
         .description = "What the page fault of a first reference to a page obtained from LE_GETMAIN or LE's "
                        "stack, the ECB's stack, the ECB heap's 4 KB frames or a LOAD's module storage costs on "
                        "top of the fault's handling (system.service_cost, which the paging "
                        "subsystem's demand-zero fault charges, in every run, real storage modelled or not): "
                        "the frame from the free list cleared.",
         .source = "estimate: a 4 KB clear at 16 bytes a cycle, the rate the control program charges for a "
                   "static page's first-touch copy; IBM publishes no path length for z/OS RSM's first-reference "
                   "fault (docs/e4-le.md has E4's sensitivity to it)."},
        &PagingConfig::first_reference_cost);
  s.key({.path = "system.paging.dump_reads", .type = T::Integer, .default_value = "64", .min = "1",
         .max = "100000", .unit = "requests",
         .description = "An SVC dump's page-in requests in flight at most (each reads up to system.paging.group "
                        "pages of one device, or one 1 MB page).",
         .source = "estimate: as system.paging.max_writes, enough to keep every SCM card slot and page volume "
                   "busy."},
        &PagingConfig::dump_reads);
  s.key({.path = "system.paging.sadmp_batch", .type = T::Integer, .default_value = "1024", .min = "1",
         .max = "1000000", .unit = "pages",
         .description = "A stand-alone dump's batch (the operator's SADMP): the paged-out pages it reads from "
                        "auxiliary storage at once (all the batch's requests started together, up to "
                        "system.paging.group pages of one device each, or one 1 MB page), waits for (paging I/O "
                        "wait), then writes to the dump volumes before it reads the next.",
         .source = "estimate: 4 MB, four requests for each of 16 page volumes; " + kSeed2 +
                   " shows the batches' reads and the writes not overlapping (total time less paging I/O wait "
                   "is about the same on DASD and Flash) but not the batch's size."},
        &PagingConfig::sadmp_batch);
  s.key({.path = "system.paging.pageable_programs", .type = T::Bool, .default_value = "false", .unit = "on/off",
         .description = "PLPA-like pages: the program image's read-only pages (the programs' code and constants, "
                        "shared by every process) are pageable. At IPL each is written, without simulated time, "
                        "to SCM (if PAGESCM allows and it has room) and to the PLPA page data set "
                        "(machine.dasd.plpa_volume); they then count in system.paging.real_storage and are stolen "
                        "like any page, least recently used first, never written again (their copies stay valid), "
                        "and read back on a fault from SCM, or from the PLPA data set if SCM has no copy or its "
                        "read fails. Off: they stay in storage, outside real_storage.",
         .source = kSeed2 + ": at IPL/NIP time PLPA pages will be placed both on Flash and disk. Off by default, "
                   "so that earlier runs and their figures do not change."},
        &PagingConfig::pageable_programs);
  s.key({.path = "system.paging.pageable_common", .type = T::Bool, .default_value = "false", .unit = "on/off",
         .description = "Common storage is pageable: the shared area (system.shared_size at TPF_EVM_SHARED, the "
                        "system storage every ECB maps, z/OS's CSA) counts in system.paging.real_storage, its pages "
                        "are stolen least recently used first like any page, a changed one written to the COMMON "
                        "page data set (SYS1.COMMON.PAGE, on the PLPA volume after the PLPA, "
                        "machine.dasd.plpa_volume; never to SCM or a local data set), and a fault reads it back into "
                        "every address space at once. Off: the shared area stays in storage, outside real_storage.",
         .source = kSeed2 + ": its D ASM shows SYS1.COMMON.PAGCOM on the PLPA's volume 02E6, 61% full, and "
                   "RMF's page data set reports a COMMON line with I/O. Off by default, so that earlier runs and "
                   "their figures do not change."},
        &PagingConfig::pageable_common);
  s.key({.path = "system.paging.common_slots", .type = T::Integer, .default_value = "89999", .min = "1",
         .max = "16777216", .unit = "4 KB slots",
         .description = "The COMMON page data set's size (its slots, as formatted): D ASM's and RMF's % in use is "
                        "of these. A changed common page that finds it full stays in storage.",
         .source = kSeed2 + ": RMF's page data set activity report shows SYS1.P41.COMMON with 89,999 slots."},
        &PagingConfig::common_slots);
  s.key_with({.path = "system.paging.vio_volumes", .type = T::String, .default_value = "all",
              .unit = "all or a count of page volumes",
              .description = "Local page data sets that accept VIO pages (GETSTOR_VIO storage): the first this many "
                             "of machine.dasd.page_volumes; VIO pages go to them first, the spillover to the others, "
                             "never to SCM. With no page volume at all VIO pages are not stolen. The rest are "
                             "NONVIO data sets (RMF's V column shows which accept VIO).",
              .source = kSeed2 + ": VIO data will always be placed on disk (first to VIO accepting data sets with "
                        "any spillover flowing to non-VIO data sets); z/OS's NONVIO system parameter names the "
                        "others. all by default, as z/OS without NONVIO."},
             [](PagingConfig& c, const cfg::ConfigValue& v) {
               c.vio_volumes_text = std::get<std::string>(v);
               c.vio_volumes = vio_volumes(c.vio_volumes_text);
             });
  s.describe("system.paging", "Paging (paging/): real storage for pageable pages, auxiliary storage on SCM and DASD.");
  s.check("system.paging: PAGESCM and the thresholds", [](const cfg::Config& c) {
    try {
      pagescm(c.get_string("system.paging.scm"));
    } catch (const cfg::ConfigError& e) {
      throw c.error({"system.paging.scm"}, e.what());
    }
    try {
      vio_volumes(c.get_string("system.paging.vio_volumes"));
    } catch (const cfg::ConfigError& e) {
      throw c.error({"system.paging.vio_volumes"}, e.what());
    }
    if (c.get_int("system.paging.afq_ok") < c.get_int("system.paging.afq_low"))
      throw c.error({"system.paging.afq_ok"}, "must be at least system.paging.afq_low");
    const uint64_t real = c.get_uint("system.paging.real_storage");
    if (real == 0) return;
    if (real / 4096 <= uint64_t(c.get_int("system.paging.afq_ok")))
      throw c.error({"system.paging.real_storage"},
                    fmt::format("{} frames are not more than system.paging.afq_ok ({})", real / 4096,
                                c.get_int("system.paging.afq_ok")));
    if (c.get_bool("system.paging.pageable_programs") && !c.get_bool("machine.dasd.plpa_volume"))
      throw c.error({"system.paging.pageable_programs"},
                    "pageable programs need the PLPA page data set: machine.dasd.plpa_volume");
    if (c.get_bool("system.paging.pageable_common") && !c.get_bool("machine.dasd.plpa_volume"))
      throw c.error({"system.paging.pageable_common"},
                    "pageable common storage needs the COMMON page data set, on the PLPA volume: "
                    "machine.dasd.plpa_volume");
    const bool scm = c.get_int("machine.scm.card_pairs") > 0 && c.get_string("system.paging.scm") != "NONE";
    if (!scm && c.get_int("machine.dasd.page_volumes") == 0)
      throw c.error({"system.paging.real_storage"},
                    "paging needs auxiliary storage: machine.scm.card_pairs (with system.paging.scm not NONE) or "
                    "machine.dasd.page_volumes");
  });
  return s;
}

}  // namespace

const cfg::Section<PagingConfig>& paging_section() {
  static const cfg::Section<PagingConfig> section = make_paging_section();
  return section;
}

}  // namespace paging
