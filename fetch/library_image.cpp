#include "fetch/library_image.h"

#include <stdexcept>

#include "emu/ebcdic.h"

namespace fetch {

namespace d3390 = flashsim::dasd3390;

const char* organization_name(Organization o) {
  switch (o) {
    case Organization::Pds: return "PDS";
    case Organization::Pdse: return "PDSE";
  }
  return "?";
}

uint32_t Track::cells_used() const {
  uint32_t c = 0;
  for (const Record& r : records) c += r.cells();
  return c;
}

Cchhr LibraryVolume::address(Ttr ttr) const {
  uint64_t abs = uint64_t(first_cylinder) * d3390::kTracksPerCylinder + first_head + ttr.track;
  return Cchhr{uint32_t(abs / d3390::kTracksPerCylinder), uint32_t(abs % d3390::kTracksPerCylinder), ttr.record};
}

const Record* LibraryVolume::record(Ttr ttr) const {
  if (ttr.track >= tracks.size() || ttr.record == 0) return nullptr;
  const Track& t = tracks[ttr.track];
  if (ttr.record > t.records.size()) return nullptr;
  return &t.records[ttr.record - 1];
}

Ttr LibraryVolume::next(Ttr ttr) const {
  if (ttr.track >= tracks.size()) return {};
  if (ttr.record < tracks[ttr.track].records.size()) return Ttr{ttr.track, uint8_t(ttr.record + 1)};
  for (uint32_t t = ttr.track + 1; t < tracks.size(); t++)
    if (!tracks[t].records.empty()) return Ttr{t, 1};
  return {};
}

uint64_t LibraryVolume::records_written() const {
  uint64_t n = 0;
  for (const Track& t : tracks) n += t.records.size();
  return n;
}

std::vector<uint8_t> serialize(const LibraryVolume& v) {
  std::vector<uint8_t> out(kHeaderBytes, 0);
  for (int i = 0; i < 8; i++) out[i] = uint8_t(kImageMagic[i]);
  out[8] = uint8_t(v.organization);
  put_be(out, 10, v.first_cylinder, 2);
  put_be(out, 12, v.first_head, 2);
  put_be(out, 16, v.tracks_allocated, 4);
  put_be(out, 20, v.tracks.size(), 4);
  put_be(out, 24, v.block_size, 4);
  put_be(out, 28, v.directory_blocks, 4);
  auto ds = ebcdic_dsname(v.dsname);
  std::copy(ds.begin(), ds.end(), out.begin() + 32);
  for (const Track& t : v.tracks) {
    size_t at = out.size();
    out.resize(at + kTrackHeaderBytes, 0);
    put_be(out, at, t.cylinder, 2);
    put_be(out, at + 2, t.head, 2);
    put_be(out, at + 4, t.records.size(), 2);
    for (const Record& r : t.records) {
      at = out.size();
      out.resize(at + d3390::kCountAreaBytes, 0);
      put_be(out, at, t.cylinder, 2);
      put_be(out, at + 2, t.head, 2);
      out[at + 4] = r.r;
      out[at + 5] = uint8_t(r.key.size());
      put_be(out, at + 6, r.data.size(), 2);
      out.insert(out.end(), r.key.begin(), r.key.end());
      out.insert(out.end(), r.data.begin(), r.data.end());
    }
  }
  return out;
}

uint32_t TrackWriter::cells_left() const {
  if (begin_next_ || v_.tracks.empty()) return d3390::kCellsPerTrack;
  return d3390::kCellsPerTrack - v_.tracks.back().cells_used();
}

void TrackWriter::new_track() { begin_next_ = true; }

Ttr TrackWriter::write(std::vector<uint8_t> key, std::vector<uint8_t> data) {
  if (key.size() > 255 || data.size() > d3390::kMaxRecordBytes)
    throw std::length_error("a record of key " + std::to_string(key.size()) + " and data " +
                            std::to_string(data.size()) + " bytes is larger than a 3390 track holds");
  uint32_t need = d3390::record_cells(uint32_t(key.size()), uint32_t(data.size()));
  // A track holds at most 255 records (R is one byte); ours never come close (each
  // record is at least 10 cells: 172 a track).
  if (begin_next_ || v_.tracks.empty() || need > cells_left() || v_.tracks.back().records.size() >= 255) {
    if (v_.tracks.size() >= v_.tracks_allocated)
      throw std::length_error("the library needs more than its " + std::to_string(v_.tracks_allocated) +
                              " tracks");
    Cchhr a = v_.address(Ttr{uint32_t(v_.tracks.size()), 0});
    v_.tracks.push_back(Track{a.cylinder, a.head, {}});
    begin_next_ = false;
  }
  Track& t = v_.tracks.back();
  Record r;
  r.r = uint8_t(t.records.size() + 1);
  r.key = std::move(key);
  r.data = std::move(data);
  t.records.push_back(std::move(r));
  return Ttr{uint32_t(v_.tracks.size() - 1), uint8_t(t.records.size())};
}

namespace {
// The characters names use (A-Z, 0-9, the national @ # $, and the blank, point and
// hyphen of data set names): code page 037's bytes for them (emu/ebcdic.h); 0 for any
// other, '?' for any other byte.
bool name_character(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '@' || c == '#' || c == '$' || c == ' ' || c == '.' ||
         c == '-';
}
uint8_t to_ebcdic(char c) { return name_character(c) ? emu::ebcdic::from_ascii(c) : 0; }
char from_ebcdic(uint8_t b) {
  const char c = emu::ebcdic::to_ascii(b);
  return name_character(c) ? c : '?';
}
}  // namespace

std::string check_member_name(std::string_view name) {
  if (name.empty() || name.size() > 8)
    return "member name '" + std::string(name) + "' must be 1 to 8 characters";
  for (size_t i = 0; i < name.size(); i++) {
    char c = name[i];
    bool national = c == '@' || c == '#' || c == '$';
    bool ok = (c >= 'A' && c <= 'Z') || national || (i > 0 && c >= '0' && c <= '9');
    if (!ok)
      return "member name '" + std::string(name) + "': character " + std::to_string(i + 1) +
             " must be A-Z, @, # or $" + (i > 0 ? " or 0-9" : "");
  }
  return "";
}

std::array<uint8_t, 8> ebcdic_name(std::string_view name) {
  std::array<uint8_t, 8> e;
  e.fill(0x40);
  for (size_t i = 0; i < name.size() && i < 8; i++) e[i] = to_ebcdic(name[i]);
  return e;
}

std::string ascii_name(const uint8_t* ebcdic8) { return ascii_text(ebcdic8, 8); }

std::string ascii_text(const uint8_t* ebcdic, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; i++) s += from_ebcdic(ebcdic[i]);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::array<uint8_t, 44> ebcdic_dsname(std::string_view name) {
  std::array<uint8_t, 44> e;
  e.fill(0x40);
  for (size_t i = 0; i < name.size() && i < 44; i++) {
    uint8_t b = to_ebcdic(name[i]);
    e[i] = b ? b : 0x6F;   // '?' in EBCDIC
  }
  return e;
}

}  // namespace fetch
