// LE run-time options (le/le_options.*) and system.le.* (le/le_config.*): issue 25, item 2.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "config/config.h"
#include "le/le_config.h"
#include "le/le_options.h"

namespace {

using le::Disposition;
using le::Fill;
using le::Location;
using le::Options;
using le::parse_options;

// The message of the OptionError `text` gives, or "(no error)".
std::string option_error(std::string_view text) {
  try {
    parse_options(text);
  } catch (const le::OptionError& e) {
    return e.what();
  }
  return "(no error)";
}

constexpr const char* kDefaultsCanonical =
    "ANYHEAP(16384,8192,ANYWHERE,FREE) BELOWHEAP(8192,4096,FREE) HEAP(32768,32768,ANYWHERE,KEEP,8192,4096) "
    "HEAPPOOLS(OFF,8,10,32,10,128,10,256,10,1024,10,2048,10,0,10,0,10,0,10,0,10,0,10,0,10) LIBSTACK(4096,4096,FREE) "
    "RPTSTG(OFF) STACK(131072,131072,ANYWHERE,KEEP,524288,131072) STORAGE(NONE,NONE,NONE,0) "
    "THREADSTACK(OFF,4096,4096,ANYWHERE,KEEP,131072,131072)";

}  // namespace

TEST_CASE("le options: IBM's non-CICS defaults", "[le]") {
  const Options& d = le::ibm_defaults();
  CHECK(le::canonical(d) == kDefaultsCanonical);
  CHECK(parse_options("") == d);
  CHECK(parse_options("  , ") == d);
  CHECK(d.heap == le::HeapOption{32768, 32768, Location::Anywhere, Disposition::Keep, 8192, 4096});
  CHECK(d.stack == le::StackOption{131072, 131072, Location::Anywhere, Disposition::Keep, 524288, 131072});
  CHECK(d.anyheap == le::AnyHeapOption{16384, 8192, Location::Anywhere, Disposition::Free});
  CHECK(d.belowheap == le::BelowOption{8192, 4096, Disposition::Free});
  CHECK(d.libstack == le::BelowOption{4096, 4096, Disposition::Free});
  CHECK_FALSE(d.threadstack.on);
  CHECK(d.threadstack.stack == le::StackOption{4096, 4096, Location::Anywhere, Disposition::Keep, 131072, 131072});
  CHECK(d.storage == le::StorageOption{});  // NONE, NONE, NONE, 0
  CHECK_FALSE(d.heappools.on);
  CHECK(d.heappools.count() == 6);
  CHECK(d.heappools.pools[5] == le::HeapPool{2048, 10});
  CHECK(d.heappools.pools[6] == le::HeapPool{0, 10});
  CHECK_FALSE(d.rptstg);
  // A default-constructed Options is not the defaults: they are stated once, in LE's words.
  CHECK_FALSE(Options{} == d);
}

TEST_CASE("le options: every option, every operand", "[le]") {
  const Options o = parse_options(
      "HEAP(1M,2M,BELOW,FREE,16K,8K) ANYHEAP(64K,32K,BELOW,KEEP) BELOWHEAP(16K,8K,KEEP) "
      "STACK(256K,64K,BELOW,FREE,1M,256K) THREADSTACK(ON,8K,16K,BELOW,FREE,64K,32K) LIBSTACK(8K,2K,KEEP) "
      "STORAGE(FE,de,CLEAR,16K) HEAPPOOLS(ON,16,20,48,5,2K,90,0) RPTSTG(ON)");
  CHECK(o.heap == le::HeapOption{1 << 20, 2 << 20, Location::Below, Disposition::Free, 16384, 8192});
  CHECK(o.anyheap == le::AnyHeapOption{65536, 32768, Location::Below, Disposition::Keep});
  CHECK(o.belowheap == le::BelowOption{16384, 8192, Disposition::Keep});
  CHECK(o.stack == le::StackOption{262144, 65536, Location::Below, Disposition::Free, 1 << 20, 262144});
  CHECK(o.threadstack.on);
  CHECK(o.threadstack.stack == le::StackOption{8192, 16384, Location::Below, Disposition::Free, 65536, 32768});
  CHECK(o.libstack == le::BelowOption{8192, 2048, Disposition::Keep});
  CHECK(o.storage.heap_alloc == Fill{Fill::Byte, 0xFE});
  CHECK(o.storage.heap_free == Fill{Fill::Byte, 0xDE});
  CHECK(o.storage.dsa_alloc == Fill{Fill::Clear, 0});
  CHECK(o.storage.reserve_size == 16384);
  CHECK(o.heappools.on);
  CHECK(o.heappools.pools[0] == le::HeapPool{16, 20});
  CHECK(o.heappools.pools[1] == le::HeapPool{48, 5});
  CHECK(o.heappools.pools[2] == le::HeapPool{2048, 90});
  // The fourth pool keeps its default (256): larger than 2048 is not, so the list must end.
  CHECK_THAT(option_error("HEAPPOOLS(ON,16,20,48,5,2K,90)"), Catch::Matchers::Contains("cell size 4 (256)"));
  CHECK(parse_options("HEAPPOOLS(ON,16,20,48,5,2K,90,0)").heappools.count() == 3);
  CHECK(o.rptstg);
  CHECK(parse_options("STORAGE(00,NONE,00)").storage.dsa_alloc == Fill{Fill::Byte, 0});
  CHECK(parse_options("STACK(,,ANY)").stack.location == Location::Anywhere);
}

TEST_CASE("le options: sizes are n, nK or nM, rounded up to a multiple of 8", "[le]") {
  CHECK(parse_options("HEAP(1,13)").heap.init_size == 8);
  CHECK(parse_options("HEAP(1,13)").heap.incr_size == 16);
  CHECK(parse_options("HEAP(0,8)").heap.init_size == 0);
  CHECK(parse_options("HEAP(0,8)").heap.incr_size == 8);
  CHECK(parse_options("HEAP(32761)").heap.init_size == 32768);
  CHECK(parse_options("HEAP(4k,1m)").heap.init_size == 4096);
  CHECK(parse_options("HEAP(4k,1m)").heap.incr_size == 1048576);
  CHECK(parse_options("STACK(2047M)").stack.init_size == 2047ull << 20);
  CHECK(parse_options("BELOWHEAP(4095)").belowheap.init_size == 4096);
  // STORAGE's reserve_size has no documented rounding: kept as written.
  CHECK(parse_options("STORAGE(,,,13)").storage.reserve_size == 13);
}

TEST_CASE("le options: omitted operands keep their values, later options override", "[le]") {
  const Options d = le::ibm_defaults();
  Options o = parse_options("HEAP(,64K)");
  CHECK(o.heap.init_size == 32768);
  CHECK(o.heap.incr_size == 65536);
  CHECK(o.heap.init24 == d.heap.init24);
  o = parse_options("HEAP(,,BELOW)");
  CHECK(o.heap.location == Location::Below);
  CHECK(o.heap.init_size == d.heap.init_size);
  o = parse_options("STORAGE(,,00)");
  CHECK(o.storage.dsa_alloc == Fill{Fill::Byte, 0});
  CHECK(o.storage.heap_alloc == Fill{});
  CHECK(parse_options("HEAP()") == d);
  CHECK(parse_options("HEAP( , 64K )").heap.incr_size == 65536);

  o = parse_options("HEAP(1M) HEAP(,2M) RPTSTG(ON),RPTSTG(OFF)");
  CHECK(o.heap.init_size == 1 << 20);
  CHECK(o.heap.incr_size == 2 << 20);
  CHECK_FALSE(o.rptstg);
  // On top of another set of options (system.le.options, then a program's own).
  const Options system = parse_options("HEAP(100M,100M) RPTSTG(ON)");
  o = le::apply_options(system, "HEAP(,1M,,FREE)");
  CHECK(o.heap == le::HeapOption{100 << 20, 1 << 20, Location::Anywhere, Disposition::Free, 8192, 4096});
  CHECK(o.rptstg);
}

TEST_CASE("le options: keywords in any case, IBM's abbreviations only", "[le]") {
  CHECK(parse_options("heap(32k,32k,any,free)").heap.disposition == Disposition::Free);
  CHECK(parse_options("Rptstg(on)").rptstg);
  CHECK(parse_options("H(8K)").heap.init_size == 8192);
  CHECK(parse_options("HEA(8K)").heap.init_size == 8192);
  CHECK(parse_options("AN(8K)").anyheap.init_size == 8192);
  CHECK(parse_options("ANYH(8K)").anyheap.init_size == 8192);
  CHECK(parse_options("BE(8K)").belowheap.init_size == 16384 / 2);
  CHECK(parse_options("STA(8K)").stack.init_size == 8192);
  CHECK(parse_options("LIBS(8K)").libstack.init_size == 8192);
  CHECK(parse_options("STO(,,CLEAR)").storage.dsa_alloc.kind == Fill::Clear);
  CHECK(parse_options("HEAPP(ON)").heappools.on);
  CHECK(parse_options("RPTS(ON)").rptstg);
  CHECK(parse_options("THREADSTACK(ON)").threadstack.on);
  // Shorter than the capital letters of IBM's diagrams: not an abbreviation.
  CHECK(option_error("ST(1)") == "unknown option \"ST\": too short an abbreviation (STACK may be shortened to STA; "
                                 "STORAGE may be shortened to STO)");
  CHECK(option_error("RPT(ON)") == "unknown option \"RPT\": too short an abbreviation (RPTSTG may be shortened to RPTS)");
  CHECK(parse_options("heapp(ON)").heappools.on);
  // THREADSTACK's minimum is not documented where we looked: in full only.
  CHECK(option_error("THREADSTAC(ON)") ==
        "unknown option \"THREADSTAC\": too short an abbreviation (THREADSTACK is accepted in full only)");
}

TEST_CASE("le options: the canonical form parses back to the same options", "[le]") {
  const Options o = parse_options(
      "HEAP(100M,3,BELOW,FREE,0,1) ANYHEAP(,,BELOW) STORAGE(0a,FF,CLEAR,1M) HEAPPOOLS(ON,8,1,16,90,0) "
      "THREADSTACK(ON) RPTSTG(ON) LIBSTACK(0,0,KEEP)");
  const std::string text = le::canonical(o);
  CHECK(parse_options(text) == o);
  CHECK(le::apply_options(Options{}, text) == o);  // every operand is written
  CHECK(le::canonical(parse_options(text)) == text);
  CHECK(le::canonical(o, "HEAP") == "HEAP(104857600,8,BELOW,FREE,0,8)");
  CHECK(le::canonical(o, "sto") == "STORAGE(0A,FF,CLEAR,1048576)");
  CHECK(le::canonical(o, "HEAPPOOLS") ==
        "HEAPPOOLS(ON,8,1,16,90,0,10,256,10,1024,10,2048,10,0,10,0,10,0,10,0,10,0,10,0,10)");
  CHECK(le::canonical(le::ibm_defaults(), "RPTSTG") == "RPTSTG(OFF)");
  CHECK(parse_options(kDefaultsCanonical) == le::ibm_defaults());
}

TEST_CASE("le options: each error names the option and the operand", "[le]") {
  CHECK(option_error("HEAP(32K,32K,ANYWHERE,KEPP)") == "HEAP: operand 4 \"KEPP\" is not KEEP or FREE");
  CHECK(option_error("STACK(12Q)") == "STACK: operand 1 \"12Q\" is not a size (usinit_size: n, nK or nM bytes)");
  CHECK(option_error("HEAP(1G)") == "HEAP: operand 1 \"1G\" is not a size (init_size: n, nK or nM bytes)");
  CHECK(option_error("HEAP(,2048M)") == "HEAP: operand 2 \"2048M\" is more than 2047M, the largest size (incr_size)");
  CHECK(option_error("HEAP(99999999999999999999999)").find("is more than 2047M") != std::string::npos);
  CHECK(option_error("STACK(-4K)") ==
        "STACK: operand 1 \"-4K\" is not a size (usinit_size: n, nK or nM bytes; LE's negative sizes, all the "
        "storage but n, are not modelled)");
  CHECK(option_error("ANYHEAP(,,ABOVE)") == "ANYHEAP: operand 3 \"ABOVE\" is not ANYWHERE, ANY or BELOW");
  CHECK(option_error("THREADSTACK(YES)") == "THREADSTACK: operand 1 \"YES\" is not ON or OFF");
  CHECK(option_error("RPTSTG(MAYBE)") == "RPTSTG: operand 1 \"MAYBE\" is not ON or OFF");
  CHECK(option_error("HEEP(1M)") == "unknown option \"HEEP\" (did you mean HEAP?)");
  CHECK(option_error("ALL31(ON)") ==
        "unknown option \"ALL31\" (known: ANYHEAP, BELOWHEAP, HEAP, HEAPPOOLS, LIBSTACK, RPTSTG, STACK, STORAGE, "
        "THREADSTACK)");
  // Parentheses.
  CHECK(option_error("HEAP(32K,32K") == "HEAP: \"(\" at column 5 is not closed");
  CHECK(option_error("HEAP(32K))") == "\")\" at column 10 has no \"(\"");
  CHECK(option_error("RPTSTG") == "RPTSTG: no \"(\" after the option name (e.g. RPTSTG(ON|OFF))");
  CHECK(option_error("RPTSTG (ON)") == "RPTSTG: no \"(\" after the option name (e.g. RPTSTG(ON|OFF))");
  CHECK(option_error("HEAPPOOLS(ON,(8,2),10)") ==
        "HEAPPOOLS: \"(\" at column 14 inside its operands (nested parentheses are not LE option syntax modelled "
        "here)");
  CHECK(option_error("HEAP=((1M),OVR)") == "HEAP: no \"(\" after the option name (e.g. HEAP(init_size,incr_size,"
                                           "ANYWHERE|ANY|BELOW,KEEP|FREE,initsz24,incrsz24))");
  CHECK(option_error("(1M)") == "\"(\" at column 1 does not begin an option name");
  // Too many operands.
  CHECK(option_error("HEAP(1,2,ANY,KEEP,5,6,7)") ==
        "HEAP: 7 operands, more than the 6 of HEAP(init_size,incr_size,ANYWHERE|ANY|BELOW,KEEP|FREE,initsz24,"
        "incrsz24)");
  CHECK(option_error("RPTSTG(ON,OFF)") == "RPTSTG: 2 operands, more than the 1 of RPTSTG(ON|OFF)");
  CHECK(option_error("BELOWHEAP(8K,4K,ANY)") == "BELOWHEAP: operand 3 \"ANY\" is not KEEP or FREE");
  // STORAGE.
  CHECK(option_error("STORAGE(CLEAR)") == "STORAGE: operand 1 \"CLEAR\" CLEAR is for dsa_alloc_value (operand 3) only");
  CHECK(option_error("STORAGE(,,ZZ)") == "STORAGE: operand 3 \"ZZ\" is not NONE, CLEAR or two hex digits (00 to FF)");
  CHECK(option_error("STORAGE(,0)") == "STORAGE: operand 2 \"0\" is not NONE or two hex digits (00 to FF)");
  CHECK(option_error("STORAGE('a')") ==
        "STORAGE: operand 1 \"'a'\" is a quoted character, which is not modelled: give its EBCDIC code as two hex "
        "digits (e.g. 81 for a)");
  CHECK(option_error("STORAGE(,,,1X)") == "STORAGE: operand 4 \"1X\" is not a size (reserve_size: n, nK or nM bytes)");
  // HEAPPOOLS.
  CHECK(option_error("HEAPPOOLS(ON,8,10,64,10,32,10)") ==
        "HEAPPOOLS: cell size 3 (32) is not larger than cell size 2 (64): cell sizes increase, and a cell size of 0 "
        "ends the list");
  CHECK(option_error("HEAPPOOLS(ON,12)") == "HEAPPOOLS: operand 2 \"12\" is not a multiple of 8 (cell size 1)");
  // z/OS 2.4's limit: 65536 (64K) is a cell size, 65544 is not.
  CHECK(parse_options("HEAPPOOLS(ON,8,10,32,10,128,10,256,10,1024,10,64K,10,0)").heappools.pools[5].cell_size == 65536);
  CHECK(option_error("HEAPPOOLS(ON,8,10,32,10,128,10,256,10,1024,10,65544,10)") ==
        "HEAPPOOLS: operand 12 \"65544\" is more than 65536, the largest cell size (cell size 6)");
  CHECK(option_error("HEAPPOOLS(ON,8,95)") == "HEAPPOOLS: operand 3 \"95\" is out of range 1..90 (percentage 1)");
  CHECK(option_error("HEAPPOOLS(ON,8,0)") == "HEAPPOOLS: operand 3 \"0\" is out of range 1..90 (percentage 1)");
  CHECK(option_error("HEAPPOOLS(ON,8,5%)") == "HEAPPOOLS: operand 3 \"5%\" is not a whole number (percentage 1: 1 to 90)");
  CHECK(option_error("HEAPPOOLS(ALIGN)") == "HEAPPOOLS: operand 1 \"ALIGN\" is not ON or OFF");
  CHECK(option_error("HEAPPOOLS(ON,8,10,16,10,24,10,32,10,40,10,48,10,56,10,64,10,72,10,80,10,88,10,96,10,104)")
            .rfind("HEAPPOOLS: 26 operands, more than the 25 of", 0) == 0);
  CHECK(parse_options("HEAPPOOLS(ON,8,10,16,10,24,10,32,10,40,10,48,10,56,10,64,10,72,10,80,10,88,10,96,10)")
            .heappools.count() == 12);
  // The error of the second option, though the first is good; an OptionError is a ConfigError.
  CHECK(option_error("HEAP(1M) STACK(1M,,SOMEWHERE)") == "STACK: operand 3 \"SOMEWHERE\" is not ANYWHERE, ANY or BELOW");
  CHECK_THROWS_AS(parse_options("HEAP(X)"), cfg::ConfigError);
}

namespace {

cfg::Schema le_schema() {
  cfg::Schema s;
  le::le_section().declare(s);
  return s;
}

// The LeConfig a YAML text gives (loaded as configs/le.yaml), or its error's message.
le::LeConfig from_yaml(const cfg::Schema& schema, const std::string& text) {
  cfg::Config c(schema);
  c.load_yaml(text, "configs/le.yaml");
  c.validate();
  return le::le_config_from(c);
}
std::string yaml_error(const std::string& text) {
  const cfg::Schema schema = le_schema();
  try {
    from_yaml(schema, text);
  } catch (const cfg::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("le config: system.le.* defaults", "[le]") {
  const cfg::Schema schema = le_schema();
  const le::LeConfig l = from_yaml(schema, "");
  CHECK(l.programs.empty());
  CHECK(l.program_options.empty());
  CHECK(l.options == le::ibm_defaults());
  CHECK(l.region == 32ull << 20);
  CHECK_FALSE(l.on_le("QZZ0"));
  CHECK_THROWS_AS(l.options_for("QZZ0"), std::logic_error);
}

TEST_CASE("le config: programs on LE storage get the system options, then their own", "[le]") {
  const cfg::Schema schema = le_schema();
  const le::LeConfig l = from_yaml(schema,
                                   "system:\n"
                                   "  le:\n"
                                   "    programs: QLEH, QLES QLEX\n"
                                   "    options: HEAP(100M,100M) RPTSTG(ON)\n"
                                   "    program_options: \"QLEH=HEAP(,1M) STACK(1M); QLES=STORAGE(,,00);\"\n"
                                   "    region: 1G\n");
  CHECK(l.programs == std::vector<std::string>{"QLEH", "QLES", "QLEX"});
  CHECK(l.region == 1ull << 30);
  CHECK(l.options.heap.init_size == 100 << 20);
  CHECK(l.on_le("QLEH"));
  const Options& h = l.options_for("QLEH");
  CHECK(h.heap.init_size == 100 << 20);
  CHECK(h.heap.incr_size == 1 << 20);
  CHECK(h.stack.init_size == 1 << 20);
  CHECK(h.rptstg);
  CHECK(l.options_for("QLES").storage.dsa_alloc == Fill{Fill::Byte, 0});
  CHECK(l.options_for("QLES").heap == l.options.heap);
  CHECK(l.options_for("QLEX") == l.options);
}

TEST_CASE("le config: a bad option string names the file, line, key, option and operand", "[le]") {
  CHECK(yaml_error("system:\n"
                   "  le:\n"
                   "    programs: QLEH\n"
                   "    options: HEAP(32K,32K,ANYWHERE,KEPP)\n") ==
        "configs/le.yaml:4: system.le.options: HEAP: operand 4 \"KEPP\" is not KEEP or FREE");
  CHECK(yaml_error("system:\n"
                   "  le:\n"
                   "    programs: QLEH QLES\n"
                   "    program_options: QLEH=RPTSTG(ON); QLES=STORAGE(,,0)\n") ==
        "configs/le.yaml:4: system.le.program_options: QLES: STORAGE: operand 3 \"0\" is not NONE, CLEAR or two hex "
        "digits (00 to FF)");
  CHECK(yaml_error("system:\n"
                   "  le:\n"
                   "    programs: QLEH\n"
                   "    options: HEAP(32K,32K) HEAPPOOLS(ON,8,10,20,10)\n") ==
        "configs/le.yaml:4: system.le.options: HEAPPOOLS: operand 4 \"20\" is not a multiple of 8 (cell size 2)");
  CHECK(yaml_error("system:\n  le:\n    programs: QLEH\n    program_options: QLEH=HEAPPOOLS(ON,8,91)\n") ==
        "configs/le.yaml:4: system.le.program_options: QLEH: HEAPPOOLS: operand 3 \"91\" is out of range 1..90 "
        "(percentage 1)");
  CHECK(yaml_error("system:\n  le:\n    options: HEEP(1M)\n") ==
        "configs/le.yaml:3: system.le.options: unknown option \"HEEP\" (did you mean HEAP?)");
  CHECK(yaml_error("system:\n  le:\n    programs: QLEH\n    program_options: QLES=RPTSTG(ON)\n") ==
        "configs/le.yaml:4: system.le.program_options: QLES has options but is not in system.le.programs (the "
        "programs that run on LE storage)");
  CHECK(yaml_error("system:\n  le:\n    programs: QLEH\n    program_options: QLEH RPTSTG(ON)\n") ==
        "configs/le.yaml:4: system.le.program_options: \"QLEH RPTSTG(ON)\" is not PROGRAM=options (entries like "
        "QLEH=HEAP(100M,100M), separated by ;)");
  CHECK(yaml_error("system:\n  le:\n    programs: QLEH\n    program_options: QLEH=RPTSTG(ON); QLEH=HEAP(1M)\n") ==
        "configs/le.yaml:4: system.le.program_options: QLEH has two entries (give its options in one)");
  CHECK(yaml_error("system:\n  le:\n    programs: QLEH Q-1\n") ==
        "configs/le.yaml:3: system.le.programs: \"Q-1\" is not a program name (1 to 32 letters, digits or _, e.g. "
        "QLEH)");
  CHECK(yaml_error("system:\n  le:\n    programs: QLEH QLEH\n") ==
        "configs/le.yaml:3: system.le.programs: QLEH is named twice");
  CHECK(yaml_error("system:\n  le:\n    region: 4G\n").rfind("configs/le.yaml:3: system.le.region:", 0) == 0);
  // A --set is named as the place.
  const cfg::Schema schema = le_schema();
  cfg::Config c(schema);
  c.set("system.le.options=RPTSTG(MAYBE)");
  try {
    c.validate();
    FAIL("no error");
  } catch (const cfg::ConfigError& e) {
    CHECK(std::string(e.what()) == "--set: system.le.options: RPTSTG: operand 1 \"MAYBE\" is not ON or OFF");
  }
}
