#include "le/le_config.h"
#include "le/le_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace le {
namespace {

const std::string kOptionsKey = "system.le.options", kProgramsKey = "system.le.programs",
                  kProgramOptionsKey = "system.le.program_options", kRegionKey = "system.le.region";
// A key's value when nothing is given (the engine needs a default that is not empty).
const std::string kNone = "(none)";

std::string given(const cfg::Config& c, const std::string& key) {
  const std::string& t = c.get_string(key);
  return trim_blanks(t) == kNone ? std::string() : t;
}

// The same rule as workload.program's (os/run_config.cpp): the names the image's
// programs have.
bool program_name(std::string_view s) {
  if (s.empty() || s.size() > 32) return false;
  for (char ch : s)
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  return true;
}
constexpr std::string_view kNameRule = "1 to 32 letters, digits or _, e.g. QLEH";

// Each function below reads one key and throws the Config's error naming the place the
// key was set, the key, and (from OptionError) the option and operand at fault:
//   x.yaml:7: system.le.options: HEAP: operand 4 "KEPP" is not KEEP or FREE

Options system_options(const cfg::Config& c) {
  try {
    return parse_options(given(c, kOptionsKey));
  } catch (const OptionError& e) {
    throw c.error({kOptionsKey}, e.what());
  }
}

std::vector<std::string> programs(const cfg::Config& c) {
  std::vector<std::string> out;
  const std::string text = given(c, kProgramsKey);
  for (size_t i = 0; i < text.size();) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == ',') {
      ++i;
      continue;
    }
    const size_t end = text.find_first_of(" \t,", i);
    const std::string name = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (!program_name(name))
      throw c.error({kProgramsKey}, fmt::format("\"{}\" is not a program name ({})", name, kNameRule));
    if (std::find(out.begin(), out.end(), name) != out.end())
      throw c.error({kProgramsKey}, fmt::format("{} is named twice", name));
    out.push_back(name);
    i = end == std::string::npos ? text.size() : end;
  }
  return out;
}

// "QLEH=HEAP(100M,100M) RPTSTG(ON); QLES=STORAGE(,,00)" resolved over `system` for every
// program of `names` (those without an entry get `system` as it is).
std::map<std::string, Options, std::less<>> program_options(const cfg::Config& c, const Options& system,
                                                            const std::vector<std::string>& names) {
  std::map<std::string, Options, std::less<>> out;
  for (const auto& n : names) out.emplace(n, system);
  const std::string text = given(c, kProgramOptionsKey);
  std::set<std::string, std::less<>> seen;
  for (size_t from = 0; from <= text.size();) {
    const size_t semi = std::min(text.find(';', from), text.size());
    const std::string_view entry = trim_blanks(std::string_view(text).substr(from, semi - from));
    from = semi + 1;
    if (entry.empty()) continue;
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos)
      throw c.error({kProgramOptionsKey},
                    fmt::format("\"{}\" is not PROGRAM=options (entries like QLEH=HEAP(100M,100M), separated by ;)",
                                entry));
    const std::string name(trim_blanks(entry.substr(0, eq)));
    if (!program_name(name))
      throw c.error({kProgramOptionsKey}, fmt::format("\"{}\" is not a program name ({})", name, kNameRule));
    if (!seen.insert(name).second)
      throw c.error({kProgramOptionsKey}, fmt::format("{} has two entries (give its options in one)", name));
    const auto it = out.find(name);
    if (it == out.end())
      throw c.error({kProgramOptionsKey, kProgramsKey},
                    fmt::format("{} has options but is not in {} (the programs that run on LE storage)", name,
                                kProgramsKey));
    try {
      it->second = apply_options(system, entry.substr(eq + 1));
    } catch (const OptionError& e) {
      throw c.error({kProgramOptionsKey}, fmt::format("{}: {}", name, e.what()));
    }
  }
  return out;
}

}  // namespace

const Options& LeConfig::options_for(std::string_view program) const {
  const auto it = program_options.find(program);
  if (it == program_options.end()) throw std::logic_error(fmt::format("le: {} does not run on LE storage", program));
  return it->second;
}

cfg::Section<LeConfig> make_le_section() {
  cfg::Section<LeConfig> s;
  using T = cfg::ValueType;
  s.key_from({.path = kProgramsKey,
              .type = T::String,
              .default_value = kNone,
              .unit = "program names",
              .description = "Programs (separated by blanks or commas) whose ECBs get their heap from LE storage "
                             "(malloc, calloc, realloc and free on LE's user heap of segments, under LE's run-time "
                             "options) instead of the ECB heap. No change to the programs. (none): every program "
                             "uses the ECB heap. (LE's stacks, ANYHEAP, BELOWHEAP and HEAPPOOLS: not yet.)",
              .source = "(none): z/TPF programs use the ECB heap; LE storage is for the seed 003 experiment (E4)."},
             [](LeConfig& l, const cfg::Config& c, const std::string&) { l.programs = programs(c); });
  s.key_from({.path = kOptionsKey,
              .type = T::String,
              .default_value = kNone,
              .unit = "LE run-time options",
              .description = "Run-time options of every program in system.le.programs, as LE spells them: HEAP, "
                             "ANYHEAP, BELOWHEAP, STACK, THREADSTACK, LIBSTACK, STORAGE, HEAPPOOLS, RPTSTG, e.g. "
                             "\"HEAP(100M,100M) RPTSTG(ON)\". Options not given (and operands left out, as in "
                             "HEAP(,64K)) keep IBM's defaults; a later option overrides an earlier one.",
              .source = "(none): IBM's non-CICS defaults (z/OS Language Environment Programming Reference): " +
                        std::string(kIbmDefaults) + "."},
             [](LeConfig& l, const cfg::Config& c, const std::string&) { l.options = system_options(c); });
  s.key_from({.path = kProgramOptionsKey,
              .type = T::String,
              .default_value = kNone,
              .unit = "PROGRAM=options; ...",
              .description = "Options of single programs, applied on top of system.le.options: entries "
                             "PROGRAM=options separated by ;, e.g. \"QLEH=HEAP(100M,100M) RPTSTG(ON); "
                             "QLES=STORAGE(,,00)\". Each program must be in system.le.programs.",
              .source = "(none): every LE program runs with system.le.options."},
             [](LeConfig& l, const cfg::Config& c, const std::string&) {
               l.program_options = program_options(c, system_options(c), programs(c));
             });
  s.key({.path = kRegionKey,
         .type = T::Size,
         .default_value = "32M",
         .min = "1M",
         .max = "2047M",
         .unit = "bytes",
         .description = "The storage one program's LE storage (its enclaves' heaps, stacks and LE's own control "
                        "blocks) may take in all, as a z/OS job step's REGION; what a program can still get is "
                        "this less what it holds. LE's 31-bit region lies at 2 to 4 GB of an ECB's space "
                        "(TPF_EVM_LE: the first 2 GB are taken), where 4-byte addresses still reach.",
         .source = "IBM (z/OS XL C/C++ User's Guide, \"Setting the region size\"): with the IBM-supplied IEFUSI "
                   "and IEALIMIT limits, \"the extended region size is the default value of 32 MB\"; seed 003's LINK "
                   "case could still get about 21.5 MB after LE's own use. Largest: JCL's REGION=2047M."},
        &LeConfig::region);
  s.describe("system.le", "LE storage (le/): the programs that run on it, their LE run-time options, the region.");
  s.check("system.le options parse and name programs on LE storage", [](const cfg::Config& c) {
    program_options(c, system_options(c), programs(c));
  });
  return s;
}

const cfg::Section<LeConfig>& le_section() {
  static const cfg::Section<LeConfig> section = make_le_section();
  return section;
}

LeConfig le_config_from(const cfg::Config& config) { return le_section().read(config); }

}  // namespace le
