#include "linux/linux_kernel.h"

#include <algorithm>
#include <filesystem>

#include "linux/linux_abi.h"

namespace linux_user {
namespace abi = linux_abi;

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

LinuxKernel::LinuxKernel(emu::Machine& machine, const emu::ElfImage& image, std::vector<std::string> argv,
                         std::FILE* out, std::FILE* err)
    : machine_(machine),
      first_image_(image),
      argv_(std::move(argv)),
      exe_path_(std::filesystem::absolute(argv_.empty() ? image.name : argv_[0]).lexically_normal().string()),
      out_(out),
      err_(err),
      idle_space_(std::make_unique<emu::AddressSpace>(machine.storage())) {}

LinuxKernel::~LinuxKernel() {
  // The I-streams must not keep a space that goes with its process.
  for (emu::Cpu* c : cpus_) c->set_address_space(*idle_space_);
  threads_.clear();
  processes_.clear();
}

void LinuxKernel::set_root(const std::string& dir) {
  LinuxFiles probe(dir, out_, err_);  // throws when the directory cannot be opened
  root_ = dir;
}

bool LinuxKernel::start() {
  // The image is the caller's: shared without ownership.
  std::shared_ptr<const emu::ElfImage> image(std::shared_ptr<const emu::ElfImage>{}, &first_image_);
  auto space = std::make_shared<emu::AddressSpace>(machine_.storage());
  initial_space_ = space.get();
  machine_.start(*space);
  auto memory = std::make_shared<LinuxMemory>(*space, first_image_.image_end);
  memory->set_large_pages(large_pages_);
  LinuxProcess& p = new_process(1, space, image, memory, std::make_unique<LinuxFiles>(root_, out_, err_));
  first_process_ = &p;
  p.argv = argv_;
  p.exe_path = exe_path_;
  if (!emu::load_elf(first_image_, *p.space)) return false;
  threads_.clear(), cpus_.clear(), ready_.clear();
  for (unsigned k = 0; k < machine_.istreams(); ++k) {
    cpus_.push_back(&machine_.cpu(k));
    machine_.cpu(k).set_svc_handler(this);
  }
  running_.assign(cpus_.size(), nullptr);
  slice_set_.assign(cpus_.size(), false);
  const unsigned starters = every_istream_starts_ ? machine_.istreams() : 1;
  for (unsigned k = 0; k < starters; ++k) {
    LinuxThread& t = new_thread(p);
    t.cpu = cpus_[k];
    t.last_istream = k;
    if (!build_stack(p, t, kStackTop - k * 2 * kStackSize, argv_, env_)) return false;
    running_[k] = &t;
  }
  // The other I-streams wait for threads.
  for (unsigned k = starters; k < machine_.istreams(); ++k) machine_.set_state(k, emu::IStreamState::Idle);
  machine_.set_dispatcher(this);
  return true;
}

unsigned LinuxKernel::istream_of(const emu::Cpu& cpu) const {
  return unsigned(std::find(cpus_.begin(), cpus_.end(), &cpu) - cpus_.begin());
}

LinuxThread& LinuxKernel::thread_of(const emu::Cpu& cpu) {
  // Only a CPU with a thread on it executes, so only such a CPU calls.
  return *running_[istream_of(cpu)];
}

LinuxProcess* LinuxKernel::process(int pid) {
  auto it = processes_.find(pid);
  return it == processes_.end() ? nullptr : it->second.get();
}

bool LinuxKernel::deadlocked() const {
  if (exited_) return false;
  for (const auto& t : threads_)
    if (!t->exited && t->waiting == WaitKind::None) return false;
  return true;
}

bool LinuxKernel::program_check(unsigned istream, const emu::RunResult& r) {
  LinuxThread& t = *running_[istream];
  now_ = t.cpu->cycles;
  LinuxProcess& p = *t.proc;
  const emu::ProgramInterrupt& pi = r.check.interrupt;
  ProgramCheckSignal s = linux_signal_for(r.check, pi.has_address && p.space->is_mapped(pi.address));
  const int signo = s.info.signo;
  const SigAction& a = p.actions[size_t(signo)];
  // As Linux forces a synchronous signal: blocked or ignored, it kills the process.
  const bool handled = a.handler != abi::kSigDfl && a.handler != abi::kSigIgn && !(t.blocked >> (signo - 1) & 1);
  if (handled) {
    uint64_t at = t.cpu->psw_addr;
    t.cpu->psw_addr = s.resume;
    if (setup_frame(t, s.info)) return true;
    t.cpu->psw_addr = at;
  }
  kill_process(p, handled ? abi::kSigsegv : signo);  // a frame that cannot be written: SIGSEGV
  return !exited_;
}

void LinuxKernel::stop_run(int status, int signo) {
  if (!exited_) exited_ = true, exit_code_ = status, fatal_signal_ = signo;
  for (unsigned k = 0; k < cpus_.size(); ++k) {
    cpus_[k]->request_stop();
    if (machine_.state(k) == emu::IStreamState::Running) machine_.set_state(k, emu::IStreamState::Idle);
  }
  stop_when_ended();
}

void LinuxKernel::stop_when_ended() {
  // Timeouts of threads that will never run again must not move the clocks on.
  if (exited_ && !machine_.events().empty()) machine_.end_run();
}

uint64_t LinuxKernel::next_random() {
  // splitmix64: a small, well-mixed stream from the run's seed.
  uint64_t z = (rng_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t LinuxKernel::now_ns(const emu::Cpu& cpu) const { return uint64_t(double(cpu.cycles) / cpu.clock_ghz); }

uint64_t LinuxKernel::cycles_of_ns(double ns) const {
  return uint64_t(std::min(ns * cpus_.front()->clock_ghz, 1e18));
}

}  // namespace linux_user
