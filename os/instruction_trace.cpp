#include "os/instruction_trace.h"

#include <cctype>
#include <charconv>
#include <fmt/format.h>

#include "config/config.h"
#include "emu/isa/table.h"
#include "os/operator.h"
#include "os/simulated_time.h"
#include "os/ztrap_subsystem.h"

namespace os {
namespace {

struct TraceCommand {
  bool off = false;
  int istream = -1;
  std::string program;
  uint64_t count = 0;
};

// TRACE I=n,COUNT=k | TRACE PROG=name,COUNT=k | TRACE OFF. Throws cfg::ConfigError.
TraceCommand parse_trace(std::string_view text) {
  const std::string t = squeezed_command(text);
  const auto bad = [&](const std::string& why) { return cfg::ConfigError(fmt::format("\"{}\": {}", text, why)); };
  TraceCommand c;
  if (t == "TRACEOFF") return c.off = true, c;
  std::string rest = t.substr(5);
  bool counted = false;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string operand = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    const size_t eq = operand.find('=');
    const std::string key = operand.substr(0, eq), value = eq == std::string::npos ? "" : operand.substr(eq + 1);
    const auto number = [&](uint64_t& out) {
      const auto r = std::from_chars(value.data(), value.data() + value.size(), out);
      return !value.empty() && r.ec == std::errc() && r.ptr == value.data() + value.size();
    };
    uint64_t n = 0;
    if (key == "I" && number(n) && n < 256) c.istream = int(n);
    else if (key == "PROG" && !value.empty()) c.program = value;
    else if (key == "COUNT" && number(n) && n >= 1 && n <= InstructionTrace::kMaxCount) c.count = n, counted = true;
    else
      throw bad(fmt::format("{} is not I=n, PROG=name or COUNT=1..{}", operand.empty() ? "an empty operand" : operand,
                            InstructionTrace::kMaxCount));
  }
  if ((c.istream >= 0) == !c.program.empty()) throw bad("TRACE takes I=n or PROG=name (one of them), then COUNT=k");
  if (!counted) throw bad(fmt::format("TRACE needs COUNT=k (1..{})", InstructionTrace::kMaxCount));
  return c;
}

unsigned instruction_length(uint8_t first) { return first < 0x40 ? 2 : first < 0xC0 ? 4 : 6; }

}  // namespace

OperatorGrammars InstructionTrace::operator_grammars() const {
  return {{.owner = "TRACE",
           .syntax = "TRACE I=n|PROG=name,COUNT=k, TRACE OFF",
           .mine = [](std::string_view text) {
             const std::string t = squeezed_command(text);
             return t.rfind("TRACE", 0) == 0;
           },
           .check = [](std::string_view text) { parse_trace(text); }}};
}

void InstructionTrace::install(System& system) {
  system_ = &system;
  system.add_operator_commands(
      "TRACE",
      "TRACE I=1,COUNT=500         trace the next 500 instructions of I-stream 1, with registers, to itrace.txt\n"
      "TRACE PROG=QZZ1,COUNT=1000  the same for the instructions run for ECBs of program QZZ1; TRACE OFF ends it\n",
      [this](const OperatorCommand& c, uint64_t now, uint64_t ns, bool) { return command(c, now, ns); });
  system.add_report({.name = "itrace.txt", .write = [this](std::ostream& o) { o << text_; },
                     .wanted = [this] { return traces_ > 0; }});
}

void InstructionTrace::arm(bool on, uint64_t now) {
  emu::Machine& m = system_->machine();
  last_cycles_.assign(m.istreams(), ~0ull);
  on_ = on;
  // A ZTRAP EI START during the trace took the sampling over: it is ZTRAP's to end.
  if (!on && ztrap_on()) return;
  for (unsigned i = 0; i < m.istreams(); ++i) {
    emu::Cpu& c = m.cpu(i);
    if (on && (istream_ < 0 || unsigned(istream_) == i)) c.set_sampling(1, std::max(now, c.cycles) + 1, this);
    else c.set_sampling(0, 0);
  }
}

bool InstructionTrace::ztrap_on() const {
  const auto* z = system_->find_subsystem<ZtrapSubsystem>();
  return z && z->ei() && z->ei()->on();
}

std::string InstructionTrace::command(const OperatorCommand& c, uint64_t now, uint64_t ns) {
  const TraceCommand t = parse_trace(c.text);
  const std::string when = cfg::format_duration(ns);
  std::vector<std::string> lines;
  if (t.off) {
    if (!on_) return fmt::format("ERROR at {}: no trace is on", when);
    arm(false, now);
    text_ += fmt::format("TRACE OFF at {}: {} instructions not traced\n\n", console_time(ns), left_);
    lines.push_back(fmt::format("TRACE ENDED at {}: itrace.txt", when));
    return system_->operator_answer(now, c.text, lines);
  }
  if (on_) return fmt::format("ERROR at {}: a trace is on already (TRACE OFF ends it)", when);
  if (t.istream >= int(system_->machine().istreams()))
    return fmt::format("ERROR at {}: I={} is not an I-stream of this machine (0..{})", when, t.istream,
                       system_->machine().istreams() - 1);
  if (ztrap_on())
    return fmt::format("ERROR at {}: ZTRAP EI is collecting (both sample the I-streams); ZTRAP EI STOP first", when);
  istream_ = t.istream, program_ = t.program, left_ = t.count;
  ++traces_;
  text_ += fmt::format("TRACE {} at {} ({}): the next {} instructions{}; the registers are after each executed\n",
                       traces_, console_time(ns), c.text,
                       t.count, t.istream >= 0 ? fmt::format(" of I-stream {}", t.istream)
                                               : " run for ECBs of program " + t.program);
  arm(true, now);
  lines.push_back(fmt::format("TRACE STARTED at {}: {} instructions to itrace.txt", when, t.count));
  return system_->operator_answer(now, c.text, lines);
}

void InstructionTrace::run_ended() {
  if (!on_) return;
  arm(false, 0);
  text_ += fmt::format("TRACE CUT SHORT: {} instructions left when the run ended (a ZTRAP EI START meanwhile "
                       "takes the sampling over)\n\n", left_);
}

// Once per instruction: its sample points all come at the same clock (one a cycle it took).
void InstructionTrace::sample(unsigned istream, uint64_t address) {
  if (!on_ || left_ == 0) return;
  emu::Cpu& cpu = system_->machine().cpu(istream);
  if (last_cycles_[istream] == cpu.cycles) return;
  last_cycles_[istream] = cpu.cycles;
  const Ecb* e = system_->running(istream);
  if (!program_.empty() && (!e || e->program_in_control() != program_)) return;
  uint8_t bytes[6] = {};
  std::string inst = "????????????", mnemonic = "?";
  if (cpu.space().read_bytes(address, bytes, 2)) {
    const unsigned len = instruction_length(bytes[0]);
    if (len == 2 || cpu.space().read_bytes(address + 2, bytes + 2, len - 2)) {
      inst.clear();
      for (unsigned k = 0; k < len; ++k) inst += fmt::format("{:02X}", bytes[k]);
      const char* m = emu::mnemonic(emu::lookup_opcode(bytes));
      mnemonic = m && *m ? m : "(not implemented)";
    }
  }
  const std::string where = system_->symbolize(address);
  text_ += fmt::format("IS{:02} {:>14}  PSW={:016X}  INST={:<12}  {:<8} {:<28} {}\n", istream, cpu.cycles, address,
                       inst, mnemonic, where.empty() ? "-" : where,
                       e ? fmt::format("ECB {} {}", e->id, e->program_in_control()) : "no ECB");
  for (unsigned r = 0; r < 16; r += 4)
    text_ += fmt::format("  R{:X}={:016X} R{:X}={:016X} R{:X}={:016X} R{:X}={:016X}\n", r, cpu.gr[r], r + 1,
                         cpu.gr[r + 1], r + 2, cpu.gr[r + 2], r + 3, cpu.gr[r + 3]);
  if (--left_ == 0) {
    arm(false, 0);
    text_ += "TRACE COMPLETE\n\n";
  }
}

}  // namespace os
