// The service-call logical processor, as far as a bare-metal program needs it to learn
// its machine and to print: SERVICE CALL's commands READ SCP INFO, WRITE EVENT MASK and
// WRITE EVENT DATA (line-mode messages and the VT220 console), their SCCBs in real
// storage. The SCLP is not in the Principles of Operation; the layouts are those Linux
// (drivers/s390/char/sclp*.h) and QEMU (include/hw/s390x/sclp.h) use, read for facts.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace emu {

class SystemCpu;

class Sclp {
 public:
  // Where console output goes (the ipl command: standard output).
  explicit Sclp(std::function<void(std::string_view)> console) : console_(std::move(console)) {}
  // The console's input: all of it there from the start, handed to READ EVENT DATA a
  // line at a time as VT220 data (the ipl command's --console-input). Known before the
  // run, so a run's bytes depend on it and on nothing of the host's timing.
  void set_console_input(std::string input) { input_ = std::move(input), input_at_ = 0; }
  // SERVICE CALL: `command` from R1, `sccb` the real address from R2. Returns the CC:
  // 0 (the command was accepted: its response code is in the SCCB and the service
  // signal pending). Program exceptions (specification) are raised here.
  unsigned service_call(SystemCpu& cpu, uint32_t command, uint64_t sccb);
  uint64_t commands = 0;

  static constexpr uint32_t kReadScpInfo = 0x00020001, kReadScpInfoForced = 0x00120001;
  static constexpr uint32_t kReadCpuInfo = 0x00010001;
  static constexpr uint32_t kWriteEventData = 0x00760005, kReadEventData = 0x00770005;
  static constexpr uint32_t kWriteEventMask = 0x00780005;
  static constexpr uint8_t kEventMessage = 0x02, kEventVt220 = 0x1A;

 private:
  uint16_t read_scp_info(SystemCpu& cpu, uint64_t sccb, uint16_t length);
  uint16_t read_cpu_info(SystemCpu& cpu, uint64_t sccb, uint16_t length);
  uint16_t write_event_mask(SystemCpu& cpu, uint64_t sccb, uint16_t length);
  uint16_t write_event_data(SystemCpu& cpu, uint64_t sccb, uint16_t length);
  uint16_t read_event_data(SystemCpu& cpu, uint64_t sccb, uint16_t length);
  void line_mode_message(SystemCpu& cpu, uint64_t at, uint64_t end);

  std::function<void(std::string_view)> console_;
  uint32_t guest_send_mask_ = 0;     // the event types the program said it sends (WRITE EVENT MASK)
  uint32_t guest_receive_mask_ = 0;  // and those it receives
  std::string input_;                // console input (set_console_input) and how much was read
  size_t input_at_ = 0;
};

}  // namespace emu
