// EVM and processes: the program image, the areas every ECB's address space shares
// (the image's read-only pages, the shared system area, the data area) and the
// storage of each process (its copy of static storage, stacks, input message, brk,
// GETSTOR). The address map is os/guest/include/tpf_evm.h.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "emu/elf_loader.h"
#include "emu/machine.h"
#include "os/ecb.h"
#include "os/subsystem.h"

namespace os {

struct SystemConfig;

class Evm {
 public:
  // Loads the image and maps the shared area; throws std::runtime_error (emu::ElfError
  // for a bad image) naming what is wrong.
  Evm(emu::Machine& machine, const SystemConfig& system);

  emu::AddressSpace& system_space() { return image_space_; }
  const emu::SymbolTable& symbols() const { return image_.symbols; }
  // A program's entry (its ELF symbol), 0 if the image has none.
  uint64_t entry_of(const std::string& program) const;
  // The image's programs: its symbols named as z/TPF names programs (upper-case
  // letters, digits and _, beginning with a letter: QZZ0), sorted; for messages.
  std::vector<std::string> programs() const;
  // The address of a symbol the control program needs; throws if the image lacks it.
  uint64_t required(const char* symbol) const;
  std::string symbolize(uint64_t address) const;  // "QZZ0+0x2a", or ""
  bool set_image_array(const std::string& symbol, size_t index, uint64_t value, unsigned size);
  // `bytes` at TPF_EVM_DATA, read-only in every process made after this.
  void map_data(const std::vector<uint8_t>& bytes);

  // A new address space with the shared pages mapped.
  std::shared_ptr<Process> new_process(uint64_t id);
  // The input message at TPF_EVM_MESSAGE; false if there is no storage for it.
  bool map_message(Process& p, const std::vector<uint8_t>& bytes);
  // The ECB's (or thread's) stack, and its registers set to enter `entry`.
  bool start_program(Ecb& e, uint64_t entry, uint64_t r2, uint64_t r3, uint64_t r14);
  // A process touching a writable page of the image gets its own copy of it (C
  // programs' static storage is per ECB in z/TPF); false if `address` is no such page.
  bool copy_static_page(Process& p, uint64_t address);

  // Storage services: the program break, GETSTOR and RELSTOR.
  int64_t brk(Process& p, uint64_t addr);
  int64_t getstor(Process& p, uint64_t bytes, bool vio = false);  // vio: Process::vio_blocks
  int64_t getstor64(Process& p, uint64_t bytes);                  // the 64-bit system area
  int64_t relstor(Process& p, uint64_t addr);

  // The common pages (os/subsystem.h, System::program_pages and shared_area_pages): the
  // image's read-only pages and the shared area's, taken out of every process (and,
  // the image's, of the system space) and of every process made from now on, and
  // mapped again.
  std::vector<CommonPage> program_pages() const;
  std::vector<CommonPage> shared_area_pages() const;
  void withdraw_common_page(uint64_t address);
  void restore_common_page(uint64_t address);
  void map_common_page(Process& p, uint64_t address);  // into an existing process

  // 4 KB frames allocated since the image and the shared areas were mapped.
  void mark_frames_at_start();
  uint64_t frames_in_use() const;

 private:
  struct ImagePage {
    uint64_t vaddr, frame;
    uint8_t prot;
  };
  void share_pages(uint64_t from, uint64_t bytes, uint8_t prot);
  void load_image();

  emu::Machine& machine_;
  const SystemConfig& system_;
  emu::ElfImage image_;
  emu::AddressSpace image_space_;
  // What every new process maps, common: the image's read-only pages but the withdrawn
  // ones, and the shared areas. A space whose segments each new process shares (never
  // loaded by an I-stream).
  emu::AddressSpace process_pattern_;
  std::map<uint64_t, ImagePage> image_data_;  // writable: copied into a process on first touch
  std::map<uint64_t, ImagePage> image_code_;  // read-only pages of the image
  std::map<uint64_t, ImagePage> shared_area_;  // the shared area's pages (the system space owns their frames)
  const ImagePage* common_page(uint64_t address) const;
  std::set<uint64_t> withdrawn_;              // of those, the ones no space maps now
  uint64_t frames_at_start_ = 0;
};

}  // namespace os
