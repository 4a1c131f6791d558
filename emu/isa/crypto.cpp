// The message-security assist (CPACF) [Principles of Operation, chapter 7, "Message-
// Security Assist"]: COMPUTE MESSAGE AUTHENTICATION CODE, CIPHER MESSAGE (and WITH
// CHAINING, CIPHER FEEDBACK, OUTPUT FEEDBACK, COUNTER, AUTHENTICATION), COMPUTE
// INTERMEDIATE and LAST MESSAGE DIGEST, PERFORM CRYPTOGRAPHIC KEY MANAGEMENT OPERATION,
// PERFORM CRYPTOGRAPHIC COMPUTATION and PERFORM RANDOM NUMBER OPERATION.
//
// Only the query function is installed: it stores the 16-byte status word (bit n one
// when function code n is installed) at GR1's address, CC 0. The status word says so
// (bit 0 alone), so a program that queries first, as the PoO asks, finds nothing else
// and does not use any other code; one that does gets the specification exception an
// uninstalled function code gets. No randomness: PRNO's TRNG is not announced.
#include <cstring>

#include "emu/isa/common.h"
#include "emu/system/system_cpu.h"

namespace emu::isa {
namespace {

// The operand fields an instruction checks: each names an even-odd register pair and
// must be even and not 0, or a specification exception is recognized [PoO, each
// instruction's "Special Conditions"]; KMA's R3 must also differ from R1 and R2.
enum PairField : uint8_t { kNone = 0, kR1 = 1, kR2 = 2, kR3 = 4, kR3Apart = 8 };

struct CpacfRules {
  uint8_t pairs;          // PairField bits
  bool modifier_allowed;  // GR0 bit 56 (decipher, seed, ...) means something to it
};

constexpr uint64_t kModifierBit = 0x80;    // GR0 bit 56
constexpr uint64_t kFunctionCode = 0x7F;   // GR0 bits 57-63
constexpr unsigned kStatusWordBytes = 16;  // the query's parameter block
// The status word: function code 0 (query) installed, nothing else.
constexpr uint8_t kQueryOnly[kStatusWordBytes] = {0x80};

bool not_a_pair(unsigned r) { return r == 0 || (r & 1); }

void check_operand_fields(const Insn& i, uint8_t pairs) {
  const bool bad = ((pairs & kR1) && not_a_pair(i.r1)) || ((pairs & kR2) && not_a_pair(i.r2)) ||
                   ((pairs & kR3) && not_a_pair(i.r3)) || ((pairs & kR3Apart) && (i.r3 == i.r1 || i.r3 == i.r2));
  if (bad) program_check(Pic::Specification);
}

// The query's store: the 16 bytes at GR1's address (the parameter block), as one store
// operand. Across a page boundary both pages are reached before a byte is stored, so an
// access exception leaves storage unchanged (the operation is suppressed).
void store_status_word(Cpu& c, uint64_t a) {
  if (uint8_t* p = c.span(a, kStatusWordBytes, true)) {
    std::memcpy(p, kQueryOnly, kStatusWordBytes);
    return;
  }
  c.span(a, 1, true);
  c.span(a + kStatusWordBytes - 1, 1, true);
  for (unsigned k = 0; k < kStatusWordBytes; ++k) c.write<uint8_t>(a + k, kQueryOnly[k]);
}

// What every CPACF instruction does here, in the PoO's order of checks: the register
// fields, the modifier bit where the instruction has none, the function code (only the
// query is installed), then the query's store.
void cpacf(Cpu& c, const Insn& i, CpacfRules rules) {
  check_operand_fields(i, rules.pairs);
  const uint64_t gr0 = c.gr[0];
  if ((gr0 & kModifierBit) && !rules.modifier_allowed) program_check(Pic::Specification);
  if ((gr0 & kFunctionCode) != 0) program_check(Pic::Specification);
  store_status_word(c, c.gr[1]);
  c.cc = 0;
}

}  // namespace

// Message-security assist (facility 17).
void kmac(Cpu& c, const Insn& i) { cpacf(c, i, {kR2, false}); }
void km(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2, true}); }
void kmc(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2, true}); }
void kimd(Cpu& c, const Insn& i) { cpacf(c, i, {kR2, false}); }
void klmd(Cpu& c, const Insn& i) { cpacf(c, i, {kR2, false}); }
// Extension 3 (76): no operand registers, the parameter block at GR1. Privileged: under
// a host control program (run, exec) its programs never have the supervisor state.
void pckmo(Cpu& c, const Insn& i) {
  system_of(c);
  cpacf(c, i, {kNone, false});
}
// Extension 4 (77).
void kmf(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2, true}); }
void kmo(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2, true}); }
void pcc(Cpu& c, const Insn& i) { cpacf(c, i, {kNone, false}); }
void kmctr(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2 | kR3, true}); }
// Extension 5 (57): PERFORM RANDOM NUMBER OPERATION (first PERFORM PSEUDORANDOM NUMBER
// OPERATION); bit 56 is SHA-512-DRNG's seed modifier.
void prno(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2, true}); }
// Extension 8 (146): CIPHER MESSAGE WITH AUTHENTICATION.
void kma(Cpu& c, const Insn& i) { cpacf(c, i, {kR1 | kR2 | kR3 | kR3Apart, true}); }

}  // namespace emu::isa
