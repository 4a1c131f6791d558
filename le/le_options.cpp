#include "le/le_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

// What IBM documents, and where (z/OS Language Environment Programming Reference,
// SA38-0683, "Using the Language Environment runtime options" and each option's page;
// z/OS 2.1 and 2.4 editions):
// - Sizes "can be specified as n, nK, or nM bytes of storage. The actual amount of
//   allocated storage is rounded up to the nearest multiple of 8 bytes" (HEAP's
//   init_size and incr_size; the same words for ANYHEAP, BELOWHEAP, STACK, THREADSTACK).
//   This parser rounds every heap and stack size so; STORAGE's reserve_size, for which
//   no rounding is documented, is kept as written.
// - "The minimum unambiguous abbreviation of each Language Environment option is also
//   indicated in its syntax diagram with capital letters (for example, ABPerc indicates
//   that ABP is the minimum abbreviation)." The diagrams: Heap, ANyheap, BElowheap,
//   STAck, LIBStack, STOrage, HEAPPools, RPTStg. THREADSTACK's Programming Reference
//   diagram was not found (only the Customization book's, which spells it in full), so
//   THREADSTACK is accepted in full only.
// - Defaults (non-CICS): each option's page; kIbmDefaults below.
// - HEAPPOOLS: "one to twelve heap pools"; cell sizes "in ascending order" (HEAPPOOLS64's
//   usage notes, the same rule); "specify 0 for the cell size after the last heap pool to
//   be used". The z/OS 2.4 Programming Reference's HEAPPOOLS page: "The cell size must
//   be a multiple of 8, with a maximum of 65536 (64 K)" and "The percentage must be in a
//   range from 1 to 90" (kMaxCellSize, kMinPercent, kMaxPercent). (IBM's older msys
//   for Setup LE panel help, an LE of six pools, said 8-2048 and 0-90.)
// Not modelled, and said so in the message when written: STACK's negative sizes ("all
// available storage minus"), STORAGE's quoted character (an EBCDIC code), HEAPPOOLS's
// ALIGN and (cell-size,pool-count), the CEEPRMxx form OPTION=((...),OVR).

namespace le {
namespace {

// The largest size any operand may have: JCL's REGION=valueM, "from 1 through 2047"
// (z/OS MVS JCL Reference), the most storage below the bar a program can be given.
constexpr uint64_t kMaxSize = 2047ull << 20;

bool separator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; }
bool alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return u;
}

// n, nK or nM (either case) in bytes; nothing if it is not that. A huge n saturates, so
// that it reads as too large rather than wrapping.
std::optional<uint64_t> size_value(std::string_view t) {
  size_t n = 0;
  uint64_t v = 0;
  for (; n < t.size() && t[n] >= '0' && t[n] <= '9'; ++n) v = std::min<uint64_t>(v * 10 + uint64_t(t[n] - '0'), 1ull << 40);
  if (n == 0) return std::nullopt;
  const std::string unit = upper(t.substr(n));
  if (unit.empty()) return v;
  if (unit == "K") return v << 10;
  if (unit == "M") return v << 20;
  return std::nullopt;
}

std::optional<uint32_t> whole_number(std::string_view t) {
  if (t.empty() || t.size() > 9) return std::nullopt;
  uint32_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + uint32_t(c - '0');
  }
  return v;
}

// The operands of one option as written, and the reading of each into a field. An
// operand left out (empty) leaves its field as it was: that is LE's merge.
struct Operands {
  std::string_view option;  // the option's full name, for messages
  std::vector<std::string> ops;

  bool given(size_t i) const { return i < ops.size() && !ops[i].empty(); }
  [[noreturn]] void fail(size_t i, std::string_view what) const {
    throw OptionError(fmt::format("{}: operand {} \"{}\" {}", option, i + 1, ops[i], what));
  }

  // Rounded up to a multiple of 8 unless `as_written` (STORAGE's reserve_size).
  void size(size_t i, std::string_view name, uint64_t& to, bool as_written = false) const {
    if (!given(i)) return;
    const auto v = size_value(ops[i]);
    if (!v) {
      if (ops[i][0] == '-')
        fail(i, fmt::format("is not a size ({}: n, nK or nM bytes; LE's negative sizes, all the storage but n, "
                            "are not modelled)", name));
      fail(i, fmt::format("is not a size ({}: n, nK or nM bytes)", name));
    }
    if (*v > kMaxSize) fail(i, fmt::format("is more than 2047M, the largest size ({})", name));
    to = as_written ? *v : (*v + 7) / 8 * 8;  // "rounded up to the nearest multiple of 8 bytes"
  }
  void location(size_t i, Location& to) const {
    if (!given(i)) return;
    const std::string k = upper(ops[i]);
    if (k == "ANYWHERE" || k == "ANY") to = Location::Anywhere;
    else if (k == "BELOW") to = Location::Below;
    else fail(i, "is not ANYWHERE, ANY or BELOW");
  }
  void disposition(size_t i, Disposition& to) const {
    if (!given(i)) return;
    const std::string k = upper(ops[i]);
    if (k == "KEEP") to = Disposition::Keep;
    else if (k == "FREE") to = Disposition::Free;
    else fail(i, "is not KEEP or FREE");
  }
  void on_off(size_t i, bool& to) const {
    if (!given(i)) return;
    const std::string k = upper(ops[i]);
    if (k == "ON") to = true;
    else if (k == "OFF") to = false;
    else fail(i, "is not ON or OFF");
  }
  void fill(size_t i, bool clear_allowed, Fill& to) const {
    if (!given(i)) return;
    const std::string k = upper(ops[i]);
    const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); };
    if (k == "NONE") to = {Fill::None, 0};
    else if (k == "CLEAR" && clear_allowed) to = {Fill::Clear, 0};
    else if (k.size() == 2 && hex(k[0]) && hex(k[1])) to = {Fill::Byte, uint8_t(std::stoul(k, nullptr, 16))};
    else if (k == "CLEAR") fail(i, "CLEAR is for dsa_alloc_value (operand 3) only");
    else if (k[0] == '\'' || k[0] == '"')
      fail(i, "is a quoted character, which is not modelled: give its EBCDIC code as two hex digits (e.g. 81 for a)");
    else if (clear_allowed) fail(i, "is not NONE, CLEAR or two hex digits (00 to FF)");
    else fail(i, "is not NONE or two hex digits (00 to FF)");
  }
  void cell_size(size_t i, size_t pool, uint32_t& to) const {
    if (!given(i)) return;
    const auto v = size_value(ops[i]);
    if (!v) fail(i, fmt::format("is not a cell size (cell size {}: n or nK bytes, or 0 to end the list)", pool));
    if (*v > kMaxCellSize) fail(i, fmt::format("is more than {}, the largest cell size (cell size {})", kMaxCellSize, pool));
    if (*v % 8) fail(i, fmt::format("is not a multiple of 8 (cell size {})", pool));
    to = uint32_t(*v);
  }
  void percent(size_t i, size_t pool, uint32_t& to) const {
    if (!given(i)) return;
    const auto v = whole_number(ops[i]);
    if (!v) fail(i, fmt::format("is not a whole number (percentage {}: {} to {})", pool, kMinPercent, kMaxPercent));
    if (*v < kMinPercent || *v > kMaxPercent)
      fail(i, fmt::format("is out of range {}..{} (percentage {})", kMinPercent, kMaxPercent, pool));
    to = *v;
  }
};

std::string_view location_name(Location l) { return l == Location::Below ? "BELOW" : "ANYWHERE"; }
std::string_view disposition_name(Disposition d) { return d == Disposition::Free ? "FREE" : "KEEP"; }
std::string_view on_off_name(bool on) { return on ? "ON" : "OFF"; }
std::string fill_name(const Fill& f) {
  return f.kind == Fill::None ? "NONE" : f.kind == Fill::Clear ? "CLEAR" : fmt::format("{:02X}", f.byte);
}

void read_stack(const Operands& r, size_t first, StackOption& s) {
  r.size(first, "usinit_size", s.init_size);
  r.size(first + 1, "usincr_size", s.incr_size);
  r.location(first + 2, s.location);
  r.disposition(first + 3, s.disposition);
  r.size(first + 4, "dsinit_size", s.dsinit_size);
  r.size(first + 5, "dsincr_size", s.dsincr_size);
}
std::string stack_operands(const StackOption& s) {
  return fmt::format("{},{},{},{},{},{}", s.init_size, s.incr_size, location_name(s.location),
                     disposition_name(s.disposition), s.dsinit_size, s.dsincr_size);
}

// One option: its name, IBM's minimum abbreviation, its syntax (for messages), how its
// operands are read and how it is written back. The one place each option is defined.
struct OptionDef {
  std::string_view name;  // in full, upper case
  size_t min_abbrev;      // the capital letters of IBM's syntax diagram
  size_t max_operands;
  std::string_view syntax;
  void (*read)(Options&, const Operands&);
  std::string (*write)(const Options&);
};

// In alphabetical order, as LE's options report lists them (and canonical() writes them).
const OptionDef kOptions[] = {
    {"ANYHEAP", 2, 4, "ANYHEAP(init_size,incr_size,ANYWHERE|ANY|BELOW,KEEP|FREE)",
     [](Options& o, const Operands& r) {
       r.size(0, "init_size", o.anyheap.init_size);
       r.size(1, "incr_size", o.anyheap.incr_size);
       r.location(2, o.anyheap.location);
       r.disposition(3, o.anyheap.disposition);
     },
     [](const Options& o) {
       const auto& a = o.anyheap;
       return fmt::format("ANYHEAP({},{},{},{})", a.init_size, a.incr_size, location_name(a.location),
                          disposition_name(a.disposition));
     }},
    {"BELOWHEAP", 2, 3, "BELOWHEAP(init_size,incr_size,KEEP|FREE)",
     [](Options& o, const Operands& r) {
       r.size(0, "init_size", o.belowheap.init_size);
       r.size(1, "incr_size", o.belowheap.incr_size);
       r.disposition(2, o.belowheap.disposition);
     },
     [](const Options& o) {
       const auto& b = o.belowheap;
       return fmt::format("BELOWHEAP({},{},{})", b.init_size, b.incr_size, disposition_name(b.disposition));
     }},
    {"HEAP", 1, 6, "HEAP(init_size,incr_size,ANYWHERE|ANY|BELOW,KEEP|FREE,initsz24,incrsz24)",
     [](Options& o, const Operands& r) {
       r.size(0, "init_size", o.heap.init_size);
       r.size(1, "incr_size", o.heap.incr_size);
       r.location(2, o.heap.location);
       r.disposition(3, o.heap.disposition);
       r.size(4, "initsz24", o.heap.init24);
       r.size(5, "incrsz24", o.heap.incr24);
     },
     [](const Options& o) {
       const auto& h = o.heap;
       return fmt::format("HEAP({},{},{},{},{},{})", h.init_size, h.incr_size, location_name(h.location),
                          disposition_name(h.disposition), h.init24, h.incr24);
     }},
    {"HEAPPOOLS", 5, 1 + 2 * kHeapPools, "HEAPPOOLS(ON|OFF,cell-size,percentage,... twelve pairs at most)",
     [](Options& o, const Operands& r) {
       auto& h = o.heappools;
       r.on_off(0, h.on);
       for (size_t k = 0; k < kHeapPools; ++k) {
         r.cell_size(1 + 2 * k, k + 1, h.pools[k].cell_size);
         r.percent(2 + 2 * k, k + 1, h.pools[k].percent);
       }
       // Checked on the merged pools: an operand left out keeps an earlier cell size,
       // which must still fit between its neighbours.
       for (size_t k = 1; k < h.count(); ++k)
         if (h.pools[k].cell_size <= h.pools[k - 1].cell_size)
           throw OptionError(fmt::format("HEAPPOOLS: cell size {} ({}) is not larger than cell size {} ({}): cell "
                                         "sizes increase, and a cell size of 0 ends the list",
                                         k + 1, h.pools[k].cell_size, k, h.pools[k - 1].cell_size));
     },
     [](const Options& o) {
       std::string s = fmt::format("HEAPPOOLS({}", on_off_name(o.heappools.on));
       for (const auto& p : o.heappools.pools) s += fmt::format(",{},{}", p.cell_size, p.percent);
       return s + ")";
     }},
    {"LIBSTACK", 4, 3, "LIBSTACK(init_size,incr_size,KEEP|FREE)",
     [](Options& o, const Operands& r) {
       r.size(0, "init_size", o.libstack.init_size);
       r.size(1, "incr_size", o.libstack.incr_size);
       r.disposition(2, o.libstack.disposition);
     },
     [](const Options& o) {
       const auto& l = o.libstack;
       return fmt::format("LIBSTACK({},{},{})", l.init_size, l.incr_size, disposition_name(l.disposition));
     }},
    {"RPTSTG", 4, 1, "RPTSTG(ON|OFF)", [](Options& o, const Operands& r) { r.on_off(0, o.rptstg); },
     [](const Options& o) { return fmt::format("RPTSTG({})", on_off_name(o.rptstg)); }},
    {"STACK", 3, 6, "STACK(usinit_size,usincr_size,ANYWHERE|ANY|BELOW,KEEP|FREE,dsinit_size,dsincr_size)",
     [](Options& o, const Operands& r) { read_stack(r, 0, o.stack); },
     [](const Options& o) { return fmt::format("STACK({})", stack_operands(o.stack)); }},
    {"STORAGE", 3, 4, "STORAGE(heap_alloc_value,heap_free_value,dsa_alloc_value,reserve_size)",
     [](Options& o, const Operands& r) {
       r.fill(0, false, o.storage.heap_alloc);
       r.fill(1, false, o.storage.heap_free);
       r.fill(2, true, o.storage.dsa_alloc);
       r.size(3, "reserve_size", o.storage.reserve_size, true);  // no rounding is documented for it
     },
     [](const Options& o) {
       const auto& s = o.storage;
       return fmt::format("STORAGE({},{},{},{})", fill_name(s.heap_alloc), fill_name(s.heap_free),
                          fill_name(s.dsa_alloc), s.reserve_size);
     }},
    {"THREADSTACK", 11, 7, "THREADSTACK(ON|OFF,usinit_size,usincr_size,ANYWHERE|ANY|BELOW,KEEP|FREE,dsinit_size,dsincr_size)",
     [](Options& o, const Operands& r) {
       r.on_off(0, o.threadstack.on);
       read_stack(r, 1, o.threadstack.stack);
     },
     [](const Options& o) {
       return fmt::format("THREADSTACK({},{})", on_off_name(o.threadstack.on), stack_operands(o.threadstack.stack));
     }},
};

// Optimal string alignment distance (emu's config suggestions use the same measure;
// theirs is internal to config/config.cpp).
size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

const OptionDef& find_option(std::string_view written) {
  const std::string u = upper(written);
  for (const auto& d : kOptions)
    if (u.size() >= d.min_abbrev && u.size() <= d.name.size() && d.name.substr(0, u.size()) == u) return d;
  // A beginning of a name, shorter than IBM's abbreviation: say how short it may be.
  std::string shortest;
  for (const auto& d : kOptions)
    if (!u.empty() && u.size() < d.name.size() && d.name.substr(0, u.size()) == u)
      shortest += (shortest.empty() ? "" : "; ") +
                  (d.min_abbrev == d.name.size()
                       ? fmt::format("{} is accepted in full only", d.name)
                       : fmt::format("{} may be shortened to {}", d.name, d.name.substr(0, d.min_abbrev)));
  if (!shortest.empty())
    throw OptionError(fmt::format("unknown option \"{}\": too short an abbreviation ({})", written, shortest));
  std::string known, hint;
  size_t best = std::max<size_t>(1, u.size() / 3) + 1;
  for (const auto& d : kOptions) {
    known += (known.empty() ? "" : ", ") + std::string(d.name);
    if (u.size() > 64) continue;  // a long word is near no option name
    if (const size_t dist = distance(u, d.name); dist < best) best = dist, hint = d.name;
  }
  if (!hint.empty()) throw OptionError(fmt::format("unknown option \"{}\" (did you mean {}?)", written, hint));
  throw OptionError(fmt::format("unknown option \"{}\" (known: {})", written.substr(0, 64), known));
}

}  // namespace

size_t HeapPoolsOption::count() const {
  size_t n = 0;
  while (n < pools.size() && pools[n].cell_size != 0) ++n;
  return n;
}

const std::string_view kIbmDefaults =
    "ANYHEAP(16K,8K,ANYWHERE,FREE) BELOWHEAP(8K,4K,FREE) HEAP(32K,32K,ANYWHERE,KEEP,8K,4K) "
    "HEAPPOOLS(OFF,8,10,32,10,128,10,256,10,1024,10,2048,10,0,10,0,10,0,10,0,10,0,10,0,10) LIBSTACK(4K,4K,FREE) "
    "RPTSTG(OFF) STACK(128K,128K,ANYWHERE,KEEP,512K,128K) STORAGE(NONE,NONE,NONE,0K) "
    "THREADSTACK(OFF,4K,4K,ANYWHERE,KEEP,128K,128K)";

const Options& ibm_defaults() {
  static const Options o = apply_options(Options{}, kIbmDefaults);
  return o;
}

Options apply_options(const Options& base, std::string_view text) {
  Options o = base;
  size_t i = 0;
  for (;;) {
    while (i < text.size() && separator(text[i])) ++i;
    if (i == text.size()) return o;
    const size_t start = i;
    while (i < text.size() && alnum(text[i])) ++i;
    if (i == start) {
      if (text[i] == ')') throw OptionError(fmt::format("\")\" at column {} has no \"(\"", i + 1));
      throw OptionError(fmt::format("\"{}\" at column {} does not begin an option name", text[i], i + 1));
    }
    const OptionDef& def = find_option(text.substr(start, i - start));
    if (i == text.size() || text[i] != '(')
      throw OptionError(fmt::format("{}: no \"(\" after the option name (e.g. {})", def.name, def.syntax));
    const size_t open = i;
    size_t close = open + 1;
    for (; close < text.size() && text[close] != ')'; ++close)
      if (text[close] == '(')
        throw OptionError(fmt::format("{}: \"(\" at column {} inside its operands (nested parentheses are not LE "
                                      "option syntax modelled here)", def.name, close + 1));
    if (close == text.size())
      throw OptionError(fmt::format("{}: \"(\" at column {} is not closed", def.name, open + 1));
    Operands r{def.name, {}};
    std::string_view inner = text.substr(open + 1, close - open - 1);
    for (size_t from = 0;;) {
      const size_t comma = inner.find(',', from);
      r.ops.emplace_back(trim_blanks(inner.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from)));
      if (comma == std::string_view::npos) break;
      from = comma + 1;
    }
    if (r.ops.size() > def.max_operands)
      throw OptionError(fmt::format("{}: {} operands, more than the {} of {}", def.name, r.ops.size(),
                                    def.max_operands, def.syntax));
    def.read(o, r);
    i = close + 1;
  }
}

Options parse_options(std::string_view text) { return apply_options(ibm_defaults(), text); }

std::string canonical(const Options& o) {
  std::string s;
  for (const auto& d : kOptions) s += (s.empty() ? "" : " ") + d.write(o);
  return s;
}

std::string canonical(const Options& o, std::string_view option) { return find_option(option).write(o); }

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace le
