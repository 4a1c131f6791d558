/* The contents supervisor and program fetch of z/OS, their CPU paths as guest code
   (issue 47): LOAD, BLDL and DELETE for the image's programs (tpf_fetch.h calls them).
   The fetch subsystem (fetch/fetch_subsystem.cpp) runs the channel programs on the
   library's volume and places what they read in the work area (fetch/guest/csv.h);
   each SVC returns with a step for this code to do, whose answer the next SVC carries:
     - LOAD: the process's contents directory entries (CDEs) searched; LLA's directory
       searched; a PDS directory block's entries compared (BLDL) or a PDSE directory
       page's; each control record's CCW checked and each RLD item's adcon relocated in
       the loaded text (a PDSE: each B_RLD item); the CDE built and chained.
     - DELETE: the CDE found, its use count lowered, at 0 unchained and freed (the SVC
       then gives the module's storage back).
   What the z/OS manuals describe and this follows: z/OS MVS Program Management:
   Advanced Facilities (SA23-1392), appendix B "Load module formats" (control and RLD
   records, the adcons an RLD item names); z/OS MVS Programming: Assembler Services
   Guide, "Loading a module" (the CDE, its use count; DELETE at 0 frees the storage).
   The CDE's fields are ours (csv.h). */
#include <stdint.h>
#include <tpf_fetch.h>

#include "csv.h"

#define ANCHOR ((struct csv_anchor *)CSV_AREA)

static inline uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static inline uint32_t be24(const uint8_t *p) { return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]; }
static inline uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* The names compared as the hardware would: 8 bytes at once. */
static inline uint64_t name8(const void *p) { return *(const uint64_t *)p; }

/* One SVC of the request (the number must be an immediate). */
#define CSV_SVC(number, rq)                                                                                    \
  ({                                                                                                           \
    register long r2_ __asm__("r2") = (long)(rq);                                                              \
    __asm__ volatile("svc %[n]" : "+d"(r2_) : [n] "i"(number) : "r0", "r1", "r3", "r4", "r5", "memory", "cc"); \
    r2_;                                                                                                       \
  })

static struct csv_cde *find_cde(uint64_t name) {
  for (struct csv_cde *c = (struct csv_cde *)ANCHOR->cdes; c; c = (struct csv_cde *)c->next)
    if (name8(c->name) == name) return c;
  return 0;
}

/* LLA's directory (in name order): a binary search. */
static int64_t lla_search(const struct csv_request *rq) {
  const uint8_t *t = (const uint8_t *)rq->data;
  const uint64_t want = name8(rq->name);
  long lo = 0, hi = (long)rq->count - 1;
  while (lo <= hi) {
    const long mid = (lo + hi) / 2;
    const uint64_t here = name8(t + mid * CSV_LLA_ENTRY_BYTES);
    if (here == want) return mid;
    if (here < want) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* A PDS directory block: the used count (2), then entries of name (8), TTR (3), C (1),
   user data (C's low 5 bits halfwords), in name order; the search stops at a higher name. */
static int64_t pds_block_search(const struct csv_request *rq, uint64_t want) {
  const uint8_t *b = (const uint8_t *)rq->data;
  const uint32_t used = be16(b);
  uint32_t at = 2;
  while (at + 12 <= used && at + 12 <= 256) {
    const uint64_t here = name8(b + at);
    if (here == want) return at;
    if (here > want) break;
    at += 12 + 2 * (b[at + 11] & 0x1F);
  }
  return -1;
}

/* A PDSE directory page: type, entries, 16-byte entries from 16 in name order. An index
   page: the first entry whose highest name is not lower; a leaf: the name's own. */
static int64_t pdse_page_search(const struct csv_request *rq, uint64_t want) {
  const uint8_t *pg = (const uint8_t *)rq->data;
  const uint32_t n = be16(pg + 2);
  const int index = pg[0] == 2;
  for (uint32_t i = 0; i < n && i < 255; i++) {
    const uint64_t here = name8(pg + 16 + i * 16);
    if (index ? here >= want : here == want) return i;
    if (here > want) break;
  }
  return -1;
}

/* RLD items: R (2), P (2), flags (1), address (3); after flags X'01' the next item is
   flags and address only. Each names a 4-byte A-type adcon: the load address added. */
static long relocate_items(const uint8_t *d, uint32_t bytes, uint8_t *module, uint32_t size, uint32_t base) {
  long n = 0;
  int same = 0;
  for (uint32_t q = 0; q < bytes;) {
    const uint32_t f = same ? q : q + 4;
    const uint32_t addr = be24(d + f + 1);
    if (addr + 4 <= size) {
      uint32_t *adcon = (uint32_t *)(module + addr);
      *adcon += base;
      n++;
    }
    q = f + 4;
    same = d[f] & 0x01;
  }
  return n;
}

/* The records of a channel program (text records excepted: the channel put them in the
   module): CESD, IDR and SYM passed over; a control record's CCW checked against the
   module; RLD items relocated. */
static long records(const struct csv_request *rq) {
  const uint8_t *r = (const uint8_t *)rq->data;
  uint8_t *module = (uint8_t *)rq->module;
  long relocated = 0;
  for (uint32_t i = 0; i < rq->count; i++) {
    const uint32_t len = be32(r);
    const uint8_t *d = r + 4;
    const uint8_t id = d[0];
    if ((id & 0xF0) == 0 && (id & 0x03) && len >= 16) {
      const uint32_t ctl = be16(d + 4), rld = be16(d + 6);
      relocated += relocate_items(d + 16, rld, module, rq->size, (uint32_t)rq->module);
      if (id & 0x01) {   /* the CCW of the text record after it: where it went, how long */
        const uint32_t address = be24(d + 9), count = be16(d + 14);
        if (address + count > rq->size || ctl == 0) return -1;
      }
    }
    r += 4 + ((len + 3) & ~3u);
  }
  return relocated;
}

/* A PDSE's B_RLD items: offset (4), flags (1), 11 zero. */
static long pdse_rld(const struct csv_request *rq) {
  const uint8_t *item = (const uint8_t *)rq->data;
  uint8_t *module = (uint8_t *)rq->module;
  long n = 0;
  for (uint32_t i = 0; i < rq->count; i++, item += 16) {
    const uint32_t off = be32(item);
    if (off + 4 <= rq->size) {
      *(uint32_t *)(module + off) += (uint32_t)rq->module;
      n++;
    }
  }
  return n;
}

static struct csv_cde *build_cde(const struct csv_request *rq) {
  struct csv_anchor *a = ANCHOR;
  struct csv_cde *c = (struct csv_cde *)a->free;
  if (c) {
    a->free = c->next;
  } else {
    if (a->next == 0) a->next = CSV_AREA_CDES;
    if (a->next + CSV_CDE_BYTES > CSV_AREA_CDES_END) return 0;
    c = (struct csv_cde *)a->next;
    a->next += CSV_CDE_BYTES;
  }
  *(uint64_t *)c->name = name8(rq->name);
  c->address = rq->module;
  c->size = rq->size;
  c->entry = rq->entry;
  c->uses = 1;
  c->next = a->cdes;
  a->cdes = (uint64_t)c;
  return c;
}

/* A member name as the directory holds it: EBCDIC, padded with blanks (the caller's is
   ASCII: A-Z, 0-9, @ # $, as check_member_name allows). */
static uint64_t ebcdic_key(const char *name) {
  uint64_t key = 0;
  for (int i = 0; i < 8; i++) {
    const char c = name[i];
    uint8_t e = 0x40;
    if (c >= 'A' && c <= 'I') e = (uint8_t)(0xC1 + (c - 'A'));
    else if (c >= 'J' && c <= 'R') e = (uint8_t)(0xD1 + (c - 'J'));
    else if (c >= 'S' && c <= 'Z') e = (uint8_t)(0xE2 + (c - 'S'));
    else if (c >= '0' && c <= '9') e = (uint8_t)(0xF0 + (c - '0'));
    else if (c == '@') e = 0x7C;
    else if (c == '#') e = 0x7B;
    else if (c == '$') e = 0x5B;
    key = key << 8 | e;
  }
  return key;
}

/* The steps the host asks for, until it says done. */
static void serve(struct csv_request *rq, long step) {
  const uint64_t want = name8(rq->name);
  switch (step) {
    case CSV_FIND_CDE: {
      struct csv_cde *c = find_cde(want);
      if (c) {
        c->uses++;
        rq->module = c->address, rq->size = c->size, rq->entry = c->entry;
      }
      rq->answer = (int64_t)c;
      break;
    }
    case CSV_LLA: rq->answer = lla_search(rq); break;
    case CSV_PDS_BLOCK: rq->answer = pds_block_search(rq, ebcdic_key(rq->name)); break;
    case CSV_PDSE_PAGE: rq->answer = pdse_page_search(rq, ebcdic_key(rq->name)); break;
    case CSV_RECORDS: rq->answer = records(rq); break;
    case CSV_PDSE_RLD: rq->answer = pdse_rld(rq); break;
    case CSV_BUILD_CDE: rq->answer = (int64_t)build_cde(rq); break;
    default: rq->answer = -1; break;
  }
}

static void set_name(struct csv_request *rq, const char *name) {
  *(uint64_t *)rq->name = 0;
  for (int i = 0; i < 8 && name[i]; i++) rq->name[i] = name[i];
}

void *csv_load(const char *name, unsigned long *size) {
  struct csv_request rq;
  set_name(&rq, name);
  rq.answer = 0;
  long step;
  /* The first SVC carries the name's address in the request's data (for the abend's message). */
  rq.data = (uint64_t)name;
  while ((step = CSV_SVC(TPF_SVC_LOAD, &rq)) != CSV_DONE) serve(&rq, step);
  if (size) *size = rq.size;
  return (void *)(rq.module + rq.entry);
}

long csv_bldl(const char *name, unsigned long *size) {
  struct csv_request rq;
  set_name(&rq, name);
  rq.answer = 0;
  rq.data = (uint64_t)name;
  long step;
  while ((step = CSV_SVC(TPF_SVC_BLDL, &rq)) != CSV_DONE) serve(&rq, step);
  if (size) *size = rq.size;
  return rq.count;
}

long csv_delete(const char *name) {
  struct csv_request rq;
  set_name(&rq, name);
  rq.data = (uint64_t)name;
  struct csv_anchor *a = ANCHOR;
  struct csv_cde *prev = 0, *c = (struct csv_cde *)a->cdes;
  const uint64_t want = name8(rq.name);
  while (c && name8(c->name) != want) prev = c, c = (struct csv_cde *)c->next;
  if (!c) {
    rq.answer = CSV_DELETE_NOT_LOADED;
  } else if (--c->uses > 0) {
    rq.answer = CSV_DELETE_LOWERED;
  } else {
    if (prev) prev->next = c->next;
    else a->cdes = c->next;
    c->next = a->free;
    a->free = (uint64_t)c;
    rq.module = c->address;
    rq.answer = CSV_DELETE_RELEASED;
  }
  return CSV_SVC(TPF_SVC_DELETE, &rq);
}
