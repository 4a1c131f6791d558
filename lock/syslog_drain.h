// The control program's side of syslog(): drains the committed records of the ring
// buffer in the shared area (os/guest/include/tpf_syslog.h) into text lines. It runs
// on the host between guest instructions, so the records below the producer index
// are whole; it advances the consumer index after copying them out. Free of charge
// to the guest: it models a log device's DMA, not an ECB.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "emu/address_space.h"
#include "lock/lock_stats.h"

namespace lock {

class SyslogDrain {
 public:
  // `sink` gets the text of each drain (whole lines); without one, the text is kept
  // and returned by text().
  // tod_base: the TOD clock at simulated time 0 (lines show microseconds from there).
  SyslogDrain(emu::AddressSpace& shared, uint64_t shared_base, uint64_t tod_base);
  void set_sink(std::function<void(const std::string&)> sink) { sink_ = std::move(sink); }
  // Copies out every committed record; returns how many.
  uint64_t drain();
  const std::string& text() const { return text_; }
  // The ring's counters as they are now.
  SyslogStats stats();
  uint64_t lock_address() const;
  uint64_t tod_base() const { return tod_base_; }
  // Of the records drained so far, how many carry a time stamp (the TOD clock when
  // syslog() committed them) in [from, to].
  uint64_t drained_between(uint64_t from, uint64_t to) const;

 private:
  uint64_t get(uint64_t addr);
  emu::AddressSpace& space_;
  uint64_t base_;
  uint64_t tod_base_;
  uint64_t drained_ = 0, drains_ = 0;
  std::vector<uint64_t> tods_;  // each drained record's time stamp, in drain order (8 bytes a line)
  std::string text_;
  std::function<void(const std::string&)> sink_;
};

}  // namespace lock
