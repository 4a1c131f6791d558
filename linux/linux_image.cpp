// The initial process image as Linux's ELF loader builds it (fs/binfmt_elf.c,
// create_elf_tables): from the top of the stack down, a null word, the executable's
// name, the environment and argument strings, the platform string, 16 random bytes,
// then (16-byte aligned) argc, argv, envp and the auxiliary vector, with %r15
// pointing at argc.
#include <cstring>

#include "linux/linux_abi.h"
#include "linux/linux_kernel.h"

namespace linux_user {
namespace abi = linux_abi;

uint64_t linux_abi::hwcap_of(const std::vector<uint64_t>& list) {
  auto has = [&](unsigned bit) { return bit / 64 < list.size() && (list[bit / 64] >> (63 - bit % 64) & 1); };
  uint64_t hwcap = 0;
  for (const linux_abi::HwcapRule& r : linux_abi::kHwcapRules) {
    bool all = true;
    for (unsigned f : r.facilities) all = all && has(f);
    if (all) hwcap |= r.bit;
  }
  return hwcap;
}

namespace {
// AT_PLATFORM: the kernel names the machine type, "z10" for any it does not know
// (arch/s390/kernel/processor.c).
std::string platform_of(emu::Generation arch) {
  return arch <= emu::Generation::Z10 ? "z10" : std::string(emu::generation_name(arch));
}
}  // namespace

bool LinuxKernel::build_stack(LinuxProcess& p, LinuxThread& t, uint64_t top, const std::vector<std::string>& args,
                              const std::vector<std::string>& env) {
  emu::AddressSpace& space = *p.space;
  const emu::ElfImage& image = *p.image;
  if (!space.map(top - kStackSize, kStackSize, emu::kProtRead | emu::kProtWrite)) return false;
  uint64_t sp = top - 8;  // the null word at the very top
  auto push_bytes = [&](const void* bytes, uint64_t n) {
    sp -= n;
    space.write_bytes(sp, bytes, n);
    return sp;
  };
  auto push_string = [&](const std::string& s) { return push_bytes(s.c_str(), s.size() + 1); };
  const uint64_t execfn = push_string(&p == first_process_ && !args.empty() ? args[0] : p.exe_path);
  std::vector<uint64_t> envp(env.size()), argv(args.size());
  for (size_t k = env.size(); k-- > 0;) envp[k] = push_string(env[k]);
  for (size_t k = args.size(); k-- > 0;) argv[k] = push_string(args[k]);
  sp &= ~uint64_t(15);
  const emu::Generation arch = cpus_.front()->arch();
  const uint64_t platform = push_string(platform_of(arch));
  p.hwcap = abi::hwcap_of(emu::facility_list(arch));
  uint8_t random[16];
  for (unsigned k = 0; k < 16; k += 8) emu::Cpu::store_be<uint64_t>(random + k, next_random());
  const uint64_t at_random = push_bytes(random, 16);

  const std::pair<uint64_t, uint64_t> auxv[] = {
      {abi::kAtHwcap, p.hwcap},
      {abi::kAtPagesz, emu::kPageSize},
      {abi::kAtClktck, 100},
      {abi::kAtPhdr, image.phdr_vaddr},
      {abi::kAtPhent, image.phentsize},
      {abi::kAtPhnum, image.phnum},
      {abi::kAtBase, 0},
      {abi::kAtFlags, 0},
      {abi::kAtEntry, image.entry},
      {abi::kAtUid, kUid},
      {abi::kAtEuid, kUid},
      {abi::kAtGid, kGid},
      {abi::kAtEgid, kGid},
      {abi::kAtSecure, 0},
      {abi::kAtRandom, at_random},
      {abi::kAtExecfn, execfn},
      {abi::kAtPlatform, platform},
      {abi::kAtNull, 0},
  };
  std::vector<uint64_t> words;
  words.push_back(argv.size());
  words.insert(words.end(), argv.begin(), argv.end());
  words.push_back(0);
  words.insert(words.end(), envp.begin(), envp.end());
  words.push_back(0);
  for (const auto& [tag, value] : auxv) words.push_back(tag), words.push_back(value);
  sp = (sp - words.size() * 8) & ~uint64_t(15);
  for (size_t k = 0; k < words.size(); ++k) {
    uint8_t be[8];
    emu::Cpu::store_be<uint64_t>(be, words[k]);
    space.write_bytes(sp + 8 * k, be, 8);
  }
  emu::Cpu& cpu = *t.cpu;
  cpu.gr[15] = sp;
  cpu.psw_addr = image.entry;
  cpu.set_svc_handler(this);
  return true;
}

}  // namespace linux_user
