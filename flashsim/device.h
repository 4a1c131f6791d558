// flashsim: block devices for the machine's asynchronous I/O path. Host C++,
// deterministic, knows devices and blocks, nothing of pages.
//
// THE CONTRACT (every Device):
//   Completion c = device.submit(now_ns, request);
//   - `now_ns` is simulated time in nanoseconds. Requests are submitted in
//     non-decreasing `now_ns` order (the machine submits from its event loop, whose
//     clock never goes back). A request submitted earlier than the one before gets
//     Status::TimeOrder, it is not performed.
//   - submit() returns at once with the completion: its simulated completion time
//     `time_ns` (>= now_ns) and its status. The device keeps its own busy and queue
//     state (card slots, links, volume servers), so the completion time already
//     includes the queueing behind everything submitted before. The caller schedules
//     the completion as an event at `time_ns` on its own queue and must not look at
//     the data before then.
//   - Data moves at submit(): a read copies the contents into the blocks' buffers, a
//     write copies them out of the buffers (the caller owns the buffers; `data` may
//     be nullptr for timing only: a read then copies nothing, a write marks the
//     block as holding data whose contents read back as zeroes).
//   - A bad request (see Status) is rejected as a whole: nothing moves, the status
//     names the block (MSB) and the address, `time_ns` is now_ns plus the device's
//     fixed request overhead. Nothing throws out of submit().
//   - Same request stream, same completions: nothing depends on the host (no clock,
//     no unseeded randomness, no pointer values).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace flashsim {

inline constexpr uint32_t kBlock4K = 4096;
inline constexpr uint32_t kBlock1M = 1u << 20;

enum class Op : uint8_t { Read, Write, Clear, Release };
const char* op_name(Op op);

// One block of a request: an EADM MSB (move-specification block) for SCM, one 4 KB
// record of the channel program for DASD.
struct Block {
  Op op = Op::Read;
  uint64_t address = 0;       // byte address in the device's address space, aligned to size
  uint32_t size = kBlock4K;   // kBlock4K or kBlock1M (DASD: kBlock4K only)
  uint8_t* data = nullptr;    // caller's buffer of `size` bytes, or nullptr (timing only)
};

// One request: an EADM AOB (up to 124 MSBs) or one DASD channel program.
struct Request {
  uint64_t tag = 0;           // the caller's, returned in the completion
  std::vector<Block> blocks;
};

enum class Status : uint8_t {
  Ok,
  EmptyRequest,       // no blocks
  TooManyBlocks,      // more blocks than the device takes in one request (SCM: 124 MSBs)
  BadBlockSize,       // size not 4 KB / 1 MB, or 1 MB on a device that takes 4 KB only
  Misaligned,         // address not a multiple of the block size
  BeyondOnline,       // SCM: address beyond the defined/online increments; DASD: beyond the volume
  IncrementOffline,   // SCM: the address is in an offline (offline-available) increment
  PendingOffline,     // SCM: a write into an increment that is pending offline
  PairFailed,         // SCM: both cards of the block's card pair have failed
  NotSupported,       // the device does not do this operation
  TimeOrder,          // submitted earlier than the previous request (contract violation)
};
const char* status_name(Status s);

struct Completion {
  uint64_t tag = 0;
  uint64_t submit_ns = 0;   // when it was submitted
  uint64_t start_ns = 0;    // when the device began serving it (after queueing)
  uint64_t time_ns = 0;     // when it completes: schedule the interrupt here
  Status status = Status::Ok;
  int block = -1;           // index of the failing block (MSB), -1 if none
  std::string error;        // e.g. "MSB 3: address 0x1400000000 is in increment 80G, which is offline"
  bool ok() const { return status == Status::Ok; }
};

// Response-time histogram: log buckets (16 per power of two, under 4.5% wide),
// deterministic and of fixed size whatever the number of requests.
class Histogram {
 public:
  void add(uint64_t v);
  uint64_t count() const { return n_; }
  // The q-quantile (0 < q <= 1): the upper bound of the bucket holding it, capped at the maximum seen.
  uint64_t quantile(double q) const;
  uint64_t max() const { return max_; }
 private:
  static constexpr int kSub = 16;
  static unsigned bucket(uint64_t v);
  static uint64_t upper(unsigned b);
  std::array<uint64_t, 64 * kSub> counts_{};
  uint64_t n_ = 0, max_ = 0;
};

struct DeviceStats {
  uint64_t requests = 0;          // submitted, including rejected ones
  uint64_t errors = 0;            // rejected requests
  uint64_t blocks_4k = 0, blocks_1m = 0;
  uint64_t reads = 0, writes = 0, clears = 0, releases = 0;   // blocks by operation
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t busy_ns = 0;           // time with at least one request in the device (queued or served)
  uint64_t wait_ns_sum = 0;       // sum over requests of start - submit (queueing)
  uint64_t response_ns_sum = 0;   // sum over requests of completion - submit
  // A DASD volume's service time split as RMF's device activity splits it, summed over
  // requests (the parts of its timing formula, dasd.h): PEND the start I/O, channel and
  // control-unit overhead; DISC the read misses staged from the drive; CONN the records
  // moved. A device without the split (SCM) leaves `split` false and these 0.
  bool split = false;
  uint64_t pend_ns_sum = 0, disc_ns_sum = 0, conn_ns_sum = 0;
  uint64_t last_completion_ns = 0;
  Histogram response;             // of successful requests
  std::map<int, uint64_t> errors_by_status;             // Status -> count
};

// Sparse contents in 4 KB units: memory only for what is written, compressed (zstd; a
// unit that does not compress is kept as it is; a unit of evenly spaced 8-byte words,
// such as pointers or words holding their own addresses, as the differences of its
// words first, which zstd then takes to less than half the bytes: E3's region pages). A write without data, of zeroes, or of
// a unit that was never written costs one map entry. Unwritten, cleared and released
// units read as zeroes. What it holds depends on the data alone: bytes_allocated() is
// the same on every host with the same zstd level (the reports show it).
class SparseStore {
 public:
  // Returns how many of the 4 KB units were not holding data before.
  uint64_t write(uint64_t address, uint32_t size, const uint8_t* data);
  void read(uint64_t address, uint32_t size, uint8_t* out) const;
  // Forgets the units; returns how many were holding data.
  uint64_t erase(uint64_t address, uint32_t size);
  uint64_t units_held() const { return units_.size(); }
  uint64_t bytes_allocated() const { return allocated_bytes_; }
  uint64_t units_with_data() const { return allocated_; }  // not all zeroes
 private:
  struct Unit {
    std::unique_ptr<uint8_t[]> bytes;  // null: zeroes
    uint32_t size = 0;                 // kBlock4K: kept as it is; less: zstd's frame
    bool differences = false;          // the frame holds the words' differences (delta_words)
  };
  void set(Unit& u, const uint8_t* data);  // data: kBlock4K bytes, or nullptr for zeroes
  std::unordered_map<uint64_t, Unit> units_;   // 4 KB unit number -> its contents
  uint64_t allocated_ = 0, allocated_bytes_ = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  const std::string& name() const { return name_; }
  virtual const char* kind() const = 0;             // "scm" or "dasd"
  virtual Completion submit(uint64_t now_ns, const Request& req) = 0;
  // Device-specific lines for the reports (cards, increments, cache hits).
  virtual std::vector<std::string> detail_lines() const { return {}; }
  const DeviceStats& stats() const { return stats_; }
  // Bytes of host memory the contents take (for the sparseness test and reports).
  virtual uint64_t contents_bytes() const = 0;
  // Bytes of the device that hold something written (4 KB units), zeroes included.
  virtual uint64_t contents_written() const = 0;
  // What the device holds at [address, address+size), without a request or simulated
  // time (the host's own look, e.g. a paging subsystem restoring a page a host-side
  // service touches). Unwritten bytes read as zeroes.
  virtual void peek(uint64_t address, uint32_t size, uint8_t* out) const = 0;
  // Puts `data` at [address, address+size) without a request or simulated time, as the
  // device's contents: a page data set formatted and filled before the measured run (z/OS
  // writes the PLPA to its data sets at IPL, and the seed's RMF shows them full with no
  // I/O). It counts in no statistic; the caller keeps it within the device's addresses.
  virtual void poke(uint64_t address, uint32_t size, const uint8_t* data) = 0;

 protected:
  explicit Device(std::string name) : name_(std::move(name)) {}
  // Bookkeeping common to every device: call once per request with its result.
  void account(const Request& req, const Completion& c);
  // A rejected request's completion.
  Completion reject(uint64_t now_ns, const Request& req, uint64_t overhead_ns, Status s, int block,
                    std::string error);
  bool check_order(uint64_t now_ns) {
    if (now_ns < last_submit_ns_) return false;
    last_submit_ns_ = now_ns;
    return true;
  }
  std::string name_;
  DeviceStats stats_;
  uint64_t last_submit_ns_ = 0;
  uint64_t busy_until_ns_ = 0;
};

// How the text report writes its numbers: the caller's style (flashsim depends on
// nothing; the emulator passes its own, thousands grouped). Plain by default.
struct NumberStyle {
  std::function<std::string(uint64_t)> whole = [](uint64_t v) { return std::to_string(v); };
  std::function<std::string(double v, int digits)> decimal;  // empty: printf's %.*f
};

// Reports over a list of devices, for `elapsed_ns` of simulated time:
// devices.txt (a table and each device's detail lines) and its JSON twin.
void write_devices_text(std::ostream& out, const std::vector<const Device*>& devices, uint64_t elapsed_ns,
                        const NumberStyle& style = {});
void write_devices_json(std::ostream& out, const std::vector<const Device*>& devices, uint64_t elapsed_ns);

// "0x1400000000"
std::string hex(uint64_t v);

}  // namespace flashsim
