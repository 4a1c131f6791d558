#include "os/ztrap_config.h"

namespace os {

namespace {
cfg::Section<ZtrapConfig> make_ztrap_section() {
  cfg::Section<ZtrapConfig> s;
  using T = cfg::ValueType;
  s.key_with({.path = "system.ztrap.ei",
         .type = T::Enum,
         .default_value = "off",
         .choices = {"off", "whole-run", "measurement"},
         .unit = "collection",
         .description = "ZTRAP EI software profiler (writes etim.txt and etim.json): whole-run is a ZTRAP EI START "
                        "at 0 with no STOP; measurement a START when the summary's measurement window opens (after "
                        "the warm-up), so that the profile and summary.txt count the same instructions. For another "
                        "window or a PROG= filter, use operator: entries instead.",
         .source = "off: sampling costs nothing while off, and most runs need no instruction report."},
         [](ZtrapConfig& z, const cfg::ConfigValue& v) {
           z.whole_run = std::get<std::string>(v) == "whole-run";
           z.measurement = std::get<std::string>(v) == "measurement";
         });
  s.key({.path = "system.ztrap.interval",
         .type = T::Cycles,
         .default_value = "4999",
         .min = "1",
         .max = "1000000000",
         .unit = "cycles",
         .description = "ZTRAP EI samples each I-stream's current instruction every this many cycles of its "
                        "clock (time not spent executing, such as idle, is not sampled).",
         .source = "estimate: about 1 us at 5.2 GHz, so a few-ms run on a few I-streams collects thousands of "
                   "samples (the document's csg-loop report has about 8,700); prime, so that a loop whose "
                   "period in cycles is shorter cannot alias with the sample points."}, &ZtrapConfig::interval);
  s.describe("system.ztrap", "ZTRAP EI, the software profiler: time-weighted samples of every I-stream's PSW.");
  s.key({.path = "system.console.poll_interval",
         .type = T::Duration,
         .default_value = "100us",
         .min = "1us",
         .max = "1s",
         .unit = "simulated time",
         .description = "With tpfemu run --console PORT: how often (in simulated time) the control program "
                        "takes the commands typed on the operator console; each acts at the time of the poll "
                        "that took it. Without a console, nothing is polled.",
         .source = "estimate: fine enough to place a ZTRAP EI window within a few per cent of a millisecond "
                   "run, coarse enough that polling costs little host time."}, &ZtrapConfig::console_poll_ns);
  s.describe("system.console", "The operator console (tpfemu run --console PORT).");
  return s;
}

}  // namespace

const cfg::Section<ZtrapConfig>& ztrap_section() {
  static const cfg::Section<ZtrapConfig> section = make_ztrap_section();
  return section;
}

}  // namespace os
