#include "os/control_program.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <optional>
#include <stdexcept>

#include "emu/program_check.h"
#include "os/guest/include/tpf_svc.h"
#include "heap/tls_replay.h"
#include "os/console.h"
#include "os/ztrap.h"

namespace os {
namespace {

// Linux-compatible numbers served inside ECBs, so the C runtime works there.
enum : uint64_t { kLinuxExit = 1, kLinuxWrite = 4, kLinuxBrk = 45, kLinuxExitGroup = 248 };
constexpr int64_t kEnosys = 38, kEbadf = 9, kEfault = 14, kEnomem = 12;
constexpr uint8_t kRW = emu::kProtRead | emu::kProtWrite;

uint64_t page_up(uint64_t a) { return (a + emu::kPageMask) & ~emu::kPageMask; }

}  // namespace

ControlProgram::ControlProgram(emu::Machine& machine, const RunConfig& config)
    : machine_(machine),
      config_(config),
      image_(emu::read_elf_file(config.system.image)),
      image_space_(machine.storage()),
      rng_(config.workload.seed) {
  if (!emu::load_elf(image_, image_space_)) throw std::runtime_error("storage is too small for the program image");
  image_space_.for_each_page([&](uint64_t va, const emu::Frame& f) {
    emu::Translation t;
    image_space_.translate(va, t);
    if (t.prot & emu::kProtWrite) image_data_[va] = {va, f.number, t.prot};
    else image_pages_.push_back({va, f.number, t.prot});
  });
  auto need = [&](const char* sym) {
    const emu::Symbol* s = image_.symbols.find(sym);
    if (!s)
      throw std::runtime_error(fmt::format("{}: the program image has no {} (link the TPF runtime, os/guest/tpf)",
                                           config.system.image, sym));
    return s->address;
  };
  if (!image_space_.map(Evm::kShared, config.system.shared_size, kRW))
    throw std::runtime_error("storage is too small for the shared system area");
  for (uint64_t va = Evm::kShared; va < Evm::kShared + config.system.shared_size; va += emu::kPageSize) {
    emu::Translation t;
    image_space_.translate(va, t);
    image_pages_.push_back({va, t.frame->number, kRW});  // mapped shared and writable in every process
  }
  if (!config.workload.data_file.empty()) map_data_file(config.workload.data_file);
  ecb_return_ = need("__tpf_ecb_return");
  thread_return_ = need("__tpf_thread_return");
  if (!entry_of(config.workload.program))
    throw std::runtime_error(fmt::format("workload.program: {} is not a program of {}", config.workload.program,
                                         config.system.image));

  machine_.start(image_space_);
  unsigned n = machine_.istreams();
  current_.assign(n, nullptr);
  ready_.resize(n), deferred_.resize(n), input_.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    machine_.cpu(i).set_svc_handler(this);
    machine_.cpu(i).set_page_fault_handler(this);
    machine_.set_state(i, emu::IStreamState::Idle);
  }
  machine_.set_dispatcher(this);
  stats_.istreams.resize(n);
  install_operator_commands();
  install_simple_lock();
  install_ecb_heap();
}

// ---- operator commands (os/operator.h) ------------------------------------------------

ZtrapEi& ControlProgram::ztrap_ei() {
  if (!ztrap_)
    ztrap_ = std::make_unique<ZtrapEi>(machine_, image_space_, image_.symbols,
                                       std::filesystem::path(config_.system.image).filename().string(),
                                       config_.system.ztrap.interval);
  return *ztrap_;
}

void ControlProgram::install_operator_commands() {
  const double hz = machine_.config().clock_ghz * 1e9;
  for (const OperatorEntry& op : config_.operators) {
    const uint64_t at = uint64_t(double(op.at_ns) * hz / 1e9);  // cycles from the start of the run
    const uint64_t ns = op.at_ns;
    ZtrapEi& z = ztrap_ei();
    if (op.command.verb == OperatorCommand::Verb::ZtrapEiStart)
      machine_.events().schedule(at, [&z, at, ns, prog = op.command.prog] { z.start(prog, at, ns); });
    else
      machine_.events().schedule(at, [&z, ns] { z.stop(ns); });
  }
}

std::string ControlProgram::operator_command(const std::string& text, uint64_t now) {
  const uint64_t ns = uint64_t(double(now) / machine_.config().clock_ghz + 0.5);
  const std::string when = emu::format_duration(ns);
  std::string first = text.substr(0, text.find_first_of(" \t"));
  for (char& c : first) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (first == "HELP")
    return "ZTRAP EI START [PROG=name]  start the software profiler (PROG=: programs starting with name)\n"
           "ZTRAP EI STOP               stop it; the run writes etim.txt and etim.json at its end\n";
  OperatorCommand c;
  try {
    c = parse_operator_command(text);
  } catch (const emu::ConfigError& e) {
    return fmt::format("ERROR at {}: {}", when, e.what());
  }
  ZtrapEi& z = ztrap_ei();
  const bool start = c.verb == OperatorCommand::Verb::ZtrapEiStart;
  if (start == z.on())
    return fmt::format("ERROR at {}: ZTRAP EI is {}", when, start ? "already on (STOP it first)" : "not on");
  if (start) z.start(c.prog, now, ns);
  else z.stop(ns);
  append_log(fmt::format("{:>12} operator console: {}   (to replay: operator: [{{at: {}, command: {}}}])", now,
                         text, when, text));
  if (start) return fmt::format("ZTRAP EI STARTED at {}{}", when, c.prog.empty() ? "" : " PROG=" + c.prog);
  std::vector<emu::ProfileRow> rows = z.rows();
  uint64_t samples = 0;
  for (const auto& r : rows) samples += r.samples;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.samples > b.samples; });
  std::string out = fmt::format("ZTRAP EI STOPPED at {}: {} samples so far; the top instructions:\n", when, samples);
  for (size_t k = 0; k < rows.size() && k < 5 && rows[k].samples; ++k)
    out += fmt::format("  {:<20} {:016X} {:<8} {:>10}\n", rows[k].prog, rows[k].disp, rows[k].inst, rows[k].samples);
  return out;
}

void ControlProgram::schedule_console_poll(uint64_t after) {
  const uint64_t every =
      std::max<uint64_t>(1, uint64_t(double(config_.system.ztrap.console_poll_ns) * machine_.config().clock_ghz));
  const uint64_t at = after + every;
  machine_.events().schedule(at, [this, at] {
    for (const ConsoleLine& l : console_->poll()) console_->reply(l.session, operator_command(l.text, at));
    if (still_running()) schedule_console_poll(at);
  });
}

bool ControlProgram::write_etim(std::ostream& text, std::ostream& json) {
  if (!ztrap_ || !ztrap_->started()) return false;
  ztrap_->write(text, json);
  return true;
}

// ---- simple locks and syslog (lock/) ---------------------------------------------------

// No application change: the algorithm and spin limit go into the image (read-only
// variables of lock/guest/simplelock.c) before any ECB runs. An image without them
// (no syslog, no simple locks) just has nothing to configure.
void ControlProgram::install_simple_lock() {
  const lock::SimpleLockConfig& sl = config_.system.simple_lock;
  set_image_value("slock_algorithm", uint64_t(std::max(0, lock::algorithm_number(sl.algorithm))), 4);
  set_image_value("slock_spin_limit", sl.spin_limit, 8);
  syslog_ = std::make_unique<lock::SyslogDrain>(image_space_, Evm::kShared,
                                                machine_.cpu(0).tod_clock());  // the clocks are at 0 here
}

// ---- the ECB heap (heap/) ----------------------------------------------------------------

// The TLS trace, turned into the image the guest replays, on read-only pages every
// process maps (like the program's). A bad trace is a configuration error naming its line.
void ControlProgram::map_data_file(const std::string& path) {
  std::vector<uint8_t> image;
  try {
    image = heap::tls_trace_image(path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("workload.data_file: {}", e.what()));
  }
  if (!image_space_.map(Evm::kData, image.size(), kRW) || !image_space_.write_bytes(Evm::kData, image.data(), image.size()))
    throw std::runtime_error("workload.data_file: no storage for the trace");
  for (uint64_t va = Evm::kData; va < Evm::kData + image.size(); va += emu::kPageSize) {
    emu::Translation t;
    image_space_.translate(va, t);
    image_pages_.push_back({va, t.frame->number, emu::kProtRead});
  }
}

// No application change: the variant and its settings go into the image (read-only
// variables of heap/guest/eheap_core.c) before any ECB runs, like the simple lock's.
void ControlProgram::install_ecb_heap() {
  const heap::EcbHeapConfig& h = config_.system.ecb_heap;
  heap_totals_.algorithm = h.algorithm;
  set_image_value("eheap_algorithm", uint64_t(std::max(0, heap::algorithm_number(h.algorithm))), 4);
  set_image_value("eheap_control_entries", h.control_entries, 4);
  set_image_value("eheap_trace_entries", h.trace_entries, 4);
  set_image_value("eheap_thread_avl_max", h.thread_avl_max, 4);
  set_image_value("eheap_hash_buckets", h.hash_buckets, 4);
  for (size_t k = 0; k < heap::kAvls; ++k) {
    set_image_array("eheap_avl_sizes", k, h.app.sizes[k], 4);
    set_image_array("eheap_avl_sizes", heap::kAvls + k, h.ssl.sizes[k], 4);
    set_image_array("eheap_avl_counts", k, h.app.counts[k], 4);
    set_image_array("eheap_avl_counts", heap::kAvls + k, h.ssl.counts[k], 4);
  }
  set_image_value("eheap_stack_top", Evm::kStackTop, 8);
  set_image_value("eheap_stack_stride", page_up(config_.system.stack_size) + 16 * emu::kPageSize, 8);
}

// The next 1 MB of an area, with a 1 MB frame if one is left (else 4 KB frames).
int64_t ControlProgram::svc_heap_frame(Ecb& e, uint64_t area64) {
  Process& p = *e.process;
  uint64_t& end = area64 ? p.heap64_end : p.heap31_end;
  const uint64_t base = area64 ? Evm::kHeap64 : Evm::kHeap31;
  const uint64_t size = area64 ? config_.system.heap64_size : config_.system.heap31_size;
  if (end + emu::kSegmentSize > base + size) return 0;
  p.space->map_large(end, emu::kSegmentSize, kRW);
  if (!p.space->is_mapped(end) || !p.space->is_mapped(end + emu::kSegmentSize - 1)) return 0;  // no storage left
  const uint64_t at = end;
  end += emu::kSegmentSize;
  return int64_t(at);
}

// A heap check failed: the ECB ends with a dump naming it, the address and the check;
// the run goes on and counts it.
void ControlProgram::svc_heap_error(emu::Cpu& cpu, Ecb& e) {
  const unsigned i = cpu.istream();
  const int check = int(cpu.gr[2]);
  const uint64_t address = cpu.gr[3];
  ++stats_.ecb_heap_errors;
  ++heap_totals_.errors[heap::error_name(check)];
  save(i, e);
  const uint64_t caller = cpu.gr[4] ? cpu.gr[4] : cpu.gr[14];
  std::string where;
  if (const emu::Symbol* s = image_.symbols.find(caller)) where = fmt::format("{}+{:#x}", s->name, caller - s->address);
  dumps_ += fmt::format("ECB HEAP ERROR: {} -- ECB {} (program {}, thread {}, I-stream {})\n", heap::error_name(check),
                        e.id, e.program, e.thread, i);
  dumps_ += fmt::format("  ADDRESS      {:016X}\n  CALLED FROM  {:016X}  {}\n", address, caller, where);
  dumps_ += register_lines(e) + "\n";
  finish(i, e, -1);
  give_up(cpu);
}

void ControlProgram::svc_heap_lock(emu::Cpu& cpu, Ecb& e) {
  Process& p = *e.process;
  if (!p.heap_lock_holder || p.heap_lock_holder == &e) {
    p.heap_lock_holder = &e;
    return;
  }
  park(cpu, e, p.heap_lock_waiters);  // held by another thread: wait for the hand-over
}

void ControlProgram::heap_unlock(Ecb& e, uint64_t now) {
  Process& p = *e.process;
  if (p.heap_lock_holder != &e) return;
  p.heap_lock_holder = nullptr;
  if (p.heap_lock_waiters.empty()) return;
  Ecb* w = p.heap_lock_waiters.front();
  p.heap_lock_waiters.pop_front();
  p.heap_lock_holder = w;  // handed over: it returns from its SVC holding the lock
  make_ready(*w, false, now);
}

void ControlProgram::harvest_heap(Process& p) {
  if (p.heap_harvested) return;
  p.heap_harvested = true;
  heap::harvest(*p.space, heap_totals_);
}

// Whether anything can still run: an event other than the caller's, or an I-stream
// that is not idle. A periodic event re-arms itself only then, so that it never keeps
// an otherwise finished run going.
bool ControlProgram::still_running() const {
  if (!machine_.events().empty()) return true;
  for (unsigned k = 0; k < machine_.istreams(); ++k)
    if (machine_.state(k) != emu::IStreamState::Idle) return true;
  return false;
}

void ControlProgram::schedule_syslog_drain(uint64_t after) {
  const uint64_t every = std::max<uint64_t>(1, uint64_t(config_.system.simple_lock.drain_interval_us *
                                                        machine_.config().clock_ghz * 1e3));
  const uint64_t at = after + every;
  machine_.events().schedule(at, [this, at] {
    syslog_->drain();
    if (still_running()) schedule_syslog_drain(at);
  });
}

std::vector<lock::LockStats> ControlProgram::lock_stats() {
  lock::LockStats l;
  l.name = "syslog";
  l.algorithm = config_.system.simple_lock.algorithm;
  if (!lock::read_lock_stats(image_space_, syslog_->lock_address(), machine_.config().clock_ghz, l)) return {};
  return {l};
}

lock::SyslogStats ControlProgram::syslog_stats() {
  lock::SyslogStats s = syslog_->stats();
  s.simulated_seconds = stats_.simulated_seconds;
  return s;
}

ControlProgram::~ControlProgram() { machine_.set_dispatcher(nullptr); }

uint64_t ControlProgram::entry_of(const std::string& program) const {
  const emu::Symbol* s = image_.symbols.find(program);
  return s ? s->address : 0;
}

uint64_t ControlProgram::cycles_of_ms(double ms) const {
  return uint64_t(ms * machine_.config().clock_ghz * 1e6);
}

bool ControlProgram::set_image_array(const std::string& symbol, size_t index, uint64_t value, unsigned size) {
  const emu::Symbol* s = image_.symbols.find(symbol);
  if (!s || size > 8) return false;
  uint8_t be[8];
  emu::Cpu::store_be<uint64_t>(be, value);
  return image_space_.write_bytes(s->address + index * size, be + 8 - size, size);
}

bool ControlProgram::set_image_value(const std::string& symbol, uint64_t value, unsigned size) {
  return set_image_array(symbol, 0, value, size);
}

uint64_t ControlProgram::frames_in_use() const {
  const auto& s = machine_.storage();
  return s.allocated_4k() + s.allocated_1m() * emu::kPagesPerSegment - frames_at_start_;
}

// ---- ECBs and their storage ---------------------------------------------------------

std::shared_ptr<Process> ControlProgram::new_process() {
  auto p = std::make_shared<Process>();
  p->space = std::make_unique<emu::AddressSpace>(machine_.storage());
  for (const auto& pg : image_pages_) p->space->map_shared(pg.vaddr, pg.frame, pg.prot);
  return p;
}

Ecb* ControlProgram::new_ecb(const std::string& program, std::shared_ptr<Process> process, unsigned home) {
  auto e = std::make_unique<Ecb>();
  e->id = next_ecb_++;
  e->program = program;
  e->process = std::move(process);
  e->home = home;
  Ecb* raw = e.get();
  ecbs_[raw->id] = std::move(e);
  ++stats_.ecbs_created;
  return raw;
}

bool ControlProgram::start_program(Ecb& e, uint64_t entry, uint64_t r2, uint64_t r3, uint64_t r14) {
  uint64_t size = page_up(config_.system.stack_size);
  uint64_t top = Evm::kStackTop - uint64_t(e.thread) * (size + 16 * emu::kPageSize);  // a guard gap
  if (!e.process->space->map(top - size, size, kRW)) return false;
  e.gr[2] = r2, e.gr[3] = r3, e.gr[14] = r14, e.gr[15] = top - 160;
  e.psw = entry;
  return true;
}

void ControlProgram::end_ecb(Ecb& e) {
  ++stats_.ecbs_exited;
  if (e.process.use_count() == 1) harvest_heap(*e.process);  // the process ends with it
  ecbs_.erase(e.id);  // the last ECB of a process returns its address space's frames
}

void ControlProgram::save(unsigned i, Ecb& e) {
  emu::Cpu& c = machine_.cpu(i);
  std::memcpy(e.gr, c.gr, sizeof e.gr);
  std::memcpy(e.fpr, c.fpr, sizeof e.fpr);
  std::memcpy(e.ar, c.ar, sizeof e.ar);
  e.psw = c.psw_addr, e.cc = c.cc, e.prog_mask = c.prog_mask;
  e.cpu_cycles += c.cycles - e.dispatched_at;
}

void ControlProgram::load(unsigned i, Ecb& e) {
  emu::Cpu& c = machine_.cpu(i);
  charge(c, emu::Cause::Dispatch, config_.system.dispatch_cost);
  c.switch_address_space(*e.process->space);
  std::memcpy(c.gr, e.gr, sizeof e.gr);
  std::memcpy(c.fpr, e.fpr, sizeof e.fpr);
  std::memcpy(c.ar, e.ar, sizeof e.ar);
  c.psw_addr = e.psw, c.cc = e.cc, c.prog_mask = e.prog_mask;
  e.dispatched_at = c.cycles;
  current_[i] = &e;
  ++stats_.dispatches;
  // Run until the time slice ends, or the CPU time limit, whichever is first.
  uint64_t limit = cycles_of_ms(config_.system.timeout_ms);
  uint64_t left = limit > e.cpu_cycles ? limit - e.cpu_cycles : 0;
  machine_.set_deadline(i, c.cycles + std::min(cycles_of_ms(config_.system.time_slice_ms), std::max<uint64_t>(left, 1)));
}

// Static storage is the ECB's own, as C programs' writable static storage is in z/TPF:
// the image's writable pages are not mapped in a new process; the first touch of one
// copies it from the image (a host service, charged like one).
emu::PageFaultHandler::Action ControlProgram::page_fault(emu::Cpu& cpu, uint64_t address) {
  Ecb* e = current_[cpu.istream()];
  auto it = image_data_.find(address & ~emu::kPageMask);
  if (!e || it == image_data_.end()) return Action::Fail;
  const ImagePage& pg = it->second;
  emu::AddressSpace& space = *e->process->space;
  if (!space.map(pg.vaddr, emu::kPageSize, pg.prot)) return Action::Fail;
  space.write_bytes(pg.vaddr, machine_.storage().frame(pg.frame).data.get(), emu::kPageSize);
  charge(cpu, emu::Cause::Service, config_.system.service_cost + emu::kPageSize / 16);  // the copy: 16 bytes a cycle
  ++stats_.static_page_copies;
  return Action::Retry;
}

// ---- the CPU loop ---------------------------------------------------------------------

// z/TPF order: the cross list (shared), then this I-stream's ready, input and deferred
// lists. Add at the bottom, take from the top.
Ecb* ControlProgram::take_next(unsigned i) {
  auto pop = [](std::deque<Ecb*>& l) {
    Ecb* e = l.front();
    l.pop_front();
    return e;
  };
  if (!cross_.empty()) {  // from the cross list, an ECB stays on the I-stream that took it
    Ecb* e = pop(cross_);
    e->home = i;
    return e;
  }
  if (!ready_[i].empty()) return pop(ready_[i]);
  while (!input_[i].empty()) {
    InputMessage m = std::move(input_[i].front());
    input_[i].pop_front();
    emu::Cpu& c = machine_.cpu(i);
    charge(c, emu::Cause::Create, config_.system.create_cost);
    auto proc = new_process();
    Ecb* e = new_ecb(config_.workload.program, proc, i);
    e->message = m.seq, e->arrival = m.arrival, e->terminal = m.terminal;
    bool ok = proc->space->map(Evm::kMessage, std::max<uint64_t>(m.bytes.size(), 1), kRW) &&
              proc->space->write_bytes(Evm::kMessage, m.bytes.data(), m.bytes.size()) &&
              start_program(*e, entry_of(e->program), Evm::kMessage, m.bytes.size(), ecb_return_);
    if (ok) return e;
    dumps_ += fmt::format("ECB {}: no storage left for message {}; message dropped\n", e->id, m.seq);
    message_done(*e, c.cycles);
    end_ecb(*e);
  }
  if (!deferred_[i].empty()) return pop(deferred_[i]);
  return nullptr;
}

bool ControlProgram::dispatch(unsigned i, Why why) {
  if (why == Why::TimeUp && current_[i]) {
    Ecb& e = *current_[i];
    save(i, e);
    current_[i] = nullptr;
    ++stats_.time_slices;
    if (e.cpu_cycles >= cycles_of_ms(config_.system.timeout_ms)) timeout(i, e);
    else ready_[i].push_back(&e);
  }
  Ecb* next = take_next(i);
  if (!next) return false;
  load(i, *next);
  return true;
}

// Work becomes ready: to the bottom of its home I-stream's ready list, or of the cross
// list (any I-stream); an idle I-stream that can take it is woken.
void ControlProgram::make_ready(Ecb& e, bool cross, uint64_t now) {
  if (!cross) {
    ready_[e.home].push_back(&e);
    return machine_.wake(e.home, now);
  }
  cross_.push_back(&e);
  for (unsigned k = 0; k < machine_.istreams(); ++k)
    if (machine_.state(k) == emu::IStreamState::Idle) return machine_.wake(k, now);
}

void ControlProgram::give_up(emu::Cpu& cpu) { cpu.request_stop(); }

// The running ECB gives up control to wait on `list`: its state is saved, its
// I-stream looks for other work.
void ControlProgram::park(emu::Cpu& cpu, Ecb& e, std::deque<Ecb*>& list) {
  const unsigned i = cpu.istream();
  save(i, e);
  current_[i] = nullptr;
  list.push_back(&e);
  give_up(cpu);
}

// ---- errors ---------------------------------------------------------------------------

bool ControlProgram::program_check(unsigned i, const emu::RunResult& r) {
  Ecb& e = *current_[i];
  emu::Cpu& c = machine_.cpu(i);
  ++stats_.ecb_program_checks;
  std::string who = fmt::format("ECB {} (program {}, I-stream {})", e.id, e.program, i);
  dumps_ += emu::format_program_check(c, r.check, &image_.symbols, who) + "\n";
  save(i, e);
  finish(i, e, -1);
  return true;
}

// Like z/TPF's CTL-10: an ECB that used its CPU time limit without ending is ended
// with a dump; the rest of the system keeps running.
// A dump's general registers, as the ECB's saved state holds them.
std::string ControlProgram::register_lines(const Ecb& e) {
  std::string out;
  for (unsigned r = 0; r < 16; r += 4)
    out += fmt::format("  GR{:<2}-{:<2}     {:016X} {:016X} {:016X} {:016X}\n", r, r + 3, e.gr[r], e.gr[r + 1],
                       e.gr[r + 2], e.gr[r + 3]);
  return out;
}

void ControlProgram::timeout(unsigned i, Ecb& e) {
  ++stats_.ecb_timeouts;
  std::string where;
  if (const emu::Symbol* s = image_.symbols.find(e.psw)) where = fmt::format("{}+{:#x}", s->name, e.psw - s->address);
  dumps_ += fmt::format("CTL-10 PROGRAM TIMEOUT: ECB {} (program {}, I-stream {}) used {:.3f} ms of CPU\n", e.id,
                        e.program, i, double(e.cpu_cycles) / (machine_.config().clock_ghz * 1e6));
  dumps_ += fmt::format("  PSW ADDRESS  {:016X}  {}\n", e.psw, where);
  dumps_ += register_lines(e) + "\n";
  finish(i, e, -1);
}

// The ECB (or thread) ends: its message is done, joiners wake, its storage goes back.
void ControlProgram::finish(unsigned i, Ecb& e, int64_t rc) {
  uint64_t t = now(i);
  charge(machine_.cpu(i), emu::Cause::Exit, config_.system.exit_cost);
  if (current_[i] == &e) current_[i] = nullptr;
  Process& p = *e.process;
  heap_unlock(e, t);  // an ECB that ends holding its process's heap lock lets go of it
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
      make_ready(*j, false, t);
    }
  }
  if (e.message) message_done(e, t);
  end_ecb(e);
}

// ---- services -------------------------------------------------------------------------

std::string ControlProgram::read_string(Ecb& e, uint64_t addr) {
  std::string s;
  char ch;
  while (s.size() < 256 && e.process->space->read_bytes(addr + s.size(), &ch, 1) && ch) s += ch;
  return s;
}

void ControlProgram::append_log(std::string line) {
  log_ += line;
  if (log_.empty() || log_.back() != '\n') log_ += '\n';
}

void ControlProgram::supervisor_call(emu::Cpu& cpu, uint8_t number) {
  unsigned i = cpu.istream();
  Ecb& e = *current_[i];
  ++stats_.svcs;
  charge(cpu, emu::Cause::Svc, config_.system.svc_cost);
  uint64_t nr = number ? number : cpu.gr[1];
  uint64_t* a = &cpu.gr[2];
  auto service = [&] { charge(cpu, emu::Cause::Service, config_.system.service_cost); };
  switch (nr) {
    case kLinuxExit:
    case kLinuxExitGroup:
    case TPF_SVC_EXIT:
    case TPF_SVC_THREAD_EXIT:
      save(i, e);
      finish(i, e, int64_t(a[0]));
      return give_up(cpu);
    case kLinuxWrite: service(), a[0] = uint64_t(svc_write(e, a[0], a[1], a[2])); return;
    case kLinuxBrk: service(), a[0] = uint64_t(svc_brk(e, a[0])); return;
    case TPF_SVC_ENTER: {
      service();
      a[0] = entry_of(read_string(e, a[0]));
      return;
    }
    case TPF_SVC_BACK: return;
    case TPF_SVC_CREATE: service(), a[0] = uint64_t(svc_create(cpu, e)); return;
    case TPF_SVC_DEFER: return park(cpu, e, deferred_[i]);
    case TPF_SVC_DELAY: {
      save(i, e);
      current_[i] = nullptr;
      uint64_t at = cpu.cycles + uint64_t(double(a[0]) * machine_.config().clock_ghz * 1e3);
      Ecb* ep = &e;
      machine_.events().schedule(at, [this, ep, at] { make_ready(*ep, false, at); });
      return give_up(cpu);
    }
    case TPF_SVC_GETSTOR: service(), a[0] = uint64_t(svc_getstor(e, a[0])); return;
    case TPF_SVC_RELSTOR: service(), a[0] = uint64_t(svc_relstor(e, a[0])); return;
    case TPF_SVC_THREAD_CREATE: service(), a[0] = uint64_t(svc_thread_create(cpu, e)); return;
    case TPF_SVC_THREAD_JOIN: return svc_thread_join(cpu, e);
    case TPF_SVC_WAIT: return svc_wait(cpu, e);
    case TPF_SVC_POST: service(), svc_post(cpu, e); return;
    case TPF_SVC_WORD_WAIT: service(); return svc_word_wait(cpu, e);
    case TPF_SVC_WORD_WAKE: service(), a[0] = svc_word_wake(cpu, e); return;
    case TPF_SVC_HEAP_FRAME: service(), a[0] = uint64_t(svc_heap_frame(e, a[0])); return;
    case TPF_SVC_HEAP_ERROR: return svc_heap_error(cpu, e);
    case TPF_SVC_HEAP_LOCK: service(); return svc_heap_lock(cpu, e);
    case TPF_SVC_HEAP_UNLOCK: service(), heap_unlock(e, cpu.cycles); return;
    case TPF_SVC_LOG: {
      service();
      std::string s(std::min<uint64_t>(a[1], 4096), '\0');
      a[0] = e.process->space->read_bytes(a[0], s.data(), s.size()) ? 0 : uint64_t(-kEfault);
      append_log(fmt::format("{:>12} ECB {:<6} {}", cpu.cycles, e.id, s));
      return;
    }
    case TPF_SVC_ECB_INFO:
      switch (a[0]) {
        case TPF_INFO_ECB: a[0] = e.id; return;
        case TPF_INFO_ISTREAM: a[0] = i; return;
        case TPF_INFO_ISTREAMS: a[0] = machine_.istreams(); return;
        case TPF_INFO_THREAD: a[0] = e.thread; return;
        case TPF_INFO_TIME_US: a[0] = uint64_t(double(cpu.cycles) / (machine_.config().clock_ghz * 1e3)); return;
        case TPF_INFO_SHARED_SIZE: a[0] = config_.system.shared_size; return;
        case TPF_INFO_HEAP_CLASS: {
          const auto& ssl = config_.system.ecb_heap.ssl_programs;
          a[0] = std::find(ssl.begin(), ssl.end(), e.program) != ssl.end() ? 1 : 0;
          return;
        }
        default: a[0] = uint64_t(-kEnosys); return;
      }
    default:
      a[0] = uint64_t(-kEnosys);
      spdlog::warn("ECB {} ({}): SVC {} is not a service of the control program", e.id, e.program, nr);
  }
}

int64_t ControlProgram::svc_write(Ecb& e, uint64_t fd, uint64_t buf, uint64_t len) {
  if (fd != 1 && fd != 2) return -kEbadf;
  std::string s(std::min<uint64_t>(len, 1 << 16), '\0');
  if (!e.process->space->read_bytes(buf, s.data(), s.size())) return -kEfault;
  log_ += s;
  return int64_t(s.size());
}

int64_t ControlProgram::svc_brk(Ecb& e, uint64_t addr) {
  Process& p = *e.process;
  uint64_t limit = Evm::kHeap31 + config_.system.heap31_size;
  if (addr < Evm::kHeap31 || addr > limit) return int64_t(p.brk);
  if (addr > p.brk_mapped) {
    if (!p.space->map(p.brk_mapped, page_up(addr) - p.brk_mapped, kRW)) return int64_t(p.brk);
    p.brk_mapped = page_up(addr);
  }
  p.brk = addr;
  return int64_t(p.brk);
}

int64_t ControlProgram::svc_getstor(Ecb& e, uint64_t bytes) {
  Process& p = *e.process;
  uint64_t size = page_up(std::max<uint64_t>(bytes, 1));
  if (p.system_next + size > Evm::kSystem + config_.system.heap31_size) return 0;
  if (!p.space->map(p.system_next, size, kRW)) return 0;
  uint64_t at = p.system_next;
  p.system_blocks[at] = size;
  p.system_next += size;
  return int64_t(at);
}

int64_t ControlProgram::svc_relstor(Ecb& e, uint64_t addr) {
  Process& p = *e.process;
  auto it = p.system_blocks.find(addr);
  if (it == p.system_blocks.end()) return -kEfault;
  p.space->unmap(addr, it->second);
  p.system_blocks.erase(it);
  return 0;
}

int64_t ControlProgram::svc_create(emu::Cpu& cpu, Ecb& e) {
  unsigned i = cpu.istream();
  std::string program = read_string(e, cpu.gr[2]);
  uint64_t entry = entry_of(program);
  if (!entry) return -1;
  uint64_t len = std::min<uint64_t>(cpu.gr[4], 1 << 20);
  std::vector<uint8_t> msg(len);
  if (len && !e.process->space->read_bytes(cpu.gr[3], msg.data(), len)) return -1;
  charge(cpu, emu::Cause::Create, config_.system.create_cost);
  auto proc = new_process();
  Ecb* c = new_ecb(program, proc, i);
  if (!proc->space->map(Evm::kMessage, std::max<uint64_t>(len, 1), kRW) ||
      !proc->space->write_bytes(Evm::kMessage, msg.data(), len) ||
      !start_program(*c, entry, len ? Evm::kMessage : 0, len, ecb_return_)) {
    end_ecb(*c);
    return -1;
  }
  uint64_t id = c->id;
  switch (cpu.gr[5]) {
    case TPF_CREATE_DEFERRED: deferred_[i].push_back(c); break;
    case TPF_CREATE_ANY: make_ready(*c, true, cpu.cycles); break;
    default: ready_[i].push_back(c); break;
  }
  return int64_t(id);
}

int64_t ControlProgram::svc_thread_create(emu::Cpu& cpu, Ecb& e) {
  Process& p = *e.process;
  if (p.live_threads >= config_.system.max_threads) return -1;
  Ecb* t = new_ecb(e.program, e.process, cpu.istream());
  t->thread = p.next_thread++;
  if (!start_program(*t, cpu.gr[2], cpu.gr[3], 0, thread_return_)) {
    end_ecb(*t);
    return -1;
  }
  ++p.live_threads;
  make_ready(*t, true, cpu.cycles);  // any I-stream may run it
  return t->thread;
}

void ControlProgram::svc_thread_join(emu::Cpu& cpu, Ecb& e) {
  Process& p = *e.process;
  unsigned tid = unsigned(cpu.gr[2]);
  if (auto it = p.thread_results.find(tid); it != p.thread_results.end()) {
    cpu.gr[2] = it->second;
    return;
  }
  if (tid == 0 || tid >= p.next_thread) {
    cpu.gr[2] = uint64_t(-1);
    return;
  }
  unsigned i = cpu.istream();
  save(i, e);
  current_[i] = nullptr;
  e.joiner_of = tid;
  p.joiners.push_back(&e);
  give_up(cpu);
}

void ControlProgram::svc_wait(emu::Cpu& cpu, Ecb& e) {
  EventCount& ev = events_[cpu.gr[2]];
  if (ev.posts) {
    --ev.posts;
    cpu.gr[2] = 0;
    return;
  }
  park(cpu, e, ev.waiters);
  e.gr[2] = 0;
}

void ControlProgram::svc_post(emu::Cpu& cpu, Ecb&) {
  const uint64_t event = cpu.gr[2];
  EventCount& ev = events_[event];
  cpu.gr[2] = 0;
  if (ev.waiters.empty()) {
    ++ev.posts;
    return;
  }
  Ecb* w = ev.waiters.front();
  ev.waiters.pop_front();
  if (ev.waiters.empty() && ev.posts == 0) events_.erase(event);  // nothing left to remember
  make_ready(*w, false, cpu.cycles);
}

namespace {
// The absolute address of a guest doubleword (so that every address space mapping
// the same storage names the same word), or nothing if it is not mapped.
std::optional<uint64_t> word_absolute(emu::AddressSpace& space, uint64_t addr) {
  emu::Translation t;
  if ((addr & 7) != 0 || space.translate(addr, t) != emu::Translate::Ok) return std::nullopt;
  return t.frame->absolute() + (addr & 0xFFF);
}
}  // namespace

// The word is read and compared in the same step as the ECB is queued: a WORD_WAKE
// that a releasing ECB issues after changing the word either finds this ECB queued
// or comes before the check, which then sees the new value.
void ControlProgram::svc_word_wait(emu::Cpu& cpu, Ecb& e) {
  const auto key = word_absolute(*e.process->space, cpu.gr[2]);
  uint8_t b[8];
  if (!key || !e.process->space->read_bytes(cpu.gr[2], b, 8)) {
    cpu.gr[2] = uint64_t(-kEfault);
    return;
  }
  if (emu::Cpu::load_be<uint64_t>(b) != cpu.gr[3]) {
    cpu.gr[2] = 1;
    return;
  }
  park(cpu, e, word_waiters_[*key]);
  e.gr[2] = 0;
  ++stats_.word_waits;
}

uint64_t ControlProgram::svc_word_wake(emu::Cpu& cpu, Ecb& e) {
  const auto key = word_absolute(*e.process->space, cpu.gr[2]);
  if (!key) return uint64_t(-kEfault);
  auto it = word_waiters_.find(*key);
  uint64_t woken = 0;
  for (; it != word_waiters_.end() && !it->second.empty() && woken < cpu.gr[3]; ++woken) {
    Ecb* w = it->second.front();
    it->second.pop_front();
    make_ready(*w, false, cpu.cycles);
  }
  if (it != word_waiters_.end() && it->second.empty()) word_waiters_.erase(it);
  return woken;
}

// ---- the workload ----------------------------------------------------------------------

double ControlProgram::uniform() { return double(rng_() >> 11) * 0x1.0p-53; }

void ControlProgram::schedule_arrival(unsigned terminal, uint64_t at) {
  machine_.events().schedule(at, [this, terminal, at] { arrive(terminal, at); });
}

void ControlProgram::arrive(unsigned terminal, uint64_t time) {
  const WorkloadConfig& w = config_.workload;
  InputMessage m;
  m.seq = next_message_++;
  m.arrival = time;
  m.terminal = terminal;
  uint64_t size = w.message_size;
  if (w.message_size_max > w.message_size) size += uint64_t(uniform() * double(w.message_size_max - w.message_size + 1));
  if (!w.message_text.empty()) {
    m.bytes.assign(w.message_text.begin(), w.message_text.end());
  } else {
    m.bytes.resize(size);
    std::string head = fmt::format("MSG{:08} T{:04} ", m.seq, terminal);
    for (uint64_t k = 0; k < size; ++k) m.bytes[k] = k < head.size() ? uint8_t(head[k]) : uint8_t('A' + (rng_() % 26));
  }
  const bool by_terminal = w.route_by_terminal && w.arrivals == Arrivals::Closed;
  unsigned i = unsigned((by_terminal ? terminal : next_input_istream_++) % machine_.istreams());
  input_[i].push_back(std::move(m));
  machine_.wake(i, time);
  if (w.arrivals == Arrivals::Open)
    schedule_arrival(0, time + std::max<uint64_t>(1, uint64_t(-std::log(1.0 - uniform()) / w.rate *
                                                               machine_.config().clock_ghz * 1e9)));
}

void ControlProgram::message_done(const Ecb& e, uint64_t time) {
  const WorkloadConfig& w = config_.workload;
  ++completed_;
  if (window_open_) {
    responses_ms_.push_back(double(time - e.arrival) / (machine_.config().clock_ghz * 1e6));
    ++stats_.messages;
    last_completion_ = time;
  } else if (completed_ >= w.warmup_messages) {
    window_open_ = true;
    window_start_ = time;
    for (unsigned k = 0; k < machine_.istreams(); ++k) {
      window_busy0_[k] = machine_.counters(k).busy_cycles;
      window_insns0_[k] = machine_.cpu(k).instructions;
      window_causes0_[k] = machine_.cpu(k).cycles_by_cause();
    }
    if (w.seconds > 0) {
      uint64_t end = time + cycles_of_ms(w.seconds * 1000);
      machine_.events().schedule(end, [this, end] { last_completion_ = end, machine_.end_run(); });
    }
  }
  if (progress_ && completed_ % 1000 == 0)
    progress_(completed_, w.messages + w.warmup_messages, double(time) / (machine_.config().clock_ghz * 1e9));
  if (w.messages && stats_.messages >= w.messages) return machine_.end_run();
  if (w.arrivals == Arrivals::Closed) {
    double think = w.think_ms > 0 ? -std::log(1.0 - uniform()) * w.think_ms : 0;
    schedule_arrival(e.terminal, time + cycles_of_ms(think));
  }
}

RunSummary ControlProgram::run() {
  const WorkloadConfig& w = config_.workload;
  unsigned n = machine_.istreams();
  frames_at_start_ = machine_.storage().allocated_4k() + machine_.storage().allocated_1m() * emu::kPagesPerSegment;
  window_busy0_.assign(n, 0), window_insns0_.assign(n, 0);
  window_causes0_.assign(n, emu::CyclesByCause{});
  window_open_ = w.warmup_messages == 0;
  if (window_open_ && w.seconds > 0) {
    uint64_t end = cycles_of_ms(w.seconds * 1000);
    machine_.events().schedule(end, [this, end] { last_completion_ = end, machine_.end_run(); });
  }
  if (w.arrivals == Arrivals::Closed) {
    for (unsigned t = 0; t < w.terminals; ++t) {
      double think = w.think_ms > 0 ? -std::log(1.0 - uniform()) * w.think_ms : 0;
      schedule_arrival(t, cycles_of_ms(think));
    }
  } else {
    schedule_arrival(0, 0);
  }
  // syslog: drain the ring every system.syslog.drain_interval while anything can still
  // run (an event that only re-arms itself would keep an otherwise finished run going).
  schedule_syslog_drain(0);
  if (console_) schedule_console_poll(0);
  emu::MachineRunResult r = machine_.run();
  syslog_->drain();
  for (auto& [id, ecb] : ecbs_) harvest_heap(*ecb->process);  // processes still alive
  if (r.reason == emu::MachineRunResult::Reason::ProgramCheck)
    throw std::logic_error("program check outside any ECB");

  // Figures of the measurement window.
  RunSummary& s = stats_;
  uint64_t window = last_completion_ > window_start_ ? last_completion_ - window_start_ : 0;
  double hz = machine_.config().clock_ghz * 1e9;
  s.simulated_seconds = double(window) / hz;
  uint64_t busy_total = 0;
  for (unsigned k = 0; k < n; ++k) {
    auto c = machine_.counters(k);
    IStreamSummary& is = s.istreams[k];
    is.instructions = c.instructions - window_insns0_[k];
    is.busy_cycles = std::min(c.busy_cycles - window_busy0_[k], window);
    is.cycles = window;
    is.idle_cycles = window - is.busy_cycles;
    is.utilization = window ? double(is.busy_cycles) / double(window) : 0;
    is.cycles_by_cause = window_cycles_by_cause(window_causes0_[k], machine_.cpu(k).cycles_by_cause(),
                                                is.busy_cycles, is.idle_cycles);
    busy_total += is.busy_cycles;
    s.instructions += is.instructions;
  }
  s.cycles = window * n;  // all I-streams, like instructions
  if (const emu::MemoryHierarchy* mh = machine_.caches())
    s.line_transfers = mh->line_transfers(), s.invalidations = mh->invalidations();
  s.cpu_utilization = window ? double(busy_total) / double(window * n) : 0;
  s.messages_per_second = s.simulated_seconds > 0 ? double(s.messages) / s.simulated_seconds : 0;
  s.ms_per_message = s.messages ? double(busy_total) / hz * 1e3 / double(s.messages) : 0;
  std::vector<double> rt = responses_ms_;
  std::sort(rt.begin(), rt.end());
  auto pct = [&](double p) {  // nearest rank
    if (rt.empty()) return 0.0;
    size_t rank = size_t(std::ceil(p * double(rt.size())));
    return rt[std::clamp<size_t>(rank, 1, rt.size()) - 1];
  };
  double sum = 0;
  for (double x : rt) sum += x;
  s.response_mean_ms = rt.empty() ? 0 : sum / double(rt.size());
  s.response_p50_ms = pct(0.50), s.response_p90_ms = pct(0.90), s.response_p99_ms = pct(0.99);

  // ECBs still in flight end with the run; then every frame they used must be back.
  for (unsigned k = 0; k < n; ++k) current_[k] = nullptr;
  cross_.clear();
  for (auto& l : ready_) l.clear();
  for (auto& l : deferred_) l.clear();
  ecbs_.clear();
  s.frames_in_use_at_end = frames_in_use();
  return s;
}

std::vector<uint64_t> ControlProgram::list_contents(unsigned i, const char* which) const {
  std::vector<uint64_t> ids;
  const std::deque<Ecb*>* l = std::strcmp(which, "cross") == 0   ? &cross_
                              : std::strcmp(which, "ready") == 0 ? &ready_[i]
                                                                 : &deferred_[i];
  for (Ecb* e : *l) ids.push_back(e->id);
  return ids;
}

}  // namespace os
