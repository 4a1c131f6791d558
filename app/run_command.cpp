#include "app/run_command.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <iostream>
#include <sstream>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "app/run_record.h"
#include "config/config.h"
#include "config/number_text.h"
#include "emu/machine.h"
#include "os/console.h"
#include "os/control_program.h"
#include "os/run_config.h"
#include "os/summary.h"
#include "report/documents.h"
#include "report/html_report.h"
#include "report/report_json.h"
#include "trace/trace_writer.h"

namespace app {
using os::write_summary_text;
using os::write_summary_json;
using os::load_run_config;
using os::TcpConsole;
using os::SubsystemFactory;
using os::RunSummary;
using os::RunConfig;
using os::ReportFile;
using os::ControlProgram;

namespace {

// Writes a report; "" if it was written, else the file and the system's reason.
std::string write_report(const std::filesystem::path& p, const std::string& text) {
  errno = 0;
  std::ofstream out(p);
  if (out) out << text;
  if (out) out.flush();
  if (out) return "";
  return fmt::format("cannot write {}: {}", p.string(), errno ? std::strerror(errno) : "write failed");
}

bool write_file(const std::filesystem::path& p, const std::string& text) { return write_report(p, text).empty(); }

// A report of a run that ended early says so at its top: a text report in a first
// line, a JSON object in a first member.
std::string marked(const std::string& name, std::string body, const std::string& ended_early) {
  if (ended_early.empty()) return body;
  if (name.ends_with(".json")) {
    const size_t brace = body.find('{');
    if (brace == std::string::npos) return body;
    return body.insert(brace + 1, "\n  \"ended_early\": " + report_json::inline_text(ended_early) + ",");
  }
  return "RUN ENDED EARLY: " + ended_early + "\n\n" + body;
}

// A report written as the run went on (syslog.log) is marked once the run has ended:
// its lines are on disk already, so the file is written again with the mark in front.
bool mark_streamed(const std::filesystem::path& p, const std::string& ended_early) {
  std::string body;
  {
    std::ifstream in(p, std::ios::binary);
    body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return false;
  }
  return write_file(p, marked(p.filename().string(), std::move(body), ended_early));
}

// Why the run failed, one line each ("" for none): it ended early, measured no
// message (unless the system was stopped for good: a stand-alone dump), or a
// subsystem counted failures (e.g. the ECB heap's errors).
std::vector<std::string> failures(const RunSummary& s) {
  std::vector<std::string> out;
  if (!s.ended_early.empty()) out.push_back("the run ended early: " + s.ended_early);
  else if (s.messages == 0 && !s.system_stopped) out.push_back("no message completed in the measurement window");
  for (const auto& c : s.extra_counters)
    if (c.fails_run && c.value) out.push_back(fmt::format("{}: {} (see dumps.txt)", c.label, c.value));
  return out;
}

// SIGINT and SIGTERM end a run at the machine's next step, with every report
// written (the first one only: the handler resets itself, so a second signal ends
// the process at once, as the user expects of a second Ctrl-C).
std::atomic<int> host_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may store only to a lock-free atomic");

void on_stop_signal(int sig) { host_signal.store(sig); }

class StopSignals {
 public:
  StopSignals() {
    host_signal.store(0);
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

}  // namespace

namespace {

// The configuration, loaded; or the message printed and false.
bool load(const RunOptions& opts, const SubsystemFactory& subsystems, RunConfig& config) {
  try {
    config = load_run_config(subsystems, opts.configs, opts.sets);
    return true;
  } catch (const cfg::ConfigError& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return false;
  }
}

// The control program on `machine` (the image loaded, programs and operator commands
// checked); or the message printed and null.
std::unique_ptr<ControlProgram> make_control_program(emu::Machine& machine, const RunConfig& config) {
  try {
    return std::make_unique<ControlProgram>(machine, config);
  } catch (const emu::ElfError& e) {
    fmt::print(stderr, "tpfemu: system.image: {}: {}\n", config.system.image, e.what());
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "tpfemu: {}\n", e.what());
  }
  return nullptr;
}

// The output directory, created if need be, without the files an earlier run left that
// this one would write (a report this run does not write, such as etim.txt without
// ZTRAP EI, would otherwise stay beside the new ones); other files stay. False with
// the message printed if it cannot be made ready.
bool prepare_output(const std::filesystem::path& out, const std::vector<std::string>& names) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    fmt::print(stderr, "tpfemu: cannot create the output directory {}: {}\n", out.string(), ec.message());
    return false;
  }
  for (const std::string& name : names) {
    const std::filesystem::path p = out / name;
    if (std::filesystem::is_directory(std::filesystem::symlink_status(p, ec))) continue;  // not one of ours
    if (std::filesystem::remove(p, ec); ec) {
      fmt::print(stderr, "tpfemu: cannot remove {} from an earlier run: {}\n", p.string(), ec.message());
      return false;
    }
  }
  return true;
}

// The source document's figure for the headline, when the run is an experiment's
// configuration as it is (one file, no --set: the case the document measured).
void add_document_figure(RunSummary& s) {
  report_json::Json entry;
  try {
    entry = report_html::document_entry(s.config);
  } catch (const std::runtime_error& e) {
    spdlog::warn("the document's figure is left out: {}", e.what());
    return;
  }
  if (entry.is_null()) return;
  for (const auto& f : entry["figures"])
    if (f["key"].get<std::string>() == s.headline.key) {
      s.headline.document = f["value"].get<double>();
      s.headline.document_source = fmt::format("{}, {}; {}", entry.value("experiment", std::string()),
                                               entry.value("source", std::string()),
                                               entry.value("document", std::string()));
    }
}

// Every file a run writes into its directory, the reports it may leave out included.
std::vector<std::string> run_files(const ControlProgram& cp) {
  // report.html too: `--report` writes it, and one an earlier run left would show old figures.
  std::vector<std::string> names = {"config.yaml", "summary.txt", "summary.json", "run.log", "dumps.txt", "report.html"};
  for (const ReportFile& r : cp.reports()) names.push_back(r.name);
  return names;
}

// --report: the run's page (report/html_report.h) from the reports just written.
bool write_report_page(const std::filesystem::path& out) {
  try {
    fmt::print("report: {}\n", report_html::write_run_report(out).string());
    return true;
  } catch (const std::runtime_error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "tpfemu: {}\n", e.what());
    return false;
  }
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// system.trace.file's writer settings: a relative file is in the run's folder (--trace
// made the command line's absolute already).
trace::TraceWriter::Settings trace_settings(const RunConfig& config, const std::filesystem::path& out,
                                             const RunOptions& opts) {
  const std::filesystem::path file = config.system.trace_file;
  return {.path = (file.is_absolute() ? file : out / file).string(),
          .max_events = config.system.trace_max_events,
          .clock_ghz = config.machine.clock_ghz,
          .istreams = config.machine.istreams,
          .label = opts.configs.empty() ? std::string("(defaults)") : joined(opts.configs)};
}

}  // namespace

namespace {
void warn_recorded_file_changes(const RunConfig& config, const RunOptions& opts) {
  for (const std::string& w : recorded_file_changes(config, opts.configs)) fmt::print(stderr, "tpfemu: warning: {}\n", w);
}
}  // namespace

int check_run_config(const RunOptions& opts, const SubsystemFactory& subsystems) {
  RunConfig config;
  if (!load(opts, subsystems, config)) return 2;
  warn_recorded_file_changes(config, opts);
  emu::Machine machine(config.machine, true);
  if (!make_control_program(machine, config)) return 2;
  write_run_record(std::cout, config, opts.command_line, opts.configs);
  std::cout.flush();
  fmt::print(stderr, "tpfemu: configuration is valid\n");
  return 0;
}

int run_workload(const RunOptions& opts, const SubsystemFactory& subsystems) {
  RunConfig config;
  if (!load(opts, subsystems, config)) return 2;
  warn_recorded_file_changes(config, opts);
  // From here on a signal ends the run, not the process (before the machine starts:
  // at its first step).
  StopSignals stop_signals;
  std::filesystem::path out = opts.out;
  if (out.empty())
    out = std::filesystem::path("out") /
          (opts.configs.empty() ? std::string("default") : std::filesystem::path(opts.configs.back()).stem().string());

  emu::Machine machine(config.machine, true);
  std::unique_ptr<ControlProgram> cp = make_control_program(machine, config);
  if (!cp) return 2;

  // Progress on a terminal only, for runs that take more than a second of host time;
  // it reads the host clock for the display and never feeds the model.
  bool tty = opts.progress && isatty(fileno(stderr));
  auto t0 = std::chrono::steady_clock::now();
  if (tty)
    cp->set_progress([&](uint64_t done, uint64_t target, double sim_s) {
      double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (host > 1.0)
        fmt::print(stderr, "\r{}   ", progress_line(done, target, sim_s, config.workload.seconds, host));
    });
  std::unique_ptr<TcpConsole> console;
  if (opts.console_port >= 0) {
    try {
      console = std::make_unique<TcpConsole>(uint16_t(opts.console_port));
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "tpfemu: {}\n", e.what());
      return 2;
    }
    fmt::print(stderr, "tpfemu: operator console on 127.0.0.1:{} (e.g. tpfemu console {}; HELP lists the commands)\n",
               console->port(), console->port());
    console->set_host_stop(&host_signal);
    cp->set_console(console.get());
    console->set_greeting("tpfemu operator console. The commands (HELP lists them again):\n" +
                          cp->operator_command("HELP", 0));
    if (opts.console_wait) {
      fmt::print(stderr, "tpfemu: the run starts when a client connects\n");
      console->wait_for_client();  // a signal meanwhile: the run stops at its first step
    }
    const double pace = opts.pace < 0 ? kConsolePace : opts.pace;
    if (opts.pace < 0)
      fmt::print(stderr, "tpfemu: paced at {:g} (a simulated {:g} ms a host second; --pace 0: as fast as it can)\n",
                 pace, pace * 1e3);
    console->set_pace(pace);  // the pace counts from the run's start
  }
  // The output directory appears only now, when nothing can stop the run from starting.
  if (!prepare_output(out, run_files(*cp))) return 2;
  {
    std::ostringstream record;
    write_run_record(record, config, opts.command_line, opts.configs);
    if (!write_file(out / "config.yaml", record.str())) {
      fmt::print(stderr, "tpfemu: cannot write {}\n", (out / "config.yaml").string());
      return 2;
    }
  }
  // Reports a subsystem writes as the run goes on (syslog.log) get their files now.
  std::vector<std::unique_ptr<std::ofstream>> streams;
  for (const ReportFile& r : cp->reports())
    if (r.stream) r.stream(streams.emplace_back(std::make_unique<std::ofstream>(out / r.name)).get());
  std::unique_ptr<trace::TraceWriter> trace;
  if (!config.system.trace_file.empty()) {
    try {
      trace = std::make_unique<trace::TraceWriter>(trace_settings(config, out, opts));
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "tpfemu: system.trace.file: {}\n", e.what());
      return 2;
    }
    cp->set_observer(trace.get());
  }
  cp->set_host_stop(&host_signal);
  RunSummary s = cp->run();
  if (tty) fmt::print(stderr, "\r\033[K");
  s.config = opts.configs.empty() ? "(defaults)" : joined(opts.configs);
  if (opts.sets.empty()) add_document_figure(s);

  std::ostringstream text, json;
  write_summary_text(text, s);
  write_summary_json(json, s);
  // Every report is attempted: one that cannot be written is named with the system's
  // reason, and the others are still written (the run's figures are not lost with it).
  std::vector<std::string> written = {"config.yaml"}, errors;
  auto report = [&](const std::string& name, const std::string& body) {
    const std::string err = write_report(out / name, body);
    if (err.empty()) written.push_back(name);
    else errors.push_back(err);
  };
  report("summary.txt", text.str());
  report("summary.json", json.str());
  report("run.log", run_log_header(config.machine.clock_ghz) + cp->log() + run_log_host_memory(cp->machine()));
  report("dumps.txt", marked("dumps.txt", cp->dumps(), s.ended_early));
  for (const ReportFile& r : cp->reports()) {
    if (r.stream) continue;   // written as the run went on: closed below
    if (r.wanted && !r.wanted()) continue;
    std::ostringstream body;
    r.write(body);
    report(r.name, marked(r.name, body.str(), s.ended_early));
  }
  {
    size_t k = 0;
    for (const ReportFile& r : cp->reports()) {
      if (!r.stream) continue;
      std::ofstream& f = *streams[k++];
      f.close();
      if (f.fail() || (!s.ended_early.empty() && !mark_streamed(out / r.name, s.ended_early)))
        errors.push_back(fmt::format("cannot write {}: {}", (out / r.name).string(), "write failed"));
      else
        written.push_back(r.name);
    }
  }
  std::string traced;  // the trace's line after the reports'
  if (trace) {
    if (const std::string err = trace->finish(); !err.empty()) errors.push_back(err);
    else traced = fmt::format("trace: {} ({} events)\n", trace_settings(config, out, opts).path, cfg::grouped(trace->events()));
    if (!trace->cap_note().empty()) fmt::print(stderr, "tpfemu: {}\n", trace->cap_note());
  }
  const bool ok = errors.empty();
  if (console)  // the clients hear the end before their connections close
    console->close_with(fmt::format(
        "RUN ENDED at {} simulated{}: {} messages in the measurement window; {} {}\n",
        cfg::format_duration(uint64_t(double(machine.elapsed_cycles()) / machine.config().clock_ghz)),
        s.ended_early.empty() ? "" : " (" + s.ended_early + ")", s.messages,
        ok ? "reports in" : "the reports could not be written to", out.string()));
  std::cout << text.str();
  fmt::print("reports: {}/{}\n{}", out.string(), fmt::join(written, ", "), traced);
  if (!ok) {
    std::cout.flush();   // the figures before the errors about the files
    std::fflush(stdout);
    for (const std::string& e : errors) fmt::print(stderr, "tpfemu: {}\n", e);
    return 2;
  }
  if (opts.report && !write_report_page(out)) return 2;
  const std::vector<std::string> failed = failures(s);
  for (const std::string& f : failed) fmt::print(stderr, "tpfemu: {}\n", f);
  if (const int sig = cp->stopped_by_signal()) return 128 + sig;  // the shell's convention
  return failed.empty() ? 0 : 3;
}

// The host memory the run took, as the model counts it (deterministic: no host figure).
std::string run_log_host_memory(emu::Machine& machine) {
  std::string s = "# Host memory the run took, as the model counts it (frames stored into, decoded code,\n"
                  "# the devices' compressed contents): the same on every host.\n";
  for (const std::string& line : machine.storage().host_memory_lines()) s += fmt::format("{:>12} {}\n", "", line);
  return s;
}

std::string run_log_header(double clock_ghz) {
  return fmt::format(
      "# What the ECBs wrote (tpf_log, printf) and the control program's messages. CYCLE is the\n"
      "# simulated time of the line in cycles of the {} GHz clock ({} cycles a microsecond).\n"
      "{:>12} LINE\n",
      fmt::format("{:g}", clock_ghz), cfg::grouped_fixed(clock_ghz * 1e3, 0), "CYCLE");
}

std::string progress_line(uint64_t done, uint64_t target, double simulated_s, double duration_s, double host_s) {
  if (duration_s > 0)  // the window runs that long after the warm-up: the message count is open
    return fmt::format("{} messages, {:.4f} s simulated (the window lasts {:.4f} s after the warm-up), {:.1f} s",
                       cfg::grouped(done), simulated_s, duration_s, host_s);
  return fmt::format("{} messages of {}, {:.4f} s simulated, {:.1f} s", cfg::grouped(done), cfg::grouped(target),
                     simulated_s, host_s);
}

}  // namespace app
