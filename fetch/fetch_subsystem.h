// Program fetch as a subsystem of the control program (issue 26, seed 001): z/OS's
// LOAD, DELETE and BLDL for guest programs (TPF_SVC_LOAD, TPF_SVC_DELETE, TPF_SVC_BLDL;
// fetch/guest/tpf_fetch.h), reading system.fetch's load library through channel
// programs on its 3390 volume (flashsim/ckd.h), a device on the machine's I/O path.
//
// A LOAD, as z/OS's contents supervisor and program fetch do it:
//  1. The process's loaded modules: one already there gets its use count raised (no I/O).
//  2. BLDL: the directory searched on the volume. PDS: one channel program, Seek +
//     Search ID Equal on the first directory block + Search Key High or Equal
//     multitrack (the blocks searched one after another, by their keys) + Read Data of
//     the block found; then the CPU compares the entries in it. PDSE: the indexed
//     directory from its header page to a leaf, a page an EXCP; the pages stay in
//     storage after their first read (OUR ASSUMPTION, as the SMSPDSE address space
//     caches a PDSE's directory: IBM, z/OS DFSMS Using Data Sets, "PDSE address spaces").
//     With LLA (system.fetch.lla) an entry found once is kept: no directory I/O after.
//  3. The module read. PDS: channel programs of chained Read Data commands from the
//     member's first record (PDS2TTRP): Seek, Search ID Equal, then Read Data
//     multitrack for each further record; a channel program ends at the member's
//     end-of-file record or at the cylinder's end (a multitrack read stops there: the
//     next channel program seeks to the next cylinder). So a module of one cylinder or
//     less is ONE EXCP (seed 001's 10,006 EXCPs for 5,000 LOADs of IEFBR14: two a LOAD,
//     BLDL's and the module's). The records are processed as the binder wrote them
//     (load_module.h): a control record's CCW places the text record after it, RLD
//     items name the address constants to relocate. PDSE: the program object's
//     descriptor page, then its classes' pages (INITIAL; with FETCHOPT=(PACK,PRIME)
//     DEFERRED too; and B_RLD, the relocation data), each run of consecutive pages in
//     a cylinder one EXCP.
//  4. Relocation, by the guest: each adcon gets the load address added (PDS: the RLD
//     items' adcons in the text; PDSE: B_RLD's items, 16 bytes each, for the part loaded).
//  5. The module's storage in the process's TPF_EVM_FETCHED area; r2 = its entry point.
// The ECB waits for each channel program while its I-stream runs other work: the LOAD
// gives up control, and when the I/O interruption comes its SVC is issued again to go
// on (each re-entry pays system.svc_cost, an SVC's entry and exit). The CPU paths are
// guest code (issue 47: fetch/guest/qcsv.c, the request block and steps of
// fetch/guest/csv.h): the SVC returns with a step for it (the CDEs searched, LLA's
// directory, a directory block's or page's entries compared, control and RLD records
// processed and the adcons relocated in the module's storage, the CDE built), whose
// answer the next SVC carries. So a fetch's CPU is what the guest executes.
//
// A library that cannot be read ends that LOAD with an abend dump of the ECB (ABEND
// 806-04 for a name not in the directory; 106-0D a record that is not a load module's,
// 106-0E an address outside the module, 106-0F an I/O error: z/OS MVS System Codes,
// 106 and 806); the run goes on.
#pragma once
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "emu/elf_loader.h"
#include "emu/io.h"
#include "fetch/fetch_config.h"
#include "fetch/library_image.h"
#include "fetch/library_tracks.h"
#include "fetch/load_module.h"
#include "fetch/module_reader.h"
#include "flashsim/ckd.h"
#include "os/subsystem.h"

namespace fetch {

// One channel program on the library's volume, as the machine's I/O path carries it.
struct ChannelProgram : emu::IoOperation {
  std::vector<flashsim::ckd::Ccw> ccws;
  flashsim::ckd::Result result;
};

// The library's volume on a subchannel: machine cycles to the volume's nanoseconds and
// back. Starts reach it in the order they are made; one earlier than the last is taken
// at the last's time (the volume takes channel programs in time order).
class LibraryDevice : public emu::IoDevice {
 public:
  LibraryDevice(std::string name, const flashsim::ckd::CkdTracks& tracks, flashsim::ckd::CkdConfig cfg, double ghz)
      : name_(std::move(name)), volume_(tracks, cfg), ghz_(ghz) {}
  std::string name() const override { return name_; }
  emu::IoResult start(uint64_t now, emu::IoOperation& op) override;
  const flashsim::ckd::CkdVolume& volume() const { return volume_; }
  uint64_t ns_of(uint64_t cycles) const { return uint64_t(double(cycles) / ghz_); }
  uint64_t cycles_of(uint64_t ns) const { return uint64_t(double(ns) * ghz_ + 0.999999); }

 private:
  std::string name_;
  flashsim::ckd::CkdVolume volume_;
  double ghz_;
  uint64_t last_ns_ = 0;
};

// What fetch did for one module name, over the run.
struct ModuleStats {
  uint32_t size = 0;                    // bytes of the module (its directory entry's)
  uint64_t loads = 0;                   // LOADs that returned it
  uint64_t fetches = 0;                 // of those, read from the library
  uint64_t resident = 0;                // of those, already loaded in the process (use count raised)
  uint64_t from_lla = 0;                // of those, copied from LLA's staged module
  uint64_t bldls = 0;                   // BLDL requests (TPF_SVC_BLDL)
  uint64_t excps = 0, directory_blocks = 0, records = 0, bytes = 0, rld_items = 0;
  uint64_t directory_from_lla = 0;      // directory searches LLA answered
  uint64_t io_ns = 0;                   // the volume's time for its channel programs
  uint64_t cpu_cycles = 0;              // the ECB's CPU from the SVC to its return: the guest's path (qcsv) and the SVCs
  uint64_t elapsed_cycles = 0;          // from the LOAD's SVC to its return, summed
  uint64_t deletes = 0, abends = 0;
  uint64_t waits = 0;                   // ECBs that referenced it while another's fetch of it was under way
  uint64_t deferred_faults = 0;         // references that brought in a page of a DEFERRED class (PDSE)
};

// One ECB that used program fetch, when it ended: the seed's job figures.
struct JobStats {
  uint64_t ecb = 0;
  std::string program;
  uint64_t loads = 0, deletes = 0, excps = 0;
  uint64_t cpu_cycles = 0, elapsed_cycles = 0;
};

class ProgramFetch : public os::Subsystem {
 public:
  void declare(cfg::Schema& schema) const override { fetch_section().declare(schema); }
  void configure(const cfg::Config& config) override { config_ = fetch_section().read(config); }
  void install(os::System& system) override;
  void process_starting(os::Process& p) override;
  void process_ending(os::Process& p) override;
  void ecb_ending(os::Ecb& e, uint64_t now) override;
  // A reference to a page of a program of system.fetch.programs that is not resident yet:
  // its fetch (the ECB waits for each I/O; the reference runs again after).
  emu::PageFaultHandler::Action page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) override;

  const std::map<std::string, ModuleStats>& modules() const { return modules_; }
  const std::vector<JobStats>& jobs() const { return jobs_; }
  JobStats jobs_total() const;  // the jobs' figures summed (E5's headline)
  std::string report_text() const;
  nlohmann::ordered_json report_json() const;

 private:
  double seconds(uint64_t cycles) const;  // simulated, at the machine's clock
  enum class Kind { Load, Bldl, Enter, Deferred };
  enum class Phase { Directory, Module, Done };
  struct Entry {
    bool found = false, alias = false;
    Ttr ttr;                         // PDS: the member's first record
    uint32_t size = 0, entry = 0;    // PDS2STOR, PDS2EPA
    uint32_t descriptor = 0;         // PDSE: the program object's descriptor page
  };
  // PDSE pages to read: a class's; text_bytes of them land at `dest` in the module;
  // rld_bytes of them are B_RLD's items (for the guest to relocate with).
  struct PageRun { uint32_t first = 0, count = 0, text_bytes = 0, dest = 0, rld_bytes = 0; };
  // A LOAD or BLDL between its channel programs.
  struct Pending {
    Kind kind = Kind::Load;
    std::string name;
    os::Ecb* ecb = nullptr;
    os::WaitList waiters;
    Phase phase = Phase::Directory;
    uint64_t started = 0;            // cycles: its first SVC
    uint64_t cpu_start = 0;          // the ECB's CPU cycles then
    uint64_t cpu_cycles = 0;         // the ECB's CPU from then to its end (abends)
    // The guest's side (fetch/guest/csv.h): its request block, the step asked of it.
    uint64_t request = 0;
    uint32_t asked = 0, ask_count = 0;
    uint64_t ask_data = 0;
    std::vector<uint8_t> block;      // the directory block or page handed to the guest
    bool resident = false;           // the guest found the process's CDE
    bool staged = false;             // LLA's staged copy taken
    bool cde_built = false;
    uint64_t relocated = 0;          // adcons the guest relocated
    // The module's storage.
    uint64_t module_at = 0, module_bytes = 0;
    uint32_t module_size = 0, loaded_bytes = 0;
    std::vector<PageRun> deferred;   // PDSE: DEFERRED classes left for their first reference
    uint64_t fault_page = 0;         // Deferred: the page referenced
    uint32_t deferred_first_byte = 0;
    std::string error_code, error;   // an abend's code ("806-04") and what went wrong, when it failed
    std::shared_ptr<ChannelProgram> io;
    bool started_directory = false;
    uint32_t directory_cylinder = 0;  // PDS: cylinders of the directory already searched
    uint32_t pdse_page = 0;          // PDSE: the directory page to look at next (0: the header)
    Entry entry;
    // The module read.
    std::vector<uint8_t> image;      // the module's bytes as loaded
    std::vector<uint32_t> adcons;    // PDS: offsets of the adcons the RLD items name (from the reader)
    uint64_t rld_items = 0;
    bool module_started = false, module_ended = false;
    Ttr next;                        // PDS: where the next channel program begins
    Ttr at;                          // PDS: the TTR of the record being processed (messages)
    std::unique_ptr<ModuleReader> reader;   // PDS: the member's records as they come
    bool descriptor_read = false;    // PDSE
    std::vector<PageRun> runs;       // PDSE: page runs still to read
  };
  // A module loaded in a process.
  struct Loaded {
    uint64_t address = 0, bytes = 0;
    uint32_t size = 0, entry = 0;
    uint64_t uses = 0;               // the host's copy of the CDE's (the guest's is the one used)
    std::vector<PageRun> deferred;   // PDSE DEFERRED classes not yet referenced
  };
  // A program of the image fetched at its first reference (system.fetch.programs).
  struct Fetchable {
    uint64_t slot = 0;                 // its first page
    std::vector<uint64_t> pages;       // its read-only pages, withdrawn until it is fetched
    bool resident = false;
    uint64_t fetcher = 0;              // the ECB fetching it (0: none)
    os::WaitList waiters;              // other ECBs that referenced it meanwhile
  };
  struct Area {
    uint64_t next = TPF_EVM_FETCHED + 0x200000;   // after the work area (fetch/guest/csv.h: CSV_AREA_END)
    std::multimap<uint64_t, uint64_t> given_back;   // bytes -> address
  };

  void svc(emu::Cpu& cpu, os::Ecb& e, Kind kind);
  void delete_svc(emu::Cpu& cpu, os::Ecb& e);
  bool begin(emu::Cpu& cpu, os::Ecb& e, Kind kind);
  enum class Step { Parked, Finished, Failed, Guest };
  Step advance(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  void consume(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  // The guest's steps.
  static uint64_t ecb_cpu(const emu::Cpu& cpu, const os::Ecb& e);
  void ask(os::Ecb& e, Pending& p, uint32_t step, const std::vector<uint8_t>& bytes, uint32_t count, uint64_t at);
  void put_request(os::Ecb& e, const Pending& p, uint32_t step);
  void hand_to_guest(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  int64_t guest_answer(os::Ecb& e, const Pending& p);
  void take_answer(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  void look_in_lla(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  void take_lla_entry(emu::Cpu& cpu, Pending& p);
  bool obtain_storage(os::Ecb& e, Pending& p, uint32_t size, uint32_t loaded);
  void done(emu::Cpu& cpu, os::Ecb& e, Pending& p, ModuleStats& m);
  emu::PageFaultHandler::Action deferred_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address);
  void deferred_page(os::Ecb& e, Pending& p, const flashsim::ckd::Result& r);
  void start(emu::Cpu& cpu, os::Ecb& e, Pending& p, std::vector<flashsim::ckd::Ccw> ccws);
  void io_done(uint64_t ecb, const emu::IoInterruption& i);
  void finish(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  bool finish_enter(emu::Cpu& cpu, Pending& p);
  void take_module(Pending& p);
  std::vector<MemberSpec> image_programs(os::System& system);
  void charge(emu::Cpu& cpu, Pending& p, uint64_t cycles);
  void fail(Pending& p, const std::string& code, const std::string& why);
  void end_with_abend(emu::Cpu& cpu, os::Ecb& e, Pending& p);
  void count_abend(const Pending& p);

  // The steps' channel programs and what their records mean.
  std::vector<flashsim::ckd::Ccw> bldl_program(const std::string& name, uint32_t cylinder) const;
  std::vector<flashsim::ckd::Ccw> chained_read(Ttr from, uint32_t records) const;
  void directory_block(os::Ecb& e, Pending& p, const std::vector<uint8_t>& block);
  void take_pds_entry(Pending& p, const std::vector<uint8_t>& block, int64_t at);
  void pdse_directory_page(os::Ecb& e, Pending& p, const std::vector<uint8_t>& page);
  void take_pdse_entry(Pending& p, const std::vector<uint8_t>& page, int64_t i);
  void module_records(os::Ecb& e, Pending& p, const flashsim::ckd::Result& r);
  void pdse_descriptor(Pending& p, const std::vector<uint8_t>& page);
  std::string where(Ttr ttr) const;
  std::string dump_text(const Pending& p, const os::Ecb& e, unsigned istream) const;
  void count_job(os::Ecb& e, uint64_t excps, bool load, bool del);

  os::System* system_ = nullptr;
  FetchConfig config_;
  LibraryVolume volume_;
  std::unique_ptr<LibraryTracks> tracks_;
  std::unique_ptr<LibraryDevice> device_;
  unsigned subchannel_ = 0;
  std::string library_check_;                // "" or what check_library found wrong (run.log)
  uint32_t tracks_used_ = 0;
  std::map<uint64_t, Pending> pending_;      // ECB id ->
  std::map<uint64_t, std::map<std::string, Loaded>> loaded_;   // process id -> name ->
  std::map<uint64_t, Area> areas_;           // process id ->
  std::map<std::string, Entry> lla_directory_;
  std::map<std::string, std::vector<uint8_t>> lla_modules_;    // images before relocation
  std::map<uint32_t, std::vector<uint8_t>> pdse_directory_;    // PDSE directory pages in storage
  std::map<std::string, ModuleStats> modules_;
  std::map<std::string, Fetchable> fetchable_;
  std::map<uint64_t, std::string> fetchable_page_;          // page address -> program
  std::map<uint64_t, JobStats> running_jobs_;
  std::vector<JobStats> jobs_;
  uint64_t excps_ = 0, loads_ = 0, abends_ = 0;
};

}  // namespace fetch
