// Loops that wait without effect, done in one step (emu/spin_loop.h).
#include "emu/spin_loop.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "emu/cpu.h"
#include "emu/isa/table.h"

namespace emu {

namespace {

// What an instruction may be in a loop that is skipped. Register-only: it reads and
// writes only general registers and the CC (and the PSW address, if a branch), never
// storage, the clock, control registers or another I-stream; its handler's cycles
// depend on nothing else either. A pass of such instructions is then a function of
// the registers and the CC alone.
enum class SpinRole : uint8_t { None, RegisterOnly, Branch };

SpinRole role_of(std::string_view m) {
  static constexpr std::string_view kRegisterOnly[] = {
      "LR",   "LGR",  "LTR",  "LTGR", "LGFR", "LLGFR", "LHI",  "LGHI", "LGFI", "LLILF", "LLIHF", "LA",
      "LAY",  "CR",   "CGR",  "CLR",  "CLGR", "CHI",   "CGHI", "CFI",  "CGFI", "CLFI",  "CLGFI", "NR",
      "NGR",  "OR",   "OGR",  "XR",   "XGR",  "AR",    "AGR",  "SR",   "SGR",  "AHI",   "AGHI",  "TMLL",
      "TMLH", "TMHL", "TMHH"};
  // The branches: on condition (the target from registers or the instruction), and
  // compare and branch relative (registers and an immediate; the CC unchanged).
  static constexpr std::string_view kBranches[] = {"BC",    "BCR", "BRC",  "BRCL", "CRJ",  "CGRJ",
                                                   "CLRJ",  "CLGRJ", "CIJ", "CGIJ", "CLIJ", "CLGIJ"};
  if (std::find(std::begin(kRegisterOnly), std::end(kRegisterOnly), m) != std::end(kRegisterOnly))
    return SpinRole::RegisterOnly;
  if (std::find(std::begin(kBranches), std::end(kBranches), m) != std::end(kBranches)) return SpinRole::Branch;
  return SpinRole::None;
}

SpinRole role(uint16_t id) {
  static const std::vector<SpinRole> roles = [] {
    std::vector<SpinRole> r;
    for (const InsnDef& d : instruction_table()) r.push_back(role_of(d.mnemonic));
    return r;
  }();
  return id < roles.size() ? roles[id] : SpinRole::None;
}

// A branch on condition that cannot branch: mask 0 (NOP, NOPR), or BCR to register 0
// (BCR 15,0 and 14,0 serialize, at their own fixed cost).
bool never_branches(const Insn& in) {
  const std::string_view m = mnemonic(in.id);
  if (m == "BC" || m == "BRC" || m == "BRCL") return (in.r1 & 15) == 0;
  if (m == "BCR") return (in.r1 & 15) == 0 || in.r2 == 0;
  return false;
}

}  // namespace

unsigned spin_loop_length(const DecodedPage& page, unsigned head, unsigned branch) {
  unsigned length = 0;
  for (unsigned s = head; s <= branch; ++length) {
    const Insn& in = page.slot[s];
    if (!in.fn || length == kMaxSpinLoop) return 0;
    const SpinRole r = role(in.id);
    if (s == branch) return r == SpinRole::Branch ? length + 1 : 0;
    if (r == SpinRole::None || (r == SpinRole::Branch && !never_branches(in))) return 0;
    s += in.len / 2;
  }
  return 0;  // the instructions from `head` step over `branch`: not one straight run
}

bool closes_spin_loop(const DecodedPage& page, unsigned branch) {
  const Insn& in = page.slot[branch];
  const std::string_view m = mnemonic(in.id);
  if (!in.fn || role(in.id) != SpinRole::Branch || m == "BC" || m == "BCR") return false;  // relative targets only
  const unsigned head = unsigned((in.target & kPageMask) >> 1);
  return head <= branch && spin_loop_length(page, head, branch) != 0;
}

// Called at a taken branch from `branch` back to `head` (same page, head <= branch),
// after the run loop's own checks: n < limit and clock < stop_cycle.
void Cpu::skip_spin(DecodedPage& page, uint64_t head, uint64_t branch, uint64_t& n, uint64_t limit,
                    uint64_t stop_cycle, uint64_t& clock) {
  SpinWatch& w = spin_watch_;
  const unsigned head_slot = unsigned((head & kPageMask) >> 1);
  if (w.page == &page && w.head == head && w.branch == branch) {
    // The same loop again. One pass in between, exactly its instructions once each
    // (none of them branches but the last), and the registers and CC as before it:
    // every further pass is that pass again.
    if (n - w.n != w.length || cc != w.cc || !std::equal(gr, gr + 16, w.gr) || clock == w.clock) {
      not_spin_.add(&page, branch);
      w = SpinWatch{};
      return;
    }
    const uint64_t pass = clock - w.clock;
    // Passes that end before the limit and the stop cycle: the run loop then stops
    // in the next pass at the very instruction it would have stopped at.
    const uint64_t k = std::min((limit - 1 - n) / w.length, (stop_cycle - 1 - clock) / pass);
    if (k) {
      const CyclesByCause before = w.causes;
      for (size_t c = 0; c < before.size(); ++c)
        cycles_by_cause_[c] += k * (cycles_by_cause_[c] - before[c]);
      unsigned s = head_slot;
      for (unsigned j = 0; j < w.length; ++j) {
        Insn& in = page.slot[s];
        in.count += k;
        in.extra += k * (in.extra - w.extra[j]);
        s += in.len / 2;
      }
      n += k * w.length;
      clock += k * pass;
      cycles = clock;
      spin_skipped += k * w.length;
    }
  } else {
    if (not_spin_.holds(&page, branch)) return;
    const unsigned length = spin_loop_length(page, head_slot, unsigned((branch & kPageMask) >> 1));
    if (!length) {
      not_spin_.add(&page, branch);
      return;
    }
    w.page = &page, w.head = head, w.branch = branch, w.length = length;
  }
  // The arrival the next one is compared with.
  w.n = n, w.clock = clock, w.cc = cc;
  std::copy(gr, gr + 16, w.gr);
  w.causes = cycles_by_cause_;
  unsigned s = head_slot;
  for (unsigned j = 0; j < w.length; ++j) w.extra[j] = page.slot[s].extra, s += page.slot[s].len / 2;
}

}  // namespace emu
