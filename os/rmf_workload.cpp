#include "os/rmf_workload.h"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

#include "emu/machine.h"
#include "os/run_config.h"
#include "os/simulated_time.h"
#include "report/report_json.h"

namespace os {
namespace {

std::string bucket_name(size_t k) {
  const auto bound = [](uint64_t us) { return us >= 1000 ? fmt::format("{}ms", us / 1000) : fmt::format("{}us", us); };
  const auto& b = RmfWorkloadActivity::kBucketsUs;
  return k < b.size() ? "<=" + bound(b[k]) : ">" + bound(b.back());
}

}  // namespace

void RmfWorkloadActivity::install(System& system) {
  system_ = &system;
  system.add_report({.name = "rmfwlm.txt", .write = [this](std::ostream& o) { write_text(o); }});
  system.add_report({.name = "rmfwlm.json", .write = [this](std::ostream& o) { write_json(o); }});
  system.add_report({.name = "smf30.txt", .write = [this](std::ostream& o) { write_smf30_text(o); }});
  system.add_report({.name = "smf30.json", .write = [this](std::ostream& o) { write_smf30_json(o); }});
}

double RmfWorkloadActivity::ghz() const { return system_->machine().config().clock_ghz; }

void RmfWorkloadActivity::ecb_ending(Ecb& e, uint64_t now) {
  Program& p = programs_[e.program];
  p.cpu_cycles += e.cpu_cycles;
  if (e.thread) {
    ++p.threads;
    return;
  }
  ++p.transactions;
  const uint64_t response = now > e.created ? now - e.created : 0;
  p.response_cycles += response;
  p.response_max = std::max(p.response_max, response);
  const double us = double(response) / ghz() / 1e3;
  size_t k = 0;
  while (k < kBucketsUs.size() && us > double(kBucketsUs[k])) ++k;
  ++p.buckets[k];
}

void RmfWorkloadActivity::write_text(std::ostream& out) const {
  const Step s = step();
  const double seconds = double(s.elapsed) / ghz() / 1e9;
  out << "                                   W O R K L O A D   A C T I V I T Y\n\n";
  out << fmt::format("           z/TPF (tpfemu)          SYSTEM ID N/A          DATE N/A            INTERVAL {}\n",
                     simulated_clock(s.elapsed, ghz(), '.'));
  out << "                                   REPORT BY: ECB PROGRAM (a report class each); every ECB counted, "
         "none sampled\n\n";
  out << "Response time: simulated time from the ECB's creation to its exit. CPU: its ECBs' and threads'.\n\n";
  constexpr const char* kRow = "{:<10} {:>8} {:>10} {:>8} {:>12} {:>12} {:>14} {:>12}\n";
  out << fmt::format(kRow, "PROGRAM", "ENDED", "ENDED/SEC", "THREADS", "RESP MEAN", "RESP MAX", "CPU/TRANS", "CPU TOTAL");
  out << fmt::format(kRow, "", "", "", "", "(ms)", "(ms)", "(us)", "(ms)");
  for (const auto& [name, p] : programs_) {
    const double ms = 1e6 * ghz();  // cycles a millisecond
    out << fmt::format(kRow, name, p.transactions,
                       fmt::format("{:.2f}", seconds > 0 ? double(p.transactions) / seconds : 0.0), p.threads,
                       p.transactions ? fmt::format("{:.3f}", double(p.response_cycles) / double(p.transactions) / ms) : "-",
                       p.transactions ? fmt::format("{:.3f}", double(p.response_max) / ms) : "-",
                       p.transactions ? fmt::format("{:.3f}", double(p.cpu_cycles) / double(p.transactions) / ms * 1e3) : "-",
                       fmt::format("{:.3f}", double(p.cpu_cycles) / ms));
  }
  out << "\n----------- RESPONSE TIME DISTRIBUTION (transactions ending within) -----------\n";
  std::string head = fmt::format("{:<10}", "PROGRAM");
  for (size_t k = 0; k <= kBucketsUs.size(); ++k) head += fmt::format(" {:>8}", bucket_name(k));
  out << head << "\n";
  for (const auto& [name, p] : programs_) {
    std::string row = fmt::format("{:<10}", name);
    for (uint64_t n : p.buckets) row += fmt::format(" {:>8}", n);
    out << row << "\n";
  }
}

void RmfWorkloadActivity::write_json(std::ostream& out) const {
  using report_json::Json, report_json::fixed;
  const double ms = 1e6 * ghz();
  Json rows = Json::array();
  for (const auto& [name, p] : programs_) {
    Json buckets = Json::array();
    for (size_t k = 0; k < p.buckets.size(); ++k) buckets.push_back({{"within", bucket_name(k)}, {"transactions", p.buckets[k]}});
    rows.push_back({{"program", name},
                    {"transactions", p.transactions},
                    {"threads", p.threads},
                    {"response_mean_ms", p.transactions ? fixed(double(p.response_cycles) / double(p.transactions) / ms, 6) : Json()},
                    {"response_max_ms", fixed(double(p.response_max) / ms, 6)},
                    {"cpu_ms", fixed(double(p.cpu_cycles) / ms, 6)},
                    {"cpu_per_transaction_us",
                     p.transactions ? fixed(double(p.cpu_cycles) / double(p.transactions) / ms * 1e3, 3) : Json()},
                    {"response_distribution", buckets}});
  }
  report_json::write(out, {{"report", "RMF Workload Activity (by ECB program, whole run)"},
                           {"response_time", "simulated time from the ECB's creation to its exit"},
                           {"elapsed_s", fixed(double(step().elapsed) / ghz() / 1e9, 6)},
                           {"programs", rows}},
                     {.one_per_line = {"programs"}});
}

RmfWorkloadActivity::Step RmfWorkloadActivity::step() const {
  emu::Machine& m = system_->machine();
  Step s;
  s.elapsed = m.elapsed_cycles();
  for (unsigned k = 0; k < m.istreams(); ++k) s.cpu += m.counters(k).busy_cycles, s.instructions += m.counters(k).instructions;
  s.excps = m.io().started();
  for (const auto& [name, p] : programs_) s.ecbs += p.transactions + p.threads;
  return s;
}

// SMF30's fields by their names where the record has them (z/OS MVS System Management
// Facilities, record type 30); a field the model has no figure for says so.
void RmfWorkloadActivity::write_smf30_text(std::ostream& out) const {
  const Step s = step();
  const double g = ghz();
  const RunConfig& c = system_->config();
  const auto seconds = [g](uint64_t cycles) { return fmt::format("{:.6f} s", double(cycles) / g / 1e9); };
  out << "SMF RECORD TYPE 30 SUBTYPE 4 (STEP TOTAL): the run as one job step\n\n";
  constexpr const char* kLine = "{:<10} {:<34} {}\n";
  out << fmt::format(kLine, "SMF30JBN", "job name", c.workload.program);
  out << fmt::format(kLine, "SMF30STM", "step name", "RUN");
  out << fmt::format(kLine, "SMF30PGM", "program", c.workload.program);
  out << fmt::format(kLine, "SMF30SIT", "step start (simulated)", simulated_clock(0, g, '.'));
  out << fmt::format(kLine, "", "step end (simulated)", simulated_clock(s.elapsed, g, '.'));
  out << fmt::format(kLine, "", "elapsed", seconds(s.elapsed));
  out << fmt::format(kLine, "SMF30CPT", "CPU time (all I-streams busy)", seconds(s.cpu));
  out << fmt::format(kLine, "SMF30CPS", "CPU time under SRBs", "N/A (the model has no SRBs)");
  out << fmt::format(kLine, "SMF30TEP", "EXCPs (I/O started)", s.excps);
  out << fmt::format(kLine, "SMF30SRV", "service units", "N/A (no SRM service-unit rate for a modelled CPU)");
  out << fmt::format(kLine, "", "instructions", s.instructions);
  out << fmt::format(kLine, "", "ECBs and threads ended", s.ecbs);
}

void RmfWorkloadActivity::write_smf30_json(std::ostream& out) const {
  using report_json::Json, report_json::fixed;
  const Step s = step();
  const double g = ghz();
  report_json::write(out, {{"report", "SMF type 30 subtype 4 (step total): the run as one job step"},
                           {"job", system_->config().workload.program},
                           {"step", "RUN"},
                           {"elapsed_s", fixed(double(s.elapsed) / g / 1e9, 6)},
                           {"cpu_s", fixed(double(s.cpu) / g / 1e9, 6)},
                           {"excps", s.excps},
                           {"instructions", s.instructions},
                           {"ecbs_ended", s.ecbs},
                           {"not_modelled", {"srb_cpu", "service_units"}}});
}

}  // namespace os
