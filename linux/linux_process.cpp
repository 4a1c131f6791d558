#include "linux/linux_process.h"

#include <algorithm>
#include <filesystem>

#include "linux/linux_abi.h"

namespace linux_user {
namespace abi = linux_abi;

LinuxProcess::LinuxProcess(emu::AddressSpace& space, const emu::ElfImage& image, std::vector<std::string> argv,
                           std::FILE* out, std::FILE* err)
    : space_(space),
      image_(image),
      argv_(std::move(argv)),
      exe_path_(std::filesystem::absolute(argv_.empty() ? image.name : argv_[0]).lexically_normal().string()),
      out_(out),
      err_(err),
      memory_(space, image.image_end),
      files_(std::make_unique<LinuxFiles>("", out, err)) {}

LinuxProcess::~LinuxProcess() = default;

void LinuxProcess::set_root(const std::string& dir) { files_ = std::make_unique<LinuxFiles>(dir, out_, err_); }

bool LinuxProcess::start(emu::Machine& machine) {
  machine_ = &machine;
  if (!emu::load_elf(image_, space_)) return false;
  threads_.clear(), cpus_.clear(), ready_.clear();
  for (unsigned k = 0; k < machine.istreams(); ++k) {
    cpus_.push_back(&machine.cpu(k));
    machine.cpu(k).set_svc_handler(this);
  }
  running_.assign(cpus_.size(), nullptr);
  slice_set_.assign(cpus_.size(), false);
  const unsigned starters = every_istream_starts_ ? machine.istreams() : 1;
  for (unsigned k = 0; k < starters; ++k) {
    auto t = std::make_unique<LinuxThread>();
    t->tid = next_tid_++;
    t->cpu = cpus_[k];
    t->last_istream = k;
    if (!build_stack(*t, kStackTop - k * 2 * kStackSize)) return false;
    running_[k] = t.get();
    threads_.push_back(std::move(t));
  }
  // The other I-streams wait for threads.
  for (unsigned k = starters; k < machine.istreams(); ++k) machine.set_state(k, emu::IStreamState::Idle);
  machine.set_dispatcher(this);
  return true;
}

unsigned LinuxProcess::istream_of(const emu::Cpu& cpu) const {
  return unsigned(std::find(cpus_.begin(), cpus_.end(), &cpu) - cpus_.begin());
}

LinuxThread& LinuxProcess::thread_of(const emu::Cpu& cpu) {
  // Only a CPU with a thread on it executes, so only such a CPU calls.
  return *running_[istream_of(cpu)];
}

bool LinuxProcess::deadlocked() const {
  if (exited_) return false;
  for (const auto& t : threads_)
    if (!t->exited && !t->waiting) return false;
  return true;
}

bool LinuxProcess::program_check(unsigned istream, const emu::RunResult& r) {
  LinuxThread& t = *running_[istream];
  const emu::ProgramInterrupt& pi = r.check.interrupt;
  ProgramCheckSignal s = linux_signal_for(r.check, pi.has_address && space_.is_mapped(pi.address));
  const int signo = s.info.signo;
  const SigAction& a = actions_[size_t(signo)];
  // As Linux forces a synchronous signal: blocked or ignored, it kills the process.
  const bool handled = a.handler != abi::kSigDfl && a.handler != abi::kSigIgn && !(t.blocked >> (signo - 1) & 1);
  if (handled) {
    uint64_t at = t.cpu->psw_addr;
    t.cpu->psw_addr = s.resume;
    if (setup_frame(t, s.info)) return true;
    t.cpu->psw_addr = at;
  }
  fatal_signal_ = signo;
  terminate(handled ? abi::kSigsegv : signo);  // a frame that cannot be written: SIGSEGV
  return false;
}

void LinuxProcess::terminate(int signo) {
  if (!exited_) exited_ = true, exit_code_ = 128 + signo;
  for (unsigned k = 0; k < cpus_.size(); ++k) {
    cpus_[k]->request_stop();
    if (machine_ && machine_->state(k) == emu::IStreamState::Running) machine_->set_state(k, emu::IStreamState::Idle);
  }
  stop_when_ended();
}

void LinuxProcess::stop_when_ended() {
  // Timeouts of threads that will never run again must not move the clocks on.
  if (exited_ && machine_ && !machine_->events().empty()) machine_->end_run();
}

bool LinuxProcess::copy_in(uint64_t addr, void* dst, uint64_t len) {
  return memory_.accessible(addr, len, emu::kProtRead) && space_.read_bytes(addr, dst, len);
}

bool LinuxProcess::copy_out(uint64_t addr, const void* src, uint64_t len) {
  return memory_.accessible(addr, len, emu::kProtRead | emu::kProtWrite) && space_.write_bytes(addr, src, len);
}

bool LinuxProcess::read_string(uint64_t addr, std::string& out, uint64_t max) {
  out.clear();
  char c;
  while (out.size() < max) {
    if (!copy_in(addr + out.size(), &c, 1)) return false;
    if (c == 0) return true;
    out.push_back(c);
  }
  return false;
}

uint64_t LinuxProcess::next_random() {
  // splitmix64: a small, well-mixed stream from the run's seed.
  uint64_t z = (rng_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t LinuxProcess::now_ns(const emu::Cpu& cpu) const { return uint64_t(double(cpu.cycles) / cpu.clock_ghz); }

}  // namespace linux_user
