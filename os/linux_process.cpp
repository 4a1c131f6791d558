#include "os/linux_process.h"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace os {
namespace {

// s390x Linux system call numbers (arch/s390/kernel/syscalls/syscall.tbl).
enum : uint64_t { kExit = 1, kWrite = 4, kBrk = 45, kExitGroup = 248 };
constexpr int64_t kEnosys = 38, kEbadf = 9, kEfault = 14;

uint64_t page_up(uint64_t a) { return (a + emu::kPageMask) & ~emu::kPageMask; }

}  // namespace

LinuxProcess::LinuxProcess(emu::AddressSpace& space, const emu::ElfImage& image,
                           std::vector<std::string> argv, std::FILE* out, std::FILE* err)
    : space_(space), image_(image), argv_(std::move(argv)), out_(out), err_(err) {}

bool LinuxProcess::start(const std::vector<emu::Cpu*>& cpus) {
  cpus_ = cpus;
  if (!emu::load_elf(image_, space_)) return false;
  brk_start_ = brk_ = brk_mapped_ = page_up(image_.image_end);
  for (unsigned k = 0; k < cpus.size(); ++k)
    if (!build_stack(*cpus[k], kStackTop - k * 2 * kStackSize)) return false;
  return true;
}

bool LinuxProcess::build_stack(emu::Cpu& cpu, uint64_t top) {
  if (!space_.map(top - kStackSize, kStackSize, emu::kProtRead | emu::kProtWrite)) return false;
  // Strings at the top, then auxv, envp, argv and argc below them (8-byte aligned).
  uint64_t sp = top;
  std::vector<uint64_t> argv_ptrs;
  for (const auto& a : argv_) {
    sp -= a.size() + 1;
    space_.write_bytes(sp, a.c_str(), a.size() + 1);
    argv_ptrs.push_back(sp);
  }
  std::vector<uint64_t> words;
  words.push_back(argv_ptrs.size());
  words.insert(words.end(), argv_ptrs.begin(), argv_ptrs.end());
  words.push_back(0);                 // end of argv
  words.push_back(0);                 // empty environment
  words.push_back(6), words.push_back(emu::kPageSize);  // AT_PAGESZ
  words.push_back(0), words.push_back(0);               // AT_NULL
  sp = (sp - words.size() * 8) & ~uint64_t(15);
  for (size_t k = 0; k < words.size(); ++k) {
    uint8_t be[8];
    emu::Cpu::store_be<uint64_t>(be, words[k]);
    space_.write_bytes(sp + 8 * k, be, 8);
  }
  cpu.gr[15] = sp;
  cpu.psw_addr = image_.entry;
  cpu.set_svc_handler(this);
  return true;
}

void LinuxProcess::supervisor_call(emu::Cpu& cpu, uint8_t number) {
  ++syscalls_;
  uint64_t nr = number ? number : cpu.gr[1];
  uint64_t* a = &cpu.gr[2];
  int64_t rc;
  switch (nr) {
    case kExit:
      if (&cpu == cpus_.front() && !exited_) exited_ = true, exit_code_ = int(a[0] & 0xFF);
      cpu.request_stop();
      return;
    case kExitGroup:
      if (!exited_) exited_ = true, exit_code_ = int(a[0] & 0xFF);
      for (emu::Cpu* c : cpus_) c->request_stop();
      return;
    case kSysIStream: rc = int64_t(std::find(cpus_.begin(), cpus_.end(), &cpu) - cpus_.begin()); break;
    case kSysIStreams: rc = int64_t(cpus_.size()); break;
    case kWrite: rc = sys_write(cpu, a[0], a[1], a[2]); break;
    case kBrk: rc = sys_brk(a[0]); break;
    default:
      if (std::find(warned_.begin(), warned_.end(), nr) == warned_.end()) {
        spdlog::warn("guest system call {} is not supported; returning -ENOSYS", nr);
        warned_.push_back(nr);
      }
      rc = -kEnosys;
  }
  cpu.gr[2] = uint64_t(rc);
}

int64_t LinuxProcess::sys_write(emu::Cpu& cpu, uint64_t fd, uint64_t buf, uint64_t len) {
  std::FILE* f = fd == 1 ? out_ : fd == 2 ? err_ : nullptr;
  if (!f) return -kEbadf;
  std::vector<uint8_t> data(std::min<uint64_t>(len, 1 << 20));
  if (!space_.read_bytes(buf, data.data(), data.size())) return -kEfault;
  std::fwrite(data.data(), 1, data.size(), f);
  return int64_t(data.size());
}

int64_t LinuxProcess::sys_brk(uint64_t addr) {
  if (addr < brk_start_ || addr > brk_start_ + kBrkLimit) return int64_t(brk_);
  if (addr > brk_mapped_) {
    const uint8_t rw = emu::kProtRead | emu::kProtWrite;
    uint64_t end = page_up(addr);
    if (large_pages_) {
      // 4 KB pages up to the first 1 MB boundary, 1 MB pages from there.
      uint64_t seg = (brk_mapped_ + emu::kSegmentSize - 1) & ~(emu::kSegmentSize - 1);
      if (seg > brk_mapped_ && !space_.map(brk_mapped_, std::min(seg, end) - brk_mapped_, rw)) return int64_t(brk_);
      end = std::max(end, (end + emu::kSegmentSize - 1) & ~(emu::kSegmentSize - 1));
      if (end > seg) space_.map_large(seg, end - seg, rw);
    } else if (!space_.map(brk_mapped_, end - brk_mapped_, rw)) {
      return int64_t(brk_);
    }
    brk_mapped_ = end;
  }
  brk_ = addr;
  return int64_t(brk_);
}

}  // namespace os
