// machine.engine: cosim, the block compiler's co-simulation (docs/speed.md,
// "Differential testing"). Before a compiled block runs, the host process forks: the
// copy holds the whole machine exactly as it was (registers, storage, the cache and TLB
// models, the decoded pages and their counts), so nothing the block then does can
// change what it is compared with. The block runs natively here; its results (how
// many instructions ran, whether one raised an exception, the registers, PSW, CC,
// clock, cycles by cause, the page's per-address counts, and the bytes of every page a
// store could have reached) go to the copy through shared memory. The copy runs the
// same instructions through the interpreter's loop, step for step, compares, writes
// the first difference (or nothing) back and exits; a difference is an error here.
//
// Storage: a store reaches a page only through the micro-TLB's write right, which
// fill_tlb grants. The pages holding that right when the block starts, and those
// granted it meanwhile (note_write_grant), are every page either engine could store
// into: the block ships its bytes of the first and of the pages it was granted; the
// copy compares them with its own, and for the pages only it was granted, its bytes
// before its first store there (kept at the grant) with its bytes after.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "emu/cpu.h"
#include "emu/isa/table.h"
#include "emu/jit/cosim.h"

namespace emu {
namespace jit {

// A page a store may reach during the block: its bytes before the first store (kept
// only in the copy, for the pages the block was not granted).
struct CosimPage {
  uint64_t vpage;
  uint8_t* host;
  std::vector<uint8_t> before;
};

struct CosimRun {
  bool copy = false;            // this process is the interpreting copy
  pid_t pid = -1;               // the copy (in the block's process)
  int go = -1;                  // the pipe that starts the copy
  std::vector<CosimPage> pages;  // writable at the start, then as granted
  size_t at_start = 0;           // pages[0..at_start) were writable at the start
};

namespace {

// What the block's run ships to the copy, and the copy's verdict (shared memory, one
// mapping for the process's life; the pages follow it).
struct Shipped {
  uint64_t m = 0;      // instructions the block (chain) ran, the last one included
  uint8_t threw = 0;   // 0 none, 1 a program interrupt, 2 another exception
  Pic pic{};
  uint64_t gr[16];
  VectorRegister vr[32];
  uint32_t fpc, ar[16];
  uint64_t psw_addr, cycles, clock, last_address;
  uint8_t cc, prog_mask, leave_block, stop_requested, slice_over;
  CyclesByCause by_cause;
  uint64_t count[kSlots], extra[kSlots];
  uint32_t page_count = 0;
  char verdict[16384];  // empty: the same
};
constexpr size_t kMaxPages = 2048;
struct ShippedPage {
  uint64_t vpage;
  uint8_t bytes[kPageSize];
};

Shipped* shared_area() {
  static Shipped* area = [] {
    const size_t bytes = sizeof(Shipped) + kMaxPages * sizeof(ShippedPage);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error(fmt::format("machine.engine: cosim: no shared memory for the co-simulation (mmap: {})",
                                           std::strerror(errno)));
    return new (p) Shipped;
  }();
  return area;
}
ShippedPage* shipped_pages() { return reinterpret_cast<ShippedPage*>(shared_area() + 1); }

// Instructions whose handlers reach the host outside the machine (the control program's
// SVCs, EXECUTE's target, which may be one, and the privileged instructions that drive
// devices and other I-streams): their effects in the copy would be lost or doubled
// (its output, files), so a block holding one runs unchecked.
bool reaches_host(uint16_t id) {
  if (instruction_table()[id].privilege != Privilege::None) return true;
  const std::string_view m = mnemonic(id);
  for (std::string_view s : {"SVC", "EX", "EXRL", "TRAP2", "TRAP4", "PR", "LPSW", "LPSWE"})
    if (m == s) return true;
  return false;
}

// One block's state as the copy runs it: the chain's entry, limits and start.
struct CosimEntry {
  DecodedPage* page;
  uint64_t page_address, start, n, limit, stop_cycle;
  std::vector<uint16_t> slots;  // the first block's
};
CosimEntry g_entry;  // set before the fork; the copy reads it

std::string hex_of(uint64_t v) { return fmt::format("{:#x}", v); }

}  // namespace
}  // namespace jit

void Cpu::note_write_grant(uint64_t vpage, uint8_t* host) {
  jit::CosimRun& run = *cosim_run_;
  for (const jit::CosimPage& p : run.pages)
    if (p.vpage == vpage) return;
  jit::CosimPage p{vpage, host, {}};
  if (run.copy) p.before.assign(host, host + kPageSize);  // no store has landed yet
  run.pages.push_back(std::move(p));
}

void Cpu::cosim_enter(DecodedPage& page, uint64_t page_address, const jit::Block& b, const jit::RunState& s) {
  // A fork costs milliseconds: each block is compared at its first four entries, then
  // at the 8th, 16th, 32nd... Which entries are compared changes nothing in the run.
  if (const uint64_t e = ++jit::cosim_entries()[&b]; e > 4 && (e & (e - 1))) return;
  static jit::CosimRun run;
  run = jit::CosimRun{};
  for (const TlbEntry& e : tlb_)
    if (e.rtag != ~0ull && (e.wtag & ~kDeferredWrite) == e.rtag) run.pages.push_back({e.rtag, e.host, {}});
  run.at_start = run.pages.size();
  jit::g_entry = {&page, page_address, page_address + 2 * b.slots.front(), s.n, s.limit, s.stop_cycle, b.slots};
  jit::Shipped* const area = jit::shared_area();
  area->verdict[0] = 0;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0)
    throw std::runtime_error(fmt::format("machine.engine: cosim: pipe: {}", std::strerror(errno)));
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(fmt::format("machine.engine: cosim: fork: {}", std::strerror(errno)));
  if (pid == 0) {
    close(pipe_fds[1]);
    char go;
    const bool ok = ::read(pipe_fds[0], &go, 1) == 1;
    if (ok) {
      run.copy = true;
      cosim_run_ = &run;
      try {
        cosim_copy();
      } catch (const std::exception& e) {  // the copy never goes back to the run
        std::snprintf(area->verdict, sizeof area->verdict, "machine.engine: cosim: the copy failed: %s", e.what());
      } catch (...) {
        std::snprintf(area->verdict, sizeof area->verdict, "machine.engine: cosim: the copy failed");
      }
    }
    _exit(0);
  }
  close(pipe_fds[0]);
  run.pid = pid;
  run.go = pipe_fds[1];
  cosim_run_ = &run;
}


void Cpu::cosim_leave(DecodedPage& page, uint64_t n, uint64_t a, uint64_t clock, std::exception_ptr threw) {
  if (!cosim_run_) return;  // an entry not compared
  jit::CosimRun& run = *cosim_run_;
  cosim_run_ = nullptr;
  jit::Shipped* const area = jit::shared_area();
  area->m = n - jit::g_entry.n;
  area->threw = 0;
  if (threw) {
    try {
      std::rethrow_exception(threw);
    } catch (const ProgramInterrupt& pi) {
      area->threw = 1, area->pic = pi.code;
    } catch (...) {
      area->threw = 2;
    }
  }
  std::copy(gr, gr + 16, area->gr);
  std::copy(vr, vr + 32, area->vr);
  std::copy(ar, ar + 16, area->ar);
  area->fpc = fpc;
  area->psw_addr = psw_addr, area->cycles = cycles, area->clock = clock, area->last_address = a;
  area->cc = cc, area->prog_mask = prog_mask;
  area->leave_block = leave_block_, area->stop_requested = stop_requested_, area->slice_over = slice_over_;
  area->by_cause = cycles_by_cause_;
  jit::fold_counts(page);  // what a reader of the counts would do first
  for (unsigned k = 0; k < jit::kSlots; ++k) area->count[k] = page.slot[k].count, area->extra[k] = page.slot[k].extra;
  const size_t pages = std::min(run.pages.size(), jit::kMaxPages);
  area->page_count = uint32_t(pages);
  for (size_t k = 0; k < pages; ++k) {
    jit::shipped_pages()[k].vpage = run.pages[k].vpage;
    std::memcpy(jit::shipped_pages()[k].bytes, run.pages[k].host, kPageSize);
  }
  const char go = 'g';
  const bool started = ::write(run.go, &go, 1) == 1;
  close(run.go);
  int status = 0;
  while (waitpid(run.pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string block = jit::hex_of(jit::g_entry.start);
  if (!started || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("machine.engine: cosim: the interpreting copy of the block at {} ended "
                                         "abnormally ({} {})", block, WIFSIGNALED(status) ? "signal" : "status",
                                         WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)));
  if (run.pages.size() > jit::kMaxPages)
    throw std::runtime_error(fmt::format("machine.engine: cosim: the block at {} could store into {} pages; the "
                                         "co-simulation compares at most {}", block, run.pages.size(), jit::kMaxPages));
  if (area->verdict[0] == 1) {
    ++cosim_unchecked;
  } else if (area->verdict[0]) {
    throw std::runtime_error(std::string(area->verdict));
  } else {
    ++cosim_compared;
  }
}

// The copy: the interpreter's loop (Cpu::interpret) over the instructions the block
// ran, with the checks it makes between two instructions, then every field compared.
void Cpu::cosim_copy() {
  const jit::CosimEntry& en = jit::g_entry;
  jit::Shipped* const area = jit::shared_area();
  const uint64_t m = area->m;
  DecodedPage* const page = en.page;
  uint64_t a = en.start, clock = cycles, n = en.n, next = 0, ran = 0;
  Insn* in = &page->slot[(a & kPageMask) >> 1];
  unsigned len = 0;
  uint8_t threw = 0;
  Pic pic{};
  std::string what;
  for (uint64_t j = 0; j < m && what.empty(); ++j) {
    if (j > 0) {
      const char* why = nullptr;
      if (cycles != clock) why = "it charged cycles beyond its base";
      else if (leave_block_) why = "a stop or a code change (leave_block)";
      else if (n >= en.limit) why = "the run's instruction limit";
      else if (clock >= en.stop_cycle) why = "the stop cycle (a slice end or a sample point)";
      else if (const uint64_t to = psw_addr; to == next) {
        if ((next & kPageMask) < len) why = "the page ends";
        else in += len >> 1, a = next;
      } else if (((to >> 12) != code_vpage_) | (to & 1)) {
        why = "it branched out of the page";
      } else {
        in = &page->slot[(to & kPageMask) >> 1], a = to;
      }
      if (why) {
        what = fmt::format("instructions run: the interpreter's loop stops after the one at {} ({}), after {} of "
                           "them; the block ran {}", jit::hex_of(a), why, j, m);
        break;
      }
    }
    if (!in->fn) {
      what = fmt::format("the instruction at {}: not decoded, yet the block ran it", jit::hex_of(a));
      break;
    }
    if (jit::reaches_host(in->id)) {
      area->verdict[0] = 1;  // unchecked: its effects would be the copy's alone
      return;
    }
    len = in->len;
    next = a + len;
    psw_addr = next;
    ++in->count;
    ++n, ++ran;
    clock += in->cycles;
    cycles = clock;
    try {
      in->fn(*this, *in);
    } catch (const ProgramInterrupt& pi) {
      threw = 1, pic = pi.code;
      break;
    } catch (...) {
      threw = 2;
      break;
    }
  }
  const auto differs = [&](const std::string& field, uint64_t interpreted, uint64_t compiled) {
    if (what.empty() && interpreted != compiled)
      what = fmt::format("{}: interpreter {}, block {}", field, jit::hex_of(interpreted), jit::hex_of(compiled));
  };
  if (what.empty() && (ran != m || threw != area->threw || (threw == 1 && pic != area->pic)))
    what = fmt::format("instructions run: interpreter {} ({}), block {} ({})", ran,
                       threw == 1 ? fmt::format("program interrupt {:#x}", unsigned(pic)) : threw ? "an exception" : "no exception",
                       m, area->threw == 1 ? fmt::format("program interrupt {:#x}", unsigned(area->pic))
                                           : area->threw ? "an exception" : "no exception");
  differs("address of the last instruction run", a, area->last_address);
  for (unsigned r = 0; r < 16; ++r) differs(fmt::format("gr{}", r), gr[r], area->gr[r]);
  for (unsigned r = 0; r < 32; ++r) {
    differs(fmt::format("vr{} bits 0-63 (fpr{})", r, r), vr[r].hi, area->vr[r].hi);
    differs(fmt::format("vr{} bits 64-127", r), vr[r].lo, area->vr[r].lo);
  }
  for (unsigned r = 0; r < 16; ++r) differs(fmt::format("ar{}", r), ar[r], area->ar[r]);
  differs("fpc", fpc, area->fpc);
  differs("PSW address", psw_addr, area->psw_addr);
  differs("condition code", cc, area->cc);
  differs("program mask", prog_mask, area->prog_mask);
  differs("cycles (the I-stream's clock)", cycles, area->cycles);
  if (!threw) differs("base cycles of the instructions run", clock, area->clock);
  for (size_t c = 0; c < kCauseCount; ++c)
    differs(fmt::format("cycles charged to {}", cause_name(Cause(c))), cycles_by_cause_[c], area->by_cause[c]);
  differs("leave_block", leave_block_, area->leave_block);
  differs("stop requested", stop_requested_, area->stop_requested);
  differs("slice over", slice_over_, area->slice_over);
  jit::fold_counts(*page);
  for (unsigned k = 0; k < jit::kSlots; ++k) {
    differs(fmt::format("executions of the instruction at {}", jit::hex_of(en.page_address + 2 * k)), page->slot[k].count,
            area->count[k]);
    differs(fmt::format("extra cycles of the instruction at {}", jit::hex_of(en.page_address + 2 * k)),
            page->slot[k].extra, area->extra[k]);
  }
  // Storage: the pages the block could store into, against this copy's; then the
  // pages only this copy could store into, against their bytes before.
  const auto first_difference = [&](uint64_t vpage, const uint8_t* interpreted, const uint8_t* compiled) {
    for (unsigned k = 0; k < kPageSize && what.empty(); ++k)
      differs(fmt::format("the storage byte at {}", jit::hex_of(vpage << 12 | k)), interpreted[k], compiled[k]);
  };
  jit::CosimRun& run = *cosim_run_;
  for (uint32_t k = 0; k < area->page_count && what.empty(); ++k) {
    const jit::ShippedPage& shipped = jit::shipped_pages()[k];
    const uint8_t* mine = nullptr;
    for (const jit::CosimPage& p : run.pages)
      if (p.vpage == shipped.vpage) mine = p.host;
    Translation t;
    if (!mine && space_->translate(shipped.vpage << 12, t) == Translate::Ok)
      mine = space_->storage().host_page(t.number);
    if (!mine) what = fmt::format("the page at {}: the block could store into it, the interpreter has none there",
                                  jit::hex_of(shipped.vpage << 12));
    else first_difference(shipped.vpage, mine, shipped.bytes);
  }
  for (const jit::CosimPage& p : run.pages) {
    bool shipped = false;
    for (uint32_t k = 0; k < area->page_count; ++k) shipped |= jit::shipped_pages()[k].vpage == p.vpage;
    if (!shipped && !p.before.empty()) first_difference(p.vpage, p.host, p.before.data());
  }
  if (what.empty()) return;
  std::string text = fmt::format("machine.engine: cosim: the compiled block at {} differs from the interpreter "
                                 "after {} instruction(s): {}\nthe block:",
                                 jit::hex_of(en.start), m, what);
  for (uint16_t slot : en.slots) {
    const uint64_t at = en.page_address + 2 * slot;
    uint8_t bytes[6] = {};
    unsigned fetched = 0;
    try {
      fetch_bytes(at, bytes, fetched);
    } catch (const ProgramInterrupt&) {
    }
    std::string hex_bytes;
    for (unsigned k = 0; k < fetched; ++k) hex_bytes += fmt::format("{:02x}", bytes[k]);
    text += fmt::format("\n  {:#x}  {:<12}  {}", at, hex_bytes, mnemonic(page->slot[slot].id));
  }
  const size_t length = std::min(text.size(), sizeof area->verdict - 1);
  std::memcpy(area->verdict, text.data(), length);
  area->verdict[length] = 0;
}

}  // namespace emu
