// The block compiler's data (machine.engine: compile): blocks of a decoded page's
// instructions turned into host code, the page's table of them, and the bounded code
// cache that owns the host code. The run loop that enters blocks is Cpu::run_compiled
// (emu/jit/run_compiled.cpp); the design and its contract with the interpreter are in
// docs/speed.md, "Block compiler".
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "emu/storage.h"

namespace emu {
class Cpu;
}

namespace emu::jit {

constexpr unsigned kSlots = kPageSize / 2;

// Where the generated code finds the I-stream's fields (byte offsets in Cpu), given by
// Cpu::run_compiled, which may read its private members.
struct CpuLayout {
  int32_t cycles = 0, psw_addr = 0, leave_block = 0, gr = 0;
  // For loads and stores emitted inline (the interpreter's fast path, Cpu::read and
  // Cpu::write): the micro-TLB (entries of kTlbEntryBytes: rtag, wtag, host, abs), the
  // cache model's pointer (null: no timing model) and the last lines touched.
  int32_t tlb = 0, caches = 0, last_rline = 0, last_wline = 0;
  uint32_t tlb_entries = 0;
  int32_t cc = 0;  // the condition code (one byte)
  // The program mask (one byte, bit 8 fixed-point overflow): a signed add or subtract
  // that overflows with the interruption disabled completes inline.
  int32_t prog_mask = 0;
  int32_t fpr = 0;  // floating-point register 0 (the leftmost doubleword of vector register 0; 16 bytes apart)
};
constexpr int32_t kTlbEntryBytes = 32;

class CodeCache;
struct PageBlocks;
struct CosimRun;  // a block under co-simulation (machine.engine: cosim, emu/jit/cosim.cpp)

// Test only: the code generator gets one instruction wrong, so that a test sees the
// co-simulation report it (a check that cannot fail is no check). 0: none (always,
// outside tests); kMiscompileLghi: LGHI and LGFI load the immediate plus one;
// kMiscompileStore: an inline store's hit lands one byte further on.
extern int g_miscompile_for_tests;
constexpr int kMiscompileLghi = 1, kMiscompileStore = 2;

// One block: consecutive instructions of one decoded page (slots[0] first), ending at
// a branch, at an instruction that can leave the I-stream (SVC, EX, PSW changes), at
// the page's end, before an instruction not decoded yet, or at
// machine.compile.block_length. Its code returns k, the index of the last instruction
// it executed (entered with the virtual address of the page it runs from; after a
// branch in the same page it goes on into the block there, RunState::block). A handler's
// exception unwinds through the block's code (the code cache has an unwind entry):
// RunState::block and RunState::insn say which instruction threw.
struct Block;

// What a chain of blocks shares with the run loop: the run's instruction count (the
// blocks that ran to their end; the last one's executed part is added by the loop),
// its limit and stop cycle, and the block that ran last.
struct RunState {
  uint64_t n = 0, limit = 0, stop_cycle = 0;
  Block* block = nullptr;
  uint64_t clock = 0;  // the I-stream's clock when `block` was entered
  uint32_t insn = 0;   // the instruction of `block` whose handler runs (set before each call)
};

// What generated code reads of the block it chains to (at offset 0 of Block).
struct ChainEntry {
  uint64_t length = 0;       // instructions
  uint64_t base_cycles = 0;  // the instructions' base cycles together
  const void* body = nullptr;  // where its code continues an I-stream already in a block
};

struct Block {
  using Code = uint32_t (*)(Cpu*, uint64_t page_address, RunState*);
  ChainEntry entry;  // first: generated code reads it at fixed offsets
  Code code = nullptr;
  // Entries since the counts were last folded into the slots' Insn::count (one
  // increment per entry instead of one per instruction; see PageBlocks::fold_counts).
  uint64_t pending = 0;
  std::vector<uint16_t> slots;       // slot of each instruction
  std::vector<uint64_t> cycles_to;   // base cycles of instructions 0..k together
  PageBlocks* owner = nullptr;
  size_t code_bytes = 0;
  // Whether its code goes on into the next block itself (not when its branch closes a
  // loop that may be skipped: emu/spin_loop.h).
  bool chains = true;
  Block *older = nullptr, *newer = nullptr;  // the cache's eviction order
  unsigned length() const { return unsigned(slots.size()); }
};

// A decoded page's blocks, by first slot, and how often each slot was arrived at as a
// block start (a block is compiled at the second arrival).
struct PageBlocks {
  PageBlocks(DecodedPage& p, std::shared_ptr<CodeCache> c) : page(&p), cache(std::move(c)) {}
  ~PageBlocks();
  PageBlocks(const PageBlocks&) = delete;
  PageBlocks& operator=(const PageBlocks&) = delete;
  // Adds every block's pending entries to its instructions' counts: after this the
  // slots' Insn::count are what the interpreter would have counted.
  void fold_counts();

  DecodedPage* page;
  std::shared_ptr<CodeCache> cache;  // outlives every block it holds
  Block* at[kSlots] = {};
  uint8_t arrivals[kSlots] = {};
  static constexpr uint8_t kNotCompilable = 0xFF;
};

// The figures `--stats` prints.
struct CodeCacheStats {
  uint64_t blocks_compiled = 0, blocks_evicted = 0, instructions_compiled = 0;
  uint64_t code_bytes = 0, peak_code_bytes = 0;
  double compile_seconds = 0;  // host time, for --stats only: the model never sees it
};

// Host code of every block of one machine, at most `limit` bytes: past it the oldest
// blocks are dropped (their counts folded first).
class CodeCache : public std::enable_shared_from_this<CodeCache> {
 public:
  // Whether this build has the compiler (x86-64 with asmjit).
  static bool available();
  CodeCache(uint64_t limit_bytes, unsigned block_length, const CpuLayout& layout);
  ~CodeCache();
  CodeCache(const CodeCache&) = delete;
  CodeCache& operator=(const CodeCache&) = delete;

  // The block starting at `slot` of `page`, compiling it at its second arrival; nullptr
  // while it is not compiled (or cannot be: the instruction there is not decoded yet).
  Block* block_at(DecodedPage& page, unsigned slot) {
    PageBlocks* pb = page.compiled.get();
    if (pb && pb->at[slot]) [[likely]]
      return pb->at[slot];
    return arrive(page, slot);
  }
  // Drops `b` (its page is going, or the cache is full): its counts folded into the slots.
  void drop(Block* b);
  const CodeCacheStats& stats() const { return stats_; }

 private:
  Block* arrive(DecodedPage& page, unsigned slot);
  Block* compile(PageBlocks& pb, unsigned slot);
  void make_room(size_t bytes);
  uint8_t* place(size_t bytes);
  void evict_oldest();

  struct Backend;
  std::unique_ptr<Backend> backend_;
  uint64_t limit_;
  unsigned block_length_;
  CpuLayout layout_;
  Block *oldest_ = nullptr, *newest_ = nullptr;
  CodeCacheStats stats_;
};

// Folds the pending counts of `page`'s blocks into its slots (before a reader: the
// profiler's slot_counts).
inline void fold_counts(DecodedPage& page) {
  if (page.compiled) page.compiled->fold_counts();
}

}  // namespace emu::jit
