// A PDSE holding program objects, as our model lays it out on the 3390 volume.
//
// What IBM publishes and we follow (z/OS DFSMS Using Data Sets, SC23-6855, "PDSE
// structure" and "Directory structure"): a PDSE is a set of 4 KB pages (its records on
// the volume are 4,096 bytes whatever BLKSIZE says: "the access method simulates
// blocks"); its directory is indexed (a tree, searched by name, not block by block);
// five directory pages are created with the data set and a PDSE occupies at least five
// pages. Program objects (z/OS MVS Program Management: User's Guide and Reference,
// SA23-1393, "class attributes"; Advanced Facilities, LISTLOAD's PMAR) hold their text
// in classes with a load attribute: INITIAL (loaded with the program), DEFERRED
// (loaded when referenced) or NOLOAD (never loaded: ESD, RLD, IDR data the loader and
// binder read); FETCHOPT=(PACK,PRIME) asks that the program be read whole before it
// runs, the default (NOPACK,NOPRIME) that its pages come in as referenced.
//
// IBM does not publish the pages' internal format: the one below is ours, made to
// carry the published properties and nothing more. All integers big-endian.
//   Page 0, the data set header: 0-3 "PDSE" (ASCII), 4-7 pages used, 8-11 root
//     directory page, 12-15 directory entries (members and aliases), 16-17 tree depth
//     (1 = the root is a leaf), 18-19 directory pages allocated.
//   Directory pages (1..): 0 type (1 leaf, 2 index, 0 free), 2-3 entries, 4-7 the next
//     leaf (0 at the last), 16.. entries of 16 bytes, in ascending EBCDIC name order:
//     leaf: name (8), the member's descriptor page (4), flags (1: X'80' alias), 3 zero;
//     index: the highest name under the child (8), the child page (4), 4 zero.
//   A program object: its descriptor page (our PMAR): 0-7 name, 8-11 storage size
//     (INITIAL + DEFERRED text), 12-15 entry point, 16 FETCHOPT (X'80' PACK, X'40'
//     PRIME), 17 attributes (PDS2ATR1's bits), 18-19 classes, 20-23 pages of the
//     program object with this one, 32.. class entries of 32 bytes: name (16, EBCDIC,
//     blank padded), load attribute (1: 1 INITIAL, 2 DEFERRED, 3 NOLOAD), 3 zero,
//     length (4), first page (4), pages (4), 4 zero. Each class begins on a page of its
//     own, its pages following the descriptor in class order.
#pragma once
#include <cstdint>

namespace fetch::pdse {

inline constexpr uint32_t kPageBytes = 4096;
inline constexpr uint32_t kInitialDirectoryPages = 5;   // SC23-6855: five pages, with the header ours
inline constexpr uint32_t kEntryBytes = 16;
inline constexpr uint32_t kPageHeaderBytes = 16;
inline constexpr uint32_t kEntriesPerPage = (kPageBytes - kPageHeaderBytes) / kEntryBytes;   // 255
inline constexpr uint8_t kFree = 0, kLeaf = 1, kIndex = 2;
inline constexpr uint8_t kEntryAlias = 0x80;
inline constexpr uint8_t kPack = 0x80, kPrime = 0x40;
inline constexpr uint32_t kClassEntryBytes = 32;
inline constexpr uint32_t kClassTableOffset = 32;
inline constexpr uint32_t kMaxClasses = (kPageBytes - kClassTableOffset) / kClassEntryBytes;
inline constexpr uint8_t kInitial = 1, kDeferred = 2, kNoLoad = 3;
inline constexpr uint32_t kMaxTreeDepth = 8;   // 255^8 names: far beyond any library; bounds the reader

// ESTIMATES (IBM publishes no sizes for the binder's NOLOAD classes in a program object):
// bytes a class of ESD, RLD and IDR data takes per item.
inline constexpr uint32_t kEsdBytesPerSymbol = 32;   // estimate
inline constexpr uint32_t kRldBytesPerAdcon = 16;    // estimate
inline constexpr uint32_t kIdrBytes = 64;            // estimate: one binder IDR

}  // namespace fetch::pdse
