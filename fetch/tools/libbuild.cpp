// tpfemu-libbuild: builds a load library image (PDS or PDSE on a modelled 3390) from a
// member list, a synthetic SYS1.LINKLIB-like list, or ELF programs; or checks an image.
//
//   tpfemu-libbuild (--members FILE | --synthetic N [--seed S] | --elf PATH[=NAME]...)
//                   [--org pds|pdse] [--block-size N] [--directory-blocks N]
//                   [--spare-tracks N] [--dsname NAME] [--no-fill] [--min-short-block N]
//                   [--pdse-initial-fraction F] [--fetchopt PACK,PRIME]
//                   [--write-members FILE] [--json] --out IMAGE
//   tpfemu-libbuild --check IMAGE [--expect NAME,NAME...]
//
// Exit status: 0 done (the check found nothing wrong), 1 the check found a problem
// (named), 2 bad arguments or input.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/elf_loader.h"
#include "fetch/library_builder.h"
#include "fetch/library_check.h"
#include "fetch/member_list.h"

namespace {

const char kUsage[] =
    "usage: tpfemu-libbuild (--members FILE | --synthetic N [--seed S] | --elf PATH[=NAME]...)\n"
    "                       [--org pds|pdse] [--block-size N] [--directory-blocks N] [--spare-tracks N]\n"
    "                       [--dsname NAME] [--no-fill] [--min-short-block N] [--pdse-initial-fraction F]\n"
    "                       [--fetchopt PACK,PRIME] [--write-members FILE] [--json] --out IMAGE\n"
    "       tpfemu-libbuild --check IMAGE [--expect NAME,NAME...]\n";

int usage(const std::string& why) {
  std::cerr << "tpfemu-libbuild: " << why << "\n" << kUsage;
  return 2;
}

bool read_file(const std::string& path, std::string& out, std::string& err) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    err = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

uint32_t number(const std::string& opt, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end || errno || x > 0xFFFFFFFFull) throw std::invalid_argument(opt + ": '" + v + "' is not a number");
  return uint32_t(x);
}

// A member from an ELF program of the image: its loadable extent (the lowest segment's
// address to the image's end) and its entry point. Relocations: 0, for the project's guest
// programs are static executables (ET_EXEC), which carry none.
fetch::MemberSpec member_from_elf(const std::string& arg) {
  std::string path = arg, name;
  if (auto eq = arg.rfind('='); eq != std::string::npos) {
    path = arg.substr(0, eq);
    name = arg.substr(eq + 1);
  }
  emu::ElfImage img = emu::read_elf_file(path);
  if (name.empty()) {
    name = img.name;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
    if (name.size() > 8) name.resize(8);
  }
  uint64_t lo = UINT64_MAX;
  for (const emu::ElfSegment& s : img.segments) lo = std::min(lo, s.vaddr);
  if (img.segments.empty() || img.image_end <= lo) throw std::invalid_argument(path + ": no loadable segment");
  fetch::MemberSpec m;
  m.name = name;
  if (img.image_end - lo > 0x7FFFFFFF) throw std::invalid_argument(path + ": larger than 2 GB");
  m.size = uint32_t(img.image_end - lo);
  m.entry = img.entry >= lo && img.entry - lo < m.size ? uint32_t(img.entry - lo) : 0;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("nothing to do");
  try {
    std::string check, expect, out, members_file, write_members;
    uint32_t synthetic = 0, seed = 1;
    std::vector<std::string> elves;
    bool json = false;
    fetch::LibraryOptions o;
    for (size_t i = 0; i < args.size(); i++) {
      const std::string& a = args[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
        return args[++i];
      };
      if (a == "--check") check = value();
      else if (a == "--expect") expect = value();
      else if (a == "--out") out = value();
      else if (a == "--members") members_file = value();
      else if (a == "--synthetic") synthetic = number(a, value());
      else if (a == "--seed") seed = number(a, value());
      else if (a == "--elf") elves.push_back(value());
      else if (a == "--write-members") write_members = value();
      else if (a == "--json") json = true;
      else if (a == "--org") {
        std::string v = value();
        if (v == "pds" || v == "PDS") o.organization = fetch::Organization::Pds;
        else if (v == "pdse" || v == "PDSE") o.organization = fetch::Organization::Pdse;
        else throw std::invalid_argument("--org: '" + v + "' is neither pds nor pdse");
      } else if (a == "--block-size") o.binder.block_size = number(a, value());
      else if (a == "--directory-blocks") o.directory_blocks = number(a, value());
      else if (a == "--spare-tracks") o.spare_tracks = number(a, value());
      else if (a == "--dsname") o.dsname = value();
      else if (a == "--no-fill") o.binder.fill_tracks = false;
      else if (a == "--min-short-block") o.binder.min_short_block = number(a, value());
      else if (a == "--pdse-initial-fraction") {
        std::string v = value();
        char* end = nullptr;
        o.pdse_initial_fraction = std::strtod(v.c_str(), &end);
        if (v.empty() || *end) throw std::invalid_argument("--pdse-initial-fraction: '" + v + "' is not a number");
      } else if (a == "--fetchopt") {
        std::string v = value();
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::toupper(c)); });
        std::istringstream s(v);
        std::string w;
        while (std::getline(s, w, ',')) {
          if (w == "PACK") o.pack = true;
          else if (w == "PRIME") o.prime = true;
          else if (w == "NOPACK") o.pack = false;
          else if (w == "NOPRIME") o.prime = false;
          else throw std::invalid_argument("--fetchopt: '" + w + "' is not PACK, PRIME, NOPACK or NOPRIME");
        }
      } else if (a == "--help" || a == "-h") {
        std::cout << kUsage;
        return 0;
      } else {
        return usage("unknown option " + a);
      }
    }

    if (!check.empty()) {
      std::string bytes, err;
      if (!read_file(check, bytes, err)) return usage(err);
      std::vector<std::string> names;
      std::istringstream s(expect);
      for (std::string n; std::getline(s, n, ',');)
        if (!n.empty()) names.push_back(n);
      fetch::LibraryCheck c =
          fetch::check_library(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), names);
      if (!c.ok) {
        std::cout << check << ": BAD: " << c.error << "\n";
        return 1;
      }
      std::cout << check << ": OK: " << c.members << " members, " << c.aliases << " aliases\n";
      return 0;
    }

    if (out.empty()) return usage("--out IMAGE is required");
    std::vector<fetch::MemberSpec> members;
    if (!members_file.empty()) {
      std::string text, err;
      if (!read_file(members_file, text, err)) return usage(err);
      members = fetch::parse_member_list(text, members_file);
    }
    if (synthetic) {
      auto s = fetch::synthetic_linklib(synthetic, seed);
      members.insert(members.end(), s.begin(), s.end());
    }
    for (const std::string& e : elves) members.push_back(member_from_elf(e));
    if (members.empty()) return usage("no members: --members, --synthetic or --elf");
    if (!write_members.empty()) {
      std::ofstream f(write_members, std::ios::binary);
      f << fetch::member_list_text(members);
      if (!f) return usage(write_members + ": cannot write");
    }
    fetch::BuiltLibrary lib = fetch::build_library(std::move(members), o);
    std::vector<uint8_t> image = fetch::serialize(lib.volume);
    std::ofstream f(out, std::ios::binary);
    f.write(reinterpret_cast<const char*>(image.data()), std::streamsize(image.size()));
    if (!f) return usage(out + ": cannot write");
    std::cout << (json ? lib.report.json() : lib.report.text());
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "tpfemu-libbuild: " << e.what() << "\n";
    return 2;
  }
}
