#include "fetch/member_list.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace fetch {

namespace {

bool parse_number(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t mult = 1;
  std::string d = s;
  char last = d.back();
  if (last == 'K' || last == 'k') { mult = 1024; d.pop_back(); }
  else if (last == 'M' || last == 'm') { mult = 1024 * 1024; d.pop_back(); }
  if (d.empty()) return false;
  int base = 10;
  if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) { base = 16; d = d.substr(2); }
  uint64_t v = 0;
  for (char c : d) {
    int dig;
    if (c >= '0' && c <= '9') dig = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') dig = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') dig = c - 'A' + 10;
    else return false;
    if (v > (UINT64_MAX - uint64_t(dig)) / uint64_t(base)) return false;
    v = v * uint64_t(base) + uint64_t(dig);
  }
  if (v > UINT64_MAX / mult) return false;
  out = v * mult;
  return true;
}

}  // namespace

std::vector<MemberSpec> parse_member_list(const std::string& text, const std::string& source_name) {
  std::vector<MemberSpec> out;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    line_no++;
    auto where = [&] { return source_name + ":" + std::to_string(line_no) + ": "; };
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream words(line);
    std::string w;
    std::vector<std::string> ws;
    while (words >> w) ws.push_back(w);
    if (ws.empty()) continue;
    if (ws.size() < 2) throw std::invalid_argument(where() + "a member needs a name and a size");
    MemberSpec m;
    m.name = ws[0];
    uint64_t v;
    auto num = [&](const std::string& s, const std::string& what, uint64_t max) {
      if (!parse_number(s, v) || v > max)
        throw std::invalid_argument(where() + what + " '" + s + "' is not a number up to " + std::to_string(max));
      return v;
    };
    m.size = uint32_t(num(ws[1], "size", 0x7FFFFFFF));
    for (size_t i = 2; i < ws.size(); i++) {
      const std::string& a = ws[i];
      auto eq = a.find('=');
      std::string key = a.substr(0, eq), val = eq == std::string::npos ? "" : a.substr(eq + 1);
      if (key == "rent" && eq == std::string::npos) m.rent = true;
      else if (key == "reus" && eq == std::string::npos) m.reus = true;
      else if (key == "refr" && eq == std::string::npos) m.refr = true;
      else if (key == "entry") m.entry = uint32_t(num(val, key, 0x7FFFFFFF));
      else if (key == "rld") m.rld_count = uint32_t(num(val, key, 0x7FFFFFFF));
      else if (key == "csects") m.csects = uint32_t(num(val, key, 32767));
      else if (key == "externals") m.externals = uint32_t(num(val, key, 32767));
      else if (key == "initial") m.initial_bytes = int64_t(num(val, key, 0x7FFFFFFF));
      else if (key == "aliases") {
        std::istringstream as(val);
        std::string al;
        while (std::getline(as, al, ','))
          if (!al.empty()) m.aliases.push_back(al);
      } else {
        throw std::invalid_argument(where() + "unknown word '" + a +
                                    "' (entry=, rld=, csects=, externals=, aliases=, initial=, rent, reus, refr)");
      }
    }
    std::string e = check_member(m, Organization::Pdse);   // the PDS's 16 MB limit is the builder's to say
    if (!e.empty()) throw std::invalid_argument(where() + e);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<MemberSpec> synthetic_linklib(uint32_t count, uint64_t seed) {
  static const char* kPrefixes[] = {"IEF", "IGG", "IEA", "ICH", "IKJ", "IEW", "HAS", "ARC", "CSQ", "CEE"};
  std::vector<MemberSpec> out;
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto uniform = [&] {   // [0, 1), a 64-bit LCG's high bits
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return double(x >> 11) * 0x1.0p-53;
  };
  auto shape = [](MemberSpec& m) {
    m.rld_count = m.size / 128;
    m.csects = std::min<uint32_t>(64, 1 + m.size / 32768);
    m.externals = m.csects;
  };
  for (uint32_t i = 0; i < count; i++) {
    MemberSpec m;
    if (i == 0) {
      m.name = "IEFBR14";
      m.size = 8;
    } else if (i == 1) {
      m.name = "ARCCTL";
      m.size = 4u << 20;
    } else {
      char nm[16];
      std::snprintf(nm, sizeof nm, "%s%04u", kPrefixes[i % 10], i);
      m.name = nm;
      m.size = uint32_t(std::exp(std::log(256.0) + uniform() * (std::log(1048576.0) - std::log(256.0))));
      if (i % 10 == 5) m.aliases.push_back(std::string(nm).substr(0, 3) + "A" + std::string(nm).substr(3));
    }
    shape(m);
    out.push_back(std::move(m));
  }
  return out;
}

std::string member_list_text(const std::vector<MemberSpec>& members) {
  std::string s;
  for (const MemberSpec& m : members) {
    s += m.name + " " + std::to_string(m.size);
    if (m.entry) s += " entry=" + std::to_string(m.entry);
    if (m.rld_count) s += " rld=" + std::to_string(m.rld_count);
    if (m.csects != 1) s += " csects=" + std::to_string(m.csects);
    if (m.externals) s += " externals=" + std::to_string(m.externals);
    if (m.initial_bytes >= 0) s += " initial=" + std::to_string(m.initial_bytes);
    for (size_t i = 0; i < m.aliases.size(); i++) s += (i ? "," : " aliases=") + m.aliases[i];
    if (m.rent) s += " rent";
    if (m.reus) s += " reus";
    if (m.refr) s += " refr";
    s += "\n";
  }
  return s;
}

}  // namespace fetch
