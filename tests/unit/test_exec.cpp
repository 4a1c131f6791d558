#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "emu/profiler.h"
#include "guest_run.h"

using Catch::Matchers::Contains;

TEST_CASE("exec mode: output, arguments and exit status reach the host", "[exec]") {
  test::GuestRun g("case_hello");
  REQUIRE(g.exited);
  CHECK(g.exit_code == 0);
  CHECK(g.out == "hello from s390x, argc=1 argv[0] ends with ello\n");
  test::GuestRun e("case_exit7");
  CHECK(e.exited);
  CHECK(e.exit_code == 7);
}

TEST_CASE("exec mode: a program check stops the program with a report, not the host", "[exec]") {
  test::GuestRun g("case_divzero");
  REQUIRE(g.result.reason == emu::MachineRunResult::Reason::ProgramCheck);
  CHECK(g.check().check.interrupt.code == emu::Pic::FixedPointDivide);
  CHECK(g.out.empty());  // stdout was still buffered: lost, as when Linux delivers SIGFPE
  std::string report = emu::format_program_check(g.cpu(), g.check().check, &g.image.symbols, "case_divzero.elf");
  CHECK_THAT(report, Contains("PROGRAM CHECK 0009 (fixed-point-divide exception)"));
  CHECK_THAT(report, Contains("main+0x"));
  CHECK_THAT(report, Contains("GR0 -3"));
  CHECK(linux_user::linux_signal_for(g.check().check, false).info.signo == 8);  // SIGFPE
}

TEST_CASE("exec mode: an unimplemented opcode names its bytes", "[exec]") {
  test::GuestRun g("case_badop");
  REQUIRE(g.result.reason == emu::MachineRunResult::Reason::ProgramCheck);
  CHECK(g.check().check.interrupt.code == emu::Pic::Operation);
  CHECK(g.check().check.insn_length == 4);
  CHECK(g.check().check.insn_bytes[0] == 0xB2);
  CHECK(g.check().check.insn_bytes[1] == 0xFF);
  CHECK(g.check().check.mnemonic.empty());
  CHECK(g.image.symbols.find(g.check().check.insn_address)->name == "main");
}

TEST_CASE("exec mode: an instruction limit stops a runaway program", "[exec]") {
  test::GuestRun g("case_spin", 100000);
  CHECK(g.result.reason == emu::MachineRunResult::Reason::Limit);
  CHECK_FALSE(g.exited);
  CHECK(g.cpu().instructions == 100000);
}

TEST_CASE("the profile counts every executed instruction exactly", "[exec][profile]") {
  test::GuestRun g("demo");
  REQUIRE(g.exited);
  CHECK(g.exit_code == 0);
  auto rows = emu::collect_profile(g.space(), g.image.symbols, "demo");
  uint64_t total = 0, in_main = 0;
  for (const auto& r : rows) {
    total += r.count;
    if (r.prog == "main") in_main += r.count;
  }
  CHECK(total == g.cpu().instructions);
  CHECK(in_main > 0);
  std::ostringstream text;
  emu::EtimHeader h;
  h.object = "demo.elf";
  emu::write_etim_text(text, h, rows);
  CHECK_THAT(text.str(), Contains("SSU  PROG - OBJECT"));
  CHECK_THAT(text.str(), Contains("BSS  main - demo.elf"));
  // exec's report has the cycles too (COUNT is executions: no EXECUTIONS column).
  CHECK_THAT(text.str(), Contains("P IS  DISP             INST              COUNT             CYCLES\n"));
  CHECK_THAT(text.str(), Contains("PROGRAMS BY COUNT (executions)\n"));
  CHECK_THAT(text.str(), Contains("TOP 20 INSTRUCTIONS BY COUNT"));
}

TEST_CASE("the same program twice gives identical counts, cycles and profile", "[exec][determinism]") {
  test::GuestRun a("bench_alloc"), b("bench_alloc");
  REQUIRE(a.exited);
  CHECK(a.exit_code == 0);
  CHECK(a.cpu().instructions == b.cpu().instructions);
  CHECK(a.cpu().cycles == b.cpu().cycles);
  CHECK(a.out == b.out);
  std::ostringstream ja, jb;
  emu::EtimHeader h;
  emu::write_etim_json(ja, h, emu::collect_profile(a.space(), a.image.symbols, "x"));
  emu::write_etim_json(jb, h, emu::collect_profile(b.space(), b.image.symbols, "x"));
  CHECK(ja.str() == jb.str());
}

namespace {
// The column at which `word` starts in the first line of `text` after `heading` that
// holds it, or npos.
size_t column_of(const std::string& text, const std::string& heading, const std::string& word) {
  size_t at = text.find(heading);
  if (at == std::string::npos) return std::string::npos;
  std::istringstream lines(text.substr(at));
  for (std::string line; std::getline(lines, line);)
    if (size_t c = line.find(word); c != std::string::npos) return c;
  return std::string::npos;
}
}  // namespace

TEST_CASE("ETIM report under ipl: each row's state (S, P, B), the legend and the JSON say so; else P and no state",
          "[exec][profile]") {
  std::vector<emu::ProfileRow> rows = {{"main", 0x10, 0x1010, "LPSWE", 1, 30, 0},
                                       {"main", 0x14, 0x1014, "STPX", 1, 5, 0},
                                       {"main", 0x18, 0x1018, "BR", 2, 2, 0}};
  rows[0].state = 'S', rows[1].state = 'P', rows[2].state = 'B';
  emu::EtimHeader h;
  h.object = "k.elf", h.states = true;
  std::ostringstream out, json;
  emu::write_etim_text(out, h, rows);
  emu::write_etim_json(json, h, rows);
  const std::string t = out.str();
  INFO(t);
  CHECK_THAT(t, Contains("S = supervisor state, P = problem state, B = both"));
  CHECK_THAT(t, Contains("S 000 0000000000000010 LPSWE"));
  CHECK_THAT(t, Contains("P 000 0000000000000014 STPX"));
  CHECK_THAT(t, Contains("B 000 0000000000000018 BR"));
  CHECK_THAT(json.str(), Contains("\"cycles\": 30, \"state\": \"S\"}"));
  // run and exec: every row P (their programs' state), the legend as before, no state in the JSON.
  emu::EtimHeader plain;
  plain.object = "k.elf";
  std::ostringstream out2, json2;
  std::vector<emu::ProfileRow> problem = {{"main", 0x10, 0x1010, "LGR", 1, 1, 0}};
  emu::write_etim_text(out2, plain, problem);
  emu::write_etim_json(json2, plain, problem);
  CHECK_THAT(out2.str(), Contains("P = problem state, then the I-stream number."));
  CHECK_THAT(out2.str(), Contains("P 000 0000000000000010 LGR"));
  CHECK_THAT(json2.str(), !Contains("state"));
}

TEST_CASE("ETIM report: a per-program table with cycles, and long program names keep the columns aligned",
          "[exec][profile]") {
  const std::string long_name = "_ZN6server7session14handle_requestERKNS_7requestE";  // 49 characters
  std::vector<emu::ProfileRow> rows = {{"main", 0x10, 0x1010, "LGR", 1500, 1500, 0},
                                       {"main", 0x14, 0x1014, "AGHI", 1500, 1600, 0},
                                       {long_name, 0x2, 0x2002, "CSG", 2000000, 9000000, 0}};
  emu::EtimHeader h;
  h.object = "x.elf";
  h.instructions = 2003000, h.cycles = 9003100;
  std::ostringstream out;
  emu::write_etim_text(out, h, rows);
  const std::string t = out.str();
  INFO(t);
  CHECK_THAT(t, Contains("INSTRUCTIONS 2,003,000   CYCLES 9,003,100\n"));
  // The programs, most executions first, with their cycles.
  const std::string pad(long_name.size() - 4, ' ');
  CHECK_THAT(t, Contains("PROGRAMS BY COUNT (executions)\nPROG" + pad + "          COUNT     PCT             CYCLES\n" +
                         long_name + "      2,000,000  99.85%          9,000,000\nmain" + pad +
                         "          3,000   0.15%              3,100\n"));
  CHECK_THAT(t, Contains("P 000 0000000000000014 AGHI              1,500              1,600\n"));
  // The top list: DISP starts where its heading does, whatever the name's length.
  const size_t disp = column_of(t, "TOP 3 INSTRUCTIONS", "DISP");
  REQUIRE(disp != std::string::npos);
  CHECK(column_of(t, "TOP 3 INSTRUCTIONS", "0000000000000002") == disp);
  CHECK(column_of(t, "TOP 3 INSTRUCTIONS", "0000000000000010") == disp);
}
