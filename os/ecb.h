// ECBs and the processes they run in, as every part of the control program and its
// subsystems see them. An ECB is one unit of work (an input message's, or a thread
// of a process); a process is an address space (EVM) with its storage, shared by
// its ECB and that ECB's threads.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "emu/address_space.h"
#include "emu/cpu.h"
#include "os/guest/include/tpf_evm.h"

namespace os {

struct Process;

struct Ecb {
  uint64_t id = 0;
  std::string program;
  // The programs it ENTERed and has not come BACK from, innermost last: the program in
  // control is the last, or `program` (ZTRAP EI's view by ECB program names it).
  std::vector<std::string> entered;
  const std::string& program_in_control() const { return entered.empty() ? program : entered.back(); }
  std::shared_ptr<Process> process;
  unsigned thread = 0;  // 0: the process's own ECB; otherwise its thread id
  unsigned home = 0;    // I-stream whose lists it returns to
  // Saved state while it is not running.
  uint64_t gr[16] = {};
  emu::VectorRegister vr[32] = {};  // the floating-point registers are their left halves
  uint32_t ar[16] = {};
  uint32_t fpc = 0;
  uint64_t psw = 0;
  uint8_t cc = 0, prog_mask = 0;
  uint64_t cpu_cycles = 0;  // CPU time used, for the timeout
  uint64_t dispatched_at = 0;
  uint64_t created = 0;  // simulated time (cycles) it was made: its response time runs from here
  // The input message it serves (0: none).
  uint64_t message = 0, arrival = 0;
  unsigned terminal = 0;
  bool prelude = false;    // workload.prelude's ECB: the messages begin when it ends
  unsigned joiner_of = 0;  // waiting in THREAD_JOIN for this thread id (0: not waiting)
  // What it waits for while parked ("" when ready or running), for the message of a run
  // that cannot go on; and the storage word of its WORD_WAIT (0: none).
  std::string waiting_on;
  bool page_wait = false;  // parked by a page fault until its page is in (its home I-stream's idle is page wait)
  uint64_t word_wait = 0, word_key = 0;  // its address, and its absolute address
};

// ECBs waiting for something (a list of the CPU loop, an event, a lock), oldest first.
using WaitList = std::deque<Ecb*>;

struct Process {
  uint64_t id = 0;  // the number of the ECB that created it (subsystems key their state by it)
  std::string name;  // its first ECB's program (a job name, for the operator)
  std::unique_ptr<emu::AddressSpace> space;
  uint64_t brk = TPF_EVM_HEAP31, brk_mapped = TPF_EVM_HEAP31;
  uint64_t system_next = TPF_EVM_SYSTEM;
  uint64_t system64_next = TPF_EVM_SYSTEM64;  // GETSTOR64's next block (above the bar)
  std::map<uint64_t, uint64_t> system_blocks;  // GETSTOR address -> bytes
  // Of those, the blocks of virtual I/O storage (GETSTOR_VIO: a temporary data set kept in
  // virtual storage), address -> bytes: a subsystem paging them keeps them off SCM.
  std::map<uint64_t, uint64_t> vio_blocks;
  unsigned next_thread = 1, live_threads = 0;
  std::map<unsigned, uint64_t> thread_results;  // exited threads' return values
  std::vector<Ecb*> joiners;
  uint64_t cpu_cycles = 0;  // CPU time its ECBs used (as they give up their I-streams): whether it ran
  bool nondispatchable = false;  // its ECBs wait off the lists (an SVC dump capturing its storage)
  // The first of its ECBs that ended abnormally (program check, dump, timeout): its
  // waiters may wait for a release that never comes ("" while none has).
  std::string abnormal_end;
};

struct InputMessage {
  uint64_t seq = 0, arrival = 0;
  unsigned terminal = 0;
  std::vector<uint8_t> bytes;
};

}  // namespace os
