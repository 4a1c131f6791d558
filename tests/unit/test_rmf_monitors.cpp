// RMF's online monitors from a paging run (paging/rmf_monitors.cpp): Monitor III's STORF
// and Monitor II's PGSP, a block per timeline interval. Their figures are checked
// against what the model holds at each interval's end (the test's own hook runs after
// paging's), their layout against seed 002's, and two runs against each other.
#include <catch2/catch.hpp>

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/subsystems.h"
#include "emu/machine.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "paging/paging.h"
#include "scratch.h"

using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// A paging run with a timeline; `at_interval` runs at the end of every interval, after
// paging took its blocks.
struct RmfRun {
  std::map<std::string, std::string> reports;
  std::string log;
  paging::PagingStats stats;
  using Hook = std::function<void(os::ControlProgram&, paging::Paging&, uint64_t now)>;
  explicit RmfRun(const std::vector<std::string>& sets, const Hook& at_interval = {},
                  const std::string& operators = "") {
    std::vector<std::string> files;
    if (!operators.empty()) {
      files.push_back(test::scratch_file("test_rmf_operators.yaml"));
      std::ofstream(files.back()) << "operator:\n" << operators;
    }
    std::vector<std::string> all = {"system.image=tpf_io.elf", "workload.program=QPGT", "workload.warmup=0",
                                    "machine.istreams=1", "workload.terminals=1", "workload.messages=1",
                                    "workload.message_text=10 3", "system.paging.real_storage=8M",
                                    "system.timeline=2ms"};
    all.insert(all.end(), sets.begin(), sets.end());
    os::RunConfig cfg = app::load_run_config(files, all);
    emu::Machine m(cfg.machine, true);
    os::ControlProgram cp(m, cfg);
    paging::Paging& pg = *cp.find_subsystem<paging::Paging>();
    if (at_interval) cp.on_timeline_interval([&](uint64_t now) { at_interval(cp, pg, now); });
    cp.run();
    log = cp.log();
    stats = pg.stats();
    for (const os::ReportFile& r : cp.reports())
      if (r.write && (!r.wanted || r.wanted())) reports[r.name] = report(cp, r.name);
  }
  // A report's text now (mid-run too).
  static std::string report(os::ControlProgram& cp, const std::string& name) {
    for (const os::ReportFile& r : cp.reports())
      if (r.name == name && r.write) {
        std::ostringstream out;
        r.write(out);
        return out.str();
      }
    return "";
  }
};

// Where `word` ends in `line` (its last character's column), or npos.
size_t end_of(const std::string& line, const std::string& word) {
  const size_t at = line.find(word);
  return at == std::string::npos ? at : at + word.size() - 1;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("rmf: STORF's and PGSP's figures are what paging holds at each interval's end", "[paging][rmf]") {
  size_t intervals = 0;
  uint64_t page_ins = 0;                      // STORF's, summed over intervals and jobs
  std::map<std::string, uint64_t> requests;   // PGSP's, summed over intervals, by data set
  // Small volumes, so that % IN USE to two decimals is within a slot.
  RmfRun r({"machine.dasd.page_volumes=4", "machine.dasd.cylinders=20", "machine.scm.card_pairs=1",
            "system.paging.scm=2M", "workload.message_text=6 2", "system.paging.real_storage=4M",
            "system.timeline=10ms"},
           [&](os::ControlProgram& cp, paging::Paging& pg, uint64_t) {
             ++intervals;
             const json storf = json::parse(RmfRun::report(cp, "rmfstorf.json"))["intervals"].back();
             const json pgsp = json::parse(RmfRun::report(cp, "rmfpgsp.json"))["intervals"].back();
             const json paging = json::parse(RmfRun::report(cp, "paging.json"));
             const double span = storf["end_s"].get<double>() - storf["start_s"].get<double>();
             // TOTAL: the process's resident pages, counted here from its page tables.
             std::map<uint64_t, uint64_t> resident;
             cp.for_each_process([&](os::Process& p) {
               uint64_t n = 0;
               p.space->for_each_own_page([&](uint64_t, emu::Frame&) { ++n; });
               p.space->for_each_large_segment([&](uint64_t) { n += emu::kPagesPerSegment; });
               resident[p.id] = n;
             });
             REQUIRE(storf["jobs"].size() == resident.size());
             uint64_t slots = 0;
             for (const json& j : storf["jobs"]) {
               CHECK(j["job"] == "QPGT");
               CHECK(j["total_frames"] == resident[j["asid"].get<uint64_t>()]);
               CHECK(j["active_frames"].get<uint64_t>() + j["idle_frames"].get<uint64_t>() == j["total_frames"]);
               CHECK(j["page_in_rate_per_s"].get<double>() * span ==
                     Approx(j["page_ins"].get<double>()).margin(0.01));
               slots += j["aux_slots"].get<uint64_t>(), page_ins += j["page_ins"].get<uint64_t>();
             }
             CHECK(slots == pg.slots_in_use());  // every slot is a job's (no PLPA pages here)
             // PGIN: every page read in so far (one process, no dumps).
             CHECK(page_ins == pg.stats().pages_in[0] + pg.stats().pages_in[1]);
             // PGSP: the interval's requests sum to Monitor I's counts; % IN USE is D ASM's slots.
             uint64_t used = 0;
             for (const json& d : pgsp["data_sets"]) {
               requests[d["data_set"]] += d["io_requests"].get<uint64_t>();
               CHECK(d["io_requests_per_s"].get<double>() * span ==
                     Approx(d["io_requests"].get<double>()).margin(0.01));
               for (const json& m : paging["data_sets"])
                 if (m["type"] == d["type"] && m["device"] == d["device"]) {
                   CHECK(m["io_requests"] == requests[d["data_set"]]);
                   used += uint64_t(d["slots_in_use_percent"].get<double>() / 100 * m["slots"].get<double>() + 0.5);
                 }
             }
             CHECK(used == pg.slots_in_use());
           });
  INFO(r.log);
  CHECK(r.log.find("QPGT: 1536 pages, 2 rounds, 0 bad") != std::string::npos);
  CHECK(intervals > 5);
  CHECK(page_ins > 1000);  // it paged
  CHECK(r.stats.scm_pages > 0);
  CHECK(r.stats.dasd_pages > 0);
  CHECK(requests["SYS1.LOCAL.PAGE01"] > 0);
  CHECK(requests["N/A"] > 0);  // SCM's line
}

TEST_CASE("rmf: STORF and PGSP in the seed's layouts", "[paging][rmf]") {
  RmfRun r({"machine.dasd.page_volumes=2", "system.paging.vio_volumes=1", "system.paging.pageable_programs=true", "machine.dasd.plpa_volume=true",
            "machine.scm.card_pairs=1"});
  const std::vector<std::string> storf = lines_of(r.reports.at("rmfstorf.txt"));
  REQUIRE(storf.size() > 8);
  CHECK(storf[0].rfind("RMF V2R1   Storage Frames                   Line 1 of 1", 0) == 0);
  CHECK(storf[2].rfind("Samples: 1       System: N/A   Date: N/A       Time: 00.00.00.000  Range: 0.002000  Sec", 0) == 0);
  CHECK(storf[4] == "           Service    -- Frame Occup.-- - Active Frames - AUX   PGIN");
  const std::string head = storf[5];
  CHECK(head == "Jobname  C Class   Cr TOTAL  ACTV  IDLE  WSET FIXED   DIV SLOTS RATE");
  // The seed's row: its figures end where ours do, under their headings.
  const std::string seed = "J273     S SYSSTC      8332  8332     0  8332   734     0     0 0";
  const std::string row = storf[6];
  CHECK(row.rfind("QPGT     S N/A        ", 0) == 0);
  for (const char* col : {"TOTAL", "ACTV", "IDLE", "WSET", "FIXED", "DIV", "SLOTS"}) {
    const size_t end = end_of(head, col);
    INFO(col << " ends at " << end << " in " << row);
    CHECK(std::isdigit(static_cast<unsigned char>(seed[end])));
    CHECK(std::isdigit(static_cast<unsigned char>(row[end])));
    CHECK(row[end + 1] == ' ');
  }
  CHECK(row.substr(head.find("RATE"), 1).find_first_of("0123456789") == 0);  // PGIN RATE from RATE's column

  const std::vector<std::string> pgsp = lines_of(r.reports.at("rmfpgsp.txt"));
  REQUIRE(pgsp.size() > 8);
  CHECK(pgsp[0].rfind("RMF - PGSP Page Data Set Activity              Line 1 of 4", 0) == 0);
  CHECK_THAT(pgsp[2], Contains("CPU=") && Contains("UIC=") && Contains("PR=") && Contains("System= N/A  Delta"));
  CHECK(pgsp[4].rfind("S VOLUME DEV  DEV", 0) == 0);
  CHECK(pgsp[4].substr(pgsp[4].size() - 12) == "00:00:00.002");
  CHECK(pgsp[5].rfind("T SERIAL NUM  TYPE", 0) == 0);
  // The data sets in D ASM's order: PLPA, the locals (the first accepts VIO), SCM.
  const size_t dsn = pgsp[5].find("DATA SET NAME"), v = pgsp[5].find(" V ") + 1;
  const std::vector<std::string> want = {"P PLPA01 02E6 33909", "L PAGE01 0980 33909", "L PAGE02 0981 33909",
                                         "S N/A    N/A  N/A  "};
  const std::vector<std::string> names = {"SYS1.PLPA.PAGE", "SYS1.LOCAL.PAGE01", "SYS1.LOCAL.PAGE02", "N/A"};
  for (size_t k = 0; k < 4; ++k) {
    const std::string& l = pgsp[6 + k];
    INFO(l);
    CHECK(l.rfind(want[k], 0) == 0);
    CHECK(l.substr(dsn) == names[k]);
    CHECK(l[v] == (k == 1 ? 'Y' : ' '));
    for (const char* col : {"IN USE", "TRAN TIME", "RATE", "PER I/O"}) {
      const size_t end = end_of(pgsp[5], col);
      CHECK((std::isdigit(static_cast<unsigned char>(l[end])) || l[end] == '-'));
      CHECK(l[end + 1] == ' ');
    }
  }
  CHECK(pgsp[6].find(" 100.0 ") != std::string::npos);  // the PLPA data set is full, as the seed's
  // A block per timeline row, at its time.
  const json timeline = json::parse(r.reports.at("timeline.json"));
  const json storf_json = json::parse(r.reports.at("rmfstorf.json"));
  REQUIRE(storf_json["intervals"].size() == timeline["rows"].size());
  for (size_t k = 0; k < timeline["rows"].size(); ++k)
    CHECK(storf_json["intervals"][k]["end_s"].get<double>() == Approx(timeline["rows"][k][0].get<double>()));
  // paging.txt says where they are; without a timeline there are none.
  CHECK_THAT(r.reports.at("paging.txt"), Contains("rmfstorf.txt, rmfpgsp.txt (JSON: rmfstorf.json, rmfpgsp.json)"));
  RmfRun none({"machine.dasd.page_volumes=2", "system.timeline=0"});
  CHECK(none.reports.count("rmfstorf.txt") == 0);
  CHECK(none.reports.count("rmfpgsp.json") == 0);
  CHECK_THAT(none.reports.at("paging.txt"), !Contains("rmfstorf"));
}

TEST_CASE("rmf: PGSP lists the data sets D ASM lists, in its order", "[paging][rmf]") {
  RmfRun r({"machine.dasd.page_volumes=3", "system.paging.pageable_programs=true", "machine.dasd.plpa_volume=true", "machine.scm.card_pairs=1"}, {},
           "  - {at: 1ms, command: D ASM}\n");
  const std::string log = r.log;
  std::vector<std::string> asm_names;
  for (const std::string& l : lines_of(log))
    for (const char* type : {"PLPA ", "LOCAL ", "SCM "})
      if (l.find(std::string("   ") + type) != std::string::npos && l.find('%') != std::string::npos)
        asm_names.push_back(l.substr(l.rfind(' ') + 1));
  std::vector<std::string> pgsp_names;
  const json pgsp = json::parse(r.reports.at("rmfpgsp.json"));
  for (const json& d : pgsp["intervals"][0]["data_sets"])
    pgsp_names.push_back(d["data_set"]);
  INFO(log);
  CHECK(asm_names == std::vector<std::string>{"SYS1.PLPA.PAGE", "SYS1.LOCAL.PAGE01", "SYS1.LOCAL.PAGE02",
                                              "SYS1.LOCAL.PAGE03", "N/A"});
  CHECK(pgsp_names == asm_names);
}

TEST_CASE("rmf: the same run twice gives the same STORF and PGSP, byte for byte", "[paging][rmf]") {
  const std::vector<std::string> sets = {"machine.dasd.page_volumes=2", "machine.scm.card_pairs=1",
                                         "system.paging.scm=2M", "machine.istreams=2", "workload.terminals=2",
                                         "workload.messages=2", "workload.message_text=6 2"};
  RmfRun a(sets), b(sets);
  for (const char* f : {"rmfstorf.txt", "rmfstorf.json", "rmfpgsp.txt", "rmfpgsp.json"}) {
    INFO(f);
    CHECK(a.reports.at(f).size() > 500);
    CHECK(a.reports.at(f) == b.reports.at(f));
  }
}

TEST_CASE("rmf: the idle region pushed out by the night shows as the seed's PGOUT30L: IDLE frames, AUX SLOTS",
          "[paging][rmf]") {
  // configs/e3-transition.yaml's shape at f = 1024 (test_paging.cpp's E3 case, no dump):
  // the region (QREG) idles while the night (QNGT) grows and pushes it out.
  RmfRun r({"workload.prelude=QNGT", "workload.prelude_text=14 16 9 15 5", "workload.program=QOLT",
            "workload.message_text=100 20000", "system.paging.real_storage=16M", "system.heap64_size=64M",
            "system.heap31_size=64M", "machine.dasd.page_volumes=16", "machine.istreams=4",
            "workload.terminals=64", "workload.think_time=1s", "workload.messages=0", "workload.duration=40ms",
            "system.timeline=1ms"});
  const json storf = json::parse(r.reports.at("rmfstorf.json"));
  bool region_idle_out = false, night_active = false, region_active = false;
  for (const json& i : storf["intervals"])
    for (const json& j : i["jobs"]) {
      const uint64_t total = j["total_frames"], idle = j["idle_frames"], active = j["active_frames"];
      CHECK(j["working_set_frames"] == active);
      CHECK(j["fixed_frames"] == 0);
      CHECK(j["div_frames"] == 0);
      if (j["job"] == "QREG" && idle == total && total > 0 && j["aux_slots"] > 0) region_idle_out = true;
      if (j["job"] == "QREG" && active == total && total > 0) region_active = true;
      if (j["job"] == "QNGT" && active == total && total > 1000) night_active = true;
    }
  CHECK(region_idle_out);  // idle, and part of it on auxiliary storage
  CHECK(region_active);    // it ran: building its working set, or serving transactions
  CHECK(night_active);
  CHECK_THAT(r.reports.at("rmfstorf.txt"), Contains("QREG     S N/A  "));
}

TEST_CASE("rmf: STORF's FIXED is a job's page-fixed frames (a fixed heap), never stolen", "[paging][rmf]") {
  // The same shape with the region's heap page-fixed (system.ecb_heap.fixed): its 1 MB
  // segments stay resident whatever the night does, and STORF counts them as FIXED.
  RmfRun r({"workload.prelude=QNGT", "workload.prelude_text=8 4 9 15 5", "workload.program=QOLT",
            "workload.message_text=20 200", "system.paging.real_storage=16M", "system.heap64_size=64M",
            "system.heap31_size=64M", "machine.dasd.page_volumes=4", "machine.istreams=2",
            "workload.terminals=4", "workload.messages=20", "system.timeline=1ms", "system.ecb_heap.fixed=true"});
  REQUIRE(r.stats.fixed_pages > 0);
  const json storf = json::parse(r.reports.at("rmfstorf.json"));
  uint64_t last = 0;
  for (const json& i : storf["intervals"])
    for (const json& j : i["jobs"])
      if (j["job"] == "QREG") {
        const uint64_t fixed = j["fixed_frames"];
        CHECK(fixed >= last);  // the heap grows, fixed as it grows; nothing fixed goes
        CHECK(uint64_t(j["total_frames"]) >= fixed);
        last = fixed;
      }
  CHECK(last == r.stats.fixed_pages);  // the region is the only process with a heap
}
