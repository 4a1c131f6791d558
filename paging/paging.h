// Paging as a subsystem of the control program (RSM and ASM, in z/OS's terms): real
// storage for the ECBs' pageable pages runs out; the least recently used pages (by an
// unreferenced-interval count from the reference bits DAT sets) are stolen, a changed
// one written to auxiliary storage in groups, an unchanged one with a valid copy just
// freed, one never stored into discarded; a page fault on a page that is out makes its
// ECB wait for the page-in (with the rest of its group, speculatively, on SCM) while its
// I-stream runs others. D ASM, paging.txt with RMF's page data set activity:
// paging_reports.cpp. The devices are devices/'s.
//
// Placement, by the seed's rules (its "Flash vs Disk Placement Criteria"):
// - PLPA-like pages (system.paging.pageable_programs: the program image's read-only
//   pages): written at IPL to SCM and to the PLPA page data set, never again; stolen
//   without a write, read back from SCM or, without an SCM copy, from DASD
//   (paging_plpa.cpp);
// - VIO-like pages (GETSTOR_VIO storage): DASD only, the page volumes that accept VIO
//   first (system.paging.vio_volumes), the others for the spillover;
// - pageable 1 MB pages (the ECB heap's): out whole to SCM, or demoted to 4 KB pages
//   (paging_large.cpp);
// - all other data: SCM while it has room, by measured speed (self-tuning), else the
//   local page data sets in turn.
//
// A GETSTOR that real storage cannot take waits for the page-outs on their way (frame
// waits). SVC dumps: svc_dump.cpp. Not yet: common-area pages (nothing here is common
// storage but the shared system area, which stays fixed). Page waits are the control
// program's (os/cpu_loop.cpp: an I-stream idle while its ECBs wait for page-ins).
#pragma once
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "devices/devices.h"
#include "paging/aging_index.h"
#include "paging/page_table.h"
#include "os/subsystem.h"
#include "paging/paging_config.h"
#include "paging/standalone_dump.h"
#include "paging/svc_dump.h"
#include "report/report_json.h"

namespace paging {

struct PagingStats {
  uint64_t scans = 0;            // steal passes
  uint64_t stolen = 0;           // pages taken from their processes
  uint64_t written = 0;          // pages written to auxiliary storage
  uint64_t freed_clean = 0;      // stolen pages whose copy on auxiliary storage was still valid
  uint64_t freed_zero = 0;       // stolen pages never changed and never written: zero pages again on a fault
  uint64_t write_ios = 0;        // page-out requests (AOBs, channel programs)
  uint64_t page_ins = 0;         // pages read back on a fault
  uint64_t speculative = 0;      // pages read with them: written in the same request (SCM only)
  uint64_t large_out = 0, large_in = 0;  // pageable 1 MB pages written to and read from SCM
  uint64_t demoted = 0;          // 1 MB pages turned into 4 KB pages (no SCM room, or no 1 MB frame)
  uint64_t fixed_pages = 0;      // 4 KB pages page-fixed by a subsystem (a fixed 1 MB page: 256), never stolen
  uint64_t reclaims = 0;         // faults on a page still being written: taken back without I/O
  uint64_t fault_waits = 0;      // faults that waited for a page-in (the first and those joining it)
  uint64_t host_restores = 0;    // pages a host-side service touched while out: put back at once
  uint64_t page_in_cycles = 0;   // sum of page-in times (start to completion)
  uint64_t page_in_max_cycles = 0;
  uint64_t scm_pages = 0, dasd_pages = 0;  // pages written to each kind
  uint64_t slots_high = 0;       // most slots in use at once
  uint64_t write_bound = 0;      // candidates passed over: page-out requests at system.paging.max_writes
  // GETSTORs that waited for frames (page-outs on their way), each once however often
  // the page-outs' completions woke it to ask again (a first reference never waits).
  uint64_t frame_waits = 0;
  uint64_t frame_wait_cycles = 0;  // their waits' time (the first park to the frames taken)
  uint64_t frame_wait_parks = 0;   // their parks (one woken without its frames parks again)
  uint64_t first_references = 0;  // faults on the first reference to a page (LE's, the ECB stack's and heap's, a LOAD's)
  uint64_t first_reference_cycles = 0;  // what they charged
  uint64_t pages_in[2] = {0, 0};  // pages read from SCM and from DASD (faults, speculative, 1 MB, dumps)
  // PLPA-like pages (system.paging.pageable_programs): the image's read-only pages.
  uint64_t plpa_pages = 0;       // pages of the image, each on the PLPA data set from IPL
  uint64_t plpa_scm_copies = 0;  // of those, with a copy on SCM from IPL
  uint64_t plpa_stolen = 0;      // stolen (in `stolen`): never written, their copies valid
  uint64_t plpa_in_scm = 0, plpa_in_dasd = 0;  // read back (in `page_ins`), from SCM and from DASD
  uint64_t plpa_scm_failed = 0;  // reads from SCM that failed: read again from the PLPA data set
  uint64_t plpa_changed = 0;     // passed over: changed since IPL (a host-side write), copies stale
  uint64_t plpa_wrong = 0;       // read back unlike what the image holds (lost: must stay 0)
  // Common pages (system.paging.pageable_common): the shared area's.
  uint64_t common_pages = 0;     // pages of the shared area, pageable
  uint64_t common_stolen = 0;    // stolen (in `stolen`)
  uint64_t common_written = 0;   // of those, written to the COMMON data set (in `written`, `dasd_pages`)
  uint64_t common_write_ios = 0; // their page-out requests (in `write_ios`)
  uint64_t common_in = 0;        // read back from the COMMON data set on a fault (in `page_ins`)
  uint64_t common_unchanged = 0; // back on a fault without I/O: unchanged since IPL, never written
  uint64_t common_reclaims = 0;  // faults on a common page still being written: taken back (in `reclaims`)
  uint64_t common_kept = 0;      // changed common pages passed over: the COMMON data set was full
  uint64_t common_wrong = 0;     // read back unlike what the frame holds (lost: must stay 0)
  // VIO-like pages (GETSTOR_VIO storage): page data sets only.
  uint64_t vio_written = 0;      // written (in `written` and `dasd_pages`)
  uint64_t vio_spilled = 0;      // of those, to data sets that do not accept VIO (the rest were full)
  uint64_t vio_kept = 0;         // VIO pages passed over (each once): no page data set room for them
};

class Paging : public os::Subsystem {
  static constexpr uint64_t kPage = emu::kPageSize;
  static constexpr uint64_t kSegment = emu::kSegmentSize;
  static constexpr uint64_t kPagesPerSegment = emu::kPagesPerSegment;

 public:
  Paging();
  ~Paging() override;
  void declare(cfg::Schema& schema) const override { paging_section().declare(schema); }
  void configure(const cfg::Config& config) override { config_ = paging_section().read(config); }
  void install(os::System& system) override;
  // D ASM (IEE200I) and D ASM,SCM (IEE207I)
  os::OperatorGrammars operator_grammars() const override;
  // Paging watches a process from its start: its stores set change bits from the first.
  void process_starting(os::Process& p) override {
    if (config_.real_storage) adopt(p);
  }
  void process_ending(os::Process& p) override;
  emu::PageFaultHandler::Action page_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t address) override;
  // The first reference to a page reserved with first_reference_faults
  // (emu::AddressSpace::reserve): a frame from the free list, cleared, mapped; Fail if
  // `address` is not such a page.
  emu::PageFaultHandler::Action first_reference(emu::Cpu& cpu, os::Ecb& e, uint64_t address);
  bool frames_wanted(emu::Cpu& cpu, os::Ecb& e, uint64_t frames) override;
  void pages_fixed(os::Process& p, uint64_t va, uint64_t len) override;

  const PagingStats& stats() const { return stats_; }
  // An SVC dump of the processes whose job name (first program) is one of `names`, at
  // `now`: the console's answer (one starting with ERROR: not taken).
  std::string request_dump(const std::string& title, const std::string& by, const std::vector<std::string>& names,
                           uint64_t now);
  const std::vector<SvcDumpRecord>& dumps() const { return dumps_; }
  // A page data set (or SCM) as the reports name it. data_sets() is the one list of
  // them, in the order D ASM, RMF's page data set activity and PGSP show them
  // (paging_reports.cpp): a data set added there appears in all of them.
  struct DataSet {
    size_t device = 0;  // its index in the per-device figures (0: SCM)
    std::string type;   // PLPA, COMMON, LOCAL or SCM
    std::string serial, number, device_type, name;  // volume serial, device number (hex), 3390 model, DSN
    bool vio = false;   // accepts VIO pages
  };
  std::vector<DataSet> data_sets() const;
  uint64_t slots_in_use() const { return slots_used_; }  // on every device, now
  // The operator's SADMP at `now`: the system stops for good (standalone_dump.cpp).
  // Its answer's lines: one starting with ERROR if not taken.
  std::vector<std::string> request_sadmp(const std::string& title, uint64_t now);
  const SadmpRecord* sadmp() const;

 private:
  // Zero: never changed and never written out; it comes back as a zero page on its
  // fault, without I/O (GETSTOR maps its frames at once, z/OS at the first touch).
  enum class State : uint8_t { Resident, Out, Writing, Reading, Zero };
  struct Slot {
    int device = -1;       // 0: SCM, 1 + k: page volume k; -1: none
    uint64_t address = 0;  // its 4 KB block on the device
  };
  // One for every page paging has seen (millions at full size), so kept small: 72 bytes,
  // and nothing on the heap beside it but while the page is on its way in or out.
  struct Page {
    State state = State::Resident;
    uint8_t prot = 0;
    bool vio_kept = false;                         // a VIO page once passed over: no page data set room
    AgingState aging;                              // its unreferenced interval count (aging_)
    Slot slot;                                     // the copy on auxiliary storage (valid unless Writing)
    std::shared_ptr<std::vector<uint8_t>> buffer;  // Writing / Reading: the contents on their way
    // Reading: ECBs waiting for it, made when the first parks (waiting_list): an empty
    // std::deque takes about 690 host bytes, which every page used to carry (issue 44).
    std::unique_ptr<os::WaitList> waiters;
    uint64_t group = 0;                            // Out / Writing: the page-out request it went in
  };
  static_assert(sizeof(Page) <= 72, "a page record is kept small: there are millions at full size");
  static os::WaitList& waiting_list(Page& pg) {
    if (!pg.waiters) pg.waiters = std::make_unique<os::WaitList>();
    return *pg.waiters;
  }
  struct ProcessPages {
    os::Process* process = nullptr;
    PageTable<Page> pages;           // by virtual address; pages paging has seen
    std::map<uint64_t, Page> large;  // pageable 1 MB pages (large segments), by virtual address
    std::set<uint64_t> fixed;        // page-fixed 1 MB segments (System::fix_pages), by virtual address
    bool is_fixed(uint64_t va) const { return !fixed.empty() && fixed.count(va & ~(kSegment - 1)); }
    uint64_t pages_in = 0;           // pages read back into it from auxiliary storage (RMF's PGIN)
  };

  void check(uint64_t now);
  uint64_t available_frames() const;
  uint64_t coming_frames() const;
  void steal(uint64_t frames, uint64_t now, bool tick);
  enum class Kind : uint8_t { Small, Large, Program };  // a 4 KB page, a 1 MB page, a PLPA page
  void age(bool tick);
  uint64_t aging_interval_ = 0, next_aging_ = 0;  // system.paging.uic_interval, in cycles
  // The pages' counts and the steal order, changed only where the machine's logs say
  // (paging/aging_index.h).
  AgingIndex aging_;
  // The pages a pass visits: (process id, address; + 1 for a large segment).
  struct PageRef {
    uint64_t pid = 0, va = 0;
    auto operator<=>(const PageRef&) const = default;
  };
  std::vector<PageRef> to_visit_;
  // Which page each frame holds (by frame number; a large segment at its first frame),
  // as of the last look at the page's mapping: a frame in the reference log is visited
  // through it. pid + 1 (0: none). A stale entry only makes a spurious visit. In chunks
  // made as frames in them are noted (1 MB frames come from the top of storage).
  static constexpr uint64_t kOwnerChunk = 1 << 14;
  std::vector<std::unique_ptr<std::array<PageRef, kOwnerChunk>>> owners_;
  PageRef* owner_of(uint64_t frame, bool make);
  std::vector<uint64_t> log_;  // a log being read (its memory kept)
  void page_logged(ProcessPages& pp, uint64_t v);  // a page of the space's page log, or one to look at
  void log_all(ProcessPages& pp);
  std::set<uint64_t> live_;  // the processes the last pass walked (those with ECBs)
  void visit_small(ProcessPages& pp, uint64_t va);
  void visit_large(ProcessPages& pp, uint64_t va);
  bool stealing_ = false;
  ProcessPages& adopt(os::Process& p);
  int choose_device(size_t n);
  int choose_vio_device(size_t& n);
  enum class LargeSteal { Taken, Demoted, Kept };
  LargeSteal steal_large(ProcessPages& pp, uint64_t va, uint64_t now, bool may_write);
  Slot new_large_slot();
  void free_large_slot(const Slot& s);
  void put_back_large(ProcessPages& pp, uint64_t va, Page& sg, const uint8_t* data);
  emu::PageFaultHandler::Action large_fault(emu::Cpu& cpu, os::Ecb& e, ProcessPages& pp, uint64_t va, Page& sg);
  Slot new_slot(int device);
  void free_slot(const Slot& s);
  void write_out(std::vector<std::pair<ProcessPages*, uint64_t>>& batch, uint64_t now, bool vio);
  bool restore(ProcessPages& pp, uint64_t vaddr);  // host side, at once
  void put_back(ProcessPages& pp, uint64_t vaddr, Page& pg, const uint8_t* data);
  unsigned subchannel(const Slot& s) const;
  flashsim::Device& device(const Slot& s) const;
  void write_text(std::ostream& out) const;
  void add_timeline_columns(os::System& system);
  std::vector<std::string> display_asm(uint64_t ns);
  std::vector<std::string> display_asm_scm(uint64_t ns);
  uint64_t capacity(size_t device) const;  // slots the device offers paging
  bool has_room(size_t device, size_t n) const { return used_[device] + n <= capacity(device); }
  bool accepts_vio(size_t device) const { return device >= 1 && device - 1 < vio_volumes(); }
  uint64_t vio_volumes() const;  // page volumes that accept VIO pages (the first ones)
  bool is_vio(const ProcessPages& pp, uint64_t va) const;
  bool shows_vio() const { return config_.vio_volumes != ~0ull || stats_.vio_written || stats_.vio_kept; }
  void write_json(std::ostream& out) const;
  void write_first_references_text(std::ostream& out) const;  // real storage not modelled
  void write_first_references_json(std::ostream& out) const;

  devices::DeviceSubsystem* devices_ = nullptr;  // the run's devices (System::find_subsystem, at install)
  os::System* system_ = nullptr;
  PagingConfig config_;
  PagingStats stats_;
  uint64_t budget_frames_ = 0, fixed_frames_ = 0;
  uint64_t writing_frames_ = 0;  // frames of pages being written out (free when the write completes)
  uint64_t writes_in_flight_ = 0;  // page-out requests not complete
  os::WaitList frame_waiters_;     // ECBs whose GETSTOR waits for frames
  // Their GETSTORs by ECB id: the cycle each first parked (one wait however often it asks again).
  std::map<uint64_t, uint64_t> frame_wait_began_;
  void frames_freed(uint64_t now);
  std::map<uint64_t, ProcessPages> processes_;  // by process id
  // Slots: the next never-used block and the freed ones, per device.
  std::vector<uint64_t> next_block_;
  std::vector<std::vector<uint64_t>> free_blocks_;
  uint64_t slots_used_ = 0;
  std::vector<uint64_t> used_;  // slots in use per device
  // RMF's page data set activity, per device: sampled every check interval.
  struct Activity {
    uint64_t ios = 0, pages = 0, io_cycles = 0;  // paging's requests, pages moved, their time
    uint64_t in_flight = 0;                      // requests not complete
    uint64_t used_min = ~0ull, used_max = 0, used_sum = 0, busy_samples = 0;
  };
  std::vector<Activity> activity_;
  uint64_t samples_ = 0;
  // Pages out or being written, by the request that wrote them (speculative page-in).
  std::map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>> groups_;  // -> (process id, page)
  uint64_t next_group_ = 1;
  void leave_group(uint64_t pid, uint64_t va, Page& pg);
  void sample();
  void started(int device, size_t pages);
  void completed(int device, uint64_t cycles, size_t pages);
  double measured_[2] = {0, 0};  // cycles a page, SCM and DASD (moving average)
  uint64_t placed_ = 0;
  void write_rmf(std::ostream& out) const;
  report_json::Json data_sets_json() const;
  void add_placement_json(report_json::Json& j) const;
  unsigned message_number_ = 0;
  double slots_percent(size_t device) const;  // % of its slots in use: D ASM's, PGSP's
  // RMF Monitor III STORF and Monitor II PGSP, a block per timeline interval (rmf_monitors.cpp).
  struct RmfMonitors;
  std::shared_ptr<RmfMonitors> rmf_;  // with system.timeline (shared_ptr: complete only there)
  void install_rmf(os::System& system);
  void rmf_interval(uint64_t now);
  void write_storf_text(std::ostream& out) const;
  void write_storf_json(std::ostream& out) const;
  void write_pgsp_text(std::ostream& out) const;
  void write_pgsp_json(std::ostream& out) const;
  // SVC dumps (svc_dump.cpp): the one in progress, and every dump's record.
  // Pages waiting for the dump volumes (machine.dasd.dump_volumes): an SVC dump's and a
  // stand-alone dump's writes, one channel program at a time on each volume.
  struct DumpVolumeWrites {
    uint64_t to_write = 0;           // pages not yet in a channel program
    std::vector<bool> volume_busy;
    uint64_t next_block = 0;         // on the dump data sets
    uint64_t writes_in_flight = 0;
  };
  // Starts a channel program of up to machine.dasd's max_blocks_per_io pages on each free
  // volume while pages wait (the dump's contents are not kept: the blocks are cleared);
  // `written(n, time)` when one completes, its volume free again.
  void start_dump_writes(DumpVolumeWrites& w, uint64_t now, std::function<void(uint64_t n, uint64_t time)> written);
  struct DumpRun;
  std::unique_ptr<DumpRun> dump_;
  std::vector<SvcDumpRecord> dumps_;
  uint64_t dump_frames_ = 0;  // frames holding captured pages not yet written
  std::string start_dump(const std::string& title, const std::string& by, std::vector<uint64_t> pids, uint64_t now);
  void capture_next(uint64_t now);
  void issue_dump_reads(uint64_t now);
  void end_local_capture(uint64_t now);
  void write_dump(uint64_t now);
  void finish_dump(uint64_t now);
  uint64_t dump_cycles(uint64_t ns) const;
  void sdump(emu::Cpu& cpu, os::Ecb& e);
  void write_dumps_text(std::ostream& out) const;
  std::string dumps_json() const;
  unsigned next_volume_ = 0, next_vio_ = 0, next_nonvio_ = 0;
  // PLPA-like pages (paging_plpa.cpp): the image's read-only pages, by address. The frame
  // of each is set apart for it by its address: it holds the page while the page is out,
  // so a page-in needs no frame, only a place in real storage's budget.
  struct ProgramPage {  // a PLPA page, or (common) a page of the shared area
    bool common = false;
    uint64_t frame = 0;
    State state = State::Resident;  // Resident, Out or Reading
    AgingState aging;
    Slot scm, dasd;                 // PLPA: its copies from IPL (scm: none if SCM had no room); common: its
                                    // copy on the COMMON data set (none: unchanged since IPL)
    std::shared_ptr<std::vector<uint8_t>> buffer;  // Reading: the contents on their way
    os::WaitList waiters;
  };
  std::map<uint64_t, ProgramPage> programs_;
  int plpa_device_ = -1;     // the PLPA data set's device index (after the page volumes)
  uint64_t programs_out_ = 0;  // PLPA pages not resident: their frames are outside the budget
  void ipl_programs();
  bool steal_program(uint64_t va, std::vector<uint64_t>& common_batch);
  // Common pages (paging_common.cpp): the shared area's, on the COMMON data set.
  int common_device_ = -1;     // the COMMON data set's index (on the PLPA volume, after the PLPA)
  uint64_t common_base_ = 0;   // its first block on the volume
  uint64_t base_block(int device) const { return device == common_device_ ? common_base_ : 0; }
  void ipl_common();
  bool steal_common(uint64_t va, ProgramPage& pg, std::vector<uint64_t>& batch);
  void write_common(const std::vector<uint64_t>& batch, uint64_t now);
  emu::PageFaultHandler::Action common_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t va, ProgramPage& pg);
  void take_back_common(uint64_t va, ProgramPage& pg);
  void bring_back_common(uint64_t va, ProgramPage& pg);
  bool restore_common(uint64_t va, ProgramPage& pg);  // host side, at once
  emu::PageFaultHandler::Action program_fault(emu::Cpu& cpu, os::Ecb& e, uint64_t va, ProgramPage& pg);
  void read_program_page(uint64_t va, uint64_t now);
  void bring_back_program(uint64_t va, ProgramPage& pg, const uint8_t* data);
  bool restore_program(uint64_t va);  // host side, at once
  uint64_t large_top_ = 0;  // 1 MB slots are below it, down from the top of paging's SCM
  bool large_top_set_ = false;
  std::vector<uint64_t> free_large_;
  // The stand-alone dump (standalone_dump.cpp): once the operator IPLs it, the system is
  // down (RSM no longer runs: check() does nothing).
  struct SadmpRun;
  std::shared_ptr<SadmpRun> sadmp_;
  void install_sadmp(os::System& system);
  void sadmp_real_storage(SadmpRecord& r);
  void sadmp_paged_out(SadmpRun& d);
  void sadmp_next_batch(uint64_t now);
  void sadmp_write(uint64_t now);
  void write_sadmp_text(std::ostream& out) const;
  std::string sadmp_json() const;
};

}  // namespace paging
