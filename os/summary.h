// What a run reports: the figures of summary.txt and summary.json, and
// `tpfemu compare`. Every figure comes from what the model executed.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "emu/cycle_cause.h"

namespace os {

struct IStreamSummary {
  uint64_t instructions = 0, cycles = 0, busy_cycles = 0, idle_cycles = 0;
  double utilization = 0;
  // The window's cycles by cause: they sum to `cycles`; all but idle sum to
  // `busy_cycles`, idle is `idle_cycles` (see window_cycles_by_cause).
  emu::CyclesByCause cycles_by_cause{};
};

// The figure the run's experiment is about, first in summary.txt: a subsystem's
// (os/subsystem.h SummaryHeadline, e.g. syslog lines a simulated second) or, when
// none applies, the messages a simulated second.
struct Headline {
  std::string key = "messages_per_second";  // in summary.json's "headline"
  std::string label = "messages per simulated second";
  std::string note = "measurement window";  // where the figure comes from, for people
  double value = 0;
  int digits = 3;
  // Why this figure: what made a subsystem's apply, or that none did, or system.headline.
  std::string reason = "no subsystem's figure applies to this run";
  std::vector<std::string> choices;         // the keys system.headline may name for this run
  std::string detail;                       // the figures read beside it (SummaryHeadline::detail)
  // The source document's figure for this configuration and key (configs/document-figures.json,
  // set by the layer that knows the configuration's name), and where it is from.
  std::optional<double> document;
  std::string document_source;
};

// Response times that fall in two well separated groups (e.g. messages that waited
// for an I-stream and messages that did not): each group's share and mean. p50 then
// lies in whichever group holds more than half, and moves with the mix.
struct ResponseGroups {
  bool bimodal = false;
  double low_share = 0, low_mean_ms = 0, high_share = 0, high_mean_ms = 0;
};
// The groups of sorted response times, from their density (a histogram smoothed with
// Silverman's bandwidth): bimodal when it has two peaks with a valley under half the
// lower one between them, and each side of the valley holds at least 10% of the
// messages; the groups are the two sides.
ResponseGroups response_groups(const std::vector<double>& sorted_ms);

struct RunSummary {
  std::string config;           // the configuration file
  Headline headline;
  ResponseGroups response_groups;
  // Why the run stopped before the workload's end ("" when it reached it); its figures
  // cover the run until then.
  std::string ended_early;
  // A subsystem stopped all work for good (a stand-alone dump): no message need complete.
  bool system_stopped = false;
  uint64_t messages = 0;        // completed in the measurement window (after warm-up)
  double simulated_seconds = 0; // length of the measurement window
  double messages_per_second = 0;
  double ms_per_message = 0;    // CPU (busy) milliseconds per message, all I-streams
  double response_mean_ms = 0, response_p50_ms = 0, response_p90_ms = 0, response_p99_ms = 0;
  double cpu_utilization = 0;   // busy over elapsed, all I-streams
  uint64_t instructions = 0, cycles = 0;  // in the window, summed over all I-streams
  std::vector<IStreamSummary> istreams;
  // False for a summary.json written before cycles_by_cause existed (compare shows "-").
  bool has_cycles_by_cause = true;
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
    bool fails_run = false;  // SummaryCounter::fails_run
  };
  std::vector<ExtraCounter> extra_counters;
  // What a reader of the figures must know (System::add_summary_note): summary.txt's
  // Notes, summary.json's "notes"; absent when there is none.
  std::vector<std::string> notes;
  // A counter of the control_program block by its JSON key (the control program's own
  // or a subsystem's); 0 if there is none.
  uint64_t counter(const std::string& key) const;
};

// One I-stream's cycles by cause over the measurement window, from its counters when
// the window opened and when it closed, fitted to the window's figures so that they
// sum exactly: all but idle to `busy_cycles`, idle to `idle_cycles`.
//   The clocks of the I-streams do not stop at the window's edges (each runs up to a
//   quantum apart, and on past the last completion), so the counter deltas can hold
//   more busy cycles than the window: the run clamps busy_cycles to the window. The
//   busy causes are then scaled down to it in proportion (largest remainder, ties to
//   the earlier cause: deterministic). Idle is the window's remainder, as idle_cycles
//   is, not the idle counter's delta (that delta runs to the clock, not to the edge).
emu::CyclesByCause window_cycles_by_cause(const emu::CyclesByCause& at_open, const emu::CyclesByCause& at_close,
                                          uint64_t busy_cycles, uint64_t idle_cycles);
// The whole machine's: the sum over the I-streams.
emu::CyclesByCause total_cycles_by_cause(const RunSummary& s);

void write_summary_text(std::ostream& out, const RunSummary& s);
void write_summary_json(std::ostream& out, const RunSummary& s);

}  // namespace os
