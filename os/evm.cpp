#include "os/evm.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

#include "os/run_config.h"

namespace os {
namespace {

constexpr uint8_t kRW = emu::kProtRead | emu::kProtWrite;
// The pages every process maps alike (the image's read-only pages, the shared areas)
// are common, as z's common segments are: one TLB entry serves every ECB. A process's
// copies of the image's writable pages, at the same addresses, are its own.
constexpr bool kCommon = true;

}  // namespace

Evm::Evm(emu::Machine& machine, const SystemConfig& system)
    : machine_(machine), system_(system), image_(emu::read_elf_file(system.image)), image_space_(machine.storage()),
      process_pattern_(machine.storage()) {
  process_pattern_.set_never_loaded();
  load_image();
  image_space_.for_each_page([&](uint64_t va, const emu::Frame& f) {
    emu::Translation t;
    image_space_.translate(va, t);
    if (t.prot & emu::kProtWrite) {
      image_data_[va] = {va, f.number, t.prot};
    } else {
      image_code_[va] = {va, f.number, t.prot};
      process_pattern_.map_shared(va, f.number, t.prot, kCommon);
    }
  });
  if (!image_space_.map(TPF_EVM_SHARED, system.shared_size, kRW))
    throw std::runtime_error("storage is too small for the shared system area");
  share_pages(TPF_EVM_SHARED, system.shared_size, kRW);  // mapped shared and writable in every process
}

// Each page of the image area gets the absolute frame its address names, and every
// other frame (the shared areas', the ECBs') comes after the area: so a program's
// frames, like its addresses (add_tpf_image), do not depend on the other programs of
// the image or on its size, and neither do the cache sets its lines fall in.
void Evm::load_image() {
  constexpr uint64_t kFirstFrame = 1;  // frame 0 holds the prefix area
  constexpr uint64_t kAreaPages = (TPF_EVM_IMAGE_END - TPF_EVM_IMAGE) / emu::kPageSize;
  emu::Storage& storage = machine_.storage();
  if (!storage.set_apart(kFirstFrame + kAreaPages))
    throw std::runtime_error(fmt::format("machine.storage ({} bytes) is too small for the program image area ({} MB)",
                                         storage.size(), (TPF_EVM_IMAGE_END - TPF_EVM_IMAGE) >> 20));
  for (const emu::ElfSegment& s : image_.segments) {
    if (s.memsz == 0) continue;
    if (s.vaddr < TPF_EVM_IMAGE || s.vaddr > TPF_EVM_IMAGE_END || s.memsz > TPF_EVM_IMAGE_END - s.vaddr)
      throw emu::ElfError(fmt::format("a segment at 0x{:X} ({} bytes) lies outside the image area 0x{:X}..0x{:X} "
                                      "(link TPF images with add_tpf_image, cmake/Guest.cmake)",
                                      s.vaddr, s.memsz, TPF_EVM_IMAGE, TPF_EVM_IMAGE_END),
                          s.header);
    for (uint64_t va = emu::page_down(s.vaddr); va < s.vaddr + s.memsz; va += emu::kPageSize) {
      const uint64_t frame = kFirstFrame + (va - TPF_EVM_IMAGE) / emu::kPageSize;
      // Segments sharing a page get the union of their rights, as Linux maps them.
      const uint8_t prot = s.prot | (storage.claim_4k(frame) ? 0 : image_space_.prot_of(va));
      image_space_.map_shared(va, frame, prot);
    }
    image_space_.write_bytes(s.vaddr, image_.bytes.data() + s.offset, s.filesz);
  }
}

void Evm::share_pages(uint64_t from, uint64_t bytes, uint8_t prot) {
  for (uint64_t va = from; va < from + bytes; va += emu::kPageSize) {
    emu::Translation t;
    image_space_.translate(va, t);
    process_pattern_.map_shared(va, t.frame->number, prot, kCommon);
    if (from == TPF_EVM_SHARED) shared_area_[va] = {va, t.frame->number, prot};
  }
}

void Evm::map_data(const std::vector<uint8_t>& bytes) {
  if (bytes.size() > TPF_EVM_DATA_END - TPF_EVM_DATA)
    throw std::runtime_error(fmt::format("workload.data_file: {} bytes do not fit the data area ({} bytes)",
                                         bytes.size(), TPF_EVM_DATA_END - TPF_EVM_DATA));
  if (!image_space_.map(TPF_EVM_DATA, bytes.size(), kRW) ||
      !image_space_.write_bytes(TPF_EVM_DATA, bytes.data(), bytes.size()))
    throw std::runtime_error("workload.data_file: no storage for the data");
  share_pages(TPF_EVM_DATA, bytes.size(), emu::kProtRead);
}

uint64_t Evm::entry_of(const std::string& program) const {
  const emu::Symbol* s = image_.symbols.find(program);
  return s ? s->address : 0;
}

std::vector<std::string> Evm::programs() const {
  auto program_name = [](const std::string& n) {
    return n[0] >= 'A' && n[0] <= 'Z' &&
           std::all_of(n.begin(), n.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
  };
  std::vector<std::string> out;
  for (const emu::Symbol& s : image_.symbols.all())
    if (program_name(s.name)) out.push_back(s.name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

uint64_t Evm::required(const char* symbol) const {
  const emu::Symbol* s = image_.symbols.find(symbol);
  if (!s)
    throw std::runtime_error(fmt::format("{}: the program image has no {} (link the TPF runtime, os/guest/tpf)",
                                         system_.image, symbol));
  return s->address;
}

std::string Evm::symbolize(uint64_t address) const {
  const emu::Symbol* s = image_.symbols.find(address);
  return s ? fmt::format("{}+{:#x}", s->name, address - s->address) : std::string();
}

bool Evm::set_image_array(const std::string& symbol, size_t index, uint64_t value, unsigned size) {
  const emu::Symbol* s = image_.symbols.find(symbol);
  if (!s || size > 8) return false;
  uint8_t be[8];
  emu::Cpu::store_be<uint64_t>(be, value);
  return image_space_.write_bytes(s->address + index * size, be + 8 - size, size);
}

std::shared_ptr<Process> Evm::new_process(uint64_t id) {
  auto p = std::make_shared<Process>();
  p->id = id;
  p->space = std::make_unique<emu::AddressSpace>(machine_.storage());
  p->space->share_segments_of(process_pattern_);
  return p;
}

std::vector<CommonPage> Evm::program_pages() const {
  std::vector<CommonPage> out;
  for (const auto& [va, pg] : image_code_) out.push_back({va, pg.frame});
  return out;
}

std::vector<CommonPage> Evm::shared_area_pages() const {
  std::vector<CommonPage> out;
  for (const auto& [va, pg] : shared_area_) out.push_back({va, pg.frame});
  return out;
}

const Evm::ImagePage* Evm::common_page(uint64_t address) const {
  if (auto it = image_code_.find(address); it != image_code_.end()) return &it->second;
  if (auto it = shared_area_.find(address); it != shared_area_.end()) return &it->second;
  return nullptr;
}

// The system space owns the shared area's frames: it keeps them mapped (unmapping them
// there would free them), so only the processes fault on a withdrawn shared page.
void Evm::withdraw_common_page(uint64_t address) {
  if (!common_page(address) || !withdrawn_.insert(address).second) return;
  if (image_code_.count(address)) image_space_.unmap(address, emu::kPageSize);
  process_pattern_.unmap(address, emu::kPageSize);
}

void Evm::restore_common_page(uint64_t address) {
  const ImagePage* pg = common_page(address);
  if (!pg || !withdrawn_.erase(address)) return;
  if (image_code_.count(address)) image_space_.map_shared(address, pg->frame, pg->prot);
  process_pattern_.map_shared(address, pg->frame, pg->prot, kCommon);
}

void Evm::map_common_page(Process& p, uint64_t address) {
  if (const ImagePage* pg = common_page(address)) p.space->map_shared(address, pg->frame, pg->prot, kCommon);
}

bool Evm::map_message(Process& p, const std::vector<uint8_t>& bytes) {
  return bytes.size() <= TPF_EVM_MESSAGE_END - TPF_EVM_MESSAGE &&
         p.space->map(TPF_EVM_MESSAGE, std::max<uint64_t>(bytes.size(), 1), kRW) &&
         p.space->write_bytes(TPF_EVM_MESSAGE, bytes.data(), bytes.size());
}

bool Evm::start_program(Ecb& e, uint64_t entry, uint64_t r2, uint64_t r3, uint64_t r14) {
  const uint64_t size = emu::page_up(system_.stack_size);
  const uint64_t stride = size + 16 * emu::kPageSize;  // a guard gap between stacks
  if (uint64_t(e.thread) >= (TPF_EVM_STACK_TOP - TPF_EVM_STACKS) / stride) return false;  // past the stack region
  const uint64_t top = TPF_EVM_STACK_TOP - uint64_t(e.thread) * stride;
  // The stack's pages are backed as the program first references them, each a page
  // fault (the paging subsystem's first reference: a frame and its cost), as z/OS backs
  // a stack's storage; a slot used again keeps the pages its earlier thread touched.
  e.process->space->reserve(top - size, size, kRW, /*first_reference_faults=*/true);
  e.gr[2] = r2, e.gr[3] = r3, e.gr[14] = r14, e.gr[15] = top - 160;
  e.psw = entry;
  return true;
}

bool Evm::copy_static_page(Process& p, uint64_t address) {
  auto it = image_data_.find(emu::page_down(address));
  if (it == image_data_.end()) return false;
  const ImagePage& pg = it->second;
  if (!p.space->map(pg.vaddr, emu::kPageSize, pg.prot)) return false;
  p.space->write_bytes(pg.vaddr, machine_.storage().frame(pg.frame).data.get(), emu::kPageSize);
  return true;
}

int64_t Evm::brk(Process& p, uint64_t addr) {
  const uint64_t limit = TPF_EVM_HEAP31 + system_.heap31_size;
  if (addr < TPF_EVM_HEAP31 || addr > limit) return int64_t(p.brk);
  if (addr > p.brk_mapped) {
    if (!p.space->map(p.brk_mapped, emu::page_up(addr) - p.brk_mapped, kRW)) return int64_t(p.brk);
    p.brk_mapped = emu::page_up(addr);
  }
  p.brk = addr;
  return int64_t(p.brk);
}

// GETSTOR blocks come from the system region, as much of it as system.heap31_size
// allows (the region ends where the data area begins).
int64_t Evm::getstor(Process& p, uint64_t bytes, bool vio) {
  const uint64_t size = emu::page_up(std::max<uint64_t>(bytes, 1));
  const uint64_t end = std::min<uint64_t>(TPF_EVM_SYSTEM + system_.heap31_size, TPF_EVM_SYSTEM_END);
  if (p.system_next + size > end) return 0;
  if (!p.space->map(p.system_next, size, kRW)) return 0;
  const uint64_t at = p.system_next;
  p.system_blocks[at] = size;
  if (vio) p.vio_blocks[at] = size;
  p.system_next += size;
  return int64_t(at);
}

// GETSTOR64 blocks come from the 64-bit system area, bounded by its end (1 TB); real
// and auxiliary storage run out long before (map fails: 0, as GETSTOR's).
int64_t Evm::getstor64(Process& p, uint64_t bytes) {
  const uint64_t size = emu::page_up(std::max<uint64_t>(bytes, 1));
  if (size > TPF_EVM_SYSTEM64_END - p.system64_next) return 0;
  if (!p.space->map(p.system64_next, size, kRW)) return 0;
  const uint64_t at = p.system64_next;
  p.system_blocks[at] = size;
  p.system64_next += size;
  return int64_t(at);
}

int64_t Evm::relstor(Process& p, uint64_t addr) {
  auto it = p.system_blocks.find(addr);
  if (it == p.system_blocks.end()) return -14;  // EFAULT
  p.space->unmap(addr, it->second);
  p.system_blocks.erase(it);
  p.vio_blocks.erase(addr);
  return 0;
}

void Evm::mark_frames_at_start() {
  const auto& s = machine_.storage();
  frames_at_start_ = s.allocated_4k() + s.allocated_1m() * emu::kPagesPerSegment;
}

uint64_t Evm::frames_in_use() const {
  const auto& s = machine_.storage();
  return s.allocated_4k() + s.allocated_1m() * emu::kPagesPerSegment - frames_at_start_;
}

}  // namespace os
