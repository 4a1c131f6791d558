// The run's events as a Trace Event file (the JSON object form Perfetto and Chrome's
// trace viewer open): `tpfemu run --trace FILE`, or system.trace.file.
//
// One process (the machine) with one track per I-stream: each ECB's dispatches as
// complete events named by its program (args: the ECB's number, the instructions and
// cycles of that dispatch), its SVCs nested inside them, and the idle time between
// ("idle", or "page wait" while an ECB of that I-stream waits for a page-in). Page
// waits themselves are async slices, one per ECB and wait. The timeline's columns
// (system.timeline) are counters, each value held over the interval it was measured in.
// Every timestamp is simulated time in microseconds: the same run writes the same bytes.
//
// An ECB's dispatch is written when the I-stream next looks for work, with its SVCs
// after it, so that each track's events are in time order in the file. After
// system.trace.max_events events the writer adds no more: otherData, a last instant
// event and standard error say where it stopped.
#pragma once
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "os/dispatch_observer.h"

namespace trace {

class TraceWriter : public os::DispatchObserver {
 public:
  struct Settings {
    std::string path;         // the file
    uint64_t max_events = 0;  // system.trace.max_events
    double clock_ghz = 1;     // cycles to simulated time
    unsigned istreams = 1;
    std::string label;        // the machine's track name: the configuration run
  };
  // Opens the file and writes its head; std::runtime_error naming it if it cannot.
  explicit TraceWriter(Settings settings);

  // os::DispatchObserver
  void seeking(unsigned istream, uint64_t now, uint64_t instructions) override;
  void dispatched(unsigned istream, const os::Ecb& e, uint64_t now) override;
  void undispatched(unsigned istream, const os::Ecb& e, uint64_t now) override;
  void idle(unsigned istream, uint64_t now, bool page_wait) override;
  void svc(unsigned istream, uint64_t ecb, std::string_view name, uint64_t begin, uint64_t end) override;
  void page_wait_began(const os::Ecb& e, uint64_t now) override;
  void page_wait_ended(const os::Ecb& e, uint64_t now) override;
  void timeline_row(double seconds, const std::vector<std::string>& keys, const std::vector<double>& values) override;
  void run_ended(uint64_t end, const std::vector<uint64_t>& clocks, const std::vector<uint64_t>& instructions) override;

  // Writes the tail (otherData) and closes the file: "" if it was written, else the
  // file and the system's reason.
  std::string finish();
  uint64_t events() const { return events_; }
  // "" unless the cap was reached: "trace capped at N events at simulated time T; ...".
  const std::string& cap_note() const { return cap_note_; }

 private:
  struct Svc {
    std::string name;
    uint64_t begin, end;
  };
  struct Dispatch {  // an ECB on its I-stream, from its load to its save
    uint64_t ecb = 0, begin = 0, end = 0, instructions_at_begin = 0;
    std::string program{};  // as JSON text
    bool ended = false;
    std::vector<Svc> svcs{};
  };
  struct Track {  // one I-stream
    std::optional<Dispatch> dispatch;
    std::optional<uint64_t> idle_since;
    bool idle_page_wait = false;
    uint64_t sought_at = 0, instructions = 0;  // at the last seeking()
  };

  std::string us(uint64_t cycles) const;         // a timestamp: microseconds, 3 decimals
  std::string us_between(uint64_t from, uint64_t to) const;
  uint64_t ns(uint64_t cycles) const;
  const std::string& quoted(std::string_view text);  // as a JSON string (cached: programs, SVCs)
  // Adds one event (its JSON without the braces) at `cycles`; false once capped.
  bool add(uint64_t cycles, const std::string& body);
  void write_dispatch(unsigned istream, const Dispatch& d, uint64_t instructions_now);
  void close_dispatch(unsigned istream, uint64_t instructions_now);  // a saved ECB's, if any
  void replace_dispatch(unsigned istream);  // before new work or idle: the last dispatch written
  void close_idle(unsigned istream, uint64_t end);

  Settings settings_;
  std::ofstream out_;
  std::vector<Track> tracks_;
  std::map<std::string, std::string, std::less<>> quoted_;
  uint64_t events_ = 0, end_cycles_ = 0;
  double last_row_s_ = 0;
  std::string cap_note_;
  uint64_t capped_at_ = 0;
  bool capped_ = false;
};

}  // namespace trace
