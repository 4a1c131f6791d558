#include "fetch/library_check.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "fetch/library_builder.h"
#include "fetch/load_module.h"
#include "fetch/pdse_format.h"

namespace fetch {

namespace d3390 = flashsim::dasd3390;

namespace {

std::string hex(uint64_t v, int digits) {
  char b[24];
  std::snprintf(b, sizeof b, "%0*llX", digits, (unsigned long long)v);
  return b;
}

struct Failure {
  std::string message;
};

[[noreturn]] void fail(std::string m) { throw Failure{std::move(m)}; }

}  // namespace

std::string describe(const LibraryVolume& v, Ttr ttr) {
  Cchhr a = v.address(ttr);
  return "TTR " + hex(ttr.packed(), 6) + " (cylinder " + std::to_string(a.cylinder) + ", head " +
         std::to_string(a.head) + ", record " + std::to_string(ttr.record) + ")";
}

ParsedImage parse_image(const uint8_t* data, size_t size) {
  ParsedImage out;
  LibraryVolume& v = out.volume;
  size_t at = 0;
  auto need = [&](size_t n, const std::string& what) {
    if (size - at < n)
      fail("image offset " + std::to_string(at) + ": " + what + " needs " + std::to_string(n) + " bytes, " +
           std::to_string(size - at) + " remain (truncated)");
  };
  try {
    need(kHeaderBytes, "the header");
    if (std::memcmp(data, kImageMagic, 8) != 0) fail("image offset 0: not a library image (no TPFLIB01)");
    if (data[8] != uint8_t(Organization::Pds) && data[8] != uint8_t(Organization::Pdse))
      fail("image offset 8: organization " + std::to_string(data[8]) + " is neither 1 (PDS) nor 2 (PDSE)");
    v.organization = Organization(data[8]);
    v.first_cylinder = uint32_t(get_be(data + 10, 2));
    v.first_head = uint32_t(get_be(data + 12, 2));
    v.tracks_allocated = uint32_t(get_be(data + 16, 4));
    const uint32_t written = uint32_t(get_be(data + 20, 4));
    v.block_size = uint32_t(get_be(data + 24, 4));
    v.directory_blocks = uint32_t(get_be(data + 28, 4));
    v.dsname = ascii_text(data + 32, 44);
    if (v.first_head >= d3390::kTracksPerCylinder)
      fail("image offset 12: first head " + std::to_string(v.first_head) + " is not 0..14");
    if (v.tracks_allocated == 0 || v.tracks_allocated > kMaxLibraryTracks)
      fail("image offset 16: " + std::to_string(v.tracks_allocated) + " tracks allocated, not 1..65,535");
    if (written > v.tracks_allocated)
      fail("image offset 20: " + std::to_string(written) + " tracks written, more than the " +
           std::to_string(v.tracks_allocated) + " allocated");
    if (uint64_t(v.first_cylinder) * d3390::kTracksPerCylinder + v.first_head + v.tracks_allocated >
        uint64_t(65536) * d3390::kTracksPerCylinder)
      fail("image offset 10: the extent reaches past cylinder 65,535");
    if (v.block_size == 0 || v.block_size > kMaxLoadLibraryBlockSize)
      fail("image offset 24: block size " + std::to_string(v.block_size) + " is not 1..32,760");
    at = kHeaderBytes;
    for (uint32_t t = 0; t < written; t++) {
      const Cchhr want = v.address(Ttr{t, 0});
      const std::string track = "track " + std::to_string(t) + " (cylinder " + std::to_string(want.cylinder) +
                                ", head " + std::to_string(want.head) + ")";
      need(kTrackHeaderBytes, track + "'s header");
      Track tr;
      tr.cylinder = uint32_t(get_be(data + at, 2));
      tr.head = uint32_t(get_be(data + at + 2, 2));
      uint32_t n = uint32_t(get_be(data + at + 4, 2));
      if (tr.cylinder != want.cylinder || tr.head != want.head)
        fail("image offset " + std::to_string(at) + ": " + track + " says cylinder " + std::to_string(tr.cylinder) +
             ", head " + std::to_string(tr.head));
      if (n > 255) fail("image offset " + std::to_string(at + 4) + ": " + track + " has " + std::to_string(n) +
                        " records, more than 255");
      at += kTrackHeaderBytes;
      uint32_t cells = 0;
      for (uint32_t r = 1; r <= n; r++) {
        const std::string rec = track + ", record " + std::to_string(r);
        need(d3390::kCountAreaBytes, rec + "'s count");
        const uint8_t* c = data + at;
        if (get_be(c, 2) != want.cylinder || get_be(c + 2, 2) != want.head || c[4] != r)
          fail("image offset " + std::to_string(at) + ": " + rec + ": its count says cylinder " +
               std::to_string(get_be(c, 2)) + ", head " + std::to_string(get_be(c + 2, 2)) + ", record " +
               std::to_string(c[4]));
        uint32_t kl = c[5], dl = uint32_t(get_be(c + 6, 2));
        if (dl > d3390::kMaxRecordBytes)
          fail("image offset " + std::to_string(at + 6) + ": " + rec + ": data length " + std::to_string(dl) +
               " is more than a track holds (56,664)");
        cells += d3390::record_cells(kl, dl);
        if (cells > d3390::kCellsPerTrack)
          fail("image offset " + std::to_string(at) + ": " + rec + ": the track's records take " +
               std::to_string(cells) + " cells, more than its 1,729");
        at += d3390::kCountAreaBytes;
        need(size_t(kl) + dl, rec + "'s key and data");
        Record R;
        R.r = uint8_t(r);
        R.key.assign(data + at, data + at + kl);
        R.data.assign(data + at + kl, data + at + kl + dl);
        at += size_t(kl) + dl;
        tr.records.push_back(std::move(R));
      }
      v.tracks.push_back(std::move(tr));
    }
    if (at != size) fail("image offset " + std::to_string(at) + ": " + std::to_string(size - at) +
                         " bytes after the last track");
    out.ok = true;
  } catch (const Failure& f) {
    out.error = f.message;
    out.volume = LibraryVolume{};
  }
  return out;
}

namespace {

using Name8 = std::array<uint8_t, 8>;
const Name8 kEndName = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

std::string show(const Name8& n) {
  if (n == kEndName) return "X'FFFFFFFFFFFFFFFF'";
  return "'" + ascii_name(n.data()) + "'";
}

class Checker {
 public:
  Checker(const LibraryVolume& v, LibraryCheck& out) : v_(v), out_(out) {}

  void run(const std::vector<std::string>& expected) {
    if (v_.organization == Organization::Pds) pds(); else pdse();
    std::set<std::string> have(out_.names.begin(), out_.names.end());
    for (const std::string& e : expected)
      if (!have.count(e)) fail("member " + e + " is missing: the directory has no entry for it");
  }

 private:
  const LibraryVolume& v_;
  LibraryCheck& out_;

  std::string at(Ttr t, size_t offset) const { return describe(v_, t) + ", offset " + std::to_string(offset) + ": "; }
  std::string at(Ttr t) const { return describe(v_, t) + ": "; }

  const Record& need_record(Ttr t, const std::string& what) const {
    if (t.track >= v_.tracks_allocated)
      fail(what + ": TTR " + hex(t.packed(), 6) + " is beyond the extent (" + std::to_string(v_.tracks_allocated) +
           " tracks)");
    if (t.track >= v_.tracks.size())
      fail(what + ": TTR " + hex(t.packed(), 6) + " is on track " + std::to_string(t.track) +
           ", which holds nothing (" + std::to_string(v_.tracks.size()) + " tracks written)");
    const Record* r = v_.record(t);
    if (!r) fail(what + ": " + describe(v_, t) + " does not exist (the track has " +
                 std::to_string(v_.tracks[t.track].records.size()) + " records)");
    return *r;
  }

  // ---- PDS ----
  struct Entry {
    Name8 name;
    Ttr ttr;
    bool alias;
    std::vector<uint8_t> user;
    Ttr where;
    size_t offset;
  };

  void pds() {
    if (v_.block_size < kMinLoadLibraryBlockSize)
      fail("header: block size " + std::to_string(v_.block_size) + " is below a load library's 1,024");
    std::vector<Entry> entries;
    Ttr t{0, 1};
    Name8 prev{};
    bool have_prev = false, ended = false;
    uint32_t blocks = 0;
    while (true) {
      const Record& r = need_record(t, "the directory");
      if (r.end_of_file()) break;
      if (r.key.size() != pds2::kKeyBytes || r.data.size() != pds2::kBlockBytes)
        fail(at(t) + "a directory block must have an 8-byte key and 256 bytes of data, this has " +
             std::to_string(r.key.size()) + " and " + std::to_string(r.data.size()));
      blocks++;
      const uint32_t count = uint32_t(get_be(r.data.data(), 2));
      if (count < 2 || count > pds2::kBlockBytes)
        fail(at(t, 0) + "directory block count " + std::to_string(count) + " is outside 2..256");
      if (!ended) {
        if (count == 2) fail(at(t, 0) + "an empty directory block before the directory's end marker");
        size_t pos = 2;
        Name8 last{};
        while (pos < count) {
          if (count - pos < pds2::kFixedBytes)
            fail(at(t, pos) + "an entry runs past the block's count " + std::to_string(count) + " (wrong count?)");
          Entry e;
          std::copy(r.data.begin() + pos, r.data.begin() + pos + 8, e.name.begin());
          e.ttr = Ttr::unpack(uint32_t(get_be(&r.data[pos + 8], 3)));
          uint8_t c = r.data[pos + 11];
          e.alias = c & pds2::kAlias;
          size_t len = pds2::kFixedBytes + 2 * size_t(c & pds2::kHalfwordsMask);
          if (count - pos < len)
            fail(at(t, pos) + "entry " + show(e.name) + " of " + std::to_string(len) +
                 " bytes runs past the block's count " + std::to_string(count) + " (wrong count?)");
          e.user.assign(r.data.begin() + pos + pds2::kFixedBytes, r.data.begin() + pos + len);
          e.where = t;
          e.offset = pos;
          last = e.name;
          if (e.name == kEndName) {
            ended = true;
            if (pos + len != count)
              fail(at(t, pos + len) + "entries after the directory's end marker (count " + std::to_string(count) +
                   ")");
            pos += len;
            break;
          }
          if (have_prev && !(prev < e.name))
            fail(at(t, pos) + "name " + show(e.name) + " after " + show(prev) + ": out of order");
          prev = e.name;
          have_prev = true;
          entries.push_back(std::move(e));
          pos += len;
        }
        Name8 key;
        std::copy(r.key.begin(), r.key.end(), key.begin());
        if (key != last)
          fail(at(t) + "the block's key " + show(key) + " is not its highest name " + show(last));
      }
      Ttr n = v_.next(t);
      if (n.record == 0) fail(at(t) + "the directory has no end-of-file record after it");
      t = n;
    }
    if (!ended) fail(at(t) + "the directory ends without its end marker (X'FF...' entry)");
    if (blocks != v_.directory_blocks)
      fail("the directory has " + std::to_string(blocks) + " blocks, the header says " +
           std::to_string(v_.directory_blocks));
    const Ttr dir_end = t;   // the end-of-file record after the directory

    std::set<Name8> names;
    for (const Entry& e : entries) names.insert(e.name);
    for (const Entry& e : entries) out_.names.push_back(ascii_name(e.name.data()));
    // Members first, then aliases: an alias is checked against its member's walk.
    std::vector<const Entry*> order;
    for (const Entry& e : entries) if (!e.alias) order.push_back(&e);
    for (const Entry& e : entries) if (e.alias) order.push_back(&e);
    for (const Entry* ep : order) {
      const Entry& e = *ep;
      (e.alias ? out_.aliases : out_.members)++;
      const std::string who = "member " + show(e.name) + " (directory " + describe(v_, e.where) + ", offset " +
                              std::to_string(e.offset) + ")";
      const size_t want = directory_entry_bytes(e.alias) - pds2::kFixedBytes;
      if (e.user.size() < want)
        fail(who + ": " + std::to_string(e.user.size() / 2) + " halfwords of user data, a load module's " +
             (e.alias ? "alias " : "") + "entry needs " + std::to_string(want / 2));
      if (e.alias) {
        Name8 main;
        std::copy(e.user.begin() + (pds2::kAliasMain - pds2::kFixedBytes),
                  e.user.begin() + (pds2::kAliasMain - pds2::kFixedBytes) + 8, main.begin());
        if (!names.count(main)) fail(who + ": alias of " + show(main) + ", which is missing from the directory");
      }
      if (!(dir_end.track < e.ttr.track || (dir_end.track == e.ttr.track && dir_end.record < e.ttr.record)))
        fail(who + ": TTR " + hex(e.ttr.packed(), 6) + " is inside the directory");
      module(e, who);
    }
  }

  uint32_t user(const Entry& e, uint32_t offset, int bytes) const {
    return uint32_t(get_be(&e.user[offset - pds2::kFixedBytes], bytes));
  }

  // Every record belongs to at most one member: a walk stops where another began.
  std::map<uint32_t, std::string> walked_;   // first TTR -> the member's name (aliases share it)
  std::set<uint32_t> owned_;                 // TTRs of records some member's walk has read

  void module(const Entry& e, const std::string& who) {
    const uint32_t stor = user(e, pds2::kStor, 3), ftbl = user(e, pds2::kFtbl, 2), epa = user(e, pds2::kEpa, 3);
    const Ttr ttrt = Ttr::unpack(user(e, pds2::kTtrt, 3));
    if (stor == 0) fail(who + ": its size (PDS2STOR) is 0");
    if (epa >= stor) fail(who + ": entry point " + hex(epa, 6) + " is beyond its size " + hex(stor, 6));
    auto seen = walked_.find(e.ttr.packed());
    if (seen != walked_.end()) {
      if (!e.alias) fail(who + ": its TTR is also " + seen->second + "'s");
      return;   // an alias of a member walked already
    }
    if (e.alias) fail(who + ": an alias whose TTR " + hex(e.ttr.packed(), 6) + " is no member's first record");
    walked_[e.ttr.packed()] = show(e.name);
    Ttr t = e.ttr;
    bool head = true, have_text = false, end = false;
    uint64_t text_end = 0;
    uint32_t text_records = 0;
    // Moves forward one record each turn, never past the data set's last: it ends.
    while (true) {
      const Record& r = need_record(t, who);
      if (!owned_.insert(t.packed()).second) fail(at(t) + who + ": its records run into another member's");
      if (end) {
        if (!r.end_of_file()) fail(at(t) + who + ": a record after its end-of-module record, not end-of-file");
        break;
      }
      if (r.end_of_file()) fail(at(t) + who + ": end-of-file before its end-of-module record (truncated member)");
      if (!r.key.empty()) fail(at(t) + who + ": a load module record has no key, this one " +
                               std::to_string(r.key.size()) + " bytes");
      const std::vector<uint8_t>& d = r.data;
      const uint8_t id = d[0];
      if (t == e.ttr && id != lmrec::kCesd && id != lmrec::kSym)
        fail(at(t, 0) + who + ": its first record is of type X'" + hex(id, 2) + "', a CESD (X'20') expected");
      if (id == lmrec::kCesd || id == lmrec::kSym || id == lmrec::kScatter || id == lmrec::kIdr) {
        if (!head) fail(at(t, 0) + who + ": a " + (id == lmrec::kIdr ? "IDR" : "CESD/SYM") +
                        " record after the text began");
        if (id == lmrec::kCesd) {
          if (d.size() < 8) fail(at(t) + who + ": a CESD record of " + std::to_string(d.size()) + " bytes");
          uint32_t n = uint32_t(get_be(&d[6], 2));
          if (n % lmrec::kCesdEntryBytes || 8 + n > d.size())
            fail(at(t, 6) + who + ": CESD data of " + std::to_string(n) + " bytes in a record of " +
                 std::to_string(d.size()));
        } else if (id == lmrec::kIdr && (d.size() < 2 || d[1] + 1u > d.size())) {
          fail(at(t, 1) + who + ": an IDR record shorter than its length byte says");
        }
      } else if ((id & 0xF0) == 0 && (id & 0x03) != 0) {
        head = false;
        if (d.size() < lmrec::kHeaderBytes || d.size() > kMaxControlRecordBytes)
          fail(at(t) + who + ": a control/RLD record of " + std::to_string(d.size()) + " bytes (16..256)");
        const uint32_t ctl = uint32_t(get_be(&d[4], 2)), rld = uint32_t(get_be(&d[6], 2));
        const bool is_control = id & lmrec::kControl, is_rld = id & lmrec::kRld;
        if (lmrec::kHeaderBytes + ctl + rld > d.size() || ctl % 4 || (!is_control && ctl) || (!is_rld && rld))
          fail(at(t, 4) + who + ": control bytes " + std::to_string(ctl) + " and RLD bytes " + std::to_string(rld) +
               " do not fit a record of " + std::to_string(d.size()) + " bytes");
        if (rld) {
          if (!have_text) fail(at(t, 16) + who + ": RLD items before any text");
          size_t p = lmrec::kHeaderBytes, endp = p + rld;
          bool same = false;
          while (p < endp) {
            size_t len = same ? 4 : 8;
            if (endp - p < len) fail(at(t, p) + who + ": an RLD item runs past the RLD data");
            size_t f = same ? p : p + 4;
            uint32_t addr = uint32_t(get_be(&d[f + 1], 3));
            if (uint64_t(addr) + 4 > stor)
              fail(at(t, f + 1) + who + ": an address constant at " + hex(addr, 6) + " beyond its size " + hex(stor, 6));
            same = d[f] & 0x01;
            p += len;
          }
          if (same) fail(at(t, endp) + who + ": the last RLD item says another follows");
        }
        if (id & lmrec::kEndModule) end = true;
        if (is_control) {
          const uint32_t addr = uint32_t(get_be(&d[9], 3)), count = uint32_t(get_be(&d[14], 2));
          uint32_t sum = 0;
          for (size_t p = lmrec::kHeaderBytes + rld; p < lmrec::kHeaderBytes + rld + ctl; p += 4)
            sum += uint32_t(get_be(&d[p + 2], 2));
          if (sum != count)
            fail(at(t, 14) + who + ": control entries give " + std::to_string(sum) + " bytes of text, its CCW " +
                 std::to_string(count));
          if (addr < text_end)
            fail(at(t, 9) + who + ": text at " + hex(addr, 6) + " overlaps the text before it (to " +
                 hex(text_end, 6) + ")");
          if (uint64_t(addr) + count > stor)
            fail(at(t, 9) + who + ": text at " + hex(addr, 6) + " of " + std::to_string(count) +
                 " bytes runs past its size " + hex(stor, 6));
          Ttr tt = v_.next(t);
          if (tt.record == 0) fail(at(t) + who + ": the control record's text record is missing");
          const Record& text = need_record(tt, who);
          if (!owned_.insert(tt.packed()).second) fail(at(tt) + who + ": its records run into another member's");
          if (text.end_of_file() || !text.key.empty() || text.data.size() != count)
            fail(at(tt) + who + ": a text record of " + std::to_string(text.data.size()) +
                 " bytes, its control record says " + std::to_string(count) + " (truncated record?)");
          if (text_records == 0) {
            if (!(tt == ttrt))
              fail(who + ": its first text record is at TTR " + hex(tt.packed(), 6) + ", the directory says " +
                   hex(ttrt.packed(), 6));
            if (count != ftbl)
              fail(who + ": its first text record has " + std::to_string(count) + " bytes, the directory says " +
                   std::to_string(ftbl));
          }
          text_records++;
          have_text = true;
          text_end = uint64_t(addr) + count;
          t = tt;
        }
      } else {
        fail(at(t, 0) + who + ": a record of unknown type X'" + hex(id, 2) + "' where a load module record belongs");
      }
      Ttr n = v_.next(t);
      if (n.record == 0) fail(at(t) + who + ": the data set ends inside the member (no end-of-file record)");
      t = n;
    }
    if (text_records == 0) fail(who + ": no text");
  }

  // ---- PDSE ----
  const std::vector<uint8_t>& page(uint32_t p, const std::string& what) const {
    Ttr t = pdse_page_ttr(p);
    const Record& r = need_record(t, what + " (page " + std::to_string(p) + ")");
    if (!r.key.empty() || r.data.size() != pdse::kPageBytes)
      fail(at(t) + "page " + std::to_string(p) + ": a PDSE's records are 4,096-byte pages without a key, this has " +
           std::to_string(r.key.size()) + " and " + std::to_string(r.data.size()));
    return r.data;
  }

  uint32_t pages_ = 0, dir_pages_ = 0;
  std::set<uint32_t> visited_;
  std::vector<std::pair<Name8, uint32_t>> leaf_entries_;   // (name, descriptor) in tree order
  std::vector<bool> alias_;

  Name8 tree(uint32_t p, uint32_t depth, uint32_t levels) {
    if (p == 0 || p > dir_pages_)
      fail("PDSE directory: page " + std::to_string(p) + " is not a directory page (1.." + std::to_string(dir_pages_) + ")");
    if (!visited_.insert(p).second) fail("PDSE directory: page " + std::to_string(p) + " is reached twice (a loop)");
    const std::vector<uint8_t>& d = page(p, "the PDSE directory");
    const Ttr t = pdse_page_ttr(p);
    const bool leaf = depth + 1 == levels;
    if (d[0] != (leaf ? pdse::kLeaf : pdse::kIndex))
      fail(at(t, 0) + "directory page " + std::to_string(p) + " is of type " + std::to_string(d[0]) + ", " +
           (leaf ? "a leaf (1)" : "an index (2)") + " expected at depth " + std::to_string(depth + 1));
    uint32_t n = uint32_t(get_be(&d[2], 2));
    if (n == 0 || n > pdse::kEntriesPerPage)
      fail(at(t, 2) + "directory page " + std::to_string(p) + " has " + std::to_string(n) + " entries (1..255)");
    Name8 highest{};
    for (uint32_t i = 0; i < n; i++) {
      size_t o = pdse::kPageHeaderBytes + size_t(i) * pdse::kEntryBytes;
      Name8 name;
      std::copy(d.begin() + o, d.begin() + o + 8, name.begin());
      uint32_t ptr = uint32_t(get_be(&d[o + 8], 4));
      if (leaf) {
        if (!leaf_entries_.empty() && !(leaf_entries_.back().first < name))
          fail(at(t, o) + "name " + show(name) + " after " + show(leaf_entries_.back().first) + ": out of order");
        leaf_entries_.push_back({name, ptr});
        alias_.push_back(d[o + 12] & pdse::kEntryAlias);
      } else {
        Name8 under = tree(ptr, depth + 1, levels);
        if (under != name)
          fail(at(t, o) + "index entry " + show(name) + " but the highest name under page " + std::to_string(ptr) +
               " is " + show(under));
      }
      highest = name;
    }
    return highest;
  }

  void pdse() {
    const std::vector<uint8_t>& h = page(0, "the PDSE header");
    if (std::memcmp(h.data(), "PDSE", 4) != 0) fail(at(pdse_page_ttr(0), 0) + "page 0 is not a PDSE header");
    pages_ = uint32_t(get_be(&h[4], 4));
    const uint32_t root = uint32_t(get_be(&h[8], 4)), names = uint32_t(get_be(&h[12], 4));
    const uint32_t levels = uint32_t(get_be(&h[16], 2));
    dir_pages_ = uint32_t(get_be(&h[18], 2));
    if (pages_ > v_.records_written())
      fail(at(pdse_page_ttr(0), 4) + std::to_string(pages_) + " pages, more than the " +
           std::to_string(v_.records_written()) + " records written");
    if (dir_pages_ + 1 < pdse::kInitialDirectoryPages || dir_pages_ >= pages_)
      fail(at(pdse_page_ttr(0), 18) + std::to_string(dir_pages_) + " directory pages (4.." +
           std::to_string(pages_ > 0 ? pages_ - 1 : 0) + " expected)");
    if (dir_pages_ != v_.directory_blocks)
      fail(at(pdse_page_ttr(0), 18) + std::to_string(dir_pages_) + " directory pages, the image header says " +
           std::to_string(v_.directory_blocks));
    if (levels == 0 || levels > pdse::kMaxTreeDepth)
      fail(at(pdse_page_ttr(0), 16) + "directory depth " + std::to_string(levels) + " (1..8)");
    tree(root, 0, levels);
    if (leaf_entries_.size() != names)
      fail(at(pdse_page_ttr(0), 12) + "the header counts " + std::to_string(names) + " names, the directory holds " +
           std::to_string(leaf_entries_.size()));
    std::map<uint32_t, Name8> descriptors;   // descriptor page -> the member's name
    uint32_t next_free = 1 + dir_pages_;     // program objects follow one another, in name order of their members
    for (size_t i = 0; i < leaf_entries_.size(); i++) {
      const Name8& name = leaf_entries_[i].first;
      const uint32_t dp = leaf_entries_[i].second;
      out_.names.push_back(ascii_name(name.data()));
      (alias_[i] ? out_.aliases : out_.members)++;
      const std::string who = "member " + show(name);
      if (dp <= dir_pages_ || dp >= pages_)
        fail(who + ": its descriptor page " + std::to_string(dp) + " is outside the member pages (" +
             std::to_string(dir_pages_ + 1) + ".." + std::to_string(pages_ > 0 ? pages_ - 1 : 0) + ")");
      if (alias_[i]) continue;   // checked below, once its member's descriptor is
      if (descriptors.count(dp)) fail(who + ": its descriptor page " + std::to_string(dp) + " is also another member's");
      descriptors[dp] = name;
    }
    for (auto& [dp, name] : descriptors) {
      const std::string who = "member " + show(name);
      const std::vector<uint8_t>& d = page(dp, who);
      const Ttr t = pdse_page_ttr(dp);
      Name8 own;
      std::copy(d.begin(), d.begin() + 8, own.begin());
      if (own != name) fail(at(t, 0) + who + ": its descriptor names " + show(own));
      if (dp < next_free) fail(at(t) + who + ": its pages overlap the member before it");
      const uint32_t size = uint32_t(get_be(&d[8], 4)), entry = uint32_t(get_be(&d[12], 4));
      const uint32_t classes = uint32_t(get_be(&d[18], 2)), total = uint32_t(get_be(&d[20], 4));
      if (size == 0 || entry >= size) fail(at(t, 8) + who + ": size " + std::to_string(size) + ", entry point " +
                                           std::to_string(entry));
      if (classes == 0 || classes > pdse::kMaxClasses)
        fail(at(t, 18) + who + ": " + std::to_string(classes) + " classes");
      if (total == 0 || uint64_t(dp) + total > pages_)
        fail(at(t, 20) + who + ": " + std::to_string(total) + " pages from page " + std::to_string(dp) +
             " run past the data set's " + std::to_string(pages_));
      uint64_t loadable = 0;
      uint32_t next = dp + 1;
      for (uint32_t c = 0; c < classes; c++) {
        size_t o = pdse::kClassTableOffset + size_t(c) * pdse::kClassEntryBytes;
        uint8_t load = d[o + 16];
        uint32_t len = uint32_t(get_be(&d[o + 20], 4)), first = uint32_t(get_be(&d[o + 24], 4)),
                 n = uint32_t(get_be(&d[o + 28], 4));
        if (load < pdse::kInitial || load > pdse::kNoLoad)
          fail(at(t, o + 16) + who + ": class " + std::to_string(c) + " has load attribute " + std::to_string(load));
        if (uint64_t(n) * pdse::kPageBytes < len || (len + pdse::kPageBytes - 1) / pdse::kPageBytes != n)
          fail(at(t, o + 20) + who + ": class " + std::to_string(c) + " of " + std::to_string(len) + " bytes in " +
               std::to_string(n) + " pages");
        if (first != next || uint64_t(first) + n > uint64_t(dp) + total)
          fail(at(t, o + 24) + who + ": class " + std::to_string(c) + " at page " + std::to_string(first) +
               " (expected " + std::to_string(next) + ", within the object's " + std::to_string(total) + " pages)");
        for (uint32_t k = 0; k < n; k++) page(first + k, who);
        next = first + n;
        if (load != pdse::kNoLoad) loadable += len;
      }
      if (next != dp + total) fail(at(t, 20) + who + ": its classes use " + std::to_string(next - dp) +
                                   " pages, its descriptor says " + std::to_string(total));
      if (loadable != size)
        fail(at(t, 8) + who + ": its loadable classes hold " + std::to_string(loadable) + " bytes, its size is " +
             std::to_string(size));
      next_free = dp + total;
    }
    for (size_t i = 0; i < leaf_entries_.size(); i++) {
      if (!alias_[i]) continue;
      if (!descriptors.count(leaf_entries_[i].second))
        fail("alias " + show(leaf_entries_[i].first) + ": its page " + std::to_string(leaf_entries_[i].second) +
             " is no member's descriptor");
    }
  }
};

}  // namespace

LibraryCheck check_library(const LibraryVolume& v, const std::vector<std::string>& expected) {
  LibraryCheck out;
  try {
    Checker(v, out).run(expected);
    out.ok = true;
  } catch (const Failure& f) {
    out.ok = false;
    out.error = f.message;
  }
  return out;
}

LibraryCheck check_library(const uint8_t* data, size_t size, const std::vector<std::string>& expected) {
  ParsedImage p = parse_image(data, size);
  if (!p.ok) {
    LibraryCheck out;
    out.error = p.error;
    return out;
  }
  return check_library(p.volume, expected);
}

}  // namespace fetch
