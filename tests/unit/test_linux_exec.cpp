// The Linux personality of `tpfemu exec` with static glibc programs: the initial
// process image, the --root jail, memory rights seen through signals, warnings on
// standard error, determinism. (What QEMU shares is in tests/guest/glibc, diff tests.)
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "guest_run.h"
#include "linux/linux_abi.h"

using Catch::Matchers::Contains;

namespace {

test::GuestRun probe(std::vector<std::string> args, test::GuestRun::Options o = {}) {
  o.args = std::move(args);
  o.separate_err = true;
  return test::GuestRun("linux_probe", o);
}

}  // namespace

TEST_CASE("exec: the auxiliary vector and environment are the kernel's, seeded and reproducible", "[exec][linux]") {
  test::GuestRun::Options o;
  o.env = {"HOME=/home/guest", "LANG=C"};
  auto a = probe({"auxv"}, o);
  REQUIRE(a.exited);
  CHECK(a.exit_code == 0);
  // AT_HWCAP as Linux computes it from the default level's (z196) facility list: ESAN3,
  // ZARCH, STFLE, MSA, LDISP, EIMM, HIGH_GPRS; AT_PLATFORM names the level.
  CHECK_THAT(a.out, Contains("pagesz=4096 hwcap=0x23f clktck=100 uid=1000 euid=1000 gid=1000 egid=1000 secure=0\n"));
  CHECK_THAT(a.out, Contains("phent=56 phdr_set=1 entry_set=1"));
  CHECK_THAT(a.out, Contains("platform=z196 execfn=linux_probe\n"));
  CHECK_THAT(a.out, Contains("env HOME=/home/guest\nenv LANG=C\n"));
  auto none = probe({"auxv"});
  CHECK_THAT(none.out, !Contains("env "));  // empty unless --env says otherwise
  auto same = probe({"auxv"}, o);
  CHECK(same.out == a.out);
  CHECK(same.cpu().cycles == a.cpu().cycles);
  o.seed = 7;
  auto other = probe({"auxv"}, o);
  CHECK(other.out != a.out);  // AT_RANDOM follows the seed
  auto r1 = probe({"random"}), r2 = probe({"random"});
  CHECK(r1.out == r2.out);
  CHECK(r1.out.size() == 17);
}

TEST_CASE("exec: files are reachable only inside --root", "[exec][linux]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "tpfemu-root-test";
  fs::remove_all(dir);
  fs::create_directories(dir / "jail" / "sub");
  std::ofstream(dir / "jail" / "inside.txt") << "inside";
  std::ofstream(dir / "outside.txt") << "outside";
  fs::create_symlink(dir / "outside.txt", dir / "jail" / "link-out");
  fs::create_symlink("../../outside.txt", dir / "jail" / "sub" / "rel-out");
  test::GuestRun::Options o;
  o.root = (dir / "jail").string();
  CHECK(probe({"escape", "/inside.txt"}, o).out == "open /inside.txt: read 6: inside\n");
  CHECK(probe({"escape", "sub/../inside.txt"}, o).out == "open sub/../inside.txt: read 6: inside\n");
  // ".." stops at the root, as "/.." does on Linux: these name /inside.txt or nothing.
  CHECK(probe({"escape", "../../inside.txt"}, o).out == "open ../../inside.txt: read 6: inside\n");
  CHECK_THAT(probe({"escape", "../outside.txt"}, o).out, Contains("No such file or directory"));
  // Symbolic links resolve inside the root too.
  CHECK_THAT(probe({"escape", "/link-out"}, o).out, Contains("No such file or directory"));
  CHECK_THAT(probe({"escape", "/sub/rel-out"}, o).out, Contains("No such file or directory"));
  // Entries are made and removed inside the root, wherever ".." points.
  CHECK(probe({"create", "../made"}, o).out ==
        "mkdir 0 fopen ok read \"made here\" access 0 unlink 0 rmdir 0 access -1\n");
  CHECK_FALSE(fs::exists(dir / "made"));
  // Without --root there are no files at all.
  CHECK(probe({"escape", "/etc/passwd"}).out == "open /etc/passwd: No such file or directory\n");
  fs::remove_all(dir);
}

TEST_CASE("exec: mprotect and munmap are enforced by DAT and reported as Linux does", "[exec][linux]") {
  auto g = probe({"protect"});
  REQUIRE(g.exited);
  CHECK(g.exit_code == 0);
  // si_code 2 is SEGV_ACCERR (mapped, no right), 1 SEGV_MAPERR (nothing mapped).
  CHECK(g.out ==
        "rw store 0\n"
        "read-only store 2 load 0\n"
        "none store 2 load 2\n"
        "rw again store 0, kept 1\n"
        "unmapped load 1\n");
}

TEST_CASE("exec: an unsupported system call warns once, on standard error", "[exec][linux]") {
  auto g = probe({"enosys"});
  CHECK(g.out == "syscall 999: -1 -1 errno ENOSYS\n");
  CHECK(g.err == "tpfemu: warning: guest system call 999 is not supported; returning -ENOSYS\n");
}

TEST_CASE("exec: a handled program check resumes the program; an unhandled one ends it with the dump",
          "[exec][linux]") {
  test::GuestRun g("glibc_signals");
  REQUIRE(g.exited);
  CHECK(g.exit_code == 0);
  CHECK_THAT(g.out, Contains("compare and trap: signal 8 code 0 dxc ff\n"));
  test::GuestRun d("case_divzero");
  CHECK(d.result.reason == emu::MachineRunResult::Reason::ProgramCheck);
  CHECK(d.exit_code == 128 + 8);
}

TEST_CASE("exec: pthreads run on I-streams, take turns when there are more, and repeat exactly", "[exec][linux][threads]") {
  const std::string expected =
      "counter 200000 (expected 200000), results 60\nconsumed 2001000 (expected 2001000)\n";
  for (unsigned n : {1u, 2u, 4u}) {
    INFO(n << " I-streams");
    test::GuestRun::Options o;
    o.istreams = n;
    o.timing = true;
    o.all_istreams_start = false;
    test::GuestRun a("glibc_pthreads", o), b("glibc_pthreads", o);
    REQUIRE(a.exited);
    CHECK(a.exit_code == 0);
    CHECK(a.out == expected);
    CHECK(a.machine->elapsed_cycles() == b.machine->elapsed_cycles());
    CHECK(a.machine->caches()->line_transfers() == b.machine->caches()->line_transfers());
    for (unsigned k = 0; k < n; ++k) CHECK(a.cpu(k).instructions > 100000);  // every I-stream ran threads
    // The mutex's and the queue's lines move between I-streams: coherence costs.
    if (n > 1) CHECK(a.machine->caches()->line_transfers() > 10000);
  }
}

TEST_CASE("exec: a futex wait times out in simulated time", "[exec][linux][threads]") {
  auto g = probe({"timedwait"});
  CHECK(g.out == "timedwait: ETIMEDOUT, waited at least 5 ms: 1, less than 6 ms: 1\n");
}

TEST_CASE("exec: the process ends when it exits, whatever its other threads wait for", "[exec][linux][threads]") {
  for (unsigned n : {1u, 2u}) {
    test::GuestRun::Options o;
    o.istreams = n;
    o.all_istreams_start = false;
    o.args = {"leave"};
    test::GuestRun g("linux_probe", o);
    CHECK(g.out == "leaving\n");
    CHECK(g.exited);
    CHECK(g.exit_code == 3);
    // The waiter's 10 s timeout never comes: the clocks stop at the exit (~1 ms).
    CHECK(g.machine->elapsed_cycles() < uint64_t(0.1 * 5.2e9));
  }
}

TEST_CASE("exec: a program whose every thread waits for ever ends, and says so", "[exec][linux][threads]") {
  auto g = probe({"deadlock"});
  CHECK(g.out == "locking twice\n");
  CHECK_FALSE(g.exited);
  CHECK(g.result.reason == emu::MachineRunResult::Reason::AllStopped);
}

TEST_CASE("exec: AT_HWCAP and AT_PLATFORM follow machine.arch, as Linux derives them from STFLE", "[exec][linux][arch]") {
  using linux_user::linux_abi::hwcap_of;
  // z10 has the same bits as z196 (long-displacement-high-performance is z990's, and
  // so is the message-security assist, MSA: 8).
  CHECK(hwcap_of(emu::facility_list(emu::Generation::Z10)) == 0x23F);
  // Bit 129 alone makes VXRS; 135 adds VXRS_EXT; 148 VXRS_EXT2 (each needs 129 too).
  std::vector<uint64_t> list = emu::facility_list(emu::Generation::Z10);
  list.resize(3, 0);
  auto set = [&](unsigned bit) { list[bit / 64] |= 1ull << (63 - bit % 64); };
  set(135);
  CHECK((hwcap_of(list) & (1u << 13)) == 0);  // enhancements without the facility: nothing
  set(129);
  CHECK((hwcap_of(list) & (1u << 11)) != 0);
  CHECK((hwcap_of(list) & (1u << 13)) != 0);
  CHECK((hwcap_of(list) & (1u << 15)) == 0);
  set(148);
  CHECK((hwcap_of(list) & (1u << 15)) != 0);
  test::GuestRun::Options o;
  o.config.arch = emu::Generation::Z15;
  auto a = probe({"auxv"}, o);
  CHECK_THAT(a.out, Contains("platform=z15 "));
}
