// One experiment run's reports, read back from the directory `tpfemu run --out` wrote.
// The runs are ctest fixtures (tests/experiments/CMakeLists.txt, "run:NAME"): each
// is simulated once, before the cases that need it, and its reports are in
// TPFEMU_EXPERIMENT_RUNS/NAME. A missing report fails the case (REQUIRE), never
// skips it: run the case through ctest, which runs its fixtures first.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/summary_read.h"
#include "emu/profiler.h"
#include "os/summary.h"

struct RunReports {
  std::string dir;
  std::string summary_json, etim_json, dumps;  // as written, for byte comparisons and INFO
  os::RunSummary s;
  nlohmann::json locks, heap;  // locks.json, heap.json (null when the run did not use them: no file)
  std::vector<emu::ProfileRow> etim_rows;  // etim.json's rows (empty when ZTRAP EI did not run)

  explicit RunReports(const std::string& name) : dir(std::string(TPFEMU_EXPERIMENT_RUNS) + "/" + name) {
    summary_json = read("summary.json");
    s = app::read_summary_json(dir + "/summary.json");
    dumps = read("dumps.txt");
    if (std::ifstream(dir + "/locks.json")) locks = nlohmann::json::parse(read("locks.json"));
    if (std::ifstream(dir + "/heap.json")) heap = nlohmann::json::parse(read("heap.json"));
    if (std::ifstream(dir + "/etim.json")) {
      etim_json = read("etim.json");
      const auto etim = nlohmann::json::parse(etim_json);
      // The bands count ZTRAP EI samples: a report of executions would not do.
      REQUIRE(etim.at("count_is") == "samples");
      for (const auto& r : etim.at("rows")) {
        emu::ProfileRow row;
        row.prog = r.at("prog"), row.disp = r.at("disp"), row.address = r.at("address"), row.inst = r.at("inst");
        row.samples = r.at("count"), row.count = r.at("executions"), row.cycles = r.at("cycles");
        etim_rows.push_back(row);
      }
    }
  }

  std::string read(const std::string& file) const {
    std::ifstream in(dir + "/" + file, std::ios::binary);
    INFO(dir << "/" << file << " is missing; the run's fixture, ctest test run:" << dir.substr(dir.rfind('/') + 1)
              << ", writes it");
    REQUIRE(bool(in));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
};
