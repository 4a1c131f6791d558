#include "lock/syslog_drain.h"

#include <algorithm>
#include <cstddef>
#include <fmt/format.h>

#include "emu/cpu.h"
#include "os/guest/include/tpf_syslog.h"

namespace lock {
namespace {
const char* const kPriority[8] = {"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"};
constexpr uint64_t kCtl = TPF_SYSLOG_CTL_OFFSET;
}  // namespace

SyslogDrain::SyslogDrain(emu::AddressSpace& shared, uint64_t base, uint64_t tod_base)
    : space_(shared), base_(base), tod_base_(tod_base) {}

uint64_t SyslogDrain::lock_address() const { return base_ + TPF_SYSLOG_LOCK_OFFSET; }

uint64_t SyslogDrain::get(uint64_t addr) {
  uint8_t b[8];
  return space_.read_bytes(addr, b, 8) ? emu::Cpu::load_be<uint64_t>(b) : 0;
}

uint64_t SyslogDrain::drain() {
  ++drains_;
  const uint64_t producer = get(base_ + kCtl + offsetof(tpf_syslog_ctl, producer));
  const uint64_t consumer_at = base_ + kCtl + offsetof(tpf_syslog_ctl, consumer);
  uint64_t consumer = get(consumer_at);
  if (producer - consumer > TPF_SYSLOG_RECORDS) consumer = producer - TPF_SYSLOG_RECORDS;  // corrupt: never overrun
  std::string out;
  const uint64_t start = consumer;
  for (; consumer != producer; ++consumer) {
    uint8_t r[TPF_SYSLOG_RECORD_SIZE];
    uint64_t at = base_ + TPF_SYSLOG_RECORDS_OFFSET + (consumer % TPF_SYSLOG_RECORDS) * TPF_SYSLOG_RECORD_SIZE;
    if (!space_.read_bytes(at, r, sizeof r)) break;
    size_t len = std::min<size_t>(emu::Cpu::load_be<uint16_t>(r + offsetof(tpf_syslog_record, length)),
                                  TPF_SYSLOG_TEXT_MAX);
    uint8_t prio = r[offsetof(tpf_syslog_record, priority)] & 7;
    uint64_t tod = emu::Cpu::load_be<uint64_t>(r + offsetof(tpf_syslog_record, tod));
    tods_.push_back(tod);
    std::string text(reinterpret_cast<const char*>(r + offsetof(tpf_syslog_record, text)), len);
    for (char& c : text)
      if (c == '\n' || c == '\r' || c == '\0') c = ' ';
    // syslog() wrote "<PRI>TIMESTAMP IDENT[ECB]: message"; the file gets the line as a
    // syslog daemon writes it, without the <PRI>. A record without one (written by
    // other guest code) gets the time and priority from the record's fields.
    const size_t close = text.size() > 2 && text[0] == '<' ? text.find('>') : std::string::npos;
    if (close != std::string::npos && close <= 4)
      out += text.substr(close + 1) + "\n";
    else
      out += fmt::format("{:.3f}us {} {}\n", double(tod - tod_base_) / 4096.0, kPriority[prio], text);
  }
  uint8_t b[8];
  emu::Cpu::store_be<uint64_t>(b, consumer);
  space_.write_bytes(consumer_at, b, 8);
  const uint64_t n = consumer - start;
  drained_ += n;
  if (!out.empty()) {
    if (sink_) sink_(out);
    else text_ += out;
  }
  return n;
}

uint64_t SyslogDrain::drained_between(uint64_t from, uint64_t to) const {
  // Not a binary search: the writers stamp under the lock, but each with its own
  // I-stream's clock, so drain order need not be time order.
  return uint64_t(std::count_if(tods_.begin(), tods_.end(), [&](uint64_t t) { return t >= from && t <= to; }));
}

SyslogStats SyslogDrain::stats() {
  SyslogStats s;
  s.committed = get(base_ + kCtl + offsetof(tpf_syslog_ctl, producer));
  s.full_waits = get(base_ + kCtl + offsetof(tpf_syslog_ctl, full_waits));
  s.checked = get(base_ + kCtl + offsetof(tpf_syslog_ctl, checked));
  s.drained = drained_;
  s.drains = drains_;
  return s;
}

}  // namespace lock
