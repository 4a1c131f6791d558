#include "fetch/load_module.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace fetch {

namespace d3390 = flashsim::dasd3390;

std::string check_member(const MemberSpec& m, Organization org) {
  std::string e = check_member_name(m.name);
  if (!e.empty()) return e;
  for (const std::string& a : m.aliases) {
    e = check_member_name(a);
    if (!e.empty()) return m.name + ": alias: " + e;
  }
  if (m.size == 0) return m.name + ": size must be at least 1 byte";
  if (org == Organization::Pds && m.size > kMaxLoadModuleBytes)
    return m.name + ": " + std::to_string(m.size) + " bytes is more than a load module holds (16 MB - 1); use a PDSE";
  if (m.entry >= m.size) return m.name + ": entry point " + std::to_string(m.entry) + " is beyond its " +
                                std::to_string(m.size) + " bytes";
  if (m.csects == 0 || m.csects > m.size) return m.name + ": csects must be 1 to its size";
  if (uint64_t(m.csects) + m.externals > 32767) return m.name + ": more than 32,767 ESD entries";
  if (m.rld_count > m.size / 4) return m.name + ": more address constants (" + std::to_string(m.rld_count) +
                                       ") than 4-byte words in its text";
  if (m.initial_bytes > int64_t(m.size)) return m.name + ": initial bytes beyond its size";
  if (!m.text.empty() && m.text.size() != m.size) return m.name + ": its text is not its size";
  return "";
}

void member_text(const MemberSpec& m, uint32_t offset, uint8_t* out, uint32_t n) {
  if (m.text.empty()) return fill_text(m.name, offset, out, n);
  std::copy_n(m.text.begin() + offset, n, out);
}

uint8_t text_byte(const std::string& name, uint32_t offset) {
  uint8_t b;
  fill_text(name, offset, &b, 1);
  return b;
}

void fill_text(const std::string& name, uint32_t offset, uint8_t* out, uint32_t n) {
  uint32_t h = 2166136261u;   // FNV-1a of the name
  for (char c : name) h = (h ^ uint8_t(c)) * 16777619u;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x = (offset + i) * 2654435761u ^ h;
    out[i] = uint8_t((x ^ (x >> 15)) >> 7);
  }
}

namespace {

struct Adcon {
  uint32_t address;   // in the module
  uint16_t r, p;      // ESDIDs: the symbol, the section holding it
};

// RLD items in records of at most `capacity` bytes, none split across records.
std::vector<std::vector<uint8_t>> encode_rld(const std::vector<Adcon>& items, uint32_t capacity) {
  std::vector<std::vector<uint8_t>> recs;
  const Adcon* prev = nullptr;
  size_t prev_flag_at = 0;
  for (const Adcon& a : items) {
    bool same = prev && !recs.empty() && prev->r == a.r && prev->p == a.p;
    uint32_t need = same ? 4 : 8;
    if (recs.empty() || recs.back().size() + need > capacity) {
      recs.emplace_back();
      same = false;
      need = 8;
    }
    std::vector<uint8_t>& b = recs.back();
    if (same) b[prev_flag_at] |= 0x01;   // the previous item: "next has the same R and P"
    size_t at = b.size();
    b.resize(at + need, 0);
    if (!same) {
      put_be(b, at, a.r, 2);
      put_be(b, at + 2, a.p, 2);
      at += 4;
    }
    b[at] = 0x0C;                        // a 4-byte A-type address constant
    put_be(b, at + 1, a.address, 3);
    prev_flag_at = at;
    prev = &a;
  }
  return recs;
}

std::vector<uint8_t> rld_record(uint8_t id, const std::vector<uint8_t>& items) {
  std::vector<uint8_t> r(lmrec::kHeaderBytes + items.size(), 0);
  r[0] = id;
  put_be(r, 6, items.size(), 2);
  std::copy(items.begin(), items.end(), r.begin() + lmrec::kHeaderBytes);
  return r;
}

}  // namespace

LoadModuleLayout write_load_module(TrackWriter& w, const MemberSpec& m, const BinderOptions& o) {
  LoadModuleLayout L;
  const uint32_t size = m.size;
  // Section boundaries: the text split evenly among the control sections.
  std::vector<uint32_t> start(m.csects + 1);
  for (uint32_t k = 0; k <= m.csects; k++) start[k] = uint32_t(uint64_t(k) * size / m.csects);

  // CESD records: the sections (SD), then the external references (ER).
  const uint32_t esd_total = m.csects + m.externals;
  for (uint32_t first = 0; first < esd_total; first += lmrec::kCesdEntriesPerRecord) {
    uint32_t n = std::min(lmrec::kCesdEntriesPerRecord, esd_total - first);
    std::vector<uint8_t> r(8 + n * lmrec::kCesdEntryBytes, 0);
    r[0] = lmrec::kCesd;
    put_be(r, 4, first + 1, 2);
    put_be(r, 6, n * lmrec::kCesdEntryBytes, 2);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t id = first + i;
      size_t at = 8 + i * lmrec::kCesdEntryBytes;
      char nm[9];
      if (id == 0) {
        std::snprintf(nm, sizeof nm, "%s", m.name.c_str());
      } else if (id < m.csects) {
        std::snprintf(nm, sizeof nm, "%.4s%04u", m.name.c_str(), id % 10000);
      } else {
        std::snprintf(nm, sizeof nm, "EXT%05u", (id - m.csects) % 100000);
      }
      auto e = ebcdic_name(nm);
      std::copy(e.begin(), e.end(), r.begin() + at);
      if (id < m.csects) {
        r[at + 8] = 0x00;   // SD
        put_be(r, at + 9, start[id], 3);
        put_be(r, at + 13, start[id + 1] - start[id], 3);
      } else {
        r[at + 8] = 0x02;   // ER
      }
    }
    Ttr t = w.write({}, std::move(r));
    if (L.records == 0) L.first = t;
    L.records++;
  }
  // One IDR record: the binder's identification.
  {
    static const char kBinder[] = "5695PMB01";
    std::vector<uint8_t> r(3 + 9 + 3, 0);
    r[0] = lmrec::kIdr;
    r[1] = uint8_t(r.size() - 1);
    r[2] = 0x02;
    auto e = ebcdic_dsname(kBinder);   // the same alphabet
    std::copy(e.begin(), e.begin() + 9, r.begin() + 3);
    r[12] = 0x65; r[13] = 0x00; r[14] = 0x1F;
    w.write({}, std::move(r));
    L.records++;
  }

  // The address constants, spread evenly over the text, word aligned.
  auto section_of = [&](uint32_t addr) {
    return uint32_t(std::upper_bound(start.begin(), start.end(), addr) - start.begin() - 1);
  };
  std::vector<Adcon> adcons;
  adcons.reserve(m.rld_count);
  for (uint32_t j = 0; j < m.rld_count; j++) {
    uint32_t a = uint32_t(uint64_t(j) * size / m.rld_count) & ~3u;
    if (a + 4 > size) continue;
    adcons.push_back(Adcon{a, uint16_t(1 + j % esd_total), uint16_t(1 + section_of(a))});
  }
  size_t next_adcon = 0;

  std::vector<Adcon> pending;   // the RLD items of the text record just written
  std::vector<uint8_t> text;
  uint32_t offset = 0;
  while (offset < size) {
    uint32_t want = std::min(size - offset, o.block_size);
    auto pieces = [&](uint32_t len) { return section_of(offset + len - 1) - section_of(offset) + 1; };
    // The previous text's RLD items: in this control record if they fit, else RLD records first.
    std::vector<uint8_t> combined_rld;
    if (!pending.empty()) {
      auto recs = encode_rld(pending, kMaxControlRecordBytes - lmrec::kHeaderBytes);
      if (recs.size() == 1 && lmrec::kHeaderBytes + recs[0].size() + 4 * pieces(want) <= kMaxControlRecordBytes) {
        combined_rld = std::move(recs[0]);
      } else {
        for (auto& items : recs) {
          w.write({}, rld_record(lmrec::kRld, items));
          L.records++;
        }
      }
      pending.clear();
    }
    auto control_length = [&](uint32_t len) {
      return lmrec::kHeaderBytes + uint32_t(combined_rld.size()) + 4 * pieces(len);
    };
    // Does the control record and a full text record fit the track's rest? If not, a
    // shorter text record that fills it, or a new track.
    uint32_t left = w.cells_left();
    uint32_t ctl_cells = d3390::record_cells(0, control_length(want));
    if (ctl_cells + d3390::record_cells(0, want) > left) {
      uint32_t fit = left > ctl_cells ? d3390::largest_data_fitting(left - ctl_cells, 0) : 0;
      if (o.fill_tracks && fit >= o.min_short_block && fit < want) {
        want = fit;
        L.short_blocks++;
      } else {
        w.new_track();
      }
    }
    std::vector<Adcon> mine;
    while (next_adcon < adcons.size() && adcons[next_adcon].address < offset + want)
      mine.push_back(adcons[next_adcon++]);
    const bool last = offset + want == size;
    uint8_t id = combined_rld.empty() ? lmrec::kControl : lmrec::kControlRld;
    if (last && mine.empty()) id |= lmrec::kEndModule;
    const uint32_t n_pieces = pieces(want);
    std::vector<uint8_t> c(control_length(want), 0);
    c[0] = id;
    put_be(c, 4, 4 * n_pieces, 2);
    put_be(c, 6, combined_rld.size(), 2);
    c[8] = 0x06;                       // CCW: read data
    put_be(c, 9, offset, 3);           // into the module at the text's offset
    c[12] = 0x40;
    put_be(c, 14, want, 2);
    std::copy(combined_rld.begin(), combined_rld.end(), c.begin() + lmrec::kHeaderBytes);
    size_t at = lmrec::kHeaderBytes + combined_rld.size();
    for (uint32_t s = section_of(offset), k = 0; k < n_pieces; k++, s++, at += 4) {
      uint32_t lo = std::max(start[s], offset), hi = std::min(start[s + 1], offset + want);
      put_be(c, at, s + 1, 2);
      put_be(c, at + 2, hi - lo, 2);
    }
    w.write({}, std::move(c));
    text.resize(want);
    member_text(m, offset, text.data(), want);
    Ttr t = w.write({}, text);
    if (L.text_blocks == 0) {
      L.first_text = t;
      L.first_text_length = want;
    }
    L.records += 2;
    L.text_blocks++;
    pending = std::move(mine);
    offset += want;
  }
  if (!pending.empty()) {
    auto recs = encode_rld(pending, kMaxControlRecordBytes - lmrec::kHeaderBytes);
    for (size_t i = 0; i < recs.size(); i++) {
      uint8_t id = lmrec::kRld | (i + 1 == recs.size() ? lmrec::kEndModule : 0);
      w.write({}, rld_record(id, recs[i]));
      L.records++;
    }
  }
  w.write_end_of_file();
  return L;
}

std::vector<uint8_t> directory_entry(const MemberSpec& m, const LoadModuleLayout& l, const std::string& alias) {
  const bool is_alias = !alias.empty();
  std::vector<uint8_t> e(directory_entry_bytes(is_alias), 0);
  const uint32_t halfwords = uint32_t(e.size() - pds2::kFixedBytes) / 2;
  auto n = ebcdic_name(is_alias ? alias : m.name);
  std::copy(n.begin(), n.end(), e.begin());
  put_be(e, 8, l.first.packed(), 3);
  e[11] = uint8_t((is_alias ? pds2::kAlias : 0) | (1 << 5) | halfwords);   // one TTR (TTRT) in the user data
  put_be(e, pds2::kTtrt, l.first_text.packed(), 3);
  uint8_t atr1 = pds2::kExec;
  if (m.rent) atr1 |= pds2::kRent;
  if (m.reus) atr1 |= pds2::kReus;
  if (l.text_blocks == 1 && m.rld_count == 0) atr1 |= pds2::kOneBlock;
  uint8_t atr2 = pds2::kOriginZero;
  if (m.entry == 0) atr2 |= pds2::kEntryZero;
  if (m.rld_count == 0) atr2 |= pds2::kNoRld;
  if (m.refr) atr2 |= pds2::kRefr;
  e[pds2::kAtr1] = atr1;
  e[pds2::kAtr2] = atr2;
  put_be(e, pds2::kStor, m.size, 3);
  put_be(e, pds2::kFtbl, l.first_text_length, 2);
  put_be(e, pds2::kEpa, m.entry, 3);
  if (is_alias) {
    put_be(e, pds2::kAliasEpa, m.entry, 3);
    auto main = ebcdic_name(m.name);
    std::copy(main.begin(), main.end(), e.begin() + pds2::kAliasMain);
  }
  return e;
}

}  // namespace fetch
