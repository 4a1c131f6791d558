// The machine's parameters: what the `machine:` section of a configuration sets.
// Defaults, units, checks and sources are declared once, in machine_config.cpp's
// schema; this struct only carries the values.
#pragma once
#include <cstdint>

namespace emu {

constexpr unsigned kLineSize = 256;  // IBM Z cache line
constexpr unsigned kLineShift = 8;
constexpr unsigned kMaxIStreams = 64;

struct CacheLevelConfig {
  uint64_t size = 0;     // bytes
  unsigned ways = 0;     // associativity
  unsigned latency = 0;  // load-to-use cycles when the access is served at this level
};

struct TlbConfig {
  unsigned entries = 0;
  unsigned ways = 0;
};

struct MachineConfig {
  unsigned istreams = 1;
  double clock_ghz = 5.2;
  uint64_t storage = 1ull << 40;       // absolute storage size, bytes (sparse)
  uint64_t quantum = 40;               // cycles an I-stream runs before the scheduler looks again
  CacheLevelConfig l1{128 << 10, 8, 4};    // private, per I-stream (data)
  CacheLevelConfig l2{4 << 20, 8, 16};     // private, per I-stream
  CacheLevelConfig l3{256 << 20, 16, 50};  // shared by all I-streams
  unsigned memory_latency = 350;       // cycles to fetch a line from memory
  unsigned transfer_latency = 110;     // move a line held by another I-stream
  unsigned invalidate_latency = 40;    // invalidate copies held by other I-streams
  TlbConfig tlb4k{2048, 8};
  TlbConfig tlb1m{128, 4};
  unsigned tlb_walk = 60;              // cycles for a DAT table walk on a TLB miss
};

}  // namespace emu
