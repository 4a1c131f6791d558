// LinuxMemory::fork_into with two address spaces and no processes: private pages are
// copies that diverge, shared pages are the same frames in both, either space may go
// first, and the storage gets every frame back.
#include <catch2/catch.hpp>
#include <memory>

#include "emu/address_space.h"
#include "linux/linux_abi.h"
#include "linux/linux_memory.h"

namespace {

namespace abi = linux_user::linux_abi;
constexpr uint64_t kRW = abi::kProtRead | abi::kProtWrite;

uint8_t byte_at(emu::AddressSpace& s, uint64_t va) {
  uint8_t b = 0xEE;
  s.read_bytes(va, &b, 1);
  return b;
}
void put(emu::AddressSpace& s, uint64_t va, uint8_t b) { s.write_bytes(va, &b, 1); }

struct Parent {
  std::unique_ptr<emu::AddressSpace> space;
  std::unique_ptr<linux_user::LinuxMemory> memory;
  uint64_t priv = 0, shared = 0, heap = 0;
};

Parent make_parent(emu::Storage& storage) {
  Parent p;
  p.space = std::make_unique<emu::AddressSpace>(storage);
  p.memory = std::make_unique<linux_user::LinuxMemory>(*p.space, 0x100000);
  p.priv = uint64_t(p.memory->mmap(0, 3 * emu::kPageSize, kRW, abi::kMapPrivate | abi::kMapAnonymous));
  p.shared = uint64_t(p.memory->mmap(0, 2 * emu::kPageSize, kRW, abi::kMapShared | abi::kMapAnonymous));
  p.heap = 0x100000;
  p.memory->brk(p.heap + 2 * emu::kSegmentSize);  // 4 KB pages of the break
  p.space->reserve(0x40000000, 64 * emu::kPageSize, emu::kProtRead | emu::kProtWrite);  // a bss-like range
  put(*p.space, p.priv, 1);
  put(*p.space, p.shared, 2);
  put(*p.space, p.heap + 5, 3);
  return p;
}

}  // namespace

TEST_CASE("fork_into: private pages diverge, shared pages do not", "[linux_fork]") {
  emu::Storage storage(256 << 20);
  const uint64_t free_before = storage.allocated_4k();
  {
    Parent p = make_parent(storage);
    emu::AddressSpace child(storage);
    auto cm = p.memory->fork_into(child);
    REQUIRE(cm);
    CHECK(byte_at(child, p.priv) == 1);
    CHECK(byte_at(child, p.shared) == 2);
    CHECK(byte_at(child, p.heap + 5) == 3);
    CHECK(child.execute_protection());

    put(child, p.priv, 10);        // the child's store to a private page stays its own
    put(*p.space, p.heap + 5, 30);  // and the parent's
    CHECK(byte_at(*p.space, p.priv) == 1);
    CHECK(byte_at(child, p.heap + 5) == 3);

    put(child, p.shared, 20);  // a shared page is one frame
    CHECK(byte_at(*p.space, p.shared) == 20);
    put(*p.space, p.shared + emu::kPageSize, 21);
    CHECK(byte_at(child, p.shared + emu::kPageSize) == 21);

    // Reservations carried over: demand-zero in each, separately.
    put(child, 0x40000000 + 7, 9);
    CHECK(byte_at(*p.space, 0x40000000 + 7) == 0);

    // The mapping list and the break were copied: the child's next mmap and brk agree.
    CHECK(cm->brk(0) == p.memory->brk(0));
    CHECK(cm->mmap(0, emu::kPageSize, kRW, abi::kMapPrivate | abi::kMapAnonymous) ==
          p.memory->mmap(0, emu::kPageSize, kRW, abi::kMapPrivate | abi::kMapAnonymous));
  }
  CHECK(storage.allocated_4k() == free_before);
}

TEST_CASE("fork_into: either space may go first; the shared frames live until the last", "[linux_fork]") {
  emu::Storage storage(256 << 20);
  const uint64_t before = storage.allocated_4k();
  for (bool parent_first : {true, false}) {
    Parent p = make_parent(storage);
    auto child = std::make_unique<emu::AddressSpace>(storage);
    auto cm = p.memory->fork_into(*child);
    REQUIRE(cm);
    put(*p.space, p.shared, 42);
    if (parent_first) {
      p.memory.reset(), p.space.reset();
      CHECK(byte_at(*child, p.shared) == 42);
      CHECK(byte_at(*child, p.priv) == 1);
      put(*child, p.shared, 43);
      CHECK(byte_at(*child, p.shared) == 43);
      cm.reset(), child.reset();
    } else {
      cm.reset(), child.reset();
      CHECK(byte_at(*p.space, p.shared) == 42);
      CHECK(byte_at(*p.space, p.priv) == 1);
      p.memory.reset(), p.space.reset();
    }
    CHECK(storage.allocated_4k() == before);
  }
}

TEST_CASE("fork_into: a 1 MB page is copied as one while storage has one", "[linux_fork]") {
  emu::Storage storage(256 << 20);
  emu::AddressSpace parent(storage);
  auto pm = std::make_unique<linux_user::LinuxMemory>(parent, 0x100000);
  pm->set_large_pages(true);
  pm->brk(0x100000 + 3 * emu::kSegmentSize);
  put(parent, 0x200000 + 123, 7);
  const uint64_t large = parent.large_segments();
  REQUIRE(large > 0);
  {
    emu::AddressSpace child(storage);
    auto cm = pm->fork_into(child);
    REQUIRE(cm);
    CHECK(child.large_segments() == large);
    CHECK(byte_at(child, 0x200000 + 123) == 7);
    put(child, 0x200000 + 123, 8);
    CHECK(byte_at(parent, 0x200000 + 123) == 7);
  }
  CHECK(storage.allocated_1m() == large);
}
