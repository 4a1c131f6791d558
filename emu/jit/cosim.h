// What the block cache keeps for the co-simulation (machine.engine: cosim, cosim.cpp).
#pragma once
#include <cstdint>
#include <map>

namespace emu::jit {

struct Block;

// Entries of each live block, which decide the entries compared (cosim.cpp); the cache
// drops a block's count with the block (CodeCache::drop).
std::map<const Block*, uint64_t>& cosim_entries();

}  // namespace emu::jit
