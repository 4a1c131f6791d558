// Fuzz target: the library image reader and checker (fetch/library_check.h), what a
// program fetch will trust to read a load library, and the channel programs that read
// it (flashsim/ckd.h), and program fetch's reading of a member's records
// (fetch/module_reader.h). Any input gets a result: an image that checks, or one error
// naming its place; every channel program against an image that parses ends with a
// status (and an error saying why when not Ok). A crash, a sanitizer report, a hang or
// memory out of bounds is a finding; so is an image that parses but whose own
// re-serialization does not parse and check to the same verdict.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fetch/library_check.h"
#include "fetch/library_tracks.h"
#include "fetch/module_reader.h"
#include "flashsim/ckd.h"

namespace {

using namespace flashsim::ckd;

void check(const Result& r, uint64_t now, const std::vector<Ccw>& p) {
  if (r.time_ns < now || (!r.ok() && r.error.empty())) std::abort();
  size_t reads = 0;
  for (const Ccw& c : p)
    if (c.cmd != Cmd::Seek && c.cmd != Cmd::Tic && c.cmd != Cmd::SearchIdEqual && c.cmd != Cmd::SearchKeyEqual &&
        c.cmd != Cmd::SearchKeyHighOrEqual)
      reads = std::max(reads, size_t(c.count));
  for (const auto& b : r.reads)
    if (b.size() > reads) std::abort();   // never more than a read's count
}

// Channel programs against the image: BLDL's directory search for IEFBR14, a chained
// read from each TTR the first directory block names, and programs made of the
// input's own bytes (commands, flags, arguments).
void channel_programs(const fetch::LibraryVolume& v, const uint8_t* data, size_t size) {
  fetch::LibraryTracks tracks(v);
  CkdVolume vol(tracks);
  uint64_t now = 0;
  auto run = [&](const std::vector<Ccw>& p) {
    Result r = vol.execute(now, p);
    check(r, now, p);
    now = r.time_ns;
    return r;
  };
  const uint32_t cyl = v.first_cylinder, head = v.first_head;
  auto name = fetch::ebcdic_name("IEFBR14");
  run({seek(cyl, head), search_id_equal(cyl, head, 1), tic(1),
       search_key(Cmd::SearchKeyHighOrEqual, {name.begin(), name.end()}, true), tic(3), read(Cmd::ReadData, 256)});
  const fetch::Record* dir = v.record(fetch::Ttr{0, 1});
  if (dir && dir->data.size() >= 2) {
    size_t used = std::min<size_t>(fetch::get_be(dir->data.data(), 2), dir->data.size()), pos = 2;
    for (int n = 0; n < 8 && pos + 12 <= used; n++, pos += 12 + 2 * (dir->data[pos + 11] & 0x1F)) {
      fetch::Cchhr a = v.address(fetch::Ttr::unpack(uint32_t(fetch::get_be(&dir->data[pos + 8], 3))));
      std::vector<Ccw> p = {seek(a.cylinder, a.head), search_id_equal(a.cylinder, a.head, a.record), tic(1),
                            read(Cmd::ReadData, 65535)};
      for (int i = 0; i < 20; i++) p.push_back(read(Cmd::ReadData, 65535, true));
      // The records as program fetch takes them, into the storage the entry asks for
      // (PDS2STOR: at most 16 MB, as a LOAD would get).
      fetch::ModuleReader m(pos + 25 <= used ? uint32_t(fetch::get_be(&dir->data[pos + 22], 3)) : 0);
      for (const auto& rec : run(p).reads)
        if (!m.record(rec, "record")) {
          if (m.code().empty() || m.error().empty()) std::abort();   // a refusal says why
          break;
        }
    }
  }
  const Cmd cmds[] = {Cmd::Seek, Cmd::SearchIdEqual, Cmd::SearchKeyEqual, Cmd::SearchKeyHighOrEqual, Cmd::Tic,
                      Cmd::ReadData, Cmd::ReadKeyData, Cmd::ReadCount, Cmd::ReadCountKeyData, Cmd(0x55)};
  std::vector<Ccw> p;
  for (size_t i = 0; i + 4 <= size && p.size() < 64; i += 4) {
    const uint8_t* b = data + size - 4 - i;   // from the end: the image's records, mostly
    Ccw c;
    c.cmd = cmds[b[0] % 10];
    c.multitrack = b[1] & 1;
    c.chain = (b[1] & 6) != 0;
    c.sli = b[1] & 8;
    c.count = uint32_t(b[2]) << 8 | b[3];
    c.tic_to = b[2] % 16;
    if (c.cmd == Cmd::Seek) c = seek(cyl + b[2] % 3, b[3] % 16);
    else if (c.cmd == Cmd::SearchIdEqual) c = search_id_equal(cyl + b[2] % 2, b[3] % 15, b[3] >> 4, b[1] & 1);
    else if (c.cmd == Cmd::SearchKeyEqual || c.cmd == Cmd::SearchKeyHighOrEqual)
      c.arg.assign(b, b + 1 + b[3] % 4);
    p.push_back(c);
    if (!c.chain || p.size() % 8 == 0) {
      run(p);
      p.clear();
    }
  }
  if (!p.empty()) run(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fetch::ParsedImage p = fetch::parse_image(data, size);
  if (!p.ok) {
    if (p.error.empty()) std::abort();   // a refusal always says why
    return 0;
  }
  fetch::LibraryCheck c = fetch::check_library(p.volume, {"IEFBR14"});
  if (!c.ok && c.error.empty()) std::abort();
  std::vector<uint8_t> again = fetch::serialize(p.volume);
  fetch::ParsedImage q = fetch::parse_image(again.data(), again.size());
  if (!q.ok || fetch::check_library(q.volume, {"IEFBR14"}).ok != c.ok) std::abort();
  channel_programs(p.volume, data, size);
  return 0;
}
