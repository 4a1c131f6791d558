// What a run reports: the figures of summary.txt and summary.json, and
// `tpfemu compare`. Every figure comes from what the model executed.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace os {

struct IStreamSummary {
  uint64_t instructions = 0, cycles = 0, busy_cycles = 0, idle_cycles = 0;
  double utilization = 0;
};

struct RunSummary {
  std::string config;           // the configuration file
  uint64_t messages = 0;        // completed in the measurement window (after warm-up)
  double simulated_seconds = 0; // length of the measurement window
  double messages_per_second = 0;
  double ms_per_message = 0;    // CPU (busy) milliseconds per message, all I-streams
  double response_mean_ms = 0, response_p50_ms = 0, response_p90_ms = 0, response_p99_ms = 0;
  double cpu_utilization = 0;   // busy over elapsed, all I-streams
  uint64_t instructions = 0, cycles = 0;  // in the window, summed over all I-streams
  std::vector<IStreamSummary> istreams;
  // Control program counters (whole run).
  uint64_t ecbs_created = 0, ecbs_exited = 0, ecb_timeouts = 0, ecb_program_checks = 0;
  uint64_t svcs = 0, time_slices = 0, dispatches = 0;
  uint64_t word_waits = 0;            // ECBs that gave up control waiting on a storage word (locks)
  uint64_t static_page_copies = 0;    // writable image pages copied into processes
  uint64_t frames_in_use_at_end = 0;  // 4 KB frames still allocated when the run ended
  // The machine's coherence traffic (whole run).
  uint64_t line_transfers = 0, invalidations = 0;
  // Subsystems' counters (os/subsystem.h SummaryCounter), each shown after the counter
  // named `after` (or at the end), e.g. the ECB heap's ecb_heap_errors.
  struct ExtraCounter {
    std::string key, label, after;
    uint64_t value = 0;
  };
  std::vector<ExtraCounter> extra_counters;
  // A counter of the control_program block by its JSON key (the control program's own
  // or a subsystem's); 0 if there is none.
  uint64_t counter(const std::string& key) const;
};

void write_summary_text(std::ostream& out, const RunSummary& s);
void write_summary_json(std::ostream& out, const RunSummary& s);
// Reads a summary.json back (for compare); throws std::runtime_error naming the file.
RunSummary read_summary_json(const std::string& path);
// Side by side with the ratio B/A of each figure.
void write_comparison(std::ostream& out, const std::string& name_a, const RunSummary& a,
                      const std::string& name_b, const RunSummary& b);

}  // namespace os
