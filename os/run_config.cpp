// The `system:` and `workload:` sections: every field of SystemConfig and
// WorkloadConfig declared once, with its default, unit, range, description and the
// source or reasoning of its default. The run schema is machine + system + workload.
//
// Sources used below:
//  kIssue  the control program issue (issue 4): time slice default 1 ms; a CTL-10-style
//          CPU limit per ECB; SVC entry/exit and host services each charge a cycle cost.
//  kSeed0  ECB heap performance enhancements, APAR PJ47265 (TPF Users Group 2025,
//          seed 000, docs/e1-tls.md): replaced SVCs because they are "costly"; its TLS driver
//          ran 14,772 msg/s at 0.068 ms per message.
//  kTmslc  z/TPF tmslc(): an ECB enabled for time slicing loses control each time it
//          reaches its run time, so other work gets the I-stream.
// IBM publishes no path lengths for z/TPF's SVC first-level handler, ECB creation or
// the CPU loop; those defaults are estimates, marked so, with the reasoning.
//
// Durations (time_slice, timeout, think_time, duration) use the generic duration unit
// of config/config.h: 1ms, 500us, 2s, 0.5ms, or a bare 0.
#include "os/run_config.h"

#include "os/guest_dir.h"

#include <fmt/format.h>

#include "config/config_section.h"

#include <string>

namespace os {

namespace {

const std::string kIssue = "issue 4 (the control program)";
const std::string kSeed0 = "seed 000 (APAR PJ47265, TPF Users Group 2025)";
const std::string kTmslc = "z/TPF tmslc() ECB time slice facility";

constexpr uint64_t kPage = 4096;

void check_pages(const cfg::Config& c, const char* key) {
  if (c.get_uint(key) % kPage != 0)
    throw c.error({key}, fmt::format("{} is not a whole number of 4K pages", c.text(key)));
}

bool valid_program_name(const std::string& s) {
  if (s.empty() || s.size() > 32) return false;
  for (char ch : s)
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
      return false;
  return true;
}

// Every key of the control program's own `system:` settings and the SystemConfig field it lands in
// (the subsystems' keys, system.<name>.*, follow them: see run_schema).
cfg::Section<SystemConfig> make_system_section() {
  cfg::Section<SystemConfig> s;
  using T = cfg::ValueType;
  s.key_from({.path = "system.image",
         .type = T::Path,
         .default_value = "tpf_apps.elf",
         .unit = "path",
         .description = "Guest ELF image holding the application programs. A relative path is looked for in the "
                        "YAML file's folder (for --set, the current directory), then in tpfemu's guest image "
                        "folder (configs/README.md).",
         .source = "the image the build makes (build/guest/, or share/tpfemu/guest/ once installed)."},
             [](SystemConfig& s, const cfg::Config& c, const std::string& path) {
               s.image = c.get_path(path, guest_dir());
             });
  s.key({.path = "system.time_slice",
         .type = T::Duration,
         .default_value = "1ms",
         .min = "1us",
         .max = "10s",
         .unit = "CPU time",
         .description = "An ECB that runs this long without giving up control is time-sliced: put back on the "
                        "ready list so other work gets the I-stream.",
         .source = "1 ms, as " + kIssue + " asks; the mechanism is the " + kTmslc + "."},
         &SystemConfig::time_slice_ms);
  s.key({.path = "system.timeout",
         .type = T::Duration,
         .default_value = "500ms",
         .min = "1us",
         .max = "1000s",
         .unit = "CPU time",
         .description = "CPU time an ECB may use in all; past it the ECB is ended with a dump-style report, like "
                        "z/TPF's CTL-10 program timeout, and the rest of the system keeps running.",
         .source = "estimate: 500 ms of CPU is thousands of times a normal message's path length, 0.068 ms "
                   "per message in " + kSeed0 + "; only a looping program reaches it."}, &SystemConfig::timeout_ms);
  s.key({.path = "system.svc_cost",
         .type = T::Cycles,
         .default_value = "150",
         .min = "0",
         .max = "1000000",
         .unit = "cycles",
         .description = "Cycles of SVC entry and exit that every service call pays: the SVC interruption's PSW "
                        "swap, the first-level handler saving and restoring registers, dispatch by SVC number, "
                        "and the return by LPSWE.",
         .source = "estimate: a PSW swap through the lowcore plus a save/restore path of about 100 instructions; "
                   "it must be material, since " + kSeed0 + " replaced an SVC with a lock because SVCs are "
                   "costly. IBM publishes no z/TPF SVC path length."}, &SystemConfig::svc_cost);
  s.key({.path = "system.service_cost",
         .type = T::Cycles,
         .default_value = "400",
         .min = "0",
         .max = "1000000",
         .unit = "cycles",
         .description = "Cycles of a host-implemented service's own work (enter/back, defer, storage, wait/post, "
                        "log), charged on top of system.svc_cost.",
         .source = "estimate: a few hundred instructions of list and table updates per service; the services "
                   "the documents measure (heap, lock) run as guest code and cost what they execute."},
         &SystemConfig::service_cost);
  s.key({.path = "system.create_cost",
         .type = T::Cycles,
         .default_value = "2000",
         .min = "0",
         .max = "10000000",
         .unit = "cycles",
         .description = "Cycles to create an ECB: its address space (EVM), ECB block and input message copy, "
                        "on top of system.svc_cost when another ECB creates it.",
         .source = "estimate: building translation tables and initializing the ECB block is several times a "
                   "simple service (system.service_cost)."}, &SystemConfig::create_cost);
  s.key({.path = "system.exit_cost",
         .type = T::Cycles,
         .default_value = "1000",
         .min = "0",
         .max = "10000000",
         .unit = "cycles",
         .description = "Cycles of ECB exit: returning its storage and tearing down its address space.",
         .source = "estimate: about half of system.create_cost (frames go back to their pools; no tables built)."},
         &SystemConfig::exit_cost);
  s.key({.path = "system.dispatch_cost",
         .type = T::Cycles,
         .default_value = "300",
         .min = "0",
         .max = "1000000",
         .unit = "cycles",
         .description = "Cycles of the CPU loop taking an ECB from a list and loading its registers and address "
                        "space.",
         .source = "estimate: a short path (list unchain, control register and PSW load); z/TPF's CPU loop is "
                   "built to be short."}, &SystemConfig::dispatch_cost);
  s.key({.path = "system.stack_size",
         .type = T::Size,
         .default_value = "64K",
         .min = "4K",
         .max = "16M",
         .unit = "bytes",
         .description = "Stack of each ECB or thread. A whole number of 4K pages.",
         .source = "estimate: ample for the project's guest programs (GCC -O2 frames of a few hundred bytes); "
                   "touched pages only cost frames."}, &SystemConfig::stack_size);
  s.key({.path = "system.heap31_size",
         .type = T::Size,
         .default_value = "16M",
         .min = "4K",
         .max = "768M",
         .unit = "bytes",
         .description = "31-bit heap area of each ECB (below the 2 GB bar). A whole number of 4K pages.",
         .source = "estimate: room for the ECB heap of a message-processing ECB. At most 768M: the area starts at "
                   "256 MB and system storage at 1 GB (os/guest/include/tpf_evm.h)."}, &SystemConfig::heap31_size);
  s.key({.path = "system.heap64_size",
         .type = T::Size,
         .default_value = "256M",
         .min = "4K",
         .max = "1T",
         .unit = "bytes",
         .description = "64-bit heap area of each ECB (above the bar). A whole number of 4K pages.",
         .source = "estimate: address space only; storage is sparse, so untouched heap costs no frames."},
         &SystemConfig::heap64_size);
  s.key({.path = "system.max_threads",
         .type = T::Integer,
         .default_value = "64",
         .min = "1",
         .max = "4096",
         .unit = "threads",
         .description = "Most threads one thread process may have (threads share its heap and address space).",
         .source = "estimate: enough for the threaded SSL driver of " + kSeed0 + "."}, &SystemConfig::max_threads);
  s.key({.path = "system.shared_size",
         .type = T::Size,
         .default_value = "1M",
         .min = "4K",
         .max = "256M",
         .unit = "bytes",
         .description = "System storage shared by every ECB at TPF_EVM_SHARED (the syslog buffer and its lock live there).",
         .source = "estimate: room for the syslog buffer and the system's locks."},
         &SystemConfig::shared_size);
  s.key_with({.path = "system.timeline",
         .type = T::Duration,
         .default_value = "0",
         .max = "1000s",
         .unit = "simulated time",
         .description = "Every this much simulated time, a row of timeline.txt/json: messages completed a second, "
                        "their mean response time, CPU busy, and the subsystems' figures (page-ins a second by "
                        "device). 0: no timeline.",
         .source = "a run's choice: transitions and dumps are seen over time (seed 002's throughput and page-in "
                   "rate plots)."}, [](SystemConfig& s, const cfg::ConfigValue& v) {
           s.timeline_s = cfg::field_value<double>(v, cfg::ValueType::Duration) / 1e3;  // ms to s
         });
  s.key({.path = "system.headline",
         .type = T::String,
         .default_value = "auto",
         .unit = "a headline figure's key",
         .description = "The figure summary.txt and summary.json lead with: auto (the first a subsystem offers "
                        "that applies to the run, e.g. syslog_lines_per_second for a run that logged, "
                        "tls_messages_per_second for the TLS workload; else messages_per_second), or one of those "
                        "keys. The summary says which it is and why.",
         .source = "auto: the figure of the experiment the run is (issue 17)."},
        &SystemConfig::headline);
  s.key_with({.path = "system.trace.file",
         .type = T::String,
         .default_value = "(none)",
         .unit = "path",
         .description = "Write the run's events in the Trace Event format (Perfetto, chrome://tracing) to this file: "
                        "per I-stream each ECB's dispatches named by program, its SVCs, idle time; page waits; "
                        "the timeline's figures as counters. A relative path is in the run's output folder "
                        "(`tpfemu run --trace FILE` gives one from the current directory). (none): no trace.",
         .source = "(none): a trace is a run's choice (issue 32)."},
         [](SystemConfig& s, const cfg::ConfigValue& v) {
           s.trace_file = std::get<std::string>(v) == "(none)" ? "" : std::get<std::string>(v);
         });
  s.key({.path = "system.trace.max_events",
         .type = T::Integer,
         .default_value = "1000000",
         .min = "1",
         .max = "1000000000",
         .unit = "events",
         .description = "The trace (system.trace.file) stops adding events after this many, and says so (in its "
                        "otherData, on standard error and in a last event), so that a long run's trace stays a "
                        "size a viewer opens.",
         .source = "estimate: about 150 MB of JSON, which Perfetto's web UI still opens."},
        &SystemConfig::trace_max_events);
  s.describe("system.trace", "The run's events as a Trace Event file for Perfetto or chrome://tracing (--trace FILE).");
  s.describe("system", "The control program: guest image, time slice and timeout, service costs, ECB storage.");

  s.check("system.time_slice is below system.timeout", [](const cfg::Config& c) {
    if (c.get_uint("system.time_slice") >= c.get_uint("system.timeout"))
      throw c.error({"system.time_slice", "system.timeout"},
                    fmt::format("the time slice ({}) must be shorter than the timeout ({}), so a looping ECB is "
                                "sliced, letting other work run, before it times out",
                                c.text("system.time_slice"), c.text("system.timeout")));
  });
  s.check("ECB areas are whole pages", [](const cfg::Config& c) {
    for (const char* key : {"system.stack_size", "system.heap31_size", "system.heap64_size"}) check_pages(c, key);
  });
  return s;
}

// Every key of `workload:` and the WorkloadConfig field it lands in.
cfg::Section<WorkloadConfig> make_workload_section() {
  cfg::Section<WorkloadConfig> s;
  using T = cfg::ValueType;
  s.key({.path = "workload.program",
         .type = T::String,
         .default_value = "QZZ0",
         .unit = "program name",
         .description = "The program each input message enters (a name in system.image): letters, digits and _.",
         .source = "QZZ0, the demo application's entry program (4 characters, as z/TPF program names are)."},
         &WorkloadConfig::program);
  s.key_with({.path = "workload.prelude",
         .type = T::String,
         .default_value = "(none)",
         .unit = "program name",
         .description = "A program entered once at the start of the run, with workload.prelude_text as its message; "
                        "the input messages begin when its ECB ends (a start-up, or a night's batch work before "
                        "the day's transactions). (none): messages begin at once.",
         .source = "(none): most runs have no start-up phase."},
         [](WorkloadConfig& w, const cfg::ConfigValue& v) {
           w.prelude = std::get<std::string>(v) == "(none)" ? "" : std::get<std::string>(v);
         });
  s.key_with({.path = "workload.prelude_text",
         .type = T::String,
         .default_value = "(none)",
         .unit = "text",
         .description = "The message text workload.prelude's ECB gets (its parameters); (none): no message.",
         .source = "(none): a prelude without parameters."},
         [](WorkloadConfig& w, const cfg::ConfigValue& v) {
           w.prelude_text = std::get<std::string>(v) == "(none)" ? "" : std::get<std::string>(v);
         });
  s.key_with({.path = "workload.arrivals",
         .type = T::Enum,
         .default_value = "closed",
         .choices = {"closed", "open"},
         .unit = "arrival process",
         .description = "closed: workload.terminals terminals, each sending its next message when the reply to "
                        "the last one comes back (after workload.think_time); open: Poisson arrivals at "
                        "workload.rate, whatever the system's state.",
         .source = "closed is the usual driver of a throughput measurement, as in the message-rate tests of " +
                   kSeed0 + "."}, [](WorkloadConfig& w, const cfg::ConfigValue& v) {
           w.arrivals = std::get<std::string>(v) == "open" ? Arrivals::Open : Arrivals::Closed;
         });
  s.key({.path = "workload.terminals",
         .type = T::Integer,
         .default_value = "16",
         .min = "0",
         .max = "1000000",
         .unit = "terminals",
         .description = "Closed arrivals: terminals, each with one message outstanding. Unused for open arrivals.",
         .source = "estimate: 16 keeps 4 I-streams busy when each message waits now and then (defer, I/O)."},
         &WorkloadConfig::terminals);
  s.key_with({.path = "workload.routing",
         .type = T::Enum,
         .default_value = "round-robin",
         .choices = {"round-robin", "terminal"},
         .unit = "input list",
         .description = "Which I-stream's input list a message goes to: round-robin over the I-streams, or "
                        "terminal: closed arrivals' terminal t always to I-stream t modulo machine.istreams (an "
                        "I-stream per terminal, as when each I-stream runs its own driver ECB).",
         .source = "round-robin spreads the input evenly over time; terminal keeps a fixed number of ECBs on "
                   "every I-stream, the setting of seed 004's measurements (every I-stream logging)."},
         [](WorkloadConfig& w, const cfg::ConfigValue& v) {
           w.route_by_terminal = std::get<std::string>(v) == "terminal";
         });
  s.key_with({.path = "workload.message_text",
         .type = T::String,
         .default_value = "(generated)",
         .unit = "text",
         .description = "(generated): each input message is a header with the message and terminal numbers, "
                        "then letters from workload.seed, workload.message_size bytes in all; any other text: "
                        "every input message is that text (for programs that read parameters from their message, "
                        "such as QHTT and QHTG).",
         .source = "generated messages suit most programs."},
             [](WorkloadConfig& w, const cfg::ConfigValue& v) {
               w.message_text = std::get<std::string>(v) == "(generated)" ? "" : std::get<std::string>(v);
             });
  s.key_from({.path = "workload.data_file",
         .type = T::Path,
         .default_value = "(none)",
         .unit = "path",
         .description = "A TLS allocation trace (heap/traces/*.trace, from heap/tools/tls_trace) that the control "
                        "program maps read-only at TPF_EVM_DATA in every ECB, for the TLS workload (QTLS, QSSL) "
                        "to replay; a relative path as system.image's (the YAML file's folder first). (none): no data.",
         .source = "(none): only the TLS experiment's configurations need one."},
             [](WorkloadConfig& w, const cfg::Config& c, const std::string& path) {
               if (c.get_string(path) != "(none)") w.data_file = c.get_path(path, guest_dir());
             });
  s.key({.path = "workload.think_time",
         .type = T::Duration,
         .default_value = "0",
         .max = "1000s",
         .unit = "simulated time",
         .description = "Closed arrivals: mean think time between a reply and the terminal's next message "
                        "(exponential, from workload.seed); 0: none.",
         .source = "0: a saturation test, the system never waits for a terminal."}, &WorkloadConfig::think_ms);
  s.key({.path = "workload.rate",
         .type = T::Integer,
         .default_value = "1000",
         .min = "0",
         .max = "1000000000",
         .unit = "messages per second",
         .description = "Open arrivals: mean arrival rate (Poisson, from workload.seed), in whole messages per "
                        "second of simulated time. Unused for closed arrivals.",
         .source = "estimate: a light load, well under the 14,772 msg/s of " + kSeed0 + "."}, &WorkloadConfig::rate);
  s.key({.path = "workload.message_size",
         .type = T::Size,
         .default_value = "256",
         .min = "1",
         .max = "15M",  // the message area (os/guest/include/tpf_evm.h)
         .unit = "bytes",
         .description = "Size of each input message (the smallest when workload.message_size_max is set).",
         .source = "estimate: a short transaction message."}, &WorkloadConfig::message_size);
  s.key({.path = "workload.message_size_max",
         .type = T::Size,
         .default_value = "0",
         .min = "0",
         .max = "15M",  // the message area (os/guest/include/tpf_evm.h)
         .unit = "bytes",
         .description = "If not 0, message sizes are uniform between workload.message_size and this (from "
                        "workload.seed); 0: every message is workload.message_size.",
         .source = "0: fixed-size messages, the simplest workload to reason about."},
         &WorkloadConfig::message_size_max);
  s.key({.path = "workload.messages",
         .type = T::Integer,
         .default_value = "10000",
         .min = "0",
         .max = "1000000000000",
         .unit = "messages",
         .description = "Stop after this many messages have completed in the measurement window, that is "
                        "after the workload.warmup messages (a run completes warmup + messages in all); 0: run "
                        "for workload.duration instead. Exactly one of the two is not 0.",
         .source = "estimate: enough messages for stable percentiles, a few seconds of host time."},
         &WorkloadConfig::messages);
  s.key_with({.path = "workload.duration",
         .type = T::Duration,
         .default_value = "0",
         .max = "100000s",
         .unit = "simulated time",
         .description = "Stop after this much simulated time; 0: run for workload.messages instead. Exactly one "
                        "of the two is not 0.",
         .source = "0: runs are counted in messages by default."}, [](WorkloadConfig& w, const cfg::ConfigValue& v) {
           w.seconds = cfg::field_value<double>(v, cfg::ValueType::Duration) / 1e3;  // ms to s
         });
  s.key({.path = "workload.warmup",
         .type = T::Integer,
         .default_value = "0",
         .min = "0",
         .max = "1000000000000",
         .unit = "messages",
         .description = "The first messages to complete, excluded from the figures (caches and lists fill up); "
                        "workload.messages are measured after them.",
         .source = "0: nothing excluded; set it when cold-start effects matter."}, &WorkloadConfig::warmup_messages);
  s.key({.path = "workload.seed",
         .type = T::Integer,
         .default_value = "1",
         .min = "0",
         .unit = "seed",
         .description = "Seed of the deterministic generator of arrivals, think times and message sizes: same "
                        "seed and configuration, same run.",
         .source = "any fixed number; change it to see run-to-run variation."}, &WorkloadConfig::seed);
  s.describe("workload", "The input messages: the program they enter, how they arrive, their size, how long to run.");

  s.check("workload.prelude is a program name", [](const cfg::Config& c) {
    const std::string& p = c.get_string("workload.prelude");
    if (p != "(none)" && !valid_program_name(p))
      throw c.error({"workload.prelude"}, fmt::format("\"{}\" is not a program name (1 to 32 letters, digits or _)", p));
  });
  s.check("workload.program is a program name", [](const cfg::Config& c) {
    if (!valid_program_name(c.get_string("workload.program")))
      throw c.error({"workload.program"},
                    fmt::format("\"{}\" is not a program name (1 to 32 letters, digits or _, e.g. QZZ0)",
                                c.get_string("workload.program")));
  });
  s.check("arrivals have their parameter", [](const cfg::Config& c) {
    const std::string& arrivals = c.get_string("workload.arrivals");
    if (arrivals == "open" && c.get_int("workload.rate") <= 0)
      throw c.error({"workload.rate", "workload.arrivals"},
                    "open arrivals need a rate above 0 messages per second (set workload.rate)");
    if (arrivals == "closed" && c.get_int("workload.terminals") <= 0)
      throw c.error({"workload.terminals", "workload.arrivals"},
                    "closed arrivals need at least 1 terminal (set workload.terminals)");
  });
  s.check("message sizes", [](const cfg::Config& c) {
    const uint64_t min = c.get_uint("workload.message_size"), max = c.get_uint("workload.message_size_max");
    if (max != 0 && max < min)
      throw c.error({"workload.message_size_max", "workload.message_size"},
                    fmt::format("the largest message ({}) is smaller than the smallest (workload.message_size {}); "
                                "set it at least as large, or 0 for fixed-size messages",
                                c.text("workload.message_size_max"), c.text("workload.message_size")));
  });
  s.check("one stop condition", [](const cfg::Config& c) {
    const int64_t messages = c.get_int("workload.messages");
    const uint64_t duration = c.get_uint("workload.duration");
    if (messages == 0 && duration == 0)
      throw c.error({"workload.messages", "workload.duration"},
                    "workload.messages and workload.duration are both 0; set one of them to say when the run stops");
    if (messages != 0 && duration != 0)
      throw c.error({"workload.duration", "workload.messages"},
                    fmt::format("workload.messages ({}) and workload.duration ({}) are both set; set the other one "
                                "to 0 (e.g. workload.messages: 0 to run for a time)",
                                c.text("workload.messages"), c.text("workload.duration")));
  });
  s.check("warm-up is shorter than the run", [](const cfg::Config& c) {
    const int64_t messages = c.get_int("workload.messages"), warmup = c.get_int("workload.warmup");
    if (messages != 0 && warmup >= messages)
      throw c.error({"workload.warmup", "workload.messages"},
                    fmt::format("the warm-up ({} messages) must be less than workload.messages ({}), or no message "
                                "would be measured",
                                warmup, messages));
  });
  return s;
}

const cfg::Section<SystemConfig>& system_section() {
  static const cfg::Section<SystemConfig> section = make_system_section();
  return section;
}

const cfg::Section<WorkloadConfig>& workload_section() {
  static const cfg::Section<WorkloadConfig> section = make_workload_section();
  return section;
}

}  // namespace

OperatorGrammars operator_grammars_of(const Subsystems& subsystems) {
  OperatorGrammars g;
  for (const auto& sub : subsystems)
    for (auto& one : sub->operator_grammars()) g.push_back(std::move(one));
  return g;
}

cfg::Schema run_schema(const Subsystems& subsystems) {
  cfg::Schema s;
  emu::declare_machine_schema(s);
  for (const auto& sub : subsystems) sub->declare_machine(s);  // machine.<name>.*: e.g. machine.scm
  system_section().declare(s);
  for (const auto& sub : subsystems) sub->declare(s);  // system.<name>.*: a section's keys go together
  ztrap_section().declare(s);                          // system.ztrap.*, system.console.* (os/ztrap_config.cpp)
  workload_section().declare(s);
  declare_operator_schema(s, operator_grammars_of(subsystems));  // the operator: list (os/operator.cpp)
  return s;
}

RunConfig run_config(const cfg::Config& c, const OperatorGrammars& grammars) {
  c.validate();
  RunConfig r;
  r.machine = emu::machine_config(c);
  r.system = system_section().read(c);
  r.ztrap = ztrap_section().read(c);
  r.workload = workload_section().read(c);
  r.operators = operator_entries(c, grammars);
  r.operator_grammars = grammars;
  return r;
}

RunConfig load_run_config(const SubsystemFactory& subsystems, const std::vector<std::string>& files,
                          const std::vector<std::string>& sets) {
  const Subsystems made = subsystems();
  auto schema = std::make_shared<const cfg::Schema>(run_schema(made));
  auto values = std::make_shared<const cfg::Config>(cfg::load_config(*schema, files, sets));
  RunConfig r = run_config(*values, operator_grammars_of(made));
  r.schema = schema, r.values = values, r.subsystems = subsystems;
  if (!files.empty()) r.source = files.front();
  return r;
}

}  // namespace os
