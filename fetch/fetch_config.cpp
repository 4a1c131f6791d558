#include "fetch/fetch_config.h"

#include <fmt/format.h>

#include "flashsim/dasd.h"
#include "os/guest_dir.h"

namespace fetch {

const char* lla_name(Lla l) {
  switch (l) {
    case Lla::None: return "NONE";
    case Lla::Directory: return "DIRECTORY";
    case Lla::Modules: return "MODULES";
  }
  return "?";
}

namespace {

constexpr const char* kSeed = "seed 001 (Longpela, \"Load Library Performance\", 2019)";

// A path key: "(none)" or the file, resolved where the key was set (then system.image's folder).
void land_path(std::string& to, const cfg::Config& c, const std::string& path) {
  to = c.get_string(path) == "(none)" ? "" : c.get_path(path, os::guest_dir());
}

}  // namespace

cfg::Section<FetchConfig> make_fetch_section() {
  cfg::Section<FetchConfig> s;
  using T = cfg::ValueType;
  s.key_from({.path = "system.fetch.library",
              .type = T::Path,
              .default_value = "(none)",
              .unit = "path",
              .description = "A load library image (build/tpfemu-libbuild) that LOAD, DELETE and BLDL fetch programs "
                             "from, through channel programs on its 3390 volume; a relative path as system.image's. "
                             "(none): the library is built at the start from system.fetch.members or "
                             "system.fetch.synthetic, or there is none (program fetch off).",
              .source = "(none): program fetch is for the seed 001 experiment (E5)."},
             [](FetchConfig& f, const cfg::Config& c, const std::string& p) { land_path(f.library, c, p); });
  s.key_from({.path = "system.fetch.members",
              .type = T::Path,
              .default_value = "(none)",
              .unit = "path",
              .description = "A member list (fetch/member_list.h: NAME SIZE [rld=N] ... a line) that the library is "
                             "built from at the start, as the binder (PDS) or a PDSE's binder would write it, with "
                             "the block size and organization below.",
              .source = "(none): no member list."},
             [](FetchConfig& f, const cfg::Config& c, const std::string& p) { land_path(f.members, c, p); });
  s.key_with({.path = "system.fetch.programs",
              .type = T::String,
              .default_value = "(none)",
              .unit = "program names",
              .description = "Programs of the image (separated by blanks or commas) that are not resident: the library "
                             "built at the start holds each as a member (its code and constants as linked, read whole "
                             "at its fetch), and the first ENTER, CREATE or reference of it fetches it from there "
                             "(BLDL, then its records) while the ECB waits; it stays resident after, for every ECB.",
              .source = "(none): every program is resident in the image, as z/TPF's core-resident programs."},
             [](FetchConfig& f, const cfg::ConfigValue& v) {
               f.programs.clear();
               std::string word;
               for (char c : std::get<std::string>(v) + " ") {
                 if (c == ' ' || c == ',' || c == '\t') {
                   if (!word.empty() && word != "(none)") f.programs.push_back(word);
                   word.clear();
                 } else {
                   word += c;
                 }
               }
             });
  s.key({.path = "system.fetch.synthetic",
         .type = T::Integer,
         .default_value = "0",
         .min = "0",
         .max = "20000",
         .unit = "members",
         .description = "When no library or member list is given: a synthetic SYS1.LINKLIB of this many members "
                        "(IEFBR14, 8 bytes, and ARCCTL, 4 MB, among them; the others' sizes ESTIMATES: "
                        "fetch/member_list.h). 0: no library.",
         .source = std::string(kSeed) + ": IEFBR14 and ARCCTL and a z/OS 2.3 SYS1.LINKLIB; its sizes are not given."},
        &FetchConfig::synthetic);
  s.key_with({.path = "system.fetch.organization",
              .type = T::Enum,
              .default_value = "PDS",
              .choices = {"PDS", "PDSE"},
              .unit = "data set organization",
              .description = "A library built at the start: a PDS of load modules or a PDSE of program objects.",
              .source = std::string(kSeed) + " compares both."},
             [](FetchConfig& f, const cfg::ConfigValue& v) {
               f.build.organization = std::get<std::string>(v) == "PDSE" ? Organization::Pdse : Organization::Pds;
             });
  s.key({.path = "system.fetch.block_size",
         .type = T::Integer,
         .default_value = "32760",
         .min = "1024",
         .max = "32760",
         .unit = "bytes",
         .description = "A library built at the start: BLKSIZE, the largest text record the binder writes (a PDSE's "
                        "records are 4 KB pages whatever it says).",
         .source = std::string(kSeed) + ": 6144, 23440 (half-track) and 32760; IBM's John Eells: 32760 is best."},
        [](FetchConfig& f) -> auto& { return f.build.binder.block_size; });
  s.key({.path = "system.fetch.fill_tracks",
         .type = T::Bool,
         .default_value = "true",
         .unit = "on/off",
         .description = "A PDS built at the start: the binder writes a shorter text block to fill a track's rest.",
         .source = std::string(kSeed) + ": \"It will use 'small blocks' to fill up the space in a track\"."},
        [](FetchConfig& f) -> auto& { return f.build.binder.fill_tracks; });
  s.key({.path = "system.fetch.directory_blocks",
         .type = T::Integer,
         .default_value = "0",
         .min = "0",
         .max = "65535",
         .unit = "256-byte blocks",
         .description = "A PDS built at the start: at least this many directory blocks (SPACE's third quantity); "
                        "0: as many as its entries need.",
         .source = "0: the directory holds just its entries."},
        [](FetchConfig& f) -> auto& { return f.build.directory_blocks; });
  s.key_with({.path = "system.fetch.fetchopt",
              .type = T::Enum,
              .default_value = "NOPACK,NOPRIME",
              .choices = {"NOPACK,NOPRIME", "PACK,PRIME"},
              .unit = "binder option",
              .description = "A PDSE built at the start: PACK,PRIME reads a program object whole at LOAD; "
                             "NOPACK,NOPRIME (the default) its INITIAL classes, the rest as referenced.",
              .source = std::string(kSeed) + ": FETCHOPT=(PACK,PRIME) against the binder's default."},
             [](FetchConfig& f, const cfg::ConfigValue& v) {
               f.build.pack = f.build.prime = std::get<std::string>(v) == "PACK,PRIME";
             });
  s.key_with({.path = "system.fetch.pdse_initial_percent",
              .type = T::Integer,
              .default_value = "25",
              .min = "0",
              .max = "100",
              .unit = "percent",
              .description = "A PDSE built at the start: the share of a member's text in INITIAL classes (loaded at "
                             "LOAD) where its member list line does not say (initial=N).",
              .source = "ESTIMATE: IBM publishes no typical split of a program object's classes."},
             [](FetchConfig& f, const cfg::ConfigValue& v) {
               f.build.pdse_initial_fraction = double(std::get<int64_t>(v)) / 100.0;
             });
  s.key_with({.path = "system.fetch.lla",
              .type = T::Enum,
              .default_value = "NONE",
              .choices = {"NONE", "DIRECTORY", "MODULES"},
              .unit = "library lookaside",
              .description = "LLA: DIRECTORY keeps each directory entry in storage after its first BLDL (later "
                             "LOADs search no directory on DASD); MODULES also keeps each module's image after its "
                             "first fetch, as LLA with VLF staging does (later LOADs copy it from storage: no I/O).",
              .source = std::string(kSeed) + ": its runs used STEPLIB, \"so no LLA\"; \"Everyone uses LLA\"."},
             [](FetchConfig& f, const cfg::ConfigValue& v) {
               const std::string& s = std::get<std::string>(v);
               f.lla = s == "DIRECTORY" ? Lla::Directory : s == "MODULES" ? Lla::Modules : Lla::None;
             });
  s.key({.path = "system.fetch.dasd_cache",
         .type = T::Bool,
         .default_value = "true",
         .unit = "on/off",
         .description = "The library volume's control unit answers from its cache (flashsim/ckd.h, cached timing: "
                        "the paging DASD model's calibrated 4 KB record time); off: a turning 3390 (seeks, "
                        "rotation).",
         .source = std::string(kSeed) + ": 10,006 EXCPs in 3 s elapsed is 0.3 ms an EXCP, a cached control unit's "
                   "figure; seed 002's DS8800 saw 95-100% cache hits."},
        &FetchConfig::dasd_cache);
  s.key({.path = "system.fetch.record_overhead",
         .type = T::Duration,
         .default_value = "37917ns",
         .min = "0",
         .max = "75833ns",
         .unit = "ns",
         .description = "Cached timing: the part of a record's time that does not move with its bytes (one CCW's "
                        "protocol between channel and control unit); the rest of the paging model's 75,833 ns per "
                        "4 KB record is per byte.",
         .source = "ESTIMATE: half of page_hit_ns (flashsim/dasd.h); docs/e5-fetch.md, \"Sensitivity to the estimates\"."},
        &FetchConfig::record_overhead_ns);
  s.describe("system.fetch", "Program fetch (fetch/): the load library, LLA, the device's timing (its CPU is the contents supervisor's guest code, fetch/guest/qcsv.c, counted as executed).");
  s.check("system.fetch names one library", [](const cfg::Config& c) {
    const bool lib = c.get_string("system.fetch.library") != "(none)", mem = c.get_string("system.fetch.members") != "(none)";
    if (lib && mem)
      throw c.error({"system.fetch.members", "system.fetch.library"}, "give a library image or a member list, not both");
    if (lib && c.get_string("system.fetch.programs") != "(none)")
      throw c.error({"system.fetch.programs", "system.fetch.library"},
                    "programs of the image are fetched from the library built at the start, not from an image file");
  });
  return s;
}

const cfg::Section<FetchConfig>& fetch_section() {
  static const cfg::Section<FetchConfig> section = make_fetch_section();
  return section;
}

}  // namespace fetch
