#include "os/control_program.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <string.h>
#include <stdexcept>

namespace os {

ControlProgram::ControlProgram(emu::Machine& machine, const RunConfig& config)
    : machine_(machine),
      config_(config),
      evm_(machine, config_.system),
      svcs_(config_.system.svc_cost, config_.system.service_cost),
      loop_(
          machine, config_.system, [this](unsigned i, InputMessage m) { return ecb_for_input(i, std::move(m)); },
          [this](unsigned i, Ecb& e) { timeout(i, e); }),
      measurement_(machine, config_.workload),
      workload_(machine, config_.workload, loop_, measurement_),
      desk_(machine, [this](const std::string& line) { log(line); }) {
  ecb_return_ = evm_.required("__tpf_ecb_return");
  thread_return_ = evm_.required("__tpf_thread_return");
  if (!evm_.entry_of(config_.workload.program)) throw not_a_program("workload.program", config_.workload.program);
  if (!config_.workload.prelude.empty() && !evm_.entry_of(config_.workload.prelude))
    throw not_a_program("workload.prelude", config_.workload.prelude);
  machine_.start(evm_.system_space());
  for (unsigned i = 0; i < machine_.istreams(); ++i) {
    machine_.cpu(i).set_svc_handler(this);
    machine_.cpu(i).set_page_fault_handler(this);
    machine_.set_state(i, emu::IStreamState::Idle);
  }
  machine_.set_dispatcher(this);
  machine_.io().set_handler(this);
  install_services();
  if (config_.system.timeline_s > 0) start_timeline();
  // Declared whether or not there is a timeline, so that a run without one removes an
  // earlier run's from its output directory.
  const auto timeline_on = [this] { return timeline_ != nullptr; };
  add_report({.name = "timeline.txt", .write = [this](std::ostream& o) { timeline_->write_text(o); }, .wanted = timeline_on});
  add_report({.name = "timeline.json", .write = [this](std::ostream& o) { timeline_->write_json(o); }, .wanted = timeline_on});
  add_report({.name = "rmfcpu.txt", .write = [this](std::ostream& o) { rmf_cpu_->write_text(o); }, .wanted = timeline_on});
  add_report({.name = "rmfcpu.json", .write = [this](std::ostream& o) { rmf_cpu_->write_json(o); }, .wanted = timeline_on});
  if (config_.subsystems) subsystems_ = config_.subsystems();
  for (auto& s : subsystems_) {
    if (config_.values) s->configure(*config_.values);
    s->install(*this);
  }
  check_headline_choice();
  desk_.set_grammars(config_.operator_grammars);
  desk_.schedule(config_.operators);
  if (!config_.workload.data_file.empty()) {
    if (!data_reader_) throw std::runtime_error("workload.data_file: no subsystem of this run reads data files");
    std::vector<uint8_t> data;
    try {
      data = data_reader_(config_.workload.data_file);
    } catch (const std::runtime_error& e) {  // a bad trace names its line; this names the key
      throw std::runtime_error(std::string("workload.data_file: ") + e.what());
    }
    evm_.map_data(data);
  }
}

std::runtime_error ControlProgram::not_a_program(std::string_view key, const std::string& name) const {
  std::vector<std::string> programs = evm_.programs();
  std::string known;
  for (const std::string& p : programs) known += (known.empty() ? "" : ", ") + p;
  const std::string message = fmt::format("{} is not a program of {} (its programs: {})", name, config_.system.image,
                                          known.empty() ? "none" : known);
  // The place the name was given (FILE:LINE or --set), when the configuration is at hand.
  if (config_.values) return config_.values->error({key}, message);
  return std::runtime_error(fmt::format("{}: {}", key, message));
}

ControlProgram::~ControlProgram() {
  machine_.set_dispatcher(nullptr);
  machine_.io().set_handler(nullptr);
}

bool ControlProgram::start_io(unsigned subchannel, uint64_t now, std::shared_ptr<emu::IoOperation> op,
                              std::function<void(const emu::IoInterruption&)> done) {
  const uint64_t parameter = next_io_++;
  io_done_[parameter] = std::move(done);
  if (machine_.io().start(subchannel, now, std::move(op), parameter)) return true;
  io_done_.erase(parameter);
  return false;
}

void ControlProgram::io_interruption(const emu::IoInterruption& i) {
  auto it = io_done_.find(i.parameter);
  if (it == io_done_.end()) return;  // not ours (a device started outside the control program)
  auto done = std::move(it->second);
  io_done_.erase(it);
  if (done) done(i);
}

// ---- what subsystems register ------------------------------------------------------------

void ControlProgram::add_ecb_info(uint64_t code, std::function<uint64_t(const Ecb&)> value) {
  if (!ecb_info_.emplace(code, std::move(value)).second)
    throw std::logic_error(fmt::format("ECB_INFO {} is registered twice", code));
}

void ControlProgram::every(uint64_t interval, std::function<void(uint64_t now)> fn) {
  periodic_.emplace_back(std::max<uint64_t>(interval, 1), std::move(fn));
}

void ControlProgram::add_operator_commands(std::string owner, std::string help, OperatorHandler handler) {
  desk_.add(std::move(owner), std::move(help), std::move(handler));
}

void ControlProgram::set_data_reader(std::function<std::vector<uint8_t>(const std::string&)> reader) {
  if (data_reader_) throw std::logic_error("workload.data_file: two subsystems read it");
  data_reader_ = std::move(reader);
}

void ControlProgram::console_message(uint64_t now, const std::string& text) {
  log(fmt::format("{:>12} {}", now, text));
  desk_.broadcast(text);
}

void ControlProgram::log(const std::string& line) {
  log_ += line;
  if (log_.empty() || log_.back() != '\n') log_ += '\n';
}

std::vector<Subsystem*> ControlProgram::subsystems() const {
  std::vector<Subsystem*> out;
  for (const auto& s : subsystems_) out.push_back(s.get());
  return out;
}

void ControlProgram::withdraw_common_page(uint64_t address) {
  evm_.withdraw_common_page(address);
  for_each_process([&](Process& p) { p.space->unmap(address, emu::kPageSize); });
}

void ControlProgram::restore_common_page(uint64_t address) {
  evm_.restore_common_page(address);
  for_each_process([&](Process& p) { evm_.map_common_page(p, address); });
}

void ControlProgram::for_each_process(const std::function<void(Process&)>& fn) {
  std::set<const Process*> seen;  // only asked, never walked: the order is the ECBs'
  for (auto& [id, e] : ecbs_)
    if (seen.insert(e->process.get()).second) fn(*e->process);
}

// Whether anything can still run: an event other than the periodic ones, or an
// I-stream that is not idle. A periodic event re-arms itself only then, so that it never keeps
// an otherwise finished run going.
bool ControlProgram::still_running() const {
  if (machine_.events().size() > periodic_pending_) return true;  // other periodic events do not count
  for (unsigned k = 0; k < machine_.istreams(); ++k)
    if (machine_.state(k) != emu::IStreamState::Idle) return true;
  return false;
}

// `fn` lives in periodic_, which no longer changes once the run has started.
void ControlProgram::start_periodic(uint64_t interval, const std::function<void(uint64_t)>& fn, uint64_t after) {
  const uint64_t at = after + interval;
  ++periodic_pending_;
  machine_.events().schedule(at, [this, interval, &fn, at] {
    --periodic_pending_;
    fn(at);
    if (still_running()) start_periodic(interval, fn, at);
  });
}

// ---- ECBs --------------------------------------------------------------------------------

std::shared_ptr<Process> ControlProgram::new_process() {
  auto p = evm_.new_process(next_ecb_);  // numbered by the ECB that will be its first
  for (auto& s : subsystems_) s->process_starting(*p);
  return p;
}

Ecb* ControlProgram::new_ecb(const std::string& program, std::shared_ptr<Process> process, unsigned home) {
  auto e = std::make_unique<Ecb>();
  e->id = next_ecb_++;
  e->program = program;
  e->process = std::move(process);
  if (e->process->name.empty()) e->process->name = program;
  e->home = home;
  e->created = machine_.cpu(home).cycles;  // the clock of the I-stream that makes it
  Ecb* raw = e.get();
  ecbs_[raw->id] = std::move(e);
  ++stats_.ecbs_created;
  return raw;
}

// An input message taken from an input list gets an ECB of its own, in a new process.
Ecb* ControlProgram::ecb_for_input(unsigned i, InputMessage m) {
  emu::Cpu& c = machine_.cpu(i);
  c.charge(emu::Cause::Create, config_.system.create_cost);
  Ecb* e = new_ecb(config_.workload.program, new_process(), i);
  e->message = m.seq, e->arrival = m.arrival, e->terminal = m.terminal;
  if (evm_.map_message(*e->process, m.bytes) &&
      evm_.start_program(*e, evm_.entry_of(e->program), TPF_EVM_MESSAGE, m.bytes.size(), ecb_return_))
    return e;
  dumps_.add(fmt::format("ECB {}: no storage left for message {}; message dropped\n", e->id, m.seq));
  workload_.message_done(*e, c.cycles);
  end_ecb(*e);
  return nullptr;
}

void ControlProgram::end_ecb(Ecb& e) {
  ++stats_.ecbs_exited;
  if (e.process.use_count() == 1)  // the process ends with it
    for (auto& s : subsystems_) s->process_ending(*e.process);
  ecbs_.erase(e.id);  // the last ECB of a process returns its address space's frames
}

// The ECB (or thread) ends: subsystems let go of what it held, joiners wake, its
// message is done, its storage goes back.
void ControlProgram::finish(unsigned i, Ecb& e, int64_t rc) {
  const uint64_t t = machine_.cpu(i).cycles;
  machine_.cpu(i).charge(emu::Cause::Exit, config_.system.exit_cost);
  if (loop_.current(i) == &e) loop_.leave(i);
  for (auto& s : subsystems_) s->ecb_ending(e, t);
  Process& p = *e.process;
  if (e.thread) {
    p.thread_results[e.thread] = uint64_t(rc);
    --p.live_threads;
    for (auto it = p.joiners.begin(); it != p.joiners.end();) {
      Ecb* j = *it;
      if (j->joiner_of != e.thread) {
        ++it;
        continue;
      }
      j->gr[2] = uint64_t(rc), j->joiner_of = 0;
      it = p.joiners.erase(it);
      loop_.make_ready(*j, false, t);
    }
  }
  if (e.message) workload_.message_done(e, t);
  if (e.prelude) begin_messages(t);
  end_ecb(e);
}

void ControlProgram::abend(emu::Cpu& cpu, Ecb& e, const std::string& dump) {
  const unsigned i = cpu.istream();
  loop_.save(i, e);
  dumps_.with_registers(dump, e);
  std::shared_ptr<Process> p = e.process;
  if (p->abnormal_end.empty()) p->abnormal_end = fmt::format("ECB {} ended with a dump", e.id);
  finish(i, e, -1);
  cpu.request_stop();
  end_if_stuck(*p, i);
}

bool ControlProgram::program_check(unsigned i, const emu::RunResult& r) {
  Ecb& e = *loop_.current(i);
  ++stats_.ecb_program_checks;
  dumps_.program_check(machine_.cpu(i), r, evm_.symbols(), e);
  loop_.save(i, e);
  std::shared_ptr<Process> p = e.process;
  if (p->abnormal_end.empty()) p->abnormal_end = fmt::format("ECB {} ended by a program check", e.id);
  finish(i, e, -1);
  end_if_stuck(*p, i);
  return true;
}

void ControlProgram::timeout(unsigned i, Ecb& e) {
  ++stats_.ecb_timeouts;
  dumps_.timeout(e, i, double(e.cpu_cycles) / (machine_.config().clock_ghz * 1e6), evm_.symbolize(e.psw));
  std::shared_ptr<Process> p = e.process;
  if (p->abnormal_end.empty()) p->abnormal_end = fmt::format("ECB {} ended by the CPU time limit", e.id);
  finish(i, e, -1);
  end_if_stuck(*p, i);
}

// A word outside the shared area is the process's own: only its ECBs can change it.
bool ControlProgram::stuck(const Ecb& e) const {
  if (e.joiner_of) return true;
  return e.word_wait && !(e.word_wait >= TPF_EVM_SHARED && e.word_wait < TPF_EVM_SHARED_END);
}

void ControlProgram::end_if_stuck(Process& p, unsigned istream) {
  if (p.abnormal_end.empty()) return;
  std::vector<Ecb*> mine;
  for (auto& [id, e] : ecbs_)
    if (e->process.get() == &p) {
      if (!stuck(*e)) return;  // one can still run: it may release the others
      mine.push_back(e.get());
    }
  if (mine.empty()) return;
  const std::shared_ptr<Process> keep = mine.front()->process;  // its last ECB's end would free it
  // Waiters on words go first: a joiner they end is then made ready by finish.
  std::stable_partition(mine.begin(), mine.end(), [](const Ecb* e) { return e->joiner_of == 0; });
  for (Ecb* e : mine) {
    if (!ecbs_.count(e->id) || !stuck(*e)) continue;  // ended or woken by one ended before it
    if (e->word_wait) {
      if (auto it = word_waiters_.find(e->word_key); it != word_waiters_.end()) {
        std::erase(it->second, e);
        if (it->second.empty()) word_waiters_.erase(it);
      }
    } else {
      std::erase(p.joiners, e);
      e->joiner_of = 0;
    }
    dumps_.with_registers(fmt::format("ECB {} (program {}, thread {}) ENDED BY THE CONTROL PROGRAM: it waits on {}, "
                                      "and no ECB of its process can run to release it ({})\n",
                                      e->id, e->program, e->thread, e->waiting_on, p.abnormal_end),
                          *e);
    e->waiting_on.clear(), e->word_wait = 0, e->word_key = 0;
    finish(istream, *e, -1);
  }
}

std::string ControlProgram::no_progress() const {
  std::string why = fmt::format("nothing can run and nothing is pending, at {:.6f} s simulated time; ",
                                double(machine_.elapsed_cycles()) / (machine_.config().clock_ghz * 1e9));
  if (ecbs_.empty()) return why + "no ECB is left (the workload sent nothing more)";
  why += fmt::format("{} ECB{} wait{}:", ecbs_.size(), ecbs_.size() == 1 ? "" : "s", ecbs_.size() == 1 ? "s" : "");
  unsigned shown = 0;
  for (const auto& [id, e] : ecbs_) {
    if (++shown > 8) {
      why += fmt::format(" (and {} more)", ecbs_.size() - 8);
      break;
    }
    why += fmt::format(" ECB {} ({}{}) on {};", id, e->program, e->thread ? fmt::format(" thread {}", e->thread) : "",
                       e->waiting_on.empty() ? "nothing known" : e->waiting_on);
  }
  why.pop_back();
  return why;
}

// Static storage is the ECB's own, as C programs' writable static storage is in z/TPF:
// the image's writable pages are not mapped in a new process; the first touch of one
// copies it from the image (a host service, charged like one).
emu::PageFaultHandler::Action ControlProgram::page_fault(emu::Cpu& cpu, uint64_t address) {
  Ecb* e = loop_.current(cpu.istream());
  if (!e) return Action::Fail;
  // A subsystem's page first (a page paged out is the paging subsystem's, even where the
  // image's static pages are copied on first touch).
  for (auto& s : subsystems_)
    if (const Action a = s->page_fault(cpu, *e, address); a != Action::Fail) {
      if (a == Action::Wait) loop_.page_wait_began(*e, cpu.cycles);  // parked for a page-in
      return a;
    }
  // A first reference no subsystem took (a control program without the paging
  // subsystem, as in unit tests): the page is backed at no cost, as before first
  // references were charged; tpfemu run always has the paging subsystem, which charges it.
  if (e->process->space->map_first_reference(address)) return Action::Retry;
  if (!evm_.copy_static_page(*e->process, address)) return Action::Fail;
  cpu.charge(emu::Cause::Service, config_.system.service_cost + emu::kPageSize / 16);  // the copy: 16 bytes a cycle
  ++stats_.static_page_copies;
  return Action::Retry;
}

// ---- the run -------------------------------------------------------------------------------

void ControlProgram::begin_messages(uint64_t now) {
  if (now) log(fmt::format("{:>12} workload.prelude {} ended: the messages begin", now, config_.workload.prelude));
  measurement_.start(now);
  workload_.start(now);
}

// workload.prelude's ECB, on I-stream 0 at the start; begin_messages when it ends.
void ControlProgram::start_prelude() {
  const std::string& text = config_.workload.prelude_text;
  const std::vector<uint8_t> msg(text.begin(), text.end());
  Ecb* e = new_ecb(config_.workload.prelude, new_process(), 0);
  e->prelude = true;
  if (!evm_.map_message(*e->process, msg) ||
      !evm_.start_program(*e, evm_.entry_of(e->program), msg.empty() ? 0 : TPF_EVM_MESSAGE, msg.size(), ecb_return_))
    throw std::runtime_error("workload.prelude: no storage for its ECB");
  loop_.make_ready(*e, false, 0);
}

// The control program's own columns; the subsystems add theirs when they install.
void ControlProgram::start_timeline() {
  timeline_ = std::make_unique<Timeline>(config_.system.timeline_s);
  rmf_cpu_ = std::make_unique<RmfCpuActivity>(machine_);
  using K = TimelineColumn::Kind;
  const double hz = machine_.config().clock_ghz * 1e9;
  timeline_->add({.key = "messages_per_s", .label = "msgs/s", .kind = K::Rate,
                  .value = [this] { return double(measurement_.completed_total()); }});
  timeline_->add({.key = "response_ms", .label = "resp ms", .kind = K::Mean,
                  .value = [this] { return measurement_.response_ms_total(); },
                  .count = [this] { return double(measurement_.completed_total()); }, .decimals = 3});
  timeline_->add({.key = "cpu_percent", .label = "CPU %", .kind = K::Rate, .value = [this, hz] {
                    uint64_t busy = 0;
                    for (unsigned k = 0; k < machine_.istreams(); ++k) busy += machine_.counters(k).busy_cycles;
                    return double(busy) * 100 / (hz * machine_.istreams());
                  }, .decimals = 1});
  every(uint64_t(config_.system.timeline_s * hz), [this, hz](uint64_t now) {
    timeline_->sample(double(now) / hz);
    rmf_cpu_->interval_end(now);
    if (DispatchObserver* o = loop_.observer()) o->timeline_row(double(now) / hz, timeline_->keys(), timeline_->last_row());
    for (const auto& fn : interval_ends_) fn(now);
  });
}

RunSummary ControlProgram::run() {
  evm_.mark_frames_at_start();
  if (config_.workload.prelude.empty())
    begin_messages(0);
  else
    start_prelude();
  // Periodic events (syslog's drain, the console's poll) while anything can still run.
  if (desk_.console())
    every(uint64_t(double(config_.ztrap.console_poll_ns) * machine_.config().clock_ghz),
          [this](uint64_t now) { desk_.poll(now); });
  for (const auto& [interval, fn] : periodic_) start_periodic(interval, fn, 0);
  const emu::MachineRunResult r = machine_.run();
  // The machine stops by itself only when nothing can run and nothing is pending: the
  // workload's end was not reached, and would never be. Unless a subsystem stopped all
  // work for good (a stand-alone dump): then that is the run's end, and its reports say so.
  stats_.system_stopped = loop_.system_held();
  if (r.reason == emu::MachineRunResult::Reason::AllStopped && !stats_.system_stopped)
    stats_.ended_early = no_progress();
  if (r.reason == emu::MachineRunResult::Reason::HostStop) {
    // Where the host's signal fell depends on the host's speed: only this run's
    // figures do, and its reports say so.
    const int sig = stopped_by_signal_ = host_stop_->load();
    const char* name = sigabbrev_np(sig);
    stats_.ended_early = fmt::format("stopped by signal {} (SIG{}) at {:.6f} s simulated", sig, name ? name : "?",
                                     double(machine_.elapsed_cycles()) / (machine_.config().clock_ghz * 1e9));
  }
  if (r.reason == emu::MachineRunResult::Reason::HostLimit)
    stats_.ended_early = fmt::format(
        "host memory limit: the storage's frames stored into, touched frames and decoded code take {} bytes, over "
        "machine.host_storage_limit ({} bytes)",
        machine_.storage().host_bytes(), machine_.storage().host_limit());
  if (!stats_.ended_early.empty())
    log(fmt::format("{:>12} run ended early: {}", machine_.elapsed_cycles(), stats_.ended_early));
  if (DispatchObserver* o = loop_.observer()) observe_run_end(*o);
  for (auto& s : subsystems_) s->run_ended();
  for_each_process([this](Process& p) {  // processes still alive end with the run
    for (auto& s : subsystems_) s->process_ending(p);
  });
  if (r.reason == emu::MachineRunResult::Reason::ProgramCheck)
    throw std::logic_error("program check outside any ECB");

  measurement_.figures(stats_);
  if (const emu::MemoryHierarchy* mh = machine_.caches())
    stats_.line_transfers = mh->line_transfers(), stats_.invalidations = mh->invalidations();
  stats_.time_slices = loop_.time_slices();
  stats_.dispatches = loop_.dispatches();
  // ECBs still in flight end with the run; then every frame they used must be back.
  loop_.clear();
  ecbs_.clear();
  stats_.frames_in_use_at_end = evm_.frames_in_use();
  for (const SummaryCounter& c : counters_)
    stats_.extra_counters.push_back({c.key, c.label, c.after, c.value(), c.fails_run});
  for (const auto& note : notes_)
    if (std::string text = note(); !text.empty()) stats_.notes.push_back(std::move(text));
  choose_headline();
  return stats_;
}

void ControlProgram::observe_run_end(DispatchObserver& o) const {
  std::vector<uint64_t> clocks, instructions;
  for (unsigned k = 0; k < machine_.istreams(); ++k)
    clocks.push_back(machine_.cpu(k).cycles), instructions.push_back(machine_.cpu(k).instructions);
  o.run_ended(machine_.elapsed_cycles(), clocks, instructions);
}

SystemStatus ControlProgram::status() const {
  SystemStatus s;
  s.ecbs = ecbs_.size();
  s.cross = loop_.cross_count();
  s.held = loop_.held_count();
  for (unsigned i = 0; i < machine_.istreams(); ++i) {
    IStreamStatus is;
    if (const Ecb* e = loop_.current(i)) is.running = e->program;
    is.ready = loop_.ready_count(i), is.deferred = loop_.deferred_count(i), is.input = loop_.input_count(i);
    const emu::Cpu& cpu = machine_.cpu(i);
    is.cycles = cpu.cycles;
    is.busy_cycles = cpu.cycles;
    for (size_t c = 0; c < emu::kCauseCount; ++c)
      if (emu::is_idle(emu::Cause(c))) is.busy_cycles -= cpu.cycles_by_cause()[c];
    s.istreams.push_back(is);
  }
  std::map<const Process*, size_t> space_of;  // only asked, never walked: the order is the ECBs'
  for (const auto& [id, e] : ecbs_) {
    auto [it, fresh] = space_of.emplace(e->process.get(), s.spaces.size());
    if (fresh)
      s.spaces.push_back({.id = e->process->id, .name = e->process->name, .ecbs = 0,
                          .cpu_cycles = e->process->cpu_cycles, .nondispatchable = e->process->nondispatchable});
    ++s.spaces[it->second].ecbs;
  }
  return s;
}

// system.headline names messages_per_second or a subsystem's headline of this run.
void ControlProgram::check_headline_choice() const {
  const std::string& want = config_.system.headline;
  if (want.empty() || want == "auto" || want == "messages_per_second") return;
  std::string keys = "auto, messages_per_second";
  for (const SummaryHeadline& h : headlines_) {
    if (h.key == want) return;
    keys += ", " + h.key;
  }
  throw std::runtime_error(fmt::format("system.headline: {} is not a headline figure of this run ({})", want, keys));
}

// The summary's headline: system.headline's, else the first subsystem figure that applies
// (with its reason), else the messages a second; and the keys that could be chosen.
void ControlProgram::choose_headline() {
  const std::string& want = config_.system.headline;
  const bool chosen = !want.empty() && want != "auto";
  Headline& out = stats_.headline;
  out.choices = {"messages_per_second"};
  for (const SummaryHeadline& h : headlines_) out.choices.push_back(h.key);
  if (chosen) out.reason = "system.headline chose it";
  if (chosen && want == "messages_per_second") return;
  for (const SummaryHeadline& h : headlines_)
    if (chosen ? h.key == want : h.applies()) {
      std::vector<std::string> choices = std::move(out.choices);
      out = {h.key, h.label, h.note, h.value(), h.digits, chosen ? out.reason : h.reason, std::move(choices),
             h.detail ? h.detail() : "", std::nullopt, ""};
      return;
    }
}

}  // namespace os
