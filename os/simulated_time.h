// Simulated time as the reports print a time of day: hh.mm.ss.fff (RMF's TIME,
// STORF's Time) or hh:mm:ss.fff, counted from the run's start (the model has no date
// and never reads the host clock).
#pragma once
#include <cstdint>
#include <fmt/format.h>
#include <string>

namespace os {

// Milliseconds from the run's start as hh<sep>mm<sep>ss.fff.
inline std::string clock_text(uint64_t ms, char sep) {
  return fmt::format("{:02}{}{:02}{}{:02}.{:03}", ms / 3600000, sep, ms / 60000 % 60, sep, ms / 1000 % 60, ms % 1000);
}

inline std::string simulated_clock(uint64_t cycles, double ghz, char sep) {
  return clock_text(uint64_t(double(cycles) / ghz / 1e6), sep);
}

// The time in a console message's header (IEE174I, IEE200I, IEA045I ...): z/OS prints
// hh.mm.ss of the time of day; a run lasts milliseconds of simulated time, so the
// milliseconds follow (hh.mm.ss.fff), counted from the run's start as everywhere here.
inline std::string console_time(uint64_t ns) { return clock_text(ns / 1000000, '.'); }

}  // namespace os
