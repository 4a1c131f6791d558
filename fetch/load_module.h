// Members of a load library: what a member is (MemberSpec), and a PDS member written
// as a load module, record by record, the way the binder (or IEBCOPY COPYMOD, which
// reblocks load modules) writes it; and its PDS directory entry.
//
// Sources:
//  - Record formats: z/OS MVS Program Management: Advanced Facilities (SA23-1392),
//    Appendix B "Load module formats": SYM, CESD, scatter/translation, control, RLD,
//    control and RLD, IDR records. Input conventions (same appendix): the ESD records
//    precede the text; RLD items follow the text record holding the adcons they
//    describe; the end of every load module is marked by an EOM flag.
//  - Directory entry: z/OS DFSMS Using Data Sets (SC23-6855), "PDS directory": name
//    (8), TTR (3), C (1: bit 0 alias, bits 1-2 the number of TTRs in the user data,
//    bits 3-7 the number of user-data halfwords, at most 31 = 62 bytes); and the
//    IHAPDS mapping (PDS2) cross-reference in Program Management: Advanced Facilities
//    for the load module user data (offsets below).
//  - Track balance: z/OS DFSMSdfp Advanced Services, TRKCALC FUNCTN=TRKBAL,MAXSIZE=YES
//    (the largest record that fits the rest of a track).
//
// LAYOUT WE WRITE (byte offsets within the record's data; fields a fetch does not use
// and whose layout the manual's figures give only as pictures are written as zeros):
//   CESD (id X'20'): 0 id, 4-5 ESDID of the first entry, 6-7 bytes of ESD data, 8..
//     16-byte entries (name 8, type 1: X'00' SD / X'02' ER, address 3, flags 1,
//     length 3); at most 15 entries (240 bytes) a record.
//   IDR (id X'80'): 0 id, 1 bytes that follow, 2 X'02' (binder IDR), then the binder's
//     id "5695PMB01" and the date X'65001F' (IBM's own value for a module copied
//     without a binder IDR: deterministic, where a build date would not be).
//   Control (id X'01'; X'0D' when the text record it describes is the module's last):
//     0 id, 4-5 bytes of control entries, 6-7 bytes of RLD data (0), 8-15 the CCW that
//     reads the next text record: X'06' (read data), address (3: the text's offset in
//     the module), flags X'40', 0, count (2: the text record's length); 16.. control
//     entries: ESDID (2) and length (2) of each section piece in the text record.
//   RLD (id X'02'; X'0E' when it is the module's last record): 0 id, 6-7 bytes of RLD
//     data, 16.. items: R pointer (2, ESDID of the symbol), P pointer (2, ESDID of the
//     section holding the adcon), flags (1: X'0C' a 4-byte A-type adcon; X'01' the next
//     item has the same R and P and omits them), address (3, in the module); an item
//     after one with X'01' is 4 bytes (flags and address).
//   Control and RLD (id X'03'; X'0F' end of module): the RLD items of the text before
//     it, then the control entries of the text after it (bytes 4-5 and 6-7 count each).
//   Text: the bytes of the module (ours: a deterministic pattern of the member's name
//     and offset, so that a fetch can check what it read).
//   Records other than text are at most 256 bytes (SA23-1392 appendix B).
//   Left out: SYM records (TEST), scatter/translation records (SCTR), overlay segments
//   (the end-of-segment ids X'05', X'06', X'07' are recognised, never written), and the
//   directory entry's scatter, SSI, APF and LPO sections.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fetch/library_image.h"

namespace fetch {

// One member (a program) as the library builder takes it.
struct MemberSpec {
  std::string name;                    // 1-8 characters (check_member_name)
  uint32_t size = 0;                   // bytes of text (the module's storage size)
  uint32_t entry = 0;                  // entry point, an offset in the module
  uint32_t rld_count = 0;              // relocatable address constants
  uint32_t csects = 1;                 // control sections (SD entries), the text split evenly among them
  uint32_t externals = 0;              // external references (ER entries)
  std::vector<std::string> aliases;    // alias names (directory entries pointing at this member)
  bool rent = false, reus = false, refr = false;
  // PDSE: bytes of text in the classes loaded at once (INITIAL); the rest is DEFERRED.
  // -1 = the library's default fraction (PdseOptions).
  int64_t initial_bytes = -1;
  // The text itself (`size` bytes), for a member made from a program of the image
  // (system.fetch.programs); empty: ours, fill_text's pattern.
  std::vector<uint8_t> text;
};

// What a builder does with members: "" if the spec is valid for a library of `org`.
std::string check_member(const MemberSpec& m, Organization org);

// The binder's choices when it writes a load module.
struct BinderOptions {
  uint32_t block_size = 32760;         // DCB BLKSIZE: the largest text record
  // Fill a track's rest with a shorter text record rather than leave it empty (the
  // binder does; seed 001: "It will use 'small blocks' to fill up the space in a track").
  bool fill_tracks = true;
  // ESTIMATE: the shortest text record the binder writes to fill a track; below it, the
  // next text record begins a new track. IBM publishes no figure that we found; 1,024
  // is the smallest BLKSIZE a load library may have (the binder's minimum), used here.
  uint32_t min_short_block = 1024;
};
inline constexpr uint32_t kMinLoadLibraryBlockSize = 1024;   // see min_short_block
inline constexpr uint32_t kMaxLoadLibraryBlockSize = 32760;  // BPAM's largest block (DFSMS Using Data Sets)
inline constexpr uint32_t kMaxLoadModuleBytes = (1u << 24) - 1;   // 24-bit sizes (PDS2STOR, the CCW's address)
inline constexpr uint32_t kMaxControlRecordBytes = 256;      // SA23-1392 appendix B

// Record ids (first byte of a load module record), SA23-1392 appendix B.
namespace lmrec {
inline constexpr uint8_t kSym = 0x40;
inline constexpr uint8_t kCesd = 0x20;
inline constexpr uint8_t kScatter = 0x10;
inline constexpr uint8_t kIdr = 0x80;
inline constexpr uint8_t kControl = 0x01;           // | kEndSegment | kEndModule
inline constexpr uint8_t kRld = 0x02;
inline constexpr uint8_t kControlRld = 0x03;
inline constexpr uint8_t kEndSegment = 0x04;
inline constexpr uint8_t kEndModule = 0x08;
inline constexpr uint32_t kCesdEntryBytes = 16;
inline constexpr uint32_t kCesdEntriesPerRecord = 15;
inline constexpr uint32_t kHeaderBytes = 16;         // control / RLD records: the data begins at 16
}  // namespace lmrec

// PDS directory entry of a load module. Offsets within the entry (IHAPDS: the BLDL list
// offsets less the 2 bytes of K and Z it inserts after the TTR).
namespace pds2 {
inline constexpr uint32_t kNameBytes = 8;
inline constexpr uint32_t kFixedBytes = 12;          // name 8, TTR 3, C 1
inline constexpr uint8_t kAlias = 0x80;              // PDS2ALIS
inline constexpr uint8_t kTtrCountMask = 0x60;       // PDS2NTTR
inline constexpr uint8_t kHalfwordsMask = 0x1F;      // PDS2LUSR
inline constexpr uint32_t kTtrt = 12;                // PDS2TTRT: TTR of the first text record
inline constexpr uint32_t kTtrn = 16;                // PDS2TTRN: note list / scatter (0 here)
inline constexpr uint32_t kAtr1 = 20, kAtr2 = 21;    // PDS2ATR1, PDS2ATR2
inline constexpr uint32_t kStor = 22;                // PDS2STOR: storage the module needs (3)
inline constexpr uint32_t kFtbl = 25;                // PDS2FTBL: length of the first text record (2)
inline constexpr uint32_t kEpa = 27;                 // PDS2EPA: entry point (3)
inline constexpr uint32_t kFtb1 = 30;                // PDS2FTB1..3 (3 bytes; 0 here)
inline constexpr uint32_t kBasicEnd = 33;            // the basic section: 21 bytes of user data
inline constexpr uint32_t kAliasEpa = 33;            // alias section: PDS2EPM (3), PDS2MNM (8)
inline constexpr uint32_t kAliasMain = 36;
inline constexpr uint32_t kAliasEnd = 44;
// ATR1 (PDS2ATR1)
inline constexpr uint8_t kRent = 0x80, kReus = 0x40, kOvly = 0x20, kTest = 0x10, kOnlyLoadable = 0x08,
                         kScatter = 0x04, kExec = 0x02, kOneBlock = 0x01;
// ATR2 (PDS2ATR2)
inline constexpr uint8_t kOriginZero = 0x40, kEntryZero = 0x20, kNoRld = 0x10, kRefr = 0x01;
inline constexpr uint32_t kMaxUserHalfwords = 31;
inline constexpr uint32_t kBlockBytes = 256;         // directory block data
inline constexpr uint32_t kKeyBytes = 8;             // its key: the highest name in the block
}  // namespace pds2

// What writing one load module did.
struct LoadModuleLayout {
  Ttr first;                  // PDS2TTRP: its first record
  Ttr first_text;             // PDS2TTRT
  uint32_t first_text_length = 0;
  uint32_t records = 0;       // all its records (not counting the end-of-file record)
  uint32_t text_blocks = 0;
  uint32_t short_blocks = 0;  // text records made shorter than the block size to fill a track
};

// Writes `m` as a load module (its records, then an end-of-file record).
// Throws std::length_error if the extent is too small.
LoadModuleLayout write_load_module(TrackWriter& w, const MemberSpec& m, const BinderOptions& o);

// The byte at `offset` of a member's text (ours: deterministic from name and offset).
uint8_t text_byte(const std::string& name, uint32_t offset);
void fill_text(const std::string& name, uint32_t offset, uint8_t* out, uint32_t n);
// A member's text at `offset`: its own (MemberSpec::text) or fill_text's.
void member_text(const MemberSpec& m, uint32_t offset, uint8_t* out, uint32_t n);

// Bytes of a load module's directory entry: the basic section, and the alias section too
// for an alias, rounded up to halfwords.
constexpr uint32_t directory_entry_bytes(bool alias) {
  return pds2::kFixedBytes + 2 * (((alias ? pds2::kAliasEnd : pds2::kBasicEnd) - pds2::kFixedBytes + 1) / 2);
}

// The member's directory entry (or one of its aliases', `alias` not empty).
std::vector<uint8_t> directory_entry(const MemberSpec& m, const LoadModuleLayout& l, const std::string& alias = "");

}  // namespace fetch
