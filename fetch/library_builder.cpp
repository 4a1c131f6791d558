#include "fetch/library_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include "fetch/pdse_format.h"
#include "report/report_json.h"

namespace fetch {

namespace d3390 = flashsim::dasd3390;

Ttr pdse_page_ttr(uint32_t page) {
  constexpr uint32_t per_track = d3390::records_per_track(0, pdse::kPageBytes);
  return Ttr{page / per_track, uint8_t(page % per_track + 1)};
}

namespace {

using Name8 = std::array<uint8_t, 8>;

void check_members(std::vector<MemberSpec>& members, const LibraryOptions& o) {
  if (members.empty()) throw std::invalid_argument("no members");
  std::set<std::string> seen;
  for (const MemberSpec& m : members) {
    std::string e = check_member(m, o.organization);
    if (!e.empty()) throw std::invalid_argument(e);
    if (!seen.insert(m.name).second) throw std::invalid_argument(m.name + ": named twice");
    for (const std::string& a : m.aliases)
      if (!seen.insert(a).second) throw std::invalid_argument(m.name + ": alias " + a + " is already a name");
  }
  // Members in EBCDIC name order: the directory's order, and the order IEBCOPY copies them in.
  std::sort(members.begin(), members.end(),
            [](const MemberSpec& a, const MemberSpec& b) { return ebcdic_name(a.name) < ebcdic_name(b.name); });
  if (o.organization == Organization::Pds &&
      (o.binder.block_size < kMinLoadLibraryBlockSize || o.binder.block_size > kMaxLoadLibraryBlockSize))
    throw std::invalid_argument("block size " + std::to_string(o.binder.block_size) + " is outside " +
                                std::to_string(kMinLoadLibraryBlockSize) + ".." +
                                std::to_string(kMaxLoadLibraryBlockSize));
  if (o.binder.min_short_block < 1) throw std::invalid_argument("min_short_block must be at least 1");
  if (o.first_head >= d3390::kTracksPerCylinder) throw std::invalid_argument("first head must be 0..14");
  if (!(o.pdse_initial_fraction >= 0 && o.pdse_initial_fraction <= 1))
    throw std::invalid_argument("pdse initial fraction must be within 0..1");
}

// Directory entries of every name, in EBCDIC order: (name, member index, alias name or "").
struct Named {
  Name8 name;
  size_t member;
  std::string alias;
};
std::vector<Named> all_names(const std::vector<MemberSpec>& members) {
  std::vector<Named> v;
  for (size_t i = 0; i < members.size(); i++) {
    v.push_back(Named{ebcdic_name(members[i].name), i, ""});
    for (const std::string& a : members[i].aliases) v.push_back(Named{ebcdic_name(a), i, a});
  }
  std::sort(v.begin(), v.end(), [](const Named& a, const Named& b) { return a.name < b.name; });
  return v;
}

BuiltLibrary build_pds(const std::vector<MemberSpec>& members, const LibraryOptions& o) {
  BuiltLibrary b;
  LibraryVolume& v = b.volume;
  LibraryReport& rep = b.report;
  const std::vector<Named> names = all_names(members);
  // Entries into 256-byte blocks (an entry never spans two), then the end marker.
  std::vector<uint32_t> entry_bytes;
  for (const Named& n : names) entry_bytes.push_back(directory_entry_bytes(!n.alias.empty()));
  std::vector<std::vector<size_t>> blocks(1);
  uint32_t used = 2;
  for (size_t i = 0; i <= names.size(); i++) {
    uint32_t need = i < names.size() ? entry_bytes[i] : pds2::kFixedBytes;   // the end marker: 12 bytes
    if (used + need > pds2::kBlockBytes) {
      blocks.emplace_back();
      used = 2;
    }
    blocks.back().push_back(i);
    used += need;
  }
  const uint32_t dir_blocks = std::max<uint32_t>(uint32_t(blocks.size()), o.directory_blocks);

  v.organization = Organization::Pds;
  v.first_cylinder = o.first_cylinder;
  v.first_head = o.first_head;
  v.tracks_allocated = kMaxLibraryTracks;
  v.block_size = o.binder.block_size;
  v.directory_blocks = dir_blocks;
  v.dsname = o.dsname;
  TrackWriter w(v);
  // The directory at the data set's beginning (TTR 000001), its contents written once
  // the members' TTRs are known; then an end-of-file record.
  std::vector<Ttr> dir_ttr;
  for (uint32_t i = 0; i < dir_blocks; i++)
    dir_ttr.push_back(w.write(std::vector<uint8_t>(pds2::kKeyBytes, 0xFF), std::vector<uint8_t>(pds2::kBlockBytes, 0)));
  w.write_end_of_file();
  rep.records = dir_blocks + 1;

  std::vector<LoadModuleLayout> layout(members.size());
  for (size_t i = 0; i < members.size(); i++) {
    layout[i] = write_load_module(w, members[i], o.binder);
    rep.records += layout[i].records + 1;
    rep.text_blocks += layout[i].text_blocks;
    rep.short_blocks += layout[i].short_blocks;
  }
  for (size_t bi = 0; bi < dir_blocks; bi++) {
    Track& t = v.tracks[dir_ttr[bi].track];
    Record& r = t.records[dir_ttr[bi].record - 1];
    std::vector<uint8_t>& d = r.data;
    uint32_t at = 2;
    if (bi < blocks.size()) {
      for (size_t i : blocks[bi]) {
        std::vector<uint8_t> e;
        if (i < names.size()) {
          const Named& n = names[i];
          e = directory_entry(members[n.member], layout[n.member], n.alias);
        } else {
          e.assign(pds2::kFixedBytes, 0);
          std::fill(e.begin(), e.begin() + 8, 0xFF);
        }
        std::copy(e.begin(), e.end(), d.begin() + at);
        std::copy(e.begin(), e.begin() + 8, r.key.begin());   // the key: the block's highest name
        at += uint32_t(e.size());
      }
    }
    put_be(d, 0, at, 2);   // bytes used, the count itself included
  }
  v.tracks_allocated = uint32_t(v.tracks.size()) + o.spare_tracks;
  if (v.tracks_allocated > kMaxLibraryTracks) throw std::invalid_argument("more than 65,535 tracks");

  rep.directory_blocks_used = uint32_t(blocks.size());
  rep.directory_blocks = dir_blocks;
  return b;
}

void put_class(std::vector<uint8_t>& page, uint32_t index, const char* name, uint8_t load, uint32_t length,
               uint32_t first_page, uint32_t pages) {
  uint32_t at = pdse::kClassTableOffset + index * pdse::kClassEntryBytes;
  const size_t len = std::strlen(name);
  auto n = ebcdic_dsname(std::string_view(name, len));
  // Class names have '_', which data set names do not: EBCDIC X'6D'.
  for (size_t i = 0; i < 16; i++) page[at + i] = i < len ? (name[i] == '_' ? 0x6D : n[i]) : 0x40;
  page[at + 16] = load;
  put_be(page, at + 20, length, 4);
  put_be(page, at + 24, first_page, 4);
  put_be(page, at + 28, pages, 4);
}

// Page k of a B_RLD class: its items (ours: offset (4), flags X'0C' a 4-byte A-type adcon
// (1), 11 zero), the adcons where the PDS's load module has them (load_module.cpp).
void write_rld_items(const MemberSpec& m, uint32_t k, std::vector<uint8_t>& page) {
  const uint32_t per_page = pdse::kPageBytes / pdse::kRldBytesPerAdcon;
  for (uint32_t i = 0; i < per_page; i++) {
    const uint64_t j = uint64_t(k) * per_page + i;
    if (j >= m.rld_count) break;
    const uint32_t a = uint32_t(j * m.size / m.rld_count) & ~3u;
    put_be(page, i * pdse::kRldBytesPerAdcon, a, 4);
    page[i * pdse::kRldBytesPerAdcon + 4] = 0x0C;
  }
}

BuiltLibrary build_pdse(const std::vector<MemberSpec>& members, const LibraryOptions& o) {
  BuiltLibrary b;
  LibraryVolume& v = b.volume;
  LibraryReport& rep = b.report;
  const std::vector<Named> names = all_names(members);
  const uint32_t P = pdse::kEntriesPerPage;
  // The directory tree: leaves, then each index level, the root last.
  std::vector<uint32_t> level_pages{uint32_t((names.size() + P - 1) / P)};
  while (level_pages.back() > 1) level_pages.push_back((level_pages.back() + P - 1) / P);
  uint32_t dir_needed = 0;
  for (uint32_t n : level_pages) dir_needed += n;
  const uint32_t dir_pages = std::max(dir_needed, pdse::kInitialDirectoryPages - 1);

  // Program objects: a descriptor page, then each class on pages of its own.
  struct Class { const char* name; uint8_t load; uint32_t length; uint32_t first; uint32_t pages; };
  struct Object { uint32_t descriptor; uint32_t pages; std::vector<Class> classes; };
  std::vector<Object> objects(members.size());
  uint32_t page = 1 + dir_pages;
  auto pages_of = [](uint64_t bytes) { return uint32_t((bytes + pdse::kPageBytes - 1) / pdse::kPageBytes); };
  for (size_t i = 0; i < members.size(); i++) {
    const MemberSpec& m = members[i];
    uint32_t initial = m.initial_bytes >= 0 ? uint32_t(m.initial_bytes)
                                            : uint32_t(std::llround(double(m.size) * o.pdse_initial_fraction));
    // At least the entry point's page is INITIAL: the program begins there.
    initial = std::max(initial, std::min(m.size, (m.entry / pdse::kPageBytes + 1) * pdse::kPageBytes));
    // Whole pages: a class begins on a page of its own in storage too, so that a DEFERRED
    // class's first reference faults on a page of its own (fetch_subsystem.cpp, page_fault).
    initial = (initial + pdse::kPageBytes - 1) / pdse::kPageBytes * pdse::kPageBytes;
    initial = std::min(initial, m.size);
    Object& ob = objects[i];
    ob.descriptor = page++;
    std::vector<Class> cl{{"B_TEXT", pdse::kInitial, initial, 0, 0},
                          {"C_DEFERRED", pdse::kDeferred, m.size - initial, 0, 0},
                          {"B_ESD", pdse::kNoLoad, (m.csects + m.externals) * pdse::kEsdBytesPerSymbol, 0, 0},
                          {"B_RLD", pdse::kNoLoad, m.rld_count * pdse::kRldBytesPerAdcon, 0, 0},
                          {"B_IDRB", pdse::kNoLoad, pdse::kIdrBytes, 0, 0}};
    for (Class& c : cl) {
      if (c.length == 0) continue;
      c.first = page;
      c.pages = pages_of(c.length);
      page += c.pages;
      ob.classes.push_back(c);
    }
    ob.pages = page - ob.descriptor;
  }
  const uint32_t total_pages = page;
  if (pdse_page_ttr(total_pages - 1).track >= kMaxLibraryTracks)
    throw std::invalid_argument("the PDSE needs more than 65,535 tracks");

  v.organization = Organization::Pdse;
  v.first_cylinder = o.first_cylinder;
  v.first_head = o.first_head;
  v.tracks_allocated = kMaxLibraryTracks;
  v.block_size = o.binder.block_size;
  v.directory_blocks = dir_pages;
  v.dsname = o.dsname;
  std::vector<std::vector<uint8_t>> pages(total_pages, std::vector<uint8_t>());
  auto blank = [] { return std::vector<uint8_t>(pdse::kPageBytes, 0); };

  // Directory pages: leaves from page 1, then the index levels.
  uint32_t root = 0;
  {
    uint32_t first_of_level = 1;
    std::vector<std::pair<Name8, uint32_t>> below;   // (highest name, page) of the level built last
    for (size_t lv = 0; lv < level_pages.size(); lv++) {
      std::vector<std::pair<Name8, uint32_t>> here;
      size_t items = lv == 0 ? names.size() : below.size();
      for (uint32_t k = 0; k < level_pages[lv]; k++) {
        uint32_t pg = first_of_level + k;
        std::vector<uint8_t> p = blank();
        p[0] = lv == 0 ? pdse::kLeaf : pdse::kIndex;
        size_t lo = size_t(k) * P, hi = std::min(items, lo + P);
        put_be(p, 2, hi - lo, 2);
        if (lv == 0 && k + 1 < level_pages[lv]) put_be(p, 4, pg + 1, 4);
        Name8 highest{};
        for (size_t j = lo; j < hi; j++) {
          uint32_t at = pdse::kPageHeaderBytes + uint32_t(j - lo) * pdse::kEntryBytes;
          if (lv == 0) {
            const Named& n = names[j];
            std::copy(n.name.begin(), n.name.end(), p.begin() + at);
            put_be(p, at + 8, objects[n.member].descriptor, 4);
            p[at + 12] = n.alias.empty() ? 0 : pdse::kEntryAlias;
            highest = n.name;
          } else {
            std::copy(below[j].first.begin(), below[j].first.end(), p.begin() + at);
            put_be(p, at + 8, below[j].second, 4);
            highest = below[j].first;
          }
        }
        here.push_back({highest, pg});
        pages[pg] = std::move(p);
      }
      below = std::move(here);
      first_of_level += level_pages[lv];
    }
    root = below.front().second;
  }
  for (uint32_t pg = 1; pg <= dir_pages; pg++)
    if (pages[pg].empty()) pages[pg] = blank();   // free directory pages

  for (size_t i = 0; i < members.size(); i++) {
    const MemberSpec& m = members[i];
    const Object& ob = objects[i];
    std::vector<uint8_t> d = blank();
    auto n = ebcdic_name(m.name);
    std::copy(n.begin(), n.end(), d.begin());
    put_be(d, 8, m.size, 4);
    put_be(d, 12, m.entry, 4);
    d[16] = uint8_t((o.pack ? pdse::kPack : 0) | (o.prime ? pdse::kPrime : 0));
    d[17] = uint8_t(pds2::kExec | (m.rent ? pds2::kRent : 0) | (m.reus ? pds2::kReus : 0));
    put_be(d, 18, ob.classes.size(), 2);
    put_be(d, 20, ob.pages, 4);
    uint32_t text_offset = 0;
    for (size_t c = 0; c < ob.classes.size(); c++) {
      const Class& cl = ob.classes[c];
      put_class(d, uint32_t(c), cl.name, cl.load, cl.length, cl.first, cl.pages);
      for (uint32_t k = 0; k < cl.pages; k++) {
        std::vector<uint8_t> p = blank();
        uint32_t len = std::min(pdse::kPageBytes, cl.length - k * pdse::kPageBytes);
        if (cl.load != pdse::kNoLoad) member_text(m, text_offset + k * pdse::kPageBytes, p.data(), len);
        if (std::string_view(cl.name) == "B_RLD") write_rld_items(m, k, p);
        pages[cl.first + k] = std::move(p);
      }
      if (cl.load != pdse::kNoLoad) text_offset += cl.length;
    }
    pages[ob.descriptor] = std::move(d);
  }
  {
    std::vector<uint8_t> h = blank();
    h[0] = 'P'; h[1] = 'D'; h[2] = 'S'; h[3] = 'E';
    put_be(h, 4, total_pages, 4);
    put_be(h, 8, root, 4);
    put_be(h, 12, names.size(), 4);
    put_be(h, 16, level_pages.size(), 2);
    put_be(h, 18, dir_pages, 2);
    pages[0] = std::move(h);
  }
  TrackWriter w(v);
  for (uint32_t pg = 0; pg < total_pages; pg++) {
    Ttr t = w.write({}, std::move(pages[pg]));
    if (!(t == pdse_page_ttr(pg))) throw std::logic_error("PDSE page " + std::to_string(pg) + " not where its TTR says");
  }
  v.tracks_allocated = uint32_t(v.tracks.size()) + o.spare_tracks;
  if (v.tracks_allocated > kMaxLibraryTracks) throw std::invalid_argument("more than 65,535 tracks");
  rep.records = total_pages;
  rep.pages = total_pages;
  rep.directory_blocks_used = dir_needed;
  rep.directory_blocks = dir_pages;
  rep.pdse_initial_fraction = o.pdse_initial_fraction;
  return b;
}

}  // namespace

BuiltLibrary build_library(std::vector<MemberSpec> members, const LibraryOptions& o) {
  check_members(members, o);
  BuiltLibrary b = o.organization == Organization::Pds ? build_pds(members, o) : build_pdse(members, o);
  LibraryReport& r = b.report;
  r.organization = o.organization;
  r.block_size = o.binder.block_size;
  r.members = uint32_t(members.size());
  for (const MemberSpec& m : members) r.aliases += uint32_t(m.aliases.size());
  r.tracks_used = uint32_t(b.volume.tracks.size());
  r.tracks_allocated = b.volume.tracks_allocated;
  return b;
}

std::string LibraryReport::text() const {
  char buf[1024];
  int n = std::snprintf(buf, sizeof buf,
                        "organization        %s\nblock size          %u\nmembers             %u\naliases             %u\n"
                        "tracks used         %u\ntracks allocated    %u\nrecords             %llu\n",
                        organization_name(organization), block_size, members, aliases, tracks_used, tracks_allocated,
                        (unsigned long long)records);
  std::string s(buf, size_t(n));
  if (organization == Organization::Pds) {
    n = std::snprintf(buf, sizeof buf,
                      "text blocks         %llu\nshort blocks        %llu\ndirectory blocks    %u used of %u\n",
                      (unsigned long long)text_blocks, (unsigned long long)short_blocks, directory_blocks_used,
                      directory_blocks);
  } else {
    n = std::snprintf(buf, sizeof buf,
                      "pages               %llu\ndirectory pages     %u used of %u\n"
                      "initial fraction    %.2f (estimate: text in INITIAL classes where a member does not say)\n",
                      (unsigned long long)pages, directory_blocks_used, directory_blocks, pdse_initial_fraction);
  }
  return s + std::string(buf, size_t(n));
}

std::string LibraryReport::json() const {
  return report_json::text({{"organization", organization_name(organization)},
                            {"block_size", block_size},
                            {"members", members},
                            {"aliases", aliases},
                            {"tracks_used", tracks_used},
                            {"tracks_allocated", tracks_allocated},
                            {"records", records},
                            {"text_blocks", text_blocks},
                            {"short_blocks", short_blocks},
                            {"directory_blocks_used", directory_blocks_used},
                            {"directory_blocks", directory_blocks},
                            {"pages", pages},
                            {"pdse_initial_fraction", report_json::fixed(pdse_initial_fraction, 4)}});
}

}  // namespace fetch
