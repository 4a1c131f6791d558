#include "trace/trace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

#include "report/report_json.h"

namespace trace {
namespace {

constexpr int kPid = 1;  // the machine: one process, its I-streams its threads

std::string system_error(const std::string& path, const char* what) {
  return fmt::format("cannot {} {}: {}", what, path, errno ? std::strerror(errno) : "write failed");
}

}  // namespace

TraceWriter::TraceWriter(Settings settings) : settings_(std::move(settings)), tracks_(settings_.istreams) {
  errno = 0;
  out_.open(settings_.path, std::ios::binary | std::ios::trunc);
  if (!out_) throw std::runtime_error(system_error(settings_.path, "write the trace file"));
  // Metadata first (not counted against the cap): the machine and its I-streams, in order.
  out_ << "{\"traceEvents\": [\n";
  out_ << fmt::format(R"({{"name": "process_name", "ph": "M", "pid": {}, "tid": 0, "args": {{"name": {}}}}})", kPid,
                      report_json::inline_text("tpfemu " + settings_.label));
  for (unsigned i = 0; i < settings_.istreams; ++i) {
    out_ << fmt::format(
        ",\n{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": {{\"name\": \"I-stream {}\"}}}}",
        kPid, i, i);
    out_ << fmt::format(
        ",\n{{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": {{\"sort_index\": {}}}}}",
        kPid, i, i);
  }
}

// Whole nanoseconds of simulated time: a slice's end and its nested slices' are rounded
// the same way, so that rounding never lets a child stick out of its parent.
uint64_t TraceWriter::ns(uint64_t cycles) const { return uint64_t(double(cycles) / settings_.clock_ghz); }

std::string TraceWriter::us(uint64_t cycles) const {
  const uint64_t n = ns(cycles);
  return fmt::format("{}.{:03}", n / 1000, n % 1000);
}

std::string TraceWriter::us_between(uint64_t from, uint64_t to) const {
  const uint64_t a = ns(from), b = ns(std::max(from, to));
  return fmt::format("{}.{:03}", (b - a) / 1000, (b - a) % 1000);
}

const std::string& TraceWriter::quoted(std::string_view text) {
  auto it = quoted_.find(text);
  if (it == quoted_.end()) it = quoted_.emplace(std::string(text), report_json::inline_text(std::string(text))).first;
  return it->second;
}

bool TraceWriter::add(uint64_t cycles, const std::string& body) {
  if (capped_) return false;
  if (events_ >= settings_.max_events) {
    capped_ = true, capped_at_ = cycles;
    cap_note_ = fmt::format("trace capped at {} events at simulated time {:.9f} s; raise system.trace.max_events",
                            events_, double(ns(cycles)) / 1e9);
    return false;
  }
  ++events_;
  out_ << ",\n{" << body << '}';
  return true;
}

// ---- the I-streams' tracks --------------------------------------------------------------

void TraceWriter::write_dispatch(unsigned i, const Dispatch& d, uint64_t instructions_now) {
  add(d.begin, fmt::format(R"("name": {}, "cat": "ecb", "ph": "X", "pid": {}, "tid": {}, "ts": {}, "dur": {}, )"
                           R"("args": {{"ecb": {}, "instructions": {}, "cycles": {}}})",
                           d.program, kPid, i, us(d.begin), us_between(d.begin, d.end), d.ecb,
                           instructions_now - d.instructions_at_begin, d.end - d.begin));
  for (const Svc& s : d.svcs)
    add(s.begin, fmt::format(R"("name": {}, "cat": "svc", "ph": "X", "pid": {}, "tid": {}, "ts": {}, "dur": {}, )"
                             R"("args": {{"ecb": {}, "cycles": {}}})",
                             quoted(s.name), kPid, i, us(s.begin), us_between(s.begin, s.end), d.ecb,
                             s.end - s.begin));
}

// A saved ECB's dispatch is written once the instruction counter is current.
void TraceWriter::close_dispatch(unsigned i, uint64_t instructions_now) {
  Track& t = tracks_[i];
  if (!t.dispatch || !t.dispatch->ended) return;
  write_dispatch(i, *t.dispatch, instructions_now);
  t.dispatch.reset();
}

// The CPU loop takes new work (or idles): an ECB that left without being saved (none
// should) left when the I-stream looked for work, so that every dispatch has its slice.
void TraceWriter::replace_dispatch(unsigned i) {
  Track& t = tracks_[i];
  if (t.dispatch && !t.dispatch->ended) t.dispatch->ended = true, t.dispatch->end = std::max(t.dispatch->begin, t.sought_at);
  close_dispatch(i, t.instructions);
}

void TraceWriter::close_idle(unsigned i, uint64_t end) {
  Track& t = tracks_[i];
  if (!t.idle_since) return;
  const uint64_t begin = *t.idle_since;
  add(begin, fmt::format(R"("name": "{}", "cat": "idle", "ph": "X", "pid": {}, "tid": {}, "ts": {}, "dur": {})",
                         t.idle_page_wait ? "page wait" : "idle", kPid, i, us(begin), us_between(begin, end)));
  t.idle_since.reset();
}

void TraceWriter::seeking(unsigned i, uint64_t now, uint64_t instructions) {
  Track& t = tracks_[i];
  t.sought_at = now, t.instructions = instructions;
  close_dispatch(i, instructions);
}

void TraceWriter::dispatched(unsigned i, const os::Ecb& e, uint64_t now) {
  Track& t = tracks_[i];
  replace_dispatch(i);  // sliced (TimeUp): saved since seeking, no instruction ran since
  close_idle(i, t.sought_at);         // idle until woken
  t.dispatch = Dispatch{.ecb = e.id, .begin = now, .instructions_at_begin = t.instructions,
                        .program = quoted(e.program)};
}

void TraceWriter::undispatched(unsigned i, const os::Ecb& e, uint64_t now) {
  Track& t = tracks_[i];
  if (!t.dispatch || t.dispatch->ended || t.dispatch->ecb != e.id) return;
  t.dispatch->ended = true, t.dispatch->end = now;
}

// Woken with nothing to take (another I-stream took it), it stays idle: one slice,
// unless the cause changed.
void TraceWriter::idle(unsigned i, uint64_t now, bool page_wait) {
  Track& t = tracks_[i];
  replace_dispatch(i);
  if (t.idle_since && t.idle_page_wait == page_wait) return;
  close_idle(i, t.sought_at);
  t.idle_since = now, t.idle_page_wait = page_wait;
}

void TraceWriter::svc(unsigned i, uint64_t ecb, std::string_view name, uint64_t begin, uint64_t end) {
  Track& t = tracks_[i];
  if (t.dispatch && t.dispatch->ecb == ecb) {
    // A handler that gave up control returns after the dispatch ended: cut at its end.
    const uint64_t to = t.dispatch->ended ? std::min(end, t.dispatch->end) : end;
    t.dispatch->svcs.push_back({std::string(name), begin, std::max(begin, to)});
    return;
  }
  add(begin, fmt::format(R"("name": {}, "cat": "svc", "ph": "i", "s": "t", "pid": {}, "tid": {}, "ts": {}, )"
                         R"("args": {{"ecb": {}, "cycles": {}}})",
                         quoted(name), kPid, i, us(begin), ecb, end - begin));
}

// ---- page waits and counters -------------------------------------------------------------

void TraceWriter::page_wait_began(const os::Ecb& e, uint64_t now) {
  add(now, fmt::format(R"("name": "page wait", "cat": "page_wait", "ph": "b", "id": {}, "pid": {}, "tid": {}, )"
                       R"("ts": {}, "args": {{"ecb": {}, "program": {}}})",
                       e.id, kPid, e.home, us(now), e.id, quoted(e.program)));
}

void TraceWriter::page_wait_ended(const os::Ecb& e, uint64_t now) {
  add(now, fmt::format(R"("name": "page wait", "cat": "page_wait", "ph": "e", "id": {}, "pid": {}, "tid": {}, )"
                       R"("ts": {})",
                       e.id, kPid, e.home, us(now)));
}

// A row measures the interval that ends at `seconds`: its values hold from the row before.
void TraceWriter::timeline_row(double seconds, const std::vector<std::string>& keys,
                               const std::vector<double>& values) {
  const uint64_t from = uint64_t(std::llround(last_row_s_ * settings_.clock_ghz * 1e9));
  last_row_s_ = seconds;
  for (size_t k = 0; k < keys.size() && k < values.size(); ++k) {
    if (!std::isfinite(values[k])) continue;
    add(from, fmt::format(R"("name": {}, "cat": "timeline", "ph": "C", "pid": {}, "ts": {}, "args": {{"value": {}}})",
                          quoted(keys[k]), kPid, us(from), report_json::inline_text(values[k])));
  }
}

void TraceWriter::run_ended(uint64_t end, const std::vector<uint64_t>& clocks,
                            const std::vector<uint64_t>& instructions) {
  end_cycles_ = end;
  for (unsigned i = 0; i < tracks_.size() && i < clocks.size(); ++i) {
    Track& t = tracks_[i];
    if (t.dispatch && !t.dispatch->ended) t.dispatch->ended = true, t.dispatch->end = clocks[i];
    close_dispatch(i, instructions[i]);
    if (t.idle_since) close_idle(i, std::max(*t.idle_since, end));  // an idle I-stream's clock stays behind
  }
}

std::string TraceWriter::finish() {
  using report_json::Json;
  if (capped_) {  // the last event: where and why the trace stops
    out_ << fmt::format(",\n{{\"name\": \"trace capped\", \"cat\": \"trace\", \"ph\": \"i\", \"s\": \"g\", \"pid\": {}, "
                        "\"tid\": 0, \"ts\": {}, \"args\": {{\"note\": {}}}}}",
                        kPid, us(capped_at_), report_json::inline_text(cap_note_));
  }
  Json other = {{"generator", "tpfemu run --trace"},
                {"configuration", settings_.label},
                {"time_unit", "ts and dur are microseconds of simulated time"},
                {"clock_ghz", settings_.clock_ghz},
                {"istreams", settings_.istreams},
                {"simulated_us", report_json::fixed(double(ns(end_cycles_)) / 1e3, 3)},
                {"events", events_},
                {"max_events", settings_.max_events},
                {"capped", capped_}};
  if (capped_) other["note"] = cap_note_;
  out_ << "\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": " << report_json::inline_text(other) << "\n}\n";
  errno = 0;
  out_.flush();
  const bool ok = bool(out_);
  out_.close();
  return ok && !out_.fail() ? "" : system_error(settings_.path, "write");
}

}  // namespace trace
